#include "core/runtime/clip_view.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "core/runtime/quantize.h"

namespace animpack::runtime {
namespace {

Error fail(const std::string& what) { return Error{"corrupt clip data: " + what}; }

bool finite3(const float v[3]) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

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

Expected<ClipView> ClipView::open(std::span<const std::uint8_t> blob, std::span<const Transform> restPose) {
  const Reader r{blob};
  if (!r.has(0, kClipHeaderSize)) return fail("clip is " + std::to_string(blob.size()) + " bytes, shorter than its header");
  using H = ClipHeaderLayout;
  static std::atomic<std::uint64_t> nextId{1};
  ClipView view;
  view.m_id = nextId++;
  view.m_blob = blob;
  view.m_frameCount = r.at<std::uint32_t>(H::frameCount);
  view.m_sampleRate = r.at<float>(H::sampleRate);
  const std::uint32_t jointCount = r.at<std::uint16_t>(H::jointCount);
  view.m_segmentLength = r.at<std::uint16_t>(H::segmentLength);
  view.m_flags = r.at<std::uint16_t>(H::flags);
  const std::uint32_t uniformCount = r.at<std::uint16_t>(H::uniformTrackCount);
  const std::uint32_t keyedCount = r.at<std::uint16_t>(H::keyedTrackCount);
  view.m_keyCount = r.at<std::uint32_t>(H::keyCount);
  const std::uint32_t snapshotCount = r.at<std::uint32_t>(H::snapshotCount);
  const std::uint32_t totalSize = r.at<std::uint32_t>(H::totalSize);

  if (totalSize != blob.size())
    return fail("clip header says " + std::to_string(totalSize) + " bytes but " + std::to_string(blob.size()) + " are present");
  if (r.at<std::uint16_t>(H::reserved) != 0) return fail("reserved header field is not zero");
  if (jointCount == 0 || jointCount > kMaxJoints) return fail("joint count " + std::to_string(jointCount) + " out of range");
  if (jointCount != restPose.size())
    return fail("clip has " + std::to_string(jointCount) + " joints, the skeleton " + std::to_string(restPose.size()));
  if (view.m_frameCount == 0) return fail("frame count is 0");
  if (!(view.m_sampleRate > 0.f) || !std::isfinite(view.m_sampleRate) || view.m_sampleRate > 1e5f)
    return fail("sample rate out of range");
  if ((view.m_flags & ~kClipFlagLoop) != 0) return fail("unknown clip flags");
  if ((uniformCount > 0) != (view.m_segmentLength > 0)) return fail("segment length and uniform tracks disagree");

  // Sections follow each other, each at a multiple of 4 bytes (FORMAT.md).
  std::uint64_t pos = kClipHeaderSize;
  auto section = [&](std::uint64_t size, const char* what, std::uint32_t& sizeOut) -> Status {
    pos = align4(static_cast<std::uint32_t>(pos));
    if (!r.has(pos, size)) return fail(std::string(what) + " out of bounds");
    sizeOut = static_cast<std::uint32_t>(size);
    return Status::ok();
  };

  // Track kinds (nibbles).
  if (auto st = section(kindBytes(jointCount), "track kinds", view.m_sections.kinds); !st) return Error{st.message()};
  view.m_kinds.resize(std::size_t(jointCount) * 3);
  std::uint32_t seenUniform = 0, seenKeyed = 0;
  for (std::size_t i = 0; i < view.m_kinds.size(); ++i) {
    const std::uint8_t k = (blob[pos + i / 2] >> ((i & 1) * 4)) & 15u;
    if (k >= kTrackKindCount) return fail("unknown track kind " + std::to_string(k));
    const TrackKind kind = static_cast<TrackKind>(k);
    const Channel channel = static_cast<Channel>(i % 3);
    if ((kind == TrackKind::ConstantQ32 || kind == TrackKind::ConstantFloat) && channel != Channel::Rotation)
      return fail("rotation-only track kind on a vector channel");
    if (kind == TrackKind::Keyed) {
      if (view.m_frameCount < 2 || view.m_frameCount > kMaxKeyedFrames) return fail("keyed track in a clip of unsupported length");
      ++seenKeyed;
    }
    if (kind == TrackKind::Uniform) {
      if (view.m_frameCount < 2) return fail("uniform track in a one-frame clip");
      ++seenUniform;
    }
    view.m_kinds[i] = kind;
  }
  if ((view.m_kinds.size() & 1) && (blob[pos + view.m_kinds.size() / 2] >> 4) != 0) return fail("kind padding is not zero");
  if (seenUniform != uniformCount || seenKeyed != keyedCount) return fail("track counts disagree with track kinds");
  view.m_segmentCount = uniformCount > 0 ? uniformSegmentCount(view.m_frameCount, view.m_segmentLength) : 0;
  pos += view.m_sections.kinds;

  // Constants: decoded into the base pose.
  view.m_basePose.assign(restPose.begin(), restPose.end());
  view.m_restPose = view.m_basePose;
  pos = align4(static_cast<std::uint32_t>(pos));
  const std::uint64_t constantsStart = pos;
  for (std::uint32_t j = 0; j < jointCount; ++j) {
    for (int c = 0; c < kChannelCount; ++c) {
      const TrackKind kind = view.m_kinds[j * 3 + c];
      const std::size_t size = constantSize(kind, Channel(c));
      if (size == 0) continue;
      if (!r.has(pos, size)) return fail("constant of joint " + std::to_string(j) + " out of bounds");
      const std::uint8_t* p = blob.data() + pos;
      Transform& t = view.m_basePose[j];
      if (c == int(Channel::Rotation)) {
        if (kind == TrackKind::Constant) {
          const std::uint16_t v[3] = {loadLE<std::uint16_t>(p), loadLE<std::uint16_t>(p + 2), loadLE<std::uint16_t>(p + 4)};
          t.rotation = unpackQuat48(v);
        } else if (kind == TrackKind::ConstantQ32) {
          t.rotation = unpackQuat32(loadLE<std::uint32_t>(p));
        } else {
          const Quat q{loadLE<float>(p), loadLE<float>(p + 4), loadLE<float>(p + 8), loadLE<float>(p + 12)};
          if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z) || !std::isfinite(q.w) ||
              std::fabs(dot(q, q) - 1.f) > 1e-3f)
            return fail("constant rotation of joint " + std::to_string(j) + " is not a unit quaternion");
          t.rotation = normalized(q);
        }
      } else {
        const float v[3] = {loadLE<float>(p), loadLE<float>(p + 4), loadLE<float>(p + 8)};
        if (!finite3(v)) return fail("constant of joint " + std::to_string(j) + " is not finite");
        (c == int(Channel::Translation) ? t.translation : t.scale) = {v[0], v[1], v[2]};
      }
      pos += size;
    }
  }
  view.m_sections.constants = static_cast<std::uint32_t>(pos - constantsStart);

  // Keyed track parameters, in (joint, channel) order.
  view.m_keyedSlot.assign(view.m_kinds.size(), -1);
  pos = align4(static_cast<std::uint32_t>(pos));
  const std::uint64_t keyedStart = pos;
  for (std::uint32_t i = 0; i < view.m_kinds.size(); ++i) {
    if (view.m_kinds[i] != TrackKind::Keyed) continue;
    KeyedTrackInfo info;
    info.joint = i / 3;
    info.channel = Channel(i % 3);
    const std::size_t size = info.channel == Channel::Rotation ? kKeyedRotationParamSize : kKeyedVectorParamSize;
    if (!r.has(pos, size)) return fail("keyed track parameters out of bounds");
    if (r.at<std::uint16_t>(pos) != info.joint || r.at<std::uint8_t>(pos + 2) != std::uint8_t(info.channel) ||
        r.at<std::uint8_t>(pos + 3) != 0)
      return fail("keyed track parameters out of order");
    if (info.channel != Channel::Rotation) {
      for (int c = 0; c < 3; ++c) {
        info.minValue[c] = r.at<float>(pos + 4 + 4 * c);
        info.extent[c] = r.at<float>(pos + 16 + 4 * c);
        if (!std::isfinite(info.minValue[c]) || !std::isfinite(info.extent[c]) || info.extent[c] < 0.f)
          return fail("keyed track range is not finite");
      }
    }
    view.m_keyedSlot[i] = static_cast<std::int32_t>(view.m_keyed.size());
    view.m_keyed.push_back(info);
    pos += size;
  }
  view.m_sections.keyedParams = static_cast<std::uint32_t>(pos - keyedStart);

  // Uniform track parameters.
  pos = align4(static_cast<std::uint32_t>(pos));
  const std::uint64_t uniformStart = pos;
  std::uint64_t rowBits = 0;
  for (std::uint32_t i = 0; i < view.m_kinds.size(); ++i) {
    if (view.m_kinds[i] != TrackKind::Uniform) continue;
    UniformTrackInfo info;
    info.joint = i / 3;
    info.channel = Channel(i % 3);
    if (!r.has(pos, kUniformParamSize)) return fail("uniform track parameters out of bounds");
    if (r.at<std::uint16_t>(pos) != info.joint || r.at<std::uint8_t>(pos + 2) != std::uint8_t(info.channel))
      return fail("uniform track parameters out of order");
    const std::uint8_t flags = r.at<std::uint8_t>(pos + 3);
    if ((flags & ~(kUniformFlagReference | kUniformFlagFourComponents)) != 0) return fail("unknown uniform track flags");
    info.hasReference = (flags & kUniformFlagReference) != 0;
    info.components = (flags & kUniformFlagFourComponents) ? 4 : 3;
    if (info.channel != Channel::Rotation && (info.hasReference || info.components == 4))
      return fail("rotation flags on a vector track");
    if (info.hasReference && info.components == 4) return fail("a four-component rotation has no reference");
    info.step = r.at<float>(pos + 16);
    if (!std::isfinite(info.step) || info.step < 0.f) return fail("uniform track step is not finite");
    for (int c = 0; c < 4; ++c) {
      info.width[c] = r.at<std::uint8_t>(pos + 20 + c);
      if (info.width[c] > kMaxBoundaryBits) return fail("uniform boundary width above 32 bits");
    }
    for (int c = 0; c < 3; ++c) {
      info.minValue[c] = r.at<float>(pos + 4 + 4 * c);
      if (!std::isfinite(info.minValue[c])) return fail("uniform track range is not finite");
    }
    if (info.components == 3 && info.width[3] != 0) return fail("a three-component track has a fourth width");
    info.boundaryBitOffset = static_cast<std::uint32_t>(rowBits);
    rowBits += std::uint64_t(info.width[0]) + info.width[1] + info.width[2] + info.width[3];
    pos += kUniformParamSize;
    if (info.components == 4) {
      if (!r.has(pos, 4)) return fail("uniform track parameters out of bounds");
      info.minValue[3] = r.at<float>(pos);
      if (!std::isfinite(info.minValue[3])) return fail("uniform track range is not finite");
      pos += 4;
    }
    if (info.hasReference) {
      if (!r.has(pos, kUniformRefSize)) return fail("uniform reference rotation out of bounds");
      const Quat q{r.at<float>(pos), r.at<float>(pos + 4), r.at<float>(pos + 8), r.at<float>(pos + 12)};
      if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z) || !std::isfinite(q.w) ||
          std::fabs(dot(q, q) - 1.f) > 1e-3f)
        return fail("uniform reference rotation is not a unit quaternion");
      info.reference = q;
      pos += kUniformRefSize;
    }
    view.m_uniform.push_back(info);
  }
  view.m_sections.uniformParams = static_cast<std::uint32_t>(pos - uniformStart);

  // Keys: bounds, joint indices, per-track increasing times from 0 to the last frame, need-time order.
  if (auto st = section(std::uint64_t(view.m_keyCount) * kKeySize, "key stream", view.m_sections.keys); !st) return Error{st.message()};
  view.m_keys = blob.data() + pos;
  pos += view.m_sections.keys;
  if (keyedCount == 0 && view.m_keyCount != 0) return fail("keys without keyed tracks");
  std::vector<std::uint32_t> keyCountPerTrack(view.m_keyed.size(), 0);
  std::vector<std::uint32_t> last(view.m_keyed.size() * 2, 0);  // two newest key times per track
  std::vector<std::uint32_t> need(view.m_keyCount);
  std::vector<std::vector<std::uint32_t>> positions(view.m_keyed.size());
  std::uint32_t previousNeed = 0;
  for (std::uint32_t i = 0; i < view.m_keyCount; ++i) {
    const std::uint8_t* key = view.m_keys + std::size_t(i) * kKeySize;
    const std::uint32_t frame = loadLE<std::uint16_t>(key);
    const std::uint16_t jc = loadLE<std::uint16_t>(key + 2);
    const std::uint32_t joint = jc & 0x3fffu, channel = jc >> 14;
    if (joint >= jointCount || channel >= 3)
      return fail("key " + std::to_string(i) + " names joint " + std::to_string(joint) + " channel " + std::to_string(channel));
    const std::int32_t slot = view.m_keyedSlot[joint * 3 + channel];
    if (slot < 0) return fail("key " + std::to_string(i) + " belongs to a track that is not keyed");
    std::uint32_t& n = keyCountPerTrack[std::size_t(slot)];
    if (frame >= view.m_frameCount) return fail("key " + std::to_string(i) + " is past the last frame");
    if (n == 0 && frame != 0) return fail("a keyed track does not start at frame 0");
    if (n > 0 && frame <= last[std::size_t(slot) * 2 + 1]) return fail("key times of a track do not increase");
    const std::uint32_t needFrame = n >= 2 ? last[std::size_t(slot) * 2] : 0;
    if (needFrame < previousNeed) return fail("key stream is not sorted by need time at key " + std::to_string(i));
    previousNeed = needFrame;
    need[i] = needFrame;
    last[std::size_t(slot) * 2] = last[std::size_t(slot) * 2 + 1];
    last[std::size_t(slot) * 2 + 1] = frame;
    positions[std::size_t(slot)].push_back(i);
    ++n;
  }
  for (std::size_t s = 0; s < view.m_keyed.size(); ++s) {
    if (keyCountPerTrack[s] < 2 || last[s * 2 + 1] != view.m_frameCount - 1)
      return fail("a keyed track does not end at the last frame");
  }

  // Snapshots: strictly increasing frames starting at 0, replay ranges that really rebuild the windows.
  if (auto st = section(std::uint64_t(snapshotCount) * kSnapshotSize, "snapshots", view.m_sections.snapshots); !st) return Error{st.message()};
  if (keyedCount > 0 && snapshotCount == 0) return fail("keyed tracks without a snapshot");
  if (keyedCount == 0 && snapshotCount != 0) return fail("snapshots without keyed tracks");
  if (snapshotCount > view.m_frameCount) return fail("more snapshots than frames");
  view.m_snapshots.resize(snapshotCount);
  for (std::uint32_t s = 0; s < snapshotCount; ++s) {
    Snapshot& snap = view.m_snapshots[s];
    const std::uint64_t p = pos + std::uint64_t(s) * kSnapshotSize;
    snap.frame = r.at<std::uint32_t>(p);
    snap.replayStart = r.at<std::uint32_t>(p + 4);
    snap.replayEnd = r.at<std::uint32_t>(p + 8);
    if (s == 0 ? snap.frame != 0 : snap.frame <= view.m_snapshots[s - 1].frame) return fail("snapshot frames out of order");
    if (snap.frame >= view.m_frameCount) return fail("snapshot past the last frame");
    const auto end = std::upper_bound(need.begin(), need.end(), snap.frame) - need.begin();
    if (snap.replayEnd != std::uint32_t(end) || snap.replayStart > snap.replayEnd)
      return fail("snapshot " + std::to_string(s) + " replay range is wrong");
    for (const auto& trackPositions : positions) {
      const auto consumed = std::lower_bound(trackPositions.begin(), trackPositions.end(), snap.replayEnd) - trackPositions.begin();
      const auto first = consumed >= 4 ? consumed - 4 : 0;
      if (consumed > 0 && trackPositions[std::size_t(first)] < snap.replayStart)
        return fail("snapshot " + std::to_string(s) + " replays too little");
    }
  }
  pos += view.m_sections.snapshots;

  if (uniformCount > 0) {
    // Segment table, boundary rows (segmentCount + 1 rows of rowBits bits), segment data.
    if (rowBits > 0xffffffffu) return fail("boundary rows too wide");
    view.m_boundaryRowBits = static_cast<std::uint32_t>(rowBits);
    if (auto st = section(std::uint64_t(view.m_segmentCount + 1) * 4, "segment table", view.m_sections.segmentTable); !st)
      return Error{st.message()};
    view.m_segmentOffsets.resize(view.m_segmentCount + 1);
    for (std::uint32_t k = 0; k <= view.m_segmentCount; ++k) view.m_segmentOffsets[k] = r.at<std::uint32_t>(pos + 4 * k);
    pos += view.m_sections.segmentTable;
    if (auto st = section((std::uint64_t(view.m_segmentCount + 1) * rowBits + 7) / 8, "boundary rows", view.m_sections.boundaries); !st)
      return Error{st.message()};
    view.m_boundary = blob.data() + pos;
    pos += view.m_sections.boundaries;
    if (view.m_segmentOffsets[0] != 0) return fail("first segment does not start at 0");
    if (auto st = section(view.m_segmentOffsets[view.m_segmentCount], "segment data", view.m_sections.segmentData); !st)
      return Error{st.message()};
    view.m_segmentData = blob.data() + pos;
    pos += view.m_sections.segmentData;
    // Offsets must not decrease: then every segment lies inside the section (which ends at the last).
    for (std::uint32_t k = 0; k < view.m_segmentCount; ++k)
      if (view.m_segmentOffsets[k + 1] < view.m_segmentOffsets[k]) return fail("segment offsets decrease");
    for (std::uint32_t k = 0; k < view.m_segmentCount; ++k) {
      const std::uint64_t begin = view.m_segmentOffsets[k], end = view.m_segmentOffsets[k + 1];
      const std::uint64_t headerBytes = std::uint64_t(uniformCount) * kSegmentHeaderBytesPerTrack;
      if (end - begin < headerBytes) return fail("segment " + std::to_string(k) + " shorter than its header");
      const std::uint8_t* seg = view.m_segmentData + begin;
      std::uint64_t bits = 0;
      for (std::uint32_t t = 0; t < uniformCount; ++t) {
        const std::uint32_t h = seg[3 * t] | (std::uint32_t(seg[3 * t + 1]) << 8) | (std::uint32_t(seg[3 * t + 2]) << 16);
        const unsigned b0 = h & 31u, b1 = (h >> 5) & 31u, b2 = (h >> 10) & 31u, b3 = (h >> 19) & 31u;
        if (view.m_uniform[t].components == 3 && b3 != 0) return fail("segment header has unknown bits");
        bits += std::uint64_t(view.segmentFrames(k)) * (b0 + b1 + b2 + b3);
      }
      if (headerBytes + (bits + 7) / 8 != end - begin)
        return fail("segment " + std::to_string(k) + " size disagrees with its bit rates");
    }
  }

  // With uniform tracks, trailing zero padding keeps every 8-byte bit read inside the clip.
  const std::uint32_t padding = uniformCount > 0 ? kBitPadding : 0;
  if (pos + padding != blob.size()) return fail("clip size disagrees with its sections");
  for (std::uint64_t i = pos; i < blob.size(); ++i)
    if (blob[i] != 0) return fail("clip padding is not zero");
  view.m_sections.padding = padding;
  view.m_sections.header = kClipHeaderSize;
  return view;
}

}  // namespace animpack::runtime
