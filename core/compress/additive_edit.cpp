#include "core/compress/additive_edit.h"

#include <algorithm>

namespace animpack::core {

CompressionSettings withAdditiveBase(const CompressionSettings& settings, const std::string& clip,
                                     const std::string& base) {
  CompressionSettings out = settings;
  auto it = std::find_if(out.clips.begin(), out.clips.end(), [&](const auto& r) { return r.first == clip; });
  if (it == out.clips.end()) {
    out.clips.emplace_back(clip, ClipOverride{});
    it = out.clips.end() - 1;
  }
  it->second.additiveBase.reset();
  // Without its own value the clip takes the top level's or a wildcard's: an explicit null keeps it absolute.
  if (!base.empty() || !additiveBaseSetting(out, clip).empty()) it->second.additiveBase = base;
  if (it->second == ClipOverride{}) out.clips.erase(it);
  return out;
}

}  // namespace animpack::core
