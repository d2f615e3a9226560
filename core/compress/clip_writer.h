#pragma once
// Assembles one clip's bytes in the layout of core/runtime/FORMAT.md from its sub-track encodings
// (core/io/clip_builder.h writes the block).

#include <cstdint>
#include <span>
#include <vector>

#include "core/compress/track_encoding.h"

namespace animpack::core {

struct ClipLayout {
  std::uint32_t frameCount = 1;
  float sampleRate = 30.f;
  bool loop = false;
  bool wrap = false;                 ///< with loop: the last frame interpolates to the first (format version 3)
  bool droppedLast = false;          ///< with wrap: the source's repeated last frame was dropped
  std::uint32_t segmentLength = 16;  ///< frames per uniform segment
  std::uint32_t snapshotIntervalFrames =
      30;  ///< the keyed tracks' largest key gap is half of it (no snapshots are written since format version 5)
  std::span<const TrackEncoding> tracks;  ///< joint * 3 + channel
  bool additive = false;                  ///< the tracks are deltas from a base pose (format version 3)
};

/// The clip's bytes. The layout is fully determined by the inputs (byte-identical output).
std::vector<std::uint8_t> writeClip(const ClipLayout& layout);

}  // namespace animpack::core
