#include "core/compress/clip_sizes.h"

#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"

namespace animpack::core {

std::uint64_t rawClipBytes(const RawClip& clip) { return std::uint64_t(10) * 4 * clip.jointCount * clip.frameCount; }

std::uint64_t packedClipBytes(const CompressedClip& clip) {
  return clip.data.size() + runtime::clipEntrySize(runtime::kPackVersion);
}

std::uint64_t residentClipBytes(const CompressedClip& clip) {
  return packedClipBytes(clip) + runtime::Pack::clipDerivedBytes();
}

std::uint64_t residentPackBytes(std::uint64_t packBytes, std::uint32_t joints, std::size_t clips) {
  return packBytes + runtime::Pack::sharedDerivedBytes(joints) + clips * runtime::Pack::clipDerivedBytes();
}

}  // namespace animpack::core
