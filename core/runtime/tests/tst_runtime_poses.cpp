// Every target decodes the same bits. The golden packs' frames (and frame midpoints) hash to the
// values recorded when each format version was frozen (tests/data/golden_vN.hash), through every
// lane implementation this build has and through the public API; blends, additive layers, root
// motion and skinning matrices hash to pose_hashes.txt beside this file. scripts/test-runtime-targets
// runs this on x86-64 (g++, clang), aarch64 (qemu-user) and Windows (wine).
//
//   tst_runtime_poses                 compare with the tables
//   tst_runtime_poses --print PACK... print each pack's hashes (to compare targets on other packs)
#include <animpack/pack.h>
#include <animpack/player.h>
#include <animpack/skinning.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "check.h"
#include "core/runtime/hash.h"
#include "core/runtime/pack.h"
#include "core/runtime/player.h"
#include "test_packs.h"

using namespace animpack;

namespace {

struct Hasher {
  std::uint64_t h = runtime::kFnvOffset;
  template <typename T>
  void add(std::span<const T> values) {
    h = runtime::fnv1a64(std::span(reinterpret_cast<const std::uint8_t*>(values.data()), values.size_bytes()), h);
  }
};

/// The golden packs' hash (tests/core/tst_pack.cpp hashDecoded): every frame and frame midpoint,
/// each pose followed by the clip's weights, through the public API.
std::uint64_t framesHash(const Pack& pack) {
  Hasher h;
  Player player;
  for (std::uint32_t c = 0; c < pack.clipCount(); ++c) {
    const Clip clip = pack.clip(c);
    std::vector<Transform> pose(clip.jointCount());
    std::vector<float> weights(clip.curveCount());
    for (std::uint32_t f = 0; f < clip.frameCount(); ++f) {
      CHECK(player.sampleFrame(clip, float(f), pose, weights) == Result::Ok);
      h.add<Transform>(pose);
      if (!weights.empty()) h.add<float>(weights);
      if (f + 1 == clip.frameCount() && !clip.wraps()) continue;
      CHECK(player.sampleFrame(clip, float(f) + 0.5f, pose, weights) == Result::Ok);
      h.add<Transform>(pose);
      if (!weights.empty()) h.add<float>(weights);
    }
  }
  return h.h;
}

/// Blends, additive layers, root motion and skinning matrices over 200 instants per clip; root motion
/// also over many cycles (its sines and cosines reduce large angles).
std::map<std::string, std::uint64_t> pathHashes(const Pack& pack) {
  Hasher naive, decomposed, additive, motion, skinning;
  Player player;
  const std::uint32_t joints = pack.jointCount();
  std::vector<Transform> pose(joints), scratch(joints);
  std::vector<Matrix4> model(joints);
  for (std::uint32_t c = 0; c < pack.clipCount(); ++c) {
    const Clip a = pack.clip(c), b = pack.clip((c + 1) % pack.clipCount());
    for (int i = 0; i < 200; ++i) {
      const float t = a.duration() * float(i) / 173.f, w = float(i % 11) / 10.f;
      if (!a.additive() && !b.additive()) {
        CHECK(player.blend(a, t, b, t * 0.7f, w, BlendMode::Naive, pose) == Result::Ok);
        naive.add<Transform>(pose);
        CHECK(player.blend(a, t, b, t * 0.7f, w, BlendMode::Decomposed, pose) == Result::Ok);
        decomposed.add<Transform>(pose);
        CHECK(modelMatrices(pack.parents(), pose, model) == Result::Ok);
        skinning.add<Matrix4>(model);
      }
      if (a.additive()) {
        CHECK(player.sample(b, t, pose) == Result::Ok);
        CHECK(player.addClip(a, t, w, pose, scratch) == Result::Ok);
        additive.add<Transform>(pose);
      }
      Transform m;
      CHECK(player.rootMotion(a, t * 0.3f, t * 2.5f - 0.1f, m) == Result::Ok);
      motion.add<Transform>(std::span(&m, 1));
      CHECK(player.rootMotion(a, -t * 97.f, t * 1001.f, m) == Result::Ok);
      motion.add<Transform>(std::span(&m, 1));
    }
  }
  return {{"blend-naive", naive.h},
          {"blend-decomposed", decomposed.h},
          {"additive", additive.h},
          {"root-motion", motion.h},
          {"skinning", skinning.h}};
}

std::string hex(std::uint64_t h) {
  char text[32];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(h));
  return text;
}

/// pose_hashes.txt: "golden_vN PATH HASH" lines.
std::map<std::string, std::string> table() {
  std::ifstream in(std::string(ANIMPACK_RUNTIME_TEST_SOURCE) + "/pose_hashes.txt");
  std::map<std::string, std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string pack, path, hash;
    words >> pack >> path >> hash;
    out[pack + " " + path] = hash;
  }
  return out;
}

}  // namespace

RUNTIME_TEST(goldenFramesThroughThePublicApi) {
  for (int version = 5; version <= 8; ++version) {
    auto pack = Pack::load(test::goldenPath(version).c_str());
    REQUIRE(pack);
    const std::string actual = hex(framesHash(*pack)), expected = test::goldenHash(version);
    if (actual != expected) std::printf("  golden_v%d: %s, recorded %s\n", version, actual.c_str(), expected.c_str());
    CHECK(actual == expected);
  }
}

RUNTIME_TEST(everyLaneImplementationGivesTheSameFrames) {
  using runtime::DecodePath;
  for (int version = 5; version <= 8; ++version) {
    auto pack = runtime::Pack::load(test::goldenPath(version));
    REQUIRE(pack);
    std::uint64_t first = 0;
    for (DecodePath path : {DecodePath::Simd, DecodePath::Scalar, DecodePath::Sse2}) {
      runtime::Player player(path);
      Hasher h;
      for (const runtime::PackClip& clip : pack->clips()) {
        std::vector<Transform> pose(clip.view.jointCount());
        for (float f = 0.f; f < float(clip.frameCount()); f += 0.37f) {
          player.sampleFrame(clip.view, f, pose);
          h.add<Transform>(pose);
        }
      }
      if (path == DecodePath::Simd) first = h.h;
      CHECK(h.h == first);
    }
  }
}

RUNTIME_TEST(blendAdditiveRootMotionAndSkinning) {
  const auto expected = table();
  REQUIRE(!expected.empty());
  std::vector<std::pair<std::string, std::string>> packs = {{"runtime_paths", test::runtimePathsPack()}};
  for (int version = 5; version <= 8; ++version)
    packs.emplace_back("golden_v" + std::to_string(version), test::goldenPath(version));
  for (const auto& [name, file] : packs) {
    auto pack = Pack::load(file.c_str());
    REQUIRE(pack);
    for (const auto& [path, hash] : pathHashes(*pack)) {
      const std::string key = name + " " + path;
      const auto it = expected.find(key);
      const std::string recorded = it == expected.end() ? "(none)" : it->second;
      if (hex(hash) != recorded)
        std::printf("  %s: %s, recorded %s\n", key.c_str(), hex(hash).c_str(), recorded.c_str());
      CHECK(hex(hash) == recorded);
    }
  }
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--print") == 0) {
    int status = 0;
    for (int i = 2; i < argc; ++i) {
      auto pack = Pack::load(argv[i]);
      if (!pack) {
        std::printf("%s: %s\n", argv[i], pack.message().c_str());
        status = 1;
        continue;
      }
      std::printf("%s frames %s\n", argv[i], hex(framesHash(*pack)).c_str());
      for (const auto& [path, hash] : pathHashes(*pack))
        std::printf("%s %s %s\n", argv[i], path.c_str(), hex(hash).c_str());
    }
    return status;
  }
  return animpack::test::runtimeTestMain(argc, argv);
}
