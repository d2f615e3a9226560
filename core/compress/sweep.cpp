#include "core/compress/sweep.h"

#include "core/compress/clip_sizes.h"
#include "core/compress/compress_setup.h"

namespace animpack::core {

std::vector<float> sweepPrecisions(float currentCm) {
  std::vector<float> out;
  for (float factor : {0.25f, 0.5f, 1.f, 2.f, 4.f, 8.f, 16.f}) out.push_back(currentCm * factor);
  return out;
}

std::vector<SweepPoint> precisionSweep(const ImportedAsset& asset, const RawClip& raw, std::string_view name,
                                       const CompressionSettings& base, const AdditiveSetup& additive,
                                       const std::atomic<bool>* cancel) {
  std::vector<SweepPoint> points;
  // A point replaces the top-level value: per-joint and per-clip rules keep their own.
  for (float precision : sweepPrecisions(base.precisionCm.value_or(kDefaultPrecisionCm))) {
    if (cancel && cancel->load()) break;
    CompressionSettings s = base;
    s.precisionCm = precision;
    auto c =
        makeCompressJob(asset, raw,
                        resolve(s, asset.skeleton, name, asset.meshes, asset.unitToCm, asset.curves, asset.sceneScale),
                        additive)
            .run(nullptr, cancel);
    if (c) points.push_back({double(precision), packedClipBytes(*c), double(c->stats.maxErrorCm)});
  }
  return points;
}

}  // namespace animpack::core
