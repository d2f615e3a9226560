#include "core/io/legacy.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/runtime/bits.h"
#include "core/io/clip_builder.h"
#include "core/runtime/clip_format.h"
#include "core/runtime/math.h"

namespace animpack::runtime {
namespace {

Error fail(const std::string& what) { return Error{"corrupt clip data: " + what}; }

bool finite3(const float v[3]) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

bool unitQuat(float x, float y, float z, float w) {
  return std::isfinite(x) && std::isfinite(y) && std::isfinite(z) && std::isfinite(w) &&
         std::fabs(x * x + y * y + z * z + w * w - 1.f) <= 1e-3f;
}

/// Storage behind the BlockTracks of one legacy clip.
struct TrackData {
  std::vector<std::uint16_t> keyFrames;
  std::vector<std::array<std::uint16_t, 3>> keyPayloads;
  std::vector<std::array<std::uint32_t, 4>> boundaries;
  std::vector<std::uint8_t> shifts;
  std::vector<std::array<std::uint8_t, 4>> bits;
  std::vector<BlockTrack::BitRun> residualRuns;
  std::vector<std::array<float, 4>> raw;
};

/// Reads a legacy clip section by section (the layout of FORMAT.md before version 5).
class LegacyReader {
 public:
  LegacyReader(std::span<const std::uint8_t> blob, std::uint32_t joints) : m_blob(blob), m_joints(joints) {}
  Expected<std::vector<std::uint8_t>> run();

 private:
  template <typename T>
  T at(std::uint64_t offset) const {
    return loadLE<T>(m_blob.data() + offset);
  }
  bool has(std::uint64_t offset, std::uint64_t size) const {
    return offset <= m_blob.size() && size <= m_blob.size() - offset;
  }
  Status section(std::uint64_t size, const char* what) {
    m_pos = align4(static_cast<std::uint32_t>(m_pos));
    return has(m_pos, size) ? Status::ok() : Status(fail(std::string(what) + " out of bounds"));
  }
  Status header();
  Status kinds();
  Status constants();
  Status keyedParams();
  Status uniformParams();
  Status keys();
  Status snapshots();
  Status rawSamples();
  Status uniformData();
  Status tail();

  std::span<const std::uint8_t> m_blob;
  std::uint32_t m_joints;
  std::uint64_t m_pos = kClipHeaderSize;
  BlockClip m_clip;
  std::vector<BlockTrack> m_tracks;
  std::vector<TrackData> m_data;
  std::vector<std::uint32_t> m_keyed, m_uniform;  // sub-tracks in stored order
  std::uint32_t m_uniformCount = 0, m_keyedCount = 0, m_rawCount = 0, m_keyCount = 0, m_snapshotCount = 0;
  std::vector<std::uint32_t> m_need;
  std::vector<std::uint64_t> m_rowOffsets;
  std::uint64_t m_rowBits = 0;
  std::span<const std::uint8_t> m_rootMotion;
};

Status LegacyReader::header() {
  if (!has(0, kClipHeaderSize))
    return fail("clip is " + std::to_string(m_blob.size()) + " bytes, shorter than its header");
  using H = ClipHeaderLayout;
  m_clip.frameCount = at<std::uint32_t>(H::frameCount);
  m_clip.sampleRate = at<float>(H::sampleRate);
  const std::uint32_t joints = at<std::uint16_t>(H::jointCount);
  m_clip.segmentLength = at<std::uint16_t>(H::segmentLength);
  m_clip.flags = at<std::uint16_t>(H::flags);
  m_uniformCount = at<std::uint16_t>(H::uniformTrackCount);
  m_keyedCount = at<std::uint16_t>(H::keyedTrackCount);
  m_rawCount = at<std::uint16_t>(H::rawTrackCount);
  m_keyCount = at<std::uint32_t>(H::keyCount);
  m_snapshotCount = at<std::uint32_t>(H::snapshotCount);
  if (at<std::uint32_t>(H::totalSize) != m_blob.size())
    return fail("clip header says " + std::to_string(at<std::uint32_t>(H::totalSize)) + " bytes but " +
                std::to_string(m_blob.size()) + " are present");
  if (joints == 0 || joints > kMaxJoints) return fail("joint count " + std::to_string(joints) + " out of range");
  if (joints != m_joints)
    return fail("clip has " + std::to_string(joints) + " joints, the skeleton " + std::to_string(m_joints));
  if (m_clip.frameCount == 0) return fail("frame count is 0");
  if (!(m_clip.sampleRate > 0.f) || !std::isfinite(m_clip.sampleRate) || m_clip.sampleRate > 1e5f)
    return fail("sample rate out of range");
  const std::uint16_t flags = m_clip.flags;
  if ((flags & ~kClipFlagsV3) != 0) return fail("unknown clip flags");
  if ((flags & kClipFlagWrap) && !(flags & kClipFlagLoop)) return fail("wrap flag without the loop flag");
  if ((flags & kClipFlagWrap) && m_clip.frameCount < 2) return fail("a wrapping clip needs two frames");
  if ((flags & kClipFlagDroppedLast) && !(flags & kClipFlagWrap))
    return fail("dropped-last-frame flag without the wrap flag");
  if ((m_uniformCount > 0) != (m_clip.segmentLength > 0)) return fail("segment length and uniform tracks disagree");
  m_clip.flags = static_cast<std::uint16_t>(flags & ~kClipFlagRootMotion);  // buildClip sets it again with the section
  m_tracks.assign(std::size_t(joints) * 3, BlockTrack{});
  m_data.assign(std::size_t(joints) * 3, TrackData{});
  return Status::ok();
}

Status LegacyReader::kinds() {
  if (auto st = section(kindBytes(m_joints), "track kinds"); !st) return st;
  std::uint32_t uniform = 0, keyed = 0, raw = 0;
  for (std::uint32_t i = 0; i < m_tracks.size(); ++i) {
    const std::uint8_t k = (m_blob[m_pos + i / 2] >> ((i & 1) * 4)) & 15u;
    if (k >= kTrackKindCount || k == std::uint8_t(TrackKind::Timed) || k == std::uint8_t(TrackKind::Segmented))
      return fail("unknown track kind " + std::to_string(k));
    const TrackKind kind = static_cast<TrackKind>(k);
    if ((kind == TrackKind::ConstantQ32 || kind == TrackKind::ConstantFloat) && Channel(i % 3) != Channel::Rotation)
      return fail("rotation-only track kind on a vector channel");
    if (kind == TrackKind::Keyed && (m_clip.frameCount < 2 || m_clip.frameCount > kMaxKeyedFrames))
      return fail("keyed track in a clip of unsupported length");
    if (kind == TrackKind::Uniform && m_clip.frameCount < 2) return fail("uniform track in a one-frame clip");
    uniform += kind == TrackKind::Uniform;
    keyed += kind == TrackKind::Keyed;
    raw += kind == TrackKind::Raw;
    m_tracks[i].kind = kind;
  }
  if ((m_tracks.size() & 1) && (m_blob[m_pos + m_tracks.size() / 2] >> 4) != 0) return fail("kind padding is not zero");
  if (uniform != m_uniformCount || keyed != m_keyedCount || raw != m_rawCount)
    return fail("track counts disagree with track kinds");
  m_pos += kindBytes(m_joints);
  return Status::ok();
}

Status LegacyReader::constants() {
  m_pos = align4(static_cast<std::uint32_t>(m_pos));
  for (std::uint32_t i = 0; i < m_tracks.size(); ++i) {
    const std::uint32_t size = constantSize(m_tracks[i].kind, Channel(i % 3));
    if (size == 0) continue;
    if (!has(m_pos, size)) return fail("constant of joint " + std::to_string(i / 3) + " out of bounds");
    std::copy_n(m_blob.data() + m_pos, size, m_tracks[i].constant.begin());
    if (m_tracks[i].kind == TrackKind::ConstantFloat &&
        !unitQuat(at<float>(m_pos), at<float>(m_pos + 4), at<float>(m_pos + 8), at<float>(m_pos + 12)))
      return fail("constant rotation of joint " + std::to_string(i / 3) + " is not a unit quaternion");
    if (m_tracks[i].kind == TrackKind::Constant && i % 3 != 0) {
      const float x[3] = {at<float>(m_pos), at<float>(m_pos + 4), at<float>(m_pos + 8)};
      if (!finite3(x)) return fail("constant of joint " + std::to_string(i / 3) + " is not finite");
    }
    m_pos += size;
  }
  return Status::ok();
}

Status LegacyReader::keyedParams() {
  m_pos = align4(static_cast<std::uint32_t>(m_pos));
  for (std::uint32_t i = 0; i < m_tracks.size(); ++i) {
    if (m_tracks[i].kind != TrackKind::Keyed) continue;
    const bool rotation = i % 3 == 0;
    const std::uint32_t size = rotation ? kLegacyKeyedRotationParamSize : kLegacyKeyedVectorParamSize;
    if (!has(m_pos, size)) return fail("keyed track parameters out of bounds");
    if (at<std::uint16_t>(m_pos) != i / 3 || at<std::uint8_t>(m_pos + 2) != i % 3 || at<std::uint8_t>(m_pos + 3) != 0)
      return fail("keyed track parameters out of order");
    if (!rotation)
      for (int c = 0; c < 3; ++c) {
        m_tracks[i].rangeMin[c] = at<float>(m_pos + 4 + 4 * std::uint64_t(c));
        m_tracks[i].rangeExtent[c] = at<float>(m_pos + 16 + 4 * std::uint64_t(c));
        if (!std::isfinite(m_tracks[i].rangeMin[c]) || !std::isfinite(m_tracks[i].rangeExtent[c]) ||
            m_tracks[i].rangeExtent[c] < 0.f)
          return fail("keyed track range is not finite");
      }
    m_keyed.push_back(i);
    m_pos += size;
  }
  return Status::ok();
}

Status LegacyReader::uniformParams() {
  m_pos = align4(static_cast<std::uint32_t>(m_pos));
  for (std::uint32_t i = 0; i < m_tracks.size(); ++i) {
    if (m_tracks[i].kind != TrackKind::Uniform) continue;
    BlockTrack& t = m_tracks[i];
    if (!has(m_pos, kUniformParamSize)) return fail("uniform track parameters out of bounds");
    if (at<std::uint16_t>(m_pos) != i / 3 || at<std::uint8_t>(m_pos + 2) != i % 3)
      return fail("uniform track parameters out of order");
    t.uniformFlags = at<std::uint8_t>(m_pos + 3);
    if ((t.uniformFlags & ~(kUniformFlagReference | kUniformFlagFourComponents)) != 0)
      return fail("unknown uniform track flags");
    const bool reference = (t.uniformFlags & kUniformFlagReference) != 0,
               four = (t.uniformFlags & kUniformFlagFourComponents) != 0;
    if (i % 3 != 0 && (reference || four)) return fail("rotation flags on a vector track");
    if (reference && four) return fail("a four-component rotation has no reference");
    t.step = at<float>(m_pos + 16);
    if (!std::isfinite(t.step) || t.step < 0.f) return fail("uniform track step is not finite");
    for (int c = 0; c < 4; ++c) {
      t.width[c] = at<std::uint8_t>(m_pos + 20 + std::uint64_t(c));
      if (t.width[c] > kMaxBoundaryBits) return fail("uniform boundary width above 32 bits");
    }
    for (int c = 0; c < 3; ++c) {
      t.minValue[c] = at<float>(m_pos + 4 + 4 * std::uint64_t(c));
      if (!std::isfinite(t.minValue[c])) return fail("uniform track range is not finite");
    }
    if (!four && t.width[3] != 0) return fail("a three-component track has a fourth width");
    m_rowOffsets.push_back(m_rowBits);
    m_rowBits += std::uint64_t(t.width[0]) + t.width[1] + t.width[2] + t.width[3];
    m_pos += kUniformParamSize;
    if (four) {
      if (!has(m_pos, 4)) return fail("uniform track parameters out of bounds");
      t.minValue[3] = at<float>(m_pos);
      if (!std::isfinite(t.minValue[3])) return fail("uniform track range is not finite");
      m_pos += 4;
    }
    if (reference) {
      if (!has(m_pos, kUniformRefSize)) return fail("uniform reference rotation out of bounds");
      for (int c = 0; c < 4; ++c) t.reference[c] = at<float>(m_pos + 4 * std::uint64_t(c));
      if (!unitQuat(t.reference[0], t.reference[1], t.reference[2], t.reference[3]))
        return fail("uniform reference rotation is not a unit quaternion");
      m_pos += kUniformRefSize;
    }
    m_uniform.push_back(i);
  }
  return Status::ok();
}

/// The need-sorted key stream: each key's track, increasing frames per track from 0 to the last
/// frame, need-time order. Each track's keys are collected in time order.
Status LegacyReader::keys() {
  if (auto st = section(std::uint64_t(m_keyCount) * kLegacyKeySize, "key stream"); !st) return st;
  if (m_keyedCount == 0 && m_keyCount != 0) return fail("keys without keyed tracks");
  std::vector<std::uint32_t> last(m_tracks.size() * 2, 0);  // two newest key times per track
  std::uint32_t previousNeed = 0;
  m_need.resize(m_keyCount);
  for (std::uint32_t i = 0; i < m_keyCount; ++i) {
    const std::uint64_t key = m_pos + std::uint64_t(i) * kLegacyKeySize;
    const std::uint32_t frame = at<std::uint16_t>(key);
    const std::uint16_t jc = at<std::uint16_t>(key + 2);
    const std::uint32_t joint = jc & 0x3fffu, channel = jc >> 14;
    if (joint >= m_joints || channel >= 3)
      return fail("key " + std::to_string(i) + " names joint " + std::to_string(joint) + " channel " +
                  std::to_string(channel));
    const std::uint32_t sub = joint * 3 + channel;
    if (m_tracks[sub].kind != TrackKind::Keyed)
      return fail("key " + std::to_string(i) + " belongs to a track that is not keyed");
    TrackData& d = m_data[sub];
    const std::size_t n = d.keyFrames.size();
    if (frame >= m_clip.frameCount) return fail("key " + std::to_string(i) + " is past the last frame");
    if (n == 0 && frame != 0) return fail("a keyed track does not start at frame 0");
    if (n > 0 && frame <= last[sub * 2 + 1]) return fail("key times of a track do not increase");
    const std::uint32_t need = n >= 2 ? last[sub * 2] : 0;
    if (need < previousNeed) return fail("key stream is not sorted by need time at key " + std::to_string(i));
    previousNeed = need;
    m_need[i] = need;
    last[sub * 2] = last[sub * 2 + 1];
    last[sub * 2 + 1] = frame;
    d.keyFrames.push_back(static_cast<std::uint16_t>(frame));
    d.keyPayloads.push_back({at<std::uint16_t>(key + 4), at<std::uint16_t>(key + 6), at<std::uint16_t>(key + 8)});
  }
  for (const std::uint32_t sub : m_keyed) {
    const TrackData& d = m_data[sub];
    if (d.keyFrames.size() < 2 || d.keyFrames.back() != m_clip.frameCount - 1)
      return fail("a keyed track does not end at the last frame");
    m_tracks[sub].keyFrames = d.keyFrames;
    m_tracks[sub].keyPayloads = d.keyPayloads;
  }
  m_pos += std::uint64_t(m_keyCount) * kLegacyKeySize;
  return Status::ok();
}

/// Snapshots: strictly increasing frames from 0, each replay range ending where its frame's needs
/// end. The current format has none; they are checked and dropped.
Status LegacyReader::snapshots() {
  if (auto st = section(std::uint64_t(m_snapshotCount) * kSnapshotSize, "snapshots"); !st) return st;
  if (m_keyedCount > 0 && m_snapshotCount == 0) return fail("keyed tracks without a snapshot");
  if (m_keyedCount == 0 && m_snapshotCount != 0) return fail("snapshots without keyed tracks");
  if (m_snapshotCount > m_clip.frameCount) return fail("more snapshots than frames");
  std::uint32_t previous = 0;
  for (std::uint32_t s = 0; s < m_snapshotCount; ++s) {
    const std::uint64_t p = m_pos + std::uint64_t(s) * kSnapshotSize;
    const std::uint32_t frame = at<std::uint32_t>(p), start = at<std::uint32_t>(p + 4), end = at<std::uint32_t>(p + 8);
    if (s == 0 ? frame != 0 : frame <= previous) return fail("snapshot frames out of order");
    if (frame >= m_clip.frameCount) return fail("snapshot past the last frame");
    const auto expected = std::upper_bound(m_need.begin(), m_need.end(), frame) - m_need.begin();
    if (end != std::uint32_t(expected) || start > end)
      return fail("snapshot " + std::to_string(s) + " replay range is wrong");
    previous = frame;
  }
  m_pos += std::uint64_t(m_snapshotCount) * kSnapshotSize;
  return Status::ok();
}

Status LegacyReader::rawSamples() {
  std::uint64_t size = 0;
  for (std::uint32_t i = 0; i < m_tracks.size(); ++i)
    if (m_tracks[i].kind == TrackKind::Raw) size += std::uint64_t(m_clip.frameCount) * (i % 3 == 0 ? 16 : 12);
  if (auto st = section(size, "raw samples"); !st) return st;
  for (std::uint32_t i = 0; i < m_tracks.size(); ++i) {
    if (m_tracks[i].kind != TrackKind::Raw) continue;
    const unsigned components = i % 3 == 0 ? 4 : 3;
    TrackData& d = m_data[i];
    for (std::uint32_t f = 0; f < m_clip.frameCount; ++f, m_pos += components * 4) {
      std::array<float, 4> x = {0.f, 0.f, 0.f, 1.f};
      for (unsigned c = 0; c < components; ++c) x[c] = at<float>(m_pos + 4 * c);
      if (!finite3(x.data()) || !std::isfinite(x[3]) || (components == 4 && !unitQuat(x[0], x[1], x[2], x[3])))
        return fail("raw sample " + std::to_string(f) + " of joint " + std::to_string(i / 3) +
                    " is not finite or not a unit rotation");
      if (components == 3) x[3] = 0.f;
      d.raw.push_back(x);
    }
    m_tracks[i].raw = d.raw;
  }
  return Status::ok();
}

/// Segment table, boundary rows and segment data, decoded into each track's integers.
Status LegacyReader::uniformData() {
  if (m_uniformCount == 0) return Status::ok();
  const std::uint32_t segments = uniformSegmentCount(m_clip.frameCount, m_clip.segmentLength);
  if (segments == 0 || std::uint64_t(segments) * m_clip.segmentLength < m_clip.frameCount - 1)
    return fail("uniform segments do not cover the clip's frames");
  if (m_rowBits > 0xffffffffu) return fail("boundary rows too wide");
  if (auto st = section(std::uint64_t(segments + 1) * 4, "segment table"); !st) return st;
  std::vector<std::uint32_t> offsets(segments + 1);
  for (std::uint32_t k = 0; k <= segments; ++k) offsets[k] = at<std::uint32_t>(m_pos + 4 * std::uint64_t(k));
  m_pos += std::uint64_t(segments + 1) * 4;
  const std::uint64_t rowBytes = (std::uint64_t(segments + 1) * m_rowBits + 7) / 8;
  if (auto st = section(rowBytes, "boundary rows"); !st) return st;
  const std::uint64_t rows = m_pos;
  m_pos += rowBytes;
  if (offsets[0] != 0) return fail("first segment does not start at 0");
  if (auto st = section(offsets[segments], "segment data"); !st) return st;
  const std::uint64_t data = m_pos;
  m_pos += offsets[segments];
  // Every read below stays inside the blob: 8 bytes of padding follow the data (checked in tail()).
  if (!has(m_pos, kBitPadding)) return fail("clip size disagrees with its sections");
  for (std::size_t u = 0; u < m_uniform.size(); ++u) {
    TrackData& d = m_data[m_uniform[u]];
    const BlockTrack& t = m_tracks[m_uniform[u]];
    for (std::uint32_t k = 0; k <= segments; ++k) {
      std::array<std::uint32_t, 4> q{};
      std::uint64_t bit = std::uint64_t(k) * m_rowBits + m_rowOffsets[u];
      for (int c = 0; c < 4; ++c) {
        q[std::size_t(c)] = readBits(m_blob.data() + rows, bit, t.width[c]);
        bit += t.width[c];
      }
      d.boundaries.push_back(q);
    }
  }
  // Offsets must not decrease (then every segment lies inside the data), checked before any
  // segment's headers are read.
  for (std::uint32_t k = 0; k < segments; ++k)
    if (offsets[k + 1] < offsets[k]) return fail("segment offsets decrease");
  const std::uint64_t headerBytes = std::uint64_t(m_uniformCount) * kSegmentHeaderBytesPerTrack;
  for (std::uint32_t k = 0; k < segments; ++k) {
    if (offsets[k + 1] - offsets[k] < headerBytes)
      return fail("segment " + std::to_string(k) + " shorter than its header");
    const std::uint8_t* seg = m_blob.data() + data + offsets[k];
    const std::uint32_t frames =
        k + 1 == segments ? m_clip.frameCount - k * m_clip.segmentLength : m_clip.segmentLength;
    std::uint64_t bit = headerBytes * 8;
    for (std::size_t u = 0; u < m_uniform.size(); ++u) {
      TrackData& d = m_data[m_uniform[u]];
      const std::uint32_t h = seg[3 * u] | (std::uint32_t(seg[3 * u + 1]) << 8) | (std::uint32_t(seg[3 * u + 2]) << 16);
      const std::array<std::uint8_t, 4> b = {std::uint8_t(h & 31u), std::uint8_t((h >> 5) & 31u),
                                             std::uint8_t((h >> 10) & 31u), std::uint8_t((h >> 19) & 31u)};
      if ((m_tracks[m_uniform[u]].uniformFlags & kUniformFlagFourComponents) == 0 && b[3] != 0)
        return fail("segment header has unknown bits");
      d.bits.push_back(b);
      d.shifts.push_back(static_cast<std::uint8_t>((h >> 15) & 15u));
      const std::uint64_t trackBits = std::uint64_t(frames) * (b[0] + b[1] + b[2] + b[3]);
      if (bit + trackBits > 8 * std::uint64_t(offsets[k + 1] - offsets[k]))
        return fail("segment " + std::to_string(k) + " size disagrees with its bit rates");
      // The track's residuals of this segment, carried over as packed (frame after frame, x y z w).
      d.residualRuns.push_back({seg, bit});
      bit += trackBits;
    }
    if ((bit + 7) / 8 != offsets[k + 1] - offsets[k])
      return fail("segment " + std::to_string(k) + " size disagrees with its bit rates");
  }
  for (const std::uint32_t sub : m_uniform) {
    const TrackData& d = m_data[sub];
    m_tracks[sub].boundaries = d.boundaries;
    m_tracks[sub].shifts = d.shifts;
    m_tracks[sub].bits = d.bits;
    m_tracks[sub].residualRuns = d.residualRuns;
  }
  return Status::ok();
}

/// The bit padding and the root-motion section (carried over as stored; the current reader checks it).
Status LegacyReader::tail() {
  const std::uint32_t padding = m_uniformCount > 0 ? kBitPadding : 0;
  const bool rootMotion = (at<std::uint16_t>(ClipHeaderLayout::flags) & kClipFlagRootMotion) != 0;
  const std::uint64_t section = rootMotion ? rootMotionSectionSize(m_clip.frameCount) : 0;
  if (m_pos + padding + section != m_blob.size()) return fail("clip size disagrees with its sections");
  for (std::uint64_t i = m_pos; i < m_pos + padding; ++i)
    if (m_blob[i] != 0) return fail("clip padding is not zero");
  m_rootMotion = m_blob.subspan(m_pos + padding, section);
  return Status::ok();
}

Expected<std::vector<std::uint8_t>> LegacyReader::run() {
  if (auto st = header(); !st) return Error{st.message()};
  Status (LegacyReader::*stages[])() = {
      &LegacyReader::kinds,         &LegacyReader::constants,   &LegacyReader::keyedParams,
      &LegacyReader::uniformParams, &LegacyReader::keys,        &LegacyReader::snapshots,
      &LegacyReader::rawSamples,    &LegacyReader::uniformData, &LegacyReader::tail};
  for (auto stage : stages)
    if (auto st = (this->*stage)(); !st) return Error{st.message()};
  m_clip.tracks = m_tracks;
  m_clip.rootMotion = m_rootMotion;
  return buildClip(m_clip);
}

}  // namespace

Expected<std::vector<std::uint8_t>> upgradeClip(std::span<const std::uint8_t> blob, std::uint32_t joints) {
  return LegacyReader(blob, joints).run();
}

}  // namespace animpack::runtime
