#pragma once
// Which sub-tracks of a clip are keyed between its frames (docs/IMPORT.md "What gets imported"), and
// their source keys: what a timed track (format version 7) stores so the decoded clip follows the
// source between its keys.

#include <optional>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/compress/track_encoding.h"

namespace animpack::core {

/// Per sub-track (joint x 3 + channel) of `clip`: the keys in `source` (the clip's source, or null:
/// none) of a channel that has a key more than a thousandth of a step off the clip's frames, or
/// nothing. Only a joint whose local transform is one source node's own channels qualifies (its
/// keys are then the track's). Nothing for a clip longer than a timed track can be (65536 frames).
std::vector<std::optional<TimedSource>> timedSources(const RawClip& clip, const SourceClip* source);

}  // namespace animpack::core
