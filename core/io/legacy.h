#pragma once
// Clip blocks of format versions 1 to 4 (FORMAT.md "Versioning"): their keys are one stream sorted by
// the time they are needed, with seek snapshots, and their uniform tracks are in sub-track order.
// A Pack of such a version rewrites each of its clips into the current layout once, when it is
// opened (the slower path older packs take; every value is carried over as stored, so they decode
// bit-exactly as before).

#include <cstdint>
#include <span>
#include <vector>

#include "core/runtime/pack.h"
#include "core/runtime/status.h"

namespace animpack::runtime {

/// Validates a version 1-4 clip block (every rule its version had) and returns the same clip in
/// the current layout. `joints` is the skeleton's joint count.
Expected<std::vector<std::uint8_t>> upgradeClip(std::span<const std::uint8_t> blob, std::uint32_t joints);

/// Pack::open options that read every format version the tool reads: 1 to 4 through upgradeClip.
inline Pack::OpenOptions anyVersion() { return {&upgradeClip}; }

}  // namespace animpack::runtime
