// Crossfades from one clip to another over half a second, as a game's state machine does when a
// character starts running: both clips keep playing while the weight goes from 0 to 1.
//   crossfade PACK [FROM TO]
#include <animpack/pack.h>
#include <animpack/player.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: crossfade PACK [FROM TO]\n");
    return 2;
  }
  auto pack = animpack::Pack::load(argv[1]);
  if (!pack) {
    std::fprintf(stderr, "%s\n", pack.message().c_str());
    return 1;
  }
  const animpack::Clip from = argc > 3 ? pack->findClip(argv[2]) : pack->clip(0);
  const animpack::Clip to = argc > 3 ? pack->findClip(argv[3]) : pack->clip(1);
  if (!from || !to) {
    std::fprintf(stderr, "crossfade needs two clips of %s\n", argv[1]);
    return 1;
  }
  animpack::Player player;
  player.bindSkeleton(*pack);  // clips of another character's pack are refused
  std::vector<animpack::Transform> pose(pack->jointCount());
  const float fade = 0.5f, start = 0.2f;
  std::printf("crossfade '%s' -> '%s' over %.1f s\n", std::string(from.name()).c_str(), std::string(to.name()).c_str(),
              fade);
  for (int step = 0; step <= 5; ++step) {
    const float t = start + fade * float(step) / 5.f, weight = (t - start) / fade;
    const animpack::Result r = player.blend(from, t, to, t - start, weight, animpack::BlendMode::Decomposed, pose);
    if (r != animpack::Result::Ok) {
      std::fprintf(stderr, "blend: %s\n", animpack::describe(r));
      return 1;
    }
    const animpack::Transform& j = pose[pose.size() > 1 ? 1 : 0];
    std::printf("  t=%.2f s  weight %.1f  %s at (%.4f, %.4f, %.4f)\n", t, weight,
                std::string(pack->jointName(pose.size() > 1 ? 1 : 0)).c_str(), j.translation.x, j.translation.y,
                j.translation.z);
  }
  return 0;
}
