// Samples a clip's morph-target weights (a face's curves) and applies them to a mesh on the CPU:
// position = base + sum of weight x the target's delta. A game uploads the weights to its morph
// shader instead.
//   morph_weights PACK [CLIP]
#include <animpack/pack.h>
#include <animpack/player.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: morph_weights PACK [CLIP]\n");
    return 2;
  }
  auto pack = animpack::Pack::load(argv[1]);
  if (!pack) {
    std::fprintf(stderr, "%s\n", pack.message().c_str());
    return 1;
  }
  if (pack->curveCount() == 0) {
    std::fprintf(stderr, "%s has no morph curves\n", argv[1]);
    return 1;
  }
  const animpack::Clip clip = argc > 2 ? pack->findClip(argv[2]) : pack->clip(0);
  if (!clip) return 1;
  // A mesh of one vertex per target, each target moving its own vertex up by one unit.
  const std::uint32_t targets = pack->curveCount();
  std::vector<animpack::Vec3> base(targets), mesh(targets);
  for (std::uint32_t i = 0; i < targets; ++i) base[i] = {float(i), 0.f, 0.f};
  animpack::Player player;
  std::vector<float> weights(targets);
  for (int frame = 0; frame < 3; ++frame) {
    const float seconds = clip.duration() * float(frame) / 2.f;
    // An empty pose: the weights alone (a face without joints, or joints sampled elsewhere).
    if (auto r = player.sample(clip, seconds, {}, weights); r != animpack::Result::Ok) {
      std::fprintf(stderr, "sample: %s\n", animpack::describe(r));
      return 1;
    }
    for (std::uint32_t i = 0; i < targets; ++i) mesh[i] = {base[i].x, base[i].y + weights[i], base[i].z};
    std::printf("t=%.3f s\n", seconds);
    for (std::uint32_t i = 0; i < targets; ++i)
      std::printf("  %-24s weight %.4f  vertex y %.4f\n", std::string(pack->curveName(i)).c_str(), weights[i],
                  mesh[i].y);
  }
  return 0;
}
