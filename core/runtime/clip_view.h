#pragma once
// A validated, read-only view of one compressed clip (the bytes stay owned by the caller, usually a
// Pack). Opening checks every count, offset, size, index, bit width and key order, so the Player can
// decode straight from the bytes without further bounds checks. The view keeps only where each
// section starts and the counts (ClipView::derivedBytes: a few dozen bytes, whatever the clip's
// length): keys, boundary rows and residuals are read from the clip's bytes when a pose needs them
// (FORMAT.md "What the runtime keeps").

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "core/runtime/clip_format.h"
#include "core/runtime/curves.h"
#include "core/runtime/math.h"
#include "core/runtime/status.h"

namespace animpack::runtime {

/// Decoding parameters of one uniformly sampled sub-track, as stored.
struct UniformTrackInfo {
  std::uint32_t joint = 0;
  Channel channel = Channel::Rotation;
  bool hasReference = false;    ///< rotation stored relative to `reference`
  std::uint8_t components = 3;  ///< 4: a rotation stored as x, y, z, w and normalised
  Quat reference;
  float minValue[4] = {};
  float step = 0;                       ///< quantization step of boundaries and residual units
  std::uint8_t width[4] = {};           ///< boundary bits per component
  std::uint32_t boundaryBitOffset = 0;  ///< position of this track inside a boundary row
};

/// Decoding parameters of one keyed sub-track, as stored.
struct KeyedTrackInfo {
  std::uint32_t joint = 0;
  Channel channel = Channel::Rotation;
  float minValue[3] = {};
  float extent[3] = {};
  std::uint32_t firstKey = 0;  ///< index of its first key in the clip's keys
  std::uint32_t keyCount = 0;
};

/// One raw sub-track (format version 2): float32 components per frame (x y z w for a rotation,
/// x y z for a vector), stored frame after frame.
struct RawTrackInfo {
  std::uint32_t joint = 0;
  Channel channel = Channel::Rotation;
  const std::uint8_t* samples = nullptr;
};

/// The root-motion section of a clip (format version 3, FORMAT.md "Root motion"): the ground-plane
/// motion and the turn about the up axis taken out of `joint`, per frame, relative to frame 0.
struct RootMotionInfo {
  std::uint32_t joint = 0;
  std::uint8_t upAxis = 1;               ///< 0 x, 1 y, 2 z
  float reference[4] = {};               ///< the ground frame at frame 0: x y z (on the ground plane), yaw (radians)
  float cycle[4] = {};                   ///< the motion of one cycle: x y z, yaw
  const std::uint8_t* frames = nullptr;  ///< f32[4] per frame: x y z, yaw
};

/// Where a clip's curve section (format version 6) keeps each part (FORMAT.md "Curves").
struct CurveSectionView {
  const std::uint8_t* kinds = nullptr;
  const std::uint8_t* constants = nullptr;
  const std::uint8_t* keyedParams = nullptr;
  const std::uint8_t* uniformParams = nullptr;
  const std::uint8_t* keys = nullptr;
  const std::uint8_t* raw = nullptr;
  const std::uint8_t* rows = nullptr;
  const std::uint8_t* segmented = nullptr;  ///< version 9: the segmented part's header (nullptr: none)
  std::uint32_t rowBits = 0;
  TrackKind kind(std::uint32_t curve) const {
    return static_cast<TrackKind>((kinds[curve / 2] >> ((curve & 1) * 4)) & 15u);
  }
};

class ClipView {
 public:
  /// Validates `blob` (a current-format clip block) against a skeleton's rest pose, which supplies
  /// default tracks and must outlive the view, as must the blob.
  /// A clip with curves (format version 6) needs their rest weights (one per curve of the pack,
  /// what a default curve decodes to), which must outlive the view too.
  static Expected<ClipView> open(std::span<const std::uint8_t> blob, std::span<const Transform> restPose,
                                 std::span<const float> restWeights = {});

  ClipView() = default;

  /// Unique per opened clip (copies share it): players use it to notice a different clip even at
  /// the same address.
  std::uint32_t id() const { return m_id; }
  std::uint32_t jointCount() const { return field<std::uint16_t>(ClipHeaderLayout::jointCount); }
  std::uint32_t frameCount() const { return field<std::uint32_t>(ClipHeaderLayout::frameCount); }
  float sampleRate() const { return field<float>(ClipHeaderLayout::sampleRate); }
  /// Seconds from the first to the last frame.
  float duration() const { return frameCount() > 1 ? float(frameCount() - 1) / sampleRate() : 0.f; }
  bool loops() const { return (flags() & kClipFlagLoop) != 0; }
  /// A looping clip whose last frame interpolates to its first (format version 3, kClipFlagWrap).
  bool wraps() const { return (flags() & kClipFlagWrap) != 0; }
  /// Frames in one cycle: F for a wrapping clip, F - 1 for a loop whose last frame repeats its first.
  float cycleFrames() const { return float(wraps() ? frameCount() : frameCount() - 1); }
  /// The source's last frame repeated its first and was dropped (kClipFlagDroppedLast).
  bool droppedLastFrame() const { return (flags() & kClipFlagDroppedLast) != 0; }
  /// Frames of the source clip: frameCount(), plus the dropped last frame (decoded as frame 0).
  std::uint32_t sourceFrameCount() const { return frameCount() + (droppedLastFrame() ? 1u : 0u); }
  /// The tracks are deltas from a base pose (apply them with runtime::applyAdditive).
  bool additive() const { return (flags() & kClipFlagAdditive) != 0; }
  /// The root-motion section, or nothing.
  std::optional<RootMotionInfo> rootMotion() const;
  /// Header flags (kClipFlag*).
  std::uint32_t flags() const { return field<std::uint16_t>(ClipHeaderLayout::flags); }
  std::uint32_t segmentLength() const { return field<std::uint16_t>(ClipHeaderLayout::segmentLength); }
  std::uint32_t segmentCount() const { return m_segmentCount; }
  std::size_t byteSize() const { return field<std::uint32_t>(ClipHeaderLayout::totalSize); }
  std::span<const std::uint8_t> bytes() const { return {m_blob, byteSize()}; }

  TrackKind kind(std::uint32_t joint, Channel channel) const {
    const std::uint32_t i = joint * 3 + std::uint32_t(channel);
    return static_cast<TrackKind>((m_blob[kClipHeaderSize + i / 2] >> ((i & 1) * 4)) & 15u);
  }
  /// The skeleton's rest pose the clip was opened against.
  std::span<const Transform> restPose() const { return {m_rest, jointCount()}; }

  std::uint32_t uniformCount() const { return field<std::uint16_t>(ClipHeaderLayout::uniformTrackCount); }
  std::uint32_t keyedCount() const { return field<std::uint16_t>(ClipHeaderLayout::keyedTrackCount); }
  std::uint32_t rawCount() const { return field<std::uint16_t>(ClipHeaderLayout::rawTrackCount); }
  std::uint32_t constantCount() const { return m_constantCount; }
  /// The byte of track kinds holding the first constant sub-track (two sub-tracks a byte).
  std::uint32_t firstConstantByte() const { return m_firstConstantByte; }
  std::uint32_t keyCount() const { return field<std::uint32_t>(ClipHeaderLayout::keyCount); }
  /// Timed tracks (format version 7, FORMAT.md "Timed tracks") and their keys.
  std::uint32_t timedCount() const { return m_timedCount; }
  std::uint32_t timedKeyCount() const;
  /// Whether a timed track keeps packed keys (format version 10, FORMAT.md "Packed timed keys").
  bool timedPacked() const;
  /// Their parameters (sub-track order), then their keys.
  const std::uint8_t* timedParams() const { return m_blob + m_timed; }
  const std::uint8_t* timedKeys() const { return m_blob + m_timedKeysAt; }
  /// Uniform track i in parameter order (FORMAT.md "Uniform tracks": by group, each in sub-track order).
  UniformTrackInfo uniformTrack(std::uint32_t i) const;
  /// Keyed track i in parameter order (rotations, then translations and scales).
  KeyedTrackInfo keyedTrack(std::uint32_t i) const;
  /// Frame of key k of the clip (keys are stored track after track, FORMAT.md "Keyed tracks").
  std::uint32_t keyFrame(std::uint32_t k) const { return loadLE<std::uint16_t>(keys() + std::size_t(k) * kKeySize); }
  /// Raw track i in sub-track order.
  RawTrackInfo rawTrack(std::uint32_t i) const;
  /// Uniform tracks in each group (UniformGroup order).
  std::array<std::uint32_t, kUniformGroupCount> uniformGroups() const {
    return {m_groupEnd[0], std::uint32_t(m_groupEnd[1] - m_groupEnd[0]), std::uint32_t(m_groupEnd[2] - m_groupEnd[1]),
            std::uint32_t(uniformCount() - m_groupEnd[2])};
  }
  /// First uniform track of group g (g = kUniformGroupCount gives the uniform count).
  std::uint32_t uniformGroupStart(unsigned g) const { return g == 0 ? 0 : g <= 3 ? m_groupEnd[g - 1] : uniformCount(); }
  /// Keyed rotation tracks (they come first among the keyed tracks).
  std::uint32_t keyedRotationCount() const { return m_keyedRotations; }

  /// First boundary frame of segment k (k <= segmentCount()).
  std::uint32_t boundaryFrame(std::uint32_t k) const {
    return k >= m_segmentCount ? frameCount() - 1 : k * segmentLength();
  }
  /// Frames whose residuals segment k stores (the last segment also holds the final frame).
  std::uint32_t segmentFrames(std::uint32_t k) const {
    return k + 1 == m_segmentCount ? frameCount() - k * segmentLength() : segmentLength();
  }
  std::uint32_t boundaryRowBits() const { return m_rowBits; }

  // Where the sections start, for the decoder.
  const std::uint8_t* constants() const { return m_blob + kClipHeaderSize + align4(kindBytes(jointCount())); }
  const std::uint8_t* keyedParams() const { return m_blob + m_keyedParams; }
  const std::uint8_t* uniformParams() const {
    return keyedParams() + std::size_t(m_keyedRotations) * kKeyedRotationParamSize +
           std::size_t(keyedCount() - m_keyedRotations) * kKeyedVectorParamSize;
  }
  /// Start of group g's uniform parameter records.
  const std::uint8_t* uniformGroupParams(unsigned g) const {
    const std::uint8_t* p = uniformParams();
    for (unsigned i = 0; i < g; ++i)
      p += std::size_t(uniformGroupStart(i + 1) - uniformGroupStart(i)) * uniformParamSize(UniformGroup(i));
    return p;
  }
  const std::uint8_t* keys() const {
    return m_blob + align4(static_cast<std::uint32_t>(uniformGroupParams(kUniformGroupCount) - m_blob));
  }
  const std::uint8_t* rawSamples() const { return m_blob + m_raw; }
  const std::uint8_t* boundaryBits() const { return m_blob + align4(m_segmentTable + 4 * (m_segmentCount + 1)); }
  const std::uint8_t* segmentData(std::uint32_t k) const {
    const std::uint32_t rows =
        align4(static_cast<std::uint32_t>((std::uint64_t(m_segmentCount + 1) * m_rowBits + 7) / 8));
    return boundaryBits() + rows + loadLE<std::uint32_t>(m_blob + m_segmentTable + 4 * std::size_t(k));
  }

  /// Bytes the view holds beside the clip's own (its object: no tables grow with the clip).
  std::size_t derivedBytes() const { return sizeof(*this); }

  /// Curves (format version 6): as many as the pack has, or 0 when the clip has no curve section.
  std::uint32_t curveCount() const { return curveField<std::uint16_t>(CurveSectionLayout::curveCount); }
  /// What curve i's default track decodes to (its rest weight).
  float curveRestWeight(std::uint32_t i) const { return m_curveRest[i]; }
  TrackKind curveKind(std::uint32_t i) const { return curveSection().kind(i); }
  std::uint32_t curveKeyedCount() const { return curveField<std::uint16_t>(CurveSectionLayout::keyedCount); }
  std::uint32_t curveUniformCount() const { return curveField<std::uint16_t>(CurveSectionLayout::uniformCount); }
  std::uint32_t curveRawCount() const { return curveField<std::uint16_t>(CurveSectionLayout::rawCount); }
  /// Segmented curves (format version 9): their part's header holds the count.
  std::uint32_t curveSegmentedCount() const {
    return (flags() & kClipFlagSegmentedCurves) ? loadLE<std::uint16_t>(curveSection().segmented) : 0;
  }
  std::uint32_t curveConstantCount() const { return m_curveConstants; }
  std::uint32_t curveKeyCount() const;
  /// Bytes of the curve section (0 without one).
  std::uint32_t curveBytes() const { return m_curves ? static_cast<std::uint32_t>(byteSize()) - m_curves : 0; }
  CurveSectionView curveSection() const;

  /// Sizes by section, for `animpack dump`.
  struct Sections {
    std::uint32_t header = 0, kinds = 0, constants = 0, keyedParams = 0, uniformParams = 0, boundaries = 0,
                  segmentTable = 0, segmentData = 0, keys = 0, rawSamples = 0, timed = 0, padding = 0, rootMotion = 0,
                  curves = 0;
  };
  Sections sections() const;

 private:
  friend class ClipViewReader;
  /// A field of the clip's header (FORMAT.md "Clip data block"): the counts are read where they are
  /// stored, not copied (a view stays 80 bytes: a pack of many small clips derives little).
  template <typename T>
  T field(std::uint32_t offset) const {
    return loadLE<T>(m_blob + offset);
  }
  /// A field of the curve section's header, 0 without one.
  template <typename T>
  T curveField(std::uint32_t offset) const {
    return m_curves ? loadLE<T>(m_blob + m_curves + offset) : T(0);
  }
  /// Bytes of the timed section (its parameters, keys and padding).
  std::uint32_t timedBytes() const;
  /// What a default view reads: a header of zeros (no frames, no joints, no tracks).
  static constexpr std::uint8_t kNoClip[kClipHeaderSize] = {};
  const std::uint8_t* m_blob = kNoClip;
  const Transform* m_rest = nullptr;
  std::uint32_t m_id = 0;
  std::uint16_t m_constantCount = 0;
  std::uint16_t m_keyedRotations = 0;
  std::uint16_t m_groupEnd[3] = {};  // uniform tracks before the end of groups 0..2
  std::uint16_t m_firstConstantByte = 0;
  std::uint32_t m_segmentCount = 0;
  std::uint32_t m_rowBits = 0;
  // Section offsets within the blob (the others follow from them and the counts).
  std::uint32_t m_keyedParams = 0, m_raw = 0, m_segmentTable = 0, m_rootMotion = 0;
  // Timed tracks (format version 7): their section's offset and their keys'; the curve section
  // (format version 6): its offset (0: none); their counts the header does not hold; the rest weights.
  std::uint32_t m_timed = 0, m_timedKeysAt = 0;
  std::uint32_t m_curves = 0;
  std::uint16_t m_timedCount = 0;
  std::uint16_t m_curveConstants = 0;
  const float* m_curveRest = nullptr;
};

/// Inline: the curve decoder works it out on most calls, and reads only some of its parts.
inline CurveSectionView ClipView::curveSection() const {
  CurveSectionView s;
  if (m_curves == 0) return s;
  const std::uint8_t* p = m_blob + m_curves + CurveSectionLayout::size;
  s.kinds = p;
  p += align4((curveCount() + 1) / 2);
  s.constants = p;
  p += 4 * std::size_t(m_curveConstants);
  s.keyedParams = p;
  p += std::size_t(kCurveKeyedParamSize) * curveKeyedCount();
  s.uniformParams = p;
  p += std::size_t(kCurveUniformParamSize) * curveUniformCount();
  s.raw = p;
  p += 4 * std::size_t(frameCount()) * curveRawCount();
  s.keys = p;
  p += (std::size_t(curveField<std::uint32_t>(CurveSectionLayout::keyBits)) + 7) / 8;
  s.rows = p;
  s.rowBits = curveField<std::uint32_t>(CurveSectionLayout::rowBits);
  if (flags() & kClipFlagSegmentedCurves) {
    const bool bits = curveField<std::uint32_t>(CurveSectionLayout::keyBits) + s.rowBits > 0;
    p += (std::size_t(frameCount()) * s.rowBits + 7) / 8 + (bits ? kBitPadding : 0);
    s.segmented = m_blob + align4(static_cast<std::uint32_t>(p - m_blob));
  }
  return s;
}

/// Decodes a key's rotation payload (v[3] at `payload`) or vector payload over its track's range.
Quat decodeRotationKey(const std::uint8_t* payload);
Vec3 decodeVectorKey(const std::uint8_t* payload, const float minValue[3], const float extent[3]);

}  // namespace animpack::runtime
