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

/// A batch's only track between its decoded frames `a` and `b` ([component][lane], lane 0):
/// kernels::Uniform::finish for one lane, whose scalar form costs less than four lanes.
void finishOne(const UniformBatch& batch, const float (*a)[4], const float (*b)[4], bool second, const SlerpTerms& terms, Transform* pose) {
  auto* out = reinterpret_cast<unsigned char*>(pose) + batch.outOffset[0];
  if (batch.shape == UniformBatch::Shape::Vector) {
    float v[3] = {a[0][0], a[1][0], a[2][0]};
    if (second)
      for (unsigned c = 0; c < 3; ++c) v[c] += (b[c][0] - v[c]) * terms.t;
    std::memcpy(out, v, sizeof(v));
  } else {
    Quat q{a[0][0], a[1][0], a[2][0], a[3][0]};
    if (second) q = canonicalSign(slerp(q, {b[0][0], b[1][0], b[2][0], b[3][0]}, terms));
    std::memcpy(out, &q, sizeof(q));
  }
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

/// A track's 3-byte segment header, read as one 4-byte word: the byte after the last header is the
/// segment's residuals, the next segment's first or the clip's trailing padding (kBitPadding).
std::uint32_t segmentHeader(const std::uint8_t* data, std::size_t track) {
  return loadLE<std::uint32_t>(data + kSegmentHeaderBytesPerTrack * track) & 0xffffffu;
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
}

/// Every uniform and keyed track at `at`: the values at its two frames from the cursor's last two
/// decoded frames, decoding only the frames it does not hold, then interpolated four tracks a time.
template <class Lanes>
void Player::decodeTracks(Cursor& cursor, const ClipView& clip, float frame, FrameSplit at, const SlerpTerms& terms, Transform* out) {
  const auto batches = clip.uniformBatches();
  const auto keyed = clip.keyedBatches();
  // Between frames the value is the interpolation of the decoded values at the two neighbouring
  // frames (FORMAT.md "Between frames"); the curve is evaluated at both, never in between. The
  // cursor keeps the last two decoded frames: playback between frames decodes each frame once.
  const bool second = at.alpha > 0.f;
  auto slotOf = [&](std::uint32_t f) { return cursor.valueFrame[0] == f ? 0 : cursor.valueFrame[1] == f ? 1 : -1; };
  int s0 = slotOf(at.frame);
  int s1 = second ? slotOf(at.frame + 1) : s0;
  const bool new0 = s0 < 0, new1 = second && s1 < 0;
  if (new0) s0 = second && s1 == 0 ? 1 : 0;  // keep the other frame of the pair
  if (!second) s1 = s0;
  else if (new1) s1 = 1 - s0;
  if (!batches.empty()) {
    const std::uint32_t length = clip.segmentLength(), lastSegment = clip.segmentCount() - 1;
    if (new0 && new1 && std::min(at.frame / length, lastSegment) == std::min((at.frame + 1) / length, lastSegment)) {
      // Both frames new and in one segment (a seek, or playback stepping a frame or more a pose):
      // then s0 = 0 and s1 = 1, given as constants.
      decodeUniformFrames<Lanes, 2>(cursor, clip, at.frame, {0u, 1u});
    } else {
      if (new0) decodeUniformFrames<Lanes, 1>(cursor, clip, at.frame, {unsigned(s0)});
      if (new1) decodeUniformFrames<Lanes, 1>(cursor, clip, at.frame + 1, {unsigned(s1)});
    }
  }
  if (!keyed.empty() && (new0 || new1)) decodeKeyedFrames(cursor, clip, frame, at, new0 ? s0 : -1, new1 ? s1 : -1);
  if (new0) cursor.valueFrame[s0] = at.frame;
  if (new1) cursor.valueFrame[s1] = at.frame + 1;

  using Kernel = kernels::Uniform<Lanes>;
  const auto series = Kernel::slerpSeries(terms);
  // With paired lanes (AVX2) two rotation batches next to each other are interpolated at once.
  typename kernels::PairSeriesOf<Lanes>::type pairSeries{};
  if constexpr (kernels::HasPair<Lanes>)
    if (second) pairSeries = kernels::Uniform<typename Lanes::Pair>::slerpSeries(terms);
  // The uniform batches, then the keyed ones (whose one-track batches take the scalar finish).
  auto finishAll = [&](std::span<const UniformBatch> list, const BatchValues* values, bool scalarSingles) {
    auto single = [&](std::size_t b) { return scalarSingles && list[b].lanes == 1; };
    auto rotation = [&](std::size_t b) { return list[b].shape != UniformBatch::Shape::Vector && !single(b); };
    for (std::size_t b = 0; b < list.size(); ++b) {
      const float(*a)[4] = values[b].value[s0];
      const float(*z)[4] = values[b].value[s1];
      if (single(b)) {
        finishOne(list[b], a, z, second, terms, out);
        continue;
      }
      if constexpr (kernels::HasPair<Lanes>) {
        if (second && b + 1 < list.size() && rotation(b) && rotation(b + 1)) {
          Kernel::finishRotations(list[b], a, z, list[b + 1], values[b + 1].value[s0], values[b + 1].value[s1], pairSeries, out);
          ++b;
          continue;
        }
      }
      withShape(list[b].shape, [&]<UniformBatch::Shape S>() { Kernel::template finish<S>(list[b], a, z, second, series, out); });
    }
  };
  finishAll(batches, cursor.values.data(), false);
  finishAll(keyed, cursor.values.data() + batches.size(), true);
}

#if defined(ANIMPACK_HAVE_AVX2)
/// decodeTracks for CPUs with AVX2: it and everything it calls are inlined into this one function
/// compiled for AVX2 and BMI2 (decode() checks the CPU). Without FMA the compiler cannot fuse a
/// multiply and an add, so every operation rounds as on SSE2: the poses are bit-identical.
[[gnu::target("avx2,bmi2"), gnu::flatten]] void Player::decodeTracksAvx2(Cursor& cursor, const ClipView& clip, float frame, FrameSplit at,
                                                                                const SlerpTerms& terms, Transform* out) {
  decodeTracks<Avx2Lanes>(cursor, clip, frame, at, terms, out);
}
#endif

#if defined(ANIMPACK_HAVE_SSE2)
/// decodeTracks with SSE2 lanes, everything it calls inlined into it as in the AVX2 copy.
[[gnu::flatten]] void Player::decodeTracksSse2(Cursor& cursor, const ClipView& clip, float frame, FrameSplit at, const SlerpTerms& terms,
                                               Transform* out) {
  decodeTracks<Sse2Lanes>(cursor, clip, frame, at, terms, out);
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

void Player::sample(const ClipView& clip, float seconds, std::span<Transform> out) { sampleOn(m_primary, clip, seconds, out); }

void Player::sampleFrame(const ClipView& clip, float frame, std::span<Transform> out) { sampleFrameOn(m_primary, clip, frame, out); }

void Player::sampleOn(Cursor& cursor, const ClipView& clip, float seconds, std::span<Transform> out) {
  float frame = seconds * clip.sampleRate();
  const float cycle = clip.cycleFrames();
  if (clip.loops() && cycle > 0.f) {
    frame = std::fmod(frame, cycle);
    if (frame < 0.f) frame += cycle;
  }
  sampleFrameOn(cursor, clip, frame, out);
}

void Player::sampleFrameOn(Cursor& cursor, const ClipView& clip, float frame, std::span<Transform> out) {
  const float last = static_cast<float>(clip.frameCount() - 1);
  if (clip.wraps() && frame > last) {
    // The wrap interval: the last frame interpolated to the first, as between any two frames.
    if (frame >= last + 1.f) {
      decode(cursor, clip, 0.f, out);
      return;
    }
    m_wrapScratch.resize(out.size());
    decode(cursor, clip, 0.f, m_wrapScratch);
    decode(cursor, clip, last, out);
    interpolatePoses(out, m_wrapScratch, frame - last, out);
    return;
  }
  decode(cursor, clip, frame, out);
}

void Player::blend(const ClipView& clipA, float secondsA, const ClipView& clipB, float secondsB, float weight,
                   BlendMode mode, std::span<Transform> out) {
  sampleOn(m_primary, clipA, secondsA, out);
  m_scratch.resize(out.size());
  // The second clip keeps its own cursor so that both stay on the fast forward path.
  sampleOn(m_secondary, clipB, secondsB, m_scratch);
  blendPoses(out, m_scratch, weight, mode, clipA.restPose(), out, m_path);
}

std::size_t Player::contextBytes() const {
  std::size_t bytes = sizeof(*this) + (m_scratch.capacity() + m_wrapScratch.capacity()) * sizeof(Transform) ;
  for (const Cursor* c : {&m_primary, &m_secondary})
    bytes += c->keys.capacity() * sizeof(std::uint32_t) + c->layouts.capacity() * sizeof(BatchLayout) +
             c->values.capacity() * sizeof(BatchValues);
  return bytes;
}

/// The key of a track (`count` keys at `times`, the first at frame 0) at or before `frame`, from
/// the cursor's `key` for it: stepped forward to the next key, or searched for after a jump.
[[gnu::always_inline]] inline std::uint32_t Player::keyAt(std::uint32_t key, const float* times, std::uint32_t count, float frame) {
  if (times[key] <= frame) {
    if (key + 1 >= count || times[key + 1] > frame) return key;
    if (key + 2 >= count || times[key + 2] > frame) return key + 1;
  }
  ++m_seeks;
  const float* after = std::upper_bound(times, times + count, frame);
  return after == times ? 0 : static_cast<std::uint32_t>(after - times - 1);
}

/// A keyed track's values at `frame` (into out[0] when `want[0]`) and frame + 1 (out[1], when
/// `want[1]`), `key` being its key at or before a time in [frame, frame + 1) (keys sit on frames, so
/// both frames lie in the key's span): the Catmull-Rom curve through keys key - 1 .. key + 2 (an end
/// repeats its key), normalised and in the canonical sign for rotations.
[[gnu::always_inline]] inline void Player::keyedValues(const float* times, const KeyValue* values, std::uint32_t count, std::uint32_t key,
                                                       Channel channel, std::uint32_t frame, const bool want[2], float (*out)[4]) {
  const bool lastKey = key + 1 == count;  // the clip's last key, at its last frame
  const std::uint32_t i0 = key > 0 ? key - 1 : key;
  const std::uint32_t i3 = key + 2 < count ? key + 2 : key + 1;
  for (unsigned i = 0; i < 2; ++i) {
    if (!want[i]) continue;
    float* v = out[i];
    if (lastKey) std::memcpy(v, values[key].data(), 4 * sizeof(float));
    else keyedSpline(times, values, int(i0), int(key), int(key + 1), int(i3), static_cast<float>(frame + i), v);
    if (channel == Channel::Rotation) {
      const Quat q = canonicalSign(normalized({v[0], v[1], v[2], v[3]}));
      v[0] = q.x;
      v[1] = q.y;
      v[2] = q.z;
      v[3] = q.w;
    }
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
    cursor.keys.assign(clip.keyedTracks().size(), 0u);
    cursor.layouts.resize(clip.uniformBatches().size());
    cursor.values.assign(clip.uniformBatches().size() + clip.keyedBatches().size(), BatchValues{});
    // Lanes past a partial keyed batch are never written: the identity rotation there keeps their
    // slerp on its polynomial path (their results are not stored).
    BatchValues* keyed = cursor.values.data() + clip.uniformBatches().size();
    for (std::size_t b = 0; b < clip.keyedBatches().size(); ++b)
      if (clip.keyedBatches()[b].shape != UniformBatch::Shape::Vector)
        for (auto& slot : keyed[b].value) std::fill(std::begin(slot[3]), std::end(slot[3]), 1.f);
    cursor.valueFrame[0] = cursor.valueFrame[1] = ~0u;
  }

  std::memcpy(out.data(), clip.basePose().data(), clip.basePose().size() * sizeof(Transform));
  if (!clip.uniformBatches().empty() || !clip.keyedBatches().empty()) {
#if defined(ANIMPACK_HAVE_AVX2)
    if (m_path == DecodePath::Simd && avx2Available()) decodeTracksAvx2(cursor, clip, frame, at, terms, out.data());
    else
#endif
#if defined(ANIMPACK_HAVE_SSE2)
    if (m_path != DecodePath::Scalar) decodeTracksSse2(cursor, clip, frame, at, terms, out.data());
    else
#endif
      decodeTracks<PortableLanes>(cursor, clip, frame, at, terms, out.data());
  }
  decodeRaw(clip, at, terms, out);
}

/// The keyed tracks' values at frame at.frame into value slot `slot0` and at at.frame + 1 into
/// `slot1` (-1: not wanted), from each track's key at `frame`. Out of line: it runs only when a pose
/// needs a frame the cursor does not hold.
[[gnu::noinline]] void Player::decodeKeyedFrames(Cursor& cursor, const ClipView& clip, float frame, FrameSplit at, int slot0, int slot1) {
  const auto tracks = clip.keyedTracks();
  const float* times = clip.keyTimes().data();
  const KeyValue* values = clip.keyValues().data();
  const std::uint32_t* offsets = clip.trackKeyOffsets().data();
  const auto batches = clip.keyedBatches();
  BatchValues* out = cursor.values.data() + clip.uniformBatches().size();
  const int slots[2] = {slot0, slot1};
  const bool want[2] = {slot0 >= 0, slot1 >= 0};
  for (std::size_t b = 0; b < batches.size(); ++b)
    for (unsigned l = 0; l < batches[b].lanes; ++l) {
      const std::uint32_t t = batches[b].track[l];
      const std::uint32_t first = offsets[t], count = offsets[t + 1] - first;
      const std::uint32_t key = cursor.keys[t] = keyAt(cursor.keys[t], times + first, count, frame);
      float v[2][4];
      keyedValues(times + first, values + first, count, key, tracks[t].channel, at.frame, want, v);
      for (unsigned i = 0; i < 2; ++i)
        if (want[i])
          for (unsigned c = 0; c < 4; ++c) out[b].value[slots[i]][c][l] = v[i][c];
    }
}

}  // namespace animpack::runtime
