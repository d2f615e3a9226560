#pragma once
// Root motion (FORMAT.md "Root motion"): the ground-plane translation and the turn about the up
// axis that the compressor moved out of a clip's root joint. A game reads the motion between two
// times with rootMotion() and moves its character by it; applyRootMotion() folds it back into the
// root joint of a sampled pose, which gives the source's pose (what `animpack decode` writes).

#include <cstdint>
#include <span>
#include <vector>

#include "core/runtime/clip_view.h"
#include "core/runtime/math.h"
#include "core/runtime/player.h"

namespace animpack::runtime {

/// A motion on the ground: a translation with no up component and a turn (radians, right-handed
/// about the up axis). Composition applies `b` in the frame `a` leads to.
struct GroundMotion {
  double t[3] = {0, 0, 0};
  double yaw = 0;
  std::uint8_t upAxis = 1;  ///< 0 x, 1 y, 2 z
};

GroundMotion compose(const GroundMotion& a, const GroundMotion& b);
GroundMotion inverse(const GroundMotion& m);
/// `m` composed with itself `k` times (k < 0: the inverse), in O(log |k|) compositions.
GroundMotion power(const GroundMotion& m, std::int64_t k);
/// The motion as a transform (scale 1).
Transform toTransform(const GroundMotion& m);

/// The clip's ground motion from frame 0 to fractional `frame` of one cycle, in the reference
/// frame's axes: frames are interpolated linearly (x y z and yaw), the frame after the last is the
/// cycle delta; `frame` is clamped to [0, cycleFrames()] (looping) or [0, frameCount - 1].
GroundMotion groundAtFrame(const ClipView& clip, float frame);

/// The character's motion from `t0` to `t1` (seconds from frame 0), in the character's space at
/// `t0`: the game moves its character by it (character(t1) = character(t0) * rootMotion). Looping
/// clips carry it across loop ends (k whole cycles give the cycle's delta composed k times), and
/// t1 < t0 gives the motion backward (the inverse of rootMotion(t1, t0)); other clips clamp both
/// times to the clip. Identity for a clip without root motion.
Transform rootMotion(const ClipView& clip, float t0, float t1);
/// rootMotion() as a ground motion (identity without root motion).
GroundMotion characterMotion(const ClipView& clip, float t0, float t1);

/// Moves the subtree of joint `joint` of `pose` (local transforms, `parents` first) by `motion`,
/// given in object space (the skeleton's root space): the joint's parent stays, the joint's local
/// transform becomes parent^-1 * motion * parent * local (parent: the object transform of its
/// ancestors, taken with uniform scale).
void moveJoint(std::span<const std::int32_t> parents, std::uint32_t joint, const GroundMotion& motion,
               std::span<Transform> pose);

/// The working poses applyRootMotion() decodes into between frames and the ancestor chain it walks:
/// kept by the caller beside its Player, they grow to the largest skeleton once and then the fold
/// allocates nothing.
struct RootMotionScratch {
  std::vector<Transform> a, b;
  std::vector<std::uint32_t> chain;
};

/// Folds the root motion at `seconds` (from frame 0, across loop ends as rootMotion()) into the
/// root joint of `pose`, which `player` sampled at those seconds: the source's pose. Between two
/// frames the root joint is the interpolation of its folded values at those frames (lerp, slerp),
/// as the source is between its keys, so `player` decodes those two frames too (into `scratch`).
/// Nothing without root motion.
void applyRootMotion(Player& player, const ClipView& clip, float seconds, std::span<const std::int32_t> parents,
                     std::span<Transform> pose, RootMotionScratch& scratch);
/// The same at a fractional frame of one cycle, as Player::sampleFrame() takes it.
void applyRootMotionAtFrame(Player& player, const ClipView& clip, float frame, std::span<const std::int32_t> parents,
                            std::span<Transform> pose, RootMotionScratch& scratch);

}  // namespace animpack::runtime
