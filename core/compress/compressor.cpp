#include "core/compress/compressor.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "core/anim/source_clip.h"
#include "core/base/assert.h"
#include "core/compress/between_source.h"
#include "core/compress/clip_writer.h"
#include "core/compress/curve_compress.h"
#include "core/compress/error_metric.h"
#include "core/compress/timed_source.h"
#include "core/compress/track_analysis.h"
#include "core/compress/vertex_error.h"
#include "core/runtime/additive.h"
#include "core/runtime/clip_view.h"
#include "core/runtime/hash.h"
#include "core/runtime/player.h"
#include "core/runtime/pose_ops.h"
#include "core/runtime/root_motion.h"

namespace animpack::core {
namespace {

constexpr std::uint32_t kSegmentLengths[] = {8, 16, 32};
constexpr std::uint32_t kMaxPasses = 64;
constexpr double kMinRotationTolerance = 1e-8;  // radians
constexpr double kMinRelativeTolerance = 1e-8;  // of the track's magnitude
/// Share of its budget an additive track's frames may miss between them before its exact delta
/// there (timed keys) is tried beside storage of its frames: the smaller of the two is kept
/// (docs/PERFORMANCE.md "Additive clips at the defaults" measured the share).
constexpr double kExactDeltaShare = 0.5;

struct SubTrack {
  double baseTolerance = -1;  // from the hierarchy: a change resets the state below
  double tolerance = 0;       // after tightening
  bool forceAnimated = false;
  bool raw = false;      // stored as float32 samples: nothing tighter exists
  bool atLimit = false;  // raw (or timed with every key): the loop cannot tighten it further
  std::vector<std::uint8_t> shifts;
  TrackEncoding encoding;
  bool encoded = false;
};

std::uint64_t hashClip(const RawClip& clip) {
  std::uint64_t h = runtime::fnv1a64Value(clip.frameCount, runtime::kFnvOffset);
  h = runtime::fnv1a64Value(clip.jointCount, h);
  h = runtime::fnv1a64Value(clip.sampleRate, h);
  return runtime::fnv1a64(
      std::span(reinterpret_cast<const std::uint8_t*>(clip.samples.data()), clip.samples.size() * sizeof(Transform)),
      h);
}

}  // namespace

struct CompressorContext::State {
  std::uint64_t clipHash = 0;
  const SourceClip* source = nullptr;
  double unitToCm = 0;
  std::vector<float> shells;
  std::vector<bool> pinned;
  LoopLayout layout;
  std::uint64_t sourceHash = 0;  // of the clip the metric measures against
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
  if (!m_setupError.empty()) return Error{m_setupError};
  if (auto st = m_skeleton.validate(); !st) return st;
  if (auto st = m_clip.validate(m_skeleton); !st) return st;
  if (!(m_unitToCm > 0) || !std::isfinite(m_unitToCm)) return Error{"unit_to_cm must be a positive number"};
  if (m_settings.joints.size() != m_skeleton.jointCount()) return Error{"settings were resolved for another skeleton"};
  for (std::size_t j = 0; j < m_settings.joints.size(); ++j) {
    const EffectiveJoint& e = m_settings.joints[j];
    const std::string label = "joint '" + m_skeleton.names[j] + "'";
    if (!(e.precisionCm > 0) || !std::isfinite(e.precisionCm))
      return Error{label + ": precision_cm must be a positive number"};
    if (!(e.shellCm > 0) || !std::isfinite(e.shellCm)) return Error{label + ": shell_cm must be a positive number"};
  }
  if (!(m_settings.snapshotIntervalS > 0) || !std::isfinite(m_settings.snapshotIntervalS))
    return Error{"snapshot_interval_s must be a positive number"};
  if (m_clip.frameCount > 0xffffffu) return Error{"clip '" + m_clip.name + "' has too many frames"};
  return Status::ok();
}

/// One run of the pipeline over one clip: each stage of CompressJob::run is a method, sharing the
/// state below (the caller's context keeps `st` between runs).
class CompressRun {
 public:
  /// `base`: the clip is additive (its samples are deltas from it), or nullptr.
  CompressRun(const Skeleton& skeleton, const RawClip& clip, double unitToCm, const EffectiveSettings& settings,
              CompressorContext::State& state, std::span<const SkinnedMesh> meshes, std::span<const float> restWeights,
              const AdditiveBase* base)
      : m_base(base),
        m_skin(skeleton, meshes, unitToCm, restWeights),
        m_skeleton(skeleton),
        m_clip(clip),
        m_unitToCm(unitToCm),
        m_settings(settings),
        m_st(state),
        m_joints(clip.jointCount),
        m_frames(clip.frameCount),
        m_subCount(std::size_t(clip.jointCount) * 3) {}

  /// `clip` is what is compressed; `source` the imported clip it was taken from (longer by one
  /// frame when the layout drops the last frame), which the metric measures against.
  static void prepare(CompressorContext& ctx, const Skeleton& skeleton, const RawClip& clip, const RawClip& source,
                      LoopLayout layout, double unitToCm, const EffectiveSettings& settings,
                      const RootMotionTrack* rootMotion, bool additive);
  /// The root-motion track written beside the in-place clip (null: none) and the clip it came from.
  void setRootMotion(const RootMotionTrack* track, const RawClip& source) {
    m_rootMotion = track;
    m_source = &source;
    if (track) m_cycle = cycleMotion(*track, m_frames, m_st.layout.wrap, m_st.layout.dropLast);
  }
  void buildTargets();
  void applyTolerances();
  void chooseSegmentLength();
  void encodePending();
  void pinJoints();
  /// Writes the m_clip and measures it at and between m_frames; false when nothing is over m_precision
  /// (or nothing can be tightened).
  bool writeAndMeasure();
  void tighten();
  CompressedClip finish(std::chrono::steady_clock::time_point started);
  /// Whether the clip block carries the loop flag (a wrap layout always loops).
  void setLoop(bool loop) { m_loop = loop || m_st.layout.wrap; }
  /// Verification passes so far.
  std::uint32_t pass() const { return m_pass; }
  void nextPass() { ++m_pass; }

 private:
  TrackEncoding encodeWith(std::size_t i, const std::vector<Sample>& samples, std::uint32_t segmentLength) const;
  /// A sub-track keyed between frames: static when its keys and frames all are, else timed (every
  /// key once the loop has tightened it to the floor); nothing when the keys cannot be stored.
  std::optional<TrackEncoding> encodeTimedTrack(std::size_t i, const TrackTarget& target,
                                                const TimedSource& source) const;
  /// The storage of `target` from its frames alone: static, uniform or keyed, raw where none reaches.
  TrackEncoding encodeFrames(std::size_t i, const TrackTarget& target, std::uint32_t segmentLength) const;
  /// How far an additive sub-track's frames, interpolated, miss its exact delta between them
  /// (between_source.h); -1 where it has no exact delta (absolute clips, pinned joints, static tracks).
  double exactDeltaMiss(std::size_t i, const std::vector<Sample>& samples) const;
  /// The float32 floor: every animated sub-track as float32 samples, as timed keys at every
  /// instant of between_source.h where it has them, measured as the clip is.
  ErrorSummary measureFloor() const;
  std::array<std::vector<Sample>, 3> pinnedTargets(std::uint32_t p) const;
  void decodedFromEncodings(std::uint32_t f, std::vector<Transform>& out) const;
  std::vector<std::uint8_t> write() const;
  std::vector<std::uint8_t> write(const std::vector<TrackEncoding>& encodings) const;
  /// The sub-track contributing most to joint j's error at frame f (m_subCount if none can be
  /// tightened), and its contribution.
  /// `interval` (between frames f and f + 1, or -1 at frame f) adds what an additive track's frames
  /// miss inside it.
  std::pair<std::size_t, double> worstContributor(std::uint32_t j, std::uint32_t f, std::int64_t interval = -1) const;
  /// A source object matrix of joint j at frame f without the root motion (unchanged outside the
  /// root's subtree or without root motion).
  Mat34d inPlace(std::uint32_t j, std::uint32_t f, const Mat34d& object) const;
  void fillJointReports(CompressionStats& s, const ErrorSummary& summary) const;
  /// CompressionStats::floorReason, from the joints' floors.
  std::string floorReason(const CompressionStats& s) const;
  void fillPinnedReports(CompressionStats& s, const ErrorSummary& summary) const;
  /// With mesh shells: asks every animated track to tighten when a skinned vertex is more than
  /// 1.5 x the precision off; true when it did.
  bool checkSkin(const runtime::ClipView& view);
  /// The skinned vertices' largest error (an additive clip's on its base, against its source).
  float skinError(const runtime::ClipView& view) const {
    return m_base ? measureVertexError(m_skin, m_skeleton, *m_source, view, m_base)
                  : measureVertexError(m_skin, m_skeleton, m_clip, view);
  }
  /// Frame f's pose from its locals: composed with the base pose when the clip is additive.
  std::vector<Transform> applied(std::uint32_t f, std::span<const Transform> locals) const;

  const AdditiveBase* m_base;
  std::vector<Transform> m_baseFrames;  // additive: the decoded base at each frame, frame-major
  const VertexErrorMetric m_skin;

  const Skeleton& m_skeleton;
  const RawClip& m_clip;
  double m_unitToCm;
  const EffectiveSettings& m_settings;
  CompressorContext::State& m_st;
  const std::uint32_t m_joints, m_frames;
  const std::size_t m_subCount;
  std::vector<float> m_shells, m_precision;
  std::vector<bool> m_pinned, m_unreachable;
  std::uint32_t m_snapshotFrames = 1, m_maxGap = 2;
  std::vector<std::vector<Sample>> m_targets;
  std::vector<std::optional<TimedSource>> m_timed;  // sub-tracks keyed between frames: their keys
  BetweenSource m_between;  // additive: the exact deltas between frames, and what the frames miss there
  std::vector<Sample> m_rest;
  std::vector<std::uint8_t> m_blob;
  std::vector<Transform> m_decoded;  // frame-major m_decoded m_frames of the last m_pass
  ClipErrors m_errors;
  std::map<std::size_t, std::set<std::uint32_t>> m_tightenings;  // sub-track -> uniform segments
  std::uint32_t m_pass = 0;
  bool m_loop = false;
  const RootMotionTrack* m_rootMotion = nullptr;
  const RawClip* m_source = nullptr;  // with root motion: the clip before extraction
  GroundMotion m_cycle;
};

void CompressRun::prepare(CompressorContext& ctx, const Skeleton& skeleton, const RawClip& clip, const RawClip& source,
                          LoopLayout layout, double unitToCm, const EffectiveSettings& settings,
                          const RootMotionTrack* rootMotion, bool additive) {
  std::vector<float> shells(clip.jointCount);
  std::vector<bool> pinned(clip.jointCount);
  for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
    shells[j] = settings.joints[j].shellCm;
    pinned[j] = settings.joints[j].pinned;
  }
  const std::uint64_t clipHash = hashClip(clip);
  if (!ctx.state || ctx.state->clipHash != clipHash || ctx.state->unitToCm != unitToCm || ctx.state->shells != shells ||
      ctx.state->pinned != pinned || ctx.state->source != clip.source.get() || ctx.state->layout != layout) {
    auto s = std::make_unique<CompressorContext::State>();
    s->layout = layout;
    s->sourceHash = hashClip(source);
    s->clipHash = clipHash;
    s->source = clip.source.get();
    s->unitToCm = unitToCm;
    s->shells = shells;
    s->pinned = pinned;
    // With root motion the next cycle starts where this one ended: frame 0 moved by the cycle
    // (the seam and the wrap interval end there).
    std::vector<Transform> wrapEnd;
    if (rootMotion) {
      wrapEnd.assign(source.frame(0).begin(), source.frame(0).end());
      const GroundMotion cycle = cycleMotion(*rootMotion, clip.frameCount, layout.wrap, layout.dropLast);
      runtime::moveJoint(skeleton.parents, rootMotion->joint, objectMotion(*rootMotion, cycle), wrapEnd);
    }
    // An additive clip is checked at every instant its exact deltas are taken (between_source.h):
    // base and delta composed part from the source all along an interval, not only mid-way.
    s->metric = std::make_unique<ErrorMetric>(skeleton, source, unitToCm, shells, additive ? kBetweenSubSteps - 1 : 1,
                                              layout, wrapEnd);
    // Deltas change a joint's pose one for one in rotation and translation: the levers are the source's.
    s->levers = measureLevers(skeleton, additive ? source : clip, *s->metric, settings);
    s->varying = varyingSubTracks(clip);
    s->tracks.resize(std::size_t(clip.jointCount) * 3);
    ctx.state = std::move(s);
  }
  CompressorContext::State& st = *ctx.state;
  if (st.format != settings.rotationFormat || st.snapshotInterval != settings.snapshotIntervalS) {
    for (SubTrack& t : st.tracks) t = SubTrack{};
    st.format = settings.rotationFormat;
    st.snapshotInterval = settings.snapshotIntervalS;
    st.segmentLength = 0;
  }
}

/// Targets: the source samples, except for m_pinned m_joints (recomputed against their ancestors).
void CompressRun::buildTargets() {
  m_shells.resize(m_joints);
  m_precision.resize(m_joints);
  m_pinned.resize(m_joints);
  m_unreachable.assign(m_joints, false);
  for (std::uint32_t j = 0; j < m_joints; ++j) {
    m_shells[j] = m_settings.joints[j].shellCm;
    m_precision[j] = m_settings.joints[j].precisionCm;
    m_pinned[j] = m_settings.joints[j].pinned;
  }
  m_snapshotFrames = std::max<std::uint32_t>(
      1, static_cast<std::uint32_t>(std::lround(m_settings.snapshotIntervalS * m_clip.sampleRate)));
  m_maxGap = std::max<std::uint32_t>(2, m_snapshotFrames / 2);
  m_targets.resize(m_subCount);
  m_rest.resize(m_subCount);
  if (m_base) m_baseFrames = m_base->frames(m_frames, m_clip.sampleRate);
  for (std::uint32_t j = 0; j < m_joints; ++j)
    for (int c = 0; c < 3; ++c) {
      const std::size_t i = j * 3 + std::size_t(c);
      // A default track of an additive clip is the identity delta (FORMAT.md "Additive clips").
      m_rest[i] = sampleOf(m_base ? Transform{} : m_skeleton.restLocal[j], Channel(c));
      m_targets[i].resize(m_frames);
      for (std::uint32_t f = 0; f < m_frames; ++f) m_targets[i][f] = sampleOf(m_clip.at(j, f), Channel(c));
    }
  // Timed tracks follow a source keyed between frames; an additive clip's deltas and a root-motion
  // clip's in-place root are not the source's own keys.
  m_timed.clear();
  if (!m_base) m_timed = timedSources(m_clip, m_rootMotion && m_source ? m_source->source.get() : m_clip.source.get());
  if (m_rootMotion && !m_timed.empty())
    for (int c = 0; c < 3; ++c) m_timed[std::size_t(m_rootMotion->joint) * 3 + std::size_t(c)].reset();
  // An additive clip's deltas, composed with the base, are not the source between frames.
  m_between = m_base ? betweenSource(m_clip, *m_base, m_st.varying) : BetweenSource{};
}

void CompressRun::applyTolerances() {
  const std::vector<double> tolerances =
      localTolerances(m_skeleton, m_st.levers, m_st.varying, m_settings, m_unitToCm, CompressJob::kAggressiveness);
  for (std::size_t i = 0; i < m_subCount; ++i) {
    SubTrack& t = m_st.tracks[i];
    if (t.baseTolerance != tolerances[i]) {
      t = SubTrack{};
      t.baseTolerance = tolerances[i];
      t.tolerance = tolerances[i];
    }
    if (m_pinned[i / 3]) t.encoded = false;
  }
}

/// The smallest storage within the sub-track's tolerance; raw samples where no quantized kind
/// reaches it (the tolerance is below what 48-bit keys or 32-bit uniform ranges can hold).
TrackEncoding CompressRun::encodeWith(std::size_t i, const std::vector<Sample>& samples,
                                      std::uint32_t segmentLength) const {
  const SubTrack& t = m_st.tracks[i];
  TrackTarget target{Channel(i % 3), samples, m_rest[i], t.tolerance};
  if (i < m_timed.size() && m_timed[i] && &samples == &m_targets[i])
    if (auto timed = encodeTimedTrack(i, target, *m_timed[i])) return std::move(*timed);
  // An additive track whose frames, interpolated, miss the exact delta between them by a good part
  // of its budget may keep the exact delta there as timed keys; past the whole budget it must.
  const double miss = exactDeltaMiss(i, samples);
  std::optional<TrackEncoding> exact;
  if (miss > 0 && (t.raw || miss >= kExactDeltaShare * t.tolerance))
    exact = encodeTimedTrack(i, target, *m_between.sources[i]);
  if (exact && (t.raw || miss >= t.tolerance)) return std::move(*exact);
  target.tolerance -= std::max(miss, 0.0);  // what the frames miss between them is spent first
  TrackEncoding frames = encodeFrames(i, target, segmentLength);
  if (exact && exact->bytes < frames.bytes) return std::move(*exact);
  return frames;
}

TrackEncoding CompressRun::encodeFrames(std::size_t i, const TrackTarget& target, std::uint32_t segmentLength) const {
  const SubTrack& t = m_st.tracks[i];
  if (t.raw) return encodeRaw(target);
  if (!t.forceAnimated || m_frames < 2)
    if (auto s = encodeStatic(target, m_settings.rotationFormat)) return std::move(*s);
  std::optional<TrackEncoding> best = encodeUniform(target, segmentLength, t.shifts);
  const std::size_t budget = best ? best->bytes : std::numeric_limits<std::size_t>::max();
  if (auto k = encodeKeyed(target, m_maxGap, budget - 1)) best = std::move(k);
  if (!best) return encodeRaw(target);
  return std::move(*best);
}

double CompressRun::exactDeltaMiss(std::size_t i, const std::vector<Sample>& samples) const {
  if (m_between.empty() || !m_between.sources[i] || &samples != &m_targets[i] || m_pinned[i / 3]) return -1;
  return m_between.trackMismatch(i);
}

std::optional<TrackEncoding> CompressRun::encodeTimedTrack(std::size_t i, const TrackTarget& target,
                                                           const TimedSource& source) const {
  const SubTrack& t = m_st.tracks[i];
  if (!t.forceAnimated) {
    std::vector<Sample> all(target.samples.begin(), target.samples.end());
    all.insert(all.end(), source.values.begin(), source.values.end());
    if (auto s = encodeStatic({target.channel, all, target.rest, target.tolerance}, m_settings.rotationFormat))
      return s;
  }
  TrackTarget timed = target;
  if (t.raw) timed.tolerance = 0;
  return encodeTimed(timed, source);
}

/// Segment length: the one that makes the m_clip smallest at the initial tolerances.
void CompressRun::chooseSegmentLength() {
  if (m_st.segmentLength != 0) return;
  std::size_t bestBytes = std::numeric_limits<std::size_t>::max();
  m_st.segmentLength = 16;
  if (m_frames < 2) return;
  for (std::uint32_t length : kSegmentLengths) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < m_subCount; ++i)
      if (!m_pinned[i / 3]) total += encodeWith(i, m_targets[i], length).bytes;
    if (total < bestBytes) {
      bestBytes = total;
      m_st.segmentLength = length;
    }
  }
}

void CompressRun::encodePending() {
  for (std::size_t i = 0; i < m_subCount; ++i)
    if (!m_pinned[i / 3] && !m_st.tracks[i].encoded) {
      m_st.tracks[i].encoding = encodeWith(i, m_targets[i], m_st.segmentLength);
      m_st.tracks[i].encoded = true;
    }
}

/// Decoded local transforms implied by the current encodings (before writing), for pinning.
void CompressRun::decodedFromEncodings(std::uint32_t f, std::vector<Transform>& out) const {
  out.resize(m_joints);
  for (std::uint32_t j = 0; j < m_joints; ++j)
    for (int c = 0; c < 3; ++c) setSample(out[j], Channel(c), m_st.tracks[j * 3 + std::size_t(c)].encoding.at(f));
}

/// Pinned joint: the local track that puts it where the original is, given compressed ancestors.
std::array<std::vector<Sample>, 3> CompressRun::pinnedTargets(std::uint32_t p) const {
  const ErrorMetric& metric = *m_st.metric;
  std::array<std::vector<Sample>, 3> out;
  for (auto& o : out) o.resize(m_frames);
  std::vector<Transform> locals;
  std::vector<Mat34d> object(m_joints);
  for (std::uint32_t f = 0; f < m_frames; ++f) {
    decodedFromEncodings(f, locals);
    runtime::localToObject<double>(m_skeleton.parents, applied(f, locals), object);
    const std::int32_t parent = m_skeleton.parents[p];
    const Mat34d target = inPlace(p, f, metric.originalObject(p, f));
    const Mat34d local = parent < 0 ? target : object[std::size_t(parent)].inverse() * target;
    const Transform t = m_base ? runtime::additiveDelta(m_baseFrames[std::size_t(f) * m_joints + p], decompose(local))
                               : decompose(local);
    for (int c = 0; c < 3; ++c) out[std::size_t(c)][f] = sampleOf(t, Channel(c));
  }
  for (std::uint32_t f = 1; f < m_frames; ++f) {  // sign continuity
    Sample& q = out[0][f];
    const Sample& prev = out[0][f - 1];
    if (q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0.f) q = {-q[0], -q[1], -q[2], -q[3]};
  }
  return out;
}

/// Pinned m_joints, parents first, against the current encodings of their ancestors.
void CompressRun::pinJoints() {
  for (std::uint32_t p = 0; p < m_joints; ++p) {
    if (!m_pinned[p]) continue;
    auto pinTargets = pinnedTargets(p);
    for (int c = 0; c < 3; ++c) {
      const std::size_t i = p * 3 + std::size_t(c);
      m_targets[i] = std::move(pinTargets[std::size_t(c)]);
      m_st.tracks[i].encoding = encodeWith(i, m_targets[i], m_st.segmentLength);
      m_st.tracks[i].encoded = true;
    }
  }
}

Mat34d CompressRun::inPlace(std::uint32_t j, std::uint32_t f, const Mat34d& object) const {
  if (!m_rootMotion) return object;
  std::int32_t k = std::int32_t(j);
  while (k >= 0 && std::uint32_t(k) != m_rootMotion->joint) k = m_skeleton.parents[std::size_t(k)];
  if (k < 0) return object;
  const GroundMotion back = inverse(objectMotion(*m_rootMotion, m_rootMotion->frames[f]));
  return Mat34d::fromTransform(runtime::toTransform(back)) * object;
}

std::vector<std::uint8_t> CompressRun::write() const {
  std::vector<TrackEncoding> encodings;
  encodings.reserve(m_subCount);
  for (const SubTrack& t : m_st.tracks) encodings.push_back(t.encoding);
  return write(encodings);
}

std::vector<std::uint8_t> CompressRun::write(const std::vector<TrackEncoding>& encodings) const {
  const ClipLayout layout{m_frames,
                          static_cast<float>(m_clip.sampleRate),
                          m_loop,
                          m_st.layout.wrap,
                          m_st.layout.dropLast,
                          m_st.segmentLength,
                          m_snapshotFrames,
                          encodings,
                          m_base != nullptr};
  std::vector<std::uint8_t> block = writeClip(layout);
  if (m_rootMotion) appendRootMotion(block, *m_rootMotion, m_frames, m_cycle);
  return block;
}

std::pair<std::size_t, double> CompressRun::worstContributor(std::uint32_t j, std::uint32_t f,
                                                             std::int64_t interval) const {
  const double shell = double(m_shells[j]) / m_unitToCm;
  double bestContribution = 0;
  std::size_t best = m_subCount;
  for (const auto& [a, lever] : m_st.levers.chain[j])
    for (int c = 0; c < 3; ++c) {
      const std::size_t i = a * 3 + std::size_t(c);
      if (m_st.tracks[i].atLimit) continue;
      double e =
          sampleDistance(Channel(c), sampleOf(m_decoded[std::size_t(f) * m_joints + a], Channel(c)), m_targets[i][f]);
      // Between frames an additive track also misses the exact delta: by what its frames miss
      // there, or, kept as timed keys, by up to the tolerance its keys were thinned to.
      if (interval >= 0 && !m_between.empty())
        e += m_st.tracks[i].encoding.kind == TrackKind::Timed && m_between.sources[i]
                 ? m_st.tracks[i].tolerance
                 : m_between.intervalMismatch(i, std::uint32_t(interval));
      const double factor = c == 0   ? lever + shell
                            : c == 1 ? m_st.levers.parentScale[a]
                                     : (lever + shell) / m_st.levers.localScale[a];
      // A track whose m_decoded m_frames are exact still shapes the interval (slerp of a large step):
      // it stays a candidate with a vanishing contribution.
      const double contribution = e * factor + 1e-30;
      if (contribution > bestContribution) {
        bestContribution = contribution;
        best = i;
      }
    }
  return {best, bestContribution};
}

bool CompressRun::writeAndMeasure() {
  m_blob = write();
  // A clip of a morph-only file has no joint to measure: its curves are appended and verified after.
  if (m_joints == 0) {
    m_errors = {};
    return false;
  }
  auto view = runtime::ClipView::open(m_blob, std::span(m_skeleton.restLocal));
  ANIMPACK_ASSERT(view.hasValue(), view ? "" : view.message().c_str());
  runtime::Player player;
  m_errors = m_st.metric->measureDecoded(*view, player, &m_decoded, m_base);

  // Every joint over its m_precision at a frame, or in a frame interval, asks the sub-track that
  // contributes most there (at either end of the interval) to tighten, in that segment for
  // uniform tracks.
  m_tightenings.clear();
  bool violation = false;
  const std::uint32_t segments = std::max<std::uint32_t>(1, runtime::uniformSegmentCount(m_frames, m_st.segmentLength));
  auto ask = [&](std::uint32_t j, std::initializer_list<std::uint32_t> at, std::int64_t interval = -1) {
    violation = true;
    std::pair<std::size_t, double> best{m_subCount, 0.0};
    std::uint32_t bestFrame = 0;
    // A pinned joint cancels its ancestors' errors only at frames: between them what is left
    // comes from above, so its parent's chain is asked too.
    const std::int32_t parent = m_pinned[j] && at.size() > 1 ? m_skeleton.parents[j] : -1;
    for (std::uint32_t f : at)
      for (const std::int64_t k : {std::int64_t(j), std::int64_t(parent)})
        if (k >= 0)
          if (const auto c = worstContributor(std::uint32_t(k), f, interval);
              c.first != m_subCount && c.second > best.second) {
            best = c;
            bestFrame = f;
          }
    if (best.first == m_subCount) m_unreachable[j] = true;
    else m_tightenings[best.first].insert(std::min(bestFrame / m_st.segmentLength, segments - 1));
  };
  for (std::uint32_t f = 0; f < m_frames; ++f)
    for (std::uint32_t j = 0; j < m_joints; ++j)
      if (m_errors.frames[std::size_t(f) * m_joints + j] > m_precision[j] && !m_unreachable[j]) ask(j, {f});
  const auto samples = m_st.metric->betweenSamples();
  for (std::size_t s = 0; s < samples.size(); ++s)
    for (std::uint32_t j = 0; j < m_joints; ++j)
      if (m_errors.between[s * m_joints + j] > m_precision[j] && !m_unreachable[j])
        ask(j,
            {samples[s].frame,
             samples[s].frame + 1 < m_frames ? samples[s].frame + 1 : 0},  // a wrap interval ends at frame 0
            samples[s].frame);
  if (!violation && m_settings.verifySkin) violation = checkSkin(*view);
  return violation && !m_tightenings.empty() && m_pass + 1 < kMaxPasses;
}

std::vector<Transform> CompressRun::applied(std::uint32_t f, std::span<const Transform> locals) const {
  if (!m_base) return {locals.begin(), locals.end()};
  return composeAdditive(std::span(m_baseFrames.data() + std::size_t(f) * m_joints, m_joints), locals);
}

bool CompressRun::checkSkin(const runtime::ClipView& view) {
  if (m_skin.empty()) return false;
  if (skinError(view) <= kSkinBoundFactor * *std::min_element(m_precision.begin(), m_precision.end())) return false;
  const std::uint32_t segments = std::max<std::uint32_t>(1, runtime::uniformSegmentCount(m_frames, m_st.segmentLength));
  for (std::size_t i = 0; i < m_subCount; ++i)
    if (!m_st.tracks[i].atLimit && m_st.varying[i])
      for (std::uint32_t k = 0; k < segments; ++k) m_tightenings[i].insert(k);
  return true;
}

/// A finer residual step in the segments asked for, a tighter fit, a static track made animated,
/// and past the tolerance floor raw samples.
void CompressRun::tighten() {
  for (const auto& [i, segments] : m_tightenings) {
    SubTrack& t = m_st.tracks[i];
    auto magnitude = [&, track = i] {  // clang 14 cannot capture a structured binding itself
      double m = 1e-30;
      for (const Sample& x : m_targets[track])
        for (int c = 0; c < 3; ++c) m = std::max(m, double(std::fabs(x[std::size_t(c)])));
      return m;
    };
    const double floor =
        Channel(i % 3) == Channel::Rotation ? kMinRotationTolerance : kMinRelativeTolerance * magnitude();
    switch (t.encoding.kind) {
      case TrackKind::Uniform: {
        bool room = true;
        for (std::uint32_t s : segments)
          room =
              room && s < t.encoding.uniform.shifts.size() && t.encoding.uniform.shifts[s] < runtime::kMaxResidualShift;
        if (room) {
          t.shifts = t.encoding.uniform.shifts;
          for (std::uint32_t s : segments) ++t.shifts[s];
        } else {
          t.tolerance *= 0.5;
        }
        break;
      }
      case TrackKind::Keyed:
      case TrackKind::Timed: t.tolerance *= 0.5; break;
      case TrackKind::Raw: t.atLimit = true; break;
      default:
        t.forceAnimated = true;
        t.tolerance *= 0.5;
        break;
    }
    if (t.tolerance < floor && !t.raw) t.raw = true;
    if (!m_pinned[i / 3]) t.encoding = encodeWith(i, m_targets[i], m_st.segmentLength);
    if (t.encoding.kind == TrackKind::Raw || (t.encoding.kind == TrackKind::Timed && t.raw)) t.raw = t.atLimit = true;
  }
}

void CompressRun::fillJointReports(CompressionStats& s, const ErrorSummary& summary) const {
  s.joints.resize(m_joints);
  bool floorNeeded = false;
  for (std::uint32_t j = 0; j < m_joints; ++j) {
    JointReport& r = s.joints[j];
    r.maxErrorCm = summary.jointMaxCm[j];
    r.precisionCm = m_precision[j];
    r.shellCm = m_shells[j];
    r.pinned = m_pinned[j];
    r.withinPrecision = r.maxErrorCm <= r.precisionCm;
    r.unreachable = !r.withinPrecision;
    floorNeeded = floorNeeded || r.unreachable;
    for (int c = 0; c < 3; ++c) {
      const TrackEncoding& e = m_st.tracks[j * 3 + std::size_t(c)].encoding;
      r.kinds[std::size_t(c)] = e.kind;
      r.wide[std::size_t(c)] = e.wide;
      r.keys += static_cast<std::uint32_t>(e.keyed.frames.size() + e.keyed.times.size());
      switch (e.kind) {
        case TrackKind::Default: ++s.defaultTracks; break;
        case TrackKind::Keyed:
        case TrackKind::Timed: ++s.keyedTracks; break;
        case TrackKind::Uniform: ++s.uniformTracks; break;
        case TrackKind::Raw: ++s.rawTracks; break;
        default: ++s.constantTracks; break;
      }
      s.wideTracks += e.wide;
    }
    s.keys += r.keys;
    s.withinPrecision = s.withinPrecision && r.withinPrecision;
  }
  if (!floorNeeded) return;
  // What float32 samples of every track would give: the best any storage can do.
  // With root motion the float samples before extraction: folding back gives them again.
  const ErrorSummary floor = measureFloor();
  for (std::uint32_t j = 0; j < m_joints; ++j) s.joints[j].floorCm = floor.jointMaxCm[j];
  s.floorReason = floorReason(s);
}

std::string CompressRun::floorReason(const CompressionStats& s) const {
  std::int64_t worst = -1;
  for (std::uint32_t j = 0; j < m_joints; ++j) {
    const JointReport& r = s.joints[j];
    if (!r.withinPrecision && r.floorCm >= 0.999f * r.precisionCm &&
        (worst < 0 ||
         r.floorCm / r.precisionCm > s.joints[std::size_t(worst)].floorCm / s.joints[std::size_t(worst)].precisionCm))
      worst = j;
  }
  if (worst < 0) return {};
  auto text = [](double v) {
    char b[32];
    v = std::round(v * 1e6) / 1e6;  // a key time a rounding off a whole second reads as that second
    std::snprintf(b, sizeof(b), "%.5g", v == 0 ? 0.0 : v);
    return std::string(b);
  };
  const SourceClip* source = (m_rootMotion ? *m_source : m_clip).source.get();
  if (const auto jump = source ? source->firstJumpFrame() : std::nullopt)
    return "the source jumps at " + text(m_clip.startTime + *jump / m_clip.sampleRate) +
           " s (two keys at one time with different values): interpolating frames cannot follow a jump, and the file "
           "does not say which value that time takes";
  std::uint32_t depth = 0;
  for (std::int32_t k = std::int32_t(worst); k >= 0; k = m_skeleton.parents[std::size_t(k)]) ++depth;
  const JointReport& r = s.joints[std::size_t(worst)];
  return "float32 samples of every track reach only " + text(r.floorCm) + " cm at joint '" +
         m_skeleton.names[std::size_t(worst)] + "' (a " + text(r.shellCm) + " cm shell, " + std::to_string(depth) +
         " joints deep): its precision of " + text(r.precisionCm) + " cm is finer than float32 rounding there";
}

ErrorSummary CompressRun::measureFloor() const {
  const ErrorMetric& metric = *m_st.metric;
  if (m_between.empty()) return metric.summarize(metric.measureFloor(m_rootMotion ? *m_source : m_clip, m_base));
  std::vector<TrackEncoding> encodings;
  encodings.reserve(m_subCount);
  for (std::size_t i = 0; i < m_subCount; ++i) {
    const TrackTarget target{Channel(i % 3), m_targets[i], m_rest[i], 0.0};
    std::optional<TrackEncoding> e;
    if (m_between.sources[i] && !m_pinned[i / 3]) e = encodeTimed(target, *m_between.sources[i]);
    encodings.push_back(e ? std::move(*e) : encodeRaw(target));
  }
  const std::vector<std::uint8_t> block = write(encodings);
  auto view = runtime::ClipView::open(block, std::span(m_skeleton.restLocal));
  ANIMPACK_ASSERT(view.hasValue(), view ? "" : view.message().c_str());
  runtime::Player player;
  return metric.summarize(metric.measureDecoded(*view, player, nullptr, m_base));
}

/// Drift of each m_pinned joint with and without pinning (the original track at the same tolerance).
void CompressRun::fillPinnedReports(CompressionStats& s, const ErrorSummary& summary) const {
  const ErrorMetric& metric = *m_st.metric;
  for (std::uint32_t p = 0; p < m_joints; ++p) {
    if (!m_pinned[p]) continue;
    PinnedReport r;
    r.joint = p;
    r.driftCm = summary.jointMaxCm[p];
    std::array<TrackEncoding, 3> unpinned;
    for (int c = 0; c < 3; ++c) {
      std::vector<Sample> original(m_frames);
      for (std::uint32_t f = 0; f < m_frames; ++f) original[f] = sampleOf(m_clip.at(p, f), Channel(c));
      unpinned[std::size_t(c)] = encodeWith(p * 3 + std::size_t(c), original, m_st.segmentLength);
    }
    std::vector<Mat34d> object(m_joints);
    for (std::uint32_t f = 0; f < m_frames; ++f) {
      std::vector<Transform> pose(m_decoded.begin() + std::ptrdiff_t(std::size_t(f) * m_joints),
                                  m_decoded.begin() + std::ptrdiff_t(std::size_t(f + 1) * m_joints));
      for (int c = 0; c < 3; ++c) setSample(pose[p], Channel(c), unpinned[std::size_t(c)].at(f));
      pose = applied(f, pose);
      const Transform local = pose[p];
      runtime::localToObject<double>(m_skeleton.parents, pose, object);
      const std::int32_t parent = m_skeleton.parents[p];
      const Mat34d m =
          parent < 0 ? Mat34d::fromTransform(local) : object[std::size_t(parent)] * Mat34d::fromTransform(local);
      r.driftUnpinnedCm = std::max(r.driftUnpinnedCm, metric.error(p, f, m));
    }
    s.pinned.push_back(r);
  }
}

CompressedClip CompressRun::finish(std::chrono::steady_clock::time_point started) {
  const ErrorMetric& metric = *m_st.metric;
  CompressedClip out;
  out.name = m_clip.name;
  out.clipIndex = m_clip.clipIndex;
  out.startTime = m_clip.startTime;
  out.sampleRate = static_cast<float>(m_clip.sampleRate);
  out.frameCount = m_frames;
  out.settings = m_settings;
  out.settingsHash = m_settings.hash();
  out.loop = m_loop;
  out.wrap = m_st.layout.wrap;
  out.droppedLastFrame = m_st.layout.wrap && m_st.layout.dropLast;
  out.data = std::move(m_blob);

  CompressionStats& s = out.stats;
  const std::uint32_t sourceFrames = m_frames + (out.droppedLastFrame ? 1 : 0);
  s.rawBytes = std::size_t(10) * 4 * m_joints * sourceFrames;
  if (out.loop) {
    const auto seam = metric.seamCm();
    s.seamErrorCm = seam.empty() ? 0.f : *std::max_element(seam.begin(), seam.end());
  }
  s.clipBytes = out.data.size();
  const ErrorSummary summary = metric.summarize(m_errors);
  s.maxErrorCm = summary.maxCm;
  s.p99ErrorCm = summary.p99Cm;
  s.maxErrorBetweenFramesCm = summary.maxBetweenCm;
  s.worstJoint = summary.worstJoint;
  // A clip without joints (morph curves alone) has no worst joint; its worst frame is the first.
  s.worstFrame = std::max(summary.worstFrame, 0);
  s.worstTimeS = std::max(summary.worstFrameTime, 0.0) / m_clip.sampleRate;
  s.iterations = m_pass + 1;
  fillJointReports(s, summary);
  fillPinnedReports(s, summary);
  if (m_rootMotion) {
    const auto view = runtime::ClipView::open(out.data, std::span(m_skeleton.restLocal));
    ANIMPACK_ASSERT(view.hasValue(), "the root-motion clip does not open");
    s.rootMotion = measureRootMotion(*m_rootMotion, m_cycle, *view, m_unitToCm, m_precision[m_rootMotion->joint]);
    s.withinPrecision = s.withinPrecision && s.rootMotion.withinPrecision;
  }
  if (!m_skin.empty()) {
    const auto view = runtime::ClipView::open(out.data, std::span(m_skeleton.restLocal));
    if (view) s.maxVertexErrorCm = skinError(*view);
  }
  // The tables cover the source's frames: with a dropped last frame, its row is the end of the
  // wrap interval (the between-frame sample at alpha 1), and the wrap interval is the last interval.
  s.betweenErrors = m_errors.intervalMax(metric.betweenSamples(), m_joints, sourceFrames);
  s.errors = std::move(m_errors.frames);
  if (out.droppedLastFrame) {
    s.errors.resize(std::size_t(sourceFrames) * m_joints, 0.f);
    const auto samples = metric.betweenSamples();
    for (std::size_t k = 0; k < samples.size(); ++k)
      if (samples[k].frame + 1 == m_frames && samples[k].alpha == 1.f)
        std::copy_n(m_errors.between.begin() + std::ptrdiff_t(k * m_joints), m_joints,
                    s.errors.begin() + std::ptrdiff_t(std::size_t(m_frames) * m_joints));
  }
  s.compressMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return out;
}

Expected<CompressedClip> CompressJob::run(CompressorContext* context, const std::atomic<bool>* cancel) const {
  if (auto st = validate(); !st) return Error{st.message()};
  if (m_base && m_base->jointCount() != m_skeleton.jointCount()) return Error{"the additive base has another skeleton"};
  // A delta has no ground path of its own: the base carries the character's root motion.
  if (m_base && m_settings.rootMotion == RootMotionMode::Extract)
    return Error{"an additive clip keeps its root motion: 'root_motion: extract' applies to absolute clips only"};
  // An additive clip is compressed as its deltas from the decoded base; the metric still measures
  // against the source (runLayout), composing base and delta as the runtime does.
  const std::optional<RawClip> deltas = m_base ? std::optional<RawClip>(additiveDeltas(m_clip, *m_base)) : std::nullopt;
  const RawClip& encoded = deltas ? *deltas : m_clip;
  const auto started = std::chrono::steady_clock::now();
  CompressorContext localContext;
  CompressorContext& ctx = context ? *context : localContext;
  // Root motion: the in-place clip is compressed (and judged for loops), the source is what it is measured against.
  RawClip inPlace;
  std::optional<RootMotionTrack> track;
  if (m_settings.rootMotion == RootMotionMode::Extract) {
    const auto joint = findRootJoint(m_skeleton, m_clip, m_settings.rootJoint);
    if (!joint) return Error{joint.message()};
    track = extractRootMotion(m_skeleton, m_clip, *joint, m_upAxis, inPlace);
  }
  const RawClip& base = track ? inPlace : encoded;
  const RootMotionTrack* motion = track ? &*track : nullptr;
  const std::uint32_t frames = m_clip.frameCount;
  const LoopPolicy policy = m_settings.loop;
  // A clip is closed when its last frame repeats its first within every joint's precision.
  bool closed = false;
  if (policy != LoopPolicy::Off && frames >= 3) {
    std::vector<float> shells(m_clip.jointCount);
    for (std::uint32_t j = 0; j < m_clip.jointCount; ++j) shells[j] = m_settings.joints[j].shellCm;
    const std::vector<float> seam = seamErrors(base, shells);
    closed = true;
    for (std::uint32_t j = 0; j < m_clip.jointCount && closed; ++j)
      closed = seam[j] <= m_settings.joints[j].precisionCm;
    closed = closed && curvesClose(m_curves, m_clip, m_settings.curves);
  }
  if (closed) {
    // Drop the repeated last frame and wrap, if that stays within precision (wrap interval included).
    RawClip shorter = base;
    shorter.frameCount = frames - 1;
    shorter.samples.resize(std::size_t(shorter.frameCount) * m_clip.jointCount);
    auto dropped = runLayout(ctx, shorter, LoopLayout{true, true}, true, started, cancel, motion);
    if (!dropped || dropped->stats.withinPrecision) return dropped;
    return runLayout(ctx, base, LoopLayout{}, true, started, cancel, motion);
  }
  const bool wrap = policy == LoopPolicy::On && frames >= 2;
  return runLayout(ctx, base, LoopLayout{wrap, false}, wrap, started, cancel, motion);
}

std::vector<float> CompressJob::seamErrors(const RawClip& clip, std::span<const float> shells) const {
  // Only the first and the last frame matter: a two-frame clip of them keeps this cheap for long
  // clips (its frames are its keys, in float32 as imported).
  RawClip ends;
  ends.name = clip.name;
  ends.sampleRate = clip.sampleRate;
  ends.frameCount = 2;
  ends.jointCount = clip.jointCount;
  ends.keyedChannels = clip.keyedChannels;
  ends.samples.assign(clip.frame(0).begin(), clip.frame(0).end());
  ends.samples.insert(ends.samples.end(), clip.frame(clip.frameCount - 1).begin(),
                      clip.frame(clip.frameCount - 1).end());
  const ErrorMetric metric(m_skeleton, ends, m_unitToCm, shells);
  return {metric.seamCm().begin(), metric.seamCm().end()};
}

Expected<CompressedClip> CompressJob::runLayout(CompressorContext& ctx, const RawClip& clip, LoopLayout layout,
                                                bool loop, std::chrono::steady_clock::time_point started,
                                                const std::atomic<bool>* cancel,
                                                const RootMotionTrack* rootMotion) const {
  CompressRun::prepare(ctx, m_skeleton, clip, m_clip, layout, m_unitToCm, m_settings, rootMotion, m_base.has_value());
  const std::vector<float> rest = restWeights(m_curves);
  CompressRun run(m_skeleton, clip, m_unitToCm, m_settings, *ctx.state, m_meshes, rest, m_base ? &*m_base : nullptr);
  run.setLoop(loop);
  run.setRootMotion(rootMotion, m_clip);
  run.buildTargets();
  run.applyTolerances();
  run.chooseSegmentLength();
  run.encodePending();
  for (;; run.nextPass()) {
    if (cancel && cancel->load()) return Error{"cancelled"};
    run.pinJoints();
    if (!run.writeAndMeasure()) break;
    run.tighten();
  }
  CompressedClip out = run.finish(started);
  out.additive = m_additive;
  out.base = m_base;
  if (!m_curves.empty()) appendAndCheckCurves(out, rest);
  return out;
}

namespace {

/// The skin is over `bound`: the curves carrying the over-bound vertices' weight errors are held
/// tighter in proportion to how far over their vertices are (0.25 to 0.9 a round); when no curve
/// carries them (the joints' error), every curve as before (docs/COMPRESSION.md "Morph targets").
void tightenCurves(std::span<double> scales, std::span<const double> curveWorst, double bound, double worst) {
  bool any = false;
  for (std::size_t c = 0; c < scales.size(); ++c)
    if (curveWorst[c] > bound) {
      scales[c] *= std::clamp(0.97 * bound / curveWorst[c], 0.25, 0.9);
      any = true;
    }
  if (!any)
    for (double& s : scales) s *= std::clamp(0.97 * bound / worst, 0.25, 0.9);
}

}  // namespace

void CompressJob::appendAndCheckCurves(CompressedClip& out, std::span<const float> rest) const {
  CurveJob curves{m_curves,
                  &m_clip,
                  m_settings.curves,
                  out.frameCount,
                  out.droppedLastFrame,
                  m_base ? &*m_base : nullptr,
                  m_skeleton.restLocal,
                  {}};
  // Errors of several targets and of the joints add up at a vertex: the skin is measured with the
  // curves decoded and, where the skin is held (verifySkin), the curves carrying the over-bound
  // vertices' weight errors are held tighter until it is within 1.5 x the strictest precision
  // (docs/COMPRESSION.md "Morph targets").
  const VertexErrorMetric skin(m_skeleton, m_meshes, m_unitToCm, rest);
  const bool measured = skin.hasMorphs() && !m_base;
  float strictest = std::numeric_limits<float>::infinity();
  for (const EffectiveJoint& j : m_settings.joints) strictest = std::min(strictest, j.precisionCm);
  for (const EffectiveCurve& c : m_settings.curves) strictest = std::min(strictest, c.precisionCm);
  const std::vector<std::uint8_t> joints = out.data;
  std::vector<double> scales(m_curves.size(), 1.0), curveWorst(m_curves.size());
  curves.toleranceScales = scales;
  for (int round = 0;; ++round) {
    out.data = joints;
    out.stats.curves = appendCurves(out.data, curves);
    if (!measured) break;
    const auto view = runtime::ClipView::open(out.data, m_skeleton.restLocal, rest);
    ANIMPACK_ASSERT(view.hasValue(), "the clip with its curves does not open");
    std::fill(curveWorst.begin(), curveWorst.end(), 0.0);
    out.stats.maxVertexErrorCm = measureVertexError(skin, m_skeleton, m_clip, *view, nullptr, curveWorst);
    const double bound = kSkinBoundFactor * strictest;
    if (!m_settings.verifySkin || out.stats.maxVertexErrorCm <= bound || round == 6) break;
    tightenCurves(scales, curveWorst, bound, out.stats.maxVertexErrorCm);
  }
  out.stats.clipBytes = out.data.size();
  out.stats.withinPrecision = out.stats.withinPrecision && out.stats.curves.withinPrecision;
}

}  // namespace animpack::core
