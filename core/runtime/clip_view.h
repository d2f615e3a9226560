#pragma once
// A validated, read-only view of one compressed clip (the bytes stay owned by the caller, usually a
// Pack). Opening checks every count, offset, size, index, bit width and the key stream's sort order,
// so the Player can decode without further bounds checks.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/runtime/clip_format.h"
#include "core/runtime/math.h"
#include "core/runtime/status.h"

namespace animpack::runtime {

/// Decoding parameters of one uniformly sampled sub-track.
struct UniformTrackInfo {
  std::uint32_t joint = 0;
  Channel channel = Channel::Rotation;
  bool hasReference = false;  ///< rotation stored relative to `reference`
  std::uint8_t components = 3;  ///< 4: a rotation stored as x, y, z, w and normalised
  Quat reference;
  float minValue[4] = {};
  float step = 0;                      ///< quantization step of boundaries and residual units
  std::uint8_t width[4] = {};          ///< boundary bits per component
  std::uint32_t boundaryBitOffset = 0; ///< position of this track inside a boundary row
};

/// Up to four uniform tracks of one shape in structure-of-arrays form ([component][lane]), what the
/// Player's four-lane kernels read. Built when the clip is opened; lanes from `lanes` on repeat the
/// last track so every lane computes on valid values (their results are not stored). Rotations
/// without a reference come first, so that most batches skip the reference product.
struct UniformBatch {
  enum class Shape : std::uint8_t {
    Rotation,      ///< x, y, z of a unit quaternion with w >= 0, optionally relative to a reference
    Rotation4,     ///< x, y, z, w, normalised
    Vector,        ///< translation or scale x, y, z
  };
  Shape shape = Shape::Vector;
  std::uint8_t components = 3;
  std::uint8_t lanes = 0;                ///< tracks in the batch, 1..4
  bool wideBoundary = false;             ///< a lane's boundary values span more than 56 bits
  bool relative = false;                 ///< some lane's rotation is relative to its reference
  std::uint32_t track[4] = {};           ///< uniform track index per lane
  std::uint32_t outOffset[4] = {};       ///< byte offset of the lane's channel in a pose (Transform array)
  float minValue[4][4] = {};
  float step[4] = {};
  float reference[4][4] = {};            ///< [x y z w][lane]: identity where the lane has none
  std::uint32_t hasReference[4] = {};    ///< all bits set where the lane's rotation is relative
  std::uint32_t rowOffset = 0;           ///< where the batch's floats start inside a decoded row (ClipView::boundaryRows)
  std::uint32_t boundaryOffset[4] = {};  ///< bit offset of the lane's values inside a boundary row
  std::uint8_t boundaryShift[4][4] = {}; ///< bit offset of each component inside the lane's values
  std::uint32_t boundaryMask[4][4] = {}; ///< 2^width - 1 per component
};

/// Where a uniform track sits among the batches.
struct UniformSlot {
  std::uint32_t batch = 0;
  std::uint32_t lane = 0;
};

/// Decoding parameters of one keyed sub-track.
struct KeyedTrackInfo {
  std::uint32_t joint = 0;
  Channel channel = Channel::Rotation;
  float minValue[3] = {};
  float extent[3] = {};
};

/// A keyed track's key value decoded when the clip is opened: x y z w of a rotation (in its
/// track's sign chain), x y z 0 of a vector.
using KeyValue = std::array<float, 4>;

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
  std::uint8_t upAxis = 1;    ///< 0 x, 1 y, 2 z
  float reference[4] = {};    ///< the ground frame at frame 0: x y z (on the ground plane), yaw (radians)
  float cycle[4] = {};        ///< the motion of one cycle: x y z, yaw
  const std::uint8_t* frames = nullptr;  ///< f32[4] per frame: x y z, yaw
};

/// One seek snapshot: replaying keys [replayStart, replayEnd) rebuilds every keyed track's window
/// at `frame`; keys from replayEnd on are consumed by the normal forward scan.
struct Snapshot {
  std::uint32_t frame = 0;
  std::uint32_t replayStart = 0;
  std::uint32_t replayEnd = 0;
};

class ClipView {
 public:
  /// Validates `blob` against a skeleton's rest pose (which supplies default tracks).
  static Expected<ClipView> open(std::span<const std::uint8_t> blob, std::span<const Transform> restPose);

  /// Unique per opened clip (copies share it): players use it to notice a different clip even at
  /// the same address.
  std::uint64_t id() const { return m_id; }
  std::uint32_t jointCount() const { return static_cast<std::uint32_t>(m_basePose.size()); }
  std::uint32_t frameCount() const { return m_frameCount; }
  float sampleRate() const { return m_sampleRate; }
  /// Seconds from the first to the last frame.
  float duration() const { return m_frameCount > 1 ? float(m_frameCount - 1) / m_sampleRate : 0.f; }
  bool loops() const { return (m_flags & kClipFlagLoop) != 0; }
  /// A looping clip whose last frame interpolates to its first (format version 3, kClipFlagWrap).
  bool wraps() const { return (m_flags & kClipFlagWrap) != 0; }
  /// Frames in one cycle: F for a wrapping clip, F - 1 for a loop whose last frame repeats its first.
  float cycleFrames() const { return float(wraps() ? m_frameCount : m_frameCount - 1); }
  /// The source's last frame repeated its first and was dropped (kClipFlagDroppedLast).
  bool droppedLastFrame() const { return (m_flags & kClipFlagDroppedLast) != 0; }
  /// Frames of the source clip: frameCount(), plus the dropped last frame (decoded as frame 0).
  std::uint32_t sourceFrameCount() const { return m_frameCount + (droppedLastFrame() ? 1u : 0u); }
  /// The tracks are deltas from a base pose (apply them with runtime::applyAdditive).
  bool additive() const { return (m_flags & kClipFlagAdditive) != 0; }
  /// The root-motion section, or nullptr.
  const RootMotionInfo* rootMotion() const { return (m_flags & kClipFlagRootMotion) != 0 ? &m_rootMotion : nullptr; }
  /// Header flags (kClipFlag*).
  std::uint32_t flags() const { return m_flags; }
  std::uint32_t segmentLength() const { return m_segmentLength; }
  std::uint32_t segmentCount() const { return m_segmentCount; }
  std::size_t byteSize() const { return m_blob.size(); }

  TrackKind kind(std::uint32_t joint, Channel channel) const { return m_kinds[joint * 3 + std::size_t(channel)]; }
  /// Rest values overwritten by every constant track: the starting point of each decoded pose.
  std::span<const Transform> basePose() const { return m_basePose; }
  /// The skeleton's rest pose the clip was opened against.
  std::span<const Transform> restPose() const { return m_restPose; }
  std::span<const UniformTrackInfo> uniformTracks() const { return m_uniform; }
  /// The uniform tracks in batches of four of one shape, rotations first (see UniformBatch).
  std::span<const UniformBatch> uniformBatches() const { return m_batches; }
  /// Batch and lane of each uniform track, in track order.
  std::span<const UniformSlot> uniformSlots() const { return m_slots; }
  std::span<const KeyedTrackInfo> keyedTracks() const { return m_keyed; }
  /// The keyed tracks in batches of four for the Player's four-lane interpolation between frames:
  /// rotations (shape Rotation4) before vectors, `track` naming keyedTracks() indices. Only the
  /// shape, lanes, tracks and output offsets are set.
  std::span<const UniformBatch> keyedBatches() const { return m_keyedBatches; }
  std::span<const RawTrackInfo> rawTracks() const { return m_raw; }
  /// Keyed-track index of a (joint, channel), or -1.
  std::int32_t keyedSlot(std::uint32_t jointChannel) const { return m_keyedSlot[jointChannel]; }
  std::uint32_t keyCount() const { return m_keyCount; }
  const std::uint8_t* keys() const { return m_keys; }
  /// Every keyed track's keys decoded to floats when the clip was opened, track after track, each
  /// track's in time order: track t's are [trackKeyOffsets()[t], trackKeyOffsets()[t + 1]) of
  /// keyTimes() (frames) and keyValues() (rotations negated where they point away from the key before,
  /// FORMAT.md "Per-instance decoder state"). Neither playback nor a seek unpacks keys.
  std::span<const float> keyTimes() const { return m_keyTimes; }
  std::span<const KeyValue> keyValues() const { return m_keyValues; }
  std::span<const std::uint32_t> trackKeyOffsets() const { return m_trackKeyOffsets; }
  std::span<const Snapshot> snapshots() const { return m_snapshots; }

  const std::uint8_t* boundaryBits() const { return m_boundary; }
  /// Segment k's four boundary rows k-1 .. k+2 (a missing neighbour repeats the endpoint) decoded to
  /// floats when the clip was opened: row i of a batch's values starts at
  /// `boundaryRows(k) + i * rowFloats() + batch.rowOffset`, [component][lane] (quantized integers).
  const float* boundaryRows(std::uint32_t k) const { return m_rows.data() + std::size_t(k) * m_rowFloats; }
  /// Floats per decoded boundary row: four per component of every batch.
  std::uint32_t rowFloats() const { return m_rowFloats; }
  std::uint32_t boundaryRowBits() const { return m_boundaryRowBits; }
  /// First boundary frame of segment k (k <= segmentCount()).
  std::uint32_t boundaryFrame(std::uint32_t k) const {
    return k >= m_segmentCount ? m_frameCount - 1 : k * m_segmentLength;
  }
  /// Frames whose residuals segment k stores (the last segment also holds the final frame).
  std::uint32_t segmentFrames(std::uint32_t k) const {
    return k + 1 == m_segmentCount ? m_frameCount - k * m_segmentLength : m_segmentLength;
  }
  const std::uint8_t* segmentData(std::uint32_t k) const { return m_segmentData + m_segmentOffsets[k]; }
  /// Bit offset of each uniform track's residuals inside segment k (track order), derived from the
  /// segment's widths when the clip is opened.
  const std::uint32_t* residualBases(std::uint32_t k) const { return m_residualBases.data() + std::size_t(k) * m_uniform.size(); }
  /// Bytes the view derives beside the pack's own (decoded constants, track parameters, residual
  /// offsets, boundary rows, keys): shared by every Player that plays the clip.
  std::size_t derivedBytes() const;

  /// Sizes by section, for `animpack dump`.
  struct Sections {
    std::uint32_t header = 0, kinds = 0, constants = 0, keyedParams = 0, uniformParams = 0, boundaries = 0,
                  segmentTable = 0, segmentData = 0, keys = 0, snapshots = 0, rawSamples = 0, padding = 0, rootMotion = 0;
  };
  const Sections& sections() const { return m_sections; }

 private:
  friend class ClipViewReader;
  void buildUniformBatches();
  void buildKeyedBatches();
  void decodeBoundaryRows();
  std::uint64_t m_id = 0;
  std::span<const std::uint8_t> m_blob;
  std::uint32_t m_frameCount = 0;
  float m_sampleRate = 0;
  std::uint32_t m_flags = 0;
  std::uint32_t m_segmentLength = 0;
  std::uint32_t m_segmentCount = 0;
  std::vector<TrackKind> m_kinds;
  std::vector<Transform> m_basePose;
  std::vector<Transform> m_restPose;
  std::vector<UniformTrackInfo> m_uniform;
  std::vector<UniformBatch> m_batches;
  std::vector<UniformSlot> m_slots;
  std::vector<KeyedTrackInfo> m_keyed;
  std::vector<UniformBatch> m_keyedBatches;
  std::vector<RawTrackInfo> m_raw;
  std::vector<std::int32_t> m_keyedSlot;
  std::vector<std::uint32_t> m_segmentOffsets;
  std::vector<std::uint32_t> m_residualBases;  // [segment][uniform track]
  std::vector<float> m_rows;                   // [boundary row + 1, clamped][rowFloats]
  std::uint32_t m_rowFloats = 0;
  std::vector<Snapshot> m_snapshots;
  RootMotionInfo m_rootMotion;
  const std::uint8_t* m_boundary = nullptr;
  std::uint32_t m_boundaryRowBits = 0;
  const std::uint8_t* m_segmentData = nullptr;
  const std::uint8_t* m_keys = nullptr;
  std::uint32_t m_keyCount = 0;
  std::vector<float> m_keyTimes;
  std::vector<KeyValue> m_keyValues;
  std::vector<std::uint32_t> m_trackKeyOffsets;
  Sections m_sections;
};

/// Decodes key i of a rotation track (payload v[3]) or a vector track over its range.
Quat decodeRotationKey(const std::uint8_t* key);
Vec3 decodeVectorKey(const std::uint8_t* key, const KeyedTrackInfo& track);

}  // namespace animpack::runtime
