#pragma once
// The one way to set up a compression (docs/ARCHITECTURE.md "Setting up a compression"). Export,
// the studio's recompressor, the precision sweep and the budget advisor all make their CompressJob
// here, so they run the same job on the same inputs: the clip's file (skeleton, units, up axis),
// its effective settings, the file's meshes (the skin check and the skinned-vertex error) and an
// additive clip's base.

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/anim/imported_asset.h"
#include "core/compress/additive_base.h"
#include "core/compress/compressor.h"
#include "core/compress/settings.h"

namespace animpack::core {

/// What an additive clip is layered on, ready for its job.
struct AdditiveSetup {
  AdditiveRef ref;                   ///< Kind::None: an absolute clip
  std::optional<AdditiveBase> base;  ///< what the deltas apply to: the rest pose, or the base clip as it decodes
  std::string error;                 ///< non-empty: there is no usable base; the job fails with this message
};

/// An additive clip's base clip, as export compresses it: its file, its clip and its own effective settings.
struct BaseClip {
  const ImportedAsset* asset = nullptr;
  const RawClip* clip = nullptr;
  EffectiveSettings settings;
};

/// The job for `clip` (a clip of `asset`, or of the same file imported again with a clip's own
/// sample rate or unit, which is then `asset`) with its effective settings and, for an additive
/// clip, its base. The only code that constructs a CompressJob.
CompressJob makeCompressJob(const ImportedAsset& asset, const RawClip& clip, EffectiveSettings settings,
                            AdditiveSetup additive = {});

/// An additive clip's setup: nothing for Kind::None, the skeleton's rest pose for Kind::Rest, and for
/// Kind::Clip `base` compressed first through makeCompressJob (its deltas are taken from the base as
/// it decodes) and decoded at `ref.frame`.
AdditiveSetup additiveSetup(const AdditiveRef& ref, const ImportedAsset& asset, const BaseClip& base,
                            const std::atomic<bool>* cancel = nullptr);
/// The same from a base clip already compressed (`baseBlock`, its clip block; empty when it failed).
AdditiveSetup additiveSetup(const AdditiveRef& ref, const ImportedAsset& asset,
                            std::span<const std::uint8_t> baseBlock);

}  // namespace animpack::core
