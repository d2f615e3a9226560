#include "core/compress/settings.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/runtime/hash.h"

namespace animpack::core {
namespace {

using Json = nlohmann::ordered_json;

struct Range {
  double min, max;
  bool minExclusive;
};
constexpr Range kPrecisionRange{kMinPrecisionCm, kMaxPrecisionCm, false};
constexpr Range kShellRange{kMinShellCm, kMaxShellCm, false};
constexpr Range kSnapshotRange{0.05, 3600.0, false};
constexpr Range kUnitRange{0.0, 1e6, true};
constexpr Range kSceneScaleRange{kMinSceneScale, kMaxSceneScale, false};
constexpr Range kRateRange{0.0, 10000.0, true};

std::string describe(const Range& r, const char* unit) {
  std::ostringstream o;
  o << (r.minExclusive ? "a number above " : "a number from ") << r.min << " to " << r.max << " " << unit;
  return o.str();
}

Status checkRange(std::optional<double> v, const Range& r, const std::string& key, const char* unit) {
  if (!v) return Status::ok();
  const bool ok = std::isfinite(*v) && (r.minExclusive ? *v > r.min : *v >= r.min) && *v <= r.max;
  if (ok) return Status::ok();
  std::ostringstream o;
  o << "key '" << key << "': expected " << describe(r, unit) << ", got " << *v;
  return Error{o.str()};
}

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string unknownKey(const std::string& path, const std::string& key, std::initializer_list<const char*> known) {
  std::string message = "unknown key '" + path + key + "'";
  std::string best;
  std::size_t bestDistance = 4;
  for (const char* k : known) {
    const std::size_t d = editDistance(key, k);
    if (d < bestDistance) {
      bestDistance = d;
      best = k;
    }
  }
  if (!best.empty()) message += " (did you mean '" + best + "'?)";
  return message;
}

std::optional<double> widen(std::optional<float> v) { return v ? std::optional<double>(*v) : std::nullopt; }
/// A shell value to range-check: "mesh" is always valid.
std::optional<double> numericShell(std::optional<float> v) {
  return v && *v == kShellFromMesh ? std::nullopt : widen(v);
}

Json shellJson(float v) { return v == kShellFromMesh ? Json("mesh") : Json(v); }
Json additiveBaseJson(const std::string& base) { return base.empty() ? Json(nullptr) : Json(base); }
Json loopJson(LoopPolicy p) { return p == LoopPolicy::Auto ? Json("auto") : Json(p == LoopPolicy::On); }

class Parser {
 public:
  explicit Parser(std::string_view source) : m_source(source) {}

  Error error(const std::string& message) const { return Error{std::string(m_source) + ": " + message}; }

  Status number(const Json& value, const std::string& key, std::optional<float>& out) {
    std::optional<double> d;
    if (auto st = number(value, key, d); !st) return st;
    if (d) out = static_cast<float>(*d);
    return Status::ok();
  }
  Status number(const Json& value, const std::string& key, std::optional<double>& out) {
    if (value.is_null()) {
      out.reset();
      return Status::ok();
    }
    if (!value.is_number()) return error("key '" + key + "': expected a number, got " + value.dump());
    out = value.get<double>();
    return Status::ok();
  }
  Status shell(const Json& value, const std::string& key, std::optional<float>& out) {
    if (value == "mesh") {
      out = kShellFromMesh;
      return Status::ok();
    }
    if (value.is_string()) return error("key '" + key + "': expected a number of cm or \"mesh\", got " + value.dump());
    if (auto st = number(value, key, out); !st) return st;
    // The sentinel is a negative number: check here so that a -1 in a file is an error, not "mesh".
    if (auto st = checkRange(widen(out), kShellRange, key, "cm"); !st) return error(st.message());
    return Status::ok();
  }
  Status boolean(const Json& value, const std::string& key, std::optional<bool>& out) {
    if (value.is_null()) return Status::ok();
    if (!value.is_boolean()) return error("key '" + key + "': expected true or false, got " + value.dump());
    out = value.get<bool>();
    return Status::ok();
  }
  /// One of two named values (null: unset).
  template <class E>
  Status either(const Json& value, const std::string& key, const char* a, E va, const char* b, E vb,
                std::optional<E>& out) {
    if (value.is_null()) return Status::ok();
    if (value == a) out = va;
    else if (value == b) out = vb;
    else return error("key '" + key + "': expected \"" + a + "\" or \"" + b + "\", got " + value.dump());
    return Status::ok();
  }
  Status format(const Json& value, const std::string& key, std::optional<RotationFormat>& out) {
    return either(value, key, "q48", RotationFormat::Q48, "q32", RotationFormat::Q32, out);
  }

  Status loop(const Json& value, const std::string& key, std::optional<LoopPolicy>& out) {
    if (value.is_null()) return Status::ok();
    if (value == "auto") out = LoopPolicy::Auto;
    else if (value.is_boolean()) out = value.get<bool>() ? LoopPolicy::On : LoopPolicy::Off;
    else return error("key '" + key + "': expected \"auto\", true or false, got " + value.dump());
    return Status::ok();
  }

  Status rootMotion(const Json& value, const std::string& key, std::optional<RootMotionMode>& out) {
    return either(value, key, "keep", RootMotionMode::Keep, "extract", RootMotionMode::Extract, out);
  }
  Status rootJoint(const Json& value, const std::string& key, std::optional<std::string>& out) {
    if (value.is_null()) return Status::ok();
    if (!value.is_string() || value.get<std::string>().empty())
      return error("key '" + key + "': expected a joint name or null, got " + value.dump());
    out = value.get<std::string>();
    return Status::ok();
  }
  // null is kept (an explicit "not additive" overrides a top-level base); the clip is found later.
  Status additiveBase(const Json& value, const std::string& key, std::optional<std::string>& out) {
    if (value.is_null()) out = std::string();
    else if (value.is_string() && !value.get<std::string>().empty()) out = value.get<std::string>();
    else return error("key '" + key + "': expected \"rest\", a clip name, \"CLIP@FRAME\" or null, got " + value.dump());
    return Status::ok();
  }

  Status lod(const Json& value, const std::string& key, std::optional<JointOrder>& out) {
    JointOrder o;
    if (value == "source") o.kind = JointOrder::Kind::Source;
    else if (value == "depth") o.kind = JointOrder::Kind::Depth;
    else if (value.is_array() && !value.empty()) {
      o.kind = JointOrder::Kind::List;
      for (const Json& e : value) {
        if (!e.is_string() || e.get<std::string>().empty())
          return error("key '" + key + "': expected joint names or wildcards, got " + e.dump());
        o.first.push_back(e.get<std::string>());
      }
    } else {
      return error("key '" + key + "': expected \"source\", \"depth\" or a list of joint names, got " + value.dump());
    }
    out = std::move(o);
    return Status::ok();
  }

  /// An object of rules by name or wildcard (`what`: "joint", "clip", ...), in file order; `body`
  /// parses one key of one rule, `expected` says what a rule is.
  template <class Rule, class Body>
  Status rules(const Json& value, const std::string& path, const std::string& what, const std::string& expected,
               std::vector<std::pair<std::string, Rule>>& out, Body body) {
    if (!value.is_object()) return error("key '" + path + "': expected an object of " + what + " names or wildcards");
    for (const auto& [pattern, rule] : value.items()) {
      const std::string key = path + "." + pattern;
      if (pattern.empty()) return error("key '" + path + "': a " + what + " name or wildcard is empty");
      if (!rule.is_object()) return error("key '" + key + "': expected " + expected);
      Rule o;
      for (const auto& [k, v] : rule.items())
        if (Status st = body(key, k, v, o); !st) return st;
      out.emplace_back(pattern, std::move(o));
    }
    return Status::ok();
  }

  Status jointRules(const Json& value, const std::string& path,
                    std::vector<std::pair<std::string, JointOverride>>& out) {
    return rules(value, path, "joint", "an object with precision_cm, shell_cm or pinned", out,
                 [&](const std::string& key, const std::string& k, const Json& v, JointOverride& o) -> Status {
                   if (k == "precision_cm") return number(v, key + ".precision_cm", o.precisionCm);
                   if (k == "shell_cm") return shell(v, key + ".shell_cm", o.shellCm);
                   if (k == "pinned") return boolean(v, key + ".pinned", o.pinned);
                   return error(unknownKey(key + ".", k, {"precision_cm", "shell_cm", "pinned"}));
                 });
  }

  Status morphRules(const Json& value, const std::string& path,
                    std::vector<std::pair<std::string, MorphOverride>>& out) {
    return rules(
        value, path, "morph target", "an object with precision_cm", out,
        [&](const std::string& key, const std::string& k, const Json& v, MorphOverride& o) -> Status {
          if (k == "precision_cm") return number(v, key + ".precision_cm", o.precisionCm);
          if (k == "shell_cm" || k == "pinned")
            return error("key '" + key + "." + k + "': a morph rule takes only precision_cm (" + k + " is for joints)");
          return error(unknownKey(key + ".", k, {"precision_cm"}));
        });
  }

  Status clipRules(const Json& value, std::vector<std::pair<std::string, ClipOverride>>& out) {
    return rules(value, "clips", "clip", "an object", out,
                 [&](const std::string& key, const std::string& k, const Json& v, ClipOverride& c) -> Status {
                   const std::string sub = key + "." + k;
                   if (k == "name") {
                     if (!v.is_string() || v.get<std::string>().empty())
                       return error("key '" + sub + "': expected a non-empty string");
                     c.name = v.get<std::string>();
                     return Status::ok();
                   }
                   if (k == "precision_cm") return number(v, sub, c.precisionCm);
                   if (k == "shell_cm") return shell(v, sub, c.shellCm);
                   if (k == "rotation_format") return format(v, sub, c.rotationFormat);
                   if (k == "snapshot_interval_s") return number(v, sub, c.snapshotIntervalS);
                   if (k == "unit_to_cm") return number(v, sub, c.unitToCm);
                   if (k == "scene_scale") return number(v, sub, c.sceneScale);
                   if (k == "sample_rate") return number(v, sub, c.sampleRate);
                   if (k == "loop") return loop(v, sub, c.loop);
                   if (k == "root_motion") return rootMotion(v, sub, c.rootMotion);
                   if (k == "root_joint") return rootJoint(v, sub, c.rootJoint);
                   if (k == "additive_base") return additiveBase(v, sub, c.additiveBase);
                   if (k == "joints") return jointRules(v, sub, c.joints);
                   if (k == "morphs") return morphRules(v, sub, c.morphs);
                   if (k == "lod")
                     return error("key '" + sub +
                                  "': every clip of a pack shares one skeleton, so the joint order is set at the top "
                                  "level only");
                   return error(unknownKey(key + ".", k,
                                           {"name", "precision_cm", "shell_cm", "rotation_format",
                                            "snapshot_interval_s", "unit_to_cm", "scene_scale", "sample_rate", "loop",
                                            "root_motion", "root_joint", "additive_base", "joints", "morphs"}));
                 });
  }

  Status top(const Json& doc, CompressionSettings& s) {
    if (!doc.is_object()) return error("expected a JSON object at the top level");
    for (const auto& [k, v] : doc.items()) {
      Status st;
      if (k == "precision_cm") st = number(v, k, s.precisionCm);
      else if (k == "shell_cm") st = shell(v, k, s.shellCm);
      else if (k == "shell_fallback_cm") st = number(v, k, s.shellFallbackCm);
      else if (k == "rotation_format") st = format(v, k, s.rotationFormat);
      else if (k == "snapshot_interval_s") st = number(v, k, s.snapshotIntervalS);
      else if (k == "unit_to_cm") st = number(v, k, s.unitToCm);
      else if (k == "scene_scale") st = number(v, k, s.sceneScale);
      else if (k == "sample_rate") st = number(v, k, s.sampleRate);
      else if (k == "loop") st = loop(v, k, s.loop);
      else if (k == "root_motion") st = rootMotion(v, k, s.rootMotion);
      else if (k == "root_joint") st = rootJoint(v, k, s.rootJoint);
      else if (k == "additive_base") st = additiveBase(v, k, s.additiveBase);
      else if (k == "joints") st = jointRules(v, "joints", s.joints);
      else if (k == "morphs") st = morphRules(v, "morphs", s.morphs);
      else if (k == "clips") st = clipRules(v, s.clips);
      else if (k == "lod") st = lod(v, k, s.lod);
      else if (k == "description") {
        if (!v.is_string()) return error("key 'description': expected a string");
        s.description = v.get<std::string>();
      } else {
        return error(
            unknownKey("", k,
                       {"precision_cm", "shell_cm", "shell_fallback_cm", "rotation_format", "snapshot_interval_s",
                        "unit_to_cm", "scene_scale", "sample_rate", "loop", "root_motion", "root_joint",
                        "additive_base", "lod", "joints", "morphs", "clips", "description"}));
      }
      if (!st) return st;
    }
    return Status::ok();
  }

 private:
  std::string_view m_source;
};

/// Every rule's pattern is non-empty and `check` accepts its values.
template <class Rule, class Check>
Status validateRules(const std::vector<std::pair<std::string, Rule>>& rules, const std::string& path,
                     const std::string& what, Check check) {
  for (const auto& [pattern, o] : rules) {
    if (pattern.empty()) return Error{"key '" + path + "': a " + what + " name or wildcard is empty"};
    if (Status st = check(path + "." + pattern, o); !st) return st;
  }
  return Status::ok();
}

Status validateJointRules(const std::vector<std::pair<std::string, JointOverride>>& rules, const std::string& path) {
  return validateRules(rules, path, "joint", [](const std::string& key, const JointOverride& o) -> Status {
    if (auto st = checkRange(widen(o.precisionCm), kPrecisionRange, key + ".precision_cm", "cm"); !st) return st;
    return checkRange(numericShell(o.shellCm), kShellRange, key + ".shell_cm", "cm");
  });
}

Status validateMorphRules(const std::vector<std::pair<std::string, MorphOverride>>& rules, const std::string& path) {
  return validateRules(rules, path, "morph target", [](const std::string& key, const MorphOverride& o) {
    return checkRange(widen(o.precisionCm), kPrecisionRange, key + ".precision_cm", "cm");
  });
}

Json ruleJson(const JointOverride& o) {
  Json r = Json::object();
  if (o.precisionCm) r["precision_cm"] = *o.precisionCm;
  if (o.shellCm) r["shell_cm"] = shellJson(*o.shellCm);
  if (o.pinned) r["pinned"] = *o.pinned;
  return r;
}

Json ruleJson(const MorphOverride& o) {
  Json r = Json::object();
  if (o.precisionCm) r["precision_cm"] = *o.precisionCm;
  return r;
}

template <class Rule>
Json rulesJson(const std::vector<std::pair<std::string, Rule>>& rules) {
  Json j = Json::object();
  for (const auto& [pattern, o] : rules) j[pattern] = ruleJson(o);
  return j;
}

void mergeRule(JointOverride& base, const JointOverride& over) {
  if (over.precisionCm) base.precisionCm = over.precisionCm;
  if (over.shellCm) base.shellCm = over.shellCm;
  if (over.pinned) base.pinned = over.pinned;
}

void mergeRule(MorphOverride& base, const MorphOverride& over) {
  if (over.precisionCm) base.precisionCm = over.precisionCm;
}

template <class Rule>
void mergeRules(std::vector<std::pair<std::string, Rule>>& base,
                const std::vector<std::pair<std::string, Rule>>& over) {
  for (const auto& [pattern, o] : over) {
    auto it = std::find_if(base.begin(), base.end(), [&p = pattern](const auto& r) { return r.first == p; });
    if (it == base.end()) base.emplace_back(pattern, o);
    else mergeRule(it->second, o);
  }
}

/// The most specific rule that sets a field: exact name first, then the longest matching wildcard.
template <typename Rule, typename Get>
auto lookup(const std::vector<std::pair<std::string, Rule>>& rules, std::string_view name, Get get)
    -> decltype(get(std::declval<const Rule&>())) {
  decltype(get(std::declval<const Rule&>())) best;
  std::size_t bestLength = 0;
  bool exact = false;
  for (const auto& [pattern, o] : rules) {
    const auto v = get(o);
    if (!v) continue;
    if (!isWildcard(pattern)) {
      if (pattern == name && !exact) {
        best = v;
        exact = true;
      }
      continue;
    }
    if (!exact && wildcardMatch(pattern, name) && (pattern.size() > bestLength || !best)) {
      best = v;
      bestLength = pattern.size();
    }
  }
  return best;
}

/// A morph curve's precision (docs/SETTINGS.md "Morph targets"): no parent to inherit from.
float curvePrecision(const CompressionSettings& settings, const ClipOverride* clip, std::string_view name) {
  const auto get = [](const MorphOverride& o) { return o.precisionCm; };
  if (clip) {
    if (auto v = lookup(clip->morphs, name, get)) return *v;
    if (clip->precisionCm) return *clip->precisionCm;
  }
  return lookup(settings.morphs, name, get).value_or(settings.precisionCm.value_or(kDefaultPrecisionCm));
}

}  // namespace

bool isWildcard(std::string_view pattern) { return pattern.find_first_of("*?") != std::string_view::npos; }

bool wildcardMatch(std::string_view pattern, std::string_view name) {
  // Iterative glob with backtracking to the last '*'.
  std::size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

const char* loopPolicyName(LoopPolicy policy) {
  return policy == LoopPolicy::On ? "true" : policy == LoopPolicy::Off ? "false" : "auto";
}

const char* rootMotionModeName(RootMotionMode mode) { return mode == RootMotionMode::Extract ? "extract" : "keep"; }

const char* rotationFormatName(RotationFormat format) { return format == RotationFormat::Q32 ? "q32" : "q48"; }

Status CompressionSettings::validate() const {
  if (auto st = checkRange(widen(precisionCm), kPrecisionRange, "precision_cm", "cm"); !st) return st;
  if (auto st = checkRange(numericShell(shellCm), kShellRange, "shell_cm", "cm"); !st) return st;
  if (auto st = checkRange(widen(shellFallbackCm), kShellRange, "shell_fallback_cm", "cm"); !st) return st;
  if (auto st = checkRange(widen(snapshotIntervalS), kSnapshotRange, "snapshot_interval_s", "s"); !st) return st;
  if (auto st = checkRange(unitToCm, kUnitRange, "unit_to_cm", "cm per unit"); !st) return st;
  if (auto st = checkRange(sceneScale, kSceneScaleRange, "scene_scale", "(a scale factor)"); !st) return st;
  if (auto st = checkRange(sampleRate, kRateRange, "sample_rate", "Hz"); !st) return st;
  if (auto st = validateJointRules(joints, "joints"); !st) return st;
  if (auto st = validateMorphRules(morphs, "morphs"); !st) return st;
  for (const auto& [pattern, c] : clips) {
    const std::string key = "clips." + pattern;
    if (pattern.empty()) return Error{"key 'clips': a clip name or wildcard is empty"};
    if (c.name && isWildcard(pattern))
      return Error{"key '" + key + ".name': a wildcard matches many clips, so it cannot name one"};
    if (c.name && c.name->empty()) return Error{"key '" + key + ".name': the name is empty"};
    if (auto st = checkRange(widen(c.precisionCm), kPrecisionRange, key + ".precision_cm", "cm"); !st) return st;
    if (auto st = checkRange(numericShell(c.shellCm), kShellRange, key + ".shell_cm", "cm"); !st) return st;
    if (auto st = checkRange(widen(c.snapshotIntervalS), kSnapshotRange, key + ".snapshot_interval_s", "s"); !st)
      return st;
    if (auto st = checkRange(c.unitToCm, kUnitRange, key + ".unit_to_cm", "cm per unit"); !st) return st;
    if (auto st = checkRange(c.sceneScale, kSceneScaleRange, key + ".scene_scale", "(a scale factor)"); !st) return st;
    if (auto st = checkRange(c.sampleRate, kRateRange, key + ".sample_rate", "Hz"); !st) return st;
    if (auto st = validateJointRules(c.joints, key + ".joints"); !st) return st;
    if (auto st = validateMorphRules(c.morphs, key + ".morphs"); !st) return st;
  }
  return Status::ok();
}

Expected<CompressionSettings> CompressionSettings::fromJson(std::string_view text, std::string_view source) {
  Json doc;
  try {
    doc = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    return Error{std::string(source) + ": not valid JSON (" + e.what() + ")"};
  }
  CompressionSettings s;
  Parser parser(source);
  if (auto st = parser.top(doc, s); !st) return Error{st.message()};
  if (auto st = s.validate(); !st) return Error{std::string(source) + ": " + st.message()};
  return s;
}

Expected<CompressionSettings> CompressionSettings::load(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{path.string() + ": is a directory, not a settings file"};
  std::ifstream in(path);
  if (!in) return Error{path.string() + ": cannot open the settings file"};
  std::stringstream buffer;
  buffer << in.rdbuf();
  return fromJson(buffer.str(), path.string());
}

std::string CompressionSettings::toJson() const {
  Json j = Json::object();
  if (!description.empty()) j["description"] = description;
  if (precisionCm) j["precision_cm"] = *precisionCm;
  if (shellCm) j["shell_cm"] = shellJson(*shellCm);
  if (shellFallbackCm) j["shell_fallback_cm"] = *shellFallbackCm;
  if (rotationFormat) j["rotation_format"] = rotationFormatName(*rotationFormat);
  if (snapshotIntervalS) j["snapshot_interval_s"] = *snapshotIntervalS;
  if (unitToCm) j["unit_to_cm"] = *unitToCm;
  if (sceneScale) j["scene_scale"] = *sceneScale;
  if (sampleRate) j["sample_rate"] = *sampleRate;
  if (loop) j["loop"] = loopJson(*loop);
  if (rootMotion) j["root_motion"] = rootMotionModeName(*rootMotion);
  if (rootJoint) j["root_joint"] = *rootJoint;
  if (additiveBase) j["additive_base"] = additiveBaseJson(*additiveBase);
  if (lod)
    j["lod"] = lod->kind == JointOrder::Kind::List    ? Json(lod->first)
               : lod->kind == JointOrder::Kind::Depth ? Json("depth")
                                                      : Json("source");
  if (!joints.empty()) j["joints"] = rulesJson(joints);
  if (!morphs.empty()) j["morphs"] = rulesJson(morphs);
  if (!clips.empty()) {
    Json c = Json::object();
    for (const auto& [pattern, o] : clips) {
      Json r = Json::object();
      if (o.name) r["name"] = *o.name;
      if (o.precisionCm) r["precision_cm"] = *o.precisionCm;
      if (o.shellCm) r["shell_cm"] = shellJson(*o.shellCm);
      if (o.rotationFormat) r["rotation_format"] = rotationFormatName(*o.rotationFormat);
      if (o.snapshotIntervalS) r["snapshot_interval_s"] = *o.snapshotIntervalS;
      if (o.unitToCm) r["unit_to_cm"] = *o.unitToCm;
      if (o.sceneScale) r["scene_scale"] = *o.sceneScale;
      if (o.sampleRate) r["sample_rate"] = *o.sampleRate;
      if (o.loop) r["loop"] = loopJson(*o.loop);
      if (o.rootMotion) r["root_motion"] = rootMotionModeName(*o.rootMotion);
      if (o.rootJoint) r["root_joint"] = *o.rootJoint;
      if (o.additiveBase) r["additive_base"] = additiveBaseJson(*o.additiveBase);
      if (!o.joints.empty()) r["joints"] = rulesJson(o.joints);
      if (!o.morphs.empty()) r["morphs"] = rulesJson(o.morphs);
      c[pattern] = r;
    }
    j["clips"] = c;
  }
  return j.dump(2);
}

void CompressionSettings::merge(const CompressionSettings& over) {
  if (over.precisionCm) precisionCm = over.precisionCm;
  if (over.shellCm) shellCm = over.shellCm;
  if (over.shellFallbackCm) shellFallbackCm = over.shellFallbackCm;
  if (over.rotationFormat) rotationFormat = over.rotationFormat;
  if (over.snapshotIntervalS) snapshotIntervalS = over.snapshotIntervalS;
  if (over.unitToCm) unitToCm = over.unitToCm;
  if (over.sceneScale) sceneScale = over.sceneScale;
  if (over.sampleRate) sampleRate = over.sampleRate;
  if (over.loop) loop = over.loop;
  if (over.rootMotion) rootMotion = over.rootMotion;
  if (over.rootJoint) rootJoint = over.rootJoint;
  if (over.additiveBase) additiveBase = over.additiveBase;
  if (over.lod) lod = over.lod;
  if (!over.description.empty()) description = over.description;
  mergeRules(joints, over.joints);
  mergeRules(morphs, over.morphs);
  for (const auto& [pattern, o] : over.clips) {
    auto it = std::find_if(clips.begin(), clips.end(), [&p = pattern](const auto& r) { return r.first == p; });
    if (it == clips.end()) {
      clips.emplace_back(pattern, o);
      continue;
    }
    ClipOverride& c = it->second;
    if (o.precisionCm) c.precisionCm = o.precisionCm;
    if (o.shellCm) c.shellCm = o.shellCm;
    if (o.rotationFormat) c.rotationFormat = o.rotationFormat;
    if (o.snapshotIntervalS) c.snapshotIntervalS = o.snapshotIntervalS;
    if (o.unitToCm) c.unitToCm = o.unitToCm;
    if (o.sceneScale) c.sceneScale = o.sceneScale;
    if (o.sampleRate) c.sampleRate = o.sampleRate;
    if (o.loop) c.loop = o.loop;
    if (o.rootMotion) c.rootMotion = o.rootMotion;
    if (o.rootJoint) c.rootJoint = o.rootJoint;
    if (o.additiveBase) c.additiveBase = o.additiveBase;
    mergeRules(c.joints, o.joints);
    mergeRules(c.morphs, o.morphs);
  }
}

std::uint64_t CompressionSettings::hash() const { return runtime::fnv1a64(toJson()); }

std::uint64_t EffectiveSettings::hash() const {
  using runtime::fnv1a64Value;
  std::uint64_t h = fnv1a64Value(static_cast<std::uint32_t>(joints.size()), runtime::kFnvOffset);
  for (const EffectiveJoint& j : joints) {
    h = fnv1a64Value(j.precisionCm, h);
    h = fnv1a64Value(j.shellCm, h);
    h = fnv1a64Value(static_cast<std::uint8_t>(j.pinned), h);
  }
  h = fnv1a64Value(static_cast<std::uint8_t>(rotationFormat), h);
  h = fnv1a64Value(snapshotIntervalS, h);
  h = fnv1a64Value(unitToCm.value_or(-1.0), h);
  h = fnv1a64Value(sampleRate.value_or(-1.0), h);
  h = fnv1a64Value(static_cast<std::uint8_t>(verifySkin), h);
  // Appended only when it differs from the default, so packs compressed before the setting
  // existed keep their settings hash (and their approvals).
  if (loop != LoopPolicy::Auto) h = fnv1a64Value(static_cast<std::uint8_t>(loop), h);
  if (rootMotion != RootMotionMode::Keep)
    h = runtime::fnv1a64(rootJoint, fnv1a64Value(static_cast<std::uint8_t>(rootMotion), h));
  if (!additiveBase.empty()) h = runtime::fnv1a64(additiveBase, fnv1a64Value(std::uint8_t(0xad), h));
  // Only where lengths are measured at another scale than the skeleton's: approvals of files at
  // scene scale 1 stay valid, the others were judged in other units and go back to review.
  if (sceneScale != 1.0) h = fnv1a64Value(sceneScale, fnv1a64Value(std::uint8_t(0x5c), h));
  // Likewise only for files with morph curves.
  if (!curves.empty()) {
    h = fnv1a64Value(static_cast<std::uint32_t>(curves.size()), fnv1a64Value(std::uint8_t(0xc7), h));
    for (const EffectiveCurve& c : curves) h = fnv1a64Value(c.precisionCm, h);
  }
  return h;
}

bool hasFollowingVertices(std::span<const SkinnedMesh> meshes) {
  return std::any_of(meshes.begin(), meshes.end(), [](const SkinnedMesh& m) { return !m.influences.empty(); });
}

bool usesMeshShells(const CompressionSettings& settings) {
  const auto anyRule = [](const std::vector<std::pair<std::string, JointOverride>>& rules) {
    return std::any_of(rules.begin(), rules.end(), [](const auto& r) { return r.second.shellCm == kShellFromMesh; });
  };
  if (settings.shellCm == kShellFromMesh || anyRule(settings.joints)) return true;
  return std::any_of(settings.clips.begin(), settings.clips.end(),
                     [&](const auto& c) { return c.second.shellCm == kShellFromMesh || anyRule(c.second.joints); });
}

const ClipOverride* clipRule(const CompressionSettings& settings, std::string_view clipName) {
  const ClipOverride* clip = nullptr;
  std::size_t clipLength = 0;
  for (const auto& [pattern, o] : settings.clips) {
    if (!isWildcard(pattern) && pattern == clipName) return &o;
    if (isWildcard(pattern) && wildcardMatch(pattern, clipName) && (!clip || pattern.size() > clipLength)) {
      clip = &o;
      clipLength = pattern.size();
    }
  }
  return clip;
}

std::string additiveBaseSetting(const CompressionSettings& settings, std::string_view clipName) {
  const ClipOverride* clip = clipRule(settings, clipName);
  return clip && clip->additiveBase ? *clip->additiveBase : settings.additiveBase.value_or(std::string());
}

EffectiveSettings resolve(const CompressionSettings& settings, const Skeleton& skeleton, std::string_view clipName,
                          std::span<const SkinnedMesh> meshes, double unitToCm, std::span<const MorphCurve> curves,
                          double sceneScale) {
  const ClipOverride* clip = clipRule(settings, clipName);
  static const std::vector<std::pair<std::string, JointOverride>> kNoRules;
  const auto& clipRules = clip ? clip->joints : kNoRules;

  EffectiveSettings e;
  e.rotationFormat =
      clip && clip->rotationFormat ? *clip->rotationFormat : settings.rotationFormat.value_or(RotationFormat::Q48);
  e.snapshotIntervalS = clip && clip->snapshotIntervalS
                            ? *clip->snapshotIntervalS
                            : settings.snapshotIntervalS.value_or(kDefaultSnapshotIntervalS);
  e.unitToCm = clip && clip->unitToCm ? clip->unitToCm : settings.unitToCm;
  e.sceneScale = clip && clip->sceneScale ? *clip->sceneScale : settings.sceneScale.value_or(sceneScale);
  e.sampleRate = clip && clip->sampleRate ? clip->sampleRate : settings.sampleRate;
  e.loop = clip && clip->loop ? *clip->loop : settings.loop.value_or(LoopPolicy::Auto);
  e.rootMotion = clip && clip->rootMotion ? *clip->rootMotion : settings.rootMotion.value_or(RootMotionMode::Keep);
  e.rootJoint = clip && clip->rootJoint ? *clip->rootJoint : settings.rootJoint.value_or(std::string());
  e.additiveBase = additiveBaseSetting(settings, clipName);
  const float topPrecision = settings.precisionCm.value_or(kDefaultPrecisionCm);
  // No shell anywhere: the skin's, when a mesh follows the skeleton (docs/SETTINGS.md "Shells").
  const bool topMesh = settings.shellCm ? *settings.shellCm == kShellFromMesh : hasFollowingVertices(meshes);
  const bool topNumber = settings.shellCm && !topMesh;
  const float fallbackShell = settings.shellFallbackCm.value_or(topNumber ? *settings.shellCm : kDefaultShellCm);
  const float topShell = topNumber ? *settings.shellCm : fallbackShell;
  // Mesh distances only when some shell asks for them (they visit every vertex), in file units
  // here and in cm below through the clip's unit, which may override the file's.
  const std::vector<double> meshShell =
      topMesh || usesMeshShells(settings) ? farthestInfluencedVertex(skeleton, meshes, 1.0) : std::vector<double>{};
  const double cmPerUnit = e.unitToCm.value_or(unitToCm) * e.sceneScale;
  // Whether a vertex follows the joint or a joint below it (children come after their parents).
  std::vector<bool> carriesSkin(skeleton.jointCount(), false);
  for (std::size_t j = skeleton.jointCount(); j-- > 0;) {
    if (j < meshShell.size() && meshShell[j] * cmPerUnit >= kMinMeshShellCm) carriesSkin[j] = true;
    if (carriesSkin[j] && skeleton.parents[j] >= 0) carriesSkin[std::size_t(skeleton.parents[j])] = true;
  }

  e.joints.resize(skeleton.jointCount());
  std::vector<bool> fromMesh(skeleton.jointCount(), false);  // the joint's shell comes from "mesh"
  const auto getPrecision = [](const JointOverride& o) { return o.precisionCm; };
  const auto getShell = [](const JointOverride& o) { return o.shellCm; };
  const auto getPinned = [](const JointOverride& o) { return o.pinned; };
  for (std::size_t j = 0; j < skeleton.jointCount(); ++j) {
    const std::string& name = skeleton.names[j];
    const std::int32_t parent = skeleton.parents[j];
    const EffectiveJoint* inherited = parent >= 0 ? &e.joints[std::size_t(parent)] : nullptr;
    // The joint's own value: its clip rule, the clip's value, its top-level rule.
    auto own = [&](auto get, std::optional<float> clipValue) -> std::optional<float> {
      if (auto v = lookup(clipRules, name, get)) return v;
      if (clipValue) return clipValue;
      return lookup(settings.joints, name, get);
    };
    EffectiveJoint& out = e.joints[j];
    out.precisionCm = own(getPrecision, clip ? clip->precisionCm : std::nullopt)
                          .value_or(inherited ? inherited->precisionCm : topPrecision);
    // "mesh" is inherited as a rule (each descendant takes its own farthest vertex), a number as a value.
    const std::optional<float> shell = own(getShell, clip ? clip->shellCm : std::nullopt);
    fromMesh[j] = shell ? *shell == kShellFromMesh : parent >= 0 ? fromMesh[std::size_t(parent)] : topMesh;
    const float fallback = inherited ? inherited->shellCm : topShell;
    if (!fromMesh[j]) {
      out.shellCm = shell ? *shell : fallback;
    } else {
      const double cm = j < meshShell.size() ? meshShell[j] * cmPerUnit : 0.0;
      out.shellCm = cm >= kMinMeshShellCm ? float(std::clamp(cm, double(kMeshShellFloorCm), kShellRange.max))
                    : carriesSkin[j]      ? fallback
                                          : fallbackShell;
    }
    if (auto v = lookup(clipRules, name, getPinned)) out.pinned = *v;
    else if (auto g = lookup(settings.joints, name, getPinned)) out.pinned = *g;
    e.verifySkin = e.verifySkin || fromMesh[j];
  }
  e.curves.reserve(curves.size());
  for (const MorphCurve& c : curves) e.curves.push_back({curvePrecision(settings, clip, c.name)});
  return e;
}

}  // namespace animpack::core
