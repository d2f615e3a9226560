#include "tests/fuzz/fuzz_target.h"

#include <cstring>
#include <vector>

#include "core/io/legacy.h"
#include "core/runtime/hash.h"
#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"
#include "core/runtime/player.h"

namespace animpack::test {

void fuzzPack(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  if (size >= runtime::kPackHeaderSize) {
    const std::uint64_t checksum =
        runtime::fnv1a64(std::span(bytes.data() + runtime::kPackChecksumStart, size - runtime::kPackChecksumStart));
    std::memcpy(bytes.data() + runtime::PackHeaderLayout::checksum, &checksum, sizeof(checksum));
  }
  auto pack = runtime::Pack::open(std::move(bytes), runtime::anyVersion());
  if (!pack) return;
  runtime::Player player;
  for (const runtime::PackClip& clip : pack->clips()) {
    std::vector<runtime::Transform> out(clip.view.jointCount());
    const float last = float(clip.frameCount());
    for (float f : {0.f, 0.5f, last * 0.5f, last - 1.f, last, 1.f, last * 0.25f, -3.f, 1e9f})
      player.sampleFrame(clip.view, f, out);
    player.blend(clip.view, 0.1f, pack->clips().front().view, 0.2f, 0.5f, runtime::BlendMode::Decomposed, out);
  }
}

}  // namespace animpack::test
