#pragma once
// A compression of one clip of the document, taken on the GUI thread and run on a worker thread
// through core::makeCompressJob (core/compress/compress_setup.h), the way `animpack build` compresses
// it: its file, the settings it resolves under its pack name, the file's meshes and its additive base.
// The recompressor, the precision sweep and the budget advisor all start from one.

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/anim/imported_asset.h"
#include "core/base/status.h"
#include "core/batch/additive_links.h"
#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/compress/settings.h"

namespace animpack::widgets {

class ClipDocument;

struct ClipJob {
  std::shared_ptr<const core::ImportedAsset> asset;      ///< the clip's file
  std::uint32_t index = 0;                               ///< the clip in its file
  std::string name;                                      ///< its pack name
  core::CompressionSettings settings;                    ///< what it resolves under its pack name
  core::AdditiveLink link;                               ///< its additive base (none, rest, a clip, or why none)
  int baseClip = -1;                                     ///< the base clip in the document, or -1
  std::shared_ptr<const core::ImportedAsset> baseAsset;  ///< the base clip's file (any file of the project)
  std::uint32_t baseIndex = 0;                           ///< the base clip in its file
  core::EffectiveSettings baseSettings;

  const core::RawClip& raw() const { return asset->clips[index]; }
  /// `s` (settings or a variant of them) resolved for this clip, with the file's meshes.
  core::EffectiveSettings resolve(const core::CompressionSettings& s) const;
  /// The additive setup: for a base clip this compresses it first (on the calling thread).
  core::AdditiveSetup additive(const std::atomic<bool>* cancel) const;
  /// The same from the base clip's block as it is already compressed (empty when it failed).
  core::AdditiveSetup additive(std::span<const std::uint8_t> baseBlock) const;
  /// Compresses the clip with `effective` settings and `additive` (from additive()).
  Expected<core::CompressedClip> run(const core::EffectiveSettings& effective, const core::AdditiveSetup& additive,
                                     core::CompressorContext* context, const std::atomic<bool>* cancel) const;
};

/// The job of clip `clip` of `document` (a valid clip index).
ClipJob clipJob(const ClipDocument& document, int clip);

}  // namespace animpack::widgets
