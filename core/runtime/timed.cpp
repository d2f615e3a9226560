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
  out.keyCount = loadLE<std::uint32_t>(m_param + 4);
  out.keys = m_keys;
  if (out.channel == Channel::Rotation) {
    m_param += kKeyedRotationParamSize;
  } else {
    for (int c = 0; c < 3; ++c) {
      out.minValue[c] = loadLE<float>(m_param + 8 + 4 * c);
      out.extent[c] = loadLE<float>(m_param + 20 + 4 * c);
    }
    m_param += kKeyedVectorParamSize;
  }
  m_keys += std::size_t(out.keyCount) * kTimedKeySize;
  return true;
}

void decodeTimed(const ClipView& clip, double frame, float wrapAlpha, Transform* out) {
  TimedTracks tracks(clip);
  TimedTrack t;
  while (tracks.next(t)) {
    std::uint32_t k = 0;
    float u = 0.f;
    std::uint32_t a = 0, b = 0;
    if (wrapAlpha >= 0.f) {
      a = t.keyCount - 1;
      u = wrapAlpha;
    } else {
      timedSegment([&](std::uint32_t i) { return t.time(i); }, t.keyCount, frame, k, u);
      a = k;
      b = k + 1;
    }
    Transform& o = out[t.joint];
    if (t.channel == Channel::Rotation) {
      o.rotation = timedBetween(decodeRotationKey(t.payload(a)), decodeRotationKey(t.payload(b)), u);
    } else {
      const Vec3 v = timedBetween(decodeVectorKey(t.payload(a), t.minValue, t.extent),
                                  decodeVectorKey(t.payload(b), t.minValue, t.extent), u);
      (t.channel == Channel::Translation ? o.translation : o.scale) = v;
    }
  }
}

}  // namespace animpack::runtime
