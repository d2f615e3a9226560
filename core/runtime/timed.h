#pragma once
// Timed tracks (format version 7, FORMAT.md "Timed tracks"): keys at their own times, in 1/65536
// frames, linear between them (lerp, shortest-path slerp). What a source keyed off the clip's frame
// grid is between its keys, so the decoded clip follows it there. Version 10 packs a track's keys
// into bit fields ("Packed timed keys"). The decoder and the compressor share this arithmetic.

#include <cstdint>

#include "core/runtime/bits.h"
#include "core/runtime/clip_format.h"
#include "core/runtime/math.h"
#include "core/runtime/track_math.h"

namespace animpack::runtime {

class ClipView;

/// One timed track as stored: its parameters and its run of keys.
struct TimedTrack {
  std::uint32_t joint = 0;
  Channel channel = Channel::Rotation;
  float minValue[4] = {};
  float extent[3] = {};
  std::uint8_t format = kTimedQuantized;
  const std::uint8_t* keys = nullptr;  ///< quantized and float32: `stride` bytes each, u32 time, then the value
  std::uint32_t stride = kTimedKeySize;
  std::uint32_t keyCount = 0;
  // Packed keys (kTimedPacked): key k at bit k x keyBits of `keys`.
  std::uint32_t keyBits = 0;
  std::uint8_t timeShift = 0, timeWidth = 0, components = 3;
  std::uint8_t width[4] = {};
  float step = 0;
  std::uint32_t timeSlope = 0;  ///< the line of key times: key k at (k x slope) / 256 + base + its offset
  std::int32_t timeBase = 0;

  /// Key k's time in units of 2^timeShift ticks (packed keys; the reader checks it is 0..end).
  std::int64_t packedTimeUnits(std::uint32_t k) const {
    return std::int64_t((std::uint64_t(k) * timeSlope) >> 8) + timeBase +
           readBits(keys, std::uint64_t(k) * keyBits, timeWidth);
  }
  std::uint32_t time(std::uint32_t k) const {
    if (format == kTimedPacked) return static_cast<std::uint32_t>(std::uint64_t(packedTimeUnits(k)) << timeShift);
    return loadLE<std::uint32_t>(keys + std::size_t(k) * stride);
  }
  const std::uint8_t* value(std::uint32_t k) const { return keys + std::size_t(k) * stride + 4; }
  Quat rotation(std::uint32_t k) const;
  Vec3 vector(std::uint32_t k) const;
  /// A packed key's components (min + q x step), `components` of them.
  void packedComponents(std::uint32_t k, float out[4]) const;
};

/// A packed key's rotation from its components: x y z with w = sqrt(1 - x^2 - y^2 - z^2) (three
/// components; normalised only where x y z reach past the unit sphere) or x y z w (four,
/// normalised); the compressor decodes with the same function.
inline Quat packedRotation(const float c[4], unsigned components) {
  if (components == 3) {
    const float r = 1.f - c[0] * c[0] - c[1] * c[1] - c[2] * c[2];
    if (r > 0.f) return {c[0], c[1], c[2], std::sqrt(r)};
    return normalized({c[0], c[1], c[2], 0.f});
  }
  return normalized({c[0], c[1], c[2], c[3]});
}
/// A packed component: min + q x step, in float32.
inline float packedComponent(float minimum, std::uint32_t q, float step) {
  return minimum + static_cast<float>(q) * step;
}

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

/// The fraction of `ticks` between key times a and b, clamped to [0, 1].
inline float timedFraction(double a, double b, double ticks) {
  const double f = (ticks - a) / (b - a);
  return static_cast<float>(f < 0 ? 0 : f > 1 ? 1 : f);
}

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
  u = timedFraction(double(timeOf(lo)), double(timeOf(lo + 1)), ticks);
}

/// The same for packed keys, found from the track's line of key times (every key's time is at or
/// above the line, by its offset), then stepped to: a few time reads instead of a binary search.
inline void packedSegment(const TimedTrack& t, double frame, std::uint32_t& k, float& u) {
  const double ticks = frame * double(kTimedTicksPerFrame);
  const double units = ticks / double(std::uint64_t(1) << t.timeShift);
  const double guess = t.timeSlope > 0 ? (units - double(t.timeBase)) * 256.0 / double(t.timeSlope) : 0.0;
  const std::uint32_t last = t.keyCount - 2;
  k = guess <= 0.0 ? 0u : guess >= double(last) ? last : static_cast<std::uint32_t>(guess);
  while (k > 0 && double(t.time(k)) > ticks) --k;
  while (k < last && double(t.time(k + 1)) <= ticks) ++k;
  u = timedFraction(double(t.time(k)), double(t.time(k + 1)), ticks);
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
