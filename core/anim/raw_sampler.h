#pragma once
// O(1) sampling of uncompressed data (docs/ARCHITECTURE.md, the "fast track" idea).
// KeyLookupTable maps a time to its key interval through a table precomputed at a fixed rate, so
// sampling non-uniform keys needs no search; RawSampler samples a uniformly resampled RawClip at any
// time with linear interpolation and shortest-path slerp.

#include <cstdint>
#include <span>
#include <vector>

#include "core/anim/raw_clip.h"

namespace animpack::core {

class KeyLookupTable {
 public:
  KeyLookupTable() = default;
  /// `times` must be sorted ascending. `tableRate` entries per time unit; use at least the key
  /// density so a lookup advances at most a step or two past the table entry.
  KeyLookupTable(std::span<const double> times, double tableRate);

  /// Index i of the interval [times[i], times[i+1]) holding t, clamped to [0, count-2]
  /// (0 for fewer than two keys).
  std::size_t interval(double t) const;

 private:
  std::span<const double> m_times;
  std::vector<std::uint32_t> m_table;
  double m_start = 0, m_rate = 1;
};

class RawSampler {
 public:
  /// Samples `clip` at `seconds` from its first frame: clamped, or wrapped when `loop`.
  static void sample(const RawClip& clip, double seconds, std::span<Transform> out, bool loop = false);
  /// Samples a clip that wraps (core/runtime/FORMAT.md "Loops": a cycle of frameCount frames) at
  /// `seconds`, as the runtime plays it: past the last frame, the last frame interpolated to frame 0.
  static void sampleWrapping(const RawClip& clip, double seconds, std::span<Transform> out);
  /// Samples at a fractional frame index (clamped).
  static void sampleFrame(const RawClip& clip, double frame, std::span<Transform> out);
};

}  // namespace animpack::core
