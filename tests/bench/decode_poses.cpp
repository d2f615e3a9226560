// Decodes a fixed number of poses of a pack's longest clip, for counting the decoder's instructions
// per pose under callgrind (a figure the machine's load does not change; docs/PERFORMANCE.md):
//   valgrind --tool=callgrind build/tests/decode_poses PACK forward|backward|random|blend|blend-naive|blend-poses N
//   [--scalar|--sse2]
// The times are those of `animpack bench`: k/60 s, reversed, or in a fixed permutation. `blend-poses`
// is the blend pass alone: blendPoses (decomposed) of the clip's poses at 1/3 and 1/9 of its duration,
// once per time, into a third pose (a block the same in both is copied), the two samples left out.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "core/runtime/pack.h"
#include "core/runtime/player.h"

using namespace animpack::runtime;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(
        stderr,
        "usage: decode_poses PACK forward|backward|random|blend|blend-naive|blend-poses REPEATS [--scalar|--sse2]\n");
    return 2;
  }
  auto pack = Pack::load(argv[1]);
  if (!pack) return std::fprintf(stderr, "%s\n", pack.message().c_str()), 1;
  if (pack->clips().empty()) return std::fprintf(stderr, "no clips\n"), 1;
  const std::string mode = argv[2];
  const int repeats = std::atoi(argv[3]);
  const DecodePath path = argc <= 4                               ? DecodePath::Simd
                          : std::strcmp(argv[4], "--scalar") == 0 ? DecodePath::Scalar
                          : std::strcmp(argv[4], "--sse2") == 0   ? DecodePath::Sse2
                                                                  : DecodePath::Simd;
  const PackClip* longest = &pack->clips()[0];
  for (const PackClip& c : pack->clips())
    if (c.frameCount() > longest->frameCount()) longest = &c;
  const ClipView& view = longest->view;
  std::vector<float> times;
  for (double s = 0; s <= double(view.duration()) + 1e-9; s += 1.0 / 60) times.push_back(float(s));
  if (mode == "random") std::shuffle(times.begin(), times.end(), std::mt19937(42));
  if (mode == "backward") std::reverse(times.begin(), times.end());
  Player player(path);
  std::vector<Transform> out(view.jointCount());
  float sink = 0;
  std::vector<Transform> a(out.size()), b(out.size());
  if (mode == "blend-poses") {
    Player other(path);
    player.sample(view, view.duration() / 3, a);
    other.sample(view, view.duration() / 9, b);
  }
  // The mode decided once, outside the timed loop.
  const int kind = mode == "blend-poses" ? 3 : mode == "blend" ? 2 : mode == "blend-naive" ? 1 : 0;
  for (int r = 0; r < repeats; ++r)
    for (float t : times) {
      if (kind == 3) blendPoses(a, b, 0.5f, BlendMode::Decomposed, view.restPose(), out, path);
      else if (kind > 0)
        player.blend(view, t, view, t * 0.5f, 0.5f, kind == 2 ? BlendMode::Decomposed : BlendMode::Naive, out);
      else player.sample(view, t, out);
      sink += out[0].rotation.w;
    }
  std::printf("%zu poses (checksum %g)\n", times.size() * std::size_t(repeats), double(sink));
  return 0;
}
