// faceRig (test_rigs.h): a generated head with 52 ARKit-named morph targets. Everything is an
// analytic formula, so the file is the same on every run and faceWeight can evaluate it independently.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>

#include <QtGlobal>

#include "tests/support/rig_helpers.h"
#include "tests/support/test_rigs.h"

namespace animpack::test {
namespace {

constexpr double kPi = 3.14159265358979323846;
// The head is an ellipsoid of latitude rings (top to bottom) and longitude segments; segment 0 faces
// +Z, segment 1 lies on the face's left (+X). Vertex 0 is the top pole, the last the bottom pole.
constexpr int kRings = 24;
constexpr int kSegments = 32;
constexpr int kVertices = 2 + (kRings - 1) * kSegments;
constexpr double kCentre[3] = {0, 1.70, 0};          // m, object space
constexpr double kRadii[3] = {0.075, 0.105, 0.090};  // m
constexpr int kFaceNode = 4;

enum class Side { Centre, Left, Right };

/// How a target's weight moves: Smooth is c + a1 sin(2 pi f1 t + p1) + a2 sin(2 pi f2 t + p2) (t in
/// seconds, f in Hz); Constant is c; Rest is c, the rest weight.
struct Motion {
  FaceCurveKind kind;
  double c, a1, f1, p1, a2, f2, p2;
};
constexpr Motion smooth(double c, double a1, double f1, double p1, double a2, double f2, double p2) {
  return {FaceCurveKind::Smooth, c, a1, f1, p1, a2, f2, p2};
}
constexpr Motion held(FaceCurveKind k, double c = 0) { return {k, c, 0, 0, 0, 0, 0, 0}; }
constexpr Motion kBlink = held(FaceCurveKind::Blink);
constexpr Motion kBump = held(FaceCurveKind::Bump);
constexpr Motion constant(double w) { return held(FaceCurveKind::Constant, w); }
constexpr Motion rest(double w) { return held(FaceCurveKind::Rest, w); }

struct Spec {
  const char* name;
  Side side;
  int ring, segment;          // the vertex that moves most (segment on the left side; Right mirrors it)
  double radiusCm;            // vertices closer than this to it move, falling off smoothly
  std::array<double, 3> dir;  // on the left side; zero: along each vertex's normal
  double cm;                  // its displacement at weight 1: the largest
  Motion motion;
};

constexpr Side C = Side::Centre, L = Side::Left, R = Side::Right;
// Rings: brows 7-8, eyes 10, nose and cheeks 12-13, upper lip 14, mouth 16, lower lip 17, chin 18-19.
constexpr Spec kSpecs[] = {
    {"eyeBlinkLeft", L, 10, 3, 2.0, {0, -1, 0}, 1.0, kBlink},
    {"eyeLookDownLeft", L, 10, 3, 2.0, {0, -1, 0}, 0.3, kBump},
    {"eyeLookInLeft", L, 10, 3, 2.0, {-1, 0, 0}, 0.25, kBump},
    {"eyeLookOutLeft", L, 10, 3, 2.0, {1, 0, 0}, 0.25, kBump},
    {"eyeLookUpLeft", L, 10, 3, 2.0, {0, 1, 0}, 0.35, kBump},
    {"eyeSquintLeft", L, 11, 3, 2.0, {0, 1, 0}, 0.5, constant(0.2)},
    {"eyeWideLeft", L, 8, 3, 2.0, {0, 1, 0}, 0.6, kBump},
    {"eyeBlinkRight", R, 10, 3, 2.0, {0, -1, 0}, 1.0, kBlink},
    {"eyeLookDownRight", R, 10, 3, 2.0, {0, -1, 0}, 0.3, kBump},
    {"eyeLookInRight", R, 10, 3, 2.0, {-1, 0, 0}, 0.25, kBump},
    {"eyeLookOutRight", R, 10, 3, 2.0, {1, 0, 0}, 0.25, kBump},
    {"eyeLookUpRight", R, 10, 3, 2.0, {0, 1, 0}, 0.35, kBump},
    {"eyeSquintRight", R, 11, 3, 2.0, {0, 1, 0}, 0.5, constant(0.2)},
    {"eyeWideRight", R, 8, 3, 2.0, {0, 1, 0}, 0.6, kBump},
    {"jawForward", C, 18, 0, 5.0, {0, 0, 1}, 1.2, kBump},
    {"jawLeft", L, 18, 0, 5.0, {1, 0, 0}, 1.0, kBump},
    {"jawRight", R, 18, 0, 5.0, {1, 0, 0}, 1.0, kBump},
    {"jawOpen", C, 19, 0, 6.0, {0, -1, -0.25}, 3.0, smooth(0.40, 0.25, 1.30, 0.0, 0.10, 0.55, 1.1)},
    {"mouthClose", C, 16, 0, 2.5, {0, 1, 0}, 0.4, rest(0.15)},
    {"mouthFunnel", C, 16, 0, 3.0, {0, 0, 1}, 1.0, smooth(0.30, 0.15, 0.45, 0.8, 0.08, 1.10, 2.0)},
    {"mouthPucker", C, 16, 0, 2.0, {0, 0, 1}, 1.2, smooth(0.25, 0.12, 0.35, 2.5, 0.08, 0.90, 0.3)},
    {"mouthLeft", L, 16, 0, 3.5, {1, 0, 0}, 1.0, kBump},
    {"mouthRight", R, 16, 0, 3.5, {1, 0, 0}, 1.0, kBump},
    {"mouthSmileLeft", L, 16, 3, 2.5, {0.5, 0.8, -0.3}, 1.2, smooth(0.45, 0.25, 0.20, 0.4, 0.10, 0.70, 1.7)},
    {"mouthSmileRight", R, 16, 3, 2.5, {0.5, 0.8, -0.3}, 1.2, smooth(0.42, 0.25, 0.20, 0.6, 0.10, 0.75, 2.1)},
    {"mouthFrownLeft", L, 16, 3, 2.5, {0, -1, 0}, 0.8, kBump},
    {"mouthFrownRight", R, 16, 3, 2.5, {0, -1, 0}, 0.8, kBump},
    {"mouthDimpleLeft", L, 16, 4, 2.0, {0, 0, -1}, 0.5, kBump},
    {"mouthDimpleRight", R, 16, 4, 2.0, {0, 0, -1}, 0.5, kBump},
    {"mouthStretchLeft", L, 16, 3, 3.0, {1, -0.3, 0}, 1.0, kBump},
    {"mouthStretchRight", R, 16, 3, 3.0, {1, -0.3, 0}, 1.0, kBump},
    {"mouthRollLower", C, 17, 0, 2.0, {0, 0.3, -1}, 0.7, kBump},
    {"mouthRollUpper", C, 14, 0, 2.0, {0, -0.3, -1}, 0.6, kBump},
    {"mouthShrugLower", C, 17, 0, 2.5, {0, 1, 0.3}, 0.8, kBump},
    {"mouthShrugUpper", C, 14, 0, 2.5, {0, 1, 0}, 0.5, kBump},
    {"mouthPressLeft", L, 16, 1, 2.0, {0, 0, -1}, 0.4, kBump},
    {"mouthPressRight", R, 16, 1, 2.0, {0, 0, -1}, 0.4, kBump},
    {"mouthLowerDownLeft", L, 17, 1, 2.0, {0, -1, 0}, 0.9, smooth(0.35, 0.20, 1.05, 0.2, 0.08, 0.40, 2.6)},
    {"mouthLowerDownRight", R, 17, 1, 2.0, {0, -1, 0}, 0.9, smooth(0.35, 0.20, 1.05, 0.5, 0.08, 0.43, 2.9)},
    {"mouthUpperUpLeft", L, 14, 1, 2.0, {0, 1, 0}, 0.7, smooth(0.30, 0.15, 0.85, 1.3, 0.10, 0.30, 0.9)},
    {"mouthUpperUpRight", R, 14, 1, 2.0, {0, 1, 0}, 0.7, smooth(0.30, 0.15, 0.85, 1.6, 0.10, 0.33, 0.4)},
    {"browDownLeft", L, 8, 3, 2.5, {-0.3, -1, 0}, 0.8, kBump},
    {"browDownRight", R, 8, 3, 2.5, {-0.3, -1, 0}, 0.8, kBump},
    {"browInnerUp", C, 7, 0, 3.0, {0, 1, 0}, 1.0, smooth(0.50, 0.30, 0.25, 3.0, 0.12, 0.60, 0.5)},
    {"browOuterUpLeft", L, 7, 4, 2.5, {0, 1, 0}, 0.9, kBump},
    {"browOuterUpRight", R, 7, 4, 2.5, {0, 1, 0}, 0.9, kBump},
    {"cheekPuff", C, 14, 0, 5.0, {0, 0, 0}, 1.5, kBump},
    {"cheekSquintLeft", L, 12, 4, 2.5, {0, 1, 0}, 0.6, constant(0.1)},
    {"cheekSquintRight", R, 12, 4, 2.5, {0, 1, 0}, 0.6, constant(0.1)},
    {"noseSneerLeft", L, 12, 1, 2.0, {0, 1, 0.2}, 0.5, kBump},
    {"noseSneerRight", R, 12, 1, 2.0, {0, 1, 0.2}, 0.5, kBump},
    {"tongueOut", C, 16, 0, 2.0, {0, 0, 1}, 2.5, rest(0)},
};
constexpr int kTargets = int(std::size(kSpecs));
static_assert(kTargets == 52);

const Spec& spec(int target) {
  if (target < 0 || target >= kTargets) qFatal("face target %d of %d", target, kTargets);
  return kSpecs[target];
}

int vertexIndex(int ring, int segment) {
  return ring == 0 ? 0 : ring == kRings ? kVertices - 1 : 1 + (ring - 1) * kSegments + segment % kSegments;
}

std::array<double, 3> headPoint(int ring, int segment) {
  const double theta = kPi * ring / kRings, phi = 2 * kPi * segment / kSegments;
  const double narrow = 1 - 0.18 * std::max(0.0, -std::cos(theta));  // the jaw is narrower than the skull
  return {kCentre[0] + kRadii[0] * narrow * std::sin(theta) * std::sin(phi), kCentre[1] + kRadii[1] * std::cos(theta),
          kCentre[2] + kRadii[2] * std::sin(theta) * std::cos(phi)};
}

double fract(double x) { return x - std::floor(x); }

/// Bump target `bump` (counted among the Bump targets) at `frame`: sin^2 bumps, exactly 0 outside
/// them (a weight of 1e-32 would read as garbage to the importer).
double bumpKey(int bump, int frame, int frames) {
  const int width = 10 + (7 * bump) % 11;
  const double amplitude = 0.32 + 0.68 * fract(0.2 + 0.381966 * bump);
  const int room = std::max(1, frames - width);
  const int first = int(fract(0.137 + 0.618034 * bump) * room);
  double w = 0;
  auto at = [&](int start) {
    const int d = frame - start;
    if (d > 0 && d < width) w = std::max(w, amplitude * std::pow(std::sin(kPi * d / width), 2));
  };
  at(first);
  if (bump % 3 == 0) at((first + frames / 2) % room);
  return w;
}

/// 1 while a blink starting at one of `at` (fractions of the clip) lasts `length` frames, else 0.
double blinkKey(int frame, int frames, std::initializer_list<double> at, std::initializer_list<int> length) {
  auto len = length.begin();
  for (double a : at) {
    const int start = int(std::lround(a * frames));
    if (frame >= start && frame < start + *len++) return 1;
  }
  return 0;
}

double smoothValue(const Motion& m, double t, double speed) {
  return m.c + m.a1 * std::sin(2 * kPi * m.f1 * speed * t + m.p1) + m.a2 * std::sin(2 * kPi * m.f2 * speed * t + m.p2);
}

double restWeight(const Spec& s) { return s.motion.kind == FaceCurveKind::Rest ? s.motion.c : 0; }

/// A target's weight tolerance at the default precision: 0.01 cm over its displacement at weight 1.
double captureTolerance(double displacementCm) { return 0.01 / displacementCm; }

double talkKey(int target, int frame, int frames, float rate) {
  const Spec& s = spec(target);
  switch (s.motion.kind) {
    case FaceCurveKind::Smooth: return smoothValue(s.motion, frame / double(rate), 1);
    case FaceCurveKind::Blink:  // the left eye winks once: the right one skips the third blink
      return s.side == L ? blinkKey(frame, frames, {0.08, 0.33, 0.57, 0.83}, {3, 4, 3, 4})
                         : blinkKey(frame, frames, {0.08, 0.33, 0.83}, {3, 4, 4});
    case FaceCurveKind::Bump: {
      int bump = 0;
      for (int t = 0; t < target; ++t) bump += kSpecs[t].motion.kind == FaceCurveKind::Bump;
      return bumpKey(bump, frame, frames);
    }
    case FaceCurveKind::Constant:
    case FaceCurveKind::Rest: return s.motion.c;
  }
  return 0;
}

double idleKey(int target, int frame, int frames, float rate) {
  const Spec& s = spec(target);
  const std::string name = s.name;
  if (s.motion.kind == FaceCurveKind::Blink) return blinkKey(frame, frames, {0.3, 0.8}, {3, 4});
  if (name == "browInnerUp" || name == "mouthSmileLeft" || name == "mouthSmileRight")
    return 0.5 * smoothValue(s.motion, frame / double(rate), 0.5);  // half as far, half as fast
  return restWeight(s);
}

/// A counter-based generator: the same number for the same (target, frame, stream) on every run.
double uniform01(int target, int frame, int stream) {
  std::uint64_t z = (std::uint64_t(target) << 40) ^ (std::uint64_t(frame) << 8) ^ std::uint64_t(stream);
  z += 0x9e3779b97f4a7c15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (double(z >> 11) + 0.5) / 9007199254740992.0;  // (0, 1)
}

/// A standard normal number (Box-Muller) for (target, frame).
double gaussian(int target, int frame) {
  return std::sqrt(-2 * std::log(uniform01(target, frame, 1))) * std::cos(2 * kPi * uniform01(target, frame, 2));
}

/// faceCaptureRig's weight of `target` at key `frame` (docs/PERFORMANCE.md "Morph targets" gives the
/// model): a resting level, a slow drift of two sines (periods of 3-20 s), the sensor's noise, and for
/// the blinks fast steps; clamped to 0..1 as a capture app writes it.
double captureKey(int target, int frame, float rate, double noise) {
  const Spec& s = spec(target);
  const double t = frame / double(rate);
  const double level = 0.08 + 0.3 * uniform01(target, 0, 3);
  const double a1 = 0.04 + 0.12 * uniform01(target, 0, 4), f1 = 0.05 + 0.1 * uniform01(target, 0, 5);
  const double a2 = 0.02 + 0.06 * uniform01(target, 0, 6), f2 = 0.15 + 0.2 * uniform01(target, 0, 7);
  double w = level + a1 * std::sin(2 * kPi * (f1 * t + uniform01(target, 0, 8))) +
             a2 * std::sin(2 * kPi * (f2 * t + uniform01(target, 0, 9)));
  if (s.motion.kind == FaceCurveKind::Blink) {
    // A blink every 3.2 s, a little later or sooner each time (both eyes together): up in one frame,
    // held four frames, down in two.
    w = 0.1 + 0.3 * (w - level);
    const int period = int(std::lround(3.2 * rate));
    const int start = int(std::lround(0.4 * rate)) + int(0.25 * rate * uniform01(0, frame / period, 10));
    const int into = frame % period - start;
    if (into >= 0 && into < 4) w = 0.92;
    else if (into == 4) w = 0.6;
    else if (into == 5) w = 0.3;
  }
  return std::clamp(w + noise * captureTolerance(s.cm) * gaussian(target, frame), 0.0, 1.0);
}

/// glTF LINEAR between the keys `key(k)` at k / rate, held outside them.
template <typename Key>
double betweenKeys(Key key, double seconds, int frames, float rate) {
  const double u = seconds * double(rate);
  if (!(u > 0)) return key(0);
  if (u >= frames - 1) return key(frames - 1);
  // Within 1e-9 frames of a key is the key itself, so k / rate gives it exactly despite rounding.
  if (std::fabs(u - std::round(u)) <= 1e-9) return key(int(std::round(u)));
  const int k = int(std::floor(u));
  const double a = u - k;
  return (1 - a) * key(k) + a * key(k + 1);
}

void checkClip(int frames, float rate) {
  if (frames < 2 || !(rate > 0))
    qFatal("faceRig: %d frames at %g Hz (needs 2 or more frames, a positive rate)", frames, double(rate));
}

GltfSkinnedMesh headMesh() {
  GltfSkinnedMesh m;
  m.node = kFaceNode;
  std::vector<std::array<double, 3>> p(kVertices);
  p[0] = headPoint(0, 0);
  p[kVertices - 1] = headPoint(kRings, 0);
  for (int r = 1; r < kRings; ++r)
    for (int s = 0; s < kSegments; ++s) p[std::size_t(vertexIndex(r, s))] = headPoint(r, s);
  auto tri = [&](int a, int b, int c) {
    m.indices.insert(m.indices.end(), {std::uint32_t(a), std::uint32_t(b), std::uint32_t(c)});
  };
  // Counter-clockwise seen from outside.
  for (int s = 0; s < kSegments; ++s) {
    tri(0, vertexIndex(1, s), vertexIndex(1, s + 1));
    for (int r = 1; r + 1 < kRings; ++r) {
      tri(vertexIndex(r, s), vertexIndex(r + 1, s), vertexIndex(r + 1, s + 1));
      tri(vertexIndex(r, s), vertexIndex(r + 1, s + 1), vertexIndex(r, s + 1));
    }
    tri(vertexIndex(kRings - 1, s), kVertices - 1, vertexIndex(kRings - 1, s + 1));
  }
  // Area-weighted vertex normals.
  std::vector<std::array<double, 3>> n(kVertices, {0, 0, 0});
  for (std::size_t i = 0; i < m.indices.size(); i += 3) {
    const auto &a = p[m.indices[i]], &b = p[m.indices[i + 1]], &c = p[m.indices[i + 2]];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double cross[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    for (int k = 0; k < 3; ++k)
      for (int axis = 0; axis < 3; ++axis) n[m.indices[i + std::size_t(k)]][std::size_t(axis)] += cross[axis];
  }
  for (auto& v : n) {
    const double length = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (double& x : v) x /= length;
  }
  auto vec = [](const std::array<double, 3>& v) { return core::Vec3{float(v[0]), float(v[1]), float(v[2])}; };
  for (int v = 0; v < kVertices; ++v) {
    const auto& q = p[std::size_t(v)];
    m.positions.push_back(vec(q));
    m.normals.push_back(vec(n[std::size_t(v)]));
    // The lower front of the face follows the jaw, blended over 3 cm below the upper lip.
    const double jaw =
        std::clamp((kCentre[1] - 0.035 - q[1]) / 0.03, 0.0, 1.0) * std::clamp((q[2] - kCentre[2]) / 0.04, 0.0, 1.0);
    m.joints.push_back({0, 1, 0, 0});
    m.weights.push_back({float(1 - jaw), float(jaw), 0, 0});
  }
  for (int t = 0; t < kTargets; ++t) {
    const Spec& s = kSpecs[t];
    const int centre = vertexIndex(s.ring, s.side == R ? kSegments - s.segment : s.segment);
    std::array<double, 3> dir = s.dir;
    if (s.side == R) dir[0] = -dir[0];
    const double dirLength = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    const double radius = s.radiusCm / 100;
    GltfSkinnedMesh::Target target{s.name, std::vector<core::Vec3>(kVertices, core::Vec3{0, 0, 0})};
    for (int v = 0; v < kVertices; ++v) {
      const auto &a = p[std::size_t(v)], &c = p[std::size_t(centre)];
      const double d2 =
          ((a[0] - c[0]) * (a[0] - c[0]) + (a[1] - c[1]) * (a[1] - c[1]) + (a[2] - c[2]) * (a[2] - c[2])) /
          (radius * radius);
      if (d2 >= 1) continue;
      // Falls from 1 at the centre vertex to 0 at the radius, so the centre moves the most.
      const double f = (1 - d2) * (1 - d2) * s.cm / 100;
      const auto& along = dirLength > 0 ? dir : n[std::size_t(v)];
      const double scale = f / (dirLength > 0 ? dirLength : 1);
      target.deltas[std::size_t(v)] = vec({along[0] * scale, along[1] * scale, along[2] * scale});
    }
    m.targets.push_back(std::move(target));
    m.defaultWeights.push_back(float(restWeight(s)));
  }
  return m;
}

template <typename Key>
GltfAnimation faceClip(const char* name, int frames, float rate, bool talk, Key key) {
  GltfAnimation clip{name, {}};
  GltfChannel neck{1, 0}, head{2, 0}, weights{kFaceNode, 3};
  for (int f = 0; f < frames; ++f) {
    const float time = float(f) / rate, t = 2 * float(kPi) * time;
    for (GltfChannel* c : {&neck, &head, &weights}) c->times.push_back(time);
    const core::Quat n = talk ? axisAngle(1, 0, 0, 0.03f * std::sin(0.3f * t))   // a gentle nod and turn
                              : axisAngle(1, 0, 0, 0.02f * std::sin(0.2f * t));  // breathing
    const core::Quat h =
        talk ? axisAngle(0, 1, 0, 0.12f * std::sin(0.25f * t + 0.5f)) * axisAngle(1, 0, 0, 0.08f * std::sin(0.4f * t))
             : axisAngle(0, 1, 0, 0.05f * std::sin(0.1f * t));
    neck.values.push_back({n.x, n.y, n.z, n.w});
    head.values.push_back({h.x, h.y, h.z, h.w});
    for (int target = 0; target < kTargets; ++target) weights.weights.push_back(float(key(target, f)));
  }
  clip.channels = {neck, head, weights};
  return clip;
}

}  // namespace

int faceTargetCount() { return kTargets; }

FaceTarget faceTarget(int target) {
  const Spec& s = spec(target);
  return {s.name, s.cm, float(restWeight(s)), s.motion.kind};
}

double faceWeight(int target, double seconds, int frames, float rate) {
  checkClip(frames, rate);
  return betweenKeys([&](int k) { return talkKey(target, k, frames, rate); }, seconds, frames, rate);
}

double faceIdleWeight(int target, double seconds, int frames, float rate) {
  checkClip(frames, rate);
  return betweenKeys([&](int k) { return idleKey(target, k, frames, rate); }, seconds, frames, rate);
}

GltfScene faceRig(int frames, float rate) {
  checkClip(frames, rate);
  GltfScene s;
  s.nodes = {{"Scene", -1, {}},
             {"Neck", 0, makeTransform({0, 1.50f, 0})},
             {"Head", 1, makeTransform({0, 0.12f, 0})},
             {"Jaw", 2, makeTransform({0, 0.04f, 0.02f})},
             {"Face", 0, {}}};
  GltfSkinnedMesh mesh = headMesh();
  mesh.skinJoints = {2, 3};
  const std::vector<core::Mat34> object = restObjects(s);
  for (int joint : mesh.skinJoints) mesh.inverseBinds.push_back(object[std::size_t(joint)].inverse());
  s.meshes.push_back(std::move(mesh));
  s.animations = {faceClip("Talk", frames, rate, true, [&](int t, int f) { return talkKey(t, f, frames, rate); }),
                  faceClip("Idle", frames, rate, false, [&](int t, int f) { return idleKey(t, f, frames, rate); })};
  return s;
}

GltfScene faceCaptureRig(int frames, float rate, double noise) {
  if (!(noise >= 0)) qFatal("faceCaptureRig: noise %g (needs 0 or more)", noise);
  GltfScene s = faceRig(frames, rate);
  s.animations = {faceClip("Capture", frames, rate, true, [&](int t, int f) { return captureKey(t, f, rate, noise); })};
  return s;
}

double faceCaptureWeight(int target, double seconds, int frames, float rate, double noise) {
  checkClip(frames, rate);
  return betweenKeys([&](int k) { return captureKey(target, k, rate, noise); }, seconds, frames, rate);
}

double faceCaptureTolerance(int target) { return captureTolerance(spec(target).cm); }

}  // namespace animpack::test
