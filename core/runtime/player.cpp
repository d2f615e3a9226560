#include "core/runtime/player.h"

#include "core/runtime/timed.h"

#include "core/runtime/curves.h"

#include <algorithm>
#include <utility>
#include <cassert>
#include <array>
#include <cmath>
#include <cstring>

#include "core/runtime/curves.h"
#include "core/runtime/loop.h"
#include "core/runtime/quantize.h"
#include "core/runtime/track_math.h"
#include "core/runtime/keyed_kernels.h"
#include "core/runtime/uniform_kernels.h"

namespace animpack::runtime {
namespace {

/// The two frames a pose is made of: `first`, and when `second` the frame it is interpolated
/// towards (the next one, or frame 0 in a wrapping clip's wrap interval) by `alpha`.
struct PoseFrames {
  std::uint32_t first = 0;
  std::uint32_t next = 0;
  float alpha = 0.f;
  bool second = false;
  bool wrap = false;      // the wrap interval: last frame to frame 0
  float keySearch = 0.f;  // the time keyed tracks find their key at (FORMAT.md "Keyed tracks")
};

PoseFrames splitFrame(const ClipView& clip, float frame) {
  const std::uint32_t lastFrame = clip.frameCount() - 1;
  const float last = static_cast<float>(lastFrame);
  PoseFrames p;
  if (clip.wraps() && frame > last && frame < last + 1.f) {
    // The wrap interval: the last frame interpolated to the first, as between any two frames.
    p = {lastFrame, 0, frame - last, true, true, last};
    return p;
  }
  if (clip.wraps() && frame >= last + 1.f) frame = 0.f;
  if (!(frame >= 0.f)) frame = 0.f;  // also catches NaN
  // The one split of the time into a frame and the fraction towards the next, for every track kind
  // (at or past the last frame without converting it: float(last) may not fit the frame type).
  if (frame >= last) {
    p.first = lastFrame;
    p.alpha = 0.f;
    frame = last;
  } else {
    p.first = static_cast<std::uint32_t>(frame);
    p.alpha = frame - static_cast<float>(p.first);
    if (p.first >= lastFrame) {
      p.first = lastFrame;
      p.alpha = 0.f;
    }
  }
  p.next = p.first + 1;
  p.second = p.alpha > 0.f;
  p.keySearch = frame;
  return p;
}

/// Whether a byte of track kinds (two sub-tracks, FORMAT.md "Sub-tracks and kinds") holds a constant.
constexpr bool holdsConstant(unsigned byte) {
  const unsigned low = byte & 15u, high = byte >> 4;
  return (low >= 1 && low <= 3) || (high >= 1 && high <= 3);
}
constexpr auto kHoldsConstant = [] {
  std::array<bool, 256> t{};
  for (unsigned b = 0; b < 256; ++b) t[b] = holdsConstant(b);
  return t;
}();

/// Decodes constant sub-track i (its stored bytes at p) into `out`; returns the bytes it took.
std::uint32_t applyConstant(std::uint32_t i, unsigned kind, const std::uint8_t* p, Transform* out) {
  Transform& t = out[i / 3];
  if (i % 3 == 0) {
    if (kind == unsigned(TrackKind::Constant)) {
      const std::uint16_t q[3] = {loadLE<std::uint16_t>(p), loadLE<std::uint16_t>(p + 2), loadLE<std::uint16_t>(p + 4)};
      t.rotation = unpackQuat48(q);
      return 6;
    }
    if (kind == unsigned(TrackKind::ConstantQ32)) {
      t.rotation = unpackQuat32(loadLE<std::uint32_t>(p));
      return 4;
    }
    t.rotation = normalized({loadLE<float>(p), loadLE<float>(p + 4), loadLE<float>(p + 8), loadLE<float>(p + 12)});
    return 16;
  }
  (i % 3 == 1 ? t.translation : t.scale) = {loadLE<float>(p), loadLE<float>(p + 4), loadLE<float>(p + 8)};
  return 12;
}

/// The rest pose (the identity for an additive clip) with every constant track applied.
/// The first `joints` joints' only (a level of detail).
void basePose(const ClipView& clip, std::uint32_t joints, Transform* out) {
  if (clip.additive()) std::fill(out, out + joints, Transform{});
  else if (joints > 0)  // a clip of morph curves alone has no joint (and no rest pose to copy)
    std::memcpy(static_cast<void*>(out), clip.restPose().data(), std::size_t(joints) * sizeof(Transform));
  std::uint32_t left = clip.constantCount();
  if (left == 0) return;
  const std::uint8_t* kinds = clip.bytes().data() + kClipHeaderSize;
  const std::uint8_t* p = clip.constants();
  // Two sub-tracks a byte, from the first holding a constant; bytes without one are skipped at once.
  for (std::uint32_t byte = clip.firstConstantByte(); left > 0; ++byte) {
    if (!kHoldsConstant[kinds[byte]]) continue;
    for (std::uint32_t i = byte * 2; i < byte * 2 + 2; ++i) {
      const unsigned kind = (kinds[byte] >> ((i & 1) * 4)) & 15u;
      if (kind == unsigned(TrackKind::Default) || kind > unsigned(TrackKind::ConstantFloat)) continue;
      if (i >= 3 * joints) return;  // constants are stored in sub-track order
      p += applyConstant(i, kind, p, out);
      --left;
    }
  }
}

/// Where frame f of a clip with uniform tracks is read (kernels::FrameSource).
kernels::FrameSource frameSource(const ClipView& clip, std::uint32_t f) {
  const std::uint32_t segments = clip.segmentCount();
  const std::uint32_t k = std::min(f / clip.segmentLength(), segments - 1);
  kernels::FrameSource s;
  s.segment = clip.segmentData(k);
  s.local = f - k * clip.segmentLength();
  s.segmentFrames = clip.segmentFrames(k);
  // Rows k-1 .. k+2; a missing neighbour repeats the endpoint (a one-sided tangent).
  const std::uint32_t row[4] = {k == 0 ? k : k - 1, k, k + 1, k + 2 <= segments ? k + 2 : k + 1};
  for (int i = 0; i < 4; ++i) s.rowStart[i] = row[i] * clip.boundaryRowBits();
  catmullRomWeights(float(clip.boundaryFrame(row[0])), float(clip.boundaryFrame(row[1])),
                    float(clip.boundaryFrame(row[2])), float(clip.boundaryFrame(row[3])), static_cast<float>(f),
                    s.weights);
  return s;
}

/// Which frames of a pose a cursor's cache holds (slot 0 or 1, -1: none) and which it must decode.
struct CacheUse {
  BatchValues* values = nullptr;  // per batch, uniform then keyed; null: no cache
  int slot[2] = {0, 1};           // the cache slot of the pose's first and second frame
  bool decode[2] = {true, true};  // whether that frame is decoded (not held)
  std::uint32_t joints = ~0u;     // the leading joints decoded (a level of detail; all by default)
};

/// The first of a group's tracks [first, end) (records of `recordSize` bytes from the one of track
/// `first`) whose joint is at least `joints`: tracks are stored in sub-track order, so those of the
/// leading joints come first.
std::uint32_t tracksBelow(const std::uint8_t* records, std::uint32_t recordSize, std::uint32_t first, std::uint32_t end,
                          std::uint32_t joints) {
  std::uint32_t lo = first, hi = end;
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (loadLE<std::uint16_t>(records + std::size_t(mid - first) * recordSize) < joints) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// Bits of one frame of uniform track t's residuals in a segment (its 3-byte header's widths).
std::uint32_t residualBitsPerFrame(const std::uint8_t* segment, std::uint32_t t) {
  const std::uint8_t* h = segment + kSegmentHeaderBytesPerTrack * std::size_t(t);
  const std::uint32_t word = h[0] | (std::uint32_t(h[1]) << 8) | (std::uint32_t(h[2]) << 16);
  return (word & 31u) + ((word >> 5) & 31u) + ((word >> 10) & 31u) + ((word >> 19) & 31u);
}

/// Every uniform track of the pose, batch after batch: the values at its frames read from the
/// clip's bytes (or the cursor's cache), interpolated between them four tracks at a time.
template <class Lanes>
void decodeUniform(const ClipView& clip, const PoseFrames& at, const CacheUse& cache,
                   const typename kernels::Uniform<Lanes>::SlerpSeries& series, Transform* out) {
  using K = kernels::Uniform<Lanes>;
  using F = typename Lanes::F;
  const bool needA = cache.decode[0], needB = at.second && cache.decode[1];
  // Where the frames it decodes are read (a frame the cache holds needs none).
  const kernels::FrameSource a = needA ? frameSource(clip, at.first) : kernels::FrameSource{};
  const kernels::FrameSource b = needB ? frameSource(clip, at.next) : a;
  const bool same = a.segment == b.segment;
  const std::uint8_t* bits = clip.boundaryBits();
  const std::uint32_t headerBits = clip.uniformCount() * kSegmentHeaderBytesPerTrack * 8;
  std::uint32_t rowOffset = 0, baseA = headerBits, baseB = headerBits;
  BatchValues* values = cache.values;
  auto group = [&]<UniformGroup G>() {
    const std::uint32_t start = clip.uniformGroupStart(unsigned(G)), all = clip.uniformGroupStart(unsigned(G) + 1);
    const std::uint8_t* records = clip.uniformGroupParams(unsigned(G));
    // A level of detail decodes the group's tracks of the leading joints, and steps over the rest.
    const std::uint32_t end =
        cache.joints < clip.jointCount() ? tracksBelow(records, uniformParamSize(G), start, all, cache.joints) : all;
    BatchValues* const groupValues = values;
    constexpr unsigned kComponents = G == UniformGroup::Vector ? 3 : 4;
    for (std::uint32_t t = start; t < end; t += 4) {
      F v[2][4];
      for (auto& frame : v)
        for (F& c : frame) c = Lanes::set(0.f);
      const unsigned lanes = std::min<std::uint32_t>(4, end - t);
      std::uint32_t offsets[4];
      if (needA || needB) {
        typename K::Batch batch;
        K::template gather<G>(records, start, t, std::min<std::uint32_t>(4, end - t), rowOffset, batch);
        rowOffset += batch.rowBits;
        BatchLayout la{}, lb{};
        if (needA) baseA += K::layout(batch, a.segment, a.segmentFrames, baseA, la);
        if (needB && (!needA || !same)) baseB += K::layout(batch, b.segment, b.segmentFrames, baseB, lb);
        if (needA) K::template evaluate<G>(batch, bits, a, la, b, same ? la : lb, needB, same, v);
        else K::template evaluate<G>(batch, bits, b, lb, b, lb, false, true, v + 1);
        std::memcpy(offsets, batch.outOffset, sizeof(offsets));
      } else {
        const std::uint8_t* r = records + std::size_t(t - start) * uniformParamSize(G);
        for (unsigned l = 0; l < lanes; ++l, r += uniformParamSize(G))
          offsets[l] = kernels::poseOffset(loadLE<std::uint16_t>(r), r[2]);
      }
      if (values) {
        // Decoded frames go to their slots; held ones come from them.
        for (int f = 0; f < 2; ++f) {
          float(*slot)[4] = values->value[cache.slot[f]];
          if (f == 0 ? needA : needB)
            for (unsigned c = 0; c < kComponents; ++c) Lanes::store(slot[c], v[f][c]);
          else if (f == 0 || at.second)
            for (unsigned c = 0; c < kComponents; ++c) v[f][c] = Lanes::load(slot[c]);
        }
        ++values;
      }
      K::template finish<G == UniformGroup::Vector>(offsets, lanes, v[0], v[1], at.second, series, out);
    }
    if (end == all) return;
    if (groupValues) values = groupValues + (all - start + 3) / 4;  // the cache keeps every batch's place
    if (!(needA || needB) || G == UniformGroup::Vector) return;
    // The tracks stepped over: their share of a boundary row and of the segments' residuals.
    const std::uint8_t* r = records + std::size_t(end - start) * uniformParamSize(G);
    for (std::uint32_t t = end; t < all; ++t, r += uniformParamSize(G)) {
      rowOffset += std::uint32_t(r[20]) + r[21] + r[22] + r[23];
      if (needA) baseA += a.segmentFrames * residualBitsPerFrame(a.segment, t);
      if (needB && (!needA || !same)) baseB += b.segmentFrames * residualBitsPerFrame(b.segment, t);
    }
  };
  group.template operator()<UniformGroup::Rotation>();
  group.template operator()<UniformGroup::RotationReference>();
  group.template operator()<UniformGroup::Rotation4>();
  group.template operator()<UniformGroup::Vector>();
}

/// Every keyed track of the pose: its values at the pose's frames from its keys (or the cursor's
/// cache, after the uniform batches), four tracks a batch (rotations, then vectors; a partial batch
/// repeats its last track), interpolated four at a time.
template <class Lanes>
void decodeKeyed(const ClipView& clip, const PoseFrames& at, const CacheUse& cache, std::size_t firstBatch,
                 const typename kernels::Uniform<Lanes>::SlerpSeries& series, Transform* out) {
  using K = kernels::Uniform<Lanes>;
  using Keyed = kernels::Keyed<Lanes>;
  using F = typename Lanes::F;
  const std::uint8_t* params = clip.keyedParams();
  const std::uint8_t* keys = clip.keys();
  const std::uint32_t count = clip.keyedCount(), rotations = clip.keyedRotationCount();
  const bool need[2] = {cache.decode[0], at.second && cache.decode[1]};
  BatchValues* values = cache.values ? cache.values + firstBatch : nullptr;
  // A level of detail: the rotation and vector tracks of the leading joints (sub-track order).
  const bool lod = cache.joints < clip.jointCount();
  const std::uint32_t rotationEnd =
      lod ? tracksBelow(params, kKeyedRotationParamSize, 0, rotations, cache.joints) : rotations;
  const std::uint8_t* vectorParams = params + std::size_t(rotations) * kKeyedRotationParamSize;
  const std::uint32_t vectorEnd =
      lod ? tracksBelow(vectorParams, kKeyedVectorParamSize, rotations, count, cache.joints) : count;
  auto batch = [&]<bool Rotation>(unsigned lanes) {
    typename Keyed::Lanes t;
    std::uint32_t offsets[4];
    float minimum[3][4] = {}, extent[3][4] = {};
    for (unsigned l = 0; l < 4; ++l) {
      if (l < lanes) {
        offsets[l] = kernels::poseOffset(loadLE<std::uint16_t>(params), params[2]);
        t.keys[l] = keys;
        t.count[l] = loadLE<std::uint32_t>(params + 4);
        if (!Rotation)
          for (int c = 0; c < 3; ++c) {
            minimum[c][l] = loadLE<float>(params + 8 + 4 * c);
            extent[c][l] = loadLE<float>(params + 20 + 4 * c);
          }
        keys += std::size_t(t.count[l]) * kKeySize;
        params += Rotation ? kKeyedRotationParamSize : kKeyedVectorParamSize;
      } else {
        t.keys[l] = t.keys[l - 1];
        t.count[l] = t.count[l - 1];
        for (int c = 0; c < 3; ++c) {
          minimum[c][l] = minimum[c][l - 1];
          extent[c][l] = extent[c][l - 1];
        }
      }
    }
    F v[2][4];
    for (auto& frame : v)
      for (F& c : frame) c = Lanes::set(0.f);
    if (need[0] || need[1]) {
      for (int c = 0; c < 3; ++c) {
        t.minimum[c] = Lanes::load(minimum[c]);
        t.extent[c] = Lanes::load(extent[c]);
      }
      const std::uint32_t frames[2] = {at.first, at.next};
      for (int f = 0; f < 2; ++f) {
        if (!need[f]) continue;
        // Both frames lie in the span of the key at or before the pose's time; in the wrap interval
        // the last frame is the last key and frame 0 the first.
        for (unsigned l = 0; l < 4; ++l)
          t.key[l] = at.wrap ? (f == 0 ? t.count[l] - 1 : 0)
                             : (f == 0 || !need[0] ? Keyed::keyAt(t.keys[l], t.count[l], at.keySearch) : t.key[l]);
        Keyed::template evaluate<Rotation>(t, Lanes::set(static_cast<float>(frames[f])), v[f]);
      }
    }
    if (values) {
      for (int f = 0; f < 2; ++f) {
        float(*slot)[4] = values->value[cache.slot[f]];
        if (need[f])
          for (unsigned c = 0; c < 4; ++c) Lanes::store(slot[c], v[f][c]);
        else if (f == 0 || at.second)
          for (unsigned c = 0; c < 4; ++c) v[f][c] = Lanes::load(slot[c]);
      }
      ++values;
    }
    K::template finish<!Rotation>(offsets, lanes, v[0], v[1], at.second, series, out);
  };
  for (std::uint32_t t = 0; t < rotationEnd; t += 4)
    batch.template operator()<true>(std::min<std::uint32_t>(4, rotationEnd - t));
  if (rotationEnd < rotations) {
    // Step over the other joints' rotations: their keys, and their batches' places in the cache.
    for (std::uint32_t t = rotationEnd; t < rotations; ++t, params += kKeyedRotationParamSize)
      keys += std::size_t(loadLE<std::uint32_t>(params + 4)) * kKeySize;
    if (values) values = cache.values + firstBatch + (rotations + 3) / 4;
  }
  for (std::uint32_t t = rotations; t < vectorEnd; t += 4)
    batch.template operator()<false>(std::min<std::uint32_t>(4, vectorEnd - t));
}

/// Raw tracks: their float32 samples at the pose's frames, interpolated.
void decodeRaw(const ClipView& clip, const PoseFrames& at, const SlerpTerms& terms, std::uint32_t joints,
               Transform* out) {
  const std::uint8_t* p = clip.rawSamples();
  const std::uint8_t* kinds = clip.bytes().data() + kClipHeaderSize;
  for (std::uint32_t i = 0, seen = 0; i < joints * 3 && seen < clip.rawCount(); ++i) {
    if (((kinds[i / 2] >> ((i & 1) * 4)) & 15u) != unsigned(TrackKind::Raw)) continue;
    ++seen;
    const unsigned components = i % 3 == 0 ? 4 : 3;
    const std::uint8_t* p0 = p + std::size_t(at.first) * components * 4;
    const std::uint8_t* p1 = p + std::size_t(at.next) * components * 4;
    p += std::size_t(clip.frameCount()) * components * 4;
    float v0[4], v1[4];
    for (unsigned c = 0; c < components; ++c) v0[c] = loadLE<float>(p0 + 4 * c);
    if (at.second)
      for (unsigned c = 0; c < components; ++c) v1[c] = loadLE<float>(p1 + 4 * c);
    Transform& t = out[i / 3];
    if (components == 4) {
      const Quat q0{v0[0], v0[1], v0[2], v0[3]};
      t.rotation = at.second ? canonicalSign(slerp(q0, {v1[0], v1[1], v1[2], v1[3]}, terms)) : q0;
    } else {
      if (at.second)
        for (unsigned c = 0; c < 3; ++c) v0[c] += (v1[c] - v0[c]) * at.alpha;
      (i % 3 == 1 ? t.translation : t.scale) = {v0[0], v0[1], v0[2]};
    }
  }
}

/// Uniform batches of a clip (each group in fours).
std::size_t uniformBatches(const ClipView& clip) {
  std::size_t n = 0;
  for (const std::uint32_t count : clip.uniformGroups()) n += (count + 3) / 4;
  return n;
}

/// Keyed batches of a clip (rotations in fours, then vectors).
std::size_t keyedBatches(const ClipView& clip) {
  return (clip.keyedRotationCount() + 3) / 4 + (clip.keyedCount() - clip.keyedRotationCount() + 3) / 4;
}

/// Every uniform and keyed track of the pose with one lane implementation.
template <class Lanes>
void decodeTracks(const ClipView& clip, const PoseFrames& at, const CacheUse& cache, const SlerpTerms& terms,
                  Transform* out) {
  const auto series = kernels::Uniform<Lanes>::slerpSeries(terms);
  if (clip.uniformCount() > 0) decodeUniform<Lanes>(clip, at, cache, series, out);
  if (clip.keyedCount() > 0) decodeKeyed<Lanes>(clip, at, cache, uniformBatches(clip), series, out);
}

#if defined(ANIMPACK_HAVE_AVX2)
/// decodeTracks for CPUs with AVX2: it and everything it calls are inlined into this one function
/// compiled for AVX2 and BMI2 (decode() checks the CPU). Without FMA the compiler cannot fuse a
/// multiply and an add, so every operation rounds as on SSE2: the poses are bit-identical.
[[gnu::target("avx2,bmi2"), gnu::flatten]] void decodeTracksAvx2(const ClipView& clip, const PoseFrames& at,
                                                                 const CacheUse& cache, const SlerpTerms& terms,
                                                                 Transform* out) {
  decodeTracks<Avx2Lanes>(clip, at, cache, terms, out);
}
#endif

#if defined(ANIMPACK_HAVE_SSE2)
/// decodeTracks with SSE2 lanes, everything it calls inlined into it as in the AVX2 copy.
[[gnu::flatten]] void decodeTracksSse2(const ClipView& clip, const PoseFrames& at, const CacheUse& cache,
                                       const SlerpTerms& terms, Transform* out) {
  decodeTracks<Sse2Lanes>(clip, at, cache, terms, out);
}
#endif

/// Bytes of a clip's frame cache (two frames of every uniform and keyed batch).
std::size_t cacheBytes(const ClipView& clip) {
  return (uniformBatches(clip) + keyedBatches(clip)) * sizeof(BatchValues);
}

std::size_t align16(std::size_t n) { return (n + 15) & ~std::size_t(15); }

/// The CurveCache of `clip` at the start of a player's block (holding clip `held`): the keyed
/// curves' segments first (16-byte aligned), then every curve's static value.
CurveCache curveCacheIn(std::byte* data, std::uint32_t held, const ClipView& clip) {
  CurveCache cache;
  cache.clip = held;
  cache.statics = {reinterpret_cast<float*>(data + clip.curveKeyedCount() * sizeof(CurveSegment)), clip.curveCount()};
  cache.segments = {reinterpret_cast<CurveSegment*>(data), clip.curveKeyedCount()};
  if (clip.flags() & kClipFlagSegmentedCurves) {
    // Segmented curves' lines after the statics (16-byte aligned), their header first (the decoder
    // fills it when the cache takes the clip; their count is read back while it holds it).
    std::byte* lines =
        data + align16(clip.curveKeyedCount() * sizeof(CurveSegment) + clip.curveCount() * sizeof(float));
    auto* header = reinterpret_cast<std::uint32_t*>(lines);
    if (held != clip.id()) header[1] = clip.curveSegmentedCount();
    cache.linesHeader = header;
    cache.lines = {reinterpret_cast<SegmentedLine*>(lines + 16), header[1]};
  }
  return cache;
}

}  // namespace

Player::Player(DecodePath path, std::pmr::memory_resource* memory)
    : m_memory(memory ? memory : std::pmr::get_default_resource()), m_path(path) {}

Player::Player(std::span<std::byte> storage, DecodePath path)
    : m_data(storage.data()),
      m_capacity(static_cast<std::uint32_t>(std::min<std::size_t>(storage.size(), 0xffffffffu))),
      m_path(path) {}

Player::~Player() {
  if (m_memory && m_data) m_memory->deallocate(m_data, m_capacity, 16);
}

Player::Player(Player&& other) noexcept
    : m_data(other.m_data),
      m_memory(other.m_memory),
      m_capacity(other.m_capacity),
      m_curveBytes(other.m_curveBytes),
      m_secondOffset(other.m_secondOffset),
      m_framesDecoded(other.m_framesDecoded),
      m_curveClip(other.m_curveClip),
      m_path(other.m_path),
      m_firstJoints(other.m_firstJoints) {
  m_cursor[0] = other.m_cursor[0];
  m_cursor[1] = other.m_cursor[1];
  other.m_data = nullptr;
  other.m_capacity = 0;
  other.m_curveBytes = 0;
  other.m_curveClip = 0;
  other.m_cursor[0] = other.m_cursor[1] = Cursor{};
}

Player& Player::operator=(Player&& other) noexcept {
  if (this == &other) return *this;
  if (m_memory && m_data) m_memory->deallocate(m_data, m_capacity, 16);
  m_data = std::exchange(other.m_data, nullptr);
  m_memory = other.m_memory;
  m_capacity = std::exchange(other.m_capacity, 0u);
  m_curveBytes = std::exchange(other.m_curveBytes, 0u);
  m_curveClip = std::exchange(other.m_curveClip, 0u);
  m_path = other.m_path;
  m_cursor[0] = std::exchange(other.m_cursor[0], Cursor{});
  m_cursor[1] = std::exchange(other.m_cursor[1], Cursor{});
  m_secondOffset = other.m_secondOffset;
  m_firstJoints = other.m_firstJoints;
  m_framesDecoded = other.m_framesDecoded;
  return *this;
}

std::size_t Player::storageBytes(const ClipView& clip) { return align16(cacheBytes(clip)); }

std::size_t Player::blendStorageBytes(const ClipView& a, const ClipView& b) {
  return align16(cacheBytes(a)) + align16(cacheBytes(b)) + align16(std::size_t(a.jointCount()) * sizeof(Transform));
}

/// Makes the frame storage (after the curve cache) hold `bytes` (the caches' contents are dropped
/// when the block grows); false when the storage is the caller's and too small.
bool Player::reserve(std::size_t bytes) {
  if (bytes <= frameCapacity()) return true;
  if (!m_memory || bytes + m_curveBytes > 0xffffffffu) return false;
  if (m_data) m_memory->deallocate(m_data, m_capacity, 16);
  m_capacity = static_cast<std::uint32_t>(bytes + m_curveBytes);
  m_data = static_cast<std::byte*>(m_memory->allocate(m_capacity, 16));
  m_cursor[0] = m_cursor[1] = Cursor{};
  m_curveClip = 0;
  return true;
}

void Player::decode(Cursor* cursor, std::size_t cacheOffset, const ClipView& clip, float frame, std::uint32_t joints,
                    std::span<Transform> out) {
  const PoseFrames at = splitFrame(clip, frame);
  // The fraction's slerp series, shared by every rotation of the pose between two frames.
  const SlerpTerms terms = SlerpTerms::of(at.alpha);
  basePose(clip, joints, out.data());
  if (at.wrap) {
    // In the wrap interval every joint is its pose at the last frame interpolated to its pose at
    // frame 0 (runtime::interpolatePoses), the tracks that do not move included.
    interpolatePoses(out.first(joints), out.first(joints), at.alpha, out.first(joints));
  }
  if (clip.uniformCount() > 0 || clip.keyedCount() > 0) {
    CacheUse cache;
    cache.joints = joints;
    const std::uint32_t frames[2] = {at.first, at.second ? at.next : ~0u};
    if (cursor) {
      // Another clip, its cache elsewhere in the storage, or another level of detail: nothing held.
      // (Cursor 0's cache is always at the start; cursor 1's where the blend put it, all joints.)
      const bool moved = cursor == &m_cursor[1] ? m_secondOffset != cacheOffset : m_firstJoints != joints;
      if (cursor->clip != clip.id() || moved) {
        *cursor = Cursor{clip.id(), {~0u, ~0u}};
        if (cursor == &m_cursor[1]) m_secondOffset = static_cast<std::uint32_t>(cacheOffset);
        else m_firstJoints = static_cast<std::uint16_t>(joints);
      }
      cache.values = reinterpret_cast<BatchValues*>(frameStorage() + cacheOffset);
      // A frame the cursor holds is not decoded; a new one takes the slot the pose's other frame
      // does not use, or (one frame) a free slot, else the one whose frame is farther away.
      auto held = [&](std::uint32_t f) { return cursor->frame[0] == f ? 0 : cursor->frame[1] == f ? 1 : -1; };
      cache.slot[0] = held(frames[0]);
      cache.slot[1] = at.second ? held(frames[1]) : -1;
      cache.decode[0] = cache.slot[0] < 0;
      cache.decode[1] = at.second && cache.slot[1] < 0;
      if (at.second) {
        if (cache.slot[0] < 0) cache.slot[0] = cache.slot[1] == 0 ? 1 : 0;
        if (cache.slot[1] < 0) cache.slot[1] = 1 - cache.slot[0];
      } else if (cache.slot[0] < 0) {
        auto distance = [&](int s) {
          return cursor->frame[s] == ~0u ? ~0u
                                         : std::max(cursor->frame[s], at.first) - std::min(cursor->frame[s], at.first);
        };
        cache.slot[0] = distance(0) >= distance(1) ? 0 : 1;
        cache.slot[1] = 1 - cache.slot[0];
      } else {
        cache.slot[1] = 1 - cache.slot[0];
      }
      cursor->frame[cache.slot[0]] = frames[0];
      if (at.second) cursor->frame[cache.slot[1]] = frames[1];
    }
    m_framesDecoded += (cache.decode[0] ? 1 : 0) + (at.second && cache.decode[1] ? 1 : 0);
#if defined(ANIMPACK_HAVE_AVX2)
    if (m_path == DecodePath::Simd && avx2Available()) decodeTracksAvx2(clip, at, cache, terms, out.data());
    else
#endif
#if defined(ANIMPACK_HAVE_SSE2)
        if (m_path != DecodePath::Scalar)
      decodeTracksSse2(clip, at, cache, terms, out.data());
    else
#endif
      decodeTracks<PortableLanes>(clip, at, cache, terms, out.data());
  }
  if (clip.rawCount() > 0) decodeRaw(clip, at, terms, joints, out.data());
  // Timed tracks (format version 7) at the time itself: their keys need not sit on frames.
  if (clip.timedCount() > 0)
    decodeTimed(clip, double(at.first) + double(at.alpha), at.wrap ? at.alpha : -1.f, joints, out.data());
}

void Player::sampleWith(Cursor* cursor, std::size_t cacheOffset, const ClipView& clip, float seconds,
                        std::uint32_t joints, std::span<Transform> out) {
  float frame = seconds * clip.sampleRate();
  const float cycle = clip.cycleFrames();
  if (clip.loops() && cycle > 0.f) {
    frame = std::fmod(frame, cycle);
    if (frame < 0.f) frame += cycle;
  }
  decode(cursor, cacheOffset, clip, frame, joints, out);
}

void Player::sample(const ClipView& clip, float seconds, std::span<Transform> out) {
  sampleJoints(clip, seconds, clip.jointCount(), out);
}

/// Whether a clip's frame cache fits (the player stays within kStateBytesPerJoint) and is reserved.
bool Player::frameCacheFits(const ClipView& clip) {
  const std::size_t cache = align16(cacheBytes(clip));
  const bool cached = sizeof(*this) + cache <= kStateBytesPerJoint * clip.jointCount() && reserve(cache);
  forgetOverwritten(cached ? cache : 0);
  return cached;
}

void Player::sampleJoints(const ClipView& clip, float seconds, std::uint32_t joints, std::span<Transform> out) {
  assert(joints <= clip.jointCount() && out.size() >= joints);
  sampleWith(frameCacheFits(clip) ? &m_cursor[0] : nullptr, 0, clip, seconds, joints, out);
}

/// The cursors whose caches the bytes [0, used) of the coming call overwrite hold nothing any more
/// (cursor 0 keeps its place at offset 0 when the call uses it).
void Player::forgetOverwritten(std::size_t used) {
  if (m_cursor[1].clip != 0 && m_secondOffset < used) m_cursor[1] = Cursor{};
  if (used == 0) m_cursor[0] = Cursor{};
}

void Player::sample(const ClipView& clip, float seconds, std::span<Transform> out, std::span<float> weights) {
  if (!out.empty()) sample(clip, seconds, out);
  if (m_curveClip == clip.id() && m_curveClip != 0) {
    // The cache holds this clip already (any growth since cleared it).
    if (clip.curveKeyedCount() + clip.curveUniformCount() + clip.curveRawCount() == 0 &&
        !(clip.flags() & kClipFlagSegmentedCurves)) {
      // No curve moves: the weights are the statics at any time.
      std::memcpy(weights.data(), m_data, std::size_t(clip.curveCount()) * sizeof(float));
      return;
    }
    CurveCache cache = curveCacheIn(m_data, m_curveClip, clip);
    return sampleCurves(clip, seconds, weights, &cache);
  }
  // The curve cache sits before the frame storage. It is budgeted per curve, not per joint: a face
  // of a few joints and dozens of curves decodes its weights several times slower without it.
  const std::size_t bytes = align16(curveCacheBytes(clip));
  const std::size_t frames = frameCapacity();
  if (bytes == 0 || !m_memory || bytes + frames > 0xffffffffu) return sampleCurves(clip, seconds, weights);
  if (bytes > m_curveBytes) {
    // A larger curve cache: a new block, the frame storage after it (its caches start over).
    if (m_data) m_memory->deallocate(m_data, m_capacity, 16);
    m_capacity = static_cast<std::uint32_t>(bytes + frames);
    m_data = static_cast<std::byte*>(m_memory->allocate(m_capacity, 16));
    m_curveBytes = static_cast<std::uint32_t>(bytes);
    m_cursor[0] = m_cursor[1] = Cursor{};
    m_curveClip = 0;
  }
  CurveCache cache = curveCacheIn(m_data, m_curveClip, clip);
  sampleCurves(clip, seconds, weights, &cache);
  m_curveClip = cache.clip;
}

void Player::sampleFrame(const ClipView& clip, float frame, std::span<Transform> out) {
  sampleFrameJoints(clip, frame, clip.jointCount(), out);
}

void Player::sampleFrameJoints(const ClipView& clip, float frame, std::uint32_t joints, std::span<Transform> out) {
  assert(joints <= clip.jointCount() && out.size() >= joints);
  decode(frameCacheFits(clip) ? &m_cursor[0] : nullptr, 0, clip, frame, joints, out);
}

void Player::blend(const ClipView& clipA, float secondsA, const ClipView& clipB, float secondsB, float weight,
                   BlendMode mode, std::span<Transform> out) {
  // Storage: clip A's cache, clip B's cache, then the second pose; caches while the whole stays
  // within kBlendStateBytesPerJoint.
  assert(out.size() >= clipA.jointCount() && clipA.jointCount() == clipB.jointCount());
  const std::size_t joints = clipA.jointCount();
  out = out.first(joints);
  const std::size_t budget = kBlendStateBytesPerJoint * joints;
  const std::size_t pose = align16(joints * sizeof(Transform));
  std::size_t cacheA = align16(cacheBytes(clipA)), cacheB = align16(cacheBytes(clipB));
  if (sizeof(*this) + pose + cacheA + cacheB > budget) cacheB = 0;
  if (sizeof(*this) + pose + cacheA + cacheB > budget) cacheA = 0;
  if (!reserve(pose + cacheA + cacheB) && !reserve(pose + cacheA) && !reserve(pose)) {
    assert(!"Player::blend: the caller's storage cannot hold the second pose (Player::blendStorageBytes)");
    sampleWith(nullptr, 0, clipA, secondsA, clipA.jointCount(), out);
    return;
  }
  if (cacheA + cacheB + pose > frameCapacity()) cacheB = 0;
  if (cacheA + cacheB + pose > frameCapacity()) cacheA = 0;
  // A cache this call does not use is overwritten (by the other cache or the second pose).
  if (cacheA == 0) m_cursor[0] = Cursor{};
  if (cacheB == 0) m_cursor[1] = Cursor{};
  const std::span<Transform> second(reinterpret_cast<Transform*>(frameStorage() + cacheA + cacheB), joints);
  sampleWith(cacheA ? &m_cursor[0] : nullptr, 0, clipA, secondsA, clipA.jointCount(), out);
  // The second clip keeps its own cursor, so both stay on their frames.
  sampleWith(cacheB ? &m_cursor[1] : nullptr, cacheA, clipB, secondsB, clipB.jointCount(), second);
  blendPoses(out, second, weight, mode, clipA.restPose(), out, m_path);
}

}  // namespace animpack::runtime
