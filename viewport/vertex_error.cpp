#include "viewport/vertex_error.h"

#include <algorithm>
#include <cmath>

namespace animpack::viewport {

float vertexDisplacementsCm(std::span<const core::Vec3> a, std::span<const core::Vec3> b, double unitToCm,
                            std::span<float> outCm) {
  const std::size_t n = std::min({a.size(), b.size(), outCm.size()});
  const float scale = static_cast<float>(unitToCm);
  float largest = 0.f;
  for (std::size_t v = 0; v < n; ++v) {
    const float d = runtime::length(a[v] - b[v]) * scale;
    outCm[v] = d;
    largest = std::max(largest, d);
  }
  return largest;
}

void displacementColors(std::span<const float> displacementCm, float scaleCm, std::span<Rgba> out) {
  const std::size_t n = std::min(displacementCm.size(), out.size());
  const float inverse = scaleCm > 0.f ? 1.f / scaleCm : 0.f;
  for (std::size_t v = 0; v < n; ++v) out[v] = errorRampColor(displacementCm[v] * inverse);
}

}  // namespace animpack::viewport
