#pragma once
// The one error metric (docs/ARCHITECTURE.md "Contracts", Error): for joint j at time t, compare
// the source and the decoded object-space transforms at three virtual vertices placed at the
// joint's shell distance along its local axes; the error is the largest displacement, in
// centimetres. Object space is the skeleton's root space (any armature scale included); the shell
// offsets are divided by the joint's accumulated object-space scale in the source's frame 0, so a
// shell is `shell_cm` cm long. The reference is the source's own keys interpolated in double
// precision (core/anim/source_clip.h), at every frame and at sample times between frames: the
// midpoint of every frame interval, more points across large steps, and every source key that
// falls between frames.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/anim/skeleton.h"
#include "core/math/transform.h"

namespace animpack::runtime {
class ClipView;
class Player;
}  // namespace animpack::runtime

namespace animpack::core {

class AdditiveBase;

/// A time between two frames at which the clip is checked: frame + alpha (0 < alpha < 1).
struct BetweenSample {
  std::uint32_t frame = 0;
  float alpha = 0.5f;
};

/// Summary of the errors of a clip at and between its frames.
struct ErrorSummary {
  float maxCm = 0;         ///< at and between frames
  float p99Cm = 0;         ///< over every joint at every frame and between-frame sample
  float maxBetweenCm = 0;  ///< between frames only
  std::int32_t worstJoint = -1;
  std::int32_t worstFrame = -1;   ///< the frame, or the first frame of the interval, of the worst error
  double worstFrameTime = 0;      ///< frame position of the worst error (fractional between frames)
  std::vector<float> jointMaxCm;  ///< per joint, at and between frames
};

/// Errors of every joint at every frame and every between-frame sample.
struct ClipErrors {
  std::vector<float> frames;   ///< frame-major joints x frames, cm
  std::vector<float> between;  ///< sample-major joints x ErrorMetric::betweenSamples(), cm
  /// Per frame interval (f, f+1): the largest between-frame error of each joint, frame-major
  /// joints x (frames - 1). Samples after the last frame (a wrap interval) are left out.
  std::vector<float> intervalMax(std::span<const BetweenSample> samples, std::uint32_t joints,
                                 std::uint32_t frameCount) const;
};

/// How a looping clip is laid out, and so what the metric compares after its last frame.
struct LoopLayout {
  /// The decoded clip interpolates from its last frame to its first (runtime kClipFlagWrap); the
  /// wrap interval is checked against the source's last frame interpolated to its first.
  bool wrap = false;
  /// With `wrap`: the decoded clip drops the source's last frame (which repeats the first), so its
  /// wrap interval is checked against the source's own last interval and its frame 0 against the
  /// source's last frame.
  bool dropLast = false;
  bool operator==(const LoopLayout&) const = default;
};

class ErrorMetric {
 public:
  /// `shellCm` has one value per joint. `minSubSteps` between-frame samples at least per interval.
  /// `cycleEnd` (optional, local transforms): the pose the next cycle starts from, where the seam
  /// and the wrap interval end (default frame 0; a root-motion clip's frame 0 moved by one cycle).
  ErrorMetric(const Skeleton& skeleton, const RawClip& original, double unitToCm, std::span<const float> shellCm,
              std::uint32_t minSubSteps = 1, LoopLayout layout = {}, std::span<const Transform> cycleEnd = {});

  /// Per joint, the jump from the source's last frame to its first on the shell (cm): how far the
  /// clip is from repeating its first frame at its end (0 for a one-frame clip).
  std::span<const float> seamCm() const { return m_seam; }
  LoopLayout layout() const { return m_layout; }

  std::uint32_t jointCount() const { return m_joints; }
  std::uint32_t frameCount() const { return m_frames; }
  double unitToCm() const { return m_unitToCm; }
  /// Source object-space matrices at frames (double precision).
  const Mat34d& originalObject(std::uint32_t joint, std::uint32_t frame) const {
    return m_object[std::size_t(frame) * m_joints + joint];
  }
  /// Shell offset (object units at frame 0) of a joint, in its local space, along axis k.
  const double* shellOffset(std::uint32_t joint, int axis) const {
    return m_shell[joint * 3 + std::size_t(axis)].data();
  }
  /// The times checked between frames, ordered by time.
  std::span<const BetweenSample> betweenSamples() const { return m_between; }

  /// Error (cm) of one joint given its decoded object-space matrix at `frame`.
  float error(std::uint32_t joint, std::uint32_t frame, const Mat34d& decodedObject) const {
    return errorAt(joint, frame, decodedObject);
  }
  /// Error (cm) of one joint at between-frame sample `sample`.
  float errorBetween(std::uint32_t joint, std::size_t sample, const Mat34d& decodedObject) const {
    return errorAt(joint, m_frames + sample, decodedObject);
  }
  /// Errors of every joint at one frame given decoded local transforms.
  void measureFrame(std::uint32_t frame, std::span<const Transform> decodedLocal, std::span<float> out,
                    std::vector<Mat34d>& scratch) const;
  /// Errors of every joint at one between-frame sample given decoded local transforms.
  void measureBetween(std::size_t sample, std::span<const Transform> decodedLocal, std::span<float> out,
                      std::vector<Mat34d>& scratch) const;
  /// Errors of every joint at every frame (frame-major) given decoded local transforms (frame-major).
  std::vector<float> measure(std::span<const Transform> decodedLocal) const;
  /// Decodes `clip` with `player` at every frame and between-frame sample and measures each.
  /// `decodedFrames` (optional) receives the decoded frames, frame-major. With `base` the clip is
  /// additive: each decoded delta is applied to the base decoded at the same time (both
  /// interpolated on their own, then composed, as the runtime does) and that pose is measured;
  /// `decodedFrames` still receives the deltas.
  ClipErrors measureDecoded(const runtime::ClipView& clip, runtime::Player& player,
                            std::vector<Transform>* decodedFrames = nullptr, const AdditiveBase* base = nullptr) const;
  /// The float32 floor: the errors of the clip's own float samples, interpolated as the runtime
  /// interpolates decoded frames (what raw storage of every track would give); deltas on `base`
  /// as in measureDecoded().
  ClipErrors measureFloor(const RawClip& clip, const AdditiveBase* base = nullptr) const;

  /// Max, p99, worst joint and time, per-joint max over frames and between-frame samples.
  ErrorSummary summarize(const ClipErrors& errors) const;

 private:
  float errorAt(std::uint32_t joint, std::size_t point, const Mat34d& decodedObject) const;
  void addReferencePoints(std::span<const Mat34d> object);

  const Skeleton* m_skeleton;
  std::uint32_t m_joints, m_frames;
  double m_unitToCm;
  std::vector<Mat34d> m_object;                // frame-major source object matrices
  std::vector<std::array<double, 3>> m_shell;  // joint*3 + axis: local offset
  std::vector<BetweenSample> m_between;
  std::vector<std::array<double, 9>> m_points;  // point-major (frames, then between samples): source shell points
  std::vector<float> m_seam;
  LoopLayout m_layout;
};

/// Max, 99th percentile, worst joint/frame and per-joint max of a frame-major error table.
ErrorSummary summarize(std::span<const float> errors, std::uint32_t joints);

}  // namespace animpack::core
