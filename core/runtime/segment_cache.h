#pragma once
// What a Player's cursor keeps of the uniform segment it is in, per batch of four tracks
// (UniformBatch, structure of arrays): where each lane's residuals of a frame are (rebuilt on
// entering another segment) and the values of the last two frames decoded. The boundary rows are
// the clip's (ClipView::boundaryRows), shared by every player.

#include <cstdint>

namespace animpack::runtime {

/// Residual layout of one segment for a batch: lane l's residuals of frame i start at bit
/// base[l] + i * stride[l] of the segment; component c is `offset[c][l]` bits further, `mask[c][l]`
/// wide (two's complement), in units of scale[l] steps.
struct BatchLayout {
  std::uint32_t mask[4][4];
  float scale[4];
  std::uint32_t base[4];
  std::uint8_t offset[4][4];
  std::uint8_t stride[4];
  bool wide;  ///< a lane's frame spans more than 57 bits: read each component on its own
};

/// A batch's decoded values at two frames: [frame slot][component][lane] (rotations normalised).
struct BatchValues {
  float value[2][4][4];
};

}  // namespace animpack::runtime
