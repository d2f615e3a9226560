#pragma once
// A compression result decoded at every frame with the runtime (what the game will play), plus
// which frames each sub-track keeps as keys: what the studio's curve view draws.

#include <memory>
#include <vector>

#include "core/anim/imported_asset.h"
#include "core/compress/compressor.h"
#include "core/runtime/clip_view.h"

namespace animpack::core {

/// The frames a sub-track of `view` stores explicitly (channel 0 rotation, 1 translation, 2 scale):
/// its keys (keyed), its segment boundaries (uniform), none for constant and default tracks.
std::vector<int> keyFrames(const runtime::ClipView& view, int joint, int channel);

/// Every frame of a compressed clip decoded, and the frames its sub-tracks keep.
class DecodedClip {
 public:
  /// Decodes `clip` of `asset` (compressed as `compressed`) at every frame.
  DecodedClip(std::shared_ptr<const ImportedAsset> asset, std::shared_ptr<const CompressedClip> compressed);

  bool valid() const { return m_valid; }
  std::uint32_t frameCount() const { return m_frames; }
  std::uint32_t jointCount() const { return m_joints; }
  /// Decoded local transforms of one frame (an additive clip's deltas applied on its decoded base).
  std::span<const Transform> frame(std::uint32_t f) const {
    return {m_decoded.data() + std::size_t(f) * m_joints, m_joints};
  }
  /// keyFrames() of one of this clip's sub-tracks (none when the clip did not decode).
  std::vector<int> keptFrames(int joint, int channel) const {
    return m_valid ? keyFrames(m_view, joint, channel) : std::vector<int>{};
  }
  /// Morph curves (one per curve of the file): the decoded weights at fractional `frame` into `out`
  /// (an additive clip's deltas added to its base's weights); nothing when the clip did not decode.
  void weights(double frame, std::span<float> out) const;
  /// The frames morph curve `curve` keeps (runtime::curveKeyFrames).
  std::vector<int> keptCurveFrames(std::uint32_t curve) const;
  /// The runtime view the frames were decoded from.
  const runtime::ClipView& view() const { return m_view; }
  /// The compression result decoded.
  const CompressedClip& compressed() const { return *m_compressed; }

 private:
  std::shared_ptr<const ImportedAsset> m_asset;
  std::shared_ptr<const CompressedClip> m_compressed;
  std::shared_ptr<const std::vector<float>> m_restWeights;  ///< what m_view's default curves decode to
  runtime::ClipView m_view;
  std::vector<Transform> m_decoded;
  std::uint32_t m_frames = 0, m_joints = 0;
  bool m_valid = false;
};

/// Every morph curve of `asset` over compressed clip `clip` (of source `raw`) against its source keys,
/// in cm (the weight error times the target's largest displacement): curve-major, 2 x frames - 1
/// values a curve, value 2f at frame f and 2f + 1 halfway to the next frame. Decodes the curves
/// alone; empty when the clip does not open or the file has no curves.
std::vector<float> curveErrorsCm(const CompressedClip& clip, const ImportedAsset& asset, const RawClip& raw);

}  // namespace animpack::core
