#include "core/compress/decoded_clip.h"

#include "core/runtime/timed.h"

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
  } else if (kind == runtime::TrackKind::Timed) {
    // Keys at their own times: each at its nearest frame.
    runtime::TimedTracks tracks(view);
    for (runtime::TimedTrack t; tracks.next(t);) {
      if (t.joint != std::uint32_t(joint) || t.channel != runtime::Channel(channel)) continue;
      for (std::uint32_t k = 0; k < t.keyCount; ++k) {
        const int f = int((t.time(k) + runtime::kTimedTicksPerFrame / 2) / runtime::kTimedTicksPerFrame);
        if (frames.empty() || frames.back() != f) frames.push_back(f);
      }
    }
  } else if (kind == runtime::TrackKind::Uniform) {
    for (std::uint32_t k = 0; k <= view.segmentCount(); ++k) frames.push_back(int(view.boundaryFrame(k)));
  }
  return frames;
}

namespace {

/// `clip`'s weights (through `view`) at fractional `frame` into `out`, an additive clip's deltas added
/// to its base's weights (`base`: scratch of one float a curve).
void weightsAt(const runtime::ClipView& view, const CompressedClip& clip, double frame, std::span<float> out,
               std::vector<float>& base) {
  runtime::sampleCurvesAtFrame(view, float(frame), out);
  if (!view.additive() || !clip.base) return;
  base.resize(view.curveCount());
  clip.base->sampleCurves(float(frame / view.sampleRate()), base);
  runtime::applyAdditiveCurves(base, out, 1.f, out);
}

}  // namespace

void DecodedClip::weights(double frame, std::span<float> out) const {
  if (!m_valid || m_view.curveCount() == 0 || out.size() < m_view.curveCount()) return;
  std::vector<float> base;
  weightsAt(m_view, *m_compressed, frame, out, base);
}

std::vector<int> DecodedClip::keptCurveFrames(std::uint32_t curve) const {
  std::vector<int> frames;
  if (!m_valid) return frames;
  for (std::uint32_t f : runtime::curveKeyFrames(m_view, curve)) frames.push_back(int(f));
  return frames;
}

std::vector<float> curveErrorsCm(const CompressedClip& clip, const ImportedAsset& asset, const RawClip& raw) {
  const std::span<const MorphCurve> curves = asset.curves;
  const std::size_t n = curves.size();
  if (n == 0 || raw.frameCount == 0) return {};
  // The clip's curves alone: no joint frame is decoded.
  const std::vector<float> rest = restWeights(curves);
  auto view = runtime::ClipView::open(clip.data, asset.skeleton.restLocal, rest);
  if (!view || view->curveCount() != n) return {};
  std::vector<const CurveKeys*> keys(n, nullptr);  // each curve's source keys; none: its rest weight
  for (const CurveKeys& k : raw.curves)
    if (k.curve < n && !k.times.empty()) keys[k.curve] = &k;
  const std::size_t samples = 2 * std::size_t(raw.frameCount) - 1;
  std::vector<float> errors(n * samples), weights(n), base;
  for (std::size_t i = 0; i < samples; ++i) {
    const double frame = 0.5 * double(i);
    weightsAt(*view, clip, frame, weights, base);
    for (std::size_t c = 0; c < n; ++c) {
      const double source = keys[c] ? sourceWeight(*keys[c], frame / raw.sampleRate) : curves[c].restWeight;
      errors[c * samples + i] = float(std::abs(double(weights[c]) - source) * curves[c].displacementCm);
    }
  }
  return errors;
}

}  // namespace animpack::core
