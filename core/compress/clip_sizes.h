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

}  // namespace animpack::core
