// make_rig KIND OUT.gltf: writes one of the generated key-grid rigs (test_rigs.h) for scripts and
// benchmarks (scripts/bench-key-grids), and prints its mean key rate. KIND: chain-regular,
// chain-drifting, chain-mixed, chain-mixed-apart, chain-irregular (keyTimingRig), biped-grid,
// biped-own-times, biped-thinned (bipedRig).
#include <cstdio>
#include <map>
#include <string>

#include "tests/support/test_rigs.h"

int main(int argc, char** argv) {
  using namespace animpack::test;
  const std::map<std::string, GltfScene (*)()> kinds = {
      {"chain-regular", [] { return keyTimingRig(KeyTiming::Regular); }},
      {"chain-drifting", [] { return keyTimingRig(KeyTiming::Drifting); }},
      {"chain-mixed", [] { return keyTimingRig(KeyTiming::Mixed); }},
      {"chain-mixed-apart", [] { return keyTimingRig(KeyTiming::MixedApart); }},
      {"chain-irregular", [] { return keyTimingRig(KeyTiming::Irregular); }},
      {"biped-grid", [] { return bipedRig(BipedKeys::Grid); }},
      {"biped-own-times", [] { return bipedRig(BipedKeys::OwnTimes); }},
      {"biped-thinned", [] { return bipedRig(BipedKeys::Thinned); }},
  };
  const auto kind = argc == 3 ? kinds.find(argv[1]) : kinds.end();
  if (kind == kinds.end()) {
    std::string names;
    for (const auto& [name, make] : kinds) names += " " + name;
    std::fprintf(stderr, "usage: make_rig KIND OUT.gltf\nKIND:%s\n", names.c_str());
    return 2;
  }
  const GltfScene scene = kind->second();
  if (!writeSceneAt(scene, argv[2])) {
    std::fprintf(stderr, "make_rig: cannot write %s\n", argv[2]);
    return 1;
  }
  std::size_t keys = 0;
  for (const GltfAnimation& a : scene.animations)
    for (const GltfChannel& c : a.channels) keys += c.times.size();
  std::printf("%s: %s, %zu keys, mean key rate %.4f Hz\n", argv[2], kind->first.c_str(), keys, meanKeyRate(scene));
  return 0;
}
