#include "core/runtime/additive.h"

#include <algorithm>

#include "core/runtime/curves.h"
#include "core/runtime/pack_format.h"

namespace animpack::runtime {

void applyAdditive(std::span<const Transform> base, std::span<const Transform> delta, float weight,
                   std::span<Transform> out) {
  const std::size_t n = std::min({base.size(), delta.size(), out.size()});
  const float w = std::clamp(weight, 0.f, 1.f);
  for (std::size_t j = 0; j < n; ++j) {
    const Transform& b = base[j];
    const Transform& d = delta[j];
    // slerp takes the shortest path from the identity, whichever sign the delta was stored in.
    const Quat r = w == 1.f ? d.rotation : slerp(Quat{}, d.rotation, w);
    const Vec3 s{1.f + (d.scale.x - 1.f) * w, 1.f + (d.scale.y - 1.f) * w, 1.f + (d.scale.z - 1.f) * w};
    Transform t;
    t.rotation = normalized(b.rotation * r);
    t.translation = b.translation + d.translation * w;
    t.scale = {b.scale.x * s.x, b.scale.y * s.y, b.scale.z * s.z};
    out[j] = t;
  }
}

Transform additiveDelta(const Transform& base, const Transform& pose) {
  // A zero base scale has no inverse: the delta keeps the pose's scale there (what 0 x anything cannot recover).
  auto ratio = [](float s, float b) { return b != 0.f ? s / b : s; };
  Transform d;
  Quat r = normalized(conjugate(base.rotation) * pose.rotation);
  if (r.w < 0.f) r = negated(r);
  d.rotation = r;
  d.translation = pose.translation - base.translation;
  d.scale = {ratio(pose.scale.x, base.scale.x), ratio(pose.scale.y, base.scale.y), ratio(pose.scale.z, base.scale.z)};
  return d;
}

float additiveBaseFrame(const ClipView& base, std::int32_t baseFrame, float seconds) {
  const float last = float(base.frameCount() - 1);
  if (baseFrame >= 0) return std::min(float(baseFrame), last);
  return std::clamp(seconds * base.sampleRate(), 0.f, last);
}

void sampleAdditiveBase(const Pack& pack, const PackClip& clip, Player& player, float seconds,
                        std::span<Transform> out) {
  if (clip.additiveBase() == kAdditiveNone) return;
  if (clip.additiveBase() == kAdditiveRest) {
    const auto rest = pack.skeleton().restPose();
    std::copy_n(rest.begin(), std::min(rest.size(), out.size()), out.begin());
    return;
  }
  const ClipView& base = pack.clips()[clip.additiveBase()].view;  // the reader checked the index
  player.sampleFrame(base, additiveBaseFrame(base, clip.additiveFrame(), seconds), out);
}

void sampleAdditiveBaseCurves(const Pack& pack, const PackClip& clip, float seconds, std::span<float> out) {
  if (clip.additiveBase() == kAdditiveNone) return;
  const auto rest = pack.skeleton().restWeights();
  const ClipView* base = clip.additiveBase() == kAdditiveRest ? nullptr : &pack.clips()[clip.additiveBase()].view;
  if (!base || base->curveCount() == 0) {
    std::copy_n(rest.begin(), std::min(rest.size(), out.size()), out.begin());
    return;
  }
  sampleCurvesAtFrame(*base, additiveBaseFrame(*base, clip.additiveFrame(), seconds), out);
}

}  // namespace animpack::runtime
