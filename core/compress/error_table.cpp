#include "core/compress/error_table.h"

#include <algorithm>
#include <cmath>

namespace animpack::core {

float betweenErrorCm(const CompressionStats& stats, std::size_t joints, std::size_t frame, std::size_t joint) {
  const std::size_t i = frame * joints + joint;
  return joint < joints && i < stats.betweenErrors.size() ? stats.betweenErrors[i] : -1.f;
}

float intervalErrorCm(const CompressionStats& stats, std::size_t joints, std::size_t frame, std::size_t joint) {
  const std::size_t i = frame * joints + joint;
  const float atFrame = joint < joints && i < stats.errors.size() ? stats.errors[i] : 0.f;
  return std::max(atFrame, betweenErrorCm(stats, joints, frame, joint));
}

float errorAtCm(const CompressionStats& stats, std::size_t joints, double frame, std::size_t joint) {
  if (joints == 0 || stats.errors.empty()) return 0.f;
  const std::size_t frames = stats.errors.size() / joints;
  const double f = std::clamp(frame, 0.0, double(frames - 1));
  const double nearest = std::round(f);
  if (std::fabs(f - nearest) < 1e-3) return stats.errors[std::size_t(nearest) * joints + joint];
  const float between = betweenErrorCm(stats, joints, std::size_t(std::floor(f)), joint);
  // Without between-frame errors, the larger of the two frames' errors is the best estimate.
  if (between >= 0) return between;
  return std::max(stats.errors[std::size_t(std::floor(f)) * joints + joint],
                  stats.errors[std::size_t(std::ceil(f)) * joints + joint]);
}

}  // namespace animpack::core
