#pragma once
// The size-vs-error sweep: one clip compressed at precisions around the current one, so an artist
// sees what a looser or tighter precision would cost or save.

#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/anim/imported_asset.h"
#include "core/compress/compress_setup.h"
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
/// Compresses `clip` (a clip of `asset`, called `name` in the pack) with `base`, the settings it
/// resolves under that name, at each of sweepPrecisions() of their top-level precision (the default
/// when unset), through makeCompressJob as export does: with the file's meshes and, for an additive
/// clip, `additive` (its base stays as it is now). The point at the current precision is what export
/// writes. Stops early when `cancel` becomes true; clips that fail to compress leave no point.
std::vector<SweepPoint> precisionSweep(const ImportedAsset& asset, const RawClip& clip, std::string_view name,
                                       const CompressionSettings& base, const AdditiveSetup& additive = {},
                                       const std::atomic<bool>* cancel = nullptr);

}  // namespace animpack::core
