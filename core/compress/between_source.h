#pragma once
// What an additive clip's deltas must be between its frames (docs/SETTINGS.md `additive_base`). A
// game composes the base and the delta each interpolated on its own, which is not the source
// interpolated: for a rotation the two differ by about a(1-a)/2 x the commutator of the base's and
// the delta's turns over the interval, largest mid-interval and growing with both speeds. The delta
// that makes the composed pose the source at time t is base(t)^-1 x source(t) (base as it decodes,
// source as its keys interpolate in double precision, core/anim/source_clip.h); these are its
// values at instants between the frames, which a timed track (format version 7) keeps where the
// frames alone, interpolated as the runtime does, miss the bound.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/compress/track_encoding.h"

namespace animpack::core {

class AdditiveBase;

/// Instants per frame interval at which the exact deltas are taken (frames included): between them
/// the exact delta bends by at most 1/256 of what it bends over a whole interval.
inline constexpr std::uint32_t kBetweenSubSteps = 16;

/// Per sub-track (joint x 3 + channel) of an additive clip.
struct BetweenSource {
  /// The exact delta at kBetweenSubSteps instants per interval, the frames' own deltas at the
  /// frames (rotations sign-continuous); nothing for a sub-track left out.
  std::vector<std::optional<TimedSource>> sources;
  /// Per sub-track x interval (sub-track-major, frames - 1 each): how far the frames' deltas
  /// interpolated as the runtime does are from the exact delta inside the interval (sampleDistance
  /// units).
  std::vector<float> mismatch;
  std::uint32_t intervals = 0;

  bool empty() const { return sources.empty(); }
  /// The largest mismatch of sub-track `i` over every interval.
  double trackMismatch(std::size_t i) const;
  double intervalMismatch(std::size_t i, std::uint32_t interval) const {
    return interval < intervals ? double(mismatch[i * intervals + interval]) : 0.0;
  }
};

/// The exact deltas of `clip` (an additive clip's frames as deltas: core/compress/additive_base.h
/// additiveDeltas) from `base` where `include` (per sub-track) is true, from the source keys the
/// clip came from. Empty when the clip has no source or fewer than two frames.
BetweenSource betweenSource(const RawClip& clip, const AdditiveBase& base, const std::vector<bool>& include);

}  // namespace animpack::core
