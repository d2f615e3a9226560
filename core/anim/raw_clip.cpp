#include "core/anim/raw_clip.h"

#include <algorithm>
#include <cmath>

namespace animpack::core {

const char* keyGridName(KeyGridKind kind) {
  switch (kind) {
    case KeyGridKind::Regular: return "regular";
    case KeyGridKind::Snapped: return "snapped";
    case KeyGridKind::Mixed: return "mixed";
    case KeyGridKind::Irregular: return "irregular";
  }
  return "regular";
}

std::size_t RawClip::animatedJointCount() const {
  std::size_t n = 0;
  for (std::uint8_t k : keyedChannels) n += k != 0;
  return n;
}

Status RawClip::validate(const Skeleton& skeleton) const {
  const std::string label = "clip '" + name + "'";
  if (jointCount != skeleton.jointCount())
    return Error{label + " has " + std::to_string(jointCount) + " joints, the skeleton " +
                 std::to_string(skeleton.jointCount())};
  if (frameCount == 0) return Error{label + " has no frames"};
  if (!(sampleRate > 0) || !std::isfinite(sampleRate)) return Error{label + " has an invalid sample rate"};
  if (!std::isfinite(startTime)) return Error{label + " has a non-finite start time"};
  if (samples.size() != std::size_t(frameCount) * jointCount)
    return Error{label + " sample count disagrees with frames x joints"};
  if (keyedChannels.size() != jointCount) return Error{label + " keyed-channel mask has the wrong size"};
  for (std::uint32_t f = 0; f < frameCount; ++f)
    for (std::uint32_t j = 0; j < jointCount; ++j)
      if (!isFinite(at(j, f)))
        return Error{label + " joint '" + skeleton.names[j] + "' frame " + std::to_string(f) + " is not finite"};
  return Status::ok();
}

void makeRotationsContinuous(RawClip& clip) {
  for (std::uint32_t f = 1; f < clip.frameCount; ++f)
    for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
      Quat& q = clip.at(j, f).rotation;
      if (runtime::dot(q, clip.at(j, f - 1).rotation) < 0.f) q = runtime::negated(q);
    }
}

double sourceWeight(const CurveKeys& k, double seconds) {
  if (seconds <= k.times.front()) return k.weights.front();
  if (seconds >= k.times.back()) return k.weights.back();
  const std::size_t i = std::size_t(std::upper_bound(k.times.begin(), k.times.end(), seconds) - k.times.begin());
  const double t0 = k.times[i - 1], t1 = k.times[i];
  const double a = t1 > t0 ? (seconds - t0) / (t1 - t0) : 0.0;
  return k.weights[i - 1] + (k.weights[i] - k.weights[i - 1]) * a;
}

double sourceWeight(const RawClip& clip, std::uint32_t index, float rest, double seconds) {
  for (const CurveKeys& k : clip.curves)
    if (k.curve == index && !k.times.empty()) return sourceWeight(k, seconds);
  return rest;
}

}  // namespace animpack::core
