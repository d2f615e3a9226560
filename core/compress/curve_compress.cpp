#include "core/compress/curve_compress.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>

#include "core/base/assert.h"
#include "core/runtime/clip_view.h"
#include "core/io/curve_builder.h"
#include "core/runtime/curves.h"

namespace animpack::core {
namespace {

using runtime::TrackKind;

constexpr int kMaxPasses = 12;
/// Encoders aim below the tolerance by this factor, so float rounding never crosses it.
constexpr double kMargin = 0.98;

/// One curve's storage and its decoded value at each frame.
struct CurveEncoding {
  TrackKind kind = TrackKind::Default;
  float constant = 0;
  float minValue = 0, step = 0;
  std::uint8_t width = 0;
  std::vector<std::uint16_t> keyFrames;
  std::vector<std::uint32_t> keyValues;
  std::vector<std::uint32_t> values;
  std::vector<float> raw;
  std::size_t bytes = 0;
};

double maxDistance(std::span<const double> v, float value) {
  double e = 0;
  for (double x : v) e = std::max(e, std::fabs(x - double(value)));
  return e;
}

/// Keys at source frames, each segment as long as the line between its ends keeps every frame in
/// it within `tolerance`, values quantized to `width` bits over the curve's range.
std::optional<CurveEncoding> encodeKeyedWidth(std::span<const double> v, double tolerance, double lo, double hi,
                                              unsigned width) {
  const std::size_t n = v.size();
  CurveEncoding e;
  e.kind = TrackKind::Keyed;
  e.width = static_cast<std::uint8_t>(width);
  e.minValue = static_cast<float>(lo);
  const double levels = double((1u << width) - 1);
  e.step = static_cast<float>((hi - double(e.minValue)) / levels);
  auto quantize = [&](double x) {
    const double q = e.step > 0 ? std::round((x - double(e.minValue)) / double(e.step)) : 0.0;
    return static_cast<std::uint32_t>(std::clamp(q, 0.0, levels));
  };
  auto decoded = [&](std::size_t f) { return runtime::curveValue(quantize(v[f]), e.minValue, e.step); };
  // As the runtime evaluates a key segment (runtime::curveSegmentValue).
  auto fits = [&](std::size_t a, std::size_t b) {
    const float va = decoded(a), vb = decoded(b), slope = runtime::curveSlope(float(a), float(b), va, vb);
    for (std::size_t f = a; f <= b; ++f)
      if (std::fabs(double(runtime::curveSegmentValue(float(a), va, slope, float(f))) - v[f]) > tolerance) return false;
    return true;
  };
  std::size_t a = 0;
  e.keyFrames.push_back(0);
  while (a + 1 < n) {
    std::size_t b = a + 1;
    if (!fits(a, b)) return std::nullopt;  // the width does not reach the tolerance
    while (b + 1 < n && fits(a, b + 1)) ++b;
    e.keyFrames.push_back(static_cast<std::uint16_t>(b));
    a = b;
  }
  for (std::uint16_t f : e.keyFrames) e.keyValues.push_back(quantize(v[f]));
  e.bytes = runtime::kCurveKeyedParamSize +
            (e.keyFrames.size() * (runtime::curveKeyFrameBits(std::uint32_t(n)) + width) + 7) / 8;
  return e;
}

/// The keyed encoding of the width (from the narrowest that can reach the tolerance, a few wider)
/// that costs the fewest bytes: wider values leave more of the tolerance to the lines between keys.
std::optional<CurveEncoding> encodeKeyed(std::span<const double> v, double tolerance, double lo, double hi) {
  if (v.size() < 2 || v.size() > runtime::kMaxKeyedFrames) return std::nullopt;
  unsigned width = 1;
  while (width < runtime::kMaxCurveKeyBits && (hi - lo) / double((1u << width) - 1) > tolerance) ++width;
  std::optional<CurveEncoding> best;
  for (unsigned w = width; w <= std::min(width + 4, runtime::kMaxCurveKeyBits); ++w)
    if (auto e = encodeKeyedWidth(v, tolerance, lo, hi, w); e && (!best || e->bytes < best->bytes)) best = std::move(e);
  return best;
}

/// A quantized value per frame, in the fewest bits whose step keeps every frame within `tolerance`.
std::optional<CurveEncoding> encodeUniform(std::span<const double> v, double tolerance, double lo, double hi) {
  CurveEncoding e;
  e.kind = TrackKind::Uniform;
  e.minValue = static_cast<float>(lo);
  const double range = hi - double(e.minValue);
  unsigned width = 1;
  while (width <= runtime::kMaxCurveBits && range / double((1u << width) - 1) > 2 * tolerance) ++width;
  for (; width <= runtime::kMaxCurveBits; ++width) {
    e.width = static_cast<std::uint8_t>(width);
    e.step = static_cast<float>(range / double((1u << width) - 1));
    e.values.clear();
    bool ok = true;
    for (double x : v) {
      const double q = e.step > 0 ? std::round((x - double(e.minValue)) / double(e.step)) : 0.0;
      const auto qi = static_cast<std::uint32_t>(std::clamp(q, 0.0, double((1u << width) - 1)));
      e.values.push_back(qi);
      ok = ok && std::fabs(double(runtime::curveValue(qi, e.minValue, e.step)) - x) <= tolerance;
    }
    if (ok) {
      e.bytes = runtime::kCurveUniformParamSize + (v.size() * width + 7) / 8;
      return e;
    }
  }
  return std::nullopt;
}

/// A quantized value per frame on a step of twice `tolerance`, stored as lines between boundaries
/// plus residuals (format version 9); `bytes` is what it costs at the default segment length.
std::optional<CurveEncoding> encodeSegmented(std::span<const double> v, double tolerance, double lo) {
  if (v.size() < 3) return std::nullopt;
  CurveEncoding e;
  e.kind = TrackKind::Segmented;
  e.minValue = static_cast<float>(lo);
  for (double step = 2 * tolerance, tries = 0; tries < 8; step *= 0.97, ++tries) {
    e.step = static_cast<float>(step);
    e.values.clear();
    std::uint32_t top = 0;
    bool ok = e.step > 0;
    for (std::size_t f = 0; ok && f < v.size(); ++f) {
      const double q = std::round((v[f] - double(e.minValue)) / double(e.step));
      ok = q >= 0 && q < double(1u << runtime::kMaxCurveBits);
      const auto qi = static_cast<std::uint32_t>(std::max(q, 0.0));
      e.values.push_back(qi);
      top = std::max(top, qi);
      ok = ok && std::fabs(double(runtime::curveValue(qi, e.minValue, e.step)) - v[f]) <= tolerance;
    }
    if (!ok) continue;
    e.width = static_cast<std::uint8_t>(std::max(1, int(std::bit_width(top))));
    e.bytes = runtime::kCurveSegmentedParamSize +
              (runtime::segmentedCurveBits(e.values, e.width, runtime::kDefaultCurveSegmentShift) + 7) / 8;
    return e;
  }
  return std::nullopt;
}

/// The smallest encoding of one curve (`rest`: what a default track decodes to).
CurveEncoding encodeCurve(std::span<const double> v, double tolerance, float rest) {
  CurveEncoding e;
  if (maxDistance(v, rest) <= tolerance) return e;  // default
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  e.kind = TrackKind::Constant;
  e.constant = static_cast<float>((*lo + *hi) / 2);
  e.bytes = 4;
  if (maxDistance(v, e.constant) <= tolerance) return e;
  e.kind = TrackKind::Raw;
  e.raw.assign(v.begin(), v.end());
  for (std::size_t f = 0; f < v.size(); ++f) e.raw[f] = static_cast<float>(v[f]);
  e.bytes = 4 * v.size();
  for (auto candidate :
       {encodeKeyed(v, tolerance * kMargin, *lo, *hi), encodeUniform(v, tolerance * kMargin, *lo, *hi)})
    if (candidate && candidate->bytes < e.bytes) e = std::move(*candidate);
  return e;
}

runtime::BlockCurve blockCurve(const CurveEncoding& e) {
  runtime::BlockCurve b;
  b.kind = e.kind;
  b.constant = e.constant;
  b.minValue = e.minValue;
  b.step = e.step;
  b.width = e.width;
  b.keyFrames = e.keyFrames;
  b.keyValues = e.keyValues;
  b.values = e.values;
  b.raw = e.raw;
  return b;
}

/// Where a curve is measured between frames: the source's keys strictly between two frames.
struct CurvePoints {
  std::vector<double> frames;  ///< fractional frame of the decoded clip (a dropped last frame: F)
  std::vector<double> values;  ///< the source's (minus the base's for an additive clip)
};

/// Everything appendCurves works on, per curve.
class CurveRun {
 public:
  explicit CurveRun(const CurveJob& job) : m_job(job), m_count(static_cast<std::uint32_t>(job.curves.size())) {}

  void build();
  void encode(std::uint32_t c) {
    m_encodings[c] = encodeCurve(m_targets[c], m_tolerance[c], m_job.base ? 0.f : m_job.curves[c].restWeight);
    m_segmented[c].reset();
    const TrackKind k = m_encodings[c].kind;
    if (k == TrackKind::Keyed || k == TrackKind::Uniform || k == TrackKind::Raw) {
      const double lo = *std::min_element(m_targets[c].begin(), m_targets[c].end());
      m_segmented[c] = encodeSegmented(m_targets[c], m_tolerance[c] * kMargin, lo);
    }
  }
  void chooseSegmented();
  std::vector<std::uint8_t> section() const {
    std::vector<runtime::BlockCurve> blocks;
    for (std::uint32_t c = 0; c < m_count; ++c) blocks.push_back(blockCurve(encoding(c)));
    return runtime::buildCurveSection(m_job.frames, blocks, m_segmentShift);
  }
  /// The encoding the section stores for curve c.
  const CurveEncoding& encoding(std::uint32_t c) const { return m_useSegmented[c] ? *m_segmented[c] : m_encodings[c]; }
  /// Measures the clip block's curves; true when some curve that can still tighten is over.
  bool measure(const std::vector<std::uint8_t>& block, CurveReport& report);
  std::uint32_t count() const { return m_count; }

 private:
  double precision(std::uint32_t c) const {
    return c < m_job.settings.size() ? m_job.settings[c].precisionCm : kDefaultPrecisionCm;
  }

  const CurveJob& m_job;
  const std::uint32_t m_count;
  std::vector<std::vector<double>> m_targets;       // per curve, per frame
  std::vector<CurvePoints> m_points;                // per curve, its source keys between frames
  std::vector<std::vector<double>> m_sourceFrames;  // per curve, the source at every source frame
  std::vector<double> m_tolerance, m_startTolerance;
  std::vector<CurveEncoding> m_encodings;
  std::vector<std::optional<CurveEncoding>> m_segmented;  // per curve, its segmented candidate
  std::vector<bool> m_useSegmented;
  unsigned m_segmentShift = runtime::kDefaultCurveSegmentShift;
};

/// Which curves the section stores segmented, and at which segment length: the one that saves the
/// most bytes over each curve's other encoding, the segmented part's own bytes paid. Segmented
/// curves decode slower than uniform and keyed ones (a line and a residual a frame), so a clip takes
/// them only where they save at least an eighth of its curve bytes (docs/PERFORMANCE.md "Capture
/// curves").
void CurveRun::chooseSegmented() {
  m_useSegmented.assign(m_count, false);
  std::int64_t section = 0;
  for (const CurveEncoding& e : m_encodings) section += std::int64_t(e.bytes);
  std::int64_t bestSaving = section / 8;
  for (unsigned shift : {3u, 4u, 5u}) {  // 8, 16 or 32 frames
    const std::uint32_t segments = runtime::curveSegmentCount(m_job.frames, shift);
    std::int64_t saving =
        -std::int64_t(runtime::SegmentedCurvesLayout::size + 4 * (segments + 1) + runtime::kBitPadding + 3);
    std::vector<bool> use(m_count, false);
    for (std::uint32_t c = 0; c < m_count; ++c) {
      if (!m_segmented[c]) continue;
      const CurveEncoding& e = *m_segmented[c];
      const auto bytes = std::int64_t(runtime::kCurveSegmentedParamSize) +
                         std::int64_t((runtime::segmentedCurveBits(e.values, e.width, shift) + 7) / 8);
      if (bytes >= std::int64_t(m_encodings[c].bytes)) continue;
      use[c] = true;
      saving += std::int64_t(m_encodings[c].bytes) - bytes;
    }
    if (saving > bestSaving) {
      bestSaving = saving;
      m_useSegmented = use;
      m_segmentShift = shift;
    }
  }
}

void CurveRun::build() {
  const RawClip& clip = *m_job.clip;
  m_targets.assign(m_count, std::vector<double>(m_job.frames));
  m_points.assign(m_count, {});
  m_tolerance.assign(m_count, 0);
  m_encodings.assign(m_count, {});
  m_segmented.assign(m_count, std::nullopt);
  m_useSegmented.assign(m_count, false);
  m_sourceFrames.assign(m_count, {});
  const std::uint32_t sourceFrames = m_job.frames + (m_job.dropLast ? 1 : 0);
  std::vector<float> base(m_count, 0.f);
  for (std::uint32_t f = 0; f < sourceFrames; ++f) {
    const double seconds = double(f) / clip.sampleRate;
    if (m_job.base) m_job.base->sampleCurves(static_cast<float>(seconds), base);
    for (std::uint32_t c = 0; c < m_count; ++c) {
      const double v = sourceWeight(clip, c, m_job.curves[c].restWeight, seconds) - base[c];
      if (f < m_job.frames) m_targets[c][f] = v;
      m_sourceFrames[c].push_back(v);
    }
  }
  for (std::uint32_t c = 0; c < m_count; ++c) {
    const double d = m_job.curves[c].displacementCm;
    const double scale = c < m_job.toleranceScales.size() ? m_job.toleranceScales[c] : 1.0;
    m_tolerance[c] = d > 0 ? scale * precision(c) / d : std::numeric_limits<double>::infinity();
    for (const CurveKeys& keys : clip.curves) {
      if (keys.curve != c) continue;
      for (double t : keys.times) {
        const double frame = t * clip.sampleRate;
        if (std::fabs(frame - std::round(frame)) < 1e-6 || frame <= 0 || frame >= sourceFrames - 1) continue;
        if (m_job.base) m_job.base->sampleCurves(static_cast<float>(t), base);
        m_points[c].frames.push_back(frame);
        m_points[c].values.push_back(sourceWeight(clip, c, m_job.curves[c].restWeight, t) - base[c]);
      }
    }
  }
  m_startTolerance = m_tolerance;
}

bool CurveRun::measure(const std::vector<std::uint8_t>& block, CurveReport& report) {
  std::vector<float> rest(m_count), weights(m_count);
  for (std::uint32_t c = 0; c < m_count; ++c) rest[c] = m_job.curves[c].restWeight;
  const auto view = runtime::ClipView::open(block, m_job.restPose, rest);
  ANIMPACK_ASSERT(view.hasValue(), "the clip with its curves does not open");
  std::vector<double> worst(m_count, 0), worstFrame(m_count, 0);
  auto note = [&](std::uint32_t c, double frame, double value) {
    const double e = std::fabs(double(weights[c]) - value);
    if (e > worst[c]) worstFrame[c] = frame;
    worst[c] = std::max(worst[c], e);
  };
  // Every frame (a dropped last frame decodes as frame 0), then each curve's keys between frames.
  for (std::size_t f = 0; f < m_sourceFrames.front().size(); ++f) {
    runtime::sampleCurvesAtFrame(*view, static_cast<float>(f), weights);
    for (std::uint32_t c = 0; c < m_count; ++c) note(c, double(f), m_sourceFrames[c][f]);
  }
  for (std::uint32_t c = 0; c < m_count; ++c)
    for (std::size_t k = 0; k < m_points[c].frames.size(); ++k) {
      runtime::sampleCurvesAtFrame(*view, static_cast<float>(m_points[c].frames[k]), weights);
      note(c, m_points[c].frames[k], m_points[c].values[k]);
    }
  report.curves.assign(m_count, {});
  report.worstCurve = -1;
  report.maxMorphErrorCm = 0;
  bool tighten = false;
  for (std::uint32_t c = 0; c < m_count; ++c) {
    CurveReport::Curve& r = report.curves[c];
    r.kind = encoding(c).kind;
    r.keys = static_cast<std::uint32_t>(encoding(c).keyFrames.size());
    r.precisionCm = static_cast<float>(precision(c));
    r.maxErrorCm = static_cast<float>(worst[c] * m_job.curves[c].displacementCm);
    r.withinPrecision = double(r.maxErrorCm) <= precision(c) * 1.0001;
    if (report.worstCurve < 0 || r.maxErrorCm > report.maxMorphErrorCm) {
      report.maxMorphErrorCm = r.maxErrorCm;
      report.worstCurve = static_cast<std::int32_t>(c);
      report.worstTimeS = worstFrame[c] / m_job.clip->sampleRate;
    }
    if (!r.withinPrecision && r.kind != TrackKind::Raw && m_tolerance[c] > m_startTolerance[c] * 1e-3) {
      m_tolerance[c] /= 2;
      encode(c);
      tighten = true;
    }
  }
  return tighten;
}

}  // namespace

bool curvesClose(std::span<const MorphCurve> curves, const RawClip& clip, std::span<const EffectiveCurve> settings) {
  if (clip.frameCount < 2) return true;
  const double last = clip.duration();
  for (std::uint32_t c = 0; c < curves.size(); ++c) {
    const double precision = c < settings.size() ? settings[c].precisionCm : kDefaultPrecisionCm;
    const double jump =
        std::fabs(sourceWeight(clip, c, curves[c].restWeight, last) - sourceWeight(clip, c, curves[c].restWeight, 0.0));
    // Half the precision: frame 0 stands in for the dropped frame and keeps its own error.
    if (jump * curves[c].displacementCm > precision / 2) return false;
  }
  return true;
}

CurveReport appendCurves(std::vector<std::uint8_t>& block, const CurveJob& job) {
  CurveReport report;
  if (job.curves.empty()) return report;
  for (const MorphCurve& c : job.curves) report.names.push_back(c.name);
  CurveRun run(job);
  run.build();
  for (std::uint32_t c = 0; c < run.count(); ++c) run.encode(c);
  const std::vector<std::uint8_t> jointPart = block;
  for (int pass = 0;; ++pass) {
    block = jointPart;
    run.chooseSegmented();
    const std::vector<std::uint8_t> section = run.section();
    runtime::appendCurveSection(block, section);
    report.bytes = section.size();
    if (!run.measure(block, report) || pass + 1 == kMaxPasses) break;
  }
  for (const CurveReport::Curve& c : report.curves) {
    report.withinPrecision = report.withinPrecision && c.withinPrecision;
    report.keys += c.keys;
    switch (c.kind) {
      case TrackKind::Default: ++report.defaultCurves; break;
      case TrackKind::Constant: ++report.constantCurves; break;
      case TrackKind::Keyed: ++report.keyedCurves; break;
      case TrackKind::Uniform: ++report.uniformCurves; break;
      case TrackKind::Segmented: ++report.segmentedCurves; break;
      default: ++report.rawCurves; break;
    }
  }
  return report;
}

}  // namespace animpack::core
