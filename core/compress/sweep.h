#pragma once
// The size-vs-error sweep: one clip compressed at precisions around the current one, so an artist
// sees what a looser or tighter precision would cost or save.

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/anim/imported_asset.h"
#include "core/compress/settings.h"

namespace animpack::core {

/// One compression of the sweep.
struct SweepPoint {
  double precisionCm = 0;   ///< the top-level precision it was compressed with
  std::uint64_t bytes = 0;  ///< packedClipBytes() of the result
  double maxErrorCm = 0;
};

/// The precisions a sweep tries: 1/4 to 16 times `currentCm`, in increasing order.
std::vector<float> sweepPrecisions(float currentCm);
/// Compresses clip `clip` of `asset` with `base` at each of sweepPrecisions() of its top-level
/// precision (the default when unset); stops early when `cancel` becomes true. Clips that fail
/// to compress leave no point.
std::vector<SweepPoint> precisionSweep(const ImportedAsset& asset, std::size_t clip, const CompressionSettings& base,
                                       const std::atomic<bool>* cancel = nullptr);

}  // namespace animpack::core
