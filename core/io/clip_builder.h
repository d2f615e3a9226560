#pragma once
// Writes one clip data block in the current format (core/runtime/FORMAT.md "Clip data block") from
// a description of its sub-tracks. The compressor's writer (core/compress/clip_writer.cpp) and the
// reader of older packs (core/io/legacy.cpp) both describe their tracks this way, so the block
// layout is written in one place, beside the format the reader validates (core/runtime/clip_format.h); the runtime does
// not link it.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/runtime/clip_format.h"

namespace animpack::runtime {

/// One sub-track (joint x 3 + channel). Only the fields of its kind are read; spans point into
/// storage the caller keeps alive while buildClip runs.
struct BlockTrack {
  TrackKind kind = TrackKind::Default;
  /// Constant kinds: the stored bytes (6 or 12 for Constant, 4 for ConstantQ32, 16 for ConstantFloat).
  std::array<std::uint8_t, 16> constant{};
  /// Keyed: the range of a vector track, each key's frame and 48-bit payload, in time order.
  float rangeMin[3] = {};
  float rangeExtent[3] = {};
  std::span<const std::uint16_t> keyFrames;
  std::span<const std::array<std::uint16_t, 3>> keyPayloads;
  /// Timed (format version 7): each key's time in 1/65536 frames (kTimedTicksPerFrame), with the
  /// payloads and range above (kTimedQuantized) or each key's float32 value (kTimedFloat).
  std::span<const std::uint32_t> keyTimes;
  std::uint8_t timedFormat = kTimedQuantized;
  std::span<const std::array<float, 4>> keyValues;
  /// Packed (kTimedPacked, format version 10): per key its time's offset from the line (units of 2^timeShift ticks) and
  /// its components' integers, in the widths `width` (time: timeWidth) over `minValue` and `step`.
  std::uint8_t timeShift = 0, timeWidth = 0, timedComponents = 3;
  std::uint32_t timeSlope =
      0;  ///< packed: the line of key times, (k x slope) / 256 + base (units of 2^timeShift ticks)
  std::int32_t timeBase = 0;
  std::span<const std::array<std::uint32_t, 5>> keyPacked;
  /// Uniform (and packed timed keys: minValue, step, width): the parameters (kUniformFlag*), boundaries per row, per
  /// segment its residual shift and bits per component, per frame the residuals.
  std::uint8_t uniformFlags = 0;
  float minValue[4] = {};
  float step = 0;
  std::uint8_t width[4] = {};
  float reference[4] = {0, 0, 0, 1};
  std::span<const std::array<std::uint32_t, 4>> boundaries;
  std::span<const std::uint8_t> shifts;
  std::span<const std::array<std::uint8_t, 4>> bits;
  std::span<const std::array<std::int32_t, 4>> residuals;
  /// Or, instead of `residuals`, each segment's residuals as already packed: the track's run of bits
  /// (its frames x the widths of `bits`) starting at bit `bit` of `data`.
  struct BitRun {
    const std::uint8_t* data = nullptr;
    std::uint64_t bit = 0;
  };
  std::span<const BitRun> residualRuns;
  /// Raw: per frame x y z w (rotation) or x y z (vector).
  std::span<const std::array<float, 4>> raw;
};

struct BlockClip {
  std::uint32_t frameCount = 1;
  float sampleRate = 30.f;
  std::uint16_t flags = 0;                   ///< kClipFlag*, without kClipFlagRootMotion (set when rootMotion is given)
  std::uint32_t segmentLength = 16;          ///< frames per uniform segment (ignored without uniform tracks)
  std::span<const BlockTrack> tracks;        ///< joint x 3 + channel
  std::span<const std::uint8_t> rootMotion;  ///< the root-motion section (FORMAT.md "Root motion"), or empty
};

/// The clip's bytes; the layout follows from the inputs alone (byte-identical output).
std::vector<std::uint8_t> buildClip(const BlockClip& clip);

}  // namespace animpack::runtime
