#pragma once
// Byte layout of a pack file (.anpk), shared by the writer (core/io) and the reader (Pack).
// See FORMAT.md for the meaning of every field.

#include <cstdint>

namespace animpack::runtime {

inline constexpr std::uint8_t kPackMagic[8] = {'A', 'N', 'P', 'K', '\r', '\n', 0x1a, '\n'};
/// The newest format this reader understands. Append-only: a new version only adds.
inline constexpr std::uint32_t kPackVersion = 1;
inline constexpr std::uint32_t kPackHeaderSize = 64;
inline constexpr std::uint32_t kPackChecksumStart = 32;  // the checksum covers [32, fileSize)
inline constexpr std::uint32_t kSkeletonHeaderSize = 16;
inline constexpr std::uint32_t kSkeletonJointSize = 52;
inline constexpr std::uint32_t kClipEntrySize = 80;
inline constexpr std::uint32_t kToleranceEntrySize = 12;
inline constexpr std::uint32_t kPackAlignment = 8;

struct PackHeaderLayout {
  static constexpr std::uint32_t magic = 0;
  static constexpr std::uint32_t version = 8;
  static constexpr std::uint32_t flags = 12;
  static constexpr std::uint32_t fileSize = 16;      // u64
  static constexpr std::uint32_t checksum = 24;      // u64
  static constexpr std::uint32_t headerSize = 32;
  static constexpr std::uint32_t skeletonOffset = 36;
  static constexpr std::uint32_t skeletonSize = 40;
  static constexpr std::uint32_t clipTableOffset = 44;
  static constexpr std::uint32_t clipCount = 48;
  static constexpr std::uint32_t stringsOffset = 52;
  static constexpr std::uint32_t stringsSize = 56;
  static constexpr std::uint32_t reserved = 60;
};

struct ClipEntryLayout {
  static constexpr std::uint32_t nameOffset = 0;
  static constexpr std::uint32_t nameLength = 4;
  static constexpr std::uint32_t sourceOffset = 8;
  static constexpr std::uint32_t sourceLength = 12;
  static constexpr std::uint32_t clipIndex = 16;
  static constexpr std::uint32_t flags = 20;
  static constexpr std::uint32_t startTime = 24;     // f64 seconds
  static constexpr std::uint32_t sampleRate = 32;    // f32 Hz
  static constexpr std::uint32_t frameCount = 36;
  static constexpr std::uint32_t dataOffset = 40;
  static constexpr std::uint32_t dataSize = 44;
  static constexpr std::uint32_t tolerancesOffset = 48;
  static constexpr std::uint32_t tolerancesSize = 52;
  static constexpr std::uint32_t settingsHash = 56;  // u64
  static constexpr std::uint32_t sourceHash = 64;    // u64
  static constexpr std::uint32_t reserved = 72;      // 8 bytes, zero
};

}  // namespace animpack::runtime
