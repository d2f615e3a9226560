#pragma once
// A compression result decoded at every frame with the runtime (what the game will play), plus
// which frames each sub-track keeps as keys: shared by the curve view and the viewport wiring.

#include <memory>
#include <vector>

#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/runtime/clip_view.h"

namespace animpack::widgets {

class DecodedClip {
 public:
  /// Decodes `clip` of `asset` (compressed as `compressed`) at every frame.
  DecodedClip(std::shared_ptr<const core::ImportedAsset> asset, std::shared_ptr<const core::CompressedClip> compressed);

  bool valid() const { return m_valid; }
  std::uint32_t frameCount() const { return m_frames; }
  std::uint32_t jointCount() const { return m_joints; }
  /// Decoded local transforms of one frame.
  std::span<const core::Transform> frame(std::uint32_t f) const {
    return {m_decoded.data() + std::size_t(f) * m_joints, m_joints};
  }
  /// Frames a sub-track stores explicitly: its keys (keyed), its segment boundaries (uniform), none
  /// for constant and default tracks.
  std::vector<int> keptFrames(int joint, int channel) const;
  const runtime::ClipView& view() const { return m_view; }
  const core::CompressedClip& compressed() const { return *m_compressed; }

 private:
  std::shared_ptr<const core::ImportedAsset> m_asset;
  std::shared_ptr<const core::CompressedClip> m_compressed;
  runtime::ClipView m_view;
  std::vector<core::Transform> m_decoded;
  std::uint32_t m_frames = 0, m_joints = 0;
  bool m_valid = false;
};

}  // namespace animpack::widgets
