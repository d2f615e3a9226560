#include "core/runtime/clip_view.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <string>

#include "core/runtime/bits.h"
#include "core/runtime/quantize.h"

namespace animpack::runtime {
namespace {

Error fail(const std::string& what) { return Error{"corrupt clip data: " + what}; }

bool finite3(const float v[3]) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

bool unitQuat(const Quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w) && std::fabs(dot(q, q) - 1.f) <= 1e-3f;
}

/// Bounds-checked cursor over the blob.
struct Reader {
  std::span<const std::uint8_t> data;
  bool has(std::uint64_t offset, std::uint64_t size) const { return offset <= data.size() && size <= data.size() - offset; }
  template <typename T>
  T at(std::uint64_t offset) const {
    return loadLE<T>(data.data() + offset);
  }
};

std::size_t constantSize(TrackKind kind, Channel channel) {
  switch (kind) {
    case TrackKind::Constant: return channel == Channel::Rotation ? 6 : 12;
    case TrackKind::ConstantQ32: return 4;
    case TrackKind::ConstantFloat: return 16;
    default: return 0;
  }
}

}  // namespace

Quat decodeRotationKey(const std::uint8_t* key) {
  const std::uint16_t v[3] = {loadLE<std::uint16_t>(key + 4), loadLE<std::uint16_t>(key + 6),
                              loadLE<std::uint16_t>(key + 8)};
  return unpackQuat48(v);
}

Vec3 decodeVectorKey(const std::uint8_t* key, const KeyedTrackInfo& track) {
  return {unpackUnorm16(loadLE<std::uint16_t>(key + 4), track.minValue[0], track.extent[0]),
          unpackUnorm16(loadLE<std::uint16_t>(key + 6), track.minValue[1], track.extent[1]),
          unpackUnorm16(loadLE<std::uint16_t>(key + 8), track.minValue[2], track.extent[2])};
}

/// Reads and validates one clip block section by section, in the order of FORMAT.md "Clip data
/// block" (the writer's stages in core/compress/clip_writer.cpp mirror these).
class ClipViewReader {
 public:
  ClipViewReader(std::span<const std::uint8_t> blob, ClipView& view) : m_r{blob}, m_blob(blob), m_view(view) {}

  Status header(std::span<const Transform> restPose);
  Status kinds();
  Status constants();
  Status keyedParams();
  Status uniformParams();
  Status keys();
  Status snapshots();
  Status rawSamples();
  Status uniformData();
  Status padding();
  Status rootMotion();

 private:
  /// Starts a section of `size` bytes at the next multiple of 4.
  Status section(std::uint64_t size, const char* what, std::uint32_t& sizeOut) {
    m_pos = align4(static_cast<std::uint32_t>(m_pos));
    if (!m_r.has(m_pos, size)) return fail(std::string(what) + " out of bounds");
    sizeOut = static_cast<std::uint32_t>(size);
    return Status::ok();
  }

  Reader m_r;
  std::span<const std::uint8_t> m_blob;
  ClipView& m_view;
  std::uint64_t m_pos = kClipHeaderSize;
  std::uint32_t m_jointCount = 0, m_uniformCount = 0, m_keyedCount = 0, m_rawCount = 0, m_snapshotCount = 0;
  std::uint64_t m_rowBits = 0;
  std::vector<std::uint32_t> m_need;                     // m_need frame of every key
  std::vector<std::vector<std::uint32_t>> m_positions;   // per keyed track: its keys' stream m_positions
};

Status ClipViewReader::header(std::span<const Transform> restPose) {
  if (!m_r.has(0, kClipHeaderSize)) return fail("clip is " + std::to_string(m_blob.size()) + " bytes, shorter than its header");
  using H = ClipHeaderLayout;
  m_view.m_frameCount = m_r.at<std::uint32_t>(H::frameCount);
  m_view.m_sampleRate = m_r.at<float>(H::sampleRate);
  m_jointCount = m_r.at<std::uint16_t>(H::jointCount);
  m_view.m_segmentLength = m_r.at<std::uint16_t>(H::segmentLength);
  m_view.m_flags = m_r.at<std::uint16_t>(H::flags);
  m_uniformCount = m_r.at<std::uint16_t>(H::uniformTrackCount);
  m_keyedCount = m_r.at<std::uint16_t>(H::keyedTrackCount);
  m_rawCount = m_r.at<std::uint16_t>(H::rawTrackCount);
  m_view.m_keyCount = m_r.at<std::uint32_t>(H::keyCount);
  m_snapshotCount = m_r.at<std::uint32_t>(H::snapshotCount);
  const std::uint32_t totalSize = m_r.at<std::uint32_t>(H::totalSize);

  if (totalSize != m_blob.size())
    return fail("clip header says " + std::to_string(totalSize) + " bytes but " + std::to_string(m_blob.size()) + " are present");
  if (m_jointCount == 0 || m_jointCount > kMaxJoints) return fail("joint count " + std::to_string(m_jointCount) + " out of range");
  if (m_jointCount != restPose.size())
    return fail("clip has " + std::to_string(m_jointCount) + " joints, the skeleton " + std::to_string(restPose.size()));
  if (m_view.m_frameCount == 0) return fail("frame count is 0");
  if (!(m_view.m_sampleRate > 0.f) || !std::isfinite(m_view.m_sampleRate) || m_view.m_sampleRate > 1e5f) return fail("sample rate out of range");
  if ((m_view.m_flags & ~kClipFlagsV3) != 0) return fail("unknown clip flags");
  if ((m_view.m_flags & kClipFlagWrap) && !(m_view.m_flags & kClipFlagLoop)) return fail("wrap flag without the loop flag");
  if ((m_view.m_flags & kClipFlagWrap) && m_view.m_frameCount < 2) return fail("a wrapping clip needs two frames");
  if ((m_view.m_flags & kClipFlagDroppedLast) && !(m_view.m_flags & kClipFlagWrap)) return fail("dropped-last-frame flag without the wrap flag");
  if ((m_uniformCount > 0) != (m_view.m_segmentLength > 0)) return fail("segment length and uniform tracks disagree");
  m_view.m_restPose.assign(restPose.begin(), restPose.end());
  // An additive clip's tracks are deltas: its default tracks are the identity (FORMAT.md "Additive clips").
  if (m_view.m_flags & kClipFlagAdditive) m_view.m_basePose.assign(restPose.size(), Transform{});
  else m_view.m_basePose = m_view.m_restPose;
  return Status::ok();
}

Status ClipViewReader::kinds() {
  if (auto st = section(kindBytes(m_jointCount), "track kinds", m_view.m_sections.kinds); !st) return st;
  m_view.m_kinds.resize(std::size_t(m_jointCount) * 3);
  std::uint32_t seenUniform = 0, seenKeyed = 0, seenRaw = 0;
  for (std::size_t i = 0; i < m_view.m_kinds.size(); ++i) {
    const std::uint8_t k = (m_blob[m_pos + i / 2] >> ((i & 1) * 4)) & 15u;
    if (k >= kTrackKindCount) return fail("unknown track kind " + std::to_string(k));
    const TrackKind kind = static_cast<TrackKind>(k);
    const Channel channel = static_cast<Channel>(i % 3);
    if ((kind == TrackKind::ConstantQ32 || kind == TrackKind::ConstantFloat) && channel != Channel::Rotation)
      return fail("rotation-only track kind on a vector channel");
    if (kind == TrackKind::Keyed) {
      if (m_view.m_frameCount < 2 || m_view.m_frameCount > kMaxKeyedFrames) return fail("keyed track in a clip of unsupported length");
      ++seenKeyed;
    }
    if (kind == TrackKind::Uniform) {
      if (m_view.m_frameCount < 2) return fail("uniform track in a one-frame clip");
      ++seenUniform;
    }
    seenRaw += kind == TrackKind::Raw;
    m_view.m_kinds[i] = kind;
  }
  if ((m_view.m_kinds.size() & 1) && (m_blob[m_pos + m_view.m_kinds.size() / 2] >> 4) != 0) return fail("kind padding is not zero");
  if (seenUniform != m_uniformCount || seenKeyed != m_keyedCount || seenRaw != m_rawCount)
    return fail("track counts disagree with track kinds");
  m_view.m_segmentCount = m_uniformCount > 0 ? uniformSegmentCount(m_view.m_frameCount, m_view.m_segmentLength) : 0;
  m_pos += m_view.m_sections.kinds;
  return Status::ok();
}

/// Constants are decoded into the base pose.
Status ClipViewReader::constants() {
  m_pos = align4(static_cast<std::uint32_t>(m_pos));
  const std::uint64_t start = m_pos;
  for (std::uint32_t j = 0; j < m_jointCount; ++j) {
    for (int c = 0; c < kChannelCount; ++c) {
      const TrackKind kind = m_view.m_kinds[j * 3 + c];
      const std::size_t size = constantSize(kind, Channel(c));
      if (size == 0) continue;
      if (!m_r.has(m_pos, size)) return fail("constant of joint " + std::to_string(j) + " out of bounds");
      const std::uint8_t* p = m_blob.data() + m_pos;
      Transform& t = m_view.m_basePose[j];
      if (c == int(Channel::Rotation)) {
        if (kind == TrackKind::Constant) {
          const std::uint16_t q[3] = {loadLE<std::uint16_t>(p), loadLE<std::uint16_t>(p + 2), loadLE<std::uint16_t>(p + 4)};
          t.rotation = unpackQuat48(q);
        } else if (kind == TrackKind::ConstantQ32) {
          t.rotation = unpackQuat32(loadLE<std::uint32_t>(p));
        } else {
          const Quat q{loadLE<float>(p), loadLE<float>(p + 4), loadLE<float>(p + 8), loadLE<float>(p + 12)};
          if (!unitQuat(q)) return fail("constant rotation of joint " + std::to_string(j) + " is not a unit quaternion");
          t.rotation = normalized(q);
        }
      } else {
        const float x[3] = {loadLE<float>(p), loadLE<float>(p + 4), loadLE<float>(p + 8)};
        if (!finite3(x)) return fail("constant of joint " + std::to_string(j) + " is not finite");
        (c == int(Channel::Translation) ? t.translation : t.scale) = {x[0], x[1], x[2]};
      }
      m_pos += size;
    }
  }
  m_view.m_sections.constants = static_cast<std::uint32_t>(m_pos - start);
  return Status::ok();
}

/// Keyed track parameters, in (joint, channel) order.
Status ClipViewReader::keyedParams() {
  m_view.m_keyedSlot.assign(m_view.m_kinds.size(), -1);
  m_pos = align4(static_cast<std::uint32_t>(m_pos));
  const std::uint64_t start = m_pos;
  for (std::uint32_t i = 0; i < m_view.m_kinds.size(); ++i) {
    if (m_view.m_kinds[i] != TrackKind::Keyed) continue;
    KeyedTrackInfo info;
    info.joint = i / 3;
    info.channel = Channel(i % 3);
    const std::size_t size = info.channel == Channel::Rotation ? kKeyedRotationParamSize : kKeyedVectorParamSize;
    if (!m_r.has(m_pos, size)) return fail("keyed track parameters out of bounds");
    if (m_r.at<std::uint16_t>(m_pos) != info.joint || m_r.at<std::uint8_t>(m_pos + 2) != std::uint8_t(info.channel) ||
        m_r.at<std::uint8_t>(m_pos + 3) != 0)
      return fail("keyed track parameters out of order");
    if (info.channel != Channel::Rotation) {
      for (int c = 0; c < 3; ++c) {
        info.minValue[c] = m_r.at<float>(m_pos + 4 + 4 * c);
        info.extent[c] = m_r.at<float>(m_pos + 16 + 4 * c);
        if (!std::isfinite(info.minValue[c]) || !std::isfinite(info.extent[c]) || info.extent[c] < 0.f)
          return fail("keyed track range is not finite");
      }
    }
    m_view.m_keyedSlot[i] = static_cast<std::int32_t>(m_view.m_keyed.size());
    m_view.m_keyed.push_back(info);
    m_pos += size;
  }
  m_view.m_sections.keyedParams = static_cast<std::uint32_t>(m_pos - start);
  return Status::ok();
}

Status ClipViewReader::uniformParams() {
  m_pos = align4(static_cast<std::uint32_t>(m_pos));
  const std::uint64_t start = m_pos;
  for (std::uint32_t i = 0; i < m_view.m_kinds.size(); ++i) {
    if (m_view.m_kinds[i] != TrackKind::Uniform) continue;
    UniformTrackInfo info;
    info.joint = i / 3;
    info.channel = Channel(i % 3);
    if (!m_r.has(m_pos, kUniformParamSize)) return fail("uniform track parameters out of bounds");
    if (m_r.at<std::uint16_t>(m_pos) != info.joint || m_r.at<std::uint8_t>(m_pos + 2) != std::uint8_t(info.channel))
      return fail("uniform track parameters out of order");
    const std::uint8_t flags = m_r.at<std::uint8_t>(m_pos + 3);
    if ((flags & ~(kUniformFlagReference | kUniformFlagFourComponents)) != 0) return fail("unknown uniform track flags");
    info.hasReference = (flags & kUniformFlagReference) != 0;
    info.components = (flags & kUniformFlagFourComponents) ? 4 : 3;
    if (info.channel != Channel::Rotation && (info.hasReference || info.components == 4)) return fail("rotation flags on a vector track");
    if (info.hasReference && info.components == 4) return fail("a four-component rotation has no reference");
    info.step = m_r.at<float>(m_pos + 16);
    if (!std::isfinite(info.step) || info.step < 0.f) return fail("uniform track step is not finite");
    for (int c = 0; c < 4; ++c) {
      info.width[c] = m_r.at<std::uint8_t>(m_pos + 20 + c);
      if (info.width[c] > kMaxBoundaryBits) return fail("uniform boundary width above 32 bits");
    }
    for (int c = 0; c < 3; ++c) {
      info.minValue[c] = m_r.at<float>(m_pos + 4 + 4 * c);
      if (!std::isfinite(info.minValue[c])) return fail("uniform track range is not finite");
    }
    if (info.components == 3 && info.width[3] != 0) return fail("a three-component track has a fourth width");
    info.boundaryBitOffset = static_cast<std::uint32_t>(m_rowBits);
    m_rowBits += std::uint64_t(info.width[0]) + info.width[1] + info.width[2] + info.width[3];
    m_pos += kUniformParamSize;
    if (info.components == 4) {
      if (!m_r.has(m_pos, 4)) return fail("uniform track parameters out of bounds");
      info.minValue[3] = m_r.at<float>(m_pos);
      if (!std::isfinite(info.minValue[3])) return fail("uniform track range is not finite");
      m_pos += 4;
    }
    if (info.hasReference) {
      if (!m_r.has(m_pos, kUniformRefSize)) return fail("uniform reference rotation out of bounds");
      const Quat q{m_r.at<float>(m_pos), m_r.at<float>(m_pos + 4), m_r.at<float>(m_pos + 8), m_r.at<float>(m_pos + 12)};
      if (!unitQuat(q)) return fail("uniform reference rotation is not a unit quaternion");
      info.reference = q;
      m_pos += kUniformRefSize;
    }
    m_view.m_uniform.push_back(info);
  }
  m_view.m_sections.uniformParams = static_cast<std::uint32_t>(m_pos - start);
  return Status::ok();
}

/// Keys: bounds, joint indices, per-track increasing times from 0 to the last frame, m_need-time order.
Status ClipViewReader::keys() {
  if (auto st = section(std::uint64_t(m_view.m_keyCount) * kKeySize, "key stream", m_view.m_sections.keys); !st) return st;
  m_view.m_keys = m_blob.data() + m_pos;
  m_pos += m_view.m_sections.keys;
  if (m_keyedCount == 0 && m_view.m_keyCount != 0) return fail("keys without keyed tracks");
  std::vector<std::uint32_t> keyCountPerTrack(m_view.m_keyed.size(), 0);
  std::vector<std::uint32_t> last(m_view.m_keyed.size() * 2, 0);  // two newest key times per track
  m_need.resize(m_view.m_keyCount);
  m_positions.resize(m_view.m_keyed.size());
  std::uint32_t previousNeed = 0;
  for (std::uint32_t i = 0; i < m_view.m_keyCount; ++i) {
    const std::uint8_t* key = m_view.m_keys + std::size_t(i) * kKeySize;
    const std::uint32_t frame = loadLE<std::uint16_t>(key);
    const std::uint16_t jc = loadLE<std::uint16_t>(key + 2);
    const std::uint32_t joint = jc & 0x3fffu, channel = jc >> 14;
    if (joint >= m_jointCount || channel >= 3)
      return fail("key " + std::to_string(i) + " names joint " + std::to_string(joint) + " channel " + std::to_string(channel));
    const std::int32_t slot = m_view.m_keyedSlot[joint * 3 + channel];
    if (slot < 0) return fail("key " + std::to_string(i) + " belongs to a track that is not keyed");
    std::uint32_t& n = keyCountPerTrack[std::size_t(slot)];
    if (frame >= m_view.m_frameCount) return fail("key " + std::to_string(i) + " is past the last frame");
    if (n == 0 && frame != 0) return fail("a keyed track does not start at frame 0");
    if (n > 0 && frame <= last[std::size_t(slot) * 2 + 1]) return fail("key times of a track do not increase");
    const std::uint32_t needFrame = n >= 2 ? last[std::size_t(slot) * 2] : 0;
    if (needFrame < previousNeed) return fail("key stream is not sorted by m_need time at key " + std::to_string(i));
    previousNeed = needFrame;
    m_need[i] = needFrame;
    last[std::size_t(slot) * 2] = last[std::size_t(slot) * 2 + 1];
    last[std::size_t(slot) * 2 + 1] = frame;
    m_positions[std::size_t(slot)].push_back(i);
    ++n;
  }
  for (std::size_t s = 0; s < m_view.m_keyed.size(); ++s)
    if (keyCountPerTrack[s] < 2 || last[s * 2 + 1] != m_view.m_frameCount - 1) return fail("a keyed track does not end at the last frame");
  // Each track's keys decoded to floats in time order (the stream lists a track's keys in time
  // order), a rotation key negated where it points away from the key before it: one sign chain
  // per track, so the curve takes the shorter way and does not depend on where playback started.
  m_view.m_keyTimes.clear();
  m_view.m_keyValues.clear();
  m_view.m_keyTimes.reserve(m_view.m_keyCount);
  m_view.m_keyValues.reserve(m_view.m_keyCount);
  m_view.m_trackKeyOffsets.assign(1, 0u);
  for (std::size_t slot = 0; slot < m_positions.size(); ++slot) {
    const KeyedTrackInfo& track = m_view.m_keyed[slot];
    for (const std::uint32_t i : m_positions[slot]) {
      const std::uint8_t* key = m_view.m_keys + std::size_t(i) * kKeySize;
      KeyValue v{};
      if (track.channel == Channel::Rotation) {
        const Quat q = decodeRotationKey(key);
        v = {q.x, q.y, q.z, q.w};
        if (m_view.m_keyTimes.size() > m_view.m_trackKeyOffsets.back()) {
          const KeyValue& p = m_view.m_keyValues.back();
          if (v[0] * p[0] + v[1] * p[1] + v[2] * p[2] + v[3] * p[3] < 0.f)
            for (float& c : v) c = -c;
        }
      } else {
        const Vec3 x = decodeVectorKey(key, track);
        v = {x.x, x.y, x.z, 0.f};
      }
      m_view.m_keyTimes.push_back(static_cast<float>(loadLE<std::uint16_t>(key)));
      m_view.m_keyValues.push_back(v);
    }
    m_view.m_trackKeyOffsets.push_back(static_cast<std::uint32_t>(m_view.m_keyTimes.size()));
  }
  return Status::ok();
}

/// Snapshots: strictly increasing frames starting at 0, replay ranges that really rebuild the windows.
Status ClipViewReader::snapshots() {
  if (auto st = section(std::uint64_t(m_snapshotCount) * kSnapshotSize, "snapshots", m_view.m_sections.snapshots); !st) return st;
  if (m_keyedCount > 0 && m_snapshotCount == 0) return fail("keyed tracks without a snapshot");
  if (m_keyedCount == 0 && m_snapshotCount != 0) return fail("snapshots without keyed tracks");
  if (m_snapshotCount > m_view.m_frameCount) return fail("more snapshots than frames");
  m_view.m_snapshots.resize(m_snapshotCount);
  for (std::uint32_t s = 0; s < m_snapshotCount; ++s) {
    Snapshot& snap = m_view.m_snapshots[s];
    const std::uint64_t p = m_pos + std::uint64_t(s) * kSnapshotSize;
    snap.frame = m_r.at<std::uint32_t>(p);
    snap.replayStart = m_r.at<std::uint32_t>(p + 4);
    snap.replayEnd = m_r.at<std::uint32_t>(p + 8);
    if (s == 0 ? snap.frame != 0 : snap.frame <= m_view.m_snapshots[s - 1].frame) return fail("snapshot frames out of order");
    if (snap.frame >= m_view.m_frameCount) return fail("snapshot past the last frame");
    const auto end = std::upper_bound(m_need.begin(), m_need.end(), snap.frame) - m_need.begin();
    if (snap.replayEnd != std::uint32_t(end) || snap.replayStart > snap.replayEnd)
      return fail("snapshot " + std::to_string(s) + " replay range is wrong");
    for (const auto& trackPositions : m_positions) {
      const auto consumed = std::lower_bound(trackPositions.begin(), trackPositions.end(), snap.replayEnd) - trackPositions.begin();
      const auto first = consumed >= 4 ? consumed - 4 : 0;
      if (consumed > 0 && trackPositions[std::size_t(first)] < snap.replayStart)
        return fail("snapshot " + std::to_string(s) + " replays too little");
    }
  }
  m_pos += m_view.m_sections.snapshots;
  return Status::ok();
}

/// Raw tracks (version 2): float32 per frame and component, every value finite, rotations unit.
Status ClipViewReader::rawSamples() {
  std::uint64_t size = 0;
  for (std::uint32_t i = 0; i < m_view.m_kinds.size(); ++i)
    if (m_view.m_kinds[i] == TrackKind::Raw) size += std::uint64_t(m_view.m_frameCount) * (Channel(i % 3) == Channel::Rotation ? 16 : 12);
  if (auto st = section(size, "raw samples", m_view.m_sections.rawSamples); !st) return st;
  std::uint64_t p = m_pos;
  for (std::uint32_t i = 0; i < m_view.m_kinds.size(); ++i) {
    if (m_view.m_kinds[i] != TrackKind::Raw) continue;
    RawTrackInfo info{i / 3, Channel(i % 3), m_blob.data() + p};
    const unsigned components = info.channel == Channel::Rotation ? 4 : 3;
    for (std::uint32_t f = 0; f < m_view.m_frameCount; ++f, p += components * 4) {
      float x[4] = {0.f, 0.f, 0.f, 1.f};
      for (unsigned c = 0; c < components; ++c) x[c] = m_r.at<float>(p + 4 * c);
      if (!finite3(x) || !std::isfinite(x[3]) || (components == 4 && !unitQuat({x[0], x[1], x[2], x[3]})))
        return fail("raw sample " + std::to_string(f) + " of joint " + std::to_string(info.joint) + " is not finite or not a unit rotation");
    }
    m_view.m_raw.push_back(info);
  }
  m_pos += size;
  return Status::ok();
}

/// Segment table, boundary rows (segmentCount + 1 rows of m_rowBits bits), segment data.
Status ClipViewReader::uniformData() {
  if (m_uniformCount == 0) return Status::ok();
  if (m_rowBits > 0xffffffffu) return fail("boundary rows too wide");
  m_view.m_boundaryRowBits = static_cast<std::uint32_t>(m_rowBits);
  if (auto st = section(std::uint64_t(m_view.m_segmentCount + 1) * 4, "segment table", m_view.m_sections.segmentTable); !st) return st;
  m_view.m_segmentOffsets.resize(m_view.m_segmentCount + 1);
  for (std::uint32_t k = 0; k <= m_view.m_segmentCount; ++k) m_view.m_segmentOffsets[k] = m_r.at<std::uint32_t>(m_pos + 4 * k);
  m_pos += m_view.m_sections.segmentTable;
  if (auto st = section((std::uint64_t(m_view.m_segmentCount + 1) * m_rowBits + 7) / 8, "boundary rows", m_view.m_sections.boundaries); !st) return st;
  m_view.m_boundary = m_blob.data() + m_pos;
  m_pos += m_view.m_sections.boundaries;
  if (m_view.m_segmentOffsets[0] != 0) return fail("first segment does not start at 0");
  if (auto st = section(m_view.m_segmentOffsets[m_view.m_segmentCount], "segment data", m_view.m_sections.segmentData); !st) return st;
  m_view.m_segmentData = m_blob.data() + m_pos;
  m_pos += m_view.m_sections.segmentData;
  // Offsets must not decrease: then every segment lies inside the section (which ends at the last).
  for (std::uint32_t k = 0; k < m_view.m_segmentCount; ++k)
    if (m_view.m_segmentOffsets[k + 1] < m_view.m_segmentOffsets[k]) return fail("segment offsets decrease");
  m_view.m_residualBases.assign(std::size_t(m_view.m_segmentCount) * m_uniformCount, 0);
  for (std::uint32_t k = 0; k < m_view.m_segmentCount; ++k) {
    const std::uint64_t begin = m_view.m_segmentOffsets[k], end = m_view.m_segmentOffsets[k + 1];
    const std::uint64_t headerBytes = std::uint64_t(m_uniformCount) * kSegmentHeaderBytesPerTrack;
    if (end - begin < headerBytes) return fail("segment " + std::to_string(k) + " shorter than its header");
    const std::uint8_t* seg = m_view.m_segmentData + begin;
    std::uint64_t bits = 0;
    std::uint32_t* bases = m_view.m_residualBases.data() + std::size_t(k) * m_uniformCount;
    for (std::uint32_t t = 0; t < m_uniformCount; ++t) {
      // Where each track's residuals start follows from the widths of the tracks before it: kept
      // per segment so that a seek reaches them directly (FORMAT.md "Per-instance decoder state").
      if (headerBytes * 8 + bits > 0xffffffffu) return fail("segment " + std::to_string(k) + " holds more than 2^32 bits");
      bases[t] = static_cast<std::uint32_t>(headerBytes * 8 + bits);
      const std::uint32_t h = seg[3 * t] | (std::uint32_t(seg[3 * t + 1]) << 8) | (std::uint32_t(seg[3 * t + 2]) << 16);
      const unsigned b0 = h & 31u, b1 = (h >> 5) & 31u, b2 = (h >> 10) & 31u, b3 = (h >> 19) & 31u;
      if (m_view.m_uniform[t].components == 3 && b3 != 0) return fail("segment header has unknown bits");
      bits += std::uint64_t(m_view.segmentFrames(k)) * (b0 + b1 + b2 + b3);
    }
    if (headerBytes + (bits + 7) / 8 != end - begin) return fail("segment " + std::to_string(k) + " size disagrees with its bit rates");
  }
  return Status::ok();
}

/// With uniform tracks, trailing zero padding keeps every 8-byte bit read inside the clip.
Status ClipViewReader::padding() {
  const std::uint32_t bytes = m_uniformCount > 0 ? kBitPadding : 0;
  const std::uint64_t tail = (m_view.m_flags & kClipFlagRootMotion) ? rootMotionSectionSize(m_view.m_frameCount) : 0;
  if (m_pos + bytes + tail != m_blob.size()) return fail("clip size disagrees with its sections");
  for (std::uint64_t i = m_pos; i < m_pos + bytes; ++i)
    if (m_blob[i] != 0) return fail("clip padding is not zero");
  m_view.m_sections.padding = bytes;
  m_view.m_sections.header = kClipHeaderSize;
  m_pos += bytes;
  return Status::ok();
}

/// Root motion (version 3): a joint of the clip, a known up axis, finite values with the up
/// component zero and frame 0 at the origin.
Status ClipViewReader::rootMotion() {
  if (!(m_view.m_flags & kClipFlagRootMotion)) return Status::ok();
  RootMotionInfo& rm = m_view.m_rootMotion;
  const std::uint64_t p = m_pos;
  rm.joint = m_r.at<std::uint16_t>(p);
  rm.upAxis = m_r.at<std::uint8_t>(p + 2);
  if (rm.joint >= m_jointCount) return fail("root-motion joint " + std::to_string(rm.joint) + " out of range");
  if (rm.upAxis > 2 || m_r.at<std::uint8_t>(p + 3) != 0) return fail("root-motion up axis out of range");
  for (int i = 0; i < 4; ++i) {
    rm.reference[i] = m_r.at<float>(p + 4 + 4 * std::uint64_t(i));
    rm.cycle[i] = m_r.at<float>(p + 20 + 4 * std::uint64_t(i));
  }
  rm.frames = m_blob.data() + p + kRootMotionHeaderSize;
  auto valid = [&](const float* v) { return finite3(v) && std::isfinite(v[3]) && v[rm.upAxis] == 0.f; };
  if (!valid(rm.reference) || !valid(rm.cycle)) return fail("root-motion reference or cycle is not finite or leaves the ground plane");
  for (std::uint32_t f = 0; f < m_view.m_frameCount; ++f) {
    float v[4];
    for (int i = 0; i < 4; ++i) v[i] = loadLE<float>(rm.frames + std::size_t(f) * kRootMotionFrameSize + 4 * std::size_t(i));
    if (!valid(v)) return fail("root motion of frame " + std::to_string(f) + " is not finite or leaves the ground plane");
    if (f == 0 && (v[0] != 0.f || v[1] != 0.f || v[2] != 0.f || v[3] != 0.f)) return fail("root motion of frame 0 is not zero");
  }
  m_view.m_sections.rootMotion = static_cast<std::uint32_t>(rootMotionSectionSize(m_view.m_frameCount));
  return Status::ok();
}

namespace {

/// Byte offset of a joint's channel in a pose (a Transform array).
std::uint32_t poseOffset(std::uint32_t joint, Channel channel) {
  const std::size_t channelOffset = channel == Channel::Rotation      ? offsetof(Transform, rotation)
                                    : channel == Channel::Translation ? offsetof(Transform, translation)
                                                                      : offsetof(Transform, scale);
  return static_cast<std::uint32_t>(joint * sizeof(Transform) + channelOffset);
}

}  // namespace

void ClipView::buildUniformBatches() {
  using Shape = UniformBatch::Shape;
  auto shapeOf = [](const UniformTrackInfo& t) {
    return t.channel != Channel::Rotation ? Shape::Vector : t.components == 4 ? Shape::Rotation4 : Shape::Rotation;
  };
  m_slots.assign(m_uniform.size(), UniformSlot{});
  // Each lane decodes as its track alone, so the order of tracks in batches does not change a pose:
  // by shape, and rotations relative to a reference after the others, so the others' batches skip
  // the reference product.
  auto rank = [&](std::uint32_t t) {
    const Shape shape = shapeOf(m_uniform[t]);
    return shape == Shape::Rotation ? (m_uniform[t].hasReference ? 1 : 0) : shape == Shape::Rotation4 ? 2 : 3;
  };
  std::vector<std::uint32_t> order(m_uniform.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) { return rank(x) < rank(y); });
  for (const std::uint32_t t : order) {
    const UniformTrackInfo& info = m_uniform[t];
    const Shape shape = shapeOf(info);
    if (m_batches.empty() || m_batches.back().shape != shape || m_batches.back().lanes == 4) {
      m_batches.emplace_back();
      m_batches.back().shape = shape;
      m_batches.back().components = shape == Shape::Rotation4 ? 4 : 3;
    }
    UniformBatch& b = m_batches.back();
    m_slots[t] = {static_cast<std::uint32_t>(m_batches.size() - 1), b.lanes};
    // Fill this lane and every lane after it: a partial batch repeats its last track.
    for (unsigned l = b.lanes; l < 4; ++l) {
      b.track[l] = t;
      b.outOffset[l] = poseOffset(info.joint, info.channel);
      b.step[l] = info.step;
      const Quat ref = info.hasReference ? info.reference : Quat{};
      const float refParts[4] = {ref.x, ref.y, ref.z, ref.w};
      b.hasReference[l] = info.hasReference ? ~0u : 0u;
      b.relative = b.relative || info.hasReference;
      b.boundaryOffset[l] = info.boundaryBitOffset;
      unsigned shift = 0;
      for (unsigned c = 0; c < 4; ++c) {
        b.minValue[c][l] = info.minValue[c];
        b.reference[c][l] = refParts[c];
        b.boundaryShift[c][l] = static_cast<std::uint8_t>(shift);
        b.boundaryMask[c][l] = info.width[c] >= 32 ? 0xffffffffu : (1u << info.width[c]) - 1u;
        shift += info.width[c];
      }
      if (shift > 56) b.wideBoundary = true;
    }
    ++b.lanes;
  }
}

void ClipView::buildKeyedBatches() {
  using Shape = UniformBatch::Shape;
  for (const bool rotations : {true, false})
    for (std::uint32_t t = 0; t < m_keyed.size(); ++t) {
      if ((m_keyed[t].channel == Channel::Rotation) != rotations) continue;
      const Shape shape = rotations ? Shape::Rotation4 : Shape::Vector;
      if (m_keyedBatches.empty() || m_keyedBatches.back().shape != shape || m_keyedBatches.back().lanes == 4) {
        m_keyedBatches.emplace_back();
        m_keyedBatches.back().shape = shape;
        m_keyedBatches.back().components = rotations ? 4 : 3;
      }
      UniformBatch& b = m_keyedBatches.back();
      // As for uniform batches, a partial batch repeats its last track in the lanes after it.
      for (unsigned l = b.lanes; l < 4; ++l) {
        b.track[l] = t;
        b.outOffset[l] = poseOffset(m_keyed[t].joint, m_keyed[t].channel);
      }
      ++b.lanes;
    }
}

std::size_t ClipView::derivedBytes() const {
  return sizeof(*this) + m_kinds.capacity() * sizeof(TrackKind) + (m_basePose.capacity() + m_restPose.capacity()) * sizeof(Transform) +
         m_uniform.capacity() * sizeof(UniformTrackInfo) + m_batches.capacity() * sizeof(UniformBatch) + m_slots.capacity() * sizeof(UniformSlot) +
         m_keyed.capacity() * sizeof(KeyedTrackInfo) + m_raw.capacity() * sizeof(RawTrackInfo) + m_keyedSlot.capacity() * sizeof(std::int32_t) +
         (m_segmentOffsets.capacity() + m_residualBases.capacity()) * sizeof(std::uint32_t) + m_rows.capacity() * sizeof(float) + m_snapshots.capacity() * sizeof(Snapshot) +
         m_keyTimes.capacity() * sizeof(float) + m_keyValues.capacity() * sizeof(KeyValue) + m_keyedBatches.capacity() * sizeof(UniformBatch) +
         m_trackKeyOffsets.capacity() * sizeof(std::uint32_t);
}

/// Boundary rows as floats, once per clip: a seek then reads its segment's rows directly instead of
/// unpacking four rows per batch. Padded row i is row clamp(i - 1, 0, M), so that segment k's rows
/// k-1 .. k+2 with their repeated endpoints are padded rows k .. k+3.
void ClipView::decodeBoundaryRows() {
  m_rowFloats = 0;
  for (UniformBatch& b : m_batches) {
    b.rowOffset = m_rowFloats;
    m_rowFloats += 4u * b.components;
  }
  if (m_segmentCount == 0) return;
  m_rows.assign(std::size_t(m_segmentCount + 3) * m_rowFloats, 0.f);
  for (std::uint32_t i = 0; i < m_segmentCount + 3; ++i) {
    const std::uint64_t start = std::uint64_t(std::min(i == 0 ? 0u : i - 1, m_segmentCount)) * m_boundaryRowBits;
    float* out = m_rows.data() + std::size_t(i) * m_rowFloats;
    for (const UniformBatch& b : m_batches)
      for (unsigned c = 0; c < b.components; ++c)
        for (unsigned l = 0; l < 4; ++l) {
          const UniformTrackInfo& t = m_uniform[b.track[l]];
          // uint32 -> float rounds to nearest: what both lane implementations' fromUint give.
          out[b.rowOffset + 4 * c + l] = static_cast<float>(readBits(m_boundary, start + t.boundaryBitOffset + b.boundaryShift[c][l], t.width[c]));
        }
  }
}

Expected<ClipView> ClipView::open(std::span<const std::uint8_t> blob, std::span<const Transform> restPose) {
  static std::atomic<std::uint64_t> nextId{1};
  ClipView view;
  view.m_id = nextId++;
  view.m_blob = blob;
  ClipViewReader reader(blob, view);
  if (auto st = reader.header(restPose); !st) return Error{st.message()};
  // Each stage needs the ones before it; stop at the first failure.
  Status (ClipViewReader::*stages[])() = {&ClipViewReader::kinds,        &ClipViewReader::constants,  &ClipViewReader::keyedParams,
                                          &ClipViewReader::uniformParams, &ClipViewReader::keys,       &ClipViewReader::snapshots,
                                          &ClipViewReader::rawSamples,    &ClipViewReader::uniformData, &ClipViewReader::padding,
                                          &ClipViewReader::rootMotion};
  for (auto stage : stages)
    if (auto st = (reader.*stage)(); !st) return Error{st.message()};
  view.buildUniformBatches();
  view.buildKeyedBatches();
  view.decodeBoundaryRows();
  return view;
}

}  // namespace animpack::runtime
