#include "core/compress/compress_setup.h"

#include <vector>

namespace animpack::core {
namespace {

std::vector<float> restWeights(const ImportedAsset& asset) {
  std::vector<float> out;
  for (const MorphCurve& c : asset.curves) out.push_back(c.restWeight);
  return out;
}

}  // namespace

CompressJob makeCompressJob(const ImportedAsset& asset, const RawClip& clip, EffectiveSettings settings,
                            AdditiveSetup additive) {
  // Settings resolved without the file's curves give each the default precision.
  if (settings.curves.size() != asset.curves.size()) settings.curves.resize(asset.curves.size());
  // Lengths in the scene's centimetres; the file's curves carry the file's scene scale, which the
  // settings may override.
  const double sceneScale = settings.sceneScale;
  CompressJob job(asset.skeleton, clip, asset.unitToCm * sceneScale, std::move(settings));
  job.m_meshes = asset.meshes;
  job.m_curves.assign(asset.curves.begin(), asset.curves.end());
  for (MorphCurve& c : job.m_curves) c.displacementCm *= sceneScale / asset.sceneScale;
  job.m_upAxis = objectUpAxis(asset.sceneRootTransform, UpAxis::AsImported);
  job.m_setupError = std::move(additive.error);
  if (additive.ref.additive() && job.m_setupError.empty()) {
    if (additive.base) {
      job.m_base = std::move(additive.base);
      job.m_additive = std::move(additive.ref);
    } else {
      job.m_setupError = "additive clip '" + clip.name + "' has no base pose";
    }
  }
  return job;
}

namespace {

AdditiveSetup decoded(const AdditiveRef& ref, const ImportedAsset& asset, std::vector<std::uint8_t> block) {
  AdditiveSetup out{ref, {}, {}};
  auto base = AdditiveBase::clip(std::move(block), asset.skeleton.restLocal, ref.frame, restWeights(asset));
  if (base) out.base = std::move(base.value());
  else out.error = "additive base '" + ref.clip + "': " + base.message();
  return out;
}

}  // namespace

AdditiveSetup additiveSetup(const AdditiveRef& ref, const ImportedAsset& asset, const BaseClip& base,
                            const std::atomic<bool>* cancel) {
  if (ref.kind == AdditiveRef::Kind::None) return {};
  if (ref.kind == AdditiveRef::Kind::Rest)
    return {ref, AdditiveBase::rest(asset.skeleton.restLocal, restWeights(asset)), {}};
  if (!base.asset || !base.clip) return {ref, {}, "its additive base '" + ref.clip + "' is not in the project"};
  auto compressed = makeCompressJob(*base.asset, *base.clip, base.settings).run(nullptr, cancel);
  if (!compressed) return {ref, {}, "its additive base '" + ref.clip + "' failed: " + compressed.message()};
  return decoded(ref, asset, std::move(compressed->data));
}

AdditiveSetup additiveSetup(const AdditiveRef& ref, const ImportedAsset& asset,
                            std::span<const std::uint8_t> baseBlock) {
  if (ref.kind == AdditiveRef::Kind::None) return {};
  if (ref.kind == AdditiveRef::Kind::Rest)
    return {ref, AdditiveBase::rest(asset.skeleton.restLocal, restWeights(asset)), {}};
  if (baseBlock.empty()) return {ref, {}, "its additive base '" + ref.clip + "' failed"};
  return decoded(ref, asset, {baseBlock.begin(), baseBlock.end()});
}

}  // namespace animpack::core
