// Timed keys thinned (Douglas-Peucker) and packed into bit fields (format version 10,
// core/runtime/FORMAT.md "Packed timed keys"): what a source keyed at its own times costs when its
// times are stored in a coarser unit and its values at the step the tolerance allows.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "core/compress/track_encoding.h"
#include "core/runtime/timed.h"

namespace animpack::core {

std::vector<std::uint32_t> reduceTimed(Channel channel, std::span<const std::uint32_t> ticks,
                                       std::span<const Sample> values, std::span<const Sample> decoded,
                                       double tolerance) {
  const std::uint32_t n = static_cast<std::uint32_t>(ticks.size());
  std::vector<bool> keep(n, tolerance <= 0);
  keep.front() = keep.back() = true;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> spans;
  if (tolerance > 0) spans.push_back({0, n - 1});
  while (!spans.empty()) {
    const auto [a, b] = spans.back();
    spans.pop_back();
    double worst = 0;
    std::uint32_t at = 0;
    for (std::uint32_t i = a + 1; i < b; ++i) {
      const float u = float(double(ticks[i] - ticks[a]) / double(ticks[b] - ticks[a]));
      const double e = sampleDistance(channel, values[i], timedValue(channel, decoded[a], decoded[b], u));
      if (e > worst) worst = e, at = i;
    }
    if (worst <= tolerance) continue;
    keep[at] = true;
    spans.push_back({a, at});
    spans.push_back({at, b});
  }
  std::vector<std::uint32_t> kept;
  for (std::uint32_t i = 0; i < n; ++i)
    if (keep[i]) kept.push_back(i);
  return kept;
}

namespace {

/// Keys on times rounded to multiples of 2^shift ticks, each the source's value there (the line
/// between its keys, as the runtime interpolates).
struct Resampled {
  std::vector<std::uint32_t> ticks;
  std::vector<Sample> values;
};

/// Nothing when two keys round to one time.
std::optional<Resampled> resample(Channel channel, std::span<const std::uint32_t> ticks, std::span<const Sample> values,
                                  unsigned shift) {
  Resampled out;
  const std::uint64_t unit = std::uint64_t(1) << shift;
  std::size_t seg = 0;
  for (const std::uint32_t tick : ticks) {
    const auto t = static_cast<std::uint32_t>(std::min<std::uint64_t>((tick + unit / 2) / unit * unit, ticks.back()));
    if (!out.ticks.empty() && t <= out.ticks.back()) return std::nullopt;
    while (seg + 2 < ticks.size() && ticks[seg + 1] <= t) ++seg;
    const double u = double(t - ticks[seg]) / double(ticks[seg + 1] - ticks[seg]);
    out.ticks.push_back(t);
    out.values.push_back(timedValue(channel, values[seg], values[seg + 1], float(std::min(u, 1.0))));
  }
  return out;
}

/// Values as a packed track stores them: components, their minimum and step, each key's integers.
struct Packed {
  unsigned components = 3;
  float minValue[4] = {};
  float step = 0;
  std::uint8_t width[4] = {};
  std::vector<std::array<std::uint32_t, 4>> q;
  std::vector<Sample> decoded;
  double error = 0;  ///< largest sampleDistance of a decoded key to its value
};

/// The components a packed key stores of `v`: a rotation's x y z with w >= 0, or x y z w as given
/// (sign-continuous); a vector's x y z.
std::array<float, 4> componentsOf(Channel channel, const Sample& v, unsigned components) {
  if (channel == Channel::Rotation && components == 3 && v[3] < 0) return {-v[0], -v[1], -v[2], -v[3]};
  return {v[0], v[1], v[2], components == 4 ? v[3] : 0.f};
}

/// `values` at quantization step `step`, decoded as the runtime decodes them; nothing when a
/// component's range needs more than kMaxTimedValueBits.
std::optional<Packed> quantize(Channel channel, std::span<const Sample> values, unsigned components, float step) {
  Packed p;
  p.components = components;
  p.step = step;
  std::vector<std::array<float, 4>> c(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) c[i] = componentsOf(channel, values[i], components);
  for (unsigned k = 0; k < components; ++k) {
    float lo = c[0][k], hi = c[0][k];
    for (const auto& x : c) lo = std::min(lo, x[k]), hi = std::max(hi, x[k]);
    p.minValue[k] = lo;
    const double top = std::ceil((double(hi) - lo) / step);
    if (top >= double(1u << runtime::kMaxTimedValueBits)) return std::nullopt;
    p.width[k] = static_cast<std::uint8_t>(std::bit_width(static_cast<std::uint32_t>(top)));
  }
  p.q.resize(values.size());
  p.decoded.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    float d[4] = {0.f, 0.f, 0.f, 0.f};
    for (unsigned k = 0; k < components; ++k) {
      const double q = std::clamp(std::round((double(c[i][k]) - p.minValue[k]) / step), 0.0,
                                  double((std::uint64_t(1) << p.width[k]) - 1));
      p.q[i][k] = static_cast<std::uint32_t>(q);
      d[k] = runtime::packedComponent(p.minValue[k], p.q[i][k], step);
    }
    if (channel == Channel::Rotation) {
      const Quat r = runtime::packedRotation(d, components);
      p.decoded[i] = {r.x, r.y, r.z, r.w};
    } else {
      p.decoded[i] = {d[0], d[1], d[2], 0.f};
    }
    p.error = std::max(p.error, sampleDistance(channel, values[i], p.decoded[i]));
  }
  return p;
}

/// The coarsest step (geometric bisection) whose quantization stays within `budget`.
std::optional<Packed> quantizeWithin(Channel channel, std::span<const Sample> values, unsigned components,
                                     double budget) {
  // The finest step tried: a thousandth of the budget, or what the widest range fits in 24 bits.
  double range = 0;
  for (unsigned k = 0; k < components; ++k) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const Sample& v : values) {
      const float x = componentsOf(channel, v, components)[k];
      lo = std::min(lo, double(x)), hi = std::max(hi, double(x));
    }
    range = std::max(range, hi - lo);
  }
  double lo = std::max(budget * 1e-3, 1.01 * range / double((1u << runtime::kMaxTimedValueBits) - 2)), hi = budget * 4;
  if (!(lo < hi)) return std::nullopt;
  std::optional<Packed> best = quantize(channel, values, components, float(lo));
  if (!best || best->error > budget) return std::nullopt;
  for (int i = 0; i < 20; ++i) {
    const double mid = std::sqrt(lo * hi);
    std::optional<Packed> p = quantize(channel, values, components, float(mid));
    if (p && p->error <= budget) {
      lo = mid;
      best = std::move(p);
    } else {
      hi = mid;
    }
  }
  return best;
}

/// The curve through keys at `ticks` with values `decoded`, at frame position `frame`.
Sample curveAt(Channel channel, std::span<const std::uint32_t> ticks, std::span<const Sample> decoded, double frame) {
  std::uint32_t k = 0;
  float u = 0.f;
  runtime::timedSegment([&](std::uint32_t i) { return ticks[i]; }, static_cast<std::uint32_t>(ticks.size()), frame, k,
                        u);
  return timedValue(channel, decoded[k], decoded[k + 1], u);
}

/// Rotations chained to one sign (the four-component form stores them as given).
void chainSigns(std::vector<Sample>& values) {
  for (std::size_t i = 1; i < values.size(); ++i) {
    const Sample& a = values[i - 1];
    Sample& b = values[i];
    if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0)
      for (float& x : b) x = -x;
  }
}

/// Rotations that pass near w = 0 keep four components (w rebuilt from x y z loses precision there).
unsigned componentCount(Channel channel, std::span<const Sample> values) {
  if (channel != Channel::Rotation) return 3;
  for (const Sample& v : values)
    if (std::fabs(v[3]) < 0.3f) return 4;
  return 3;
}

/// The keys' times (`units` of 2^shift ticks, from 0) as offsets from their line: key k at
/// (k x slope) / 256 + base + its offset, the slope through the first and last key, the base the
/// smallest offset; false when they do not fit the format's fields.
bool packTimes(KeyedEncoding& k, std::span<const std::uint32_t> units) {
  const std::size_t n = units.size();
  const std::uint64_t slope = (std::uint64_t(units.back()) << 8) / (n - 1);
  if (slope > 0xffffffffu) return false;
  std::vector<std::int64_t> offset(n);
  for (std::size_t i = 0; i < n; ++i) offset[i] = std::int64_t(units[i]) - std::int64_t((i * slope) >> 8);
  const std::int64_t base = *std::min_element(offset.begin(), offset.end());
  const std::int64_t top = *std::max_element(offset.begin(), offset.end()) - base;
  const unsigned width = unsigned(std::bit_width(std::uint64_t(top)));
  if (base < std::numeric_limits<std::int32_t>::min() || width > runtime::kMaxTimedTimeBits) return false;
  k.timeSlope = static_cast<std::uint32_t>(slope);
  k.timeBase = static_cast<std::int32_t>(base);
  k.timeWidth = static_cast<std::uint8_t>(width);
  for (std::size_t i = 0; i < n; ++i) k.packed[i][0] = static_cast<std::uint32_t>(offset[i] - base);
  return true;
}

struct Candidate {
  unsigned shift = 0;
  double share = 0.5;  ///< of the tolerance, spent on quantization
};

/// One candidate: keys resampled at its time unit, quantized within its share, thinned within what
/// is left (less while the result misses the tolerance); measured at every source key and frame.
std::optional<TrackEncoding> packedWith(const TrackTarget& target, std::span<const std::uint32_t> ticks,
                                        std::span<const Sample> values, Candidate c) {
  std::optional<Resampled> r = resample(target.channel, ticks, values, c.shift);
  if (!r) return std::nullopt;
  const unsigned components = componentCount(target.channel, r->values);
  if (components == 4) chainSigns(r->values);
  std::optional<Packed> p = quantizeWithin(target.channel, r->values, components, c.share * target.tolerance);
  if (!p) return std::nullopt;
  double left = target.tolerance - p->error;
  for (int attempt = 0; attempt < 4; ++attempt, left *= 0.6) {
    const std::vector<std::uint32_t> kept = reduceTimed(target.channel, r->ticks, r->values, p->decoded, left);
    std::vector<std::uint32_t> keptTicks;
    std::vector<Sample> keptDecoded;
    for (const std::uint32_t i : kept) keptTicks.push_back(r->ticks[i]), keptDecoded.push_back(p->decoded[i]);
    double worst = 0;
    for (std::size_t i = 0; i < ticks.size(); ++i)
      worst = std::max(worst, sampleDistance(target.channel, values[i],
                                             curveAt(target.channel, keptTicks, keptDecoded,
                                                     double(ticks[i]) / runtime::kTimedTicksPerFrame)));
    TrackEncoding e;
    e.decoded.resize(target.samples.size());
    for (std::size_t f = 0; f < target.samples.size(); ++f) {
      e.decoded[f] = curveAt(target.channel, keptTicks, keptDecoded, double(f));
      e.maxError = std::max(e.maxError, sampleDistance(target.channel, target.samples[f], e.decoded[f]));
    }
    if (std::max(worst, e.maxError) > target.tolerance) continue;
    e.kind = TrackKind::Timed;
    KeyedEncoding& k = e.keyed;
    k.timedFormat = runtime::kTimedPacked;
    k.timeShift = static_cast<std::uint8_t>(c.shift);
    k.components = static_cast<std::uint8_t>(components);
    std::copy(p->width, p->width + 4, k.width);
    std::copy(p->minValue, p->minValue + 4, k.minValue);
    k.step = p->step;
    std::vector<std::uint32_t> units;
    for (const std::uint32_t i : kept) {
      k.times.push_back(r->ticks[i]);
      units.push_back(r->ticks[i] >> c.shift);
      k.packed.push_back({0, p->q[i][0], p->q[i][1], p->q[i][2], p->q[i][3]});
    }
    if (!packTimes(k, units)) return std::nullopt;
    std::uint64_t keyBits = k.timeWidth;
    for (const std::uint8_t w : k.width) keyBits += w;
    e.bytes = runtime::kTimedPackedParamSize + (k.packed.size() * keyBits + 7) / 8;
    return e;
  }
  return std::nullopt;
}

}  // namespace

std::optional<TrackEncoding> encodePackedTimed(const TrackTarget& target, std::span<const std::uint32_t> ticks,
                                               std::span<const Sample> values) {
  if (!(target.tolerance > 0) || ticks.size() < 2) return std::nullopt;
  std::optional<TrackEncoding> best;
  for (const unsigned shift : {16u, 12u, 10u, 8u, 6u, 4u, 0u})
    for (const double share : {0.3, 0.5, 0.7})
      if (auto e = packedWith(target, ticks, values, {shift, share}); e && (!best || e->bytes < best->bytes))
        best = std::move(e);
  return best;
}

}  // namespace animpack::core
