#include <cmath>

#include "core/runtime/player.h"

namespace animpack::runtime {
namespace {

/// Shortest-arc rotation turning unit vector `from` onto unit vector `to`; for opposite vectors a
/// half turn about an axis perpendicular to `from`, chosen deterministically.
Quat rotationBetween(Vec3 from, Vec3 to) {
  const float d = dot(from, to);
  if (d < -0.999999f) {
    Vec3 axis = cross(std::fabs(from.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0}, from);
    axis = axis * (1.f / length(axis));
    return {axis.x, axis.y, axis.z, 0.f};
  }
  const Vec3 c = cross(from, to);
  return normalized({c.x, c.y, c.z, 1.f + d});
}

/// Revolution R1 (reference axis onto the offset direction), stretch (offset length) and spin
/// (R1^-1 * R): bone lengths survive a blend of the parts.
struct Decomposed {
  Quat revolution;
  float stretch;
  Quat spin;
};

Decomposed decompose(const Transform& t, Vec3 axis) {
  Decomposed d;
  d.stretch = length(t.translation);
  d.revolution = d.stretch > 1e-12f ? rotationBetween(axis, t.translation * (1.f / d.stretch)) : Quat{};
  d.spin = conjugate(d.revolution) * t.rotation;
  return d;
}

}  // namespace

void blendPoses(std::span<const Transform> a, std::span<const Transform> b, float weight, BlendMode mode,
                std::span<const Transform> restPose, std::span<Transform> out) {
  for (std::size_t j = 0; j < out.size(); ++j) {
    const Transform& ta = a[j];
    const Transform& tb = b[j];
    Transform r;
    r.scale = lerp(ta.scale, tb.scale, weight);
    if (mode == BlendMode::Naive) {
      r.translation = lerp(ta.translation, tb.translation, weight);
      r.rotation = nlerp(ta.rotation, tb.rotation, weight);
    } else {
      // The reference axis is the rest bone direction, so the revolution stays small in practice.
      Vec3 axis = j < restPose.size() ? restPose[j].translation : Vec3{};
      const float len = length(axis);
      axis = len > 1e-12f ? axis * (1.f / len) : Vec3{0, 1, 0};
      const Decomposed da = decompose(ta, axis);
      const Decomposed db = decompose(tb, axis);
      // nlerp keeps rotations unit, which is all the bone length needs; slerp's constant angular
      // speed is not worth its trigonometry per joint.
      const Quat revolution = nlerp(da.revolution, db.revolution, weight);
      const float stretch = da.stretch + (db.stretch - da.stretch) * weight;
      const Quat spin = nlerp(da.spin, db.spin, weight);
      r.translation = rotate(revolution, axis * stretch);
      r.rotation = normalized(revolution * spin);
    }
    out[j] = r;
  }
}

}  // namespace animpack::runtime
