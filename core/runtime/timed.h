#pragma once
// Timed tracks (format version 7, FORMAT.md "Timed tracks"): keys at their own times, in 1/65536
// frames, linear between them (lerp, shortest-path slerp). What a source keyed off the clip's frame
// grid is between its keys, so the decoded clip follows it there. The decoder and the compressor
// share this arithmetic.

#include <cstdint>

#include "core/runtime/clip_format.h"
#include "core/runtime/math.h"
#include "core/runtime/track_math.h"

namespace animpack::runtime {

class ClipView;

/// One timed track as stored: its parameters and its run of keys.
struct TimedTrack {
  std::uint32_t joint = 0;
  Channel channel = Channel::Rotation;
  float minValue[3] = {};
  float extent[3] = {};
  std::uint8_t format = kTimedQuantized;
  const std::uint8_t* keys = nullptr;  ///< `stride` bytes each: u32 time, then the value
  std::uint32_t stride = kTimedKeySize;
  std::uint32_t keyCount = 0;

  std::uint32_t time(std::uint32_t k) const { return loadLE<std::uint32_t>(keys + std::size_t(k) * stride); }
  const std::uint8_t* value(std::uint32_t k) const { return keys + std::size_t(k) * stride + 4; }
  Quat rotation(std::uint32_t k) const;
  Vec3 vector(std::uint32_t k) const;
};

/// The timed tracks of a clip in sub-track order, found by walking their parameters.
class TimedTracks {
 public:
  explicit TimedTracks(const ClipView& clip);
  bool next(TimedTrack& out);

 private:
  const std::uint8_t* m_param;
  const std::uint8_t* m_keys;
  std::uint32_t m_left;
};

/// The key segment holding frame position `frame` (k below count - 1) and the fraction along it.
template <typename TimeOf>
inline void timedSegment(TimeOf timeOf, std::uint32_t count, double frame, std::uint32_t& k, float& u) {
  const double ticks = frame * double(kTimedTicksPerFrame);
  std::uint32_t lo = 0, hi = count - 1;
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    (double(timeOf(mid)) <= ticks ? lo : hi) = mid;
  }
  k = lo;
  const double a = double(timeOf(lo)), b = double(timeOf(lo + 1));
  const double f = (ticks - a) / (b - a);
  u = static_cast<float>(f < 0 ? 0 : f > 1 ? 1 : f);
}

/// Between two decoded key values: shortest-path slerp (canonical sign) or lerp.
inline Quat timedBetween(Quat a, Quat b, float u) { return canonicalSign(slerp(a, b, u)); }
inline Vec3 timedBetween(Vec3 a, Vec3 b, float u) {
  return {a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.z + (b.z - a.z) * u};
}

/// Writes every timed track of `clip` at frame position `frame` into `out` (indexed by joint). In a
/// wrapping clip's wrap interval (`wrapAlpha` >= 0) each track is its last key interpolated to its
/// first by that fraction.
/// Only the tracks of joints below `joints` (a level of detail).
void decodeTimed(const ClipView& clip, double frame, float wrapAlpha, std::uint32_t joints, Transform* out);

}  // namespace animpack::runtime
