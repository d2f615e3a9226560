#include "widgets/document/settings_edit.h"

#include <algorithm>

namespace animpack::widgets {
namespace {

using Rules = std::vector<std::pair<std::string, core::JointOverride>>;

Rules* rulesFor(core::CompressionSettings& s, EditScope scope, const std::string& clip, bool create) {
  if (scope == EditScope::AllClips) return &s.joints;
  auto it = std::find_if(s.clips.begin(), s.clips.end(), [&](const auto& c) { return c.first == clip; });
  if (it == s.clips.end()) {
    if (!create) return nullptr;
    s.clips.emplace_back(clip, core::ClipOverride{});
    it = s.clips.end() - 1;
  }
  return &it->second.joints;
}

bool empty(const core::JointOverride& o) { return !o.precisionCm && !o.shellCm && !o.pinned; }
bool empty(const core::ClipOverride& o) {
  return !o.precisionCm && !o.shellCm && !o.rotationFormat && !o.snapshotIntervalS && !o.unitToCm && !o.sampleRate && o.joints.empty();
}

void setField(core::JointOverride& o, JointField field, float value) {
  switch (field) {
    case JointField::Precision: o.precisionCm = value; break;
    case JointField::Shell: o.shellCm = value; break;
    case JointField::Pinned: o.pinned = value != 0.f; break;
  }
}
void clearField(core::JointOverride& o, JointField field) {
  switch (field) {
    case JointField::Precision: o.precisionCm.reset(); break;
    case JointField::Shell: o.shellCm.reset(); break;
    case JointField::Pinned: o.pinned.reset(); break;
  }
}

void tidy(core::CompressionSettings& s) {
  auto prune = [](Rules& rules) {
    rules.erase(std::remove_if(rules.begin(), rules.end(), [](const auto& r) { return empty(r.second); }), rules.end());
  };
  prune(s.joints);
  for (auto& c : s.clips) prune(c.second.joints);
  s.clips.erase(std::remove_if(s.clips.begin(), s.clips.end(), [](const auto& c) { return empty(c.second); }), s.clips.end());
}

}  // namespace

core::CompressionSettings withJointValue(const core::CompressionSettings& settings, EditScope scope, const std::string& clip,
                                         const std::vector<std::string>& joints, JointField field, float value) {
  core::CompressionSettings s = settings;
  Rules& rules = *rulesFor(s, scope, clip, true);
  for (const std::string& joint : joints) {
    auto it = std::find_if(rules.begin(), rules.end(), [&](const auto& r) { return r.first == joint; });
    if (it == rules.end()) {
      rules.emplace_back(joint, core::JointOverride{});
      it = rules.end() - 1;
    }
    setField(it->second, field, value);
  }
  tidy(s);
  return s;
}

core::CompressionSettings withJointReset(const core::CompressionSettings& settings, EditScope scope, const std::string& clip,
                                         const std::vector<std::string>& joints, JointField field) {
  core::CompressionSettings s = settings;
  if (Rules* rules = rulesFor(s, scope, clip, false))
    for (auto& [pattern, o] : *rules)
      if (std::find(joints.begin(), joints.end(), pattern) != joints.end()) clearField(o, field);
  tidy(s);
  return s;
}

core::CompressionSettings withDefaultValue(const core::CompressionSettings& settings, EditScope scope, const std::string& clip,
                                           JointField field, float value) {
  core::CompressionSettings s = settings;
  if (scope == EditScope::AllClips) {
    (field == JointField::Precision ? s.precisionCm : s.shellCm) = value;
  } else {
    rulesFor(s, scope, clip, true);
    auto it = std::find_if(s.clips.begin(), s.clips.end(), [&](const auto& c) { return c.first == clip; });
    (field == JointField::Precision ? it->second.precisionCm : it->second.shellCm) = value;
  }
  tidy(s);
  return s;
}

bool hasOverride(const core::CompressionSettings& settings, EditScope scope, const std::string& clip, const std::string& joint,
                 JointField field) {
  core::CompressionSettings copy = settings;
  const Rules* rules = rulesFor(copy, scope, clip, false);
  if (!rules) return false;
  for (const auto& [pattern, o] : *rules)
    if (pattern == joint) {
      switch (field) {
        case JointField::Precision: return o.precisionCm.has_value();
        case JointField::Shell: return o.shellCm.has_value();
        case JointField::Pinned: return o.pinned.has_value();
      }
    }
  return false;
}

}  // namespace animpack::widgets
