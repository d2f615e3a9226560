#pragma once
// Byte layout of a pack file (.anpk), shared by the writer (core/io) and the reader (Pack).
// See FORMAT.md for the meaning of every field.

#include <cstdint>

namespace animpack::runtime {

inline constexpr std::uint8_t kPackMagic[8] = {'A', 'N', 'P', 'K', '\r', '\n', 0x1a, '\n'};
/// The newest format this reader understands. Append-only: a new version only adds.
inline constexpr std::uint32_t kPackVersion = 10;
/// The oldest version the runtime reads as it is; older packs open only in the tool (core/io/legacy.h)
/// or after `animpack upgrade`.
inline constexpr std::uint32_t kPackOldestDirectVersion = 5;
inline constexpr std::uint32_t kPackHeaderSize = 64;
inline constexpr std::uint32_t kPackChecksumStart = 32;  // the checksum covers [32, fileSize)
inline constexpr std::uint32_t kSkeletonHeaderSize = 16;
inline constexpr std::uint32_t kSkeletonJointSize = 52;
inline constexpr std::uint32_t kClipEntrySize = 56;    // versions 1 and 2
inline constexpr std::uint32_t kClipEntrySizeV3 = 64;  // version 3 adds the additive base
/// The clip table entry size of a format version.
inline constexpr std::uint32_t clipEntrySize(std::uint32_t version) {
  return version >= 3 ? kClipEntrySizeV3 : kClipEntrySize;
}
/// Additive base field values (version 3): not additive, or a delta from the rest pose.
inline constexpr std::uint32_t kAdditiveNone = 0xffffffffu;
inline constexpr std::uint32_t kAdditiveRest = 0xfffffffeu;
/// Version 4: per clip, where its source animation's name is in the string table (u32 offset, u32 length).
inline constexpr std::uint32_t kSourceClipEntrySize = 8;
/// Version 6: the curve table after the joints of the skeleton block (u32 count, u32 0, u64 hash,
/// then one record per curve: u32 name offset, u16 name length, u16 node length, u32 target offset,
/// u32 target length, u32 target index, f32 displacement cm, f32 rest weight).
inline constexpr std::uint32_t kCurveTableHeaderSize = 16;
inline constexpr std::uint32_t kCurveRecordSize = 28;
inline constexpr std::uint32_t kToleranceHeaderSize = 4;
inline constexpr std::uint32_t kToleranceEntrySize = 9;
inline constexpr std::uint32_t kPackAlignment = 8;

struct PackHeaderLayout {
  static constexpr std::uint32_t magic = 0;
  static constexpr std::uint32_t version = 8;
  static constexpr std::uint32_t flags = 12;
  static constexpr std::uint32_t fileSize = 16;  // u64
  static constexpr std::uint32_t checksum = 24;  // u64
  static constexpr std::uint32_t headerSize = 32;
  static constexpr std::uint32_t skeletonOffset = 36;
  static constexpr std::uint32_t skeletonSize = 40;
  static constexpr std::uint32_t clipTableOffset = 44;
  static constexpr std::uint32_t clipCount = 48;
  static constexpr std::uint32_t stringsOffset = 52;
  static constexpr std::uint32_t stringsSize = 56;
  static constexpr std::uint32_t reserved = 60;           // versions 1-3: 0
  static constexpr std::uint32_t sourceClipsOffset = 60;  // version 4: the source clip name table
};

/// One entry of the clip table. Frame count, sample rate and the loop flag live in the clip's own
/// header; a tolerance table may be shared by several clips.
struct ClipEntryLayout {
  static constexpr std::uint32_t nameOffset = 0;    // u32, into the string table
  static constexpr std::uint32_t nameLength = 4;    // u16
  static constexpr std::uint32_t sourceLength = 6;  // u16
  static constexpr std::uint32_t sourceOffset = 8;  // u32
  static constexpr std::uint32_t clipIndex = 12;    // u32
  static constexpr std::uint32_t startTime = 16;    // f64 seconds
  static constexpr std::uint32_t dataOffset = 24;   // u32
  static constexpr std::uint32_t dataSize = 28;     // u32
  static constexpr std::uint32_t tolerancesOffset = 32;
  static constexpr std::uint32_t tolerancesSize = 36;
  static constexpr std::uint32_t settingsHash = 40;  // u64
  static constexpr std::uint32_t sourceHash = 48;    // u64
  static constexpr std::uint32_t additiveBase =
      56;  // u32 (version 3): kAdditiveNone, kAdditiveRest or the base clip's index
  static constexpr std::uint32_t additiveFrame = 60;  // i32 (version 3): the base's frame, or -1 for the same time
};

}  // namespace animpack::runtime
