#pragma once
// Writes the curve section of a clip data block (core/runtime/FORMAT.md "Curves"): the writer side
// of core/runtime/curves.h, kept out of the runtime a game links.

#include <cstdint>
#include <span>
#include <vector>

#include "core/runtime/clip_format.h"

namespace animpack::runtime {
inline constexpr unsigned kDefaultCurveSegmentShift = 4;  // segments of 16 frames
}

namespace animpack::runtime {

/// One curve as the section builder reads it (spans into storage the caller keeps alive).
struct BlockCurve {
  TrackKind kind = TrackKind::Default;  ///< Default, Constant, Keyed, Uniform, Raw or Segmented
  float constant = 0;                   ///< Constant
  float minValue = 0, step = 0;         ///< Keyed, Uniform, Segmented: value = minValue + q x step
  std::uint8_t width = 0;               ///< Keyed and Uniform: bits per value; Segmented: per boundary value
  std::span<const std::uint16_t> keyFrames;
  std::span<const std::uint32_t> keyValues;
  std::span<const std::uint32_t> values;  ///< Uniform and Segmented: the quantized value per frame
  std::span<const float> raw;             ///< Raw: per frame
};

/// The curve section of a clip of `frames` frames (FORMAT.md "Curves"); segmented curves (version
/// 9) with a boundary every 2^segmentShift frames.
std::vector<std::uint8_t> buildCurveSection(std::uint32_t frames, std::span<const BlockCurve> curves,
                                            unsigned segmentShift = kDefaultCurveSegmentShift);
/// Bits a segmented curve of these quantized values (one a frame, `width` bits each) costs in the
/// segmented part: its boundary values, its residual widths and residuals (not its parameters).
std::uint64_t segmentedCurveBits(std::span<const std::uint32_t> values, unsigned width, unsigned segmentShift);
/// Appends a curve section to a clip block (after its last section), setting kClipFlagCurves and the size.
void appendCurveSection(std::vector<std::uint8_t>& block, std::span<const std::uint8_t> section);

}  // namespace animpack::runtime
