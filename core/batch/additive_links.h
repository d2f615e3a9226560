#pragma once
// Which clip an additive clip of a batch is a delta from (docs/SETTINGS.md `additive_base`): the
// setting resolved among the clips of the same file or project as `--clip` resolves names.

#include <cstdint>
#include <string>
#include <vector>

#include "core/compress/additive_base.h"

namespace animpack::core {

/// One clip as the base resolution sees it.
struct AdditiveCandidate {
  std::string packName;
  std::string sourceClip;
  std::string setting;  ///< its effective additive_base ("" when not additive)
  std::uint32_t frameCount = 1;
};

/// A clip's resolved base, or why it has none.
struct AdditiveLink {
  AdditiveRef ref;
  std::string error;  ///< non-empty: the setting names no usable base (the message names the clip and the base)
};

/// Resolves every clip's setting among `clips` (one file or one project): "rest"; a pack name,
/// animation name or wildcard matching one clip; or "CLIP@FRAME". Errors, per clip: a base that is
/// not among `clips`, the clip itself, a base that is additive itself, a frame out of range.
std::vector<AdditiveLink> linkAdditiveBases(const std::vector<AdditiveCandidate>& clips);

}  // namespace animpack::core
