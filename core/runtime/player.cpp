#include "core/runtime/player.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/runtime/bits.h"
#include "core/runtime/track_math.h"

namespace animpack::runtime {
namespace {

void setChannel(Transform& t, Channel channel, const float v[4]) {
  switch (channel) {
    case Channel::Rotation: t.rotation = {v[0], v[1], v[2], v[3]}; break;
    case Channel::Translation: t.translation = {v[0], v[1], v[2]}; break;
    case Channel::Scale: t.scale = {v[0], v[1], v[2]}; break;
  }
}

struct SegmentCursor {
  const std::uint8_t* data = nullptr;
  std::uint64_t bitBase = 0;
  std::uint32_t local = 0;
  std::uint32_t frames = 0;
};

SegmentCursor segmentCursor(const ClipView& clip, std::uint32_t frame) {
  const std::uint32_t k = std::min(frame / clip.segmentLength(), clip.segmentCount() - 1);
  SegmentCursor c;
  c.data = clip.segmentData(k);
  c.bitBase = std::uint64_t(clip.uniformTracks().size()) * kSegmentHeaderBytesPerTrack * 8;
  c.local = frame - k * clip.segmentLength();
  c.frames = clip.segmentFrames(k);
  return c;
}

/// Decodes every uniform track at a fractional frame: the Catmull-Rom curve through the segment
/// boundaries at `frame`, plus the residuals of the two neighbouring frames blended linearly.
void decodeUniform(const ClipView& clip, float frame, std::span<Transform> out) {
  const auto tracks = clip.uniformTracks();
  if (tracks.empty()) return;
  const std::uint32_t last = clip.frameCount() - 1;
  std::uint32_t f0 = static_cast<std::uint32_t>(frame);
  float alpha = frame - static_cast<float>(f0);
  if (f0 >= last) {
    f0 = last;
    alpha = 0.f;
  }
  const std::uint32_t segments = clip.segmentCount();
  const std::uint32_t k = std::min(f0 / clip.segmentLength(), segments - 1);
  // Boundary rows k-1..k+2; a missing neighbour repeats the endpoint (one-sided tangent).
  const std::uint32_t row[4] = {k == 0 ? k : k - 1, k, k + 1, k + 2 <= segments ? k + 2 : k + 1};
  const float time[4] = {float(clip.boundaryFrame(row[0])), float(clip.boundaryFrame(row[1])),
                         float(clip.boundaryFrame(row[2])), float(clip.boundaryFrame(row[3]))};
  float w[4];
  catmullRomWeights(time[0], time[1], time[2], time[3], static_cast<float>(f0) + alpha, w);

  SegmentCursor s0 = segmentCursor(clip, f0);
  const bool second = alpha > 0.f;
  SegmentCursor s1 = second ? segmentCursor(clip, f0 + 1) : s0;
  const bool sameSegment = s1.data == s0.data;
  const std::uint8_t* boundary = clip.boundaryBits();
  const std::uint64_t rowBits = clip.boundaryRowBits();

  for (std::size_t t = 0; t < tracks.size(); ++t) {
    const UniformTrackInfo& info = tracks[t];
    const unsigned components = info.components;
    const std::uint8_t* h0 = s0.data + 3 * t;
    const std::uint32_t hdr0 = h0[0] | (std::uint32_t(h0[1]) << 8) | (std::uint32_t(h0[2]) << 16);
    const unsigned b0[4] = {hdr0 & 31u, (hdr0 >> 5) & 31u, (hdr0 >> 10) & 31u, (hdr0 >> 19) & 31u};
    const unsigned sum0 = b0[0] + b0[1] + b0[2] + b0[3];
    const float scale0 = residualScale((hdr0 >> 15) & 15u);
    std::uint64_t pos0 = s0.bitBase + std::uint64_t(s0.local) * sum0;
    s0.bitBase += std::uint64_t(s0.frames) * sum0;

    unsigned b1[4] = {b0[0], b0[1], b0[2], b0[3]};
    float scale1 = scale0;
    std::uint64_t pos1 = pos0 + sum0;
    if (second && !sameSegment) {
      const std::uint8_t* h1 = s1.data + 3 * t;
      const std::uint32_t hdr1 = h1[0] | (std::uint32_t(h1[1]) << 8) | (std::uint32_t(h1[2]) << 16);
      b1[0] = hdr1 & 31u;
      b1[1] = (hdr1 >> 5) & 31u;
      b1[2] = (hdr1 >> 10) & 31u;
      b1[3] = (hdr1 >> 19) & 31u;
      const unsigned sum1 = b1[0] + b1[1] + b1[2] + b1[3];
      scale1 = residualScale((hdr1 >> 15) & 15u);
      pos1 = s1.bitBase + std::uint64_t(s1.local) * sum1;
      s1.bitBase += std::uint64_t(s1.frames) * sum1;
    }

    float v[4] = {0.f, 0.f, 0.f, 0.f};
    std::uint64_t boundaryPos = info.boundaryBitOffset;
    for (unsigned c = 0; c < components; ++c) {
      const unsigned width = info.width[c];
      std::uint32_t q[4];
      for (int i = 0; i < 4; ++i) q[i] = readBits(boundary, row[i] * rowBits + boundaryPos, width);
      const float spline = uniformSpline(w, q, info.minValue[c], info.step);
      float residual = static_cast<float>(readSignedBits(s0.data, pos0, b0[c])) * scale0;
      pos0 += b0[c];
      if (second) {
        const float r1 = static_cast<float>(readSignedBits(s1.data, pos1, b1[c])) * scale1;
        pos1 += b1[c];
        residual = residual + (r1 - residual) * alpha;
      }
      v[c] = uniformValue(spline, residual, info.step);
      boundaryPos += width;
    }
    if (info.channel == Channel::Rotation) {
      const Quat q = components == 4 ? normalized({v[0], v[1], v[2], v[3]}) : uniformRotation(v, info.hasReference, info.reference);
      v[0] = q.x;
      v[1] = q.y;
      v[2] = q.z;
      v[3] = q.w;
    }
    setChannel(out[info.joint], info.channel, v);
  }
}

}  // namespace

void Player::sample(const ClipView& clip, float seconds, std::span<Transform> out) {
  float frame = seconds * clip.sampleRate();
  const float last = static_cast<float>(clip.frameCount() - 1);
  if (clip.loops() && last > 0.f) {
    frame = std::fmod(frame, last);
    if (frame < 0.f) frame += last;
  }
  sampleFrame(clip, frame, out);
}

void Player::sampleFrame(const ClipView& clip, float frame, std::span<Transform> out) {
  decode(m_primary, clip, frame, out);
}

void Player::blend(const ClipView& clipA, float secondsA, const ClipView& clipB, float secondsB, float weight,
                   BlendMode mode, std::span<Transform> out) {
  sample(clipA, secondsA, out);
  m_scratch.resize(out.size());
  // The second clip keeps its own cursor so that both stay on the fast forward path.
  std::swap(m_primary, m_secondary);
  sample(clipB, secondsB, m_scratch);
  std::swap(m_primary, m_secondary);
  blendPoses(out, m_scratch, weight, mode, clipA.restPose(), out);
}

std::size_t Player::contextBytes() const {
  return (m_primary.windows.capacity() + m_secondary.windows.capacity()) * sizeof(Window) +
         m_scratch.capacity() * sizeof(Transform) + sizeof(*this);
}

void Player::restart(Cursor& cursor, const ClipView& clip, float frame) {
  const auto snapshots = clip.snapshots();
  // The last snapshot at or before the frame.
  const auto it = std::upper_bound(snapshots.begin(), snapshots.end(), frame,
                                   [](float f, const Snapshot& s) { return f < static_cast<float>(s.frame); });
  const Snapshot& snap = it == snapshots.begin() ? snapshots.front() : *(it - 1);
  for (Window& w : cursor.windows) w.count = 0;
  cursor.next = snap.replayStart;
  consume(cursor, clip, snap.replayEnd, frame, false);
  ++m_seeks;
}

void Player::consume(Cursor& cursor, const ClipView& clip, std::uint32_t end, float frame, bool conditional) {
  const std::uint8_t* keys = clip.keys();
  const auto tracks = clip.keyedTracks();
  while (cursor.next < end) {
    const std::uint8_t* key = keys + std::size_t(cursor.next) * kKeySize;
    const std::uint16_t jc = loadLE<std::uint16_t>(key + 2);
    const std::uint32_t joint = jc & 0x3fffu;
    const Channel channel = static_cast<Channel>(jc >> 14);
    const std::int32_t slot = clip.keyedSlot(joint * 3 + std::uint32_t(channel));
    Window& w = cursor.windows[static_cast<std::size_t>(slot)];
    if (conditional) {
      // Key i is first needed at the time of key i-2 of its track (DESIGN §2.D).
      const float need = w.count >= 2 ? w.time[w.count - 2] : 0.f;
      if (need > frame) break;
    }
    if (w.count == 4) {
      std::memmove(&w.time[0], &w.time[1], 3 * sizeof(float));
      std::memmove(&w.value[0], &w.value[1], 3 * sizeof(w.value[0]));
      w.count = 3;
    }
    float* v = w.value[w.count];
    w.time[w.count] = static_cast<float>(loadLE<std::uint16_t>(key));
    if (channel == Channel::Rotation) {
      Quat q = decodeRotationKey(key);
      if (w.count > 0) {
        const float* p = w.value[w.count - 1];
        if (q.x * p[0] + q.y * p[1] + q.z * p[2] + q.w * p[3] < 0.f) q = negated(q);
      }
      v[0] = q.x;
      v[1] = q.y;
      v[2] = q.z;
      v[3] = q.w;
    } else {
      const Vec3 p = decodeVectorKey(key, tracks[static_cast<std::size_t>(slot)]);
      v[0] = p.x;
      v[1] = p.y;
      v[2] = p.z;
      v[3] = 0.f;
    }
    ++w.count;
    ++cursor.next;
    ++m_keysDecoded;
  }
}

bool Player::evaluate(const Window& w, Channel channel, float frame, float lastFrame, Transform& out) {
  if (w.count == 0) return false;
  int a = static_cast<int>(w.count) - 1;
  while (a > 0 && w.time[a] > frame) --a;
  if (w.time[a] > frame) return false;           // the window starts after the frame
  if (a == 0 && w.time[0] != 0.f) return false;  // key a-1 was dropped: the window is stale
  float v[4];
  if (a == static_cast<int>(w.count) - 1) {
    if (w.time[a] != lastFrame) return false;  // keys still to come: not consumed far enough
    std::memcpy(v, w.value[a], sizeof(v));
  } else {
    const int i0 = a > 0 ? a - 1 : a;
    const int i3 = a + 2 < static_cast<int>(w.count) ? a + 2 : a + 1;
    keyedSpline(w.time, w.value, i0, a, a + 1, i3, frame, v);
  }
  if (channel == Channel::Rotation) {
    const Quat q = canonicalSign(normalized({v[0], v[1], v[2], v[3]}));
    out.rotation = q;
  } else {
    setChannel(out, channel, v);
  }
  return true;
}

void Player::decode(Cursor& cursor, const ClipView& clip, float frame, std::span<Transform> out) {
  const float last = static_cast<float>(clip.frameCount() - 1);
  if (!(frame >= 0.f)) frame = 0.f;  // also catches NaN
  if (frame > last) frame = last;

  std::memcpy(out.data(), clip.basePose().data(), clip.basePose().size() * sizeof(Transform));
  decodeUniform(clip, frame, out);

  const auto tracks = clip.keyedTracks();
  if (tracks.empty()) return;
  if (cursor.clip != &clip || cursor.windows.size() != tracks.size()) {
    cursor.clip = &clip;
    cursor.windows.assign(tracks.size(), Window{});
    cursor.frame = -1.f;
    restart(cursor, clip, frame);
  } else if (frame > cursor.frame) {
    // Far ahead: restarting at a later snapshot is cheaper than scanning everything in between.
    const auto snapshots = clip.snapshots();
    const auto it = std::upper_bound(snapshots.begin(), snapshots.end(), frame,
                                     [](float f, const Snapshot& s) { return f < static_cast<float>(s.frame); });
    if (it != snapshots.begin() && (it - 1)->replayStart > cursor.next) restart(cursor, clip, frame);
  }
  consume(cursor, clip, clip.keyCount(), frame, true);
  cursor.frame = frame;

  for (std::size_t t = 0; t < tracks.size(); ++t) {
    if (!evaluate(cursor.windows[t], tracks[t].channel, frame, last, out[tracks[t].joint])) {
      // Stepped back past a window: rebuild every window from the snapshot, then evaluate again.
      restart(cursor, clip, frame);
      consume(cursor, clip, clip.keyCount(), frame, true);
      for (std::size_t u = 0; u < tracks.size(); ++u)
        evaluate(cursor.windows[u], tracks[u].channel, frame, last, out[tracks[u].joint]);
      return;
    }
  }
}

}  // namespace animpack::runtime
