#include "core/compress/clip_sizes.h"

#include "core/runtime/pack_format.h"

namespace animpack::core {

std::uint64_t rawClipBytes(const RawClip& clip) { return std::uint64_t(10) * 4 * clip.jointCount * clip.frameCount; }

std::uint64_t packedClipBytes(const CompressedClip& clip) { return clip.data.size() + runtime::clipEntrySize(runtime::kPackVersion); }

}  // namespace animpack::core
