#include "core/runtime/clip_view.h"

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "core/runtime/bits.h"
#include "core/runtime/curves.h"
#include "core/runtime/quantize.h"
#include "core/runtime/timed.h"

namespace animpack::runtime {
namespace {

Error fail(const std::string& what) { return Error{"corrupt clip data: " + what}; }

bool finite3(const float v[3]) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

bool unitQuat(const Quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w) &&
         std::fabs(dot(q, q) - 1.f) <= 1e-3f;
}

/// Key k of a timed track: float32 values finite, rotations unit; packed four-component rotations
/// of about unit length (normalising them is then well defined).
bool timedValueValid(const TimedTrack& t, std::uint32_t k) {
  float x[4] = {0.f, 0.f, 0.f, 1.f};
  if (t.format == kTimedQuantized || (t.format == kTimedPacked && t.components != 4)) return true;
  if (t.format == kTimedPacked) {
    t.packedComponents(k, x);
    const float n2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
    return n2 >= 0.5f && n2 <= 2.f;
  }
  const std::uint8_t* v = t.value(k);
  for (unsigned c = 0; c < (t.channel == Channel::Rotation ? 4u : 3u); ++c) x[c] = loadLE<float>(v + 4 * c);
  return finite3(x) && std::isfinite(x[3]) && (t.channel != Channel::Rotation || unitQuat({x[0], x[1], x[2], x[3]}));
}

/// Bounds-checked reads of the blob.
struct Reader {
  std::span<const std::uint8_t> data;
  bool has(std::uint64_t offset, std::uint64_t size) const {
    return offset <= data.size() && size <= data.size() - offset;
  }
  template <typename T>
  T at(std::uint64_t offset) const {
    return loadLE<T>(data.data() + offset);
  }
};

}  // namespace

Quat decodeRotationKey(const std::uint8_t* payload) {
  const std::uint16_t v[3] = {loadLE<std::uint16_t>(payload), loadLE<std::uint16_t>(payload + 2),
                              loadLE<std::uint16_t>(payload + 4)};
  return unpackQuat48(v);
}

Vec3 decodeVectorKey(const std::uint8_t* payload, const float minValue[3], const float extent[3]) {
  return {unpackUnorm16(loadLE<std::uint16_t>(payload), minValue[0], extent[0]),
          unpackUnorm16(loadLE<std::uint16_t>(payload + 2), minValue[1], extent[1]),
          unpackUnorm16(loadLE<std::uint16_t>(payload + 4), minValue[2], extent[2])};
}

/// Reads and validates one clip block section by section, in the order of FORMAT.md "Clip data
/// block" (core/io/clip_builder.cpp writes them in the same order). It keeps nothing but the
/// view's counts and offsets.
class ClipViewReader {
 public:
  ClipViewReader(std::span<const std::uint8_t> blob, ClipView& view) : m_r{blob}, m_view(view) {}

  Status header(std::span<const Transform> restPose);
  Status kinds();
  Status constants();
  Status keyedParams();
  Status uniformParams();
  Status keys();
  Status rawSamples();
  Status timed();
  Status timedParam(std::uint64_t p, std::uint32_t i) const;
  Status packedTimedParam(std::uint64_t p, Channel channel) const;
  Status timedKeys();
  Status uniformData();
  Status padding();
  Status rootMotion();
  Status curves(std::span<const float> restWeights);

 private:
  Status curveHeader(std::span<const float> restWeights);
  Status curveData();
  Status curveKeys(const CurveSectionView& s);
  Status curveSegmented(const CurveSectionView& s);
  Status curveSegments(const SegmentedCurvesView& g);

 public:
 private:
  /// Starts a section of `size` bytes at the next multiple of 4.
  Status section(std::uint64_t size, const char* what) {
    m_pos = align4(static_cast<std::uint32_t>(m_pos));
    if (!m_r.has(m_pos, size)) return fail(std::string(what) + " out of bounds");
    return Status::ok();
  }
  TrackKind kindOf(std::uint32_t i) const {
    return static_cast<TrackKind>((m_r.data[kClipHeaderSize + i / 2] >> ((i & 1) * 4)) & 15u);
  }
  std::uint32_t frames() const { return m_frameCount; }

  Reader m_r;
  ClipView& m_view;
  // The header's counts as the stages check them (the view reads them from the bytes).
  std::uint32_t m_frameCount = 0, m_keyCount = 0;
  float m_sampleRate = 0;
  std::uint16_t m_joints = 0, m_flags = 0, m_segmentLength = 0, m_uniformCount = 0, m_keyedCount = 0, m_rawCount = 0;
  std::uint16_t m_curveCount = 0, m_curveUniform = 0, m_curveKeyed = 0, m_curveRaw = 0, m_curveSegmented = 0;
  std::uint32_t m_curveKeyBits = 0, m_curveRowBits = 0;
  std::uint64_t m_pos = kClipHeaderSize;
  std::uint32_t m_subTracks = 0;
  std::uint32_t m_keyedRotationKinds = 0;
  std::uint64_t m_rowBits = 0;
};

Status ClipViewReader::header(std::span<const Transform> restPose) {
  const std::size_t size = m_r.data.size();
  if (!m_r.has(0, kClipHeaderSize)) return fail("clip is " + std::to_string(size) + " bytes, shorter than its header");
  using H = ClipHeaderLayout;
  ClipView& v = m_view;
  m_frameCount = m_r.at<std::uint32_t>(H::frameCount);
  m_sampleRate = m_r.at<float>(H::sampleRate);
  const std::uint32_t joints = m_r.at<std::uint16_t>(H::jointCount);
  m_segmentLength = m_r.at<std::uint16_t>(H::segmentLength);
  m_flags = m_r.at<std::uint16_t>(H::flags);
  m_uniformCount = m_r.at<std::uint16_t>(H::uniformTrackCount);
  m_keyedCount = m_r.at<std::uint16_t>(H::keyedTrackCount);
  m_rawCount = m_r.at<std::uint16_t>(H::rawTrackCount);
  m_keyCount = m_r.at<std::uint32_t>(H::keyCount);
  const std::uint32_t snapshots = m_r.at<std::uint32_t>(H::snapshotCount);
  const std::uint32_t totalSize = m_r.at<std::uint32_t>(H::totalSize);
  if (totalSize != size)
    return fail("clip header says " + std::to_string(totalSize) + " bytes but " + std::to_string(size) +
                " are present");
  if (size > 0xfffffff0u) return fail("clip larger than 4 GiB");
  // A clip of a pack without joints (morph targets only, version 6) carries curves.
  if ((joints == 0 && !(m_flags & kClipFlagCurves)) || joints > kMaxJoints)
    return fail("joint count " + std::to_string(joints) + " out of range");
  if (joints != restPose.size())
    return fail("clip has " + std::to_string(joints) + " joints, the skeleton " + std::to_string(restPose.size()));
  if (m_frameCount == 0) return fail("frame count is 0");
  if (!(m_sampleRate > 0.f) || !std::isfinite(m_sampleRate) || m_sampleRate > 1e5f)
    return fail("sample rate out of range");
  if ((m_flags & ~kClipFlagsV9) != 0) return fail("unknown clip flags");
  if ((m_flags & kClipFlagSegmentedCurves) && !(m_flags & kClipFlagCurves))
    return fail("segmented curves flag without the curves flag");
  if ((m_flags & kClipFlagWrap) && !(m_flags & kClipFlagLoop)) return fail("wrap flag without the loop flag");
  if ((m_flags & kClipFlagWrap) && m_frameCount < 2) return fail("a wrapping clip needs two frames");
  if ((m_flags & kClipFlagDroppedLast) && !(m_flags & kClipFlagWrap))
    return fail("dropped-last-frame flag without the wrap flag");
  if ((m_uniformCount > 0) != (m_segmentLength > 0)) return fail("segment length and uniform tracks disagree");
  if (snapshots != 0) return fail("snapshot count is not 0 (snapshots end with format version 4)");
  m_joints = static_cast<std::uint16_t>(joints);
  v.m_blob = m_r.data.data();
  v.m_rest = restPose.data();
  m_subTracks = joints * 3;
  return Status::ok();
}

Status ClipViewReader::kinds() {
  if (auto st = section(kindBytes(m_joints), "track kinds"); !st) return st;
  std::uint32_t uniform = 0, keyed = 0, raw = 0, constants = 0;
  for (std::uint32_t i = 0; i < m_subTracks; ++i) {
    const std::uint8_t k = static_cast<std::uint8_t>(kindOf(i));
    if (k >= kTrackKindCount || k == std::uint8_t(TrackKind::Segmented))
      return fail("unknown track kind " + std::to_string(k));
    const TrackKind kind = static_cast<TrackKind>(k);
    const Channel channel = static_cast<Channel>(i % 3);
    if ((kind == TrackKind::ConstantQ32 || kind == TrackKind::ConstantFloat) && channel != Channel::Rotation)
      return fail("rotation-only track kind on a vector channel");
    if (kind == TrackKind::Keyed) {
      if (frames() < 2 || frames() > kMaxKeyedFrames) return fail("keyed track in a clip of unsupported length");
      ++keyed;
      m_keyedRotationKinds += channel == Channel::Rotation;
    }
    if (kind == TrackKind::Uniform) {
      if (frames() < 2) return fail("uniform track in a one-frame clip");
      ++uniform;
    }
    raw += kind == TrackKind::Raw;
    if (kind == TrackKind::Timed) {
      if (frames() < 2 || frames() > kMaxKeyedFrames) return fail("timed track in a clip of unsupported length");
      ++m_view.m_timedCount;
    }
    if (constantSize(kind, channel) > 0 && constants++ == 0)
      m_view.m_firstConstantByte = static_cast<std::uint16_t>(i / 2);
  }
  if ((m_subTracks & 1) && (m_r.data[kClipHeaderSize + m_subTracks / 2] >> 4) != 0)
    return fail("kind padding is not zero");
  if (uniform != m_uniformCount || keyed != m_keyedCount || raw != m_rawCount)
    return fail("track counts disagree with track kinds");
  if ((m_view.m_timedCount > 0) != ((m_flags & kClipFlagTimed) != 0))
    return fail("timed flag and timed tracks disagree");
  m_view.m_constantCount = static_cast<std::uint16_t>(constants);
  m_view.m_keyedRotations = static_cast<std::uint16_t>(m_keyedRotationKinds);
  m_view.m_segmentCount = uniform > 0 ? uniformSegmentCount(frames(), m_segmentLength) : 0;
  if (uniform > 0 &&
      (m_view.m_segmentCount == 0 || std::uint64_t(m_view.m_segmentCount) * m_segmentLength < frames() - 1))
    return fail("uniform segments do not cover the clip's frames");
  m_pos += kindBytes(m_joints);
  return Status::ok();
}

/// Constants in sub-track order: finite vectors, unit float rotations.
Status ClipViewReader::constants() {
  m_pos = align4(static_cast<std::uint32_t>(m_pos));
  for (std::uint32_t i = 0; i < m_subTracks; ++i) {
    const TrackKind kind = kindOf(i);
    const std::uint32_t size = constantSize(kind, Channel(i % 3));
    if (size == 0) continue;
    const std::string joint = std::to_string(i / 3);
    if (!m_r.has(m_pos, size)) return fail("constant of joint " + joint + " out of bounds");
    if (kind == TrackKind::ConstantFloat) {
      const Quat q{m_r.at<float>(m_pos), m_r.at<float>(m_pos + 4), m_r.at<float>(m_pos + 8), m_r.at<float>(m_pos + 12)};
      if (!unitQuat(q)) return fail("constant rotation of joint " + joint + " is not a unit quaternion");
    } else if (kind == TrackKind::Constant && Channel(i % 3) != Channel::Rotation) {
      const float x[3] = {m_r.at<float>(m_pos), m_r.at<float>(m_pos + 4), m_r.at<float>(m_pos + 8)};
      if (!finite3(x)) return fail("constant of joint " + joint + " is not finite");
    }
    m_pos += size;
  }
  return Status::ok();
}

/// Keyed parameters: rotations, then vectors, each in sub-track order; key counts add up.
Status ClipViewReader::keyedParams() {
  m_pos = align4(static_cast<std::uint32_t>(m_pos));
  m_view.m_keyedParams = static_cast<std::uint32_t>(m_pos);
  std::uint64_t keys = 0;
  std::int64_t previous = -1;
  for (std::uint32_t t = 0; t < m_keyedCount; ++t) {
    const bool rotation = t < m_keyedRotationKinds;
    const std::uint32_t size = rotation ? kKeyedRotationParamSize : kKeyedVectorParamSize;
    if (!m_r.has(m_pos, size)) return fail("keyed track parameters out of bounds");
    const std::uint32_t joint = m_r.at<std::uint16_t>(m_pos), channel = m_r.at<std::uint8_t>(m_pos + 2);
    const std::int64_t sub = std::int64_t(joint) * 3 + channel;
    if (t == m_keyedRotationKinds) previous = -1;
    if (joint >= m_joints || channel >= 3 || (channel == 0) != rotation || sub <= previous ||
        kindOf(std::uint32_t(sub)) != TrackKind::Keyed || m_r.at<std::uint8_t>(m_pos + 3) != 0)
      return fail("keyed track parameters out of order");
    previous = sub;
    const std::uint32_t count = m_r.at<std::uint32_t>(m_pos + 4);
    if (count < 2 || count > frames())
      return fail("keyed track of joint " + std::to_string(joint) + " has " + std::to_string(count) + " keys");
    keys += count;
    if (!rotation)
      for (int c = 0; c < 3; ++c) {
        const float minimum = m_r.at<float>(m_pos + 8 + 4 * std::uint64_t(c)),
                    extent = m_r.at<float>(m_pos + 20 + 4 * std::uint64_t(c));
        if (!std::isfinite(minimum) || !std::isfinite(extent) || extent < 0.f)
          return fail("keyed track range is not finite");
      }
    m_pos += size;
  }
  if (keys != m_keyCount)
    return fail("keyed tracks hold " + std::to_string(keys) + " keys, the header says " + std::to_string(m_keyCount));
  return Status::ok();
}

/// Uniform parameters: by group, each group in sub-track order.
Status ClipViewReader::uniformParams() {
  std::int64_t previous = -1;
  unsigned group = 0;
  std::uint16_t ends[kUniformGroupCount] = {};
  std::vector<bool> listed(m_subTracks, false);  // a sub-track is listed once, whatever its group
  for (std::uint32_t t = 0; t < m_uniformCount; ++t) {
    if (!m_r.has(m_pos, kUniformParamSize)) return fail("uniform track parameters out of bounds");
    const std::uint32_t joint = m_r.at<std::uint16_t>(m_pos), channel = m_r.at<std::uint8_t>(m_pos + 2);
    const std::uint8_t flags = m_r.at<std::uint8_t>(m_pos + 3);
    if ((flags & ~(kUniformFlagReference | kUniformFlagFourComponents)) != 0)
      return fail("unknown uniform track flags");
    if (joint >= m_joints || channel >= 3) return fail("uniform track parameters name joint " + std::to_string(joint));
    if (channel != 0 && flags != 0) return fail("rotation flags on a vector track");
    if (flags == (kUniformFlagReference | kUniformFlagFourComponents))
      return fail("a four-component rotation has no reference");
    const unsigned g = static_cast<unsigned>(uniformGroup(Channel(channel), flags));
    const std::int64_t sub = std::int64_t(joint) * 3 + channel;
    if (g < group || (g == group && sub <= previous) || kindOf(std::uint32_t(sub)) != TrackKind::Uniform ||
        listed[std::size_t(sub)])
      return fail("uniform track parameters out of order");
    listed[std::size_t(sub)] = true;
    for (unsigned x = group; x < g; ++x) ends[x] = static_cast<std::uint16_t>(t);
    group = g;
    previous = sub;
    const float step = m_r.at<float>(m_pos + 16);
    if (!std::isfinite(step) || step < 0.f) return fail("uniform track step is not finite");
    const unsigned components = g == unsigned(UniformGroup::Rotation4) ? 4 : 3;
    for (unsigned c = 0; c < 4; ++c) {
      const std::uint8_t w = m_r.at<std::uint8_t>(m_pos + 20 + c);
      if (w > kMaxBoundaryBits) return fail("uniform boundary width above 32 bits");
      if (c == 3 && components == 3 && w != 0) return fail("a three-component track has a fourth width");
      m_rowBits += w;
    }
    const std::uint32_t size = uniformParamSize(UniformGroup(g));
    if (!m_r.has(m_pos, size)) return fail("uniform track parameters out of bounds");
    for (unsigned c = 0; c < components; ++c) {
      const float minimum = m_r.at<float>(m_pos + (c < 3 ? 4 + 4 * c : 24));
      if (!std::isfinite(minimum)) return fail("uniform track range is not finite");
    }
    if (g == unsigned(UniformGroup::RotationReference)) {
      const std::uint64_t p = m_pos + kUniformParamSize;
      if (!unitQuat({m_r.at<float>(p), m_r.at<float>(p + 4), m_r.at<float>(p + 8), m_r.at<float>(p + 12)}))
        return fail("uniform reference rotation is not a unit quaternion");
    }
    m_pos += size;
  }
  for (unsigned x = group; x < kUniformGroupCount; ++x) ends[x] = m_uniformCount;
  for (unsigned x = 0; x < 3; ++x) m_view.m_groupEnd[x] = ends[x];
  if (m_rowBits * (std::uint64_t(m_view.m_segmentCount) + 1) > 0xffffffffu) return fail("boundary rows too wide");
  m_view.m_rowBits = static_cast<std::uint32_t>(m_rowBits);
  return Status::ok();
}

/// Keys: each track's run starts at frame 0, increases strictly and ends at the last frame.
Status ClipViewReader::keys() {
  if (auto st = section(std::uint64_t(m_keyCount) * kKeySize, "keys"); !st) return st;
  std::uint64_t k = m_pos;
  for (std::uint32_t t = 0; t < m_keyedCount; ++t) {
    const std::uint32_t count = m_view.keyedTrack(t).keyCount;
    std::uint32_t last = 0;
    for (std::uint32_t i = 0; i < count; ++i, k += kKeySize) {
      const std::uint32_t frame = m_r.at<std::uint16_t>(k);
      if (i == 0 ? frame != 0 : frame <= last)
        return fail("key times of keyed track " + std::to_string(t) + " do not increase from frame 0");
      last = frame;
    }
    if (last != frames() - 1) return fail("keyed track " + std::to_string(t) + " does not end at the last frame");
  }
  m_pos = k;
  return Status::ok();
}

/// Raw tracks (version 2): float32 per frame and component, every value finite, rotations unit.
Status ClipViewReader::rawSamples() {
  std::uint64_t size = 0;
  for (std::uint32_t i = 0; i < m_subTracks; ++i)
    if (kindOf(i) == TrackKind::Raw) size += std::uint64_t(frames()) * (Channel(i % 3) == Channel::Rotation ? 16 : 12);
  if (auto st = section(size, "raw samples"); !st) return st;
  m_view.m_raw = static_cast<std::uint32_t>(m_pos);
  for (std::uint64_t p = m_pos, i = 0; i < m_subTracks; ++i) {
    if (kindOf(std::uint32_t(i)) != TrackKind::Raw) continue;
    const unsigned components = Channel(i % 3) == Channel::Rotation ? 4 : 3;
    for (std::uint32_t f = 0; f < frames(); ++f, p += components * 4) {
      float x[4] = {0.f, 0.f, 0.f, 1.f};
      for (unsigned c = 0; c < components; ++c) x[c] = m_r.at<float>(p + 4 * c);
      if (!finite3(x) || !std::isfinite(x[3]) || (components == 4 && !unitQuat({x[0], x[1], x[2], x[3]})))
        return fail("raw sample " + std::to_string(f) + " of joint " + std::to_string(i / 3) +
                    " is not finite or not a unit rotation");
    }
  }
  m_pos += size;
  return Status::ok();
}

/// Timed tracks (version 7): parameters in sub-track order (a known key format, finite ranges),
/// then the keys; packed keys (version 10) end with 8 zero bytes.
Status ClipViewReader::timed() {
  if (m_view.m_timedCount == 0) return Status::ok();
  if (auto st = section(0, "timed track parameters"); !st) return st;
  m_view.m_timed = static_cast<std::uint32_t>(m_pos);
  std::uint64_t keys = 0, keyBytes = 0, p = m_pos;
  bool packed = false;
  for (std::uint32_t i = 0; i < m_subTracks; ++i) {
    if (kindOf(i) != TrackKind::Timed) continue;
    if (auto st = timedParam(p, i); !st) return st;
    const std::uint32_t count = m_r.at<std::uint32_t>(p + 4);
    if (count < 2 || keys + count > 0x10000000u)
      return fail("timed track of joint " + std::to_string(i / 3) + " has " + std::to_string(count) + " keys");
    keys += count;
    keyBytes += timedRunBytes(m_r.data.data() + p);
    packed = packed || m_r.at<std::uint8_t>(p + 3) == kTimedPacked;
    p += timedParamSize(Channel(i % 3), m_r.at<std::uint8_t>(p + 3));
  }
  m_pos = p;
  m_view.m_timedKeysAt = static_cast<std::uint32_t>(m_pos);
  if (!m_r.has(m_pos, keyBytes + (packed ? 8 : 0))) return fail("timed keys out of bounds");
  if (auto st = timedKeys(); !st) return st;
  m_pos += keyBytes;
  const std::uint64_t padded = align4(static_cast<std::uint32_t>(m_pos + (packed ? 8 : 0)));
  if (!m_r.has(m_pos, padded - m_pos)) return fail("timed section out of bounds");
  for (; m_pos < padded; ++m_pos)
    if (m_r.data[m_pos] != 0) return fail("timed section padding is not zero");
  return Status::ok();
}

/// One timed track's parameters at `p` (sub-track i): in order, a known format, finite ranges; a
/// packed track's shift, widths and components within the format's limits.
Status ClipViewReader::timedParam(std::uint64_t p, std::uint32_t i) const {
  const Channel channel = Channel(i % 3);
  if (!m_r.has(p, kKeyedRotationParamSize)) return fail("timed track parameters out of bounds");
  const std::uint8_t format = m_r.at<std::uint8_t>(p + 3);
  if (m_r.at<std::uint16_t>(p) != i / 3 || m_r.at<std::uint8_t>(p + 2) != i % 3 || format > kTimedPacked)
    return fail("timed track parameters out of order");
  if (!m_r.has(p, timedParamSize(channel, format))) return fail("timed track parameters out of bounds");
  if (format == kTimedPacked) return packedTimedParam(p, channel);
  for (int c = 0; timedParamSize(channel, format) > kKeyedRotationParamSize && c < 3; ++c) {
    const float minimum = m_r.at<float>(p + 8 + 4 * std::uint64_t(c)),
                extent = m_r.at<float>(p + 20 + 4 * std::uint64_t(c));
    if (!std::isfinite(minimum) || !std::isfinite(extent) || extent < 0.f)
      return fail("timed track range is not finite");
  }
  return Status::ok();
}

Status ClipViewReader::packedTimedParam(std::uint64_t p, Channel channel) const {
  namespace P = PackedTimedParam;
  const unsigned components = m_r.at<std::uint8_t>(p + P::kComponents);
  const unsigned shift = m_r.at<std::uint8_t>(p + P::kShift), timeWidth = m_r.at<std::uint8_t>(p + P::kTimeWidth);
  if (shift > kMaxTimedTimeShift || timeWidth > kMaxTimedTimeBits || m_r.at<std::uint8_t>(p + 11) != 0 ||
      (components != 3 && !(components == 4 && channel == Channel::Rotation)))
    return fail("packed timed track parameters out of range");
  const float step = m_r.at<float>(p + P::kStep);
  for (unsigned c = 0; c < 4; ++c) {
    const unsigned width = m_r.at<std::uint8_t>(p + P::kWidths + c);
    const float minimum = m_r.at<float>(p + P::kMin + 4 * c);
    const float top = minimum + float((std::uint64_t(1) << width) - 1) * step;
    if (c >= components ? width != 0 || minimum != 0.f
                        : width > kMaxTimedValueBits || !std::isfinite(minimum) || !std::isfinite(top))
      return fail("packed timed track component " + std::to_string(c) + " out of range");
  }
  if (!std::isfinite(step) || !(step > 0.f)) return fail("packed timed track step is not finite and positive");
  return Status::ok();
}

/// Each timed track's keys: times from 0, increasing strictly, to the last frame; float values
/// finite, rotations unit; packed four-component rotations near unit length.
Status ClipViewReader::timedKeys() {
  const std::uint64_t end = std::uint64_t(frames() - 1) * kTimedTicksPerFrame;
  TimedTracks tracks(m_view);
  TimedTrack track;
  for (std::uint32_t t = 0; tracks.next(track); ++t) {
    std::uint64_t last = 0;
    for (std::uint32_t k = 0; k < track.keyCount; ++k) {
      const std::int64_t units = track.format == kTimedPacked ? track.packedTimeUnits(k) : 0;
      if (units < 0 || units > std::int64_t(end >> track.timeShift))
        return fail("key " + std::to_string(k) + " of timed track " + std::to_string(t) + " is not in the clip");
      const std::uint64_t time = track.time(k);
      if (k == 0 ? time != 0 : time <= last)
        return fail("key times of timed track " + std::to_string(t) + " do not increase from time 0");
      last = time;
      if (!timedValueValid(track, k))
        return fail("key " + std::to_string(k) + " of timed track " + std::to_string(t) +
                    " is not finite or not a unit rotation");
    }
    if (last != end) return fail("timed track " + std::to_string(t) + " does not end at the last frame");
  }
  return Status::ok();
}

/// Segment table, boundary rows (segmentCount + 1 rows of rowBits bits), segment data: every
/// segment's size agrees with its tracks' bit rates.
Status ClipViewReader::uniformData() {
  ClipView& v = m_view;
  if (m_uniformCount == 0) return Status::ok();
  const std::uint32_t segments = v.m_segmentCount;
  if (auto st = section(std::uint64_t(segments + 1) * 4, "segment table"); !st) return st;
  v.m_segmentTable = static_cast<std::uint32_t>(m_pos);
  m_pos += std::uint64_t(segments + 1) * 4;
  if (auto st = section((std::uint64_t(segments + 1) * m_rowBits + 7) / 8, "boundary rows"); !st) return st;
  m_pos += (std::uint64_t(segments + 1) * m_rowBits + 7) / 8;
  auto offset = [&](std::uint32_t k) { return m_r.at<std::uint32_t>(v.m_segmentTable + 4 * std::uint64_t(k)); };
  if (offset(0) != 0) return fail("first segment does not start at 0");
  if (auto st = section(offset(segments), "segment data"); !st) return st;
  const std::uint64_t data = m_pos;
  m_pos += offset(segments);
  // Offsets must not decrease: then every segment lies inside the section (which ends at the last),
  // checked before any segment's headers are read.
  for (std::uint32_t k = 0; k < segments; ++k)
    if (offset(k + 1) < offset(k)) return fail("segment offsets decrease");
  const std::uint64_t headerBytes = std::uint64_t(m_uniformCount) * kSegmentHeaderBytesPerTrack;
  for (std::uint32_t k = 0; k < segments; ++k) {
    const std::uint64_t begin = offset(k), end = offset(k + 1);
    if (end - begin < headerBytes) return fail("segment " + std::to_string(k) + " shorter than its header");
    std::uint64_t bits = 0;
    for (std::uint32_t t = 0; t < m_uniformCount; ++t) {
      const std::uint64_t h = data + begin + 3 * std::uint64_t(t);
      const std::uint32_t word = m_r.at<std::uint8_t>(h) | (std::uint32_t(m_r.at<std::uint8_t>(h + 1)) << 8) |
                                 (std::uint32_t(m_r.at<std::uint8_t>(h + 2)) << 16);
      const unsigned b0 = word & 31u, b1 = (word >> 5) & 31u, b2 = (word >> 10) & 31u, b3 = (word >> 19) & 31u;
      if (t < v.m_groupEnd[1] || t >= v.m_groupEnd[2] ? b3 != 0 || (word >> 24) != 0 : (word >> 24) != 0)
        return fail("segment header has unknown bits");
      bits += std::uint64_t(v.segmentFrames(k)) * (b0 + b1 + b2 + b3);
    }
    if (headerBytes * 8 + bits > 0xffffffffu)
      return fail("segment " + std::to_string(k) + " holds more than 2^32 bits");
    if (headerBytes + (bits + 7) / 8 != end - begin)
      return fail("segment " + std::to_string(k) + " size disagrees with its bit rates");
  }
  return Status::ok();
}

/// With uniform tracks, trailing zero padding keeps every 8-byte bit read inside the clip.
Status ClipViewReader::padding() {
  const std::uint32_t bytes = m_uniformCount > 0 ? kBitPadding : 0;
  const std::uint64_t tail = (m_flags & kClipFlagRootMotion) ? rootMotionSectionSize(frames()) : 0;
  const bool curves = (m_flags & kClipFlagCurves) != 0;
  if (curves ? m_pos + bytes + tail > m_r.data.size() : m_pos + bytes + tail != m_r.data.size())
    return fail("clip size disagrees with its sections");
  for (std::uint64_t i = m_pos; i < m_pos + bytes; ++i)
    if (m_r.data[i] != 0) return fail("clip padding is not zero");
  m_pos += bytes;
  m_view.m_rootMotion = static_cast<std::uint32_t>(m_pos);
  return Status::ok();
}

/// Root motion (version 3): a joint of the clip, a known up axis, finite values with the up
/// component zero and frame 0 at the origin.
Status ClipViewReader::rootMotion() {
  if (!(m_flags & kClipFlagRootMotion)) return Status::ok();
  const std::uint64_t p = m_pos;
  const std::uint32_t joint = m_r.at<std::uint16_t>(p);
  const std::uint8_t up = m_r.at<std::uint8_t>(p + 2);
  if (joint >= m_joints) return fail("root-motion joint " + std::to_string(joint) + " out of range");
  if (up > 2 || m_r.at<std::uint8_t>(p + 3) != 0) return fail("root-motion up axis out of range");
  auto valid = [&](std::uint64_t at) {
    const float v[4] = {m_r.at<float>(at), m_r.at<float>(at + 4), m_r.at<float>(at + 8), m_r.at<float>(at + 12)};
    return finite3(v) && std::isfinite(v[3]) && v[up] == 0.f;
  };
  if (!valid(p + 4) || !valid(p + 20))
    return fail("root-motion reference or cycle is not finite or leaves the ground plane");
  for (std::uint32_t f = 0; f < frames(); ++f) {
    const std::uint64_t at = p + kRootMotionHeaderSize + std::uint64_t(f) * kRootMotionFrameSize;
    if (!valid(at))
      return fail("root motion of frame " + std::to_string(f) + " is not finite or leaves the ground plane");
    if (f == 0 && (m_r.at<float>(at) != 0.f || m_r.at<float>(at + 4) != 0.f || m_r.at<float>(at + 8) != 0.f ||
                   m_r.at<float>(at + 12) != 0.f))
      return fail("root motion of frame 0 is not zero");
  }
  return Status::ok();
}

/// The curve section (version 6): counts that agree with the kinds, parameters in curve order,
/// finite values, every key frame inside the clip and strictly increasing from 0 to the last, every
/// uniform width 1..24, and the section ending the block.
Status ClipViewReader::curves(std::span<const float> restWeights) {
  const bool has = (m_flags & kClipFlagCurves) != 0;
  if (!has) {
    if (m_pos + ((m_flags & kClipFlagRootMotion) ? rootMotionSectionSize(frames()) : 0) != m_r.data.size())
      return fail("clip size disagrees with its sections");
    return Status::ok();
  }
  m_pos += (m_flags & kClipFlagRootMotion) ? rootMotionSectionSize(frames()) : 0;
  const std::uint64_t start = align4(static_cast<std::uint32_t>(m_pos));
  for (std::uint64_t i = m_pos; i < start && i < m_r.data.size(); ++i)
    if (m_r.data[i] != 0) return fail("padding before the curves is not zero");
  m_pos = start;
  if (auto st = curveHeader(restWeights); !st) return st;
  return curveData();
}

Status ClipViewReader::curveHeader(std::span<const float> restWeights) {
  using L = CurveSectionLayout;
  ClipView& v = m_view;
  if (!m_r.has(m_pos, L::size)) return fail("curve section out of bounds");
  const std::uint32_t count = m_r.at<std::uint16_t>(m_pos + L::curveCount);
  if (count == 0 || count != restWeights.size())
    return fail("clip has " + std::to_string(count) + " curves, the pack " + std::to_string(restWeights.size()));
  v.m_curves = static_cast<std::uint32_t>(m_pos);
  m_curveCount = static_cast<std::uint16_t>(count);
  m_curveUniform = m_r.at<std::uint16_t>(m_pos + L::uniformCount);
  m_curveKeyed = m_r.at<std::uint16_t>(m_pos + L::keyedCount);
  m_curveRaw = m_r.at<std::uint16_t>(m_pos + L::rawCount);
  m_curveKeyBits = m_r.at<std::uint32_t>(m_pos + L::keyBits);
  m_curveRowBits = m_r.at<std::uint32_t>(m_pos + L::rowBits);
  v.m_curveRest = restWeights.data();
  m_pos += L::size;
  if (!m_r.has(m_pos, (count + 1) / 2)) return fail("curve kinds out of bounds");
  std::uint32_t n[kTrackKindCount] = {};
  for (std::uint32_t i = 0; i < count; ++i) {
    const unsigned k = (m_r.data[m_pos + i / 2] >> ((i & 1) * 4)) & 15u;
    if (k != unsigned(TrackKind::Default) && k != unsigned(TrackKind::Constant) && k != unsigned(TrackKind::Keyed) &&
        k != unsigned(TrackKind::Uniform) && k != unsigned(TrackKind::Raw) && k != unsigned(TrackKind::Segmented))
      return fail("unknown curve kind " + std::to_string(k));
    ++n[k];
  }
  if ((count & 1) && (m_r.data[m_pos + count / 2] >> 4) != 0) return fail("unused curve kind bits are not zero");
  if (n[unsigned(TrackKind::Uniform)] != m_curveUniform || n[unsigned(TrackKind::Keyed)] != m_curveKeyed ||
      n[unsigned(TrackKind::Raw)] != m_curveRaw)
    return fail("curve counts disagree with their kinds");
  m_curveSegmented = static_cast<std::uint16_t>(n[unsigned(TrackKind::Segmented)]);
  if ((m_curveSegmented > 0) != ((m_flags & kClipFlagSegmentedCurves) != 0))
    return fail("segmented curves flag and segmented curves disagree");
  if (m_curveSegmented > 0 && frames() < 2) return fail("segmented curve in a one-frame clip");
  if (m_curveKeyed > 0 && (frames() < 2 || frames() > kMaxKeyedFrames))
    return fail("keyed curve in a clip of unsupported length");
  v.m_curveConstants = static_cast<std::uint16_t>(n[unsigned(TrackKind::Constant)]);
  m_pos = align4(static_cast<std::uint32_t>(m_pos + (count + 1) / 2));
  return Status::ok();
}

Status ClipViewReader::curveData() {
  ClipView& v = m_view;
  const CurveSectionView s = v.curveSection();
  const std::uint64_t bitBytes =
      (std::uint64_t(m_curveKeyBits) + 7) / 8 + (std::uint64_t(frames()) * m_curveRowBits + 7) / 8;
  const std::uint64_t size = 4ull * v.m_curveConstants + std::uint64_t(kCurveKeyedParamSize) * m_curveKeyed +
                             std::uint64_t(kCurveUniformParamSize) * m_curveUniform + 4ull * frames() * m_curveRaw +
                             (m_curveKeyBits + m_curveRowBits > 0 ? bitBytes + kBitPadding : 0);
  const std::uint64_t end = m_curveSegmented > 0 ? std::uint64_t(s.segmented - m_r.data.data()) : m_r.data.size();
  if (!m_r.has(m_pos, size) || align4(static_cast<std::uint32_t>(m_pos + size)) != end)
    return fail("curve section size disagrees with its counts");
  auto finite = [&](const std::uint8_t* p) { return std::isfinite(loadLE<float>(p)); };
  for (std::uint32_t i = 0; i < v.m_curveConstants; ++i)
    if (!finite(s.constants + 4 * i)) return fail("curve constant is not finite");
  if (auto st = curveKeys(s); !st) return st;
  std::uint64_t bits = 0;
  std::uint32_t previous = 0;
  for (std::uint32_t t = 0; t < m_curveUniform; ++t) {
    const std::uint8_t* p = s.uniformParams + std::size_t(t) * kCurveUniformParamSize;
    const std::uint32_t curve = loadLE<std::uint16_t>(p);
    if (curve >= m_curveCount || s.kind(curve) != TrackKind::Uniform || (t > 0 && curve <= previous) || p[3] != 0)
      return fail("uniform curve parameters out of order");
    previous = curve;
    if (p[2] == 0 || p[2] > kMaxCurveBits) return fail("uniform curve width out of range");
    if (!finite(p + 4) || !finite(p + 8)) return fail("uniform curve range is not finite");
    bits += p[2];
  }
  if (bits != m_curveRowBits) return fail("curve row bits disagree with their tracks");
  for (std::uint64_t i = 0; i < std::uint64_t(frames()) * m_curveRaw; ++i)
    if (!finite(s.raw + 4 * i)) return fail("raw curve sample is not finite");
  return m_curveSegmented > 0 ? curveSegmented(s) : Status::ok();
}

/// Segmented curves (version 9): a header that agrees with the kinds, parameters in curve order
/// with widths 1..24 and finite ranges, and segments whose sizes the table and widths agree on.
Status ClipViewReader::curveSegmented(const CurveSectionView& s) {
  using L = SegmentedCurvesLayout;
  const std::uint64_t at = std::uint64_t(s.segmented - m_r.data.data());
  if (!m_r.has(at, L::size)) return fail("segmented curves out of bounds");
  if (m_r.at<std::uint16_t>(at + L::count) != m_curveSegmented || m_r.data[at + L::reserved] != 0)
    return fail("segmented curve header disagrees with the kinds");
  const unsigned shift = m_r.data[at + L::segmentShift];
  if (shift < kMinCurveSegmentShift || shift > kMaxCurveSegmentShift)
    return fail("segmented curve segment length out of range");
  const std::uint64_t segments = curveSegmentCount(frames(), shift);
  const std::uint64_t fixed = L::size + std::uint64_t(kCurveSegmentedParamSize) * m_curveSegmented + 4 * (segments + 1);
  if (!m_r.has(at, fixed)) return fail("segmented curves out of bounds");
  const SegmentedCurvesView g = SegmentedCurvesView::at(s.segmented, frames());
  std::uint64_t rowBits = 0;
  for (std::uint32_t t = 0, previous = 0; t < g.count; ++t) {
    const std::uint8_t* p = g.params + std::size_t(t) * kCurveSegmentedParamSize;
    const std::uint32_t curve = loadLE<std::uint16_t>(p);
    if (curve >= m_curveCount || s.kind(curve) != TrackKind::Segmented || (t > 0 && curve <= previous) || p[3] != 0)
      return fail("segmented curve parameters out of order");
    previous = curve;
    if (p[2] == 0 || p[2] > kMaxCurveBits) return fail("segmented curve width out of range");
    if (!std::isfinite(loadLE<float>(p + 4)) || !std::isfinite(loadLE<float>(p + 8)))
      return fail("segmented curve range is not finite");
    rowBits += p[2];
  }
  if (rowBits != g.rowBits) return fail("segmented curve row bits disagree with their curves");
  const std::uint64_t rows = ((segments + 1) * rowBits + 7) / 8;
  if (!m_r.has(at, fixed + rows)) return fail("segmented curves out of bounds");
  const std::uint64_t data = at + fixed + rows, dataSize = loadLE<std::uint32_t>(g.table + 4 * std::size_t(segments));
  if (!m_r.has(data, dataSize + kBitPadding) ||
      align4(static_cast<std::uint32_t>(data + dataSize + kBitPadding)) != m_r.data.size())
    return fail("segmented curve data size disagrees with the clip");
  return curveSegments(g);
}

/// Each segment's size, from its residual widths (0..25), is the table's.
Status ClipViewReader::curveSegments(const SegmentedCurvesView& g) {
  const std::uint64_t dataSize = loadLE<std::uint32_t>(g.table + 4 * std::size_t(g.segments));
  std::uint64_t offset = 0;
  for (std::uint32_t k = 0; k < g.segments; ++k) {
    if (loadLE<std::uint32_t>(g.table + 4 * std::size_t(k)) != offset)
      return fail("segmented curve segment " + std::to_string(k) + " is not where the table says");
    const std::uint32_t n = curveSegmentResiduals(k, frames(), g.shift);
    std::uint64_t bits = std::uint64_t(kCurveResidualWidthBits) * g.count;
    if (offset + (bits + 7) / 8 > dataSize)
      return fail("segmented curve segment " + std::to_string(k) + " out of bounds");
    for (std::uint32_t t = 0; t < g.count; ++t) {
      const unsigned w =
          readBits(g.data, offset * 8 + kCurveResidualWidthBits * std::uint64_t(t), kCurveResidualWidthBits);
      if (w > kMaxCurveResidualBits) return fail("segmented curve residual width out of range");
      bits += std::uint64_t(w) * n;
    }
    offset += (bits + 7) / 8;
  }
  if (dataSize != offset) return fail("segmented curve data size disagrees with its segments");
  return Status::ok();
}

/// Keyed curves: parameters in curve order, widths 1..16, key frames from 0 to the last frame,
/// strictly increasing, and every key bit accounted for.
Status ClipViewReader::curveKeys(const CurveSectionView& s) {
  const unsigned frameBits = curveKeyFrameBits(frames());
  std::uint64_t bit = 0;
  std::uint32_t previous = 0;
  for (std::uint32_t t = 0; t < m_curveKeyed; ++t) {
    const std::uint8_t* p = s.keyedParams + std::size_t(t) * kCurveKeyedParamSize;
    const std::uint32_t curve = loadLE<std::uint16_t>(p), width = p[2], count = loadLE<std::uint32_t>(p + 4);
    if (curve >= m_curveCount || s.kind(curve) != TrackKind::Keyed || (t > 0 && curve <= previous) || p[3] != 0)
      return fail("keyed curve parameters out of order");
    previous = curve;
    if (width == 0 || width > kMaxCurveKeyBits) return fail("keyed curve width out of range");
    if (!std::isfinite(loadLE<float>(p + 8)) || !std::isfinite(loadLE<float>(p + 12)))
      return fail("keyed curve range is not finite");
    const std::uint64_t record = frameBits + width;
    if (count < 2 || count > frames() || bit + count * record > m_curveKeyBits)
      return fail("keyed curve key count out of range");
    std::uint32_t before = 0;
    for (std::uint32_t k = 0; k < count; ++k, bit += record) {
      const std::uint32_t f = readBits(s.keys, bit, frameBits);
      if ((k == 0 && f != 0) || (k > 0 && f <= before) || f >= frames() || (k + 1 == count && f != frames() - 1))
        return fail("keyed curve " + std::to_string(curve) + " has keys out of order or outside the clip");
      before = f;
    }
  }
  if (bit != m_curveKeyBits) return fail("curve key bits disagree with their tracks");
  return Status::ok();
}

Expected<ClipView> ClipView::open(std::span<const std::uint8_t> blob, std::span<const Transform> restPose,
                                  std::span<const float> restWeights) {
  static std::atomic<std::uint32_t> nextId{1};
  ClipView view;
  ClipViewReader reader(blob, view);
  if (auto st = reader.header(restPose); !st) return Error{st.message()};
  // Each stage needs the ones before it; stop at the first failure.
  Status (ClipViewReader::*stages[])() = {&ClipViewReader::kinds,       &ClipViewReader::constants,
                                          &ClipViewReader::keyedParams, &ClipViewReader::uniformParams,
                                          &ClipViewReader::keys,        &ClipViewReader::rawSamples,
                                          &ClipViewReader::timed,       &ClipViewReader::uniformData,
                                          &ClipViewReader::padding,     &ClipViewReader::rootMotion};
  for (auto stage : stages)
    if (auto st = (reader.*stage)(); !st) return Error{st.message()};
  if (auto st = reader.curves(restWeights); !st) return Error{st.message()};
  view.m_id = nextId++;
  if (view.m_id == 0) view.m_id = nextId++;  // 0 means "no clip" to a player
  return view;
}

std::uint32_t ClipView::timedKeyCount() const {
  std::uint32_t keys = 0;
  const std::uint8_t* p = m_blob + m_timed;
  for (std::uint32_t t = 0; t < m_timedCount; ++t) {
    keys += loadLE<std::uint32_t>(p + 4);
    p += timedParamSize(Channel(p[2]), p[3]);
  }
  return keys;
}

bool ClipView::timedPacked() const {
  const std::uint8_t* p = m_blob + m_timed;
  for (std::uint32_t t = 0; t < m_timedCount; p += timedParamSize(Channel(p[2]), p[3]), ++t)
    if (p[3] == kTimedPacked) return true;
  return false;
}

std::uint32_t ClipView::timedBytes() const {
  if (m_timedCount == 0) return 0;
  std::uint64_t keyBytes = 0;
  bool packed = false;
  const std::uint8_t* p = m_blob + m_timed;
  for (std::uint32_t t = 0; t < m_timedCount; ++t) {
    keyBytes += timedRunBytes(p);
    packed = packed || p[3] == kTimedPacked;
    p += timedParamSize(Channel(p[2]), p[3]);
  }
  return align4(static_cast<std::uint32_t>(m_timedKeysAt + keyBytes + (packed ? 8 : 0))) - m_timed;
}

std::uint32_t ClipView::curveKeyCount() const {
  const CurveSectionView s = curveSection();
  std::uint32_t keys = 0;
  for (std::uint32_t t = 0; t < curveKeyedCount(); ++t)
    keys += loadLE<std::uint32_t>(s.keyedParams + std::size_t(t) * kCurveKeyedParamSize + 4);
  return keys;
}

std::optional<RootMotionInfo> ClipView::rootMotion() const {
  if (!(flags() & kClipFlagRootMotion)) return std::nullopt;
  const std::uint8_t* p = m_blob + m_rootMotion;
  RootMotionInfo rm;
  rm.joint = loadLE<std::uint16_t>(p);
  rm.upAxis = p[2];
  for (int i = 0; i < 4; ++i) {
    rm.reference[i] = loadLE<float>(p + 4 + 4 * i);
    rm.cycle[i] = loadLE<float>(p + 20 + 4 * i);
  }
  rm.frames = p + kRootMotionHeaderSize;
  return rm;
}

UniformTrackInfo ClipView::uniformTrack(std::uint32_t i) const {
  unsigned g = 0;
  while (g + 1 < kUniformGroupCount && i >= uniformGroupStart(g + 1)) ++g;
  const std::uint8_t* p =
      uniformGroupParams(g) + std::size_t(i - uniformGroupStart(g)) * uniformParamSize(UniformGroup(g));
  UniformTrackInfo t;
  t.joint = loadLE<std::uint16_t>(p);
  t.channel = Channel(p[2]);
  t.hasReference = g == unsigned(UniformGroup::RotationReference);
  t.components = g == unsigned(UniformGroup::Rotation4) ? 4 : 3;
  for (int c = 0; c < 3; ++c) t.minValue[c] = loadLE<float>(p + 4 + 4 * c);
  t.step = loadLE<float>(p + 16);
  for (int c = 0; c < 4; ++c) t.width[c] = p[20 + c];
  if (t.components == 4) t.minValue[3] = loadLE<float>(p + 24);
  if (t.hasReference)
    t.reference = {loadLE<float>(p + 24), loadLE<float>(p + 28), loadLE<float>(p + 32), loadLE<float>(p + 36)};
  // Where it sits in a boundary row: the widths of the tracks before it.
  for (unsigned h = 0; h <= g; ++h) {
    const std::uint8_t* q = uniformGroupParams(h);
    const std::uint32_t end = h == g ? i : uniformGroupStart(h + 1);
    for (std::uint32_t x = uniformGroupStart(h); x < end; ++x, q += uniformParamSize(UniformGroup(h)))
      t.boundaryBitOffset += std::uint32_t(q[20]) + q[21] + q[22] + q[23];
  }
  return t;
}

KeyedTrackInfo ClipView::keyedTrack(std::uint32_t i) const {
  const std::uint8_t* p = keyedParams();
  std::uint32_t first = 0;
  for (std::uint32_t x = 0; x < i; ++x) {
    first += loadLE<std::uint32_t>(p + 4);
    p += x < m_keyedRotations ? kKeyedRotationParamSize : kKeyedVectorParamSize;
  }
  KeyedTrackInfo t;
  t.joint = loadLE<std::uint16_t>(p);
  t.channel = Channel(p[2]);
  t.keyCount = loadLE<std::uint32_t>(p + 4);
  t.firstKey = first;
  if (t.channel != Channel::Rotation)
    for (int c = 0; c < 3; ++c) {
      t.minValue[c] = loadLE<float>(p + 8 + 4 * c);
      t.extent[c] = loadLE<float>(p + 20 + 4 * c);
    }
  return t;
}

RawTrackInfo ClipView::rawTrack(std::uint32_t i) const {
  const std::uint8_t* p = rawSamples();
  for (std::uint32_t s = 0, seen = 0; s < std::uint32_t(jointCount()) * 3; ++s) {
    if (kind(s / 3, Channel(s % 3)) != TrackKind::Raw) continue;
    if (seen++ == i) return {s / 3, Channel(s % 3), p};
    p += std::size_t(frameCount()) * (Channel(s % 3) == Channel::Rotation ? 16 : 12);
  }
  return {};
}

ClipView::Sections ClipView::sections() const {
  Sections s;
  s.header = kClipHeaderSize;
  s.kinds = kindBytes(jointCount());
  auto at = [&](const std::uint8_t* p) { return static_cast<std::uint32_t>(p - m_blob); };
  s.constants = 0;
  for (std::uint32_t i = 0; i < std::uint32_t(jointCount()) * 3; ++i) {
    const TrackKind k = kind(i / 3, Channel(i % 3));
    s.constants += k == TrackKind::Constant        ? (i % 3 == 0 ? 6 : 12)
                   : k == TrackKind::ConstantQ32   ? 4
                   : k == TrackKind::ConstantFloat ? 16
                                                   : 0;
  }
  s.keyedParams = at(uniformParams()) - m_keyedParams;
  s.uniformParams = at(uniformGroupParams(kUniformGroupCount)) - at(uniformParams());
  s.keys = keyCount() * kKeySize;
  for (std::uint32_t i = 0; i < rawCount(); ++i)
    s.rawSamples += frameCount() * (rawTrack(i).channel == Channel::Rotation ? 16 : 12);
  if (uniformCount() > 0) {
    s.segmentTable = 4 * (m_segmentCount + 1);
    s.boundaries = static_cast<std::uint32_t>((std::uint64_t(m_segmentCount + 1) * m_rowBits + 7) / 8);
    s.segmentData = loadLE<std::uint32_t>(m_blob + m_segmentTable + 4 * std::size_t(m_segmentCount));
    s.padding = kBitPadding;
  }
  s.timed = timedBytes();
  if (flags() & kClipFlagRootMotion) s.rootMotion = static_cast<std::uint32_t>(rootMotionSectionSize(frameCount()));
  s.curves = curveBytes();
  return s;
}

}  // namespace animpack::runtime
