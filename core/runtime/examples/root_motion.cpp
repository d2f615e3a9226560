// Root motion: the clip's travel moves the character, frame after frame, the way a game's
// character controller takes it (character = character x motion since the last frame).
//   root_motion PACK [CLIP]
#include <animpack/pack.h>
#include <animpack/player.h>

#include <cstdio>
#include <string>

namespace {
// Game-side quaternion helpers (an engine has its own math library).
animpack::Quat multiply(animpack::Quat a, animpack::Quat b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
animpack::Vec3 rotate(animpack::Quat q, animpack::Vec3 v) {
  const animpack::Quat p = multiply(multiply(q, {v.x, v.y, v.z, 0.f}), {-q.x, -q.y, -q.z, q.w});
  return {p.x, p.y, p.z};
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: root_motion PACK [CLIP]\n");
    return 2;
  }
  auto pack = animpack::Pack::load(argv[1]);
  if (!pack) {
    std::fprintf(stderr, "%s\n", pack.message().c_str());
    return 1;
  }
  animpack::Clip clip = argc > 2 ? pack->findClip(argv[2]) : animpack::Clip();
  for (std::uint32_t i = 0; !clip && i < pack->clipCount(); ++i)
    if (pack->clip(i).hasRootMotion()) clip = pack->clip(i);
  if (!clip) clip = pack->clip(0);
  std::printf("'%s': %s root motion\n", std::string(clip.name()).c_str(), clip.hasRootMotion() ? "has" : "no");
  animpack::Player player;
  animpack::Transform character;  // where the character stands and faces
  const float dt = 1.f / 30.f;
  for (int frame = 1; frame <= 60; ++frame) {
    animpack::Transform step;
    if (auto r = player.rootMotion(clip, float(frame - 1) * dt, float(frame) * dt, step); r != animpack::Result::Ok) {
      std::fprintf(stderr, "rootMotion: %s\n", animpack::describe(r));
      return 1;
    }
    // character = character x step: the step's travel is in the character's own frame.
    const animpack::Vec3 travel = rotate(character.rotation, step.translation);
    character.translation = {character.translation.x + travel.x, character.translation.y + travel.y,
                             character.translation.z + travel.z};
    character.rotation = multiply(character.rotation, step.rotation);
    if (frame % 15 == 0)
      std::printf("  after %.2f s: at (%.4f, %.4f, %.4f), heading quaternion (%.4f, %.4f, %.4f, %.4f)\n",
                  float(frame) * dt, character.translation.x, character.translation.y, character.translation.z,
                  character.rotation.x, character.rotation.y, character.rotation.z, character.rotation.w);
  }
  return 0;
}
