#include "core/compress/compressor.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/base/assert.h"
#include "core/compress/clip_writer.h"
#include "core/compress/error_metric.h"
#include "core/compress/track_analysis.h"
#include "core/runtime/clip_view.h"
#include "core/runtime/hash.h"
#include "core/runtime/player.h"
#include "core/runtime/pose_ops.h"

namespace animpack::core {
namespace {

constexpr std::uint32_t kSegmentLengths[] = {8, 16, 32};
constexpr std::uint32_t kMaxPasses = 64;
constexpr double kMinRotationTolerance = 1e-8;   // radians
constexpr double kMinRelativeTolerance = 1e-8;   // of the track's magnitude

struct SubTrack {
  double baseTolerance = -1;  // from the hierarchy: a change resets the state below
  double tolerance = 0;       // after tightening
  bool forceAnimated = false;
  bool atLimit = false;
  std::vector<std::uint8_t> shifts;
  TrackEncoding encoding;
  bool encoded = false;
};

std::uint64_t hashClip(const RawClip& clip) {
  std::uint64_t h = runtime::fnv1a64Value(clip.frameCount, runtime::kFnvOffset);
  h = runtime::fnv1a64Value(clip.jointCount, h);
  h = runtime::fnv1a64Value(clip.sampleRate, h);
  return runtime::fnv1a64(std::span(reinterpret_cast<const std::uint8_t*>(clip.samples.data()), clip.samples.size() * sizeof(Transform)), h);
}

}  // namespace

struct CompressorContext::State {
  std::uint64_t clipHash = 0;
  double unitToCm = 0;
  std::vector<float> shells;
  std::vector<bool> pinned;
  std::unique_ptr<ErrorMetric> metric;
  HierarchyLevers levers;
  std::vector<bool> varying;
  RotationFormat format = RotationFormat::Q48;
  float snapshotInterval = 0;
  std::uint32_t segmentLength = 0;
  std::vector<SubTrack> tracks;
};

CompressorContext::CompressorContext() = default;
CompressorContext::~CompressorContext() = default;
CompressorContext::CompressorContext(CompressorContext&&) noexcept = default;
CompressorContext& CompressorContext::operator=(CompressorContext&&) noexcept = default;
void CompressorContext::clear() { state.reset(); }

CompressJob::CompressJob(const Skeleton& skeleton, const RawClip& clip, double unitToCm, EffectiveSettings settings)
    : m_skeleton(skeleton), m_clip(clip), m_unitToCm(unitToCm), m_settings(std::move(settings)) {}

Status CompressJob::validate() const {
  if (auto st = m_skeleton.validate(); !st) return st;
  if (auto st = m_clip.validate(m_skeleton); !st) return st;
  if (!(m_unitToCm > 0) || !std::isfinite(m_unitToCm)) return Error{"unit_to_cm must be a positive number"};
  if (m_settings.joints.size() != m_skeleton.jointCount()) return Error{"settings were resolved for another skeleton"};
  for (std::size_t j = 0; j < m_settings.joints.size(); ++j) {
    const EffectiveJoint& e = m_settings.joints[j];
    const std::string label = "joint '" + m_skeleton.names[j] + "'";
    if (!(e.precisionCm > 0) || !std::isfinite(e.precisionCm)) return Error{label + ": precision_cm must be a positive number"};
    if (!(e.shellCm > 0) || !std::isfinite(e.shellCm)) return Error{label + ": shell_cm must be a positive number"};
  }
  if (!(m_settings.snapshotIntervalS > 0) || !std::isfinite(m_settings.snapshotIntervalS))
    return Error{"snapshot_interval_s must be a positive number"};
  if (m_clip.frameCount > 0xffffffu) return Error{"clip '" + m_clip.name + "' has too many frames"};
  return Status::ok();
}

Expected<CompressedClip> CompressJob::run(CompressorContext* context, const std::atomic<bool>* cancel) const {
  if (auto st = validate(); !st) return Error{st.message()};
  const auto started = std::chrono::steady_clock::now();
  const std::uint32_t joints = m_clip.jointCount, frames = m_clip.frameCount;
  const std::size_t subCount = std::size_t(joints) * 3;

  CompressorContext localContext;
  CompressorContext& ctx = context ? *context : localContext;
  std::vector<float> shells(joints), precision(joints);
  std::vector<bool> pinned(joints);
  for (std::uint32_t j = 0; j < joints; ++j) {
    shells[j] = m_settings.joints[j].shellCm;
    precision[j] = m_settings.joints[j].precisionCm;
    pinned[j] = m_settings.joints[j].pinned;
  }
  const std::uint64_t clipHash = hashClip(m_clip);
  if (!ctx.state || ctx.state->clipHash != clipHash || ctx.state->unitToCm != m_unitToCm || ctx.state->shells != shells ||
      ctx.state->pinned != pinned) {
    auto s = std::make_unique<CompressorContext::State>();
    s->clipHash = clipHash;
    s->unitToCm = m_unitToCm;
    s->shells = shells;
    s->pinned = pinned;
    s->metric = std::make_unique<ErrorMetric>(m_skeleton, m_clip, m_unitToCm, shells);
    s->levers = measureLevers(m_skeleton, m_clip, *s->metric, m_settings);
    s->varying = varyingSubTracks(m_clip);
    s->tracks.resize(subCount);
    ctx.state = std::move(s);
  }
  CompressorContext::State& st = *ctx.state;
  const ErrorMetric& metric = *st.metric;
  const std::uint32_t snapshotFrames =
      std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::lround(m_settings.snapshotIntervalS * m_clip.sampleRate)));
  const std::uint32_t maxGap = std::max<std::uint32_t>(2, snapshotFrames / 2);
  if (st.format != m_settings.rotationFormat || st.snapshotInterval != m_settings.snapshotIntervalS) {
    for (SubTrack& t : st.tracks) t = SubTrack{};
    st.format = m_settings.rotationFormat;
    st.snapshotInterval = m_settings.snapshotIntervalS;
    st.segmentLength = 0;
  }

  // Targets: the source samples, except for pinned joints (recomputed against their ancestors).
  std::vector<std::vector<Sample>> targets(subCount);
  std::vector<Sample> rest(subCount);
  for (std::uint32_t j = 0; j < joints; ++j)
    for (int c = 0; c < 3; ++c) {
      const std::size_t i = j * 3 + std::size_t(c);
      rest[i] = sampleOf(m_skeleton.restLocal[j], Channel(c));
      targets[i].resize(frames);
      for (std::uint32_t f = 0; f < frames; ++f) targets[i][f] = sampleOf(m_clip.at(j, f), Channel(c));
    }

  const std::vector<double> tolerances =
      localTolerances(m_skeleton, st.levers, st.varying, m_settings, m_unitToCm, kAggressiveness);
  for (std::size_t i = 0; i < subCount; ++i) {
    SubTrack& t = st.tracks[i];
    if (t.baseTolerance != tolerances[i]) {
      t = SubTrack{};
      t.baseTolerance = tolerances[i];
      t.tolerance = tolerances[i];
    }
    if (pinned[i / 3]) t.encoded = false;
  }

  auto magnitude = [&](std::size_t i) {
    double m = 1e-30;
    for (const Sample& s : targets[i])
      for (int c = 0; c < 3; ++c) m = std::max(m, double(std::fabs(s[std::size_t(c)])));
    return m;
  };
  auto encodeWith = [&](std::size_t i, const std::vector<Sample>& samples, std::uint32_t segmentLength) {
    SubTrack& t = st.tracks[i];
    const TrackTarget target{Channel(i % 3), samples, rest[i], t.tolerance};
    if (!t.forceAnimated || frames < 2)
      if (auto s = encodeStatic(target, m_settings.rotationFormat)) return std::move(*s);
    std::optional<TrackEncoding> best = encodeUniform(target, segmentLength, t.shifts);
    const std::size_t budget = best ? best->bytes : std::numeric_limits<std::size_t>::max();
    if (auto k = encodeKeyed(target, maxGap, budget - 1)) best = std::move(k);
    if (!best) {
      // Neither format reaches this tolerance (e.g. tighter than a 48-bit key): keys at their own
      // precision, reported by the verification loop if the joint ends up over its precision.
      TrackTarget relaxed = target;
      relaxed.tolerance = std::max(target.tolerance, target.channel == Channel::Rotation ? 2e-4 : 1e-4 * magnitude(i));
      best = encodeKeyed(relaxed, maxGap, std::numeric_limits<std::size_t>::max());
      if (!best) best = encodeStatic(TrackTarget{target.channel, samples, rest[i], std::numeric_limits<double>::max()},
                                     RotationFormat::Q48);
    }
    return std::move(*best);
  };

  // Segment length: the one that makes the clip smallest at the initial tolerances.
  if (st.segmentLength == 0) {
    std::size_t bestBytes = std::numeric_limits<std::size_t>::max();
    st.segmentLength = 16;
    if (frames >= 2) {
      for (std::uint32_t length : kSegmentLengths) {
        std::size_t total = 0;
        for (std::size_t i = 0; i < subCount; ++i) {
          if (pinned[i / 3]) continue;
          total += encodeWith(i, targets[i], length).bytes;
        }
        if (total < bestBytes) {
          bestBytes = total;
          st.segmentLength = length;
        }
      }
    }
  }
  const std::uint32_t segmentLength = st.segmentLength;

  // Decoded local transforms implied by the current encodings (before writing), for pinning.
  auto decodedFromEncodings = [&](std::uint32_t f, std::vector<Transform>& out) {
    out.resize(joints);
    for (std::uint32_t j = 0; j < joints; ++j)
      for (int c = 0; c < 3; ++c) setSample(out[j], Channel(c), st.tracks[j * 3 + std::size_t(c)].encoding.at(f));
  };
  // Pinned joint: the local track that puts it where the original is, given compressed ancestors.
  auto pinnedTargets = [&](std::uint32_t p) {
    std::array<std::vector<Sample>, 3> out;
    for (auto& o : out) o.resize(frames);
    std::vector<Transform> locals;
    std::vector<Mat34d> object(joints);
    for (std::uint32_t f = 0; f < frames; ++f) {
      decodedFromEncodings(f, locals);
      runtime::localToObject<double>(m_skeleton.parents, locals, object);
      const std::int32_t parent = m_skeleton.parents[p];
      const Mat34d local = parent < 0 ? metric.originalObject(p, f)
                                      : object[std::size_t(parent)].inverse() * metric.originalObject(p, f);
      const Transform t = decompose(local);
      for (int c = 0; c < 3; ++c) out[std::size_t(c)][f] = sampleOf(t, Channel(c));
    }
    for (std::uint32_t f = 1; f < frames; ++f) {  // sign continuity
      Sample& q = out[0][f];
      const Sample& prev = out[0][f - 1];
      if (q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0.f) q = {-q[0], -q[1], -q[2], -q[3]};
    }
    return out;
  };

  for (std::size_t i = 0; i < subCount; ++i)
    if (!pinned[i / 3] && !st.tracks[i].encoded) {
      st.tracks[i].encoding = encodeWith(i, targets[i], segmentLength);
      st.tracks[i].encoded = true;
    }

  std::vector<Transform> decoded(std::size_t(frames) * joints);
  std::vector<float> errors;
  std::vector<std::uint8_t> blob;
  std::vector<bool> unreachable(joints, false);
  std::uint32_t pass = 0;
  runtime::Player player;
  for (;; ++pass) {
    if (cancel && cancel->load()) return Error{"cancelled"};
    // Pinned joints, parents first, against the current encodings of their ancestors.
    for (std::uint32_t p = 0; p < joints; ++p) {
      if (!pinned[p]) continue;
      auto pinTargets = pinnedTargets(p);
      for (int c = 0; c < 3; ++c) {
        const std::size_t i = p * 3 + std::size_t(c);
        targets[i] = std::move(pinTargets[std::size_t(c)]);
        st.tracks[i].encoding = encodeWith(i, targets[i], segmentLength);
        st.tracks[i].encoded = true;
      }
    }
    std::vector<TrackEncoding> encodings;
    encodings.reserve(subCount);
    for (const SubTrack& t : st.tracks) encodings.push_back(t.encoding);
    ClipLayout layout;
    layout.frameCount = frames;
    layout.sampleRate = static_cast<float>(m_clip.sampleRate);
    layout.segmentLength = segmentLength;
    layout.snapshotIntervalFrames = snapshotFrames;
    layout.tracks = encodings;
    blob = writeClip(layout);
    auto view = runtime::ClipView::open(blob, std::span(m_skeleton.restLocal));
    ANIMPACK_ASSERT(view.hasValue(), view ? "" : view.message().c_str());
    for (std::uint32_t f = 0; f < frames; ++f)
      player.sampleFrame(*view, static_cast<float>(f), std::span(decoded.data() + std::size_t(f) * joints, joints));
    errors = metric.measure(decoded);

    // Every joint over its precision at some frame asks the sub-track contributing most there to
    // tighten, in that segment for uniform tracks.
    std::map<std::size_t, std::set<std::uint32_t>> tighten;
    bool violation = false;
    for (std::uint32_t f = 0; f < frames; ++f)
      for (std::uint32_t j = 0; j < joints; ++j) {
        if (errors[std::size_t(f) * joints + j] <= precision[j] || unreachable[j]) continue;
        violation = true;
        const double shell = double(shells[j]) / m_unitToCm;
        double bestContribution = 0;
        std::size_t best = subCount;
        for (const auto& [a, lever] : st.levers.chain[j])
          for (int c = 0; c < 3; ++c) {
            const std::size_t i = a * 3 + std::size_t(c);
            if (st.tracks[i].atLimit) continue;
            const double e = sampleDistance(Channel(c), sampleOf(decoded[std::size_t(f) * joints + a], Channel(c)), targets[i][f]);
            const double factor = c == 0 ? lever + shell : c == 1 ? st.levers.parentScale[a] : (lever + shell) / st.levers.localScale[a];
            if (e * factor > bestContribution) {
              bestContribution = e * factor;
              best = i;
            }
          }
        if (best == subCount) unreachable[j] = true;
        else tighten[best].insert(std::min(f / segmentLength, std::max<std::uint32_t>(1, runtime::uniformSegmentCount(frames, segmentLength)) - 1));
      }
    if (!violation || tighten.empty() || pass + 1 >= kMaxPasses) break;

    for (const auto& [i, segments] : tighten) {
      SubTrack& t = st.tracks[i];
      const double floor = Channel(i % 3) == Channel::Rotation ? kMinRotationTolerance : kMinRelativeTolerance * magnitude(i);
      switch (t.encoding.kind) {
        case TrackKind::Uniform: {
          bool room = true;
          for (std::uint32_t s : segments) room = room && s < t.encoding.uniform.shifts.size() && t.encoding.uniform.shifts[s] < runtime::kMaxResidualShift;
          if (room) {
            t.shifts = t.encoding.uniform.shifts;
            for (std::uint32_t s : segments) ++t.shifts[s];
          } else {
            t.tolerance *= 0.5;
          }
          break;
        }
        case TrackKind::Keyed: t.tolerance *= 0.5; break;
        default:
          t.forceAnimated = true;
          t.tolerance *= 0.5;
          break;
      }
      if (t.tolerance < floor) {
        t.tolerance = floor;
        t.atLimit = true;
      }
      if (!pinned[i / 3]) t.encoding = encodeWith(i, targets[i], segmentLength);
    }
  }

  CompressedClip out;
  out.name = m_clip.name;
  out.clipIndex = m_clip.clipIndex;
  out.startTime = m_clip.startTime;
  out.sampleRate = static_cast<float>(m_clip.sampleRate);
  out.frameCount = frames;
  out.settings = m_settings;
  out.settingsHash = m_settings.hash();
  // A clip loops when its last frame repeats its first within every joint's precision.
  if (frames >= 3) {
    bool loop = true;
    for (std::uint32_t j = 0; j < joints && loop; ++j) loop = metric.error(j, frames - 1, metric.originalObject(j, 0)) <= precision[j];
    out.loop = loop;
  }
  if (out.loop) {
    std::vector<TrackEncoding> encodings;
    for (const SubTrack& t : st.tracks) encodings.push_back(t.encoding);
    ClipLayout layout{frames, out.sampleRate, true, segmentLength, snapshotFrames, encodings};
    blob = writeClip(layout);
  }
  out.data = std::move(blob);

  CompressionStats& s = out.stats;
  s.rawBytes = std::size_t(10) * 4 * joints * frames;
  s.clipBytes = out.data.size();
  const ErrorSummary summary = summarize(errors, joints);
  s.maxErrorCm = summary.maxCm;
  s.p99ErrorCm = summary.p99Cm;
  s.worstJoint = summary.worstJoint;
  s.worstFrame = summary.worstFrame;
  s.iterations = pass + 1;
  s.joints.resize(joints);
  for (std::uint32_t j = 0; j < joints; ++j) {
    JointReport& r = s.joints[j];
    r.maxErrorCm = summary.jointMaxCm[j];
    r.precisionCm = precision[j];
    r.shellCm = shells[j];
    r.pinned = pinned[j];
    r.withinPrecision = r.maxErrorCm <= r.precisionCm;
    r.unreachable = !r.withinPrecision;
    for (int c = 0; c < 3; ++c) {
      const TrackEncoding& e = st.tracks[j * 3 + std::size_t(c)].encoding;
      r.kinds[std::size_t(c)] = e.kind;
      r.wide[std::size_t(c)] = e.wide;
      r.keys += static_cast<std::uint32_t>(e.keyed.frames.size());
      switch (e.kind) {
        case TrackKind::Default: ++s.defaultTracks; break;
        case TrackKind::Keyed: ++s.keyedTracks; break;
        case TrackKind::Uniform: ++s.uniformTracks; break;
        default: ++s.constantTracks; break;
      }
      s.wideTracks += e.wide;
    }
    s.keys += r.keys;
    s.withinPrecision = s.withinPrecision && r.withinPrecision;
  }

  // Drift of each pinned joint with and without pinning (the original track at the same tolerance).
  for (std::uint32_t p = 0; p < joints; ++p) {
    if (!pinned[p]) continue;
    PinnedReport r;
    r.joint = p;
    r.driftCm = summary.jointMaxCm[p];
    std::array<TrackEncoding, 3> unpinned;
    for (int c = 0; c < 3; ++c) {
      const std::size_t i = p * 3 + std::size_t(c);
      std::vector<Sample> original(frames);
      for (std::uint32_t f = 0; f < frames; ++f) original[f] = sampleOf(m_clip.at(p, f), Channel(c));
      unpinned[std::size_t(c)] = encodeWith(i, original, segmentLength);
    }
    std::vector<Mat34d> object(joints);
    for (std::uint32_t f = 0; f < frames; ++f) {
      std::span<const Transform> pose(decoded.data() + std::size_t(f) * joints, joints);
      runtime::localToObject<double>(m_skeleton.parents, pose, object);
      Transform local = pose[p];
      for (int c = 0; c < 3; ++c) setSample(local, Channel(c), unpinned[std::size_t(c)].at(f));
      const std::int32_t parent = m_skeleton.parents[p];
      const Mat34d m = parent < 0 ? Mat34d::fromTransform(local) : object[std::size_t(parent)] * Mat34d::fromTransform(local);
      r.driftUnpinnedCm = std::max(r.driftUnpinnedCm, metric.error(p, f, m));
    }
    s.pinned.push_back(r);
  }
  s.errors = std::move(errors);
  s.compressMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace animpack::core
