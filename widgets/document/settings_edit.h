#pragma once
// Pure edits of the §9 settings the studio's commands are made of: per-joint values by exact name,
// either for every clip (the file's joint rules) or for one clip (its clip override).

#include <string>
#include <vector>

#include "core/compress/settings.h"

namespace animpack::widgets {

enum class JointField { Precision, Shell, Pinned };
enum class EditScope {
  AllClips,     ///< the settings' top-level joint rules
  CurrentClip,  ///< the rules of the clip's exact-name clip override
};

/// `settings` with `field` = `value` for every named joint (1 = true for Pinned).
core::CompressionSettings withJointValue(const core::CompressionSettings& settings, EditScope scope,
                                         const std::string& clip, const std::vector<std::string>& joints,
                                         JointField field, float value);
/// `settings` without the named joints' own value of `field`, so they inherit again.
core::CompressionSettings withJointReset(const core::CompressionSettings& settings, EditScope scope,
                                         const std::string& clip, const std::vector<std::string>& joints, JointField field);
/// `settings` with a top-level (or clip-level) precision or shell distance.
core::CompressionSettings withDefaultValue(const core::CompressionSettings& settings, EditScope scope,
                                           const std::string& clip, JointField field, float value);
/// Whether the joint has its own exact-name value of `field` in that scope.
bool hasOverride(const core::CompressionSettings& settings, EditScope scope, const std::string& clip,
                 const std::string& joint, JointField field);

}  // namespace animpack::widgets
