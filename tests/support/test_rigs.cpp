#include "tests/support/test_rigs.h"

#include "tests/support/collada_units.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>

#include <QtGlobal>

#include "core/anim/raw_sampler.h"
#include "core/compress/clip_writer.h"
#include "tests/support/rig_helpers.h"

namespace animpack::test {
namespace {

struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    path = std::filesystem::temp_directory_path() / ("animpack-tests-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

std::filesystem::path model(const std::string& relative) {
  return std::filesystem::path(ANIMPACK_ASSIMP_MODELS) / relative;
}

std::filesystem::path scratchDir() {
  static ScratchDir dir;
  return dir.path;
}

core::ImportedAsset importOrFail(const std::filesystem::path& path) {
  auto asset = core::importAsset(path);
  if (!asset) qFatal("%s", asset.message().c_str());
  return std::move(asset.value());
}

std::filesystem::path writeScene(const GltfScene& scene, const std::string& name) {
  const auto path = scratchDir() / name;
  writeGltf(scene, path);
  return path;
}

bool writeSceneAt(const GltfScene& scene, const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  return writeGltf(scene, path);
}

GltfScene singleTakeRig(int frames, const std::string& clipName) {
  GltfScene scene = armatureRig(1.f, frames);
  scene.animations.resize(1);
  scene.animations[0].name = clipName;
  return scene;
}

core::Transform armatureRigKey(const GltfScene& scene, int node, int frame) {
  core::Transform t = scene.nodes[std::size_t(node)].rest;
  const float phase = 0.35f * static_cast<float>(frame);
  const float unit = 1.f / scene.nodes[1].rest.scale.x;  // lengths inside the armature
  switch (node) {
    case 2:  // Hips: walks forward and bobs
      t.translation = core::Vec3{0.f, 0.9f + 0.02f * std::sin(2 * phase), 0.04f * static_cast<float>(frame)} * unit;
      t.rotation = axisAngle(0, 1, 0, 0.2f * std::sin(phase));
      break;
    case 3: t.rotation = axisAngle(1, 0, 0, 0.1f * std::sin(phase + 0.5f)); break;
    case 4: t.rotation = axisAngle(0, 1, 0, 0.3f * std::sin(phase * 0.5f)); break;
    case 5: t.rotation = axisAngle(1, 0, 0, 0.6f * std::sin(phase)); break;
    case 6: t.rotation = axisAngle(1, 0, 0, 0.4f * std::max(0.f, std::sin(phase - 1.f))); break;
    default: break;
  }
  return t;
}

GltfScene keyTimingRig(KeyTiming timing) {
  GltfScene s;
  s.nodes = {{"Root", -1, {}},
             {"Upper", 0, makeTransform({0, 0.1f, 0})},
             {"Lower", 1, makeTransform({0, 0.1f, 0})},
             {"Tip", 2, makeTransform({0, 0.1f, 0})}};
  constexpr double kSeconds = 2.0;
  // Deterministic jitter in [-1, 1].
  std::uint32_t seed = 12345;
  auto jitter = [&] {
    seed = seed * 1664525u + 1013904223u;
    return double(seed >> 8) / double(1u << 23) - 1.0;
  };
  auto grid = [&](double rate, double drift, double jitterSteps) {
    std::vector<double> t;
    for (int k = 0; double(k) / rate <= kSeconds + 1e-9; ++k)
      t.push_back(k == 0 ? 0.0 : std::min(kSeconds, double(k) / (rate * (1 + drift)) + jitterSteps * jitter() / rate));
    t.back() = kSeconds;
    return t;
  };
  auto irregular = [&] {
    std::vector<double> t{0.0};
    while (t.back() < kSeconds - 1.0 / 30) t.push_back(t.back() + (1.0 + 0.4 * jitter()) / 30);
    t.push_back(kSeconds);
    return t;
  };
  std::vector<double> a, b, c;
  switch (timing) {
    case KeyTiming::Regular: a = b = c = grid(30, 0, 0); break;
    case KeyTiming::Drifting: a = b = c = grid(30, 2e-5, 0.004); break;
    case KeyTiming::Mixed: a = grid(30, 0, 0), b = grid(10, 0, 0), c = grid(24, 0, 0); break;
    case KeyTiming::MixedApart:
      a = grid(30, 0, 0), b = grid(10, 0, 0), c.clear();
      for (int k = 0; (k + 0.37) / 24 <= kSeconds; ++k)
        c.push_back((k + 0.37) / 24);  // its own grid, a third of a step off
      break;
    case KeyTiming::Irregular: a = irregular(), b = irregular(), c = irregular(); break;
  }
  auto rotation = [](int node, const std::vector<double>& times, auto angleAt, float x, float y, float z) {
    GltfChannel ch{node, 0, {}, {}};
    for (double t : times) {
      const core::Quat q = axisAngle(x, y, z, float(angleAt(t)));
      ch.times.push_back(float(t));
      ch.values.push_back({q.x, q.y, q.z, q.w});
    }
    return ch;
  };
  constexpr double kTau = 6.283185307179586;
  GltfChannel root{0, 1, {}, {}};
  for (double t : c) {
    root.times.push_back(float(t));
    root.values.push_back({float(0.05 * std::sin(kTau * 0.5 * t)), 0, 0, 0});
  }
  // The tip holds, then turns 170 degrees between two keys of the first channel's grid around 1 s.
  std::size_t turn = 0;
  while (turn + 1 < a.size() && a[turn + 1] < 1.0 - 1e-9) ++turn;
  const double turnAt = a[turn + 1];
  GltfAnimation anim{"Keys", {}};
  anim.channels.push_back(rotation(
      1, a, [&](double t) { return 0.8 * std::sin(kTau * 0.7 * t); }, 0, 0, 1));
  anim.channels.push_back(rotation(
      2, b, [&](double t) { return 0.6 * std::sin(kTau * 1.1 * t + 0.3); }, 1, 0, 0));
  anim.channels.push_back(rotation(
      3, a, [&](double t) { return t < turnAt - 1e-9 ? 0.0 : 170.0 * kTau / 360.0; }, 0, 1, 0));
  anim.channels.push_back(root);
  s.animations.push_back(anim);
  return s;
}

float morphRigWeight(int target, int frame) {
  switch (target) {
    case 0: return 0.5f + 0.5f * std::sin(0.3f * float(frame));  // a smooth curve
    case 1: return frame % 10 < 2 ? 1.f : 0.f;                   // blinks
    case 2: return 0.04f * float(frame);                         // a ramp
    default: return 0.f;                                         // keyed, never moves
  }
}

GltfScene morphRig() {
  GltfScene s = armatureRig(1.f, 25, 25.f);
  GltfSkinnedMesh& body = s.meshes.front();
  const std::size_t n = body.positions.size();
  auto target = [&](const char* name, std::vector<std::size_t> vertices, core::Vec3 delta) {
    GltfSkinnedMesh::Target t{name, std::vector<core::Vec3>(n, core::Vec3{0, 0, 0})};
    for (std::size_t v : vertices) t.deltas[v] = delta;
    body.targets.push_back(t);
  };
  target("Smile", {n - 4, n - 3, n - 2, n - 1}, {0, 0.02f, 0});
  target("Blink", {n - 4, n - 3}, {0, 0, -0.01f});
  std::vector<std::size_t> all(n);
  for (std::size_t v = 0; v < n; ++v) all[v] = v;
  target("", all, {0.005f, 0, 0});
  target("Smile", {n - 2}, {0, 0.03f, 0});
  body.defaultWeights = {0, 0, 0.25f, 0};
  GltfChannel weights{body.node, 3};
  for (int f = 0; f < 25; ++f) {
    weights.times.push_back(float(f) / 25.f);
    for (int t = 0; t < 4; ++t) weights.weights.push_back(morphRigWeight(t, f));
  }
  s.animations.front().channels.push_back(weights);
  return s;
}

GltfScene armatureRig(float armatureScale, int frames, float rate) {
  GltfScene s;
  // Offsets are given in file metres and divided by the armature's scale, so the character is
  // 1.3 m tall in object space whatever the scale (as a Blender export is).
  const float u = 1.f / armatureScale;
  s.nodes = {{"Scene", -1, {}},
             {"Armature", 0, makeTransform({0, 0, 0}, {}, {armatureScale, armatureScale, armatureScale})},
             {"Hips", 1, makeTransform(core::Vec3{0, 0.9f, 0} * u)},
             {"Spine", 2, makeTransform(core::Vec3{0, 0.25f, 0} * u)},
             {"Head", 3, makeTransform(core::Vec3{0, 0.35f, 0.02f} * u)},
             {"LeftLeg", 2, makeTransform(core::Vec3{0.1f, -0.05f, 0} * u)},
             {"LeftFoot", 5, makeTransform(core::Vec3{0, -0.42f, 0.01f} * u)},
             {"Body", 0, {}}};
  GltfAnimation walk{"Walk", {}};
  for (int node = 2; node <= 6; ++node) {
    GltfChannel rot{node, 0, {}, {}};
    GltfChannel pos{node, 1, {}, {}};
    for (int f = 0; f < frames; ++f) {
      const core::Transform t = armatureRigKey(s, node, f);
      rot.times.push_back(static_cast<float>(f) / rate);
      rot.values.push_back({t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w});
      pos.times.push_back(static_cast<float>(f) / rate);
      pos.values.push_back({t.translation.x, t.translation.y, t.translation.z, 0});
    }
    walk.channels.push_back(rot);
    if (node == 2) walk.channels.push_back(pos);
  }
  s.animations.push_back(walk);
  GltfAnimation wave{"Wave", {}};
  GltfChannel head{4, 0, {}, {}};
  for (int f = 0; f < 10; ++f) {
    head.times.push_back(static_cast<float>(f) / rate);
    const core::Quat q = axisAngle(0, 0, 1, 0.5f * std::sin(0.6f * static_cast<float>(f)));
    head.values.push_back({q.x, q.y, q.z, q.w});
  }
  wave.channels.push_back(head);
  s.animations.push_back(wave);

  // A body mesh: a vertical strip of quads around the joints, skinned to Hips/Spine/Head/legs.
  GltfSkinnedMesh mesh;
  mesh.node = 7;
  mesh.skinJoints = {2, 3, 4, 5, 6};
  const std::vector<core::Mat34> restObject = restObjects(s);
  for (int joint : mesh.skinJoints) mesh.inverseBinds.push_back(restObject[std::size_t(joint)].inverse());
  for (std::size_t k = 0; k < mesh.skinJoints.size(); ++k) {
    const core::Mat34& m = restObject[std::size_t(mesh.skinJoints[k])];
    const float cx = m.m[9], cy = m.m[10], cz = m.m[11];
    const float r = 0.08f;
    const std::uint32_t base = static_cast<std::uint32_t>(mesh.positions.size());
    for (int i = 0; i < 4; ++i) {
      const float a = static_cast<float>(i) * 1.5707963f;
      mesh.positions.push_back({cx + r * std::cos(a), cy, cz + r * std::sin(a)});
      mesh.normals.push_back({std::cos(a), 0, std::sin(a)});
      mesh.joints.push_back({static_cast<std::uint16_t>(k), static_cast<std::uint16_t>(k == 0 ? 1 : k - 1), 0, 0});
      mesh.weights.push_back({0.75f, 0.25f, 0, 0});
    }
    mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
  }
  s.meshes.push_back(mesh);
  return s;
}

namespace {

/// `scene` with every node index `n` replaced by `n + shift` (parents, channels, meshes, skins).
void shiftNodes(GltfScene& scene, int shift) {
  for (GltfNode& n : scene.nodes)
    if (n.parent >= 0) n.parent += shift;
  for (GltfAnimation& a : scene.animations)
    for (GltfChannel& c : a.channels) c.node += shift;
  for (GltfSkinnedMesh& m : scene.meshes) {
    m.node += shift;
    for (int& j : m.skinJoints) j += shift;
  }
}

}  // namespace

std::filesystem::path colladaInCentimetres(const std::string& name) {
  std::ifstream in(model("Collada/box_nested_animation.dae"), std::ios::binary);
  std::string text{std::istreambuf_iterator<char>(in), {}};
  const std::string metre = "<unit name=\"meter\" meter=\"1\"/>";
  const std::size_t at = text.find(metre);
  if (at == std::string::npos) return {};
  text.replace(at, metre.size(), "<unit name=\"centimeter\" meter=\"0.01\"/>");
  const auto path = scratchDir() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

GltfScene unrootedRig(GltfScene scene) {
  scene.nodes.erase(scene.nodes.begin());
  shiftNodes(scene, -1);
  return scene;
}

GltfScene wrappedRig(GltfScene scene, float scale) {
  shiftNodes(scene, 1);
  for (GltfNode& n : scene.nodes)
    if (n.parent < 0) n.parent = 0;
  scene.nodes.insert(scene.nodes.begin(),
                     GltfNode{"SceneRoot", -1, makeTransform({0, 0, 0}, {}, {scale, scale, scale})});
  return scene;
}

GltfScene armatureSpaceRig(float armatureScale) {
  GltfScene s = armatureRig(armatureScale);
  GltfSkinnedMesh& mesh = s.meshes[0];
  mesh.node = 7;
  s.nodes[7].parent = 1;
  // Object space = armature * armature space: divide the positions, and let each inverse bind
  // multiply the armature's scale back in.
  const core::Mat34 armature = core::Mat34::fromTransform(s.nodes[1].rest);
  for (core::Vec3& p : mesh.positions) p = p * (1.f / armatureScale);
  for (core::Mat34& ib : mesh.inverseBinds) ib = ib * armature;
  return s;
}

core::Vec3 sharedNameRigOffset(int key) { return {0.f, 1.f, 0.1f * static_cast<float>(key)}; }

GltfScene sharedNameRig() {
  GltfScene s;
  s.nodes = {{"Scene", -1, {}},
             {"Hips", 0, {}},
             {"Armature", 0, {}},
             {"Hips", 2, makeTransform(sharedNameRigOffset(0))},
             {"Spine", 3, makeTransform({0, 0.3f, 0})}};
  GltfChannel move{3, 1, {}, {}};
  GltfChannel turn{4, 0, {}, {}};
  for (int k = 0; k < 5; ++k) {
    const float t = static_cast<float>(k) / 10.f;
    const core::Vec3 p = sharedNameRigOffset(k);
    move.times.push_back(t);
    move.values.push_back({p.x, p.y, p.z, 0});
    const core::Quat q = axisAngle(1, 0, 0, 0.1f * static_cast<float>(k));
    turn.times.push_back(t);
    turn.values.push_back({q.x, q.y, q.z, q.w});
  }
  s.animations.push_back({"Move", {move, turn}});
  GltfSkinnedMesh mesh;
  mesh.node = 1;
  mesh.skinJoints = {3, 4};
  mesh.inverseBinds = {core::Mat34::fromTransform(makeTransform({0, -1, 0})),
                       core::Mat34::fromTransform(makeTransform({0, -1.3f, 0}))};
  mesh.positions = {{-0.1f, 1, 0}, {0.1f, 1, 0}, {0, 1.4f, 0}};
  mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh.indices = {0, 1, 2};
  mesh.joints = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}};
  mesh.weights = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
  s.meshes.push_back(mesh);
  return s;
}

GltfScene nanRig() {
  GltfScene s;
  s.nodes = {{"Root", -1, {}}, {"Bone", 0, {}}};
  GltfChannel rot{
      1, 0, {0.f, 0.5f, 1.f}, {{0, 0, 0, 1}, {std::numeric_limits<float>::quiet_NaN(), 0, 0, 1}, {0, 0, 0, 1}}};
  s.animations.push_back({"Broken", {rot}});
  return s;
}

GltfScene manyJointsRig(int count) {
  GltfScene s;
  s.nodes.push_back({"Root", -1, {}});
  GltfAnimation a{"Many", {}};
  for (int i = 0; i < count; ++i) {
    s.nodes.push_back({"n" + std::to_string(i), 0, makeTransform({static_cast<float>(i), 0, 0})});
    a.channels.push_back({i + 1, 1, {0.f, 1.f}, {{0, 0, 0, 0}, {0, 1, 0, 0}}});
  }
  s.animations.push_back(a);
  return s;
}

GltfScene staticRig() {
  GltfScene s;
  s.nodes = {{"Root", -1, {}}, {"Box", 0, makeTransform({1, 0, 0})}};
  GltfSkinnedMesh mesh;
  mesh.node = 1;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  mesh.indices = {0, 1, 2};
  s.meshes.push_back(mesh);
  return s;
}

}  // namespace animpack::test

namespace animpack::test {

GltfScene layeredRig(int frames, float rate) {
  GltfScene s = armatureRig(1.f, frames, rate);
  GltfAnimation idle = s.animations[0];
  idle.name = "Idle";
  GltfAnimation upper = idle;
  upper.name = "Upper";
  for (GltfChannel& ch : upper.channels) {
    if (ch.path != 0 || (ch.node != 3 && ch.node != 4)) continue;
    for (std::size_t f = 0; f < ch.values.size(); ++f) {
      // The layer on top of the idle: the spine leans and the head nods, in the joint's local frame.
      const float phase = 0.5f * static_cast<float>(f);
      const core::Quat layer = axisAngle(1, 0, 0, (ch.node == 3 ? 0.25f : 0.4f) * std::sin(phase));
      const auto& v = ch.values[f];
      const core::Quat q = core::Quat{v[0], v[1], v[2], v[3]} * layer;
      ch.values[f] = {q.x, q.y, q.z, q.w};
    }
  }
  s.animations.push_back(idle);
  s.animations.push_back(upper);
  return s;
}

GltfScene longChainRig(int links, float lengthM, int frames, float rate) {
  GltfScene s;
  s.nodes.push_back({"Root", -1, {}});
  for (int k = 1; k <= links; ++k)
    s.nodes.push_back(
        {"Link" + std::to_string(k), k - 1, makeTransform(core::Vec3{0, lengthM / static_cast<float>(links), 0})});
  GltfAnimation idle{"Idle", {}}, swing{"Swing", {}};
  for (int node = 0; node <= links; ++node) {
    GltfChannel slow{node, 0, {}, {}}, fast{node, 0, {}, {}};
    for (int f = 0; f < frames; ++f) {
      const float t = static_cast<float>(f), n = static_cast<float>(node);
      const core::Quat sway = axisAngle(0, 0, 1, 0.08f * std::sin(0.15f * t + n));
      const core::Quat turn = axisAngle(1, 0, 0, 0.5f * std::sin(0.45f * t + 0.7f * n));
      const core::Quat q = sway * turn;
      slow.times.push_back(t / rate);
      slow.values.push_back({sway.x, sway.y, sway.z, sway.w});
      fast.times.push_back(t / rate);
      fast.values.push_back({q.x, q.y, q.z, q.w});
    }
    idle.channels.push_back(slow);
    swing.channels.push_back(fast);
  }
  s.animations = {idle, swing};
  return s;
}

GltfScene scaledRig(GltfScene s, float size) {
  for (GltfNode& n : s.nodes) n.rest.translation = n.rest.translation * size;
  for (GltfAnimation& a : s.animations)
    for (GltfChannel& c : a.channels)
      if (c.path == 1)
        for (auto& v : c.values)
          for (int i = 0; i < 3; ++i) v[std::size_t(i)] *= size;
  for (GltfSkinnedMesh& m : s.meshes) {
    for (core::Vec3& p : m.positions) p = p * size;
    // Only translations grow: an inverse bind's translation grows by the same factor.
    for (core::Mat34& b : m.inverseBinds)
      for (int i = 9; i < 12; ++i) b.m[i] *= size;
  }
  return s;
}

GltfScene walkerRig(float turnDeg, int frames, float rate) {
  GltfScene s;
  s.nodes = {{"Scene", -1, {}},
             {"Hips", 0, makeTransform({0, 0.9f, 0})},
             {"Spine", 1, makeTransform({0, 0.25f, 0})},
             {"Head", 2, makeTransform({0, 0.35f, 0.02f})},
             {"LeftLeg", 1, makeTransform({0.1f, -0.05f, 0})},
             {"LeftFoot", 4, makeTransform({0, -0.42f, 0.01f})}};
  GltfAnimation walk{"Walk", {}};
  GltfChannel pos{1, 1, {}, {}};
  std::vector<GltfChannel> rot;
  for (int node = 1; node <= 5; ++node) rot.push_back({node, 0, {}, {}});
  const float turn = turnDeg * 3.14159265358979f / 180.f;
  for (int f = 0; f < frames; ++f) {
    const float t = static_cast<float>(f) / rate, s01 = static_cast<float>(f) / static_cast<float>(frames - 1);
    const float phase = 6.2831853f * s01;
    pos.times.push_back(t);
    pos.values.push_back({walkerStride() * s01, 0.9f + 0.02f * std::sin(2 * phase), 0, 0});
    const core::Quat hips = axisAngle(0, 1, 0, turn * s01) * axisAngle(1, 0, 0, 0.1f * std::sin(phase));
    const core::Quat swing[] = {hips, axisAngle(0, 0, 1, 0.1f * std::sin(phase)),
                                axisAngle(1, 0, 0, 0.2f * std::cos(phase)), axisAngle(1, 0, 0, 0.5f * std::sin(phase)),
                                axisAngle(1, 0, 0, 0.3f * std::cos(phase))};
    for (int k = 0; k < 5; ++k) {
      rot[std::size_t(k)].times.push_back(t);
      rot[std::size_t(k)].values.push_back({swing[k].x, swing[k].y, swing[k].z, swing[k].w});
    }
  }
  walk.channels.push_back(pos);
  for (auto& c : rot) walk.channels.push_back(std::move(c));
  s.animations.push_back(walk);
  return s;
}

core::ImportedAsset spinningArmature() {
  core::ImportedAsset asset = importOrFail(writeScene(armatureRig(1.f, 90, 30.f), "spinning.gltf"));
  core::RawClip& clip = asset.clips[0];
  const std::uint32_t head = static_cast<std::uint32_t>(asset.skeleton.find("Head"));
  for (std::uint32_t f = 0; f < clip.frameCount; ++f) {
    const float angle = 3.f * 3.14159265f * float(f) / float(clip.frameCount - 1);
    clip.at(head, f).rotation =
        runtime::normalized({0.3f * std::sin(angle / 2), std::sin(angle / 2), 0.f, std::cos(angle / 2)});
  }
  return asset;
}

namespace {

/// A timed track of joint j's channel with keys 1.25 and 1.75 frames apart in turn (between frames
/// from the second key on, off a line of times, so packed keys store time offsets), sampled from
/// the clip, within 2e-2 of its frames (odd joints' rotations: every key, float32).
std::optional<core::TrackEncoding> timedOf(const core::RawClip& clip, std::uint32_t j, core::Channel channel,
                                           const std::vector<core::Sample>& samples, const core::Sample& rest) {
  core::TimedSource source;
  std::vector<core::Transform> pose(clip.jointCount);
  const double last = double(clip.frameCount - 1);
  for (double p = 0, gap = 1.25;; p = std::min(p + gap, last), gap = 3.0 - gap) {
    core::RawSampler::sampleFrame(clip, p, pose);
    core::Sample v = core::sampleOf(pose[j], channel);
    if (!source.values.empty() && v[0] * source.values.back()[0] + v[1] * source.values.back()[1] +
                                          v[2] * source.values.back()[2] + v[3] * source.values.back()[3] <
                                      0)
      for (float& x : v) x = -x;
    source.frames.push_back(p);
    source.values.push_back(v);
    if (p == last) break;
  }
  // Odd joints' rotations keep every key as float32 (tolerance 0), so both key formats are written.
  const double tolerance = channel == core::Channel::Rotation && j % 2 == 1 ? 0.0 : 2e-2;
  return core::encodeTimed({channel, samples, rest, tolerance}, source);
}

}  // namespace

std::vector<std::uint8_t> clipOfOneKind(const core::ImportedAsset& asset, core::TrackKind kind,
                                        std::uint32_t snapshotFrames) {
  const core::RawClip& clip = asset.clips[0];
  std::vector<core::TrackEncoding> tracks(std::size_t(clip.jointCount) * 3);
  for (std::uint32_t j = 0; j < clip.jointCount; ++j)
    for (int c = 0; c < 3; ++c) {
      const core::Channel channel = core::Channel(c);
      std::vector<core::Sample> samples(clip.frameCount);
      for (std::uint32_t f = 0; f < clip.frameCount; ++f) samples[f] = core::sampleOf(clip.at(j, f), channel);
      const core::TrackTarget target{channel, samples, core::sampleOf(asset.skeleton.restLocal[j], channel), 1e-4};
      std::optional<core::TrackEncoding> e = core::encodeStatic(target, core::RotationFormat::Q48);
      if (!e && kind == core::TrackKind::Timed) e = timedOf(clip, j, channel, samples, target.rest);
      if (!e)
        e = kind == core::TrackKind::Keyed ? core::encodeKeyed(target, 12, std::numeric_limits<std::size_t>::max())
                                           : core::encodeUniform(target, 16, {});
      if (!e) qFatal("clipOfOneKind: no encoding for joint %u channel %d", j, c);
      tracks[j * 3 + std::size_t(c)] = std::move(*e);
    }
  const core::ClipLayout layout{clip.frameCount, float(clip.sampleRate), true, false, false, 16, snapshotFrames,
                                tracks};
  return core::writeClip(layout);
}

}  // namespace animpack::test
