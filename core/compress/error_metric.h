#pragma once
// The one error metric (DESIGN §3, §9): for joint j at frame f, compare the original and decoded
// object-space transforms at three virtual vertices placed at the joint's shell distance along its
// local axes; the error is the largest displacement, in centimetres. Object space is the
// skeleton's root space (any armature scale included); the shell offsets are divided by the joint's
// accumulated object-space scale in the original clip's frame 0, so a shell is `shell_cm` cm long.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/anim/skeleton.h"
#include "core/math/transform.h"

namespace animpack::core {

/// Summary of a joints x frames error table.
struct ErrorSummary {
  float maxCm = 0;
  float p99Cm = 0;
  std::int32_t worstJoint = -1;
  std::int32_t worstFrame = -1;
  std::vector<float> jointMaxCm;  ///< per joint
};

class ErrorMetric {
 public:
  /// `shellCm` has one value per joint.
  ErrorMetric(const Skeleton& skeleton, const RawClip& original, double unitToCm, std::span<const float> shellCm);

  std::uint32_t jointCount() const { return m_joints; }
  std::uint32_t frameCount() const { return m_frames; }
  double unitToCm() const { return m_unitToCm; }
  /// Original object-space matrices, frame-major.
  const Mat34d& originalObject(std::uint32_t joint, std::uint32_t frame) const {
    return m_object[std::size_t(frame) * m_joints + joint];
  }
  /// Shell offset (object units at frame 0) of a joint, in its local space, along axis k.
  const double* shellOffset(std::uint32_t joint, int axis) const { return m_shell[joint * 3 + std::size_t(axis)].data(); }

  /// Error (cm) of one joint given its decoded object-space matrix at `frame`.
  float error(std::uint32_t joint, std::uint32_t frame, const Mat34d& decodedObject) const;
  /// Errors of every joint at one frame given decoded local transforms.
  void measureFrame(std::uint32_t frame, std::span<const Transform> decodedLocal, std::span<float> out,
                    std::vector<Mat34d>& scratch) const;
  /// Errors of every joint at every frame (frame-major) given decoded local transforms (frame-major).
  std::vector<float> measure(std::span<const Transform> decodedLocal) const;

 private:
  const Skeleton* m_skeleton;
  std::uint32_t m_joints, m_frames;
  double m_unitToCm;
  std::vector<Mat34d> m_object;              // frame-major original object matrices
  std::vector<std::array<double, 3>> m_shell;  // joint*3 + axis: local offset
  std::vector<std::array<double, 9>> m_points; // frame-major: original shell points (3 x xyz)
};

/// Max, 99th percentile, worst joint/frame and per-joint max of a frame-major error table.
ErrorSummary summarize(std::span<const float> errors, std::uint32_t joints);

}  // namespace animpack::core
