#include "core/runtime/timed.h"

#include "core/runtime/clip_view.h"

namespace animpack::runtime {

TimedTracks::TimedTracks(const ClipView& clip)
    : m_param(clip.timedCount() ? clip.timedParams() : nullptr),
      m_keys(clip.timedCount() ? clip.timedKeys() : nullptr),
      m_left(clip.timedCount()) {}

bool TimedTracks::next(TimedTrack& out) {
  if (m_left == 0) return false;
  --m_left;
  out.joint = loadLE<std::uint16_t>(m_param);
  out.channel = static_cast<Channel>(m_param[2]);
  out.format = m_param[3];
  out.keyCount = loadLE<std::uint32_t>(m_param + 4);
  out.keys = m_keys;
  if (out.format == kTimedPacked) {
    namespace P = PackedTimedParam;
    out.keyBits = timedPackedKeyBits(m_param);
    out.timeShift = m_param[P::kShift];
    out.timeWidth = m_param[P::kTimeWidth];
    out.components = m_param[P::kComponents];
    for (int c = 0; c < 4; ++c) {
      out.width[c] = m_param[P::kWidths + c];
      out.minValue[c] = loadLE<float>(m_param + P::kMin + 4 * c);
    }
    out.step = loadLE<float>(m_param + P::kStep);
    out.timeSlope = loadLE<std::uint32_t>(m_param + P::kSlope);
    out.timeBase = loadLE<std::int32_t>(m_param + P::kBase);
  } else {
    out.stride = timedKeySize(out.channel, out.format);
    if (timedParamSize(out.channel, out.format) == kKeyedVectorParamSize)
      for (int c = 0; c < 3; ++c) {
        out.minValue[c] = loadLE<float>(m_param + 8 + 4 * c);
        out.extent[c] = loadLE<float>(m_param + 20 + 4 * c);
      }
  }
  m_keys += timedRunBytes(m_param);
  m_param += timedParamSize(out.channel, out.format);
  return true;
}

void TimedTrack::packedComponents(std::uint32_t k, float out[4]) const {
  std::uint64_t bit = std::uint64_t(k) * keyBits + timeWidth;
  for (unsigned c = 0; c < 4; ++c) {
    out[c] = c < components ? packedComponent(minValue[c], readBits(keys, bit, width[c]), step) : 0.f;
    bit += width[c];
  }
}

Quat TimedTrack::rotation(std::uint32_t k) const {
  if (format == kTimedPacked) {
    float c[4];
    packedComponents(k, c);
    return packedRotation(c, components);
  }
  const std::uint8_t* v = value(k);
  if (format == kTimedQuantized) return decodeRotationKey(v);
  return {loadLE<float>(v), loadLE<float>(v + 4), loadLE<float>(v + 8), loadLE<float>(v + 12)};
}

Vec3 TimedTrack::vector(std::uint32_t k) const {
  if (format == kTimedPacked) {
    float c[4];
    packedComponents(k, c);
    return {c[0], c[1], c[2]};
  }
  const std::uint8_t* v = value(k);
  if (format == kTimedQuantized) return decodeVectorKey(v, minValue, extent);
  return {loadLE<float>(v), loadLE<float>(v + 4), loadLE<float>(v + 8)};
}

void decodeTimed(const ClipView& clip, double frame, float wrapAlpha, std::uint32_t joints, Transform* out) {
  TimedTracks tracks(clip);
  TimedTrack t;
  while (tracks.next(t)) {
    if (t.joint >= joints) return;  // sub-track order: the rest are other joints'
    std::uint32_t k = 0;
    float u = 0.f;
    std::uint32_t a = 0, b = 0;
    if (wrapAlpha >= 0.f) {
      a = t.keyCount - 1;
      u = wrapAlpha;
    } else {
      if (t.format == kTimedPacked) packedSegment(t, frame, k, u);
      else timedSegment([&](std::uint32_t i) { return t.time(i); }, t.keyCount, frame, k, u);
      a = k;
      b = k + 1;
    }
    Transform& o = out[t.joint];
    if (t.channel == Channel::Rotation) o.rotation = timedBetween(t.rotation(a), t.rotation(b), u);
    else (t.channel == Channel::Translation ? o.translation : o.scale) = timedBetween(t.vector(a), t.vector(b), u);
  }
}

}  // namespace animpack::runtime
