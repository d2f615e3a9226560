#include "core/runtime/player.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/runtime/loop.h"
#include "core/runtime/track_math.h"
#include "core/runtime/uniform_kernels.h"

namespace animpack::runtime {
namespace {

void setChannel(Transform& t, Channel channel, const float v[4]) {
  switch (channel) {
    case Channel::Rotation: t.rotation = {v[0], v[1], v[2], v[3]}; break;
    case Channel::Translation: t.translation = {v[0], v[1], v[2]}; break;
    case Channel::Scale: t.scale = {v[0], v[1], v[2]}; break;
  }
}

/// A quaternion stored as x, y, z, w, normalised in place (normalized(): identity when not positive).
void normalizeStored(float v[4]) {
  const Quat q = normalized({v[0], v[1], v[2], v[3]});
  v[0] = q.x;
  v[1] = q.y;
  v[2] = q.z;
  v[3] = q.w;
}

}  // namespace

/// Enters segment k: the frames of its boundary rows k-1 .. k+2 (a missing neighbour repeats the
/// endpoint: a one-sided tangent) and its residual layout. The rows themselves are the clip's.
template <class Lanes>
void Player::loadSegment(Cursor& cursor, const ClipView& clip, std::uint32_t k) {
  const std::uint32_t segments = clip.segmentCount();
  const std::uint32_t row[4] = {k == 0 ? k : k - 1, k, k + 1, k + 2 <= segments ? k + 2 : k + 1};
  for (int i = 0; i < 4; ++i) cursor.rowFrames[i] = static_cast<float>(clip.boundaryFrame(row[i]));
  readLayouts<Lanes>(clip, k, cursor.layouts);
  cursor.segment = k;
}

namespace {

std::uint32_t segmentHeader(const std::uint8_t* data, std::size_t track) {
  const std::uint8_t* h = data + kSegmentHeaderBytesPerTrack * track;
  return h[0] | (std::uint32_t(h[1]) << 8) | (std::uint32_t(h[2]) << 16);
}

}  // namespace

/// Reads segment k's 3-byte residual header of each batch's tracks into the batches' layouts; where
/// each track's residuals start the view derived when it was opened (ClipView::residualBases).
template <class Lanes>
void Player::readLayouts(const ClipView& clip, std::uint32_t k, std::span<BatchLayout> out) {
  const auto batches = clip.uniformBatches();
  const std::uint8_t* data = clip.segmentData(k);
  const std::uint32_t* bases = clip.residualBases(k);
  for (std::size_t b = 0; b < batches.size(); ++b) {
    const std::uint32_t* t = batches[b].track;  // lanes past a partial batch repeat its last track
    const std::uint32_t headers[4] = {segmentHeader(data, t[0]), segmentHeader(data, t[1]), segmentHeader(data, t[2]), segmentHeader(data, t[3])};
    const std::uint32_t base[4] = {bases[t[0]], bases[t[1]], bases[t[2]], bases[t[3]]};
    kernels::Uniform<Lanes>::layout(headers, base, out[b]);
  }
}

/// Dispatches on a batch's shape (batches are sorted by shape, so the branch is predictable).
template <class Body>
static void withShape(UniformBatch::Shape shape, Body&& body) {
  using Shape = UniformBatch::Shape;
  switch (shape) {
    case Shape::Rotation: body.template operator()<Shape::Rotation>(); break;
    case Shape::Rotation4: body.template operator()<Shape::Rotation4>(); break;
    case Shape::Vector: body.template operator()<Shape::Vector>(); break;
  }
}

/// Decodes every uniform track at frames f .. f + Frames - 1 (one segment's) into the cursor's
/// frame slots, reading each batch's layout and boundary rows once for all of them. A frame is
/// evaluated with its own segment's rows; at a segment's first frame the curve of the segment
/// before ends on the same boundary value (its weights there are 0, 0, 1, 0), so the value does not
/// depend on which.
template <class Lanes, unsigned Frames>
void Player::decodeUniformFrames(Cursor& cursor, const ClipView& clip, std::uint32_t f, const unsigned (&slots)[Frames]) {
  using F = typename Lanes::F;
  const auto batches = clip.uniformBatches();
  const std::uint32_t length = clip.segmentLength();
  const std::uint32_t k = std::min(f / length, clip.segmentCount() - 1);
  if (cursor.segment != k) loadSegment<Lanes>(cursor, clip, k);
  const float* rf = cursor.rowFrames;
  F weights[Frames][4];
  for (unsigned i = 0; i < Frames; ++i) {
    float w[4];
    catmullRomWeights(rf[0], rf[1], rf[2], rf[3], static_cast<float>(f + i), w);
    for (unsigned j = 0; j < 4; ++j) weights[i][j] = Lanes::set(w[j]);
  }
  const std::uint8_t* data = clip.segmentData(k);
  const std::uint32_t local = f - k * length;
  const float* rows = clip.boundaryRows(k);
  const std::uint32_t stride = clip.rowFloats();
  for (std::size_t b = 0; b < batches.size(); ++b) {
    float (*out[Frames])[4];
    for (unsigned i = 0; i < Frames; ++i) out[i] = cursor.values[b].value[slots[i]];
    withShape(batches[b].shape, [&]<UniformBatch::Shape S>() {
      kernels::Uniform<Lanes>::template evaluate<S, Frames>(batches[b], rows + batches[b].rowOffset, stride, cursor.layouts[b], data, local,
                                                            weights, out);
    });
  }
  for (unsigned i = 0; i < Frames; ++i) cursor.valueFrame[slots[i]] = f + i;
}

template <class Lanes>
void Player::decodeUniform(Cursor& cursor, const ClipView& clip, FrameSplit at, const SlerpTerms& terms, Transform* out) {
  const auto batches = clip.uniformBatches();
  // Between frames the value is the interpolation of the decoded values at the two neighbouring
  // frames (FORMAT.md "Between frames"); the curve is evaluated at both, never in between. The
  // cursor keeps the last two decoded frames: playback between frames decodes each frame once.
  const bool second = at.alpha > 0.f;
  auto slotOf = [&](std::uint32_t f) { return cursor.valueFrame[0] == f ? 0 : cursor.valueFrame[1] == f ? 1 : -1; };
  int s0 = slotOf(at.frame);
  int s1 = second ? slotOf(at.frame + 1) : s0;
  const std::uint32_t length = clip.segmentLength(), lastSegment = clip.segmentCount() - 1;
  if (second && s0 < 0 && s1 < 0 && std::min(at.frame / length, lastSegment) == std::min((at.frame + 1) / length, lastSegment)) {
    // Both frames new and in one segment (a seek, or playback stepping a frame or more a pose).
    s0 = 0;
    s1 = 1;
    decodeUniformFrames<Lanes, 2>(cursor, clip, at.frame, {0u, 1u});
  } else {
    if (s0 < 0) {
      s0 = second && s1 == 0 ? 1 : 0;  // keep the other frame of the pair
      decodeUniformFrames<Lanes, 1>(cursor, clip, at.frame, {unsigned(s0)});
    }
    if (!second) {
      s1 = s0;
    } else if (s1 < 0) {
      s1 = 1 - s0;
      decodeUniformFrames<Lanes, 1>(cursor, clip, at.frame + 1, {unsigned(s1)});
    }
  }
  const auto series = kernels::Uniform<Lanes>::slerpSeries(terms);
  for (std::size_t b = 0; b < batches.size(); ++b)
    withShape(batches[b].shape, [&]<UniformBatch::Shape S>() {
      kernels::Uniform<Lanes>::template finish<S>(batches[b], cursor.values[b].value[s0], cursor.values[b].value[s1], second, series, out);
    });
}

#if defined(ANIMPACK_HAVE_AVX2)
/// decodeUniform for CPUs with AVX2: it and everything it calls are inlined into this one function
/// compiled for AVX2 and BMI2 (decode() checks the CPU). Without FMA the compiler cannot fuse a
/// multiply and an add, so every operation rounds as on SSE2: the poses are bit-identical.
[[gnu::target("avx2,bmi2"), gnu::flatten]] void Player::decodeUniformAvx2(Cursor& cursor, const ClipView& clip, FrameSplit at, const SlerpTerms& terms,
                                                                                 Transform* out) {
  decodeUniform<Avx2Lanes>(cursor, clip, at, terms, out);
}
#endif

void Player::decodeRaw(const ClipView& clip, FrameSplit at, const SlerpTerms& terms, std::span<Transform> out) {
  const bool second = at.alpha > 0.f;
  for (const RawTrackInfo& info : clip.rawTracks()) {
    const unsigned components = info.channel == Channel::Rotation ? 4 : 3;
    const std::uint8_t* p0 = info.samples + std::size_t(at.frame) * components * 4;
    float v0[4], v1[4];
    for (unsigned c = 0; c < components; ++c) v0[c] = loadLE<float>(p0 + 4 * c);
    if (second)
      for (unsigned c = 0; c < components; ++c) v1[c] = loadLE<float>(p0 + components * 4 + 4 * c);
    if (info.channel == Channel::Rotation) {
      const Quat q0{v0[0], v0[1], v0[2], v0[3]};
      out[info.joint].rotation = second ? canonicalSign(slerp(q0, {v1[0], v1[1], v1[2], v1[3]}, terms)) : q0;
    } else {
      if (second)
        for (unsigned c = 0; c < 3; ++c) v0[c] += (v1[c] - v0[c]) * at.alpha;
      setChannel(out[info.joint], info.channel, v0);
    }
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
  blendPoses(out, m_scratch, weight, mode, clipA.restPose(), out, m_path);
}

std::size_t Player::contextBytes() const {
  std::size_t bytes = sizeof(*this) + (m_scratch.capacity() + m_wrapScratch.capacity()) * sizeof(Transform) ;
  for (const Cursor* c : {&m_primary, &m_secondary})
    bytes += c->windows.capacity() * sizeof(Window) + c->layouts.capacity() * sizeof(BatchLayout) +
             c->values.capacity() * sizeof(BatchValues);
  return bytes;
}

void Player::restart(Cursor& cursor, const ClipView& clip, float frame) {
  const auto snapshots = clip.snapshots();
  // The last snapshot at or before the frame.
  const auto it = std::upper_bound(snapshots.begin(), snapshots.end(), frame,
                                   [](float f, const Snapshot& s) { return f < static_cast<float>(s.frame); });
  const Snapshot& snap = it == snapshots.begin() ? snapshots.front() : *(it - 1);
  for (Window& w : cursor.windows) {
    w.count = 0;
    w.curveTag[0] = w.curveTag[1] = ~0u;
  }
  cursor.next = snap.replayStart;
  consume(cursor, clip, snap.replayEnd, frame, false);
  ++m_seeks;
}

void Player::consume(Cursor& cursor, const ClipView& clip, std::uint32_t end, float frame, bool conditional) {
  const DecodedKey* keys = clip.decodedKeys().data();
  const auto tracks = clip.keyedTracks();
  while (cursor.next < end) {
    const DecodedKey& key = keys[cursor.next];
    Window& w = cursor.windows[key.slot];
    if (conditional) {
      // Key i is first needed at the time of key i-2 of its track (FORMAT.md "Sort order").
      const float need = w.count >= 2 ? w.time[w.count - 2] : 0.f;
      if (need > frame) break;
    }
    w.curveTag[0] = w.curveTag[1] = ~0u;
    if (w.count == 4) {
      std::memmove(&w.time[0], &w.time[1], 3 * sizeof(float));
      std::memmove(&w.value[0], &w.value[1], 3 * sizeof(w.value[0]));
      w.count = 3;
    }
    float* v = w.value[w.count];
    w.time[w.count] = key.time;
    std::memcpy(v, key.value, sizeof(key.value));
    if (tracks[key.slot].channel == Channel::Rotation && w.count > 0) {
      // The shorter way from the previous key: the key negated where the two point apart.
      const float* p = w.value[w.count - 1];
      if (v[0] * p[0] + v[1] * p[1] + v[2] * p[2] + v[3] * p[3] < 0.f)
        for (int c = 0; c < 4; ++c) v[c] = -v[c];
    }
    ++w.count;
    ++cursor.next;
    ++m_keysDecoded;
  }
}

/// The curve of key segment (key, key + 1) at `frame` and, with `next`, at frame + 1, normalised for
/// rotations, in w.curve[frame & 1] and the other slot. Each frame is evaluated once per window
/// state: playing forward, the poses between two frames reuse both.
[[gnu::always_inline]] inline void Player::curves(Window& w, Channel channel, int key, std::uint32_t frame, bool next) {
  const std::uint32_t tag = frame * 4u + static_cast<std::uint32_t>(key);
  const unsigned s0 = frame & 1u, s1 = s0 ^ 1u;
  const bool miss0 = w.curveTag[s0] != tag, miss1 = next && w.curveTag[s1] != tag + 4u;
  if (!miss0 && !miss1) return;
  const int i0 = key > 0 ? key - 1 : key;
  const int i3 = key + 2 < static_cast<int>(w.count) ? key + 2 : key + 1;
  // Evaluated in locals and then stored: written straight into the window, each store could alias
  // the keys read.
  const auto fill = [&](float u, unsigned slot) {
    float v[4];
    keyedSpline(w.time, w.value, i0, key, key + 1, i3, u, v);
    if (channel == Channel::Rotation) normalizeStored(v);
    std::memcpy(w.curve[slot], v, sizeof(v));
  };
  const float f0 = static_cast<float>(frame);
  if (miss0) fill(f0, s0);
  if (miss1) fill(f0 + 1.f, s1);
  w.curveTag[s0] = tag;
  if (next) w.curveTag[s1] = tag + 4u;
}

/// The window's key at or before `frame` whose segment holds it (the last key when it is the clip's
/// last frame), or -1 when the window cannot give the frame and must be rebuilt from a snapshot.
[[gnu::always_inline]] inline int Player::locate(const Window& w, float frame, float lastFrame) {
  if (w.count == 0) return -1;
  int a = static_cast<int>(w.count) - 1;
  while (a > 0 && w.time[a] > frame) --a;
  if (w.time[a] > frame) return -1;                       // the window starts after the frame
  if (a == 0 && w.time[0] != 0.f) return -1;              // key a-1 was dropped: the window is stale
  if (a == static_cast<int>(w.count) - 1 && w.time[a] != lastFrame) return -1;  // keys still to come
  return a;
}

/// The track's value at `at` from its window, `a` being locate()'s key.
void Player::evaluate(Window& w, int a, Channel channel, FrameSplit at, const SlerpTerms& terms, Transform& out) {
  const float alpha = at.alpha;
  float lastKey[4];
  const float* v0 = lastKey;
  const float* v1 = lastKey;
  if (a == static_cast<int>(w.count) - 1) {  // the clip's last key, at its last frame
    std::memcpy(lastKey, w.value[a], sizeof(lastKey));
    if (channel == Channel::Rotation) normalizeStored(lastKey);
  } else {
    // Both neighbouring frames lie in this key segment: keys sit on frames.
    curves(w, channel, a, at.frame, alpha > 0.f);
    v0 = w.curve[at.frame & 1u];
    v1 = w.curve[(at.frame & 1u) ^ 1u];
  }
  if (channel == Channel::Rotation) {
    const Quat q0{v0[0], v0[1], v0[2], v0[3]};
    out.rotation = canonicalSign(alpha > 0.f ? slerp(q0, {v1[0], v1[1], v1[2], v1[3]}, terms) : q0);
  } else {
    float v[4];
    std::memcpy(v, v0, sizeof(v));
    if (alpha > 0.f)
      for (int c = 0; c < 3; ++c) v[c] += (v1[c] - v[c]) * alpha;
    setChannel(out, channel, v);
  }
}

void Player::decode(Cursor& cursor, const ClipView& clip, float frame, std::span<Transform> out) {
  const std::uint32_t lastFrame = clip.frameCount() - 1;
  const float last = static_cast<float>(lastFrame);
  if (!(frame >= 0.f)) frame = 0.f;  // also catches NaN
  if (frame > last) frame = last;
  // The one split of the time into a frame and the fraction towards the next, for every track kind.
  FrameSplit at{static_cast<std::uint32_t>(frame), 0.f};
  at.alpha = frame - static_cast<float>(at.frame);
  if (at.frame >= lastFrame) at = {lastFrame, 0.f};
  // The fraction's slerp series, shared by every rotation of the pose between two frames.
  const SlerpTerms terms = SlerpTerms::of(at.alpha);

  if (cursor.clip != clip.id()) {
    cursor.clip = clip.id();
    cursor.segment = ~0u;
    cursor.windows.assign(clip.keyedTracks().size(), Window{});
    cursor.layouts.resize(clip.uniformBatches().size());
    cursor.values.resize(clip.uniformBatches().size());
    cursor.valueFrame[0] = cursor.valueFrame[1] = ~0u;
    cursor.frame = -1.f;
    cursor.next = ~0u;  // restart the key scan
  }

  std::memcpy(out.data(), clip.basePose().data(), clip.basePose().size() * sizeof(Transform));
  if (!clip.uniformBatches().empty()) {
#if defined(ANIMPACK_HAVE_AVX2)
    if (m_path == DecodePath::Simd && avx2Available()) decodeUniformAvx2(cursor, clip, at, terms, out.data());
    else
#endif
#if defined(ANIMPACK_HAVE_SSE2)
    if (m_path != DecodePath::Scalar) decodeUniform<Sse2Lanes>(cursor, clip, at, terms, out.data());
    else
#endif
      decodeUniform<PortableLanes>(cursor, clip, at, terms, out.data());
  }
  decodeRaw(clip, at, terms, out);
  if (!clip.keyedTracks().empty()) decodeKeyed(cursor, clip, frame, at, terms, out);
}

void Player::decodeKeyed(Cursor& cursor, const ClipView& clip, float frame, FrameSplit at, const SlerpTerms& terms,
                         std::span<Transform> out) {
  const auto tracks = clip.keyedTracks();
  const float last = static_cast<float>(clip.frameCount() - 1);
  if (cursor.next == ~0u) {
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
    const int a = locate(cursor.windows[t], frame, last);
    if (a < 0) {
      // Stepped back past a window: rebuild every window from the snapshot, then evaluate again.
      restart(cursor, clip, frame);
      consume(cursor, clip, clip.keyCount(), frame, true);
      for (std::size_t u = 0; u < tracks.size(); ++u) {
        const int b = locate(cursor.windows[u], frame, last);
        if (b >= 0) evaluate(cursor.windows[u], b, tracks[u].channel, at, terms, out[tracks[u].joint]);
      }
      return;
    }
    evaluate(cursor.windows[t], a, tracks[t].channel, at, terms, out[tracks[t].joint]);
  }
}

}  // namespace animpack::runtime
