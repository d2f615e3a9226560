#include "widgets/document/pose_preview.h"

#include <algorithm>
#include <cmath>

#include "core/anim/raw_sampler.h"
#include "core/compress/error_table.h"
#include "core/runtime/additive.h"
#include "core/runtime/curves.h"
#include "core/runtime/root_motion.h"

namespace animpack::widgets {

float BlendSetup::weightAt(double seconds) const {
  if (!crossfade) return weight;
  return float(std::clamp(seconds / crossfadeS, 0.0, 1.0));
}

PosePreview::PosePreview(ClipDocument* document, Recompressor* recompressor, QObject* parent)
    : QObject(parent), m_document(document), m_recompressor(recompressor) {
  connect(document, &ClipDocument::currentTimeChanged, this, &PosePreview::update);
  connect(recompressor, &Recompressor::currentChanged, this, &PosePreview::update);
  update();
}

void PosePreview::setBlend(const BlendSetup& blend) {
  m_blend = blend;
  update();
}

void PosePreview::update() {
  const int clip = m_document->currentClip();
  m_compressedValid = false;
  m_ratios.clear();
  m_naive.clear();
  m_decomposed.clear();
  if (!m_document->hasAsset() || clip < 0) {
    m_original.clear();
    m_originalWeights.clear();
    m_playing.reset();
    m_playingView.reset();
    emit changed();
    return;
  }
  const auto& asset = *m_document->asset();
  const double t = m_document->currentTime();
  m_original.resize(asset.skeleton.jointCount());
  // The newest result for this clip (an older one while a new one is computed). A clip compressed
  // to wrap plays one interval more, from its last frame to its first: the source shows the same
  // interval instead of holding its last frame.
  const ShownResult shown = m_recompressor->current();
  const core::CompressedClip* c = shown.compressed();
  const core::RawClip& raw = m_document->rawClip(clip);
  if (c && c->wrap && !c->droppedLastFrame) core::RawSampler::sampleWrapping(raw, t, m_original);
  else core::RawSampler::sample(raw, t, m_original);
  if (m_additiveWeight < 1.f && basePose(t, false, m_base)) {
    // The source layer at the weight: its delta from the source base, applied partly.
    std::vector<core::Transform> delta(m_original.size());
    for (std::size_t j = 0; j < delta.size(); ++j) delta[j] = runtime::additiveDelta(m_base[j], m_original[j]);
    runtime::applyAdditive(m_base, delta, m_additiveWeight, m_original);
  }
  sampleCompressed(shown, t);
  sampleWeights(raw, t);
  sampleBlend(t);
  emit changed();
}

void PosePreview::sampleCompressed(const ShownResult& shown, double seconds) {
  const core::CompressedClip* compressed = shown.compressed();
  if (!compressed) return;
  const auto& asset = *m_document->asset();
  const std::size_t n = asset.skeleton.jointCount();
  if (m_playing != shown.result->compressed) {
    m_playing = shown.result->compressed;
    m_restWeights = core::restWeights(asset.curves);
    auto view = runtime::ClipView::open(m_playing->data, asset.skeleton.restLocal, m_restWeights);
    m_playingView = view ? std::optional<runtime::ClipView>(std::move(view.value())) : std::nullopt;
    m_player = runtime::Player();  // its forward-playback state belongs to the clip it played
    updateTrajectory();
  }
  if (m_playingView) {
    m_compressed.resize(n);
    m_player.sample(*m_playingView, float(seconds), m_compressed);
    m_compressedValid = true;
    if (m_playingView->additive()) {
      // An additive result is its deltas: shown on its base as the base decodes, as a game plays it.
      m_compressedValid = basePose(seconds, true, m_base);
      if (m_compressedValid) runtime::applyAdditive(m_base, m_compressed, m_additiveWeight, m_compressed);
    } else if (const auto info = m_playingView->rootMotion(); info && m_inPlace && info->joint < m_original.size()) {
      runtime::moveJoint(asset.skeleton.parents, info->joint,
                         runtime::inverse(runtime::characterMotion(*m_playingView, 0.f, float(seconds))), m_original);
    } else {
      runtime::applyRootMotion(m_player, *m_playingView, float(seconds), asset.skeleton.parents, m_compressed,
                               m_rootScratch);
    }
  }
  // Per-joint error at this time (between frames: that interval's largest), as a fraction of the
  // joint's precision.
  const auto& stats = compressed->stats;
  const double frame = std::max(0.0, seconds) * m_document->rawClip(m_document->currentClip()).sampleRate;
  if (stats.errors.size() == std::size_t(compressed->frameCount) * n && stats.joints.size() == n) {
    m_ratios.resize(n);
    for (std::size_t j = 0; j < n; ++j)
      m_ratios[j] = core::errorAtCm(stats, n, frame, j) / std::max(1e-6f, stats.joints[j].precisionCm);
  }
}

void PosePreview::sampleWeights(const core::RawClip& raw, double seconds) {
  const auto& curves = m_document->asset()->curves;
  m_originalWeights.resize(curves.size());
  for (std::size_t c = 0; c < curves.size(); ++c)
    m_originalWeights[c] = float(core::sourceWeight(raw, std::uint32_t(c), curves[c].restWeight, seconds));
  m_compressedWeights.clear();
  if (curves.empty() || !m_compressedValid || !m_playingView || m_playingView->curveCount() != curves.size()) return;
  m_compressedWeights.resize(curves.size());
  runtime::sampleCurves(*m_playingView, float(seconds), m_compressedWeights);
  if (!m_playingView->additive()) return;
  // An additive clip's curves are deltas on its base's weights, as the base decodes.
  m_baseWeights.resize(curves.size());
  if (m_playing && m_playing->base && m_playing->base->curveCount() == curves.size())
    m_playing->base->sampleCurves(float(seconds), m_baseWeights);
  else m_baseWeights = m_restWeights;
  runtime::applyAdditiveCurves(m_baseWeights, m_compressedWeights, m_additiveWeight, m_compressedWeights);
}

void PosePreview::setInPlace(bool inPlace) {
  if (inPlace == m_inPlace) return;
  m_inPlace = inPlace;
  update();
}

void PosePreview::updateTrajectory() {
  m_trajectory.clear();
  const auto info = m_playingView ? m_playingView->rootMotion() : std::nullopt;
  if (!info) return;
  // Four points a frame over one cycle: the reference position moved by the motion so far.
  const runtime::ClipView& view = *m_playingView;
  const float end = (view.loops() ? view.cycleFrames() : float(view.frameCount() - 1)) / view.sampleRate();
  const int steps = std::max(1, int(std::ceil(end * view.sampleRate() * 4)));
  const core::Vec3 start{info->reference[0], info->reference[1], info->reference[2]};
  for (int k = 0; k <= steps; ++k) {
    const runtime::Transform m = runtime::rootMotion(view, 0.f, end * float(k) / float(steps));
    m_trajectory.push_back(runtime::rotate(m.rotation, start) + m.translation);
  }
}

void PosePreview::setAdditiveWeight(float weight) {
  weight = std::clamp(weight, 0.f, 1.f);
  if (weight == m_additiveWeight) return;
  m_additiveWeight = weight;
  update();
}

bool PosePreview::basePose(double seconds, bool decoded, std::vector<core::Transform>& out) {
  const auto& asset = *m_document->asset();
  out.resize(asset.skeleton.jointCount());
  if (decoded) {
    // The base the deltas were taken from, as it decodes (the result carries it).
    if (!m_playing || !m_playing->base) return false;
    m_playing->base->sample(float(seconds), out);
    return true;
  }
  const int clip = m_document->currentClip();
  const core::AdditiveLink link = m_document->additiveLink(clip);
  if (link.ref.kind == core::AdditiveRef::Kind::Rest) {
    std::copy(asset.skeleton.restLocal.begin(), asset.skeleton.restLocal.end(), out.begin());
    return true;
  }
  const int base = m_document->additiveBaseClip(clip);
  if (base < 0) return false;
  const core::RawClip& raw = m_document->rawClip(base);
  const double last = raw.frameCount > 1 ? double(raw.frameCount - 1) / raw.sampleRate : 0.0;
  core::RawSampler::sample(
      raw, link.ref.frame >= 0 ? double(link.ref.frame) / raw.sampleRate : std::clamp(seconds, 0.0, last), out);
  return true;
}

void PosePreview::sampleBlend(double seconds) {
  const auto& asset = *m_document->asset();
  const int clips = m_document->clipCount();
  if (!m_blend.enabled || m_blend.clipA < 0 || m_blend.clipB < 0 || m_blend.clipA >= clips || m_blend.clipB >= clips)
    return;
  const std::size_t n = asset.skeleton.jointCount();
  m_blendA.resize(n);
  m_blendB.resize(n);
  m_naive.resize(n);
  m_decomposed.resize(n);
  core::RawSampler::sample(m_document->rawClip(m_blend.clipA), seconds, m_blendA, true);
  core::RawSampler::sample(m_document->rawClip(m_blend.clipB), seconds, m_blendB, true);
  const float w = m_blend.weightAt(seconds);
  const auto& rest = asset.skeleton.restLocal;
  runtime::blendPoses(m_blendA, m_blendB, w, runtime::BlendMode::Naive, rest, m_naive);
  runtime::blendPoses(m_blendA, m_blendB, w, runtime::BlendMode::Decomposed, rest, m_decomposed);
}

}  // namespace animpack::widgets
