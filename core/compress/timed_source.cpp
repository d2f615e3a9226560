#include "core/compress/timed_source.h"

#include <cmath>

#include "core/anim/source_clip.h"
#include "core/runtime/clip_format.h"

namespace animpack::core {
namespace {

constexpr double kOffGrid = 1e-3;  // of a step: a key this far from a frame is between frames

Sample channelValue(const TransformD& t, int channel) {
  if (channel == 0) return {float(t.rotation[0]), float(t.rotation[1]), float(t.rotation[2]), float(t.rotation[3])};
  const auto& v = channel == 1 ? t.translation : t.scale;
  return {float(v[0]), float(v[1]), float(v[2]), 0.f};
}

/// The channel's keys as frame positions inside [0, last], with both ends, or nothing when every
/// key sits on a frame.
std::optional<std::vector<double>> offGridPositions(const std::vector<double>& ticks, const SourceClip& source,
                                                    double last) {
  std::vector<double> frames{0.0};
  bool off = false;
  for (const double t : ticks) {
    const double p = (t - source.startTicks()) / source.ticksPerFrame();
    if (!(p > 1e-6 && p < last - 1e-6)) continue;
    off = off || std::fabs(p - std::round(p)) > kOffGrid;
    frames.push_back(p);
  }
  if (!off) return std::nullopt;
  frames.push_back(last);
  return frames;
}

}  // namespace

std::vector<std::optional<TimedSource>> timedSources(const RawClip& clip, const SourceClip* from) {
  std::vector<std::optional<TimedSource>> out(std::size_t(clip.jointCount) * 3);
  // Timed tracks hold 2 to 65536 frames, as keyed tracks do (core/runtime/FORMAT.md "Timed tracks").
  if (!from || clip.frameCount < 2 || clip.frameCount > runtime::kMaxKeyedFrames ||
      from->jointCount() != clip.jointCount)
    return out;
  const SourceClip& source = *from;
  const double last = double(clip.frameCount - 1);
  for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
    const auto& chain = source.chains()[j];
    if (chain.size() != 1 || !source.nodes()[chain[0]].animated) continue;
    const SourceNode& node = source.nodes()[chain[0]];
    for (int c = 0; c < 3; ++c) {
      if (node.times[std::size_t(c)].size() < 2) continue;
      auto frames = offGridPositions(node.times[std::size_t(c)], source, last);
      if (!frames) continue;
      TimedSource s;
      s.frames = std::move(*frames);
      for (const double p : s.frames) {
        Sample v = channelValue(node.at(source.startTicks() + p * source.ticksPerFrame()), c);
        if (c == 0 && !s.values.empty()) {
          const Sample& q = s.values.back();
          if (q[0] * v[0] + q[1] * v[1] + q[2] * v[2] + q[3] * v[3] < 0)
            for (float& x : v) x = -x;
        }
        s.values.push_back(v);
      }
      out[std::size_t(j) * 3 + std::size_t(c)] = std::move(s);
    }
  }
  return out;
}

}  // namespace animpack::core
