#include "core/compress/decoded_clip.h"

#include <algorithm>
#include <cmath>

#include "core/compress/curve_compress.h"
#include "core/runtime/curves.h"
#include "core/runtime/player.h"

namespace animpack::core {

DecodedClip::DecodedClip(std::shared_ptr<const ImportedAsset> asset, std::shared_ptr<const CompressedClip> compressed)
    : m_asset(std::move(asset)), m_compressed(std::move(compressed)) {
  if (!m_asset || !m_compressed) return;
  // Shared, so a copy of this object keeps the view's rest weights alive.
  m_restWeights = std::make_shared<const std::vector<float>>(restWeights(m_asset->curves));
  auto view = runtime::ClipView::open(m_compressed->data, m_asset->skeleton.restLocal, *m_restWeights);
  if (!view) return;
  m_view = std::move(view.value());
  // A dropped last frame is decoded too (the wrap gives it): tables stay on the source's frames.
  m_frames = m_view.sourceFrameCount();
  m_joints = m_view.jointCount();
  m_decoded.resize(std::size_t(m_frames) * m_joints);
  runtime::Player player;
  for (std::uint32_t f = 0; f < m_frames; ++f)
    player.sampleFrame(m_view, float(f), std::span(m_decoded.data() + std::size_t(f) * m_joints, m_joints));
  // The views compare these with the source: an additive clip is shown as the pose it makes.
  if (m_view.additive() && m_compressed->base)
    m_decoded = composeAdditive(m_compressed->base->frames(m_frames, m_view.sampleRate()), m_decoded);
  m_valid = true;
}

std::vector<int> keyFrames(const runtime::ClipView& view, int joint, int channel) {
  std::vector<int> frames;
  if (joint < 0 || std::uint32_t(joint) >= view.jointCount() || channel < 0 || channel > 2) return frames;
  const auto kind = view.kind(std::uint32_t(joint), runtime::Channel(channel));
  if (kind == runtime::TrackKind::Keyed) {
    for (std::uint32_t t = 0; t < view.keyedCount(); ++t) {
      const runtime::KeyedTrackInfo track = view.keyedTrack(t);
      if (track.joint != std::uint32_t(joint) || track.channel != runtime::Channel(channel)) continue;
      for (std::uint32_t k = 0; k < track.keyCount; ++k) frames.push_back(int(view.keyFrame(track.firstKey + k)));
    }
  } else if (kind == runtime::TrackKind::Uniform) {
    for (std::uint32_t k = 0; k <= view.segmentCount(); ++k) frames.push_back(int(view.boundaryFrame(k)));
  }
  return frames;
}

void DecodedClip::weights(double frame, std::span<float> out) const {
  if (!m_valid || m_view.curveCount() == 0 || out.size() < m_view.curveCount()) return;
  runtime::sampleCurvesAtFrame(m_view, float(frame), out);
  if (!m_view.additive() || !m_compressed->base) return;
  std::vector<float> base(m_view.curveCount());
  m_compressed->base->sampleCurves(float(frame / m_view.sampleRate()), base);
  runtime::applyAdditiveCurves(base, out, 1.f, out);
}

std::vector<int> DecodedClip::keptCurveFrames(std::uint32_t curve) const {
  std::vector<int> frames;
  if (!m_valid) return frames;
  for (std::uint32_t f : runtime::curveKeyFrames(m_view, curve)) frames.push_back(int(f));
  return frames;
}

std::vector<float> curveErrorsCm(const DecodedClip& decoded, const RawClip& raw, std::span<const MorphCurve> curves) {
  const std::size_t n = curves.size();
  if (!decoded.valid() || n == 0 || decoded.view().curveCount() != n || raw.frameCount == 0) return {};
  const std::size_t samples = 2 * std::size_t(raw.frameCount) - 1;
  std::vector<float> errors(n * samples), weights(n);
  for (std::size_t i = 0; i < samples; ++i) {
    const double frame = 0.5 * double(i);
    decoded.weights(frame, weights);
    for (std::size_t c = 0; c < n; ++c) {
      const double source = sourceWeight(raw, std::uint32_t(c), curves[c].restWeight, frame / raw.sampleRate);
      errors[c * samples + i] = float(std::abs(double(weights[c]) - source) * curves[c].displacementCm);
    }
  }
  return errors;
}

}  // namespace animpack::core
