#include "app/cli/args.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/io/atomic_file.h"

namespace animpack::cli {

Args::Args(std::string command, std::string synopsis, std::string description, std::vector<Option> options)
    : m_command(std::move(command)),
      m_synopsis(std::move(synopsis)),
      m_description(std::move(description)),
      m_options(std::move(options)) {}

const Option* Args::find(const std::string& name) const {
  for (const Option& o : m_options)
    if (o.name == name || (name.size() == 1 && o.shortName == name[0])) return &o;
  return nullptr;
}

std::optional<int> Args::parseOrExit(int argc, char** argv, int first) {
  std::string error;
  if (!parse(argc, argv, first, error)) return usageError(m_command, error);
  if (m_help) {
    std::fputs(help().c_str(), stdout);
    return kExitOk;
  }
  return std::nullopt;
}

bool Args::parse(int argc, char** argv, int first, std::string& error) {
  bool onlyPositional = false;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (onlyPositional || arg.size() < 2 || arg[0] != '-') {
      m_positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      onlyPositional = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") {
      m_help = true;
      continue;
    }
    std::string name, value;
    bool hasValue = false;
    if (arg.rfind("--", 0) == 0) {
      name = arg.substr(2);
      const auto eq = name.find('=');
      if (eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        hasValue = true;
      }
    } else {
      name = arg.substr(1, 1);
      if (arg.size() > 2) {
        value = arg.substr(2);
        hasValue = true;
      }
    }
    const Option* opt = find(name);
    if (!opt) {
      error = "unknown option '" + arg + "'";
      return false;
    }
    if (opt->valueName.empty()) {
      if (hasValue) {
        error = "option --" + opt->name + " takes no value";
        return false;
      }
      m_values[opt->name].push_back("");
      continue;
    }
    if (!hasValue) {
      if (i + 1 >= argc) {
        error = "option --" + opt->name + " needs a value (" + opt->valueName + ")";
        return false;
      }
      value = argv[++i];
    }
    auto& slot = m_values[opt->name];
    if (!slot.empty() && !opt->repeatable) {
      error = "option --" + opt->name + " given twice";
      return false;
    }
    slot.push_back(value);
  }
  return true;
}

std::string Args::help() const {
  std::ostringstream o;
  o << "usage: animpack " << m_command << " " << m_synopsis << "\n\n" << m_description << "\n";
  if (!m_options.empty()) {
    o << "\noptions:\n";
    for (const Option& opt : m_options) {
      std::string left = "  ";
      if (opt.shortName) left += std::string("-") + opt.shortName + ", ";
      left += "--" + opt.name;
      if (!opt.valueName.empty()) left += " " + opt.valueName;
      if (left.size() < 28) left.resize(28, ' ');
      else left += "\n" + std::string(28, ' ');
      o << left << opt.help << (opt.repeatable ? " (repeatable)" : "") << "\n";
    }
  }
  o << "  -h, --help                show this help\n";
  return o.str();
}

std::optional<std::string> Args::value(const std::string& name) const {
  const auto it = m_values.find(name);
  if (it == m_values.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::values(const std::string& name) const {
  const auto it = m_values.find(name);
  return it == m_values.end() ? std::vector<std::string>{} : it->second;
}

bool Args::number(const std::string& name, std::optional<double>& out, std::string& error) const {
  const auto v = value(name);
  if (!v) return true;
  try {
    std::size_t used = 0;
    const double d = std::stod(*v, &used);
    if (used != v->size() || !std::isfinite(d)) throw std::invalid_argument("");
    out = d;
    return true;
  } catch (...) {
    error = "--" + name + " expects a number, got '" + *v + "'";
    return false;
  }
}

int failure(const std::string& message) {
  std::fprintf(stderr, "animpack: %s\n", message.c_str());
  return kExitFailure;
}

int usageError(const std::string& command, const std::string& message) {
  std::fprintf(stderr, "animpack %s: %s\n(see 'animpack %s --help')\n", command.c_str(), message.c_str(),
               command.c_str());
  return kExitUsage;
}

int writeOutput(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }
  if (auto st = core::writeFileAtomic(path, text); !st) return failure(st.message());
  return kExitOk;
}

}  // namespace animpack::cli
