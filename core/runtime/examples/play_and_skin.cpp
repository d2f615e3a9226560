// Plays a clip into a skinning palette and skins a mesh on the CPU, as a game's renderer would on
// the GPU: sample the local pose, make model-space matrices, multiply by the inverse bind matrices.
//   play_and_skin PACK [CLIP]
#include <animpack/pack.h>
#include <animpack/player.h>
#include <animpack/skinning.h>

#include <cstdio>
#include <span>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: play_and_skin PACK [CLIP]\n");
    return 2;
  }
  auto pack = animpack::Pack::load(argv[1]);
  if (!pack) {
    std::fprintf(stderr, "%s\n", pack.message().c_str());
    return 1;
  }
  const animpack::Clip clip = argc > 2 ? pack->findClip(argv[2]) : pack->clip(0);
  if (!clip) {
    std::fprintf(stderr, "no clip '%s' in %s\n", argc > 2 ? argv[2] : "#0", argv[1]);
    return 1;
  }
  const std::uint32_t joints = pack->jointCount();

  // The bind pose: here the pack's rest pose (a game takes the inverse bind matrices of its mesh).
  std::vector<animpack::Matrix4> bind(joints), inverseBind(joints);
  if (animpack::modelMatrices(pack->parents(), pack->restPose(), bind) != animpack::Result::Ok) return 1;
  for (std::uint32_t j = 0; j < joints; ++j) {
    // The rest pose's model matrices are rigid here; their inverse is the transposed rotation.
    const float* m = bind[j].m;
    animpack::Matrix4& inv = inverseBind[j];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) inv.m[c * 4 + r] = m[r * 4 + c];
    for (int r = 0; r < 3; ++r) inv.m[12 + r] = -(inv.m[r] * m[12] + inv.m[4 + r] * m[13] + inv.m[8 + r] * m[14]);
  }
  // A mesh: one vertex 1 unit above each joint at rest, skinned to that joint alone.
  std::vector<animpack::Vec3> vertices(joints);
  for (std::uint32_t j = 0; j < joints; ++j) vertices[j] = animpack::transformPoint(bind[j], {0.f, 1.f, 0.f});

  animpack::Player player;  // one per character; allocates its frame cache once
  std::vector<animpack::Transform> pose(joints);
  std::vector<animpack::Matrix4> model(joints), palette(joints);
  std::printf("%s: %u joints, %.2f s at %.0f Hz\n", std::string(clip.name()).c_str(), joints, clip.duration(),
              clip.sampleRate());
  for (int frame = 0; frame < 4; ++frame) {
    const float seconds = clip.duration() * float(frame) / 3.f;
    if (auto r = player.sample(clip, seconds, pose); r != animpack::Result::Ok) {
      std::fprintf(stderr, "sample: %s\n", animpack::describe(r));
      return 1;
    }
    if (animpack::modelMatrices(pack->parents(), pose, model) != animpack::Result::Ok ||
        animpack::skinningPalette(model, inverseBind, palette) != animpack::Result::Ok)
      return 1;
    const std::uint32_t last = joints - 1;
    const animpack::Vec3 skinned = animpack::transformPoint(palette[last], vertices[last]);
    std::printf("  t=%.3f s  vertex of '%s' at (%.4f, %.4f, %.4f)\n", seconds,
                std::string(pack->jointName(last)).c_str(), skinned.x, skinned.y, skinned.z);
  }
  // A distant character: the first half of the joints alone (parents come first, so they are a
  // skeleton of their own; its mesh binds each vertex to its joint's nearest ancestor among them).
  const std::uint32_t kept = (joints + 1) / 2;
  const float seconds = clip.duration() / 2.f;
  if (auto r = player.sample(clip, seconds, kept, pose); r != animpack::Result::Ok) {
    std::fprintf(stderr, "sample, level of detail: %s\n", animpack::describe(r));
    return 1;
  }
  if (animpack::modelMatrices(pack->parents().first(kept), std::span(pose).first(kept), std::span(model).first(kept)) !=
      animpack::Result::Ok)
    return 1;
  const animpack::Vec3 origin = animpack::transformPoint(model[kept - 1], {0.f, 0.f, 0.f});
  std::printf("  level of detail: the first %u joints at t=%.3f s, '%s' at (%.4f, %.4f, %.4f)\n", kept, seconds,
              std::string(pack->jointName(kept - 1)).c_str(), origin.x, origin.y, origin.z);
  return 0;
}
