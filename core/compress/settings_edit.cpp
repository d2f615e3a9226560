#include "core/compress/settings_edit.h"

#include <algorithm>
#include <cmath>

#include "core/anim/subtree.h"

namespace animpack::core {
namespace {

using Rules = std::vector<std::pair<std::string, JointOverride>>;
using MorphRules = std::vector<std::pair<std::string, MorphOverride>>;

/// The clip's exact-name override, made when `create`; null when there is none.
ClipOverride* clipFor(CompressionSettings& s, const std::string& clip, bool create) {
  auto it = std::find_if(s.clips.begin(), s.clips.end(), [&](const auto& c) { return c.first == clip; });
  if (it != s.clips.end()) return &it->second;
  if (!create) return nullptr;
  return &s.clips.emplace_back(clip, ClipOverride{}).second;
}

Rules* rulesFor(CompressionSettings& s, EditScope scope, const std::string& clip, bool create) {
  if (scope == EditScope::AllClips) return &s.joints;
  ClipOverride* o = clipFor(s, clip, create);
  return o ? &o->joints : nullptr;
}

MorphRules* morphRulesFor(CompressionSettings& s, EditScope scope, const std::string& clip, bool create) {
  if (scope == EditScope::AllClips) return &s.morphs;
  ClipOverride* o = clipFor(s, clip, create);
  return o ? &o->morphs : nullptr;
}

bool empty(const JointOverride& o) { return !o.precisionCm && !o.shellCm && !o.pinned; }
bool empty(const MorphOverride& o) { return !o.precisionCm; }
bool empty(const ClipOverride& o) {
  return !o.precisionCm && !o.shellCm && !o.rotationFormat && !o.snapshotIntervalS && !o.unitToCm && !o.sceneScale &&
         !o.sampleRate && o.joints.empty() && o.morphs.empty() && !o.name && !o.loop && !o.rootMotion && !o.rootJoint &&
         !o.additiveBase;
}

void setField(JointOverride& o, JointField field, float value) {
  switch (field) {
    case JointField::Precision: o.precisionCm = value; break;
    case JointField::Shell: o.shellCm = value; break;
    case JointField::Pinned: o.pinned = value != 0.f; break;
  }
}
void clearField(JointOverride& o, JointField field) {
  switch (field) {
    case JointField::Precision: o.precisionCm.reset(); break;
    case JointField::Shell: o.shellCm.reset(); break;
    case JointField::Pinned: o.pinned.reset(); break;
  }
}

void tidy(CompressionSettings& s) {
  auto prune = [](auto& rules) {
    rules.erase(std::remove_if(rules.begin(), rules.end(), [](const auto& r) { return empty(r.second); }), rules.end());
  };
  prune(s.joints);
  prune(s.morphs);
  for (auto& c : s.clips) {
    prune(c.second.joints);
    prune(c.second.morphs);
  }
  s.clips.erase(std::remove_if(s.clips.begin(), s.clips.end(), [](const auto& c) { return empty(c.second); }),
                s.clips.end());
}

}  // namespace

CompressionSettings withJointValue(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                   const std::vector<std::string>& joints, JointField field, float value) {
  CompressionSettings s = settings;
  Rules& rules = *rulesFor(s, scope, clip, true);
  for (const std::string& joint : joints) {
    auto it = std::find_if(rules.begin(), rules.end(), [&](const auto& r) { return r.first == joint; });
    if (it == rules.end()) {
      rules.emplace_back(joint, JointOverride{});
      it = rules.end() - 1;
    }
    setField(it->second, field, value);
  }
  tidy(s);
  return s;
}

CompressionSettings withJointReset(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                   const std::vector<std::string>& joints, JointField field) {
  CompressionSettings s = settings;
  if (Rules* rules = rulesFor(s, scope, clip, false))
    for (auto& [pattern, o] : *rules)
      if (std::find(joints.begin(), joints.end(), pattern) != joints.end()) clearField(o, field);
  tidy(s);
  return s;
}

CompressionSettings withDefaultValue(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                     JointField field, float value) {
  CompressionSettings s = settings;
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

bool hasOverride(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                 const std::string& joint, JointField field) {
  CompressionSettings copy = settings;
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

CompressionSettings withMorphPrecision(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                       const std::vector<std::string>& curves, std::optional<float> precisionCm) {
  CompressionSettings s = settings;
  MorphRules* rules = morphRulesFor(s, scope, clip, precisionCm.has_value());
  if (!rules) return s;
  for (const std::string& curve : curves) {
    auto it = std::find_if(rules->begin(), rules->end(), [&](const auto& r) { return r.first == curve; });
    if (it == rules->end()) {
      if (!precisionCm) continue;
      rules->emplace_back(curve, MorphOverride{});
      it = rules->end() - 1;
    }
    it->second.precisionCm = precisionCm;
  }
  tidy(s);
  return s;
}

bool hasMorphOverride(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                      const std::string& curve) {
  CompressionSettings copy = settings;
  const MorphRules* rules = morphRulesFor(copy, scope, clip, false);
  if (!rules) return false;
  return std::any_of(rules->begin(), rules->end(),
                     [&](const auto& r) { return r.first == curve && r.second.precisionCm.has_value(); });
}

CompressionSettings withJointsReset(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                    const std::vector<std::string>& joints) {
  CompressionSettings s = settings;
  for (JointField f : {JointField::Precision, JointField::Shell, JointField::Pinned})
    s = withJointReset(s, scope, clip, joints, f);
  return s;
}

CompressionSettings withSubtreeValues(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                      const Skeleton& skeleton, const EffectiveSettings& effective,
                                      const std::vector<std::int32_t>& roots) {
  CompressionSettings s = settings;
  for (std::int32_t root : roots) {
    if (root < 0 || std::size_t(root) >= effective.joints.size()) continue;
    std::vector<std::string> subtree;
    for (std::int32_t j : subtreeJoints(skeleton, root)) subtree.push_back(skeleton.names[std::size_t(j)]);
    const EffectiveJoint& v = effective.joints[std::size_t(root)];
    s = withJointValue(s, scope, clip, subtree, JointField::Precision, v.precisionCm);
    s = withJointValue(s, scope, clip, subtree, JointField::Shell, v.shellCm);
    s = withJointValue(s, scope, clip, subtree, JointField::Pinned, v.pinned ? 1.f : 0.f);
  }
  return s;
}

CompressionSettings withShells(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                               const Skeleton& skeleton, const std::vector<double>& shellCm,
                               const std::vector<std::int32_t>& joints) {
  CompressionSettings s = settings;
  for (std::int32_t joint : joints) {
    if (joint < 0 || std::size_t(joint) >= shellCm.size() || std::size_t(joint) >= skeleton.jointCount()) continue;
    const double cm = shellCm[std::size_t(joint)];
    if (cm > 1e-3)
      s = withJointValue(s, scope, clip, {skeleton.names[std::size_t(joint)]}, JointField::Shell, float(cm));
  }
  return s;
}

CompressionSettings withPreset(const CompressionSettings& current, const CompressionSettings& preset) {
  CompressionSettings s = preset;
  if (!s.unitToCm) s.unitToCm = current.unitToCm;
  if (!s.sceneScale) s.sceneScale = current.sceneScale;
  if (!s.sampleRate) s.sampleRate = current.sampleRate;
  return s;
}

CompressionSettings withUnit(const CompressionSettings& settings, double unitToCm) {
  CompressionSettings s = settings;
  s.unitToCm = unitToCm;
  return s;
}

CompressionSettings withJointOrder(const CompressionSettings& settings, const JointOrder& order) {
  CompressionSettings s = settings;
  s.lod = order;
  return s;
}

namespace {

/// `clip`'s exact-name override in `s`, created when missing.
ClipOverride& exactClipOverride(CompressionSettings& s, const std::string& clip) {
  rulesFor(s, EditScope::CurrentClip, clip, true);  // creates the exact-name override
  auto it = std::find_if(s.clips.begin(), s.clips.end(), [&](const auto& c) { return c.first == clip; });
  return it->second;
}

}  // namespace

CompressionSettings withClipRootMotion(const CompressionSettings& settings, const std::string& clip,
                                       RootMotionMode mode) {
  CompressionSettings s = settings;
  exactClipOverride(s, clip).rootMotion = mode;
  return s;
}

CompressionSettings withClipRootJoint(const CompressionSettings& settings, const std::string& clip,
                                      const std::string& joint) {
  CompressionSettings s = settings;
  ClipOverride& o = exactClipOverride(s, clip);
  o.rootMotion = RootMotionMode::Extract;
  o.rootJoint = joint;
  return s;
}

CompressionSettings withClipPrecisionScaled(const CompressionSettings& settings, const std::string& clip,
                                            const Skeleton& skeleton, float factor, std::span<const SkinnedMesh> meshes,
                                            double unitToCm) {
  const EffectiveSettings before = resolve(settings, skeleton, clip, meshes, unitToCm);
  auto target = [&](std::size_t j) { return std::min(before.joints[j].precisionCm * factor, kMaxPrecisionCm); };
  const float base = settings.precisionCm.value_or(kDefaultPrecisionCm);
  float own = base;
  for (const auto& [pattern, o] : settings.clips)
    if (pattern == clip && o.precisionCm) own = *o.precisionCm;
  CompressionSettings out = withDefaultValue(settings, EditScope::CurrentClip, clip, JointField::Precision,
                                             std::min(own * factor, kMaxPrecisionCm));
  // Joints whose precision comes from a rule (or whose rules the new clip entry shadows) get
  // their own exact value, one edit per distinct value.
  const EffectiveSettings after = resolve(out, skeleton, clip, meshes, unitToCm);
  auto fix = [&](JointField field, auto wanted, auto got) {
    std::vector<std::pair<float, std::vector<std::string>>> groups;
    for (std::size_t j = 0; j < before.joints.size(); ++j) {
      const float w = wanted(j);
      if (std::abs(got(j) - w) <= 1e-6f * std::max(1.f, std::abs(w))) continue;
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == w; });
      if (it == groups.end()) groups.push_back({w, {skeleton.names[j]}});
      else it->second.push_back(skeleton.names[j]);
    }
    for (const auto& [value, joints] : groups)
      out = withJointValue(out, EditScope::CurrentClip, clip, joints, field, value);
  };
  fix(JointField::Precision, target, [&](std::size_t j) { return after.joints[j].precisionCm; });
  fix(
      JointField::Shell, [&](std::size_t j) { return before.joints[j].shellCm; },
      [&](std::size_t j) { return after.joints[j].shellCm; });
  fix(
      JointField::Pinned, [&](std::size_t j) { return before.joints[j].pinned ? 1.f : 0.f; },
      [&](std::size_t j) { return after.joints[j].pinned ? 1.f : 0.f; });
  return out;
}

}  // namespace animpack::core
