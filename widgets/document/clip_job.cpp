#include "widgets/document/clip_job.h"

#include "widgets/document/clip_document.h"

namespace animpack::widgets {

core::EffectiveSettings ClipJob::resolve(const core::CompressionSettings& s) const {
  return core::resolve(s, asset->skeleton, name, asset->meshes, asset->unitToCm, asset->curves, asset->sceneScale);
}

core::AdditiveSetup ClipJob::additive(const std::atomic<bool>* cancel) const {
  if (!link.error.empty()) return {link.ref, {}, link.error};
  core::BaseClip base;
  if (baseAsset) base = {baseAsset.get(), &baseAsset->clips[baseIndex], baseSettings};
  return core::additiveSetup(link.ref, *asset, base, cancel);
}

core::AdditiveSetup ClipJob::additive(std::span<const std::uint8_t> baseBlock) const {
  if (!link.error.empty()) return {link.ref, {}, link.error};
  return core::additiveSetup(link.ref, *asset, baseBlock);
}

Expected<core::CompressedClip> ClipJob::run(const core::EffectiveSettings& effective,
                                            const core::AdditiveSetup& additive, core::CompressorContext* context,
                                            const std::atomic<bool>* cancel) const {
  return core::makeCompressJob(*asset, raw(), effective, additive).run(context, cancel);
}

ClipJob clipJob(const ClipDocument& document, int clip) {
  ClipJob job;
  job.asset = document.assetOf(clip);
  job.index = document.rawClip(clip).clipIndex;
  job.name = document.clipName(clip).toStdString();
  job.settings = document.clipSettings(clip);
  job.link = document.additiveLink(clip);
  if (const int base = document.additiveBaseClip(clip); base >= 0) {
    job.baseClip = base;
    job.baseAsset = document.assetOf(base);
    job.baseIndex = document.rawClip(base).clipIndex;
    job.baseSettings = document.effectiveSettings(base);
  }
  return job;
}

}  // namespace animpack::widgets
