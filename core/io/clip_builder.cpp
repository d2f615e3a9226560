#include "core/io/clip_builder.h"

#include <algorithm>
#include <cassert>

#include "core/runtime/bits.h"

namespace animpack::runtime {
namespace {

class Bytes {
 public:
  std::vector<std::uint8_t> data;
  std::uint32_t size() const { return static_cast<std::uint32_t>(data.size()); }
  void align4() { data.resize((data.size() + 3u) & ~std::size_t(3)); }
  template <typename T>
  void put(T v) {
    const std::size_t at = data.size();
    data.resize(at + sizeof(T));
    storeLE(data.data() + at, v);
  }
  void append(std::span<const std::uint8_t> more) { data.insert(data.end(), more.begin(), more.end()); }
  void zeros(std::size_t n) { data.resize(data.size() + n, 0); }
};

unsigned componentsOf(const BlockTrack& t) { return (t.uniformFlags & kUniformFlagFourComponents) ? 4 : 3; }

/// Keyed tracks in parameter order: rotations, then vectors, each in sub-track order.
std::vector<std::uint32_t> keyedOrder(std::span<const BlockTrack> tracks) {
  std::vector<std::uint32_t> order;
  for (const bool rotations : {true, false})
    for (std::uint32_t i = 0; i < tracks.size(); ++i)
      if (tracks[i].kind == TrackKind::Keyed && (Channel(i % 3) == Channel::Rotation) == rotations) order.push_back(i);
  return order;
}

/// Uniform tracks in parameter order: by group (UniformGroup), each in sub-track order.
std::vector<std::uint32_t> uniformOrder(std::span<const BlockTrack> tracks) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < tracks.size(); ++i)
    if (tracks[i].kind == TrackKind::Uniform) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return uniformGroup(Channel(a % 3), tracks[a].uniformFlags) < uniformGroup(Channel(b % 3), tracks[b].uniformFlags);
  });
  return order;
}

void writeKinds(Bytes& out, std::span<const BlockTrack> tracks) {
  const std::size_t at = out.data.size();
  out.zeros(kindBytes(static_cast<std::uint32_t>(tracks.size() / 3)));
  for (std::size_t i = 0; i < tracks.size(); ++i)
    out.data[at + i / 2] |= static_cast<std::uint8_t>(static_cast<unsigned>(tracks[i].kind) << ((i & 1) * 4));
  out.align4();
}

void writeConstants(Bytes& out, std::span<const BlockTrack> tracks) {
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const std::uint32_t size = constantSize(tracks[i].kind, Channel(i % 3));
    out.append(std::span(tracks[i].constant.data(), size));
  }
  out.align4();
}

/// One keyed or timed parameter record of sub-track i with `keys` keys (`format`: a timed track's
/// key format, 0 for a keyed track).
void writeKeyParam(Bytes& out, std::uint32_t i, const BlockTrack& t, std::size_t keys, std::uint8_t format) {
  assert(keys >= 2);
  out.put(static_cast<std::uint16_t>(i / 3));
  out.put(static_cast<std::uint8_t>(i % 3));
  out.put(format);
  out.put(static_cast<std::uint32_t>(keys));
  if (timedParamSize(Channel(i % 3), format) == kKeyedVectorParamSize) {
    for (int c = 0; c < 3; ++c) out.put(t.rangeMin[c]);
    for (int c = 0; c < 3; ++c) out.put(t.rangeExtent[c]);
  }
}

void writeKeyedParams(Bytes& out, std::span<const BlockTrack> tracks, const std::vector<std::uint32_t>& order) {
  for (const std::uint32_t i : order) {
    assert(tracks[i].keyFrames.size() == tracks[i].keyPayloads.size());
    writeKeyParam(out, i, tracks[i], tracks[i].keyFrames.size(), 0);
  }
}

void writeUniformParams(Bytes& out, std::span<const BlockTrack> tracks, const std::vector<std::uint32_t>& order) {
  for (const std::uint32_t i : order) {
    const BlockTrack& t = tracks[i];
    out.put(static_cast<std::uint16_t>(i / 3));
    out.put(static_cast<std::uint8_t>(i % 3));
    out.put(t.uniformFlags);
    for (int c = 0; c < 3; ++c) out.put(t.minValue[c]);
    out.put(t.step);
    for (int c = 0; c < 4; ++c) out.put(t.width[c]);
    if (componentsOf(t) == 4) out.put(t.minValue[3]);
    if (t.uniformFlags & kUniformFlagReference)
      for (int c = 0; c < 4; ++c) out.put(t.reference[c]);
  }
}

/// Each keyed track's keys in time order, track after track in parameter order.
void writeKeys(Bytes& out, std::span<const BlockTrack> tracks, const std::vector<std::uint32_t>& order) {
  out.align4();
  for (const std::uint32_t i : order)
    for (std::size_t k = 0; k < tracks[i].keyFrames.size(); ++k) {
      out.put(tracks[i].keyFrames[k]);
      for (const std::uint16_t p : tracks[i].keyPayloads[k]) out.put(p);
    }
}

void writeRaw(Bytes& out, std::span<const BlockTrack> tracks, [[maybe_unused]] std::uint32_t frames) {
  out.align4();
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    if (tracks[i].kind != TrackKind::Raw) continue;
    assert(tracks[i].raw.size() == frames);
    const int components = Channel(i % 3) == Channel::Rotation ? 4 : 3;
    for (const auto& v : tracks[i].raw)
      for (int c = 0; c < components; ++c) out.put(v[std::size_t(c)]);
  }
}

/// A packed timed track's parameters after the first 8 bytes, and its run of keys.
void writePackedParam(Bytes& out, const BlockTrack& t) {
  out.put(t.timeShift);
  out.put(t.timeWidth);
  out.put(t.timedComponents);
  out.put(std::uint8_t(0));
  for (int c = 0; c < 4; ++c) out.put(t.width[c]);
  out.put(t.step);
  for (int c = 0; c < 4; ++c) out.put(c < t.timedComponents ? t.minValue[c] : 0.f);
  out.put(t.timeSlope);
  out.put(t.timeBase);
}

void writePackedKeys(Bytes& out, const BlockTrack& t) {
  BitWriter bits;
  for (const auto& key : t.keyPacked) {
    bits.write(key[0], t.timeWidth);
    for (unsigned c = 0; c < 4; ++c) bits.write(key[c + 1], t.width[c]);
  }
  out.append(bits.bytes());
}

/// Timed tracks (format version 7) in sub-track order: their parameters, then their keys; packed
/// keys (version 10) end with 8 zero bytes.
void writeTimed(Bytes& out, std::span<const BlockTrack> tracks) {
  out.align4();
  bool packed = false;
  for (std::uint32_t i = 0; i < tracks.size(); ++i) {
    const BlockTrack& t = tracks[i];
    if (t.kind != TrackKind::Timed) continue;
    const bool isPacked = t.timedFormat == kTimedPacked;
    writeKeyParam(out, i, t, isPacked ? t.keyPacked.size() : t.keyTimes.size(), t.timedFormat);
    if (isPacked) writePackedParam(out, t);
    packed = packed || isPacked;
  }
  for (std::uint32_t i = 0; i < tracks.size(); ++i) {
    const BlockTrack& t = tracks[i];
    if (t.kind != TrackKind::Timed) continue;
    if (t.timedFormat == kTimedPacked) {
      writePackedKeys(out, t);
      continue;
    }
    const bool floats = t.timedFormat == kTimedFloat;
    assert((floats ? t.keyValues.size() : t.keyPayloads.size()) == t.keyTimes.size());
    for (std::size_t k = 0; k < t.keyTimes.size(); ++k) {
      out.put(t.keyTimes[k]);
      if (floats)
        for (unsigned c = 0; c < (i % 3 == 0 ? 4u : 3u); ++c) out.put(t.keyValues[k][c]);
      else
        for (const std::uint16_t p : t.keyPayloads[k]) out.put(p);
    }
  }
  if (packed) out.zeros(8);
  out.align4();
}

/// Segment table, boundary rows and segment data, tracks in parameter order, then the bit padding.
void writeUniformData(Bytes& out, std::span<const BlockTrack> tracks, const std::vector<std::uint32_t>& order,
                      std::uint32_t frames, std::uint32_t segmentLength) {
  const std::uint32_t segments = uniformSegmentCount(frames, segmentLength);
  BitWriter rows;
  for (std::uint32_t k = 0; k <= segments; ++k)
    for (const std::uint32_t i : order) {
      const BlockTrack& t = tracks[i];
      assert(t.boundaries.size() == segments + 1);
      for (unsigned c = 0; c < componentsOf(t); ++c) rows.write(t.boundaries[k][c], t.width[c]);
    }
  std::vector<std::uint8_t> data;
  std::vector<std::uint32_t> offsets;
  for (std::uint32_t k = 0; k < segments; ++k) {
    offsets.push_back(static_cast<std::uint32_t>(data.size()));
    const std::uint32_t first = k * segmentLength;
    const std::uint32_t count = k + 1 == segments ? frames - first : segmentLength;
    for (const std::uint32_t i : order) {
      const auto& b = tracks[i].bits[k];
      const std::uint32_t h = std::uint32_t(b[0]) | (std::uint32_t(b[1]) << 5) | (std::uint32_t(b[2]) << 10) |
                              (std::uint32_t(tracks[i].shifts[k]) << 15) | (std::uint32_t(b[3]) << 19);
      data.push_back(static_cast<std::uint8_t>(h));
      data.push_back(static_cast<std::uint8_t>(h >> 8));
      data.push_back(static_cast<std::uint8_t>(h >> 16));
    }
    BitWriter bits;
    for (const std::uint32_t i : order) {
      const BlockTrack& t = tracks[i];
      if (!t.residualRuns.empty()) {
        // Copied as packed, 32 bits at a time (the source keeps 8 readable bytes past its data).
        std::uint64_t at = t.residualRuns[k].bit;
        std::uint64_t left = std::uint64_t(count) * (t.bits[k][0] + t.bits[k][1] + t.bits[k][2] + t.bits[k][3]);
        for (; left > 0; at += 32) {
          const unsigned n = left < 32 ? unsigned(left) : 32u;
          bits.write(readBits(t.residualRuns[k].data, at, n), n);
          left -= n;
        }
        continue;
      }
      for (std::uint32_t f = first; f < first + count; ++f)
        for (unsigned c = 0; c < componentsOf(t); ++c) bits.writeSigned(t.residuals[f][c], t.bits[k][c]);
    }
    data.insert(data.end(), bits.bytes().begin(), bits.bytes().end());
  }
  offsets.push_back(static_cast<std::uint32_t>(data.size()));
  out.align4();
  for (const std::uint32_t o : offsets) out.put(o);
  out.align4();
  out.append(rows.bytes());
  out.align4();
  out.append(data);
  out.zeros(kBitPadding);
}

}  // namespace

std::vector<std::uint8_t> buildClip(const BlockClip& clip) {
  const std::span<const BlockTrack> tracks = clip.tracks;
  assert(tracks.size() % 3 == 0 && tracks.size() / 3 <= kMaxJoints);
  const std::vector<std::uint32_t> keyed = keyedOrder(tracks), uniform = uniformOrder(tracks);
  std::uint32_t raw = 0, keys = 0, timed = 0;
  for (const BlockTrack& t : tracks) {
    raw += t.kind == TrackKind::Raw;
    timed += t.kind == TrackKind::Timed;
    if (t.kind == TrackKind::Keyed) keys += static_cast<std::uint32_t>(t.keyFrames.size());
  }
  Bytes out;
  out.zeros(kClipHeaderSize);
  // Sections in the order of FORMAT.md "Clip data block".
  writeKinds(out, tracks);
  writeConstants(out, tracks);
  writeKeyedParams(out, tracks, keyed);
  writeUniformParams(out, tracks, uniform);
  writeKeys(out, tracks, keyed);
  writeRaw(out, tracks, clip.frameCount);
  if (timed > 0) writeTimed(out, tracks);
  const std::uint32_t segmentLength = uniform.empty() ? 0 : clip.segmentLength;
  if (!uniform.empty()) writeUniformData(out, tracks, uniform, clip.frameCount, segmentLength);
  std::uint16_t flags = static_cast<std::uint16_t>(clip.flags | (timed > 0 ? kClipFlagTimed : 0));
  if (!clip.rootMotion.empty()) {
    out.append(clip.rootMotion);
    flags = static_cast<std::uint16_t>(flags | kClipFlagRootMotion);
  }

  std::uint8_t* h = out.data.data();
  using H = ClipHeaderLayout;
  storeLE(h + H::frameCount, clip.frameCount);
  storeLE(h + H::sampleRate, clip.sampleRate);
  storeLE(h + H::jointCount, static_cast<std::uint16_t>(tracks.size() / 3));
  storeLE(h + H::segmentLength, static_cast<std::uint16_t>(segmentLength));
  storeLE(h + H::flags, flags);
  storeLE(h + H::uniformTrackCount, static_cast<std::uint16_t>(uniform.size()));
  storeLE(h + H::keyedTrackCount, static_cast<std::uint16_t>(keyed.size()));
  storeLE(h + H::rawTrackCount, static_cast<std::uint16_t>(raw));
  storeLE(h + H::keyCount, keys);
  storeLE(h + H::snapshotCount, std::uint32_t(0));
  storeLE(h + H::totalSize, out.size());
  return std::move(out.data);
}

}  // namespace animpack::runtime
