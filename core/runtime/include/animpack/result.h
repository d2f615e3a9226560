#pragma once
// animpack runtime: what a checked call returns. Standard library only.

#include <cstdint>

namespace animpack {

/// The outcome of a runtime call. Anything but Ok means the call refused its input and wrote
/// nothing to the caller's buffers. [[nodiscard]]: a dropped result is a compiler warning.
enum class [[nodiscard]] Result : std::uint8_t{
    Ok = 0,
    NoClip,                ///< an empty Clip handle (a lookup that found nothing)
    PoseTooShort,          ///< the pose span holds fewer transforms than the clip has joints
    WeightsTooShort,       ///< the weight span holds fewer floats than the clip has curves
    ScratchTooShort,       ///< the scratch pose holds fewer transforms than the clip has joints
    ScratchOverlapsPose,   ///< the scratch pose shares memory with the pose
    TimeNotFinite,         ///< a time or frame that is NaN or infinite
    TimeOutOfRange,        ///< a time beyond +-1e6 s (Player::kMaxSeconds) or a frame beyond +-1e8 (kMaxFrame)
    WeightNotFinite,       ///< a blend or additive weight that is NaN or infinite
    ForeignClip,           ///< the clip's skeleton is not the one the player was bound to
    SkeletonMismatch,      ///< two clips of one call have different skeletons
    NotAdditive,           ///< an additive call on a clip that is not additive
    StorageTooSmall,       ///< caller storage smaller than the call needs
    StorageMisaligned,     ///< caller storage not aligned to Player::kStorageAlignment
    ParentOrder,           ///< a joint whose parent is not an earlier joint
    JointCountOutOfRange,  ///< a level of detail asking for more joints than the clip has
};

/// A short English description of a result ("the pose span holds fewer transforms than ...").
const char* describe(Result result);

}  // namespace animpack
