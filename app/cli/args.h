#pragma once
// A small command-line parser for the animpack subcommands: `--name value`, `--name=value`,
// flags, repeatable options and positionals, with generated --help text.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace animpack::cli {

/// Exit codes: 0 success, 1 failure with a one-line message, 2 bad usage.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

struct Option {
  std::string name;       ///< without dashes, e.g. "json"
  std::string valueName;  ///< empty for a flag
  std::string help;
  bool repeatable = false;
  char shortName = 0;  ///< e.g. 'o' for -o
};

class Args {
 public:
  Args(std::string command, std::string synopsis, std::string description, std::vector<Option> options);

  /// Parses argv[first..]; false on bad usage with `error` set. "--help" sets helpRequested().
  bool parse(int argc, char** argv, int first, std::string& error);
  /// parse() plus the handling every command shares: on bad usage prints the error and returns
  /// kExitUsage, on --help prints the help and returns kExitOk; nullopt means go on.
  std::optional<int> parseOrExit(int argc, char** argv, int first);
  bool helpRequested() const { return m_help; }
  std::string help() const;

  bool has(const std::string& name) const { return m_values.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::vector<std::string> values(const std::string& name) const;
  const std::vector<std::string>& positional() const { return m_positional; }

  /// Parses a numeric option; false with `error` set when it is not a finite number.
  bool number(const std::string& name, std::optional<double>& out, std::string& error) const;

 private:
  const Option* find(const std::string& name) const;
  std::string m_command, m_synopsis, m_description;
  std::vector<Option> m_options;
  std::map<std::string, std::vector<std::string>> m_values;
  std::vector<std::string> m_positional;
  bool m_help = false;
};

/// Prints "animpack: <message>" on stderr and returns kExitFailure.
int failure(const std::string& message);
/// Prints "animpack <command>: <message>" and a hint on stderr and returns kExitUsage.
int usageError(const std::string& command, const std::string& message);
/// Writes `text` to `path` atomically, or to stdout when `path` is "-"; returns kExitOk or a failure.
int writeOutput(const std::string& path, const std::string& text);

}  // namespace animpack::cli
