#pragma once
// Byte counts of a clip as the studio and the reports show them, so no caller needs the pack layout.

#include <cstdint>

#include "core/anim/raw_clip.h"
#include "core/compress/compressor.h"

namespace animpack::core {

/// Bytes of the clip uncompressed: 10 float32 (rotation, translation, scale) per joint and frame.
std::uint64_t rawClipBytes(const RawClip& clip);
/// Bytes the clip adds to a pack: its data block and its clip-table entry (core/runtime/FORMAT.md).
std::uint64_t packedClipBytes(const CompressedClip& clip);
/// Bytes the clip keeps resident in a game once its pack is opened: packedClipBytes and the clip's
/// view (core/runtime/FORMAT.md "What the runtime keeps").
std::uint64_t residentClipBytes(const CompressedClip& clip);
/// Bytes a pack of `packBytes` keeps resident once opened: the file, the skeleton's decoded parents
/// and rest pose, and a view per clip.
std::uint64_t residentPackBytes(std::uint64_t packBytes, std::uint32_t joints, std::size_t clips);

}  // namespace animpack::core
