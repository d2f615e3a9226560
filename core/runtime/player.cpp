#include "core/runtime/player.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/runtime/bits.h"
#include "core/runtime/loop.h"
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

}  // namespace

/// Reads a uniform segment's per-track headers: residual widths, step scale and where each track's
/// residual block starts (tracks are stored one after another).
static void readSegmentHeaders(const ClipView& clip, std::uint32_t k, std::span<Player::SegmentTrack> out);

/// Caches segment k's four boundary rows (k-1 .. k+2) as floats and its residual headers.
void Player::loadSegment(Cursor& cursor, const ClipView& clip, std::uint32_t k) {
  const auto tracks = clip.uniformTracks();
  const std::uint32_t segments = clip.segmentCount();
  // Boundary rows k-1..k+2 (a missing neighbour repeats the endpoint: one-sided tangent).
  const std::uint32_t row[4] = {k == 0 ? k : k - 1, k, k + 1, k + 2 <= segments ? k + 2 : k + 1};
  const std::uint8_t* bits = clip.boundaryBits();
  const std::uint64_t rowBits = clip.boundaryRowBits();
  cursor.boundaries.resize(tracks.size() * 16);
  for (int i = 0; i < 4; ++i) {
    cursor.rowFrames[i] = static_cast<float>(clip.boundaryFrame(row[i]));
    if (i > 0 && row[i] == row[i - 1]) {  // a repeated endpoint
      for (std::size_t t = 0; t < tracks.size(); ++t)
        for (unsigned c = 0; c < 4; ++c) cursor.boundaries[t * 16 + std::size_t(i) * 4 + c] = cursor.boundaries[t * 16 + std::size_t(i - 1) * 4 + c];
      continue;
    }
    BitStream stream(bits, row[i] * rowBits);
    for (std::size_t t = 0; t < tracks.size(); ++t) {
      const UniformTrackInfo& info = tracks[t];
      float* q = cursor.boundaries.data() + t * 16 + std::size_t(i) * 4;
      const unsigned total = info.width[0] + info.width[1] + info.width[2] + info.width[3];
      if (total <= 56) {
        // One read for the whole track, split into its components.
        std::uint64_t v = stream.readWide(total);
        for (unsigned c = 0; c < info.components; ++c) {
          // Through uint32: converting a uint64 to float takes a slow path on x86-64.
          q[c] = static_cast<float>(static_cast<std::uint32_t>(info.width[c] ? v & ((std::uint64_t(1) << info.width[c]) - 1u) : 0u));
          v >>= info.width[c];
        }
      } else {
        for (unsigned c = 0; c < info.components; ++c) q[c] = static_cast<float>(stream.read(info.width[c]));
      }
    }
  }
  cursor.segmentTracks.resize(tracks.size());
  readSegmentHeaders(clip, k, cursor.segmentTracks);
  cursor.segment = k;
}

void Player::decodeUniform(Cursor& cursor, const ClipView& clip, float frame, std::span<Transform> out) {
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
  const std::uint32_t length = clip.segmentLength();
  const std::uint32_t k = std::min(f0 / length, segments - 1);
  if (cursor.segment != k) loadSegment(cursor, clip, k);
  // Between frames the value is the interpolation of the decoded values at the two neighbouring
  // frames (FORMAT.md "Between frames"); the curve is evaluated at both, never in between.
  const bool second = alpha > 0.f;
  float w0[4], w1[4];
  catmullRomWeights(cursor.rowFrames[0], cursor.rowFrames[1], cursor.rowFrames[2], cursor.rowFrames[3],
                    static_cast<float>(f0), w0);
  if (second)
    catmullRomWeights(cursor.rowFrames[0], cursor.rowFrames[1], cursor.rowFrames[2], cursor.rowFrames[3],
                      static_cast<float>(f0 + 1), w1);

  // The frame after f0 may be the first of the next segment, whose residual headers it needs.
  const std::uint32_t k1 = second ? std::min((f0 + 1) / length, segments - 1) : k;
  m_nextSegment.resize(tracks.size());
  if (k1 != k) readSegmentHeaders(clip, k1, m_nextSegment);
  const std::uint8_t* data0 = clip.segmentData(k);
  const std::uint8_t* data1 = clip.segmentData(k1);
  const std::uint32_t local0 = f0 - k * length;
  const std::uint32_t local1 = f0 + 1 - k1 * length;

  for (std::size_t t = 0; t < tracks.size(); ++t) {
    const UniformTrackInfo& info = tracks[t];
    const SegmentTrack& s0 = cursor.segmentTracks[t];
    const SegmentTrack& s1 = k1 == k ? s0 : m_nextSegment[t];
    std::uint64_t pos0 = s0.base + std::uint64_t(local0) * s0.sum;
    std::uint64_t pos1 = s1.base + std::uint64_t(local1) * s1.sum;
    const float* q = cursor.boundaries.data() + t * 16;
    float v0[4] = {0.f, 0.f, 0.f, 0.f}, v1[4] = {0.f, 0.f, 0.f, 0.f};
    for (unsigned c = 0; c < info.components; ++c) {
      const float spline0 = info.minValue[c] + (w0[0] * q[c] + w0[1] * q[4 + c] + w0[2] * q[8 + c] + w0[3] * q[12 + c]) * info.step;
      v0[c] = uniformValue(spline0, static_cast<float>(readSignedBits(data0, pos0, s0.bits[c])) * s0.scale, info.step);
      pos0 += s0.bits[c];
      if (second) {
        const float spline1 = info.minValue[c] + (w1[0] * q[c] + w1[1] * q[4 + c] + w1[2] * q[8 + c] + w1[3] * q[12 + c]) * info.step;
        v1[c] = uniformValue(spline1, static_cast<float>(readSignedBits(data1, pos1, s1.bits[c])) * s1.scale, info.step);
        pos1 += s1.bits[c];
      }
    }
    if (info.channel == Channel::Rotation) {
      auto rotation = [&](const float* v) {
        return info.components == 4 ? normalized({v[0], v[1], v[2], v[3]}) : uniformRotation(v, info.hasReference, info.reference);
      };
      const Quat r0 = rotation(v0);
      out[info.joint].rotation = second ? canonicalSign(slerp(r0, rotation(v1), alpha)) : r0;
    } else {
      if (second)
        for (unsigned c = 0; c < 3; ++c) v0[c] += (v1[c] - v0[c]) * alpha;
      setChannel(out[info.joint], info.channel, v0);
    }
  }
}

void Player::decodeRaw(const ClipView& clip, float frame, std::span<Transform> out) {
  const std::uint32_t last = clip.frameCount() - 1;
  std::uint32_t f0 = static_cast<std::uint32_t>(frame);
  float alpha = frame - static_cast<float>(f0);
  if (f0 >= last) {
    f0 = last;
    alpha = 0.f;
  }
  for (const RawTrackInfo& info : clip.rawTracks()) {
    const unsigned components = info.channel == Channel::Rotation ? 4 : 3;
    const std::uint8_t* p0 = info.samples + std::size_t(f0) * components * 4;
    float v0[4], v1[4];
    for (unsigned c = 0; c < components; ++c) v0[c] = loadLE<float>(p0 + 4 * c);
    if (alpha > 0.f)
      for (unsigned c = 0; c < components; ++c) v1[c] = loadLE<float>(p0 + components * 4 + 4 * c);
    if (info.channel == Channel::Rotation) {
      const Quat q0{v0[0], v0[1], v0[2], v0[3]};
      out[info.joint].rotation = alpha > 0.f ? canonicalSign(slerp(q0, {v1[0], v1[1], v1[2], v1[3]}, alpha)) : q0;
    } else {
      if (alpha > 0.f)
        for (unsigned c = 0; c < 3; ++c) v0[c] += (v1[c] - v0[c]) * alpha;
      setChannel(out[info.joint], info.channel, v0);
    }
  }
}

static void readSegmentHeaders(const ClipView& clip, std::uint32_t k, std::span<Player::SegmentTrack> out) {
  const std::uint8_t* data = clip.segmentData(k);
  const std::uint32_t frames = clip.segmentFrames(k);
  std::uint64_t base = std::uint64_t(out.size()) * kSegmentHeaderBytesPerTrack * 8;
  for (std::size_t t = 0; t < out.size(); ++t) {
    const std::uint8_t* h = data + 3 * t;
    const std::uint32_t hdr = h[0] | (std::uint32_t(h[1]) << 8) | (std::uint32_t(h[2]) << 16);
    Player::SegmentTrack& s = out[t];
    s.bits[0] = hdr & 31u;
    s.bits[1] = (hdr >> 5) & 31u;
    s.bits[2] = (hdr >> 10) & 31u;
    s.bits[3] = (hdr >> 19) & 31u;
    s.sum = static_cast<std::uint8_t>(s.bits[0] + s.bits[1] + s.bits[2] + s.bits[3]);
    s.scale = residualScale((hdr >> 15) & 15u);
    s.base = static_cast<std::uint32_t>(base);
    base += std::uint64_t(frames) * s.sum;
  }
}

void Player::sample(const ClipView& clip, float seconds, std::span<Transform> out) {
  float frame = seconds * clip.sampleRate();
  const float cycle = clip.cycleFrames();
  if (clip.loops() && cycle > 0.f) {
    frame = std::fmod(frame, cycle);
    if (frame < 0.f) frame += cycle;
  }
  sampleFrame(clip, frame, out);
}

void Player::sampleFrame(const ClipView& clip, float frame, std::span<Transform> out) {
  const float last = static_cast<float>(clip.frameCount() - 1);
  if (clip.wraps() && frame > last) {
    // The wrap interval: the last frame interpolated to the first, as between any two frames.
    if (frame >= last + 1.f) {
      decode(m_primary, clip, 0.f, out);
      return;
    }
    m_wrapScratch.resize(out.size());
    decode(m_primary, clip, 0.f, m_wrapScratch);
    decode(m_primary, clip, last, out);
    interpolatePoses(out, m_wrapScratch, frame - last, out);
    return;
  }
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
  std::size_t bytes = sizeof(*this) + (m_scratch.capacity() + m_wrapScratch.capacity()) * sizeof(Transform) + m_nextSegment.capacity() * sizeof(SegmentTrack);
  for (const Cursor* c : {&m_primary, &m_secondary})
    bytes += c->windows.capacity() * sizeof(Window) + c->boundaries.capacity() * sizeof(float) +
             c->segmentTracks.capacity() * sizeof(SegmentTrack);
  return bytes;
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
      // Key i is first needed at the time of key i-2 of its track (FORMAT.md "Sort order").
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
  float v0[4], v1[4];
  const float f0 = std::floor(frame);
  const float alpha = frame - f0;
  if (a == static_cast<int>(w.count) - 1) {
    if (w.time[a] != lastFrame) return false;  // keys still to come: not consumed far enough
    std::memcpy(v0, w.value[a], sizeof(v0));
    std::memcpy(v1, w.value[a], sizeof(v1));
  } else {
    // Both neighbouring frames lie in this key segment: keys sit on frames.
    const int i0 = a > 0 ? a - 1 : a;
    const int i3 = a + 2 < static_cast<int>(w.count) ? a + 2 : a + 1;
    keyedSpline(w.time, w.value, i0, a, a + 1, i3, f0, v0);
    if (alpha > 0.f) keyedSpline(w.time, w.value, i0, a, a + 1, i3, f0 + 1.f, v1);
  }
  if (channel == Channel::Rotation) {
    const Quat q0 = normalized({v0[0], v0[1], v0[2], v0[3]});
    out.rotation = canonicalSign(alpha > 0.f ? slerp(q0, normalized({v1[0], v1[1], v1[2], v1[3]}), alpha) : q0);
  } else {
    if (alpha > 0.f)
      for (int c = 0; c < 3; ++c) v0[c] += (v1[c] - v0[c]) * alpha;
    setChannel(out, channel, v0);
  }
  return true;
}

void Player::decode(Cursor& cursor, const ClipView& clip, float frame, std::span<Transform> out) {
  const float last = static_cast<float>(clip.frameCount() - 1);
  if (!(frame >= 0.f)) frame = 0.f;  // also catches NaN
  if (frame > last) frame = last;
  const auto tracks = clip.keyedTracks();
  const bool switched = cursor.clip != clip.id();
  if (switched) {
    cursor.clip = clip.id();
    cursor.segment = ~0u;
    cursor.windows.assign(tracks.size(), Window{});
    cursor.frame = -1.f;
  }

  std::memcpy(out.data(), clip.basePose().data(), clip.basePose().size() * sizeof(Transform));
  decodeUniform(cursor, clip, frame, out);
  decodeRaw(clip, frame, out);

  if (tracks.empty()) return;
  if (switched) {
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
