#pragma once
// A compressed clip's error tables read the way the studio shows them: the error of a joint at a
// frame (CompressionStats::errors), over the open interval after it (betweenErrors), and at any
// fractional frame.

#include <cstddef>

#include "core/compress/compressor.h"

namespace animpack::core {

/// The error of `joint` between frames `frame` and `frame + 1` (cm): the maximum over that open
/// interval, or -1 when the stats hold no between-frame errors for it (the last frame has none).
float betweenErrorCm(const CompressionStats& stats, std::size_t joints, std::size_t frame, std::size_t joint);
/// The largest error of `joint` at frame `frame` and over the interval after it (cm): what the
/// error map's cell shows.
float intervalErrorCm(const CompressionStats& stats, std::size_t joints, std::size_t frame, std::size_t joint);
/// The error of `joint` at fractional frame `frame` (cm): the frame's own error at a frame (within
/// 1e-3 of one), the interval's maximum between two.
float errorAtCm(const CompressionStats& stats, std::size_t joints, double frame, std::size_t joint);

}  // namespace animpack::core
