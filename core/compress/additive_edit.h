#pragma once
// The studio's edit of a clip's additive base (docs/SETTINGS.md `additive_base`), as a pure
// function of the settings like the edits of core/compress/settings_edit.h.

#include <string>

#include "core/compress/settings.h"

namespace animpack::core {

/// `settings` where clip `clip` (its exact-name override) has `additive_base` = `base`: "rest",
/// a clip name, "CLIP@FRAME", or "" for an absolute clip. An empty base is written as null only when
/// a wider rule would otherwise make the clip additive; else the key is removed.
CompressionSettings withAdditiveBase(const CompressionSettings& settings, const std::string& clip,
                                     const std::string& base);

}  // namespace animpack::core
