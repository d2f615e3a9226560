#include "core/project/project.h"

#include <pwd.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/io/pack_writer.h"

namespace animpack::core {
namespace {

using Json = nlohmann::json;

std::string hex(std::uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

/// A 16-digit hexadecimal hash; false when `text` is not one.
bool fromHex(const std::string& text, std::uint64_t& out) {
  if (text.empty() || text.size() > 16 || text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    return false;
  out = std::strtoull(text.c_str(), nullptr, 16);
  return true;
}

class Reader {
 public:
  Reader(const std::filesystem::path& path) : m_path(path), m_dir(std::filesystem::absolute(path).parent_path()) {}

  Error fail(const std::string& what) const { return Error{m_path.string() + ": " + what}; }

  Expected<Project> read(const Json& root) {
    if (!root.is_object()) return fail("not a project file (expected a JSON object)");
    const auto version = root.find("animpack_project");
    if (version == root.end() || !version->is_number_integer())
      return fail("not an animpack project (no 'animpack_project' version)");
    const auto v = version->get<std::int64_t>();
    if (v < 1) return fail("project version " + std::to_string(v) + " is not valid");
    if (v > kProjectVersion)
      return fail("project version " + std::to_string(v) + " is newer than this animpack (" +
                  std::to_string(kProjectVersion) + ")");
    Project p;
    if (auto st = common(root, p); !st) return Error{st.message()};
    if (v == 1) {
      if (auto st = version1(root, p); !st) return Error{st.message()};
    } else if (auto st = version2(root, p); !st) {
      return Error{st.message()};
    }
    return p;
  }

 private:
  Status common(const Json& root, Project& p) {
    if (const auto s = root.find("settings"); s != root.end()) {
      auto settings = settingsOf(*s, "settings");
      if (!settings) return Error{settings.message()};
      p.settings = std::move(settings.value());
    }
    if (const auto a = root.find("up_axis"); a != root.end()) {
      if (!a->is_string()) return fail("key 'up_axis': expected a string");
      p.upAxis = a->get<std::string>();
    }
    return Status::ok();
  }

  Expected<CompressionSettings> settingsOf(const Json& value, const std::string& key) {
    if (!value.is_object()) return fail("key '" + key + "': expected an object of settings (docs/SETTINGS.md)");
    return CompressionSettings::fromJson(value.dump(), m_path.string() + " " + key);
  }

  Expected<std::filesystem::path> sourcePath(const Json& value, const std::string& key) {
    if (!value.is_string() || value.get<std::string>().empty()) return fail("key '" + key + "': expected a file path");
    const std::filesystem::path path = std::filesystem::path(value.get<std::string>());
    return (path.is_absolute() ? path : m_dir / path).lexically_normal();
  }

  Status version1(const Json& root, Project& p) {
    const auto source = root.find("source");
    if (source == root.end()) return fail("the project names no source file");
    auto path = sourcePath(*source, "source");
    if (!path) return Error{path.message()};
    p.sources.push_back({*path, std::nullopt});
    p.approvalsBySourceName = true;
    if (const auto clips = root.find("clips"); clips != root.end()) {
      if (!clips->is_array()) return fail("key 'clips': expected an array");
      for (const Json& c : *clips) {
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string())
          return fail("key 'clips': each clip needs a 'name'");
        const std::string name = c["name"].get<std::string>();
        ClipApprovalRecord a;
        if (auto st = approvalState(c, "clips." + name, a); !st) return st;
        if (a.state != ApprovalState::NeedsReview) {
          if (auto st = hash(c, "approved_settings_hash", "clips." + name, a.settingsHash); !st) return st;
          if (auto st = hash(c, "approved_source_hash", "clips." + name, a.sourceHash); !st) return st;
        }
        p.approvals[name] = a;
      }
    }
    return Status::ok();
  }

  Status version2(const Json& root, Project& p) {
    static const std::set<std::string> known = {"animpack_project", "sources",     "settings", "up_axis",
                                                "budget_kib",       "budget_kind", "clips"};
    for (const auto& [k, v] : root.items())
      if (!known.count(k))
        return fail("unknown key '" + k +
                    "' (known: animpack_project, sources, settings, up_axis, budget_kib, budget_kind, clips)");
    const auto sources = root.find("sources");
    if (sources == root.end() || !sources->is_array()) return fail("key 'sources': expected an array of source files");
    std::set<std::filesystem::path> seen;
    for (std::size_t i = 0; i < sources->size(); ++i) {
      const Json& s = (*sources)[i];
      const std::string key = "sources[" + std::to_string(i) + "]";
      if (!s.is_object()) return fail("key '" + key + "': expected an object with 'path'");
      for (const auto& [k, v] : s.items())
        if (k != "path" && k != "settings") return fail("key '" + key + "." + k + "': unknown (known: path, settings)");
      if (!s.contains("path")) return fail("key '" + key + "': no 'path'");
      auto path = sourcePath(s["path"], key + ".path");
      if (!path) return Error{path.message()};
      if (!seen.insert(*path).second) return fail("key '" + key + ".path': '" + path->string() + "' is listed twice");
      ProjectSource source{*path, std::nullopt};
      if (s.contains("settings")) {
        auto settings = settingsOf(s["settings"], key + ".settings");
        if (!settings) return Error{settings.message()};
        source.settings = std::move(settings.value());
      }
      p.sources.push_back(std::move(source));
    }
    if (const auto b = root.find("budget_kib"); b != root.end() && !b->is_null()) {
      if (!b->is_number() || !(b->get<double>() > 0) || !std::isfinite(b->get<double>()))
        return fail("key 'budget_kib': expected a positive number of KiB");
      p.budgetKib = b->get<double>();
    }
    // Projects written before budgets had a kind limited the pack file.
    p.budgetKind = BudgetKind::Pack;
    if (const auto k = root.find("budget_kind"); k != root.end()) {
      const auto kind = k->is_string() ? budgetKindFromName(k->get<std::string>()) : std::nullopt;
      if (!kind) return fail("key 'budget_kind': expected \"resident\" or \"pack\"");
      p.budgetKind = *kind;
    }
    if (const auto clips = root.find("clips"); clips != root.end()) {
      if (!clips->is_object()) return fail("key 'clips': expected an object of pack clip names");
      for (const auto& [name, c] : clips->items()) {
        const std::string key = "clips." + name;
        if (name.empty()) return fail("key 'clips': a clip name is empty");
        if (!c.is_object()) return fail("key '" + key + "': expected an object");
        ClipApprovalRecord a;
        if (auto st = approvalRecord(c, key, a); !st) return st;
        p.approvals[name] = a;
      }
    }
    return Status::ok();
  }

  Status approvalState(const Json& c, const std::string& key, ClipApprovalRecord& a) {
    const auto state = c.find("approval");
    if (state == c.end()) return Status::ok();
    if (!state->is_string()) return fail("key '" + key + ".approval': expected needs_review, approved or rejected");
    const auto parsed = approvalStateFromName(state->get<std::string>());
    if (!parsed)
      return fail("key '" + key + ".approval': unknown approval '" + state->get<std::string>() +
                  "' (needs_review, approved, rejected)");
    a.state = *parsed;
    return Status::ok();
  }

  Status hash(const Json& c, const char* field, const std::string& key, std::uint64_t& out) {
    const auto h = c.find(field);
    if (h == c.end() || !h->is_string() || !fromHex(h->get<std::string>(), out))
      return fail("key '" + key + "." + field + "': expected a hexadecimal hash");
    return Status::ok();
  }

  Status text(const Json& c, const char* field, const std::string& key, std::string& out) {
    const auto t = c.find(field);
    if (t == c.end()) return Status::ok();
    if (!t->is_string()) return fail("key '" + key + "." + field + "': expected a string");
    out = t->get<std::string>();
    return Status::ok();
  }

  Status approvalRecord(const Json& c, const std::string& key, ClipApprovalRecord& a) {
    static const std::set<std::string> known = {"approval", "settings_hash", "source_hash", "by", "at", "max_error_cm"};
    for (const auto& [k, v] : c.items())
      if (!known.count(k))
        return fail("key '" + key + "." + k +
                    "': unknown (known: approval, settings_hash, source_hash, by, at, max_error_cm)");
    if (auto st = approvalState(c, key, a); !st) return st;
    if (a.state == ApprovalState::NeedsReview) return Status::ok();
    if (auto st = hash(c, "settings_hash", key, a.settingsHash); !st) return st;
    if (auto st = hash(c, "source_hash", key, a.sourceHash); !st) return st;
    if (auto st = text(c, "by", key, a.who); !st) return st;
    if (auto st = text(c, "at", key, a.when); !st) return st;
    if (const auto e = c.find("max_error_cm"); e != c.end() && !e->is_null()) {
      if (!e->is_number() || !(e->get<double>() >= 0) || !std::isfinite(e->get<double>()))
        return fail("key '" + key + ".max_error_cm': expected a number of cm, 0 or more");
      a.maxErrorCm = e->get<float>();
    }
    return Status::ok();
  }

  std::filesystem::path m_path;
  std::filesystem::path m_dir;
};

/// `path` relative to `dir` when it sits in or below it, else absolute ('/'-separated).
std::string storedPath(const std::filesystem::path& path, const std::filesystem::path& dir) {
  const auto relative = path.lexically_relative(dir);
  if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
  return path.generic_string();
}

}  // namespace

const char* approvalStateName(ApprovalState state) {
  switch (state) {
    case ApprovalState::NeedsReview: return "needs_review";
    case ApprovalState::Approved: return "approved";
    case ApprovalState::Rejected: return "rejected";
  }
  return "needs_review";
}

std::optional<ApprovalState> approvalStateFromName(std::string_view name) {
  if (name == "needs_review") return ApprovalState::NeedsReview;
  if (name == "approved") return ApprovalState::Approved;
  if (name == "rejected") return ApprovalState::Rejected;
  return std::nullopt;
}

std::string approvalOutdated(const ClipApprovalRecord& a, std::uint64_t settingsHash, std::uint64_t sourceHash) {
  if (a.state == ApprovalState::NeedsReview) return "";
  const char* decision = a.state == ApprovalState::Approved ? "approved" : "rejected";
  if (a.settingsHash != settingsHash) return std::string("its settings changed since it was ") + decision;
  if (a.sourceHash != sourceHash) return std::string("its source file changed since it was ") + decision;
  return "";
}

std::string approvalMismatch(const ClipApprovalRecord& a, std::uint64_t settingsHash, std::uint64_t sourceHash,
                             float maxErrorCm) {
  if (a.state == ApprovalState::NeedsReview) return "not approved";
  if (a.state == ApprovalState::Rejected) return "rejected";
  if (auto why = approvalOutdated(a, settingsHash, sourceHash); !why.empty()) return why;
  // A float written as JSON and read back is the same float; allow its last digit anyway.
  if (a.maxErrorCm && maxErrorCm > *a.maxErrorCm * (1.f + 1e-6f))
    return "its max error " + std::to_string(maxErrorCm) + " cm is above the approved " +
           std::to_string(*a.maxErrorCm) + " cm";
  return "";
}

CompressionSettings stackedSettings(const CompressionSettings& project, const std::optional<CompressionSettings>& own) {
  CompressionSettings s = project;
  if (own) s.merge(*own);
  return s;
}

CompressionSettings Project::settingsFor(std::size_t index) const {
  return stackedSettings(settings, index < sources.size() ? sources[index].settings : std::nullopt);
}

const ClipApprovalRecord* Project::approval(const std::string& packName, const std::string& sourceClip) const {
  const auto it = approvals.find(approvalsBySourceName ? sourceClip : packName);
  return it == approvals.end() ? nullptr : &it->second;
}

std::size_t Project::addSources(const std::vector<std::filesystem::path>& files) {
  std::set<std::filesystem::path> listed;
  for (const ProjectSource& s : sources) listed.insert(s.path);
  std::size_t added = 0;
  for (const auto& f : files) {
    const auto path = std::filesystem::absolute(f).lexically_normal();
    if (!listed.insert(path).second) continue;
    sources.push_back({path, std::nullopt});
    ++added;
  }
  return added;
}

void Project::removeSource(std::size_t index) {
  if (index < sources.size()) sources.erase(sources.begin() + std::ptrdiff_t(index));
}

Expected<Project> parseProject(std::string_view text, const std::filesystem::path& projectPath) {
  Reader reader(projectPath);
  Json root;
  try {
    root = Json::parse(text);
  } catch (const std::exception& e) {
    return reader.fail(std::string("not a project file (") + e.what() + ")");
  }
  return reader.read(root);
}

Expected<Project> readProject(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path.string() + ": cannot open the project file"};
  std::ostringstream text;
  text << in.rdbuf();
  return parseProject(text.str(), path);
}

std::string projectJson(const Project& p, const std::filesystem::path& projectPath) {
  using OJson = nlohmann::ordered_json;
  const auto dir = std::filesystem::absolute(projectPath).parent_path();
  OJson root;
  root["animpack_project"] = kProjectVersion;
  OJson sources = OJson::array();
  for (const ProjectSource& s : p.sources) {
    OJson entry;
    entry["path"] = storedPath(s.path, dir);
    if (s.settings) entry["settings"] = OJson::parse(s.settings->toJson());
    sources.push_back(entry);
  }
  root["sources"] = sources;
  root["settings"] = OJson::parse(p.settings.toJson());
  root["up_axis"] = p.upAxis;
  if (p.budgetKib) root["budget_kib"] = *p.budgetKib;
  root["budget_kind"] = budgetKindName(p.budgetKind);
  OJson clips = OJson::object();
  for (const auto& [name, a] : p.approvals) {
    OJson c;
    c["approval"] = approvalStateName(a.state);
    if (a.state != ApprovalState::NeedsReview) {
      c["settings_hash"] = hex(a.settingsHash);
      c["source_hash"] = hex(a.sourceHash);
      if (!a.who.empty()) c["by"] = a.who;
      if (!a.when.empty()) c["at"] = a.when;
      if (a.maxErrorCm) c["max_error_cm"] = *a.maxErrorCm;
    }
    clips[name] = c;
  }
  root["clips"] = clips;
  return root.dump(2) + "\n";
}

Status writeProject(const Project& project, const std::filesystem::path& path) {
  const std::string text = projectJson(project, path);
  return writeFileAtomic(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

std::string currentUserName() {
  for (const char* var : {"USER", "LOGNAME"})
    if (const char* v = std::getenv(var); v && *v) return v;
  if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_name) return pw->pw_name;
  return "unknown";
}

std::string utcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

}  // namespace animpack::core
