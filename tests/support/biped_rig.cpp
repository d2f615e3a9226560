// bipedRig (test_rigs.h): a 17-joint walking biped whose motion is an analytic function of time, keyed
// on one grid, at times of every channel's own, or thinned as an exporter's key reduction leaves it.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include <QtGlobal>

#include "tests/support/rig_helpers.h"
#include "tests/support/test_rigs.h"

namespace animpack::test {
namespace {

constexpr double kTau = 6.283185307179586;
constexpr double kSeconds = 3.0;
constexpr double kRate = 30.0;
constexpr double kOmega = kTau / 1.1;  // a step cycle of 1.1 s

struct Joint {
  const char* name;
  int parent;
  core::Vec3 offset;  // m
};
// Hips 0, Spine 1, Chest 2, Neck 3, Head 4, arms 5-8 (left) and 9-12 (right) from the chest, legs
// 13-15 (left) and 16-18 (right) from the hips; the scene root is node 0, so joint j is node j + 1.
constexpr Joint kJoints[] = {
    {"Hips", -1, {0, 0.95f, 0}},
    {"Spine", 0, {0, 0.12f, 0}},
    {"Chest", 1, {0, 0.15f, 0}},
    {"Neck", 2, {0, 0.2f, 0}},
    {"Head", 3, {0, 0.1f, 0.02f}},
    {"LeftShoulder", 2, {0.08f, 0.17f, 0}},
    {"LeftUpperArm", 5, {0.1f, 0, 0}},
    {"LeftLowerArm", 6, {0.27f, 0, 0}},
    {"LeftHand", 7, {0.25f, 0, 0}},
    {"RightShoulder", 2, {-0.08f, 0.17f, 0}},
    {"RightUpperArm", 9, {-0.1f, 0, 0}},
    {"RightLowerArm", 10, {-0.27f, 0, 0}},
    {"RightHand", 11, {-0.25f, 0, 0}},
    {"LeftUpperLeg", 0, {0.1f, -0.05f, 0}},
    {"LeftLowerLeg", 13, {0, -0.43f, 0}},
    {"LeftFoot", 14, {0, -0.42f, 0.02f}},
    {"RightUpperLeg", 0, {-0.1f, -0.05f, 0}},
    {"RightLowerLeg", 16, {0, -0.43f, 0}},
    {"RightFoot", 17, {0, -0.42f, 0.02f}},
};
constexpr int kJointCount = int(std::size(kJoints));

core::Quat rotation(int joint, double t) {
  const double p = kOmega * t;
  const double side = joint >= 9 && joint <= 12 ? -1 : joint >= 16 ? -1 : 1;  // the right side mirrors
  const double phase = side < 0 ? kTau / 2 : 0;
  switch (joint) {
    case 0: return axisAngle(0, 1, 0, float(0.12 * std::sin(p))) * axisAngle(0, 0, 1, float(0.05 * std::sin(p)));
    case 1: return axisAngle(0, 1, 0, float(-0.06 * std::sin(p)));
    case 2: return axisAngle(0, 1, 0, float(-0.08 * std::sin(p))) * axisAngle(1, 0, 0, float(0.05));
    case 3: return axisAngle(1, 0, 0, float(0.04 * std::sin(2 * p + 0.3)));
    case 4:
      return axisAngle(0, 1, 0, float(0.1 * std::sin(0.3 * p))) * axisAngle(1, 0, 0, float(0.05 * std::sin(2 * p)));
    case 5:
    case 9: return axisAngle(0, 0, 1, float(side * 0.05 * std::sin(2 * p)));
    case 6:
    case 10:  // arms hang and swing against the legs
      return axisAngle(0, 0, 1, float(-side * 1.2)) * axisAngle(0, 1, 0, float(0.4 * std::sin(p + phase + kTau / 2)));
    case 7:
    case 11: return axisAngle(0, 1, 0, float(side * (0.3 + 0.2 * std::sin(p + phase + kTau / 2))));
    case 8:
    case 12: return axisAngle(1, 0, 0, float(0.15 * std::sin(2 * p + phase)));
    case 13:
    case 16: return axisAngle(1, 0, 0, float(0.5 * std::sin(p + phase)));
    case 14:
    case 17: return axisAngle(1, 0, 0, float(0.7 * std::max(0.0, std::sin(p + phase - 1.0))));
    case 15:
    case 18: return axisAngle(1, 0, 0, float(0.3 * std::sin(p + phase + 0.5)));
    default: return {};
  }
}

core::Vec3 hipsTranslation(double t) {
  return {float(0.02 * std::sin(kOmega * t)), float(0.95 + 0.03 * std::sin(2 * kOmega * t)), float(1.3 * t)};
}

/// Deterministic numbers in [-1, 1] for a channel.
struct Jitter {
  std::uint32_t seed;
  double operator()() {
    seed = seed * 1664525u + 1013904223u;
    return double(seed >> 8) / double(1u << 23) - 1.0;
  }
};

std::vector<double> regularTimes() {
  std::vector<double> t;
  for (int k = 0; k <= int(kSeconds * kRate + 0.5); ++k) t.push_back(k / kRate);
  return t;
}

std::vector<double> ownTimes(std::uint32_t seed) {
  Jitter jitter{seed * 2654435761u + 7};
  std::vector<double> t{0.0};
  for (double next = (1.0 + 0.4 * jitter()) / kRate; next < kSeconds - 0.5 / kRate;
       next = t.back() + (1.0 + 0.4 * jitter()) / kRate)
    t.push_back(next);
  t.push_back(kSeconds);  // at least half a step after the last
  return t;
}

/// The keys of `times` that a key reduction keeps: the first and the last, and recursively the key
/// farthest from the line (lerp, or slerp for rotations) between the kept ones while it is over
/// `tolerance` (Douglas-Peucker over the 30 Hz keys, as exporters' "simplify" does).
std::vector<double> thinned(const std::vector<double>& times, const std::function<double(double, double, double)>& miss,
                            double tolerance) {
  std::vector<bool> keep(times.size(), false);
  keep.front() = keep.back() = true;
  std::function<void(std::size_t, std::size_t)> split = [&](std::size_t a, std::size_t b) {
    double worst = 0;
    std::size_t at = a;
    for (std::size_t k = a + 1; k < b; ++k)
      if (const double m = miss(times[a], times[b], times[k]); m > worst) worst = m, at = k;
    if (worst <= tolerance) return;
    keep[at] = true;
    split(a, at);
    split(at, b);
  };
  split(0, times.size() - 1);
  std::vector<double> out;
  for (std::size_t k = 0; k < times.size(); ++k)
    if (keep[k]) out.push_back(times[k]);
  return out;
}

double rotationMiss(int joint, double a, double b, double t) {
  const core::Quat q = runtime::slerp(rotation(joint, a), rotation(joint, b), float((t - a) / (b - a)));
  const core::Quat r = rotation(joint, t);
  const double dot = std::fabs(double(q.x) * r.x + double(q.y) * r.y + double(q.z) * r.z + double(q.w) * r.w);
  return 2 * std::acos(std::min(1.0, dot));  // radians
}

double translationMiss(double a, double b, double t) {
  const core::Vec3 pa = hipsTranslation(a), pb = hipsTranslation(b), p = hipsTranslation(t);
  const double u = (t - a) / (b - a);
  const double dx = pa.x + u * (pb.x - pa.x) - p.x, dy = pa.y + u * (pb.y - pa.y) - p.y,
               dz = pa.z + u * (pb.z - pa.z) - p.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);  // m
}

}  // namespace

int bipedJointCount() { return kJointCount; }

GltfScene bipedRig(BipedKeys keys) {
  GltfScene s;
  s.nodes.push_back({"Scene", -1, {}});
  for (const Joint& j : kJoints) s.nodes.push_back({j.name, j.parent + 1, makeTransform(j.offset)});
  GltfAnimation walk{"Walk", {}};
  const std::vector<double> grid = regularTimes();
  auto timesOf = [&](int channel, const std::function<double(double, double, double)>& miss, double tolerance) {
    switch (keys) {
      case BipedKeys::Grid: return grid;
      case BipedKeys::OwnTimes: return ownTimes(std::uint32_t(channel));
      case BipedKeys::Thinned: return thinned(grid, miss, tolerance);
    }
    return grid;
  };
  for (int j = 0; j < kJointCount; ++j) {
    GltfChannel rot{j + 1, 0, {}, {}};
    // Half a degree: what an exporter's default reduction (Unity's rotation error) lets a rotation miss by.
    for (double t : timesOf(
             j, [j](double a, double b, double t) { return rotationMiss(j, a, b, t); }, 0.0087)) {
      const core::Quat q = rotation(j, t);
      rot.times.push_back(float(t));
      rot.values.push_back({q.x, q.y, q.z, q.w});
    }
    walk.channels.push_back(rot);
  }
  GltfChannel pos{1, 1, {}, {}};
  for (double t : timesOf(kJointCount, translationMiss, 0.0005)) {  // 0.5 mm
    const core::Vec3 p = hipsTranslation(t);
    pos.times.push_back(float(t));
    pos.values.push_back({p.x, p.y, p.z, 0});
  }
  walk.channels.push_back(pos);
  s.animations.push_back(walk);
  return s;
}

double meanKeyRate(const GltfScene& scene) {
  std::size_t keys = 0, channels = 0;
  double seconds = 0;
  for (const GltfAnimation& a : scene.animations)
    for (const GltfChannel& c : a.channels) {
      if (c.times.empty()) continue;
      keys += c.times.size() - 1;  // intervals
      ++channels;
      seconds = std::max(seconds, double(c.times.back() - c.times.front()));
    }
  if (channels == 0 || !(seconds > 0)) qFatal("meanKeyRate: no keyed channel");
  return double(keys) / double(channels) / seconds;
}

}  // namespace animpack::test
