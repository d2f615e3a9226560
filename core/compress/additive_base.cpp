#include "core/compress/additive_base.h"

#include <charconv>

#include "core/runtime/additive.h"
#include "core/runtime/curves.h"
#include "core/runtime/pack_format.h"

namespace animpack::core {

std::string AdditiveRef::spelling() const {
  switch (kind) {
    case Kind::None: return {};
    case Kind::Rest: return "rest";
    case Kind::Clip: return frame >= 0 ? clip + "@" + std::to_string(frame) : clip;
  }
  return {};
}

std::pair<std::string, std::int32_t> splitBaseFrame(std::string_view spec) {
  const std::size_t at = spec.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == spec.size()) return {std::string(spec), -1};
  std::int32_t frame = -1;
  const std::string_view digits = spec.substr(at + 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), frame);
  if (ec != std::errc() || end != digits.data() + digits.size() || frame < 0) return {std::string(spec), -1};
  return {std::string(spec.substr(0, at)), frame};
}

AdditiveRef additiveRefFromSpelling(std::string_view spelling) {
  AdditiveRef r;
  if (spelling.empty()) return r;
  if (spelling == "rest") {
    r.kind = AdditiveRef::Kind::Rest;
    return r;
  }
  r.kind = AdditiveRef::Kind::Clip;
  std::tie(r.clip, r.frame) = splitBaseFrame(spelling);
  return r;
}

AdditiveBase AdditiveBase::rest(std::span<const Transform> restPose, std::span<const float> restWeights) {
  AdditiveBase b;
  b.m_rest = std::make_shared<const std::vector<Transform>>(restPose.begin(), restPose.end());
  b.m_restWeights = std::make_shared<const std::vector<float>>(restWeights.begin(), restWeights.end());
  return b;
}

Expected<AdditiveBase> AdditiveBase::clip(std::vector<std::uint8_t> block, std::span<const Transform> restPose,
                                          std::int32_t frame, std::span<const float> restWeights) {
  AdditiveBase b;
  b.m_rest = std::make_shared<const std::vector<Transform>>(restPose.begin(), restPose.end());
  b.m_restWeights = std::make_shared<const std::vector<float>>(restWeights.begin(), restWeights.end());
  b.m_block = std::make_shared<const std::vector<std::uint8_t>>(std::move(block));
  auto view = runtime::ClipView::open(*b.m_block, *b.m_rest, *b.m_restWeights);
  if (!view) return Error{"the base clip does not decode: " + view.message()};
  if (view->additive()) return Error{"the base clip is additive itself"};
  if (frame >= 0 && std::uint32_t(frame) >= view->frameCount())
    return Error{"base frame " + std::to_string(frame) + " is out of range (the base has " +
                 std::to_string(view->frameCount()) + " frames)"};
  b.m_view = std::make_shared<const runtime::ClipView>(std::move(view.value()));
  b.m_frame = frame;
  return b;
}

Expected<AdditiveBase> AdditiveBase::fromPack(const runtime::Pack& pack, const runtime::PackClip& clip) {
  const std::span<const Transform> restPose = pack.skeleton().restPose();
  const std::span<const float> restWeights = pack.skeleton().restWeights();
  if (clip.additiveBase() == runtime::kAdditiveNone || clip.additiveBase() == runtime::kAdditiveRest)
    return rest(restPose, restWeights);
  const runtime::PackClip& base = pack.clips()[clip.additiveBase()];  // the reader checked the index
  const auto bytes = base.view.bytes();
  return AdditiveBase::clip({bytes.begin(), bytes.end()}, restPose, clip.additiveFrame(), restWeights);
}

void AdditiveBase::sample(float seconds, std::span<Transform> out) const {
  if (!m_view) {
    std::copy(m_rest->begin(), m_rest->end(), out.begin());
    return;
  }
  m_player.player.sampleFrame(*m_view, runtime::additiveBaseFrame(*m_view, m_frame, seconds), out);
}

void AdditiveBase::sampleCurves(float seconds, std::span<float> out) const {
  if (!m_view || m_view->curveCount() == 0) {
    std::copy(m_restWeights->begin(), m_restWeights->end(), out.begin());
    return;
  }
  runtime::sampleCurvesAtFrame(*m_view, runtime::additiveBaseFrame(*m_view, m_frame, seconds), out);
}

std::vector<Transform> AdditiveBase::frames(std::uint32_t frames, double rate) const {
  std::vector<Transform> out(std::size_t(frames) * m_rest->size());
  for (std::uint32_t f = 0; f < frames; ++f)
    sample(static_cast<float>(double(f) / rate),
           std::span(out.data() + std::size_t(f) * m_rest->size(), m_rest->size()));
  return out;
}

RawClip additiveDeltas(const RawClip& clip, const AdditiveBase& base) {
  RawClip delta = clip;
  const std::vector<Transform> poses = base.frames(clip.frameCount, clip.sampleRate);
  for (std::uint32_t f = 0; f < clip.frameCount; ++f)
    for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
      const std::size_t i = std::size_t(f) * clip.jointCount + j;
      Transform d = runtime::additiveDelta(poses[i], clip.samples[i]);
      // Sign continuity, as the importer gives the source: interpolation then takes the short way.
      if (f > 0 && runtime::dot(d.rotation, delta.samples[i - clip.jointCount].rotation) < 0.f)
        d.rotation = runtime::negated(d.rotation);
      delta.samples[i] = d;
    }
  return delta;
}

std::vector<Transform> composeAdditive(std::span<const Transform> base, std::span<const Transform> deltas) {
  std::vector<Transform> out(deltas.size());
  runtime::applyAdditive(base, deltas, 1.f, out);
  return out;
}

}  // namespace animpack::core
