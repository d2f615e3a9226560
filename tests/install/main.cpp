// Opens a pack with the installed runtime and plays every clip: what a game build does.
#include <cstdio>
#include <vector>

#include <core/runtime/pack.h>
#include <core/runtime/player.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto pack = animpack::runtime::Pack::load(argv[1]);
  if (!pack) {
    std::fprintf(stderr, "%s\n", pack.message().c_str());
    return 1;
  }
  animpack::runtime::Player player;
  for (const auto& clip : pack->clips()) {
    std::vector<animpack::runtime::Transform> pose(clip.view.jointCount());
    for (float t = 0; t <= clip.view.duration(); t += 1.f / 30.f) player.sample(clip.view, t, pose);
    std::printf("%.*s: %u frames, joint 0 at (%g, %g, %g)\n", int(clip.name().size()), clip.name().data(),
                clip.frameCount(), pose[0].translation.x, pose[0].translation.y, pose[0].translation.z);
  }
  return 0;
}
