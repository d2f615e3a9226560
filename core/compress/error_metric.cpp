#include "core/compress/error_metric.h"

#include <algorithm>
#include <cmath>

#include "core/runtime/pose_ops.h"

namespace animpack::core {

ErrorMetric::ErrorMetric(const Skeleton& skeleton, const RawClip& original, double unitToCm, std::span<const float> shellCm)
    : m_skeleton(&skeleton), m_joints(original.jointCount), m_frames(original.frameCount), m_unitToCm(unitToCm) {
  m_object.resize(std::size_t(m_frames) * m_joints);
  for (std::uint32_t f = 0; f < m_frames; ++f)
    runtime::localToObject<double>(skeleton.parents, original.frame(f),
                                   std::span(m_object.data() + std::size_t(f) * m_joints, m_joints));
  m_shell.resize(std::size_t(m_joints) * 3);
  for (std::uint32_t j = 0; j < m_joints; ++j) {
    const Mat34d& m = m_object[j];  // frame 0
    const double shell = double(shellCm[j]) / unitToCm;
    for (int axis = 0; axis < 3; ++axis) {
      // Divide by the accumulated scale of this axis so the vertex sits `shell` away in object space.
      const double len = std::sqrt(m.at(0, axis) * m.at(0, axis) + m.at(1, axis) * m.at(1, axis) + m.at(2, axis) * m.at(2, axis));
      std::array<double, 3> v{0, 0, 0};
      v[std::size_t(axis)] = shell / (len > 1e-12 && std::isfinite(len) ? len : 1.0);
      m_shell[j * 3 + std::size_t(axis)] = v;
    }
  }
  m_points.resize(m_object.size());
  for (std::size_t i = 0; i < m_object.size(); ++i) {
    const std::uint32_t j = static_cast<std::uint32_t>(i % m_joints);
    for (int axis = 0; axis < 3; ++axis) m_object[i].transformPoint(m_shell[j * 3 + std::size_t(axis)].data(), &m_points[i][std::size_t(axis) * 3]);
  }
}

float ErrorMetric::error(std::uint32_t joint, std::uint32_t frame, const Mat34d& decoded) const {
  const auto& original = m_points[std::size_t(frame) * m_joints + joint];
  double worst = 0;
  for (int axis = 0; axis < 3; ++axis) {
    double p[3];
    decoded.transformPoint(m_shell[joint * 3 + std::size_t(axis)].data(), p);
    const double dx = p[0] - original[std::size_t(axis) * 3], dy = p[1] - original[std::size_t(axis) * 3 + 1],
                 dz = p[2] - original[std::size_t(axis) * 3 + 2];
    worst = std::max(worst, dx * dx + dy * dy + dz * dz);
  }
  return static_cast<float>(std::sqrt(worst) * m_unitToCm);
}

void ErrorMetric::measureFrame(std::uint32_t frame, std::span<const Transform> decodedLocal, std::span<float> out,
                               std::vector<Mat34d>& scratch) const {
  scratch.resize(m_joints);
  runtime::localToObject<double>(m_skeleton->parents, decodedLocal, scratch);
  for (std::uint32_t j = 0; j < m_joints; ++j) out[j] = error(j, frame, scratch[j]);
}

std::vector<float> ErrorMetric::measure(std::span<const Transform> decodedLocal) const {
  std::vector<float> errors(std::size_t(m_frames) * m_joints);
  std::vector<Mat34d> scratch;
  for (std::uint32_t f = 0; f < m_frames; ++f)
    measureFrame(f, decodedLocal.subspan(std::size_t(f) * m_joints, m_joints),
                 std::span(errors.data() + std::size_t(f) * m_joints, m_joints), scratch);
  return errors;
}

ErrorSummary summarize(std::span<const float> errors, std::uint32_t joints) {
  ErrorSummary s;
  s.jointMaxCm.assign(joints, 0.f);
  if (errors.empty() || joints == 0) return s;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const std::uint32_t j = static_cast<std::uint32_t>(i % joints);
    s.jointMaxCm[j] = std::max(s.jointMaxCm[j], errors[i]);
    if (errors[i] > s.maxCm || s.worstJoint < 0) {
      s.maxCm = errors[i];
      s.worstJoint = static_cast<std::int32_t>(j);
      s.worstFrame = static_cast<std::int32_t>(i / joints);
    }
  }
  std::vector<float> sorted(errors.begin(), errors.end());
  const std::size_t k = std::min(sorted.size() - 1, static_cast<std::size_t>(std::ceil(0.99 * double(sorted.size()))) - 1);
  std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(k), sorted.end());
  s.p99Cm = sorted[k];
  return s;
}

}  // namespace animpack::core
