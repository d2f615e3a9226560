#include "core/compress/track_encoding.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/compress/bit_writer.h"
#include "core/runtime/quantize.h"
#include "core/runtime/timed.h"
#include "core/runtime/track_math.h"

namespace animpack::core {
namespace {

Quat toQuat(const Sample& s) { return {s[0], s[1], s[2], s[3]}; }
Sample fromQuat(const Quat& q) { return {q.x, q.y, q.z, q.w}; }

double maxDistance(const TrackTarget& t, const Sample& value) {
  double worst = 0;
  for (const Sample& s : t.samples) worst = std::max(worst, sampleDistance(t.channel, s, value));
  return worst;
}

/// Sign-aligned mean of a rotation track, normalised.
Quat meanRotation(std::span<const Sample> samples) {
  double sum[4] = {0, 0, 0, 0};
  const Sample& first = samples.front();
  for (const Sample& s : samples) {
    const double d =
        double(s[0]) * first[0] + double(s[1]) * first[1] + double(s[2]) * first[2] + double(s[3]) * first[3];
    const double sign = d < 0 ? -1.0 : 1.0;
    for (int c = 0; c < 4; ++c) sum[c] += sign * s[c];
  }
  const double n = std::sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2] + sum[3] * sum[3]);
  if (!(n > 0)) return toQuat(first);
  return runtime::normalized({float(sum[0] / n), float(sum[1] / n), float(sum[2] / n), float(sum[3] / n)});
}

Sample alignTo(const Sample& v, const Sample& previous) {
  const float d = v[0] * previous[0] + v[1] * previous[1] + v[2] * previous[2] + v[3] * previous[3];
  return d < 0.f ? Sample{-v[0], -v[1], -v[2], -v[3]} : v;
}

}  // namespace

Sample sampleOf(const Transform& t, Channel channel) {
  switch (channel) {
    case Channel::Rotation: return fromQuat(t.rotation);
    case Channel::Translation: return {t.translation.x, t.translation.y, t.translation.z, 0.f};
    case Channel::Scale: return {t.scale.x, t.scale.y, t.scale.z, 0.f};
  }
  return {};
}

void setSample(Transform& t, Channel channel, const Sample& s) {
  switch (channel) {
    case Channel::Rotation: t.rotation = toQuat(s); break;
    case Channel::Translation: t.translation = {s[0], s[1], s[2]}; break;
    case Channel::Scale: t.scale = {s[0], s[1], s[2]}; break;
  }
}

double sampleDistance(Channel channel, const Sample& a, const Sample& b) {
  if (channel == Channel::Rotation) {
    const double d = double(a[0]) * b[0] + double(a[1]) * b[1] + double(a[2]) * b[2] + double(a[3]) * b[3];
    const double sign = d < 0 ? -1.0 : 1.0;
    double sq = 0;
    for (int c = 0; c < 4; ++c) {
      const double e = double(a[c]) - sign * b[c];
      sq += e * e;
    }
    // |q1 - q2| = 2 sin(angle / 4) for unit quaternions on the same side: accurate for tiny angles.
    return 4.0 * std::asin(std::min(1.0, std::sqrt(sq) / 2.0));
  }
  if (channel == Channel::Translation) {
    double sq = 0;
    for (int c = 0; c < 3; ++c) sq += (double(a[c]) - b[c]) * (double(a[c]) - b[c]);
    return std::sqrt(sq);
  }
  double worst = 0;
  for (int c = 0; c < 3; ++c) worst = std::max(worst, std::fabs(double(a[c]) - b[c]));
  return worst;
}

std::optional<TrackEncoding> encodeStatic(const TrackTarget& target, RotationFormat format) {
  TrackEncoding e;
  if (maxDistance(target, target.rest) <= target.tolerance) {
    e.kind = TrackKind::Default;
    e.constant = target.rest;
    e.maxError = maxDistance(target, target.rest);
    return e;
  }
  if (target.channel == Channel::Rotation) {
    const Quat mean = meanRotation(target.samples);
    if (format == RotationFormat::Q32) {
      const Sample v = fromQuat(runtime::unpackQuat32(runtime::packQuat32(mean)));
      if (maxDistance(target, v) <= target.tolerance) {
        e.kind = TrackKind::ConstantQ32;
        e.constant = v;
        e.bytes = 4;
      }
    }
    if (e.bytes == 0) {
      std::uint16_t packed[3];
      runtime::packQuat48(mean, packed);
      const Sample v = fromQuat(runtime::unpackQuat48(packed));
      if (maxDistance(target, v) <= target.tolerance) {
        e.kind = TrackKind::Constant;
        e.constant = v;
        e.bytes = 6;
      }
    }
    if (e.bytes == 0) {
      const Sample v = fromQuat(mean);
      if (maxDistance(target, v) > target.tolerance) return std::nullopt;
      e.kind = TrackKind::ConstantFloat;
      e.constant = v;
      e.bytes = 16;
    }
  } else {
    Sample lo = target.samples.front(), hi = target.samples.front();
    for (const Sample& s : target.samples)
      for (int c = 0; c < 3; ++c) {
        lo[c] = std::min(lo[c], s[c]);
        hi[c] = std::max(hi[c], s[c]);
      }
    Sample mid{};
    for (int c = 0; c < 3; ++c) mid[c] = lo[c] + (hi[c] - lo[c]) * 0.5f;
    if (maxDistance(target, mid) > target.tolerance) return std::nullopt;
    e.kind = TrackKind::Constant;
    e.constant = mid;
    e.bytes = 12;
  }
  e.maxError = maxDistance(target, e.constant);
  return e;
}

TrackEncoding encodeRaw(const TrackTarget& target) {
  TrackEncoding e;
  e.kind = TrackKind::Raw;
  e.decoded.assign(target.samples.begin(), target.samples.end());
  e.bytes = target.samples.size() * (target.channel == Channel::Rotation ? 16 : 12);
  e.maxError = 0;
  return e;
}

std::size_t uniformParamBytes(const UniformEncoding& u) {
  return runtime::kUniformParamSize + (u.hasReference ? runtime::kUniformRefSize : 0) + (u.components == 4 ? 4 : 0);
}

namespace {

/// Quantizes parameter values `x` (components per frame) on boundaries every `segmentLength`
/// frames plus per-frame residuals, and returns the decoded parameter values through `decoded`.
std::optional<TrackEncoding> encodeUniformValues(const std::vector<std::array<float, 4>>& x, unsigned components,
                                                 float step, std::uint32_t segmentLength,
                                                 std::span<const std::uint8_t> shifts,
                                                 std::vector<std::array<float, 4>>& decoded) {
  const std::uint32_t frames = static_cast<std::uint32_t>(x.size());
  const std::uint32_t segments = runtime::uniformSegmentCount(frames, segmentLength);
  TrackEncoding e;
  e.kind = TrackKind::Uniform;
  UniformEncoding& u = e.uniform;
  u.components = static_cast<std::uint8_t>(components);
  u.step = step;
  if (!(u.step > 0.f) || !std::isfinite(u.step)) return std::nullopt;

  auto boundaryFrame = [&](std::uint32_t k) { return k >= segments ? frames - 1 : k * segmentLength; };
  u.boundaries.assign(segments + 1, {0, 0, 0, 0});
  for (unsigned c = 0; c < components; ++c) {
    float lo = std::numeric_limits<float>::max();
    for (std::uint32_t k = 0; k <= segments; ++k) lo = std::min(lo, x[boundaryFrame(k)][c]);
    u.minValue[c] = lo;
    std::uint64_t maxQ = 0;
    for (std::uint32_t k = 0; k <= segments; ++k) {
      const double q = std::llround((double(x[boundaryFrame(k)][c]) - lo) / u.step);
      if (!(q >= 0) || q > 4294967295.0) return std::nullopt;
      u.boundaries[k][c] = static_cast<std::uint32_t>(q);
      maxQ = std::max<std::uint64_t>(maxQ, static_cast<std::uint64_t>(q));
    }
    u.width[c] = static_cast<std::uint8_t>(bitsForUnsigned(maxQ));
  }

  u.shifts.assign(segments, 0);
  for (std::uint32_t k = 0; k < segments && k < shifts.size(); ++k)
    u.shifts[k] = std::min<std::uint8_t>(shifts[k], runtime::kMaxResidualShift);
  u.bits.assign(segments, {0, 0, 0, 0});
  u.residuals.assign(frames, {0, 0, 0, 0});
  decoded.assign(frames, {0.f, 0.f, 0.f, 0.f});
  for (std::uint32_t f = 0; f < frames; ++f) {
    const std::uint32_t k = std::min(f / segmentLength, segments - 1);
    const std::uint32_t row[4] = {k == 0 ? k : k - 1, k, k + 1, k + 2 <= segments ? k + 2 : k + 1};
    float w[4];
    runtime::catmullRomWeights(float(boundaryFrame(row[0])), float(boundaryFrame(row[1])), float(boundaryFrame(row[2])),
                               float(boundaryFrame(row[3])), float(f), w);
    const float scale = runtime::residualScale(u.shifts[k]);
    for (unsigned c = 0; c < components; ++c) {
      const std::uint32_t q[4] = {u.boundaries[row[0]][c], u.boundaries[row[1]][c], u.boundaries[row[2]][c],
                                  u.boundaries[row[3]][c]};
      const float spline = runtime::uniformSpline(w, q, u.minValue[c], u.step);
      const double rq = std::round((double(x[f][c]) - spline) / (double(u.step) * scale));
      if (!(std::fabs(rq) < double(1 << 29))) return std::nullopt;
      const std::int32_t r = static_cast<std::int32_t>(rq);
      u.residuals[f][c] = r;
      u.bits[k][c] = std::max<std::uint8_t>(u.bits[k][c], static_cast<std::uint8_t>(bitsForSigned(r)));
      decoded[f][c] = runtime::uniformValue(spline, static_cast<float>(r) * scale, u.step);
    }
  }
  std::uint64_t residualBits = 0;
  for (std::uint32_t k = 0; k < segments; ++k) {
    const std::uint32_t count = k + 1 == segments ? frames - k * segmentLength : segmentLength;
    residualBits += std::uint64_t(count) * (u.bits[k][0] + u.bits[k][1] + u.bits[k][2] + u.bits[k][3]);
    for (unsigned c = 0; c < components; ++c) e.wide = e.wide || u.bits[k][c] > 16;
  }
  for (unsigned c = 0; c < components; ++c) e.wide = e.wide || u.width[c] > 16;
  const std::uint64_t boundaryBits = std::uint64_t(segments + 1) * (u.width[0] + u.width[1] + u.width[2] + u.width[3]);
  e.bytes = uniformParamBytes(u) + (boundaryBits + 7) / 8 +
            std::size_t(segments) * runtime::kSegmentHeaderBytesPerTrack + (residualBits + 7) / 8;
  return e;
}

}  // namespace

std::optional<TrackEncoding> encodeUniform(const TrackTarget& target, std::uint32_t segmentLength,
                                           std::span<const std::uint8_t> shifts) {
  const std::size_t n = target.samples.size();
  if (n < 2 || segmentLength == 0) return std::nullopt;
  std::vector<std::array<float, 4>> x(n), decoded;
  std::optional<TrackEncoding> best;
  auto finish = [&](std::optional<TrackEncoding> e, auto toSample) {
    if (!e) return;
    e->decoded.resize(n);
    for (std::size_t f = 0; f < n; ++f) {
      e->decoded[f] = toSample(decoded[f]);
      e->maxError = std::max(e->maxError, sampleDistance(target.channel, e->decoded[f], target.samples[f]));
    }
    if (!best || e->bytes < best->bytes) best = std::move(e);
  };

  if (target.channel != Channel::Rotation) {
    for (std::size_t f = 0; f < n; ++f) x[f] = {target.samples[f][0], target.samples[f][1], target.samples[f][2], 0.f};
    const double step =
        target.channel == Channel::Translation ? 2.0 * target.tolerance / std::sqrt(3.0) : 2.0 * target.tolerance;
    finish(encodeUniformValues(x, 3, static_cast<float>(step), segmentLength, shifts, decoded),
           [](const std::array<float, 4>& v) {
             return Sample{v[0], v[1], v[2], 0.f};
           });
    return best;
  }

  // Rotations: x, y, z of a quaternion with w >= 0 (relative to a reference when the track swings
  // too far from identity), or all four components when it turns half a turn or more.
  auto relative = [&](bool useReference, const Quat& reference, float& wMin) {
    float lo = std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::lowest();
    std::vector<Quat> rel(n);
    for (std::size_t f = 0; f < n; ++f) {
      const Quat q = toQuat(target.samples[f]);
      rel[f] = useReference ? runtime::normalized(runtime::conjugate(reference) * q) : q;
      lo = std::min(lo, rel[f].w);
      hi = std::max(hi, rel[f].w);
    }
    // The track is sign-continuous: if w changes sign it passes half a turn from the reference.
    if (lo < 0.f && hi > 0.f) {
      wMin = 0.f;
      return rel;
    }
    const bool flip = hi <= 0.f;
    wMin = flip ? -hi : lo;
    if (flip)
      for (Quat& q : rel) q = runtime::negated(q);
    return rel;
  };
  float wMin = 0.f;
  bool hasReference = false;
  Quat reference;
  std::vector<Quat> rel = relative(false, Quat{}, wMin);
  if (wMin < 0.5f) {
    reference = meanRotation(target.samples);
    float wRef = 0.f;
    std::vector<Quat> relRef = relative(true, reference, wRef);
    if (wRef > wMin) {
      hasReference = true;
      rel = std::move(relRef);
      wMin = wRef;
    }
  }
  if (wMin >= 0.05f) {
    for (std::size_t f = 0; f < n; ++f) x[f] = {rel[f].x, rel[f].y, rel[f].z, 0.f};
    // angle error <= 2 |dxyz| / w and |dxyz| <= sqrt(3) * step / 2.
    auto e = encodeUniformValues(x, 3, static_cast<float>(target.tolerance * wMin / std::sqrt(3.0)), segmentLength,
                                 shifts, decoded);
    if (e) {
      e->uniform.hasReference = hasReference;
      e->uniform.reference = reference;
      if (hasReference) e->bytes += runtime::kUniformRefSize;
    }
    finish(std::move(e), [&](const std::array<float, 4>& v) {
      return fromQuat(runtime::uniformRotation(v.data(), hasReference, reference));
    });
  }
  if (wMin < 0.5f) {
    // angle error <= 2 |dq| and |dq| <= sqrt(4) * step / 2.
    for (std::size_t f = 0; f < n; ++f) x[f] = target.samples[f];
    finish(encodeUniformValues(x, 4, static_cast<float>(target.tolerance / 2.0), segmentLength, shifts, decoded),
           [](const std::array<float, 4>& v) {
             return fromQuat(runtime::normalized({v[0], v[1], v[2], v[3]}));
           });
  }
  return best;
}

/// Every frame's value as a key would store it (48-bit rotations, or 16-bit components over the
/// track's range, which it sets in `k`), and the value it decodes to.
static void quantizeKeys(const TrackTarget& target, KeyedEncoding& k,
                         std::vector<std::array<std::uint16_t, 3>>& payload, std::vector<Sample>& quantized) {
  const std::size_t n = target.samples.size();
  if (target.channel == Channel::Rotation) {
    for (std::size_t f = 0; f < n; ++f) {
      runtime::packQuat48(toQuat(target.samples[f]), payload[f].data());
      quantized[f] = fromQuat(runtime::unpackQuat48(payload[f].data()));
    }
    return;
  }
  for (int c = 0; c < 3; ++c) {
    float lo = target.samples[0][std::size_t(c)], hi = lo;
    for (const Sample& s : target.samples) {
      lo = std::min(lo, s[std::size_t(c)]);
      hi = std::max(hi, s[std::size_t(c)]);
    }
    k.rangeMin[c] = lo;
    k.rangeExtent[c] = hi - lo;
  }
  for (std::size_t f = 0; f < n; ++f) {
    for (int c = 0; c < 3; ++c) {
      payload[f][std::size_t(c)] =
          runtime::packUnorm16(target.samples[f][std::size_t(c)], k.rangeMin[c], k.rangeExtent[c]);
      quantized[f][std::size_t(c)] =
          runtime::unpackUnorm16(payload[f][std::size_t(c)], k.rangeMin[c], k.rangeExtent[c]);
    }
    quantized[f][3] = 0.f;
  }
}

namespace {

/// The first and last frame of `n`, with keys halving every gap above `maxGap` (the largest gap
/// bounds how far back a seek has to replay).
std::vector<std::uint32_t> gapKeys(std::size_t n, std::uint32_t maxGap) {
  std::vector<std::uint32_t> keys{0, static_cast<std::uint32_t>(n - 1)};
  for (std::size_t i = 0; i + 1 < keys.size();) {
    if (keys[i + 1] - keys[i] > maxGap)
      keys.insert(keys.begin() + std::ptrdiff_t(i) + 1, keys[i] + (keys[i + 1] - keys[i]) / 2);
    else ++i;
  }
  return keys;
}

}  // namespace

std::optional<TrackEncoding> encodeKeyed(const TrackTarget& target, std::uint32_t maxGap, std::size_t budgetBytes) {
  const std::size_t n = target.samples.size();
  if (n < 2 || n > runtime::kMaxKeyedFrames) return std::nullopt;
  const bool rotation = target.channel == Channel::Rotation;
  const std::size_t paramBytes = rotation ? runtime::kKeyedRotationParamSize : runtime::kKeyedVectorParamSize;
  if (paramBytes + 2 * runtime::kKeySize > budgetBytes) return std::nullopt;
  TrackEncoding e;
  e.kind = TrackKind::Keyed;
  KeyedEncoding& k = e.keyed;

  // Every frame's value as a key would store it.
  std::vector<std::array<std::uint16_t, 3>> payload(n);
  std::vector<Sample> quantized(n);
  quantizeKeys(target, k, payload, quantized);

  std::vector<std::uint32_t> keys = gapKeys(n, maxGap);

  // Decodes frame f of segment a exactly as the Player's window does.
  auto evaluate = [&](std::size_t a, std::uint32_t f) {
    const std::size_t i0 = a > 0 ? a - 1 : a;
    const std::size_t i3 = a + 2 < keys.size() ? a + 2 : a + 1;
    const std::size_t idx[4] = {i0, a, a + 1, i3};
    float times[4];
    float values[4][4];
    for (int i = 0; i < 4; ++i) {
      times[i] = static_cast<float>(keys[idx[i]]);
      Sample v = quantized[keys[idx[i]]];
      if (rotation && i > 0)
        v = alignTo(v, Sample{values[i - 1][0], values[i - 1][1], values[i - 1][2], values[i - 1][3]});
      std::copy(v.begin(), v.end(), values[i]);
    }
    float out[4];
    if (f == keys[a]) std::copy(values[1], values[1] + 4, out);
    else runtime::keyedSpline(times, values, 0, 1, 2, 3, static_cast<float>(f), out);
    if (rotation) return fromQuat(runtime::canonicalSign(runtime::normalized({out[0], out[1], out[2], out[3]})));
    return Sample{out[0], out[1], out[2], 0.f};
  };
  struct SegmentError {
    double error = 0;
    std::uint32_t frame = 0;
  };
  auto measure = [&](std::size_t a) {
    SegmentError s;
    for (std::uint32_t f = keys[a] + 1; f < keys[a + 1]; ++f) {
      const double d = sampleDistance(target.channel, evaluate(a, f), target.samples[f]);
      if (d > s.error) s = {d, f};
    }
    return s;
  };
  // Keys themselves carry only quantization error: if that is too much, keys cannot work.
  for (std::size_t f = 0; f < n; ++f)
    if (sampleDistance(target.channel, quantized[f], target.samples[f]) > target.tolerance) return std::nullopt;

  std::vector<SegmentError> errors(keys.size() - 1);
  for (std::size_t a = 0; a + 1 < keys.size(); ++a) errors[a] = measure(a);
  for (;;) {
    std::size_t worst = 0;
    for (std::size_t a = 1; a < errors.size(); ++a)
      if (errors[a].error > errors[worst].error) worst = a;
    if (errors[worst].error <= target.tolerance) break;
    if (paramBytes + (keys.size() + 1) * runtime::kKeySize > budgetBytes) return std::nullopt;
    // Insert at the worst sample; the windows of up to four segments around it change.
    const std::size_t at = worst + 1;
    keys.insert(keys.begin() + std::ptrdiff_t(at), errors[worst].frame);
    errors.insert(errors.begin() + std::ptrdiff_t(at), SegmentError{});
    const std::size_t from = at >= 2 ? at - 2 : 0;
    const std::size_t to = std::min(errors.size() - 1, at + 1);
    for (std::size_t a = from; a <= to; ++a) errors[a] = measure(a);
  }

  k.frames.reserve(keys.size());
  k.payload.reserve(keys.size());
  for (std::uint32_t f : keys) {
    k.frames.push_back(static_cast<std::uint16_t>(f));
    k.payload.push_back(payload[f]);
  }
  e.decoded.resize(n);
  for (std::size_t a = 0; a + 1 < keys.size(); ++a)
    for (std::uint32_t f = keys[a]; f < keys[a + 1]; ++f) e.decoded[f] = evaluate(a, f);
  e.decoded[n - 1] = rotation ? fromQuat(runtime::canonicalSign(toQuat(quantized[n - 1]))) : quantized[n - 1];
  for (std::size_t f = 0; f < n; ++f)
    e.maxError = std::max(e.maxError, sampleDistance(target.channel, e.decoded[f], target.samples[f]));
  e.bytes = paramBytes + keys.size() * runtime::kKeySize;
  return e;
}

Sample timedValue(Channel channel, const Sample& a, const Sample& b, float u) {
  if (channel == Channel::Rotation) return fromQuat(runtime::timedBetween(toQuat(a), toQuat(b), u));
  const runtime::Vec3 v = runtime::timedBetween(runtime::Vec3{a[0], a[1], a[2]}, runtime::Vec3{b[0], b[1], b[2]}, u);
  return {v.x, v.y, v.z, 0.f};
}

namespace {

/// Timed keys at `ticks` with `values`, quantized or float32, reduced within the tolerance left after
/// their rounding; nothing when that rounding alone exceeds the tolerance (above 0).
std::optional<TrackEncoding> timedWith(const TrackTarget& target, std::span<const std::uint32_t> ticks,
                                       std::span<const Sample> values, bool floats) {
  TrackEncoding e;
  e.kind = TrackKind::Timed;
  e.keyed.timedFormat = floats ? runtime::kTimedFloat : runtime::kTimedQuantized;
  std::vector<std::array<std::uint16_t, 3>> payload(values.size());
  std::vector<Sample> decoded(values.begin(), values.end());
  if (!floats) quantizeKeys({target.channel, values, target.rest, target.tolerance}, e.keyed, payload, decoded);
  double quantization = 0;
  for (std::size_t i = 0; i < values.size(); ++i)
    quantization = std::max(quantization, sampleDistance(target.channel, values[i], decoded[i]));
  if (target.tolerance > 0 && quantization > target.tolerance) return std::nullopt;
  for (const std::uint32_t i : reduceTimed(target.channel, ticks, values, decoded, target.tolerance - quantization)) {
    e.keyed.times.push_back(ticks[i]);
    (floats ? e.keyed.values.push_back(values[i]) : e.keyed.payload.push_back(payload[i]));
    decoded[e.keyed.times.size() - 1] = decoded[i];
  }
  decoded.resize(e.keyed.times.size());
  const auto timeOf = [&](std::uint32_t k) { return e.keyed.times[k]; };
  e.decoded.resize(target.samples.size());
  for (std::size_t f = 0; f < target.samples.size(); ++f) {
    std::uint32_t k = 0;
    float u = 0.f;
    runtime::timedSegment(timeOf, static_cast<std::uint32_t>(e.keyed.times.size()), double(f), k, u);
    e.decoded[f] = timedValue(target.channel, decoded[k], decoded[k + 1], u);
    e.maxError = std::max(e.maxError, sampleDistance(target.channel, target.samples[f], e.decoded[f]));
  }
  e.bytes = runtime::timedParamSize(target.channel, e.keyed.timedFormat) +
            e.keyed.times.size() * runtime::timedKeySize(target.channel, e.keyed.timedFormat);
  return e;
}

}  // namespace

std::optional<TrackEncoding> encodeTimed(const TrackTarget& target, const TimedSource& source) {
  // Key times in 1/65536 frames, strictly increasing: a key at the time of the one before it (a
  // jump) a tick later.
  std::vector<std::uint32_t> ticks;
  std::vector<Sample> values;
  const auto end = static_cast<std::uint32_t>((target.samples.size() - 1) * runtime::kTimedTicksPerFrame);
  for (std::size_t i = 0; i < source.frames.size(); ++i) {
    auto t = static_cast<std::uint32_t>(std::llround(source.frames[i] * runtime::kTimedTicksPerFrame));
    if (!ticks.empty() && t <= ticks.back()) t = ticks.back() + 1;
    if (t > end || (t == end && i + 1 < source.frames.size())) continue;
    ticks.push_back(t);
    values.push_back(source.values[i]);
  }
  if (ticks.size() < 2 || ticks.front() != 0 || ticks.back() != end) return std::nullopt;
  std::optional<TrackEncoding> floats = timedWith(target, ticks, values, true);
  if (target.tolerance <= 0) return floats;
  std::optional<TrackEncoding> best = std::move(floats);
  for (auto candidate : {timedWith(target, ticks, values, false), encodePackedTimed(target, ticks, values)})
    if (candidate && (!best || candidate->bytes <= best->bytes)) best = std::move(candidate);
  return best;
}

}  // namespace animpack::core
