#pragma once
// Binary layout of one compressed clip inside a pack (see FORMAT.md beside this file). Shared by the
// compressor's writer and the runtime's validating reader. All integers little-endian.

#include <bit>
#include <cstdint>
#include <cstring>

namespace animpack::runtime {

static_assert(std::endian::native == std::endian::little, "animpack packs are little-endian; port the readers");

/// The three channels of a joint, in the order sub-tracks are stored.
enum class Channel : std::uint8_t { Rotation = 0, Translation = 1, Scale = 2 };
inline constexpr int kChannelCount = 3;

/// How one sub-track (joint x channel) is stored.
enum class TrackKind : std::uint8_t {
  Default = 0,        ///< equals the skeleton's rest value: no data
  Constant = 1,       ///< one value: rotation 48-bit smallest-three, vector 3 x float32
  ConstantQ32 = 2,    ///< one rotation, 32-bit smallest-three
  ConstantFloat = 3,  ///< one rotation, 4 x float32 (precision beyond 48 bits)
  Keyed = 4,      ///< Catmull-Rom keys, stored track after track in time order (version 5; a need-sorted stream before)
  Uniform = 5,    ///< every frame: spline through regular boundaries plus per-frame residuals
  Raw = 6,        ///< every frame as float32 (format version 2): the precision floor
  Timed = 7,      ///< keys at their own times, linear between them (format version 7): off-grid sources
  Segmented = 8,  ///< curves only (format version 9): every frame, lines between boundaries plus residuals
};
inline constexpr std::uint8_t kTrackKindCount = 9;

inline constexpr std::uint32_t kClipHeaderSize = 32;
/// One key: u16 frame, u16 payload[3], in its track's run of keys (FORMAT.md "Keyed tracks").
inline constexpr std::uint32_t kKeySize = 8;
/// Keyed track parameters: u16 joint, u8 channel, u8 0, u32 key count; a vector adds f32 min[3], extent[3].
inline constexpr std::uint32_t kKeyedRotationParamSize = 8;
inline constexpr std::uint32_t kKeyedVectorParamSize = 32;
/// Format version 7 (FORMAT.md "Timed tracks"): a timed key is u32 time (frame position in 1/65536
/// frames) and its value: quantized as a keyed key's payload (kTimedQuantized, 10-byte keys), or
/// float32 components (kTimedFloat); the track's parameters are a keyed track's with the format in
/// their fourth byte, a float vector track without its range.
/// Format version 10 adds packed keys (kTimedPacked): 44-byte parameters (PackedTimedParam offsets
/// below) and each key as bit fields: its time's offset from the track's line of key times (units of
/// 2^shift ticks), then its components as min + q x step, in the widths the parameters give
/// (FORMAT.md "Packed timed keys").
inline constexpr std::uint8_t kTimedQuantized = 0, kTimedFloat = 1, kTimedPacked = 2;
inline constexpr std::uint32_t kTimedKeySize = 10;
inline constexpr std::uint32_t kTimedTicksPerFrame = 65536;
inline constexpr std::uint32_t kTimedPackedParamSize = 44;
inline constexpr unsigned kMaxTimedTimeShift = 16, kMaxTimedTimeBits = 31, kMaxTimedValueBits = 24;
/// Byte offsets in a packed timed track's parameters (after u16 joint, u8 channel, u8 format, u32 count).
namespace PackedTimedParam {
inline constexpr std::uint32_t kShift = 8, kTimeWidth = 9, kComponents = 10, kWidths = 12, kStep = 16, kMin = 20,
                               kSlope = 36, kBase = 40;
}
inline std::uint32_t timedParamSize(Channel channel, std::uint8_t format) {
  if (format == kTimedPacked) return kTimedPackedParamSize;
  return channel != Channel::Rotation && format == kTimedQuantized ? kKeyedVectorParamSize : kKeyedRotationParamSize;
}
/// Bytes of one key of the byte-aligned formats (quantized, float32).
inline std::uint32_t timedKeySize(Channel channel, std::uint8_t format) {
  return format == kTimedFloat ? (channel == Channel::Rotation ? 20 : 16) : kTimedKeySize;
}
/// Format versions 1 to 4 (read through core/io/legacy.cpp): a key of the need-sorted stream is
/// u16 frame, u16 joint (14 bits) | channel (2 bits), u16 payload[3]; keyed parameters carry no key
/// count; seek snapshots follow the stream.
inline constexpr std::uint32_t kLegacyKeySize = 10;
inline constexpr std::uint32_t kLegacyKeyedRotationParamSize = 4;
inline constexpr std::uint32_t kLegacyKeyedVectorParamSize = 28;
inline constexpr std::uint32_t kSnapshotSize = 12;
inline constexpr std::uint32_t kUniformParamSize = 24;
inline constexpr std::uint32_t kUniformRefSize = 16;
inline constexpr std::uint32_t kSegmentHeaderBytesPerTrack = 3;
/// A clip with uniform tracks ends with this much zero padding so 8-byte bit reads stay inside.
inline constexpr std::uint32_t kBitPadding = 8;
inline constexpr unsigned kMaxResidualBits = 31;
inline constexpr unsigned kMaxBoundaryBits = 32;
inline constexpr unsigned kMaxResidualShift = 15;
inline constexpr std::uint32_t kMaxJoints = 16383;             // 14-bit joint index in a key
inline constexpr std::uint32_t kMaxKeyedFrames = 65536;        // 16-bit key time
inline constexpr std::uint8_t kUniformFlagReference = 1;       // rotation relative to a reference quaternion
inline constexpr std::uint8_t kUniformFlagFourComponents = 2;  // rotation stored as x, y, z, w (normalised at decode)

/// Clip header flags.
inline constexpr std::uint16_t kClipFlagLoop = 1;
/// Format version 3, with kClipFlagLoop: the cycle is F frames long and between the last frame and
/// the next cycle's first the clip interpolates from its last frame to its first (the wrap
/// interval). Without it a looping clip's last frame repeats its first and the cycle is F - 1.
inline constexpr std::uint16_t kClipFlagWrap = 2;
/// Format version 3: a root-motion section ends the clip block (FORMAT.md "Root motion").
inline constexpr std::uint16_t kClipFlagRootMotion = 4;
/// Format version 3: the tracks are deltas from a base pose (the pack's clip table names the base).
inline constexpr std::uint16_t kClipFlagAdditive = 8;
/// Format version 3, with kClipFlagWrap: the source had one more frame, a repeat of the first,
/// which the wrap interval replaces (decoding frame F gives it).
inline constexpr std::uint16_t kClipFlagDroppedLast = 16;
/// Format version 6: a curve section (morph-target weights, FORMAT.md "Curves") ends the clip block,
/// after the root-motion section when there is one.
inline constexpr std::uint16_t kClipFlagCurves = 32;
/// Format version 7: the clip has timed tracks; their section follows the raw samples.
inline constexpr std::uint16_t kClipFlagTimed = 64;
/// Format version 9, with kClipFlagCurves: some curves are segmented; their part ends the curve
/// section (FORMAT.md "Segmented curves").
inline constexpr std::uint16_t kClipFlagSegmentedCurves = 128;
inline constexpr std::uint16_t kClipFlagsV2 = kClipFlagLoop;
inline constexpr std::uint16_t kClipFlagsV3 =
    kClipFlagLoop | kClipFlagWrap | kClipFlagRootMotion | kClipFlagAdditive | kClipFlagDroppedLast;
inline constexpr std::uint16_t kClipFlagsV6 = kClipFlagsV3 | kClipFlagCurves;
inline constexpr std::uint16_t kClipFlagsV7 = kClipFlagsV6 | kClipFlagTimed;
inline constexpr std::uint16_t kClipFlagsV9 = kClipFlagsV7 | kClipFlagSegmentedCurves;

/// Root-motion section (version 3): u16 joint, u8 up axis (0 x, 1 y, 2 z), u8 zero, f32[4]
/// reference ground frame (x y z on the ground plane, yaw in radians about the up axis), f32[4]
/// cycle delta (the motion of one whole cycle), then per frame f32[4] (x y z, yaw): the motion
/// from frame 0, in the reference frame's axes.
inline constexpr std::uint32_t kRootMotionHeaderSize = 36;
inline constexpr std::uint32_t kRootMotionFrameSize = 16;
inline std::uint64_t rootMotionSectionSize(std::uint32_t frames) {
  return kRootMotionHeaderSize + std::uint64_t(frames) * kRootMotionFrameSize;
}

/// Field offsets of the clip header. Sections follow the header in a fixed order, each starting
/// at a multiple of 4 bytes; their sizes follow from the counts and the track kinds (FORMAT.md).
struct ClipHeaderLayout {
  static constexpr std::uint32_t frameCount = 0;          // u32
  static constexpr std::uint32_t sampleRate = 4;          // f32, Hz
  static constexpr std::uint32_t jointCount = 8;          // u16
  static constexpr std::uint32_t segmentLength = 10;      // u16, frames per uniform segment (0: none)
  static constexpr std::uint32_t flags = 12;              // u16
  static constexpr std::uint32_t uniformTrackCount = 14;  // u16
  static constexpr std::uint32_t keyedTrackCount = 16;    // u16
  static constexpr std::uint32_t rawTrackCount = 18;      // u16 (format version 1: always zero)
  static constexpr std::uint32_t keyCount = 20;           // u32
  static constexpr std::uint32_t snapshotCount = 24;      // u32
  static constexpr std::uint32_t totalSize = 28;          // u32
};

/// Bytes a constant sub-track stores (FORMAT.md "Sub-tracks and kinds"); 0 for the other kinds.
inline std::uint32_t constantSize(TrackKind kind, Channel channel) {
  switch (kind) {
    case TrackKind::Constant: return channel == Channel::Rotation ? 6 : 12;
    case TrackKind::ConstantQ32: return 4;
    case TrackKind::ConstantFloat: return 16;
    default: return 0;
  }
}

/// Track kinds are stored as nibbles: sub-track i (joint * 3 + channel) in byte i / 2, low nibble first.
inline std::uint32_t kindBytes(std::uint32_t joints) { return (joints * 3 + 1) / 2; }
inline std::uint32_t align4(std::uint32_t v) { return (v + 3u) & ~3u; }

/// Boundary frames of the uniform segments: b_k = k * S for k < M, b_M = frames - 1.
inline std::uint32_t uniformSegmentCount(std::uint32_t frames, std::uint32_t segmentLength) {
  if (frames < 2 || segmentLength == 0) return 0;
  return static_cast<std::uint32_t>((std::uint64_t(frames) - 1 + segmentLength - 1) /
                                    segmentLength);  // 64 bits: no wrap
}

template <typename T>
inline T loadLE(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
inline void storeLE(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

/// Bits of one packed timed key: its time width and its components' widths (`param`: the track's
/// parameters; the widths of unused components are 0).
inline std::uint32_t timedPackedKeyBits(const std::uint8_t* param) {
  std::uint32_t bits = param[PackedTimedParam::kTimeWidth];
  for (int c = 0; c < 4; ++c) bits += param[PackedTimedParam::kWidths + c];
  return bits;
}
/// Bytes of a timed track's run of keys (`param`: its parameters).
inline std::uint64_t timedRunBytes(const std::uint8_t* param) {
  const std::uint64_t count = loadLE<std::uint32_t>(param + 4);
  if (param[3] == kTimedPacked) return (count * timedPackedKeyBits(param) + 7) / 8;
  return count * timedKeySize(Channel(param[2]), param[3]);
}

/// Packs joint and channel into a key's second field: low 14 bits joint, top 2 bits channel.
inline std::uint16_t packJointChannel(std::uint32_t joint, Channel channel) {
  return static_cast<std::uint16_t>((joint & 0x3fffu) | (std::uint32_t(channel) << 14));
}

/// The uniform group of a track's parameters (FORMAT.md "Uniform tracks": groups are stored in this
/// order): rotations as x, y, z; the same relative to a reference; rotations as x, y, z, w; vectors.
enum class UniformGroup : std::uint8_t { Rotation = 0, RotationReference = 1, Rotation4 = 2, Vector = 3 };
inline constexpr unsigned kUniformGroupCount = 4;
inline UniformGroup uniformGroup(Channel channel, std::uint8_t uniformFlags) {
  if (channel != Channel::Rotation) return UniformGroup::Vector;
  if (uniformFlags & kUniformFlagFourComponents) return UniformGroup::Rotation4;
  return (uniformFlags & kUniformFlagReference) ? UniformGroup::RotationReference : UniformGroup::Rotation;
}
/// Bytes of one uniform parameter record of a group.
inline std::uint32_t uniformParamSize(UniformGroup group) {
  switch (group) {
    case UniformGroup::RotationReference: return kUniformParamSize + kUniformRefSize;
    case UniformGroup::Rotation4: return kUniformParamSize + 4;
    default: return kUniformParamSize;
  }
}
/// Bytes of one keyed parameter record.
inline std::uint32_t keyedParamSize(Channel channel) {
  return channel == Channel::Rotation ? kKeyedRotationParamSize : kKeyedVectorParamSize;
}

}  // namespace animpack::runtime
