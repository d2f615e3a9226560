#include "core/compress/between_source.h"

#include <algorithm>

#include "core/anim/source_clip.h"
#include "core/compress/additive_base.h"
#include "core/runtime/additive.h"

namespace animpack::core {
namespace {

/// The exact local deltas from `base` of every joint at frame position `x`.
void exactDeltas(const SourceClip& source, const AdditiveBase& base, double x, double rate, std::vector<Mat34d>& locals,
                 std::vector<Transform>& basePose, std::vector<Transform>& out) {
  source.localMatrices(x, locals);
  base.sample(static_cast<float>(x / rate), basePose);
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = runtime::additiveDelta(basePose[j], decompose(locals[j]));
}

}  // namespace

double BetweenSource::trackMismatch(std::size_t i) const {
  if (intervals == 0) return 0;
  const auto begin = mismatch.begin() + std::ptrdiff_t(i * intervals);
  return double(*std::max_element(begin, begin + intervals));
}

BetweenSource betweenSource(const RawClip& clip, const AdditiveBase& base, const std::vector<bool>& include) {
  BetweenSource out;
  const std::uint32_t joints = clip.jointCount, frames = clip.frameCount;
  if (!clip.source || frames < 2 || clip.source->jointCount() != joints) return out;
  const std::size_t subs = std::size_t(joints) * 3;
  out.intervals = frames - 1;
  out.sources.resize(subs);
  out.mismatch.assign(subs * out.intervals, 0.f);
  for (std::size_t i = 0; i < subs; ++i)
    if (include[i]) out.sources[i].emplace();
  std::vector<Mat34d> locals(joints);
  std::vector<Transform> basePose(joints), exact(joints);
  for (std::uint32_t f = 0; f < frames; ++f)
    for (std::uint32_t k = 0; k < (f + 1 < frames ? kBetweenSubSteps : 1); ++k) {
      const double x = double(f) + double(k) / kBetweenSubSteps;
      if (k > 0) exactDeltas(*clip.source, base, x, clip.sampleRate, locals, basePose, exact);
      for (std::size_t i = 0; i < subs; ++i) {
        if (!out.sources[i]) continue;
        const auto channel = Channel(i % 3);
        // At the frames the deltas are the clip's own, so the timed keys there are its targets.
        Sample s = sampleOf(k == 0 ? clip.at(std::uint32_t(i / 3), f) : exact[i / 3], channel);
        TimedSource& src = *out.sources[i];
        if (channel == Channel::Rotation && !src.values.empty()) {
          const Sample& p = src.values.back();
          if (s[0] * p[0] + s[1] * p[1] + s[2] * p[2] + s[3] * p[3] < 0.f) s = {-s[0], -s[1], -s[2], -s[3]};
        }
        src.frames.push_back(x);
        src.values.push_back(s);
      }
    }
  // Each interval's mismatch: the exact delta against the frames' deltas interpolated.
  for (std::size_t i = 0; i < subs; ++i) {
    if (!out.sources[i]) continue;
    const TimedSource& src = *out.sources[i];
    for (std::uint32_t f = 0; f + 1 < frames; ++f) {
      const Sample& a = src.values[std::size_t(f) * kBetweenSubSteps];
      const Sample& b = src.values[std::size_t(f + 1) * kBetweenSubSteps];
      float worst = 0.f;
      for (std::uint32_t k = 1; k < kBetweenSubSteps; ++k) {
        const Sample lerped = timedValue(Channel(i % 3), a, b, float(k) / kBetweenSubSteps);
        worst = std::max(
            worst, float(sampleDistance(Channel(i % 3), src.values[std::size_t(f) * kBetweenSubSteps + k], lerped)));
      }
      out.mismatch[i * out.intervals + f] = worst;
    }
  }
  return out;
}

}  // namespace animpack::core
