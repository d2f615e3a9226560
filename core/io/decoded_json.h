#pragma once
// The decoded-clip JSON (`animpack decode`, README "Command line"): every frame's local transforms
// as the runtime decodes them, in file units, so other tools can check the error independently.

#include <optional>
#include <string>

#include "core/runtime/pack.h"

namespace animpack::core {

/// {"clip","clip_index","start_time","sample_rate","frame_count","unit_to_cm",
///  "joints":[{"name","parent","precision_cm","shell_cm"}],
///  "frames":[[[tx,ty,tz,qx,qy,qz,qw,sx,sy,sz] per joint] per frame]}
/// With `rateHz`, the frames are samples at start_time + k / rateHz (k = 0 .. floor(duration x
/// rateHz)) through the runtime's Player, and sample_rate is rateHz: a check between frames.
std::string decodedClipJson(const runtime::Pack& pack, const runtime::PackClip& clip, std::optional<double> rateHz = {});

}  // namespace animpack::core
