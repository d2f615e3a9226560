#include "core/anim/curves.h"

#include <algorithm>
#include <cmath>

#include "core/runtime/math.h"

namespace animpack::core {

std::array<double, 3> eulerXyzDegrees(const Quat& q) {
  const double x = q.x, y = q.y, z = q.z, w = q.w;
  const double sinp = std::clamp(2.0 * (w * y - z * x), -1.0, 1.0);
  const double deg = 180.0 / 3.14159265358979323846;
  return {std::atan2(2.0 * (w * x + y * z), 1.0 - 2.0 * (x * x + y * y)) * deg, std::asin(sinp) * deg,
          std::atan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z)) * deg};
}

void unwrapDegrees(std::vector<std::array<double, 4>>& values) {
  for (std::size_t f = 1; f < values.size(); ++f)
    for (std::size_t c = 0; c < 3; ++c) {
      const double step = values[f][c] - values[f - 1][c];
      values[f][c] -= 360.0 * std::round(step / 360.0);  // the whole turns in the step
    }
}

std::vector<std::array<double, 4>> jointCurve(CurveChannel channel, std::span<const Transform> frames, double unitToCm,
                                              std::span<const Transform> signReference) {
  std::vector<std::array<double, 4>> out(frames.size());
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const Transform& t = frames[f];
    switch (channel) {
      case CurveChannel::Quaternion: {
        Quat q = t.rotation;
        if (f < signReference.size() && runtime::dot(q, signReference[f].rotation) < 0.f) q = runtime::negated(q);
        out[f] = {q.x, q.y, q.z, q.w};
        break;
      }
      case CurveChannel::Euler: {
        const auto e = eulerXyzDegrees(t.rotation);
        out[f] = {e[0], e[1], e[2], 0};
        break;
      }
      case CurveChannel::Translation:
        out[f] = {t.translation.x * unitToCm, t.translation.y * unitToCm, t.translation.z * unitToCm, 0};
        break;
      case CurveChannel::Scale: out[f] = {t.scale.x, t.scale.y, t.scale.z, 0}; break;
    }
  }
  if (channel == CurveChannel::Euler) unwrapDegrees(out);
  return out;
}

}  // namespace animpack::core
