#pragma once
// The settings presets shipped in resources/presets (built into the library, so the installed CLI
// and the studio find them): hero, npc, mocap, props.

#include <string>
#include <vector>

#include "core/compress/settings.h"

namespace animpack::core {

struct Preset {
  std::string name;
  CompressionSettings settings;  ///< its `description` says when to use it
};

/// Every built-in preset, sorted by name.
const std::vector<Preset>& builtinPresets();
/// The preset with this name, or an error listing the available ones.
Expected<CompressionSettings> findPreset(const std::string& name);

}  // namespace animpack::core
