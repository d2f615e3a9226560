#pragma once
// Root-motion extraction (docs/SETTINGS.md `root_motion`, core/runtime/FORMAT.md "Root motion"):
// the root joint's ground-plane translation and its turn about the up axis move into a root-motion
// track; the joint keeps the rest (height, tilt). The compressor compresses the in-place clip,
// writes the track beside it and verifies the pose with the track folded back, as the runtime
// (core/runtime/root_motion.h) folds it.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/anim/skeleton.h"
#include "core/anim/up_axis.h"
#include "core/base/status.h"
#include "core/runtime/clip_view.h"
#include "core/runtime/root_motion.h"

namespace animpack::core {

using runtime::GroundMotion;

/// The object-space axis (0 x, 1 y, 2 z) that points up on screen: world +Y turned back through
/// the display up axis and the scene-root transform (column-major, ImportedAsset::sceneRootTransform).
std::uint8_t objectUpAxis(const std::array<float, 16>& sceneRoot, UpAxis display);

/// A clip's root motion in double precision, per source frame.
struct RootMotionTrack {
  std::uint32_t joint = 0;
  std::uint8_t upAxis = 1;
  GroundMotion reference;            ///< the root's ground frame at frame 0, object space
  std::vector<GroundMotion> frames;  ///< per frame: the motion from frame 0, in the reference frame's axes
};

/// The joint root motion is taken from: `name` when it is not empty (an error names the key and
/// the joint when the skeleton has none of that name), otherwise the first joint (parents first)
/// whose translation moves in `clip` (an error when none does).
Expected<std::uint32_t> findRootJoint(const Skeleton& skeleton, const RawClip& clip, std::string_view name);

/// Takes joint `joint`'s ground motion out of `clip` about object axis `upAxis`: the track, and in
/// `inPlace` the clip whose root keeps only its height and tilt (frame 0 unchanged; no source keys,
/// its frames are its keys).
RootMotionTrack extractRootMotion(const Skeleton& skeleton, const RawClip& clip, std::uint32_t joint,
                                  std::uint8_t upAxis, RawClip& inPlace);

/// The motion of one cycle of a clip laid out with `frames` frames: with a wrap interval the frame
/// after the last (the source's dropped last frame, or one more step at the last frame's speed),
/// otherwise the last frame's.
GroundMotion cycleMotion(const RootMotionTrack& track, std::uint32_t frames, bool wrap, bool droppedLast);

/// The object-space motion of the character for `d`, a motion in the reference frame's axes.
GroundMotion objectMotion(const RootMotionTrack& track, const GroundMotion& d);

/// Appends the root-motion section of the first `frames` frames and `cycle` to a clip block and
/// sets its root-motion flag and size.
void appendRootMotion(std::vector<std::uint8_t>& block, const RootMotionTrack& track, std::uint32_t frames,
                      const GroundMotion& cycle);

/// The report's `root_motion` (docs/RUNTIME.md "Root motion"): one cycle's distance and turn, and where ten
/// cycles lead with the compressed and with the source track.
struct RootMotionReport {
  bool extracted = false;
  std::uint32_t joint = 0;
  float distanceCm = 0;             ///< ground distance from the cycle's start to its end
  float turnDeg = 0;                ///< turn about the up axis over the cycle (signed, right-handed)
  float drift10CyclesCm = 0;        ///< distance from the start after ten cycles, compressed
  float sourceDrift10CyclesCm = 0;  ///< the same with the source's motion
  float driftErrorCm = 0;           ///< distance between the two end points (the check: <= 10 x precision)
  bool withinPrecision = true;
};

/// Measures `view`'s root motion against the source track (`cycle` as written).
RootMotionReport measureRootMotion(const RootMotionTrack& track, const GroundMotion& cycle,
                                   const runtime::ClipView& view, double unitToCm, float precisionCm);

}  // namespace animpack::core
