// A game file against the installed runtime: only <animpack/...> headers, every call checked.
// Built with -Wall -Wextra -Wpedantic -Werror under g++ and clang by run_install_test.sh.
#include <animpack/pack.h>
#include <animpack/player.h>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto pack = animpack::Pack::load(argv[1]);
  if (!pack) {
    std::fprintf(stderr, "%s\n", pack.message().c_str());
    return 1;
  }
  animpack::Player player;
  player.bindSkeleton(*pack);
  std::vector<animpack::Transform> pose(pack->jointCount());
  for (std::uint32_t i = 0; i < pack->clipCount(); ++i) {
    const animpack::Clip clip = pack->clip(i);
    for (float t = 0; t <= clip.duration(); t += 1.f / 30.f)
      if (auto r = player.sample(clip, t, pose); r != animpack::Result::Ok) {
        std::fprintf(stderr, "%s\n", animpack::describe(r));
        return 1;
      }
    std::printf("%.*s: %u frames, joint 0 at (%g, %g, %g)\n", int(clip.name().size()), clip.name().data(),
                clip.frameCount(), pose[0].translation.x, pose[0].translation.y, pose[0].translation.z);
  }
  // A short pose is refused, not written past.
  std::vector<animpack::Transform> one(1);
  if (pack->jointCount() > 1 && player.sample(pack->clip(0), 0.f, one) != animpack::Result::PoseTooShort) return 1;
  return 0;
}
