// make_face OUT.gltf [frames] [rate]: writes the generated face (test_rigs.h faceRig; 180 frames at
// 30 Hz unless told) so scripts and benchmarks can use it.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/support/test_rigs.h"

int main(int argc, char** argv) {
  using namespace animpack::test;
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: make_face OUT.gltf [frames (>= 2, default 180)] [rate in Hz (default 30)]\n");
    return 2;
  }
  char* end = nullptr;
  const long frames = argc > 2 ? std::strtol(argv[2], &end, 10) : 180;
  if (argc > 2 && (*end != '\0' || frames < 2 || frames > 1000000)) {
    std::fprintf(stderr, "make_face: frames '%s' is not a whole number from 2 to 1000000\n", argv[2]);
    return 2;
  }
  const float rate = argc > 3 ? std::strtof(argv[3], &end) : 30.f;
  if (argc > 3 && (*end != '\0' || !(rate > 0) || !(rate <= 10000))) {
    std::fprintf(stderr, "make_face: rate '%s' is not a number of Hz above 0 and up to 10000\n", argv[3]);
    return 2;
  }
  const GltfScene face = faceRig(int(frames), rate);
  if (!writeSceneAt(face, argv[1])) {
    std::fprintf(stderr, "make_face: cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("%s: %zu vertices, %d morph targets, clips Talk and Idle of %ld frames at %g Hz\n", argv[1],
              face.meshes[0].positions.size(), faceTargetCount(), frames, double(rate));
  return 0;
}
