#include "core/compress/error_metric.h"

#include <algorithm>
#include <cmath>

#include "core/anim/raw_sampler.h"
#include "core/compress/additive_base.h"
#include "core/runtime/additive.h"
#include "core/anim/source_clip.h"
#include "core/runtime/clip_view.h"
#include "core/runtime/player.h"
#include "core/runtime/pose_ops.h"
#include "core/runtime/root_motion.h"

namespace animpack::core {
namespace {

constexpr double kLargeStepRadians = 0.5235987755982988;  // 30 degrees: three samples in the interval
constexpr double kHugeStepRadians = 1.5707963267948966;   // 90 degrees: seven

/// Largest local rotation step of any joint between frames f and f + 1, in radians.
double largestRotationStep(const RawClip& clip, std::uint32_t f) {
  double worst = 0;
  for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
    const Quat a = clip.at(j, f).rotation, b = clip.at(j, f + 1).rotation;
    const double d = std::fabs(double(a.x) * b.x + double(a.y) * b.y + double(a.z) * b.z + double(a.w) * b.w);
    worst = std::max(worst, 2 * std::acos(std::min(d, 1.0)));
  }
  return worst;
}

/// Sample times between frames: sub-steps per interval (more across large steps) and every source
/// key that is not on a frame, where the source has a corner the frames miss.
std::vector<BetweenSample> betweenSamplesOf(const RawClip& clip, const SourceClip& source, std::uint32_t minSubSteps) {
  std::vector<std::pair<std::uint32_t, float>> times;
  for (std::uint32_t f = 0; f + 1 < clip.frameCount; ++f) {
    const double step = largestRotationStep(clip, f);
    const std::uint32_t n = std::max(minSubSteps, step > kHugeStepRadians ? 7u : step > kLargeStepRadians ? 3u : 1u);
    for (std::uint32_t k = 1; k <= n; ++k) times.emplace_back(f, static_cast<float>(double(k) / double(n + 1)));
  }
  for (double u : source.keyFramePositions()) {
    const double f = std::floor(u);
    const double alpha = u - f;
    if (f < 0 || f + 1 >= clip.frameCount || alpha < 1e-4 || alpha > 1 - 1e-4) continue;
    times.emplace_back(static_cast<std::uint32_t>(f), static_cast<float>(alpha));
  }
  std::sort(times.begin(), times.end());
  std::vector<BetweenSample> out;
  for (const auto& [f, a] : times)
    if (out.empty() || out.back().frame != f || a - out.back().alpha > 1e-4f) out.push_back({f, a});
  return out;
}

/// Double-precision interpolation of two float transforms: lerp, and slerp from sines.
TransformD interpolateExact(const Transform& a, const Transform& b, double t) {
  TransformD out;
  const std::array<double, 3> ta{a.translation.x, a.translation.y, a.translation.z},
      tb{b.translation.x, b.translation.y, b.translation.z};
  const std::array<double, 3> sa{a.scale.x, a.scale.y, a.scale.z}, sb{b.scale.x, b.scale.y, b.scale.z};
  for (std::size_t c = 0; c < 3; ++c) {
    out.translation[c] = ta[c] + (tb[c] - ta[c]) * t;
    out.scale[c] = sa[c] + (sb[c] - sa[c]) * t;
  }
  out.rotation = slerpExact({a.rotation.x, a.rotation.y, a.rotation.z, a.rotation.w},
                            {b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w}, t);
  return out;
}

}  // namespace

std::vector<float> ClipErrors::intervalMax(std::span<const BetweenSample> samples, std::uint32_t joints,
                                           std::uint32_t frameCount) const {
  std::vector<float> out(std::size_t(frameCount > 0 ? frameCount - 1 : 0) * joints, 0.f);
  for (std::size_t s = 0; s < samples.size(); ++s)
    for (std::uint32_t j = 0; samples[s].frame + 1 < frameCount && j < joints; ++j) {
      float& cell = out[std::size_t(samples[s].frame) * joints + j];
      cell = std::max(cell, between[s * joints + j]);
    }
  return out;
}

ErrorMetric::ErrorMetric(const Skeleton& skeleton, const RawClip& original, double unitToCm,
                         std::span<const float> shellCm, std::uint32_t minSubSteps, LoopLayout layout,
                         std::span<const Transform> cycleEnd)
    : m_skeleton(&skeleton),
      m_joints(original.jointCount),
      m_frames(original.frameCount),
      m_unitToCm(unitToCm),
      m_layout(layout) {
  const SourceClip fromFrames = original.source ? SourceClip({}, {}, 0, 1, 0) : sourceFromFrames(original);
  const SourceClip& source = original.source ? *original.source : fromFrames;
  const bool dropLast = layout.wrap && layout.dropLast && m_frames >= 2;
  m_object.resize(std::size_t(m_frames) * m_joints);
  for (std::uint32_t f = 0; f < m_frames; ++f)
    source.objectMatrices(skeleton.parents, f, std::span(m_object.data() + std::size_t(f) * m_joints, m_joints));
  m_shell.resize(std::size_t(m_joints) * 3);
  for (std::uint32_t j = 0; j < m_joints; ++j) {
    const Mat34d& m = m_object[j];  // frame 0
    const double shell = double(shellCm[j]) / unitToCm;
    for (int axis = 0; axis < 3; ++axis) {
      // Divide by the accumulated scale of this axis so the vertex sits `shell` away in object space.
      const double len =
          std::sqrt(m.at(0, axis) * m.at(0, axis) + m.at(1, axis) * m.at(1, axis) + m.at(2, axis) * m.at(2, axis));
      std::array<double, 3> v{0, 0, 0};
      v[std::size_t(axis)] = shell / (len > 1e-12 && std::isfinite(len) ? len : 1.0);
      m_shell[j * 3 + std::size_t(axis)] = v;
    }
  }
  m_points.reserve(m_object.size());
  addReferencePoints(m_object);
  // The seam: the source's last frame measured as if it were decoded as the first.
  std::vector<Mat34d> start(m_object.begin(), m_object.begin() + m_joints);
  if (!cycleEnd.empty()) runtime::localToObject<double>(skeleton.parents, cycleEnd, start);
  m_seam.assign(m_joints, 0.f);
  for (std::uint32_t j = 0; j < m_joints && m_frames > 1; ++j)
    m_seam[j] = errorAt(j, std::size_t(m_frames - 1), start[j]);
  m_between = betweenSamplesOf(original, source, minSubSteps);
  std::vector<Mat34d> object(m_joints);
  for (const BetweenSample& b : m_between) {
    // The time the decoder is given (a float frame), so both sides are compared at one instant.
    source.objectMatrices(skeleton.parents, double(static_cast<float>(b.frame) + b.alpha), object);
    addReferencePoints(object);
  }
  if (dropLast) {
    // The decoded clip ends one frame earlier: the source's last frame becomes the end of the wrap
    // interval (decoded frame 0 of the next cycle), checked as a between-frame sample at alpha 1.
    --m_frames;
    std::vector<std::array<double, 9>> last(m_points.begin() + std::ptrdiff_t(m_frames) * m_joints,
                                            m_points.begin() + std::ptrdiff_t(m_frames + 1) * m_joints);
    m_points.erase(m_points.begin() + std::ptrdiff_t(m_frames) * m_joints,
                   m_points.begin() + std::ptrdiff_t(m_frames + 1) * m_joints);
    m_object.resize(std::size_t(m_frames) * m_joints);
    m_between.push_back({m_frames - 1, 1.f});
    m_points.insert(m_points.end(), last.begin(), last.end());
  } else if (layout.wrap && m_frames >= 2) {
    // The wrap interval: the source's last frame interpolated to its first, as the runtime does.
    const std::uint32_t n = std::max(minSubSteps, 3u);
    std::vector<Transform> a(original.frame(m_frames - 1).begin(), original.frame(m_frames - 1).end());
    std::vector<Transform> b(original.frame(0).begin(), original.frame(0).end());
    if (!cycleEnd.empty()) b.assign(cycleEnd.begin(), cycleEnd.end());
    std::vector<Mat34d> local(m_joints);
    for (std::uint32_t k = 1; k <= n; ++k) {
      const float alpha = static_cast<float>(double(k) / double(n + 1));
      for (std::uint32_t j = 0; j < m_joints; ++j) local[j] = interpolateExact(a[j], b[j], alpha).matrix();
      for (std::uint32_t j = 0; j < m_joints; ++j) {
        const std::int32_t p = skeleton.parents[j];
        object[j] = p < 0 ? local[j] : object[std::size_t(p)] * local[j];
      }
      m_between.push_back({m_frames - 1, alpha});
      addReferencePoints(object);
    }
  }
}

void ErrorMetric::addReferencePoints(std::span<const Mat34d> object) {
  for (std::size_t i = 0; i < object.size(); ++i) {
    std::array<double, 9> p;
    const std::size_t j = i % m_joints;
    for (int axis = 0; axis < 3; ++axis)
      object[i].transformPoint(m_shell[j * 3 + std::size_t(axis)].data(), &p[std::size_t(axis) * 3]);
    m_points.push_back(p);
  }
}

float ErrorMetric::errorAt(std::uint32_t joint, std::size_t point, const Mat34d& decoded) const {
  const auto& original = m_points[point * m_joints + joint];
  double worst = 0;
  for (int axis = 0; axis < 3; ++axis) {
    double p[3];
    decoded.transformPoint(m_shell[joint * 3 + std::size_t(axis)].data(), p);
    const double dx = p[0] - original[std::size_t(axis) * 3], dy = p[1] - original[std::size_t(axis) * 3 + 1],
                 dz = p[2] - original[std::size_t(axis) * 3 + 2];
    worst = std::max(worst, dx * dx + dy * dy + dz * dz);
  }
  return static_cast<float>(std::sqrt(worst) * m_unitToCm);
}

void ErrorMetric::measureFrame(std::uint32_t frame, std::span<const Transform> decodedLocal, std::span<float> out,
                               std::vector<Mat34d>& scratch) const {
  scratch.resize(m_joints);
  runtime::localToObject<double>(m_skeleton->parents, decodedLocal, scratch);
  for (std::uint32_t j = 0; j < m_joints; ++j) out[j] = errorAt(j, frame, scratch[j]);
}

void ErrorMetric::measureBetween(std::size_t sample, std::span<const Transform> decodedLocal, std::span<float> out,
                                 std::vector<Mat34d>& scratch) const {
  scratch.resize(m_joints);
  runtime::localToObject<double>(m_skeleton->parents, decodedLocal, scratch);
  for (std::uint32_t j = 0; j < m_joints; ++j) out[j] = errorAt(j, m_frames + sample, scratch[j]);
}

std::vector<float> ErrorMetric::measure(std::span<const Transform> decodedLocal) const {
  std::vector<float> errors(std::size_t(m_frames) * m_joints);
  std::vector<Mat34d> scratch;
  for (std::uint32_t f = 0; f < m_frames; ++f)
    measureFrame(f, decodedLocal.subspan(std::size_t(f) * m_joints, m_joints),
                 std::span(errors.data() + std::size_t(f) * m_joints, m_joints), scratch);
  return errors;
}

ClipErrors ErrorMetric::measureDecoded(const runtime::ClipView& clip, runtime::Player& player,
                                       std::vector<Transform>* decodedFrames, const AdditiveBase* base) const {
  ClipErrors e;
  std::vector<Transform> local;
  std::vector<Transform>& frames = decodedFrames ? *decodedFrames : local;
  frames.resize(std::size_t(m_frames) * m_joints);
  runtime::RootMotionScratch rootScratch;
  for (std::uint32_t f = 0; f < m_frames; ++f)
    player.sampleFrame(clip, static_cast<float>(f), std::span(frames.data() + std::size_t(f) * m_joints, m_joints));
  // What is seen: root motion folded back as the runtime folds it, at frames and between them
  // (`frames` keeps the decoded tracks themselves); an additive clip composed on its base.
  if (clip.rootMotion()) {
    std::vector<Transform> folded = frames;
    for (std::uint32_t f = 0; f < m_frames; ++f)
      runtime::applyRootMotionAtFrame(player, clip, static_cast<float>(f), m_skeleton->parents,
                                      std::span(folded.data() + std::size_t(f) * m_joints, m_joints), rootScratch);
    e.frames = measure(folded);
  } else {
    e.frames = base ? measure(composeAdditive(base->frames(m_frames, clip.sampleRate()), frames)) : measure(frames);
  }
  e.between.resize(m_between.size() * m_joints);
  std::vector<Transform> pose(m_joints), basePose(m_joints);
  std::vector<Mat34d> scratch;
  for (std::size_t s = 0; s < m_between.size(); ++s) {
    const float frame = static_cast<float>(m_between[s].frame) + m_between[s].alpha;
    player.sampleFrame(clip, frame, pose);
    runtime::applyRootMotionAtFrame(player, clip, frame, m_skeleton->parents, pose, rootScratch);
    if (base) {
      base->sample(frame / clip.sampleRate(), basePose);
      runtime::applyAdditive(basePose, pose, 1.f, pose);
    }
    measureBetween(s, pose, std::span(e.between.data() + s * m_joints, m_joints), scratch);
  }
  return e;
}

ClipErrors ErrorMetric::measureFloor(const RawClip& clip, const AdditiveBase* base) const {
  ClipErrors e;
  e.frames = base ? measure(composeAdditive(base->frames(clip.frameCount, clip.sampleRate), clip.samples))
                  : measure(clip.samples);
  e.between.resize(m_between.size() * m_joints);
  std::vector<Transform> pose(m_joints), basePose(m_joints);
  std::vector<Mat34d> scratch;
  for (std::size_t s = 0; s < m_between.size(); ++s) {
    const double frame = double(static_cast<float>(m_between[s].frame) + m_between[s].alpha);
    RawSampler::sampleFrame(clip, frame, pose);
    if (base) {
      base->sample(static_cast<float>(frame / clip.sampleRate), basePose);
      runtime::applyAdditive(basePose, pose, 1.f, pose);
    }
    measureBetween(s, pose, std::span(e.between.data() + s * m_joints, m_joints), scratch);
  }
  return e;
}

ErrorSummary ErrorMetric::summarize(const ClipErrors& errors) const {
  ErrorSummary s = core::summarize(errors.frames, m_joints);
  s.worstFrameTime = s.worstFrame;
  std::vector<float> all(errors.frames.begin(), errors.frames.end());
  for (std::size_t i = 0; i < errors.between.size(); ++i) {
    const std::uint32_t j = static_cast<std::uint32_t>(i % m_joints);
    const BetweenSample& b = m_between[i / m_joints];
    const float e = errors.between[i];
    s.jointMaxCm[j] = std::max(s.jointMaxCm[j], e);
    s.maxBetweenCm = std::max(s.maxBetweenCm, e);
    if (e > s.maxCm) {
      s.maxCm = e;
      s.worstJoint = static_cast<std::int32_t>(j);
      s.worstFrame = static_cast<std::int32_t>(b.frame);
      s.worstFrameTime = double(b.frame) + double(b.alpha);
    }
    all.push_back(e);
  }
  if (!errors.between.empty()) s.p99Cm = core::summarize(all, m_joints).p99Cm;
  return s;
}

ErrorSummary summarize(std::span<const float> errors, std::uint32_t joints) {
  ErrorSummary s;
  s.jointMaxCm.assign(joints, 0.f);
  if (errors.empty() || joints == 0) return s;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const std::uint32_t j = static_cast<std::uint32_t>(i % joints);
    s.jointMaxCm[j] = std::max(s.jointMaxCm[j], errors[i]);
    if (errors[i] > s.maxCm || s.worstJoint < 0) {
      s.maxCm = errors[i];
      s.worstJoint = static_cast<std::int32_t>(j);
      s.worstFrame = static_cast<std::int32_t>(i / joints);
    }
  }
  std::vector<float> sorted(errors.begin(), errors.end());
  const std::size_t k =
      std::min(sorted.size() - 1, static_cast<std::size_t>(std::ceil(0.99 * double(sorted.size()))) - 1);
  std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(k), sorted.end());
  s.p99Cm = sorted[k];
  s.worstFrameTime = s.worstFrame;
  return s;
}

}  // namespace animpack::core
