#include "core/compress/clip_writer.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/base/assert.h"
#include "core/compress/bit_writer.h"
#include "core/runtime/quantize.h"

namespace animpack::core {
namespace {

using runtime::ClipHeaderLayout;
using runtime::storeLE;

class ByteBuffer {
 public:
  std::vector<std::uint8_t> bytes;
  std::uint32_t size() const { return static_cast<std::uint32_t>(bytes.size()); }
  void align(std::size_t a) {
    while (bytes.size() % a) bytes.push_back(0);
  }
  template <typename T>
  void put(T v) {
    const std::size_t at = bytes.size();
    bytes.resize(at + sizeof(T));
    storeLE(bytes.data() + at, v);
  }
  void append(const std::vector<std::uint8_t>& more) { bytes.insert(bytes.end(), more.begin(), more.end()); }
  void zeros(std::size_t n) { bytes.resize(bytes.size() + n, 0); }
};

struct StreamKey {
  std::uint32_t need;
  std::uint32_t track;  // joint * 3 + channel
  std::uint32_t index;  // key index within its track
  std::uint16_t frame;
  std::array<std::uint16_t, 3> payload;
};

/// Track kinds, two per byte; returns the (uniform, keyed, raw) counts.
std::array<std::uint32_t, 3> writeKinds(ByteBuffer& out, std::span<const TrackEncoding> tracks) {
  std::array<std::uint32_t, 3> counts{};
  const std::size_t at = out.bytes.size();
  out.zeros(runtime::kindBytes(static_cast<std::uint32_t>(tracks.size() / 3)));
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const TrackKind kind = tracks[i].kind;
    out.bytes[at + i / 2] |= static_cast<std::uint8_t>(static_cast<unsigned>(kind) << ((i & 1) * 4));
    counts[0] += kind == TrackKind::Uniform;
    counts[1] += kind == TrackKind::Keyed;
    counts[2] += kind == TrackKind::Raw;
  }
  out.align(4);
  return counts;
}

void writeConstants(ByteBuffer& out, std::span<const TrackEncoding> tracks) {
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const TrackEncoding& t = tracks[i];
    const Sample& v = t.constant;
    switch (t.kind) {
      case TrackKind::Constant:
        if (Channel(i % 3) == Channel::Rotation) {
          std::uint16_t q[3];
          runtime::packQuat48({v[0], v[1], v[2], v[3]}, q);
          for (std::uint16_t x : q) out.put(x);
        } else {
          for (int c = 0; c < 3; ++c) out.put(v[std::size_t(c)]);
        }
        break;
      case TrackKind::ConstantQ32: out.put(runtime::packQuat32({v[0], v[1], v[2], v[3]})); break;
      case TrackKind::ConstantFloat:
        for (int c = 0; c < 4; ++c) out.put(v[std::size_t(c)]);
        break;
      default: break;
    }
  }
  out.align(4);
}

void writeKeyedParams(ByteBuffer& out, std::span<const TrackEncoding> tracks) {
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const TrackEncoding& t = tracks[i];
    if (t.kind != TrackKind::Keyed) continue;
    out.put(static_cast<std::uint16_t>(i / 3));
    out.put(static_cast<std::uint8_t>(i % 3));
    out.put(std::uint8_t(0));
    if (Channel(i % 3) != Channel::Rotation) {
      for (int c = 0; c < 3; ++c) out.put(t.keyed.rangeMin[c]);
      for (int c = 0; c < 3; ++c) out.put(t.keyed.rangeExtent[c]);
    }
  }
  out.align(4);
}

/// Uniform parameters; returns the uniform tracks in order.
std::vector<const TrackEncoding*> writeUniformParams(ByteBuffer& out, std::span<const TrackEncoding> tracks) {
  std::vector<const TrackEncoding*> uniform;
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const TrackEncoding& t = tracks[i];
    if (t.kind != TrackKind::Uniform) continue;
    uniform.push_back(&t);
    const UniformEncoding& u = t.uniform;
    out.put(static_cast<std::uint16_t>(i / 3));
    out.put(static_cast<std::uint8_t>(i % 3));
    out.put(static_cast<std::uint8_t>((u.hasReference ? runtime::kUniformFlagReference : 0) |
                                      (u.components == 4 ? runtime::kUniformFlagFourComponents : 0)));
    for (int c = 0; c < 3; ++c) out.put(u.minValue[c]);
    out.put(u.step);
    for (int c = 0; c < 4; ++c) out.put(u.width[c]);
    if (u.components == 4) out.put(u.minValue[3]);
    if (u.hasReference) {
      out.put(u.reference.x);
      out.put(u.reference.y);
      out.put(u.reference.z);
      out.put(u.reference.w);
    }
  }
  return uniform;
}

/// The key stream: every key filed under the time it is first needed (key i of a track: the time
/// of its key i-2), ties broken by track and key order. Returns the keys in stream order.
std::vector<StreamKey> writeKeyStream(ByteBuffer& out, std::span<const TrackEncoding> tracks) {
  std::vector<StreamKey> keys;
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const TrackEncoding& t = tracks[i];
    if (t.kind != TrackKind::Keyed) continue;
    const auto& fr = t.keyed.frames;
    for (std::size_t k = 0; k < fr.size(); ++k)
      keys.push_back({k >= 2 ? fr[k - 2] : 0u, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(k), fr[k], t.keyed.payload[k]});
  }
  std::sort(keys.begin(), keys.end(), [](const StreamKey& a, const StreamKey& b) {
    if (a.need != b.need) return a.need < b.need;
    if (a.track != b.track) return a.track < b.track;
    return a.index < b.index;
  });
  out.align(4);
  for (const StreamKey& k : keys) {
    out.put(k.frame);
    out.put(runtime::packJointChannel(k.track / 3, Channel(k.track % 3)));
    for (std::uint16_t p : k.payload) out.put(p);
  }
  return keys;
}

/// Snapshots every interval: replaying [start, end) rebuilds each keyed track's window. Returns
/// their count.
std::uint32_t writeSnapshots(ByteBuffer& out, const std::vector<StreamKey>& keys, std::size_t subTracks, std::uint32_t frames,
                             std::uint32_t intervalFrames) {
  out.align(4);
  if (keys.empty()) return 0;
  std::vector<std::vector<std::uint32_t>> positions(subTracks);
  for (std::uint32_t p = 0; p < keys.size(); ++p) positions[keys[p].track].push_back(p);
  std::uint32_t count = 0;
  const std::uint32_t interval = std::max<std::uint32_t>(1, intervalFrames);
  for (std::uint32_t frame = 0; frame < frames; frame += interval) {
    const auto end = static_cast<std::uint32_t>(
        std::upper_bound(keys.begin(), keys.end(), frame, [](std::uint32_t f, const StreamKey& k) { return f < k.need; }) -
        keys.begin());
    std::uint32_t start = end;
    for (const auto& pos : positions) {
      const auto consumed = std::size_t(std::lower_bound(pos.begin(), pos.end(), end) - pos.begin());
      if (consumed > 0) start = std::min(start, pos[consumed >= 4 ? consumed - 4 : 0]);
    }
    out.put(frame);
    out.put(start);
    out.put(end);
    ++count;
  }
  return count;
}

/// Raw sample tracks (format version 2): every frame's float32 components, track after track.
void writeRawSamples(ByteBuffer& out, std::span<const TrackEncoding> tracks, std::uint32_t frames) {
  out.align(4);
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    const TrackEncoding& t = tracks[i];
    if (t.kind != TrackKind::Raw) continue;
    ANIMPACK_ASSERT(t.decoded.size() == frames, "a raw track holds every frame");
    const int components = Channel(i % 3) == Channel::Rotation ? 4 : 3;
    for (const Sample& v : t.decoded)
      for (int c = 0; c < components; ++c) out.put(v[std::size_t(c)]);
  }
}

/// Segment table, boundary rows and segment data of the uniform tracks, then the bit padding.
void writeUniformData(ByteBuffer& out, const std::vector<const TrackEncoding*>& uniform, std::uint32_t frames,
                      std::uint32_t segmentLength) {
  const std::uint32_t segments = runtime::uniformSegmentCount(frames, segmentLength);
  BitWriter rows;
  for (std::uint32_t k = 0; k <= segments; ++k)
    for (const TrackEncoding* t : uniform) {
      ANIMPACK_ASSERT(t->uniform.boundaries.size() == segments + 1, "uniform tracks share the segment layout");
      for (unsigned c = 0; c < t->uniform.components; ++c) rows.write(t->uniform.boundaries[k][c], t->uniform.width[c]);
    }

  std::vector<std::uint8_t> data;
  std::vector<std::uint32_t> offsets;
  for (std::uint32_t k = 0; k < segments; ++k) {
    offsets.push_back(static_cast<std::uint32_t>(data.size()));
    const std::uint32_t first = k * segmentLength;
    const std::uint32_t count = k + 1 == segments ? frames - first : segmentLength;
    for (const TrackEncoding* t : uniform) {
      const auto& b = t->uniform.bits[k];
      const std::uint32_t h = std::uint32_t(b[0]) | (std::uint32_t(b[1]) << 5) | (std::uint32_t(b[2]) << 10) |
                              (std::uint32_t(t->uniform.shifts[k]) << 15) | (std::uint32_t(b[3]) << 19);
      data.push_back(static_cast<std::uint8_t>(h));
      data.push_back(static_cast<std::uint8_t>(h >> 8));
      data.push_back(static_cast<std::uint8_t>(h >> 16));
    }
    BitWriter bits;
    for (const TrackEncoding* t : uniform)
      for (std::uint32_t f = first; f < first + count; ++f)
        for (unsigned c = 0; c < t->uniform.components; ++c) bits.writeSigned(t->uniform.residuals[f][c], t->uniform.bits[k][c]);
    data.insert(data.end(), bits.bytes().begin(), bits.bytes().end());
  }
  offsets.push_back(static_cast<std::uint32_t>(data.size()));
  out.align(4);
  for (std::uint32_t o : offsets) out.put(o);
  out.align(4);
  out.append(rows.bytes());
  out.align(4);
  out.append(data);
  out.zeros(runtime::kBitPadding);
}

}  // namespace

std::vector<std::uint8_t> writeClip(const ClipLayout& layout) {
  const std::size_t subTracks = layout.tracks.size();
  ANIMPACK_ASSERT(subTracks % 3 == 0 && subTracks / 3 <= runtime::kMaxJoints, "sub-track count is a multiple of 3");
  const std::uint32_t joints = static_cast<std::uint32_t>(subTracks / 3);
  const std::uint32_t frames = layout.frameCount;
  ByteBuffer out;
  out.zeros(runtime::kClipHeaderSize);

  // Sections in the order of FORMAT.md "Clip data block".
  const auto [uniformCount, keyedCount, rawCount] = writeKinds(out, layout.tracks);
  writeConstants(out, layout.tracks);
  writeKeyedParams(out, layout.tracks);
  const std::vector<const TrackEncoding*> uniform = writeUniformParams(out, layout.tracks);
  const std::vector<StreamKey> keys = writeKeyStream(out, layout.tracks);
  const std::uint32_t snapshotCount = writeSnapshots(out, keys, subTracks, frames, layout.snapshotIntervalFrames);
  writeRawSamples(out, layout.tracks, frames);
  const std::uint32_t segmentLength = uniformCount > 0 ? layout.segmentLength : 0;
  if (uniformCount > 0) writeUniformData(out, uniform, frames, segmentLength);

  const std::uint32_t total = out.size();
  std::uint8_t* h = out.bytes.data();
  using H = ClipHeaderLayout;
  storeLE(h + H::frameCount, frames);
  storeLE(h + H::sampleRate, layout.sampleRate);
  storeLE(h + H::jointCount, static_cast<std::uint16_t>(joints));
  storeLE(h + H::segmentLength, static_cast<std::uint16_t>(segmentLength));
  const bool wrap = layout.loop && layout.wrap;
  const unsigned flags = (layout.loop ? runtime::kClipFlagLoop : 0u) | (wrap ? runtime::kClipFlagWrap : 0u) |
                         (wrap && layout.droppedLast ? runtime::kClipFlagDroppedLast : 0u) | (layout.additive ? runtime::kClipFlagAdditive : 0u);
  storeLE(h + H::flags, static_cast<std::uint16_t>(flags));
  storeLE(h + H::uniformTrackCount, static_cast<std::uint16_t>(uniformCount));
  storeLE(h + H::keyedTrackCount, static_cast<std::uint16_t>(keyedCount));
  storeLE(h + H::rawTrackCount, static_cast<std::uint16_t>(rawCount));
  storeLE(h + H::keyCount, static_cast<std::uint32_t>(keys.size()));
  storeLE(h + H::snapshotCount, snapshotCount);
  storeLE(h + H::totalSize, total);
  return std::move(out.bytes);
}

}  // namespace animpack::core
