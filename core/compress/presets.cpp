#include "core/compress/presets.h"

#include <algorithm>

#include "core/base/assert.h"

namespace animpack::core {

// Generated from resources/presets/*.json at configure time: {name, json} pairs.
extern const char* const kPresetSources[][2];
extern const std::size_t kPresetCount;

const std::vector<Preset>& builtinPresets() {
  static const std::vector<Preset> presets = [] {
    std::vector<Preset> out;
    for (std::size_t i = 0; i < kPresetCount; ++i) {
      auto s =
          CompressionSettings::fromJson(kPresetSources[i][1], std::string("preset '") + kPresetSources[i][0] + "'");
      ANIMPACK_ASSERT(s.hasValue(), "shipped presets parse");
      out.push_back({kPresetSources[i][0], std::move(s.value())});
    }
    std::sort(out.begin(), out.end(), [](const Preset& a, const Preset& b) { return a.name < b.name; });
    return out;
  }();
  return presets;
}

Expected<CompressionSettings> findPreset(const std::string& name) {
  std::string names;
  for (const Preset& p : builtinPresets()) {
    if (p.name == name) return p.settings;
    names += (names.empty() ? "" : ", ") + p.name;
  }
  return Error{"no preset '" + name + "' (presets: " + names + ")"};
}

}  // namespace animpack::core
