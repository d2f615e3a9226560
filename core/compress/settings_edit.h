#pragma once
// Pure edits of compression settings (docs/SETTINGS.md), the operations the studio's commands are
// made of: per-joint values by exact name, either for every clip (the top-level joint rules) or for
// one clip (its exact-name clip override); subtrees, mesh-derived shells, presets, the file unit.

#include <optional>
#include <string>
#include <vector>

#include "core/anim/skeleton.h"
#include "core/compress/settings.h"

namespace animpack::core {

/// A per-joint value of the settings.
enum class JointField { Precision, Shell, Pinned };
/// Where a joint edit goes.
enum class EditScope {
  AllClips,     ///< the settings' top-level joint rules
  CurrentClip,  ///< the rules of the clip's exact-name clip override
};

/// `settings` with `field` = `value` for every named joint (1 = true for Pinned).
CompressionSettings withJointValue(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                   const std::vector<std::string>& joints, JointField field, float value);
/// `settings` without the named joints' own value of `field`, so they inherit again.
CompressionSettings withJointReset(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                   const std::vector<std::string>& joints, JointField field);
/// `settings` with a top-level (or clip-level) precision or shell distance.
CompressionSettings withDefaultValue(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                     JointField field, float value);
/// Whether the joint has its own exact-name value of `field` in that scope.
bool hasOverride(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                 const std::string& joint, JointField field);

/// `settings` where every named morph curve ("NODE/TARGET") has its own precision in that scope
/// (the top-level "morphs" rules, or the clip's exact-name override); with no value, without it
/// (the curves inherit again).
CompressionSettings withMorphPrecision(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                       const std::vector<std::string>& curves, std::optional<float> precisionCm);
/// Whether the morph curve has its own exact-name precision in that scope.
bool hasMorphOverride(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                      const std::string& curve);

/// `settings` without the named joints' own precision, shell distance and pin.
CompressionSettings withJointsReset(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                    const std::vector<std::string>& joints);
/// `settings` where every joint under each of `roots` (the roots included) gets the root's effective
/// precision, shell distance and pin in `effective` (the clip's resolved settings).
CompressionSettings withSubtreeValues(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                                      const Skeleton& skeleton, const EffectiveSettings& effective,
                                      const std::vector<std::int32_t>& roots);
/// `settings` where each of `joints` gets `shellCm[joint]` as its shell distance; joints whose
/// value is 1e-3 cm or less (no influenced vertex) keep theirs.
CompressionSettings withShells(const CompressionSettings& settings, EditScope scope, const std::string& clip,
                               const Skeleton& skeleton, const std::vector<double>& shellCm,
                               const std::vector<std::int32_t>& joints);
/// `preset` in place of `current`, keeping the file unit, scene scale and sample rate of `current` where
/// the preset sets none: they describe the file, not the quality target.
CompressionSettings withPreset(const CompressionSettings& current, const CompressionSettings& preset);
/// `settings` where every joint of `clip` resolves to `factor` times its precision now (at most
/// kMaxPrecisionCm), with its shell and pin unchanged: the clip's own precision scaled, and
/// exact-name clip rules for the joints that would otherwise resolve differently.
CompressionSettings withClipPrecisionScaled(const CompressionSettings& settings, const std::string& clip,
                                            const Skeleton& skeleton, float factor,
                                            std::span<const SkinnedMesh> meshes = {}, double unitToCm = 1.0);
/// `settings` where `clip`'s exact-name override sets `root_motion` to `mode`.
CompressionSettings withClipRootMotion(const CompressionSettings& settings, const std::string& clip,
                                       RootMotionMode mode);
/// The settings with `clip`'s root motion extracted from `joint` (its exact-name override's
/// `root_motion: extract` and `root_joint`).
CompressionSettings withClipRootJoint(const CompressionSettings& settings, const std::string& clip,
                                      const std::string& joint);
/// `settings` with the file unit (cm per file unit).
CompressionSettings withUnit(const CompressionSettings& settings, double unitToCm);
/// `settings` with the pack's joint order (`lod`) set.
CompressionSettings withJointOrder(const CompressionSettings& settings, const JointOrder& order);

}  // namespace animpack::core
