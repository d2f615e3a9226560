#include "core/compress/root_motion.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/math/transform.h"
#include "core/runtime/clip_format.h"
#include "core/runtime/pose_ops.h"

namespace animpack::core {
namespace {

/// Translation moves by more than this (relative to the clip's extent, at least 1e-6 units).
constexpr double kMovingRelative = 1e-5;

double wrapPi(double a) {
  return a - 2 * std::numbers::pi * std::floor((a + std::numbers::pi) / (2 * std::numbers::pi));
}

/// The object rotation of joint j (the product of its chain's rotations, parents first).
std::array<double, 4> objectRotation(const Skeleton& skeleton, std::span<const Transform> pose, std::uint32_t j) {
  std::array<double, 4> q{0, 0, 0, 1};
  for (std::int32_t k = std::int32_t(j); k >= 0; k = skeleton.parents[std::size_t(k)]) {
    const Quat& r = pose[std::size_t(k)].rotation;
    const std::array<double, 4> a{r.x, r.y, r.z, r.w}, b = q;  // q = r * q: the ancestor applies last
    q = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
         a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
  }
  return q;
}

void storeMotion(std::uint8_t* p, const GroundMotion& m) {
  for (int c = 0; c < 3; ++c) runtime::storeLE(p + 4 * c, static_cast<float>(m.t[c]));
  runtime::storeLE(p + 12, static_cast<float>(m.yaw));
}

}  // namespace

std::uint8_t objectUpAxis(const std::array<float, 16>& sceneRoot, UpAxis display) {
  double world[3] = {0, 1, 0};  // what the display turns to +Y, before the scene root
  if (display == UpAxis::ZUp) world[1] = 0, world[2] = 1;
  else if (display == UpAxis::XUp) world[1] = 0, world[0] = 1;
  Mat34d s;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) s.at(r, c) = sceneRoot[std::size_t(c * 4 + r)];
  const Mat34d inv = s.inverse();
  double best = -1;
  std::uint8_t axis = 1;
  for (int r = 0; r < 3; ++r) {
    const double v = std::fabs(inv.at(r, 0) * world[0] + inv.at(r, 1) * world[1] + inv.at(r, 2) * world[2]);
    if (v > best + 1e-9) best = v, axis = std::uint8_t(r);
  }
  return axis;
}

Expected<std::uint32_t> findRootJoint(const Skeleton& skeleton, const RawClip& clip, std::string_view name) {
  if (!name.empty()) {
    for (std::uint32_t j = 0; j < skeleton.jointCount(); ++j)
      if (skeleton.names[j] == name) return j;
    return Error{"clip '" + clip.name + "': key 'root_joint': the skeleton has no joint named '" + std::string(name) +
                 "'"};
  }
  for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
    double extent = 0, moved = 0;
    const Vec3 first = clip.at(j, 0).translation;
    for (std::uint32_t f = 0; f < clip.frameCount; ++f) {
      const Vec3 t = clip.at(j, f).translation;
      extent = std::max({extent, double(std::fabs(t.x)), double(std::fabs(t.y)), double(std::fabs(t.z))});
      moved = std::max({moved, double(std::fabs(t.x - first.x)), double(std::fabs(t.y - first.y)),
                        double(std::fabs(t.z - first.z))});
    }
    if (moved > std::max(1e-6, kMovingRelative * extent)) return j;
  }
  return Error{"root_motion \"extract\": no joint of clip '" + clip.name + "' translates; name one with root_joint"};
}

RootMotionTrack extractRootMotion(const Skeleton& skeleton, const RawClip& clip, std::uint32_t joint,
                                  std::uint8_t upAxis, RawClip& inPlace) {
  RootMotionTrack track;
  track.joint = joint;
  track.upAxis = upAxis;
  inPlace = clip;
  inPlace.source.reset();
  std::vector<Mat34d> object(clip.jointCount);
  double previousYaw = 0;
  for (std::uint32_t f = 0; f < clip.frameCount; ++f) {
    runtime::localToObject<double>(skeleton.parents, clip.frame(f), object);
    GroundMotion ground;
    ground.upAxis = upAxis;
    for (int c = 0; c < 3; ++c) ground.t[c] = c == upAxis ? 0.0 : object[joint].at(c, 3);
    // The twist about the up axis of the joint's object rotation; kept continuous across frames
    // (and left as it was where the joint points straight along the axis, where it has none).
    const std::array<double, 4> q = objectRotation(skeleton, clip.frame(f), joint);
    const bool defined = std::hypot(q[upAxis], q[3]) > 1e-6;
    const double raw = defined ? 2 * std::atan2(q[upAxis], q[3]) : previousYaw;
    ground.yaw = f == 0 ? wrapPi(raw) : previousYaw + wrapPi(raw - previousYaw);
    previousYaw = ground.yaw;
    if (f == 0) track.reference = ground;
    track.frames.push_back(compose(inverse(track.reference), ground));
    // The joint keeps the rest: moved back by the reference times the inverse of its ground frame.
    runtime::moveJoint(skeleton.parents, joint, compose(track.reference, inverse(ground)), inPlace.frame(f));
  }
  track.frames.front() = GroundMotion{};
  track.frames.front().upAxis = upAxis;
  return track;
}

GroundMotion cycleMotion(const RootMotionTrack& track, std::uint32_t frames, bool wrap, bool droppedLast) {
  const std::vector<GroundMotion>& d = track.frames;
  if (!wrap || d.size() < 2) return d[std::min<std::size_t>(frames, d.size()) - 1];
  if (droppedLast && frames < d.size()) return d[frames];
  // One more step at the last frame's speed.
  const GroundMotion& last = d[frames - 1];
  return compose(last, compose(inverse(d[frames - 2]), last));
}

GroundMotion objectMotion(const RootMotionTrack& track, const GroundMotion& d) {
  return compose(compose(track.reference, d), inverse(track.reference));
}

void appendRootMotion(std::vector<std::uint8_t>& block, const RootMotionTrack& track, std::uint32_t frames,
                      const GroundMotion& cycle) {
  const std::size_t at = block.size();
  block.resize(at + runtime::rootMotionSectionSize(frames), 0);
  std::uint8_t* p = block.data() + at;
  runtime::storeLE(p, static_cast<std::uint16_t>(track.joint));
  p[2] = track.upAxis;
  storeMotion(p + 4, track.reference);
  storeMotion(p + 20, cycle);
  for (std::uint32_t f = 1; f < frames; ++f)
    storeMotion(p + runtime::kRootMotionHeaderSize + std::size_t(f) * runtime::kRootMotionFrameSize, track.frames[f]);
  using H = runtime::ClipHeaderLayout;
  const auto flags = runtime::loadLE<std::uint16_t>(block.data() + H::flags);
  runtime::storeLE(block.data() + H::flags, static_cast<std::uint16_t>(flags | runtime::kClipFlagRootMotion));
  runtime::storeLE(block.data() + H::totalSize, static_cast<std::uint32_t>(block.size()));
}

RootMotionReport measureRootMotion(const RootMotionTrack& track, const GroundMotion& cycle,
                                   const runtime::ClipView& view, double unitToCm, float precisionCm) {
  constexpr int kCycles = 10;
  RootMotionReport r;
  r.extracted = true;
  r.joint = track.joint;
  const GroundMotion one = objectMotion(track, cycle);
  r.distanceCm = static_cast<float>(std::hypot(one.t[0], one.t[1], one.t[2]) * unitToCm);
  r.turnDeg = static_cast<float>(cycle.yaw * 180 / std::numbers::pi);
  const GroundMotion source = objectMotion(track, runtime::power(cycle, kCycles));
  // The compressed side as a game reads it: the runtime's motion over ten cycles' time (or ten
  // plays of a clip that does not loop, one after the other).
  Transform decoded;
  if (view.loops()) {
    decoded = runtime::rootMotion(view, 0.f, float(kCycles) * view.cycleFrames() / view.sampleRate());
  } else {
    const Transform once = runtime::rootMotion(view, 0.f, view.duration());
    GroundMotion m;
    m.upAxis = track.upAxis;
    for (int c = 0; c < 3; ++c) m.t[c] = (&once.translation.x)[c];
    const double s = (&once.rotation.x)[track.upAxis];
    m.yaw = 2 * std::atan2(s, double(once.rotation.w));
    const GroundMotion ten = runtime::power(m, kCycles);
    decoded = runtime::toTransform(ten);
  }
  const double dx = decoded.translation.x, dy = decoded.translation.y, dz = decoded.translation.z;
  r.drift10CyclesCm = static_cast<float>(std::hypot(dx, dy, dz) * unitToCm);
  r.sourceDrift10CyclesCm = static_cast<float>(std::hypot(source.t[0], source.t[1], source.t[2]) * unitToCm);
  r.driftErrorCm = static_cast<float>(std::hypot(dx - source.t[0], dy - source.t[1], dz - source.t[2]) * unitToCm);
  r.withinPrecision = r.driftErrorCm <= kCycles * precisionCm;
  return r;
}

}  // namespace animpack::core
