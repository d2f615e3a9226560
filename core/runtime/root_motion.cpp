#include "core/runtime/root_motion.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "core/runtime/loop.h"

namespace animpack::runtime {
namespace {

// Double-precision quaternion and vector helpers: root motion accumulates over many cycles and
// far from the origin, where float composition would drift.
struct QuatD {
  double x = 0, y = 0, z = 0, w = 1;
};
struct VecD {
  double v[3] = {0, 0, 0};
};

QuatD mul(const QuatD& a, const QuatD& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
QuatD conj(const QuatD& q) { return {-q.x, -q.y, -q.z, q.w}; }
VecD rotate(const QuatD& q, const VecD& p) {
  const double ux = q.x, uy = q.y, uz = q.z;
  const double tx = 2 * (uy * p.v[2] - uz * p.v[1]), ty = 2 * (uz * p.v[0] - ux * p.v[2]),
               tz = 2 * (ux * p.v[1] - uy * p.v[0]);
  return {{p.v[0] + q.w * tx + (uy * tz - uz * ty), p.v[1] + q.w * ty + (uz * tx - ux * tz),
           p.v[2] + q.w * tz + (ux * ty - uy * tx)}};
}
QuatD widen(const Quat& q) { return {q.x, q.y, q.z, q.w}; }
VecD widen(const Vec3& v) { return {{v.x, v.y, v.z}}; }

/// sin and cos of an angle from + - * / alone, so that every target rounds them alike (libm's differ
/// between glibc and mingw-w64): reduced to [-pi, pi] by whole turns, folded into [-pi/2, pi/2],
/// then the series to x^21 and x^22 (truncation below 2e-18 there).
constexpr double kTwoPi = 6.283185307179586, kPi = 3.141592653589793, kHalfPi = 1.5707963267948966;
double reduced(double x) { return x - kTwoPi * std::nearbyint(x / kTwoPi); }
/// The series' coefficients, (-1)^k / (2k + 1)! and (-1)^k / (2k)!, worked out at compile time.
template <int Count, int Offset>
constexpr std::array<double, Count> seriesTerms() {
  std::array<double, Count> terms{};
  double term = 1;
  for (int k = 0; k < Count; ++k) {
    terms[std::size_t(k)] = term;
    term = -term / double((2 * k + 1 + Offset) * (2 * k + 2 + Offset));
  }
  return terms;
}
constexpr auto kSinTerms = seriesTerms<11, 1>();
constexpr auto kCosTerms = seriesTerms<12, 0>();
template <std::size_t Count>
double horner(const std::array<double, Count>& terms, double x2) {
  double s = 0;
  for (std::size_t k = Count; k-- > 0;) s = s * x2 + terms[k];
  return s;
}
double sinSeries(double x) { return x * horner(kSinTerms, x * x); }  // |x| <= pi/2
double cosSeries(double x) { return horner(kCosTerms, x * x); }      // |x| <= pi/2
double portableSin(double x) {
  x = reduced(x);
  if (x > kHalfPi) x = kPi - x;
  if (x < -kHalfPi) x = -kPi - x;
  return sinSeries(x);
}
double portableCos(double x) {
  x = std::fabs(reduced(x));
  return x > kHalfPi ? -cosSeries(kPi - x) : cosSeries(x);
}

/// The turn of a ground motion as a quaternion about its up axis.
QuatD yawQuat(double yaw, std::uint8_t axis) {
  QuatD q{0, 0, 0, portableCos(yaw / 2)};
  (axis == 0 ? q.x : axis == 1 ? q.y : q.z) = portableSin(yaw / 2);
  return q;
}

/// Rotates a ground-plane vector by `yaw` about the up axis (right-handed).
void turn(const double in[3], double yaw, std::uint8_t axis, double out[3]) {
  const int b = (axis + 1) % 3, c = (axis + 2) % 3;
  const double cs = portableCos(yaw), sn = portableSin(yaw);
  const double vb = in[b], vc = in[c];
  out[axis] = in[axis];
  out[b] = cs * vb - sn * vc;
  out[c] = sn * vb + cs * vc;
}

GroundMotion fromFloats(const float* v, std::uint8_t axis) {
  GroundMotion m;
  m.upAxis = axis;
  for (int i = 0; i < 3; ++i) m.t[i] = v[i];
  m.yaw = v[3];
  return m;
}

/// The ground motion of `clip` from frame 0 to `frames` (any fractional frame), cycles included.
GroundMotion groundAtFrames(const ClipView& clip, double frames) {
  if (!clip.loops()) return groundAtFrame(clip, static_cast<float>(frames));
  const double cycle = clip.cycleFrames();
  if (!(cycle > 0)) return groundAtFrame(clip, 0.f);
  const double k = std::floor(frames / cycle);
  const GroundMotion whole = fromFloats(clip.rootMotion()->cycle, clip.rootMotion()->upAxis);
  return compose(power(whole, static_cast<std::int64_t>(k)),
                 groundAtFrame(clip, static_cast<float>(frames - k * cycle)));
}

/// Object-space motion of the character for a motion `d` in the reference frame's axes.
GroundMotion objectMotion(const RootMotionInfo& info, const GroundMotion& d) {
  const GroundMotion reference = fromFloats(info.reference, info.upAxis);
  return compose(compose(reference, d), inverse(reference));
}

/// Folds the motion at `frames` from frame 0 (cycles included) into the root joint of `pose`.
void foldRoot(Player& player, const ClipView& clip, double frames, std::span<const std::int32_t> parents,
              std::span<Transform> pose, RootMotionScratch& scratch);
void moveJointAlong(std::vector<std::uint32_t>& chain, std::span<const std::int32_t> parents, std::uint32_t joint,
                    const GroundMotion& motion, std::span<Transform> pose);

}  // namespace

GroundMotion compose(const GroundMotion& a, const GroundMotion& b) {
  GroundMotion out;
  out.upAxis = a.upAxis;
  double moved[3];
  turn(b.t, a.yaw, a.upAxis, moved);
  for (int i = 0; i < 3; ++i) out.t[i] = a.t[i] + moved[i];
  out.t[a.upAxis] = 0;
  out.yaw = a.yaw + b.yaw;
  return out;
}

GroundMotion inverse(const GroundMotion& m) {
  GroundMotion out;
  out.upAxis = m.upAxis;
  const double back[3] = {-m.t[0], -m.t[1], -m.t[2]};
  turn(back, -m.yaw, m.upAxis, out.t);
  out.t[m.upAxis] = 0;
  out.yaw = -m.yaw;
  return out;
}

GroundMotion power(const GroundMotion& m, std::int64_t k) {
  GroundMotion base = k < 0 ? inverse(m) : m;
  std::uint64_t n = k < 0 ? std::uint64_t(-(k + 1)) + 1 : std::uint64_t(k);
  GroundMotion out;
  out.upAxis = m.upAxis;
  while (n > 0) {
    if (n & 1) out = compose(out, base);
    base = compose(base, base);
    n >>= 1;
  }
  return out;
}

Transform toTransform(const GroundMotion& m) {
  const QuatD q = yawQuat(m.yaw, m.upAxis);
  Transform t;
  t.rotation = {float(q.x), float(q.y), float(q.z), float(q.w)};
  t.translation = {float(m.t[0]), float(m.t[1]), float(m.t[2])};
  return t;
}

GroundMotion groundAtFrame(const ClipView& clip, float frame) {
  const std::optional<RootMotionInfo> info = clip.rootMotion();
  if (!info) return {};
  const std::uint32_t frames = clip.frameCount();
  const float last = clip.loops() ? clip.cycleFrames() : float(frames - 1);
  const float u = std::clamp(std::isfinite(frame) ? frame : 0.f, 0.f, last);
  const std::uint32_t f = static_cast<std::uint32_t>(u);
  const double alpha = double(u) - double(f);
  auto at = [&](std::uint32_t i) {
    const float* v = info->cycle;
    float row[4];
    if (i < frames) {
      for (int c = 0; c < 4; ++c)
        row[c] = loadLE<float>(info->frames + std::size_t(i) * kRootMotionFrameSize + 4 * std::size_t(c));
      v = row;
    }
    return fromFloats(v, info->upAxis);
  };
  const GroundMotion a = at(f);
  if (alpha == 0) return a;
  const GroundMotion b = at(f + 1);
  GroundMotion out = a;
  for (int c = 0; c < 3; ++c) out.t[c] = a.t[c] + (b.t[c] - a.t[c]) * alpha;
  out.yaw = a.yaw + (b.yaw - a.yaw) * alpha;
  return out;
}

Transform rootMotion(const ClipView& clip, float t0, float t1) { return toTransform(characterMotion(clip, t0, t1)); }

GroundMotion characterMotion(const ClipView& clip, float t0, float t1) {
  const std::optional<RootMotionInfo> info = clip.rootMotion();
  if (!info) return {};
  // Frames in float as Player::sample computes them, so the motion and the pose meet at one instant.
  const float rate = clip.sampleRate();
  const GroundMotion d =
      compose(inverse(groundAtFrames(clip, double(t0 * rate))), groundAtFrames(clip, double(t1 * rate)));
  return objectMotion(*info, d);
}

namespace {

void foldRoot(Player& player, const ClipView& clip, double frames, std::span<const std::int32_t> parents,
              std::span<Transform> pose, RootMotionScratch& scratch) {
  const RootMotionInfo info = *clip.rootMotion();
  const double cycle = clip.cycleFrames();
  const bool loops = clip.loops() && cycle > 0;
  const double k = loops ? std::floor(frames / cycle) : 0.0;
  const double within = loops ? frames - k * cycle : std::clamp(frames, 0.0, double(clip.frameCount() - 1));
  const GroundMotion whole = power(fromFloats(info.cycle, info.upAxis), static_cast<std::int64_t>(k));
  const float u = static_cast<float>(within);
  const float f = std::floor(u);
  const float alpha = u - f;
  auto motionAt = [&](float at) { return objectMotion(info, compose(whole, groundAtFrame(clip, at))); };
  if (alpha == 0.f) {
    moveJointAlong(scratch.chain, parents, info.joint, motionAt(f), pose);
    return;
  }
  // Between frames: the folded root at both frames, interpolated as the Player interpolates.
  scratch.a.resize(pose.size());
  scratch.b.resize(pose.size());
  std::span<Transform> a(scratch.a), b(scratch.b);
  player.sampleFrame(clip, f, a);
  player.sampleFrame(clip, f + 1.f, b);
  moveJointAlong(scratch.chain, parents, info.joint, motionAt(f), a);
  moveJointAlong(scratch.chain, parents, info.joint, motionAt(f + 1.f), b);
  interpolatePoses(a.subspan(info.joint, 1), b.subspan(info.joint, 1), alpha, pose.subspan(info.joint, 1));
}

}  // namespace

void moveJoint(std::span<const std::int32_t> parents, std::uint32_t joint, const GroundMotion& motion,
               std::span<Transform> pose) {
  std::vector<std::uint32_t> chain;
  moveJointAlong(chain, parents, joint, motion, pose);
}

namespace {

/// moveJoint() with the ancestor chain in a caller's buffer.
void moveJointAlong(std::vector<std::uint32_t>& chain, std::span<const std::int32_t> parents, std::uint32_t joint,
                    const GroundMotion& motion, std::span<Transform> pose) {
  // The ancestors' object transform P, root first.
  chain.clear();
  for (std::int32_t p = parents[joint]; p >= 0; p = parents[std::size_t(p)]) chain.push_back(std::uint32_t(p));
  QuatD pr;
  VecD pt;
  double ps[3] = {1, 1, 1};
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Transform& l = pose[*it];
    const VecD scaled{{ps[0] * l.translation.x, ps[1] * l.translation.y, ps[2] * l.translation.z}};
    const VecD moved = rotate(pr, scaled);
    for (int c = 0; c < 3; ++c) pt.v[c] += moved.v[c];
    pr = mul(pr, widen(l.rotation));
    ps[0] *= l.scale.x;
    ps[1] *= l.scale.y;
    ps[2] *= l.scale.z;
  }
  // Q = P^-1 * M * P: rotation conj(pr) * m * pr, translation P^-1 (M(pt)).
  const QuatD mr = yawQuat(motion.yaw, motion.upAxis);
  const QuatD qr = mul(mul(conj(pr), mr), pr);
  VecD mp = rotate(mr, pt);
  for (int c = 0; c < 3; ++c) mp.v[c] += motion.t[c] - pt.v[c];
  VecD qt = rotate(conj(pr), mp);
  for (int c = 0; c < 3; ++c) qt.v[c] /= ps[c];
  Transform& l = pose[joint];
  const QuatD r = mul(qr, widen(l.rotation));
  const VecD t = rotate(qr, widen(l.translation));
  l.rotation = {float(r.x), float(r.y), float(r.z), float(r.w)};
  l.translation = {float(t.v[0] + qt.v[0]), float(t.v[1] + qt.v[1]), float(t.v[2] + qt.v[2])};
}

}  // namespace

void applyRootMotion(Player& player, const ClipView& clip, float seconds, std::span<const std::int32_t> parents,
                     std::span<Transform> pose, RootMotionScratch& scratch) {
  if (!clip.rootMotion()) return;
  foldRoot(player, clip, double(seconds * clip.sampleRate()), parents, pose, scratch);
}

void applyRootMotionAtFrame(Player& player, const ClipView& clip, float frame, std::span<const std::int32_t> parents,
                            std::span<Transform> pose, RootMotionScratch& scratch) {
  if (!clip.rootMotion()) return;
  // One cycle, as Player::sampleFrame clamps it (its end is the next cycle's frame 0, one cycle on).
  const float last = clip.loops() ? clip.cycleFrames() : float(clip.frameCount() - 1);
  foldRoot(player, clip, std::clamp(std::isfinite(frame) ? double(frame) : 0.0, 0.0, double(last)), parents, pose,
           scratch);
}

}  // namespace animpack::runtime
