// make_face [--capture] OUT.gltf [frames] [rate] [noise]: writes the generated face (test_rigs.h
// faceRig: clips Talk and Idle, 180 frames at 30 Hz unless told; with --capture faceCaptureRig: one
// clip Capture, 600 frames at 30 Hz, sensor noise of 1.5 x each weight's tolerance unless told) so
// scripts and benchmarks can use it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/support/test_rigs.h"

int main(int argc, char** argv) {
  using namespace animpack::test;
  const bool capture = argc > 1 && std::strcmp(argv[1], "--capture") == 0;
  if (capture) {
    --argc;
    ++argv;
  }
  if (argc < 2 || argc > (capture ? 5 : 4)) {
    std::fprintf(stderr,
                 "usage: make_face OUT.gltf [frames (>= 2, default 180)] [rate in Hz (default 30)]\n"
                 "       make_face --capture OUT.gltf [frames (default 600)] [rate (default 30)] [noise (x the weight "
                 "tolerance, default 1.5)]\n");
    return 2;
  }
  char* end = nullptr;
  const long frames = argc > 2 ? std::strtol(argv[2], &end, 10) : capture ? 600 : 180;
  if (argc > 2 && (*end != '\0' || frames < 2 || frames > 1000000)) {
    std::fprintf(stderr, "make_face: frames '%s' is not a whole number from 2 to 1000000\n", argv[2]);
    return 2;
  }
  const float rate = argc > 3 ? std::strtof(argv[3], &end) : 30.f;
  if (argc > 3 && (*end != '\0' || !(rate > 0) || !(rate <= 10000))) {
    std::fprintf(stderr, "make_face: rate '%s' is not a number of Hz above 0 and up to 10000\n", argv[3]);
    return 2;
  }
  const double noise = argc > 4 ? std::strtod(argv[4], &end) : 1.5;
  if (argc > 4 && (*end != '\0' || !(noise >= 0) || !(noise <= 100))) {
    std::fprintf(stderr, "make_face: noise '%s' is not a number from 0 to 100\n", argv[4]);
    return 2;
  }
  const GltfScene face = capture ? faceCaptureRig(int(frames), rate, noise) : faceRig(int(frames), rate);
  if (!writeSceneAt(face, argv[1])) {
    std::fprintf(stderr, "make_face: cannot write %s\n", argv[1]);
    return 1;
  }
  if (!capture) {
    std::printf("%s: %zu vertices, %d morph targets, clips Talk and Idle of %ld frames at %g Hz\n", argv[1],
                face.meshes[0].positions.size(), faceTargetCount(), frames, double(rate));
    return 0;
  }
  double low = 1e9, high = 0;
  for (int t = 0; t < faceTargetCount(); ++t) {
    low = std::min(low, faceCaptureTolerance(t));
    high = std::max(high, faceCaptureTolerance(t));
  }
  std::printf(
      "%s: %zu vertices, %d morph targets, clip Capture of %ld frames at %g Hz; sensor noise of standard deviation "
      "%g x each weight's tolerance at 0.01 cm (tolerances %.4f to %.4f, noise %.4f to %.4f)\n",
      argv[1], face.meshes[0].positions.size(), faceTargetCount(), frames, double(rate), noise, low, high, noise * low,
      noise * high);
  return 0;
}
