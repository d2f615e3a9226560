#pragma once
// The decoded-clip JSON of DESIGN §9 (`animpack decode`): every frame's local transforms as the
// runtime decodes them, in file units, so other tools can check the error independently.

#include <string>

#include "core/runtime/pack.h"

namespace animpack::core {

/// {"clip","clip_index","start_time","sample_rate","frame_count","unit_to_cm",
///  "joints":[{"name","parent","precision_cm","shell_cm"}],
///  "frames":[[[tx,ty,tz,qx,qy,qz,qw,sx,sy,sz] per joint] per frame]}
std::string decodedClipJson(const runtime::Pack& pack, const runtime::PackClip& clip);

}  // namespace animpack::core
