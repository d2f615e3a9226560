#include "core/runtime/curves.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

#include "core/runtime/bits.h"
#include "core/runtime/clip_view.h"

namespace animpack::runtime {
namespace {

/// A keyed curve's keys: bit-packed records of frame and value.
struct KeyRun {
  const std::uint8_t* bits;
  std::uint64_t start;  // bit of its first key
  unsigned frameBits, width, record;
  std::uint32_t count;
  float minValue, step;
  std::uint32_t frame(std::uint32_t k) const { return readBits(bits, start + std::uint64_t(k) * record, frameBits); }
  float value(std::uint32_t k) const {
    return curveValue(readBits(bits, start + std::uint64_t(k) * record + frameBits, width), minValue, step);
  }
  /// The last key at or before frame f (< count - 1 unless f is the last frame), from `hint`.
  std::uint32_t find(std::uint32_t f, std::uint32_t hint) const {
    std::uint32_t lo = 0, hi = count - 1;
    if (hint < count - 1 && frame(hint) <= f) {
      // Playback: the hint's key, or one of the next few.
      for (int tries = 0; tries < 4; ++tries, ++hint)
        if (hint + 1 >= count - 1 || frame(hint + 1) > f) return std::min(hint, count - 2);
      lo = hint;
    }
    while (hi - lo > 1) {
      const std::uint32_t mid = (lo + hi) / 2;
      (frame(mid) <= f ? lo : hi) = mid;
    }
    return lo;
  }
};

/// Defaults and constants (what never moves) into `out`; raw curves between f and f1.
void staticCurves(const ClipView& clip, const CurveSectionView& s, std::span<float> out) {
  const std::uint32_t n = clip.curveCount();
  if (clip.additive()) std::fill_n(out.begin(), n, 0.f);
  else
    for (std::uint32_t i = 0; i < n; ++i) out[i] = clip.curveRestWeight(i);
  if (clip.curveConstantCount() == 0) return;
  for (std::uint32_t i = 0, constant = 0; i < n; ++i)
    if (s.kind(i) == TrackKind::Constant) out[i] = loadLE<float>(s.constants + 4 * std::size_t(constant++));
}

void rawCurves(const ClipView& clip, const CurveSectionView& s, std::uint32_t f, std::uint32_t f1, float alpha,
               std::span<float> out) {
  for (std::uint32_t i = 0, raw = 0; i < clip.curveCount(); ++i) {
    if (s.kind(i) != TrackKind::Raw) continue;
    const std::uint8_t* p = s.raw + std::size_t(raw++) * clip.frameCount() * 4;
    out[i] = curveLerp(loadLE<float>(p + 4 * std::size_t(f)), loadLE<float>(p + 4 * std::size_t(f1)), alpha);
  }
}

/// Keyed curves at frame f + alpha (or, in a wrap interval, frame f towards the first key). With a
/// cache, a curve whose segment holds f reads no key.
/// Keyed curve t's segment for frame f (its parameters at p; `keyBit`: where its keys start when
/// the segment is new, then past them).
void findSegment(const CurveSectionView& s, const std::uint8_t* p, std::uint32_t t, std::uint32_t f, unsigned frameBits,
                 CurveSegment& seg, std::uint64_t& keyBit) {
  const unsigned width = p[2];
  const std::uint32_t count = loadLE<std::uint32_t>(p + 4);
  const std::uint64_t start = seg.b < 0 ? keyBit : seg.start;
  const KeyRun run{
      s.keys, start, frameBits, width, frameBits + width, count, loadLE<float>(p + 8), loadLE<float>(p + 12)};
  const std::uint32_t next = seg.key + 1, curve = loadLE<std::uint16_t>(p);
  const float ff = float(f);
  if (seg.b >= 0 && ff >= seg.b && next + 1 < count && float(run.frame(next + 1)) > ff) {
    // Playback entered the next segment: its first key is the old segment's last.
    const float b = float(run.frame(next + 1));
    const float vb = run.value(next + 1);
    seg = {seg.b, b, seg.vb, vb, curveSlope(seg.b, b, seg.vb, vb), next, seg.start, curve};
  } else {
    const std::uint32_t k = run.find(f, seg.b < 0 ? 0 : seg.key);
    const float a = float(run.frame(k)), b = float(run.frame(k + 1));
    const float va = run.value(k), vb = run.value(k + 1);
    seg = {a, b, va, vb, curveSlope(a, b, va, vb), k, static_cast<std::uint32_t>(start), curve};
  }
  (void)t;
  keyBit = start + std::uint64_t(count) * run.record;
}

/// Keyed curves at frame f + alpha (or, in a wrap interval, frame f towards each curve's first
/// key). With a cache, a curve whose segment holds f reads no key (nor the section's layout).
void keyedCurves(const ClipView& clip, const CurveSectionView& section, std::uint32_t f, bool wrap, float alpha,
                 std::span<float> out, std::span<CurveSegment> segments) {
  const std::uint32_t keyed = clip.curveKeyedCount();
  const float ff = float(f), x = ff + (wrap ? 0.f : alpha);
  std::uint64_t keyBit = 0;  // where the next curve's keys start, while segments are new
  if (!segments.empty() && !wrap) {
    for (std::uint32_t t = 0; t < keyed; ++t) {
      CurveSegment& seg = segments[t];
      if (!(ff >= seg.a && ff < seg.b)) {
        const CurveSectionView& s = section.kinds ? section : clip.curveSection();
        findSegment(s, s.keyedParams + std::size_t(t) * kCurveKeyedParamSize, t, f,
                    curveKeyFrameBits(clip.frameCount()), seg, keyBit);
      }
      out[seg.curve] = curveSegmentValue(seg.a, seg.va, seg.slope, x);
    }
    return;
  }
  const CurveSectionView& s = section.kinds ? section : clip.curveSection();
  const unsigned frameBits = curveKeyFrameBits(clip.frameCount());
  for (std::uint32_t t = 0; t < keyed; ++t) {
    CurveSegment local;
    CurveSegment& seg = segments.empty() ? local : segments[t];
    const std::uint8_t* p = s.keyedParams + std::size_t(t) * kCurveKeyedParamSize;
    findSegment(s, p, t, f, frameBits, seg, keyBit);
    float v = curveSegmentValue(seg.a, seg.va, seg.slope, x);
    if (wrap) {
      const float first =
          curveValue(readBits(s.keys, seg.start + frameBits, p[2]), loadLE<float>(p + 8), loadLE<float>(p + 12));
      v = curveLerp(v, first, alpha);
    }
    out[seg.curve] = v;
  }
}

void uniformCurves(const ClipView& clip, const CurveSectionView& s, std::uint32_t f, std::uint32_t f1, float alpha,
                   std::span<float> out) {
  const std::uint64_t row0 = std::uint64_t(f) * s.rowBits, row1 = std::uint64_t(f1) * s.rowBits;
  std::uint64_t bit = 0;
  for (std::uint32_t t = 0; t < clip.curveUniformCount(); ++t) {
    const std::uint8_t* p = s.uniformParams + std::size_t(t) * kCurveUniformParamSize;
    const unsigned width = p[2];
    const float minValue = loadLE<float>(p + 4), step = loadLE<float>(p + 8);
    const float v0 = curveValue(readBits(s.rows, row0 + bit, width), minValue, step);
    const float v1 = curveValue(readBits(s.rows, row1 + bit, width), minValue, step);
    bit += width;
    out[loadLE<std::uint16_t>(p)] = curveLerp(v0, v1, alpha);
  }
}

/// The segmented curves' lines in segment k, one curve after the other.
class SegmentLines {
 public:
  SegmentLines(const SegmentedCurvesView& g, std::uint32_t k, std::uint32_t frames)
      : m_g(g),
        m_rowA(std::uint64_t(k) * g.rowBits),
        m_widths(std::uint64_t(loadLE<std::uint32_t>(g.table + 4 * std::size_t(k))) * 8),
        m_residuals(m_widths + std::uint64_t(kCurveResidualWidthBits) * g.count),
        m_count(curveSegmentResiduals(k, frames, g.shift)) {}
  /// Curve t's line (t counts up from 0, one call each).
  SegmentedLine next(std::uint32_t t) {
    const std::uint8_t* p = m_g.params + std::size_t(t) * kCurveSegmentedParamSize;
    const unsigned width = p[2];
    SegmentedLine line;
    line.qa = static_cast<std::int32_t>(readBits(m_g.rows, m_rowA + m_rowBit, width));
    line.d = static_cast<std::int32_t>(readBits(m_g.rows, m_rowA + m_g.rowBits + m_rowBit, width)) - line.qa;
    line.width = static_cast<std::uint8_t>(
        readBits(m_g.data, m_widths + std::uint64_t(kCurveResidualWidthBits) * t, kCurveResidualWidthBits));
    line.residuals = static_cast<std::uint32_t>(m_residuals);
    line.curve = loadLE<std::uint16_t>(p);
    line.minValue = loadLE<float>(p + 4);
    line.step = loadLE<float>(p + 8);
    m_residuals += std::uint64_t(line.width) * m_count;
    m_rowBit += width;
    return line;
  }

 private:
  const SegmentedCurvesView& m_g;
  std::uint64_t m_rowA, m_widths, m_residuals, m_rowBit = 0;
  std::uint32_t m_count;
};

/// A segmented curve's weight at frame j (0..S) of its segment: the line, plus the residual
/// strictly between the boundaries.
inline float segmentValue(const SegmentedCurvesView& g, const SegmentedLine& line, std::uint32_t j) {
  const unsigned w = j - 1u < (1u << g.shift) - 1u ? line.width : 0u;
  const std::int64_t q = curveSegmentLine(line.qa, std::int64_t(line.qa) + line.d, j, g.shift) +
                         readSignedBits(g.data, line.residuals + std::uint64_t(line.width) * (j - 1u), w);
  return line.minValue + float(q) * line.step;
}

/// Playback between frames j and j + 1 of a segment whose lines a cache holds: both frames' residuals
/// come from one read, the line and the sign without a branch (the same values as segmentValue).
void playSegment(const SegmentedCurvesView& g, std::span<SegmentedLine> lines, std::uint32_t j, float alpha,
                 std::span<float> out) {
  const std::uint32_t last = (1u << g.shift) - 1, j1 = j + 1;
  // Residual bits from `residuals + width x (j - 1)`: frame j's (none at j = 0), then frame j + 1's
  // (none at the closing boundary).
  const std::uint64_t keep0 = j > 0 ? ~std::uint64_t(0) : 0, keep1 = j1 <= last ? ~std::uint64_t(0) : 0;
  const std::uint32_t back = j > 0 ? j - 1 : 0;  // at j = 0, frame 1's residual is the first
  for (SegmentedLine& line : lines) {
    const unsigned w = line.width;
    const std::uint64_t mask = (std::uint64_t(1) << w) - 1, sign = (std::uint64_t(1) << w) >> 1;
    const std::uint64_t word = bitsAt(g.data, line.residuals + std::uint64_t(w) * back);
    const std::uint64_t raw0 = word & mask & keep0, raw1 = (j > 0 ? word >> w : word) & mask & keep1;
    const std::int64_t r0 = std::int64_t(raw0 ^ (sign & keep0)) - std::int64_t(sign & keep0);
    const std::int64_t r1 = std::int64_t(raw1 ^ (sign & keep1)) - std::int64_t(sign & keep1);
    const std::int64_t qb = std::int64_t(line.qa) + line.d;
    const std::int64_t q0 = curveSegmentLine(line.qa, qb, j, g.shift) + r0;
    const std::int64_t q1 = curveSegmentLine(line.qa, qb, j1, g.shift) + r1;
    line.v0 = line.minValue + float(q0) * line.step;
    line.v1 = line.minValue + float(q1) * line.step;
    out[line.curve] = curveLerp(line.v0, line.v1, alpha);
  }
}

/// Segmented curves (version 9) at frame f interpolated towards frame f1 (f + 1, f, or 0 in a wrap
/// interval): f and f + 1 share f's segment (f + 1 is at most its closing boundary). With a cache
/// the segment's lines are kept, so playback within it reads only residuals.
void segmentedCurves(const ClipView& clip, const CurveSectionView& s, std::uint32_t f, std::uint32_t f1, float alpha,
                     std::span<float> out, CurveCache* cache) {
  const SegmentedCurvesView g = SegmentedCurvesView::at(s.segmented, clip.frameCount());
  const std::uint32_t k = std::min(f >> g.shift, g.segments - 1);
  const std::uint32_t j0 = f - (k << g.shift), j1 = j0 + (f1 - f);
  std::uint64_t rowBit = 0;  // in the wrap interval: curve t's value in boundary row 0
  auto weight = [&](const SegmentedLine& line, std::uint32_t t) {
    const float v0 = segmentValue(g, line, j0);
    if (f1 == f) return v0;
    if (f1 < f) {
      const unsigned width = g.params[std::size_t(t) * kCurveSegmentedParamSize + 2];
      const float first = line.minValue + float(readBits(g.rows, rowBit, width)) * line.step;
      rowBit += width;
      return curveLerp(v0, first, alpha);
    }
    return curveLerp(v0, segmentValue(g, line, j1), alpha);
  };
  if (cache && cache->linesHeader && cache->lines.size() >= g.count) {
    if (cache->linesHeader[0] != k + 1) {
      SegmentLines lines(g, k, clip.frameCount());
      for (std::uint32_t t = 0; t < g.count; ++t) {
        SegmentedLine& line = cache->lines[t];
        const float v0 = line.v0, v1 = line.v1;  // frame values: they hold across segments
        line = lines.next(t);
        line.v0 = v0;
        line.v1 = v1;
      }
      cache->linesHeader[0] = k + 1;
    }
    if (f1 == f + 1) {
      std::uint32_t& pair = cache->linesHeader[3];
      if (pair == f + 1) {  // between the same frames as the last call
        for (const SegmentedLine& line : cache->lines) out[line.curve] = curveLerp(line.v0, line.v1, alpha);
      } else if (f > 0 && pair == f) {  // one frame on: the last call's f + 1 is this one's f
        for (SegmentedLine& line : cache->lines) {
          line.v0 = line.v1;
          line.v1 = segmentValue(g, line, j1);
          out[line.curve] = curveLerp(line.v0, line.v1, alpha);
        }
      } else {
        playSegment(g, cache->lines, j0, alpha, out);
      }
      pair = f + 1;
      return;
    }
    for (std::uint32_t t = 0; t < g.count; ++t) out[cache->lines[t].curve] = weight(cache->lines[t], t);
    return;
  }
  SegmentLines lines(g, k, clip.frameCount());
  for (std::uint32_t t = 0; t < g.count; ++t) {
    const SegmentedLine line = lines.next(t);
    out[line.curve] = weight(line, t);
  }
}

/// Every curve at frame f interpolated towards frame f1 by alpha (f1 = f + 1, or 0 in a wrap
/// interval, or f when alpha is 0).
void decodeBetween(const ClipView& clip, std::uint32_t f, std::uint32_t f1, float alpha, std::span<float> out,
                   CurveCache* cache) {
  const std::uint32_t n = clip.curveCount();
  assert(out.size() >= n);
  // The section's layout is worked out only where a part is read (not for a cached segment), in
  // place (a copy of it is read back before its stores land: a stall on x86).
  const bool segmented = (clip.flags() & kClipFlagSegmentedCurves) != 0;
  const bool rows = clip.curveRawCount() > 0 || clip.curveUniformCount() > 0;
  const bool held = cache && cache->clip == clip.id();
  CurveSectionView s = !held || rows || (segmented && !cache->linesHeader) ? clip.curveSection() : CurveSectionView{};
  if (segmented && !s.segmented) s.segmented = clip.bytes().data() + cache->linesHeader[2];  // held by the cache
  if (cache && cache->clip != clip.id()) {
    cache->clip = clip.id();
    staticCurves(clip, s, cache->statics);
    std::fill(cache->segments.begin(), cache->segments.end(), CurveSegment{});
    if (cache->linesHeader) {  // no segment, no frame pair, where the part is
      cache->linesHeader[0] = cache->linesHeader[3] = 0;
      cache->linesHeader[1] = clip.curveSegmentedCount();
      cache->linesHeader[2] = segmented ? static_cast<std::uint32_t>(s.segmented - clip.bytes().data()) : 0;
    }
  }
  if (cache) {
    for (std::uint32_t i = 0; i < n; ++i) out[i] = cache->statics[i];
  } else {
    staticCurves(clip, s, out);
  }
  if (clip.curveRawCount() > 0) rawCurves(clip, s, f, f1, alpha, out);
  if (clip.curveKeyedCount() > 0)
    keyedCurves(clip, s, f, f1 < f, alpha, out, cache ? cache->segments : std::span<CurveSegment>());
  if (clip.curveUniformCount() > 0) uniformCurves(clip, s, f, f1, alpha, out);
  if (segmented) segmentedCurves(clip, s, f, f1, alpha, out, cache);
}

}  // namespace

std::size_t curveCacheBytes(const ClipView& clip) {
  const std::size_t fixed =
      std::size_t(clip.curveCount()) * sizeof(float) + std::size_t(clip.curveKeyedCount()) * sizeof(CurveSegment);
  const std::size_t segmented = clip.curveSegmentedCount();
  // The segmented curves' lines start 16-byte aligned (Player keeps them after the statics).
  return segmented > 0 ? (fixed + 15) / 16 * 16 + 16 + segmented * sizeof(SegmentedLine) : fixed;
}

void sampleCurvesAtFrame(const ClipView& clip, float frame, std::span<float> out, CurveCache* cache) {
  if (clip.curveCount() == 0) return;
  const std::uint32_t lastFrame = clip.frameCount() - 1;
  const float last = float(lastFrame);
  if (clip.wraps() && frame > last && frame < last + 1.f) {
    // The wrap interval: the last frame interpolated to the first, as between any two frames.
    decodeBetween(clip, lastFrame, 0, frame - last, out, cache);
    return;
  }
  if (clip.wraps() && frame >= last + 1.f) frame = 0.f;
  if (!(frame >= 0.f)) frame = 0.f;  // also NaN
  if (frame >= last) return decodeBetween(clip, lastFrame, lastFrame, 0.f, out, cache);
  const std::uint32_t f = std::min(static_cast<std::uint32_t>(frame), lastFrame);
  const float alpha = f >= lastFrame ? 0.f : frame - float(f);
  decodeBetween(clip, f, std::min(f + 1, lastFrame), alpha, out, cache);
}

void sampleCurves(const ClipView& clip, float seconds, std::span<float> out, CurveCache* cache) {
  float frame = seconds * clip.sampleRate();
  const float cycle = clip.cycleFrames();
  if (clip.loops() && cycle > 0.f && !(frame >= 0.f && frame < cycle)) {  // fmod(x, c) is x on [0, c)
    frame = std::fmod(frame, cycle);
    if (frame < 0.f) frame += cycle;
  }
  sampleCurvesAtFrame(clip, frame, out, cache);
}

std::vector<std::uint32_t> curveKeyFrames(const ClipView& clip, std::uint32_t curve) {
  std::vector<std::uint32_t> frames;
  if (curve >= clip.curveCount()) return frames;
  const CurveSectionView s = clip.curveSection();
  const TrackKind kind = s.kind(curve);
  if (kind == TrackKind::Uniform || kind == TrackKind::Raw || kind == TrackKind::Segmented) {
    frames.resize(clip.frameCount());
    for (std::uint32_t f = 0; f < clip.frameCount(); ++f) frames[f] = f;
    return frames;
  }
  if (kind != TrackKind::Keyed) return frames;
  const unsigned frameBits = curveKeyFrameBits(clip.frameCount());
  std::uint64_t bit = 0;  // where keyed curve t's keys start
  for (std::uint32_t t = 0; t < clip.curveKeyedCount(); ++t) {
    const std::uint8_t* p = s.keyedParams + std::size_t(t) * kCurveKeyedParamSize;
    const std::uint32_t count = loadLE<std::uint32_t>(p + 4), record = frameBits + p[2];
    if (loadLE<std::uint16_t>(p) == curve) {
      for (std::uint32_t k = 0; k < count; ++k)
        frames.push_back(readBits(s.keys, bit + std::uint64_t(k) * record, frameBits));
      break;
    }
    bit += std::uint64_t(count) * record;
  }
  return frames;
}

void blendCurves(std::span<const float> a, std::span<const float> b, float weight, std::span<float> out) {
  const std::size_t n = std::min({a.size(), b.size(), out.size()});
  for (std::size_t i = 0; i < n; ++i) out[i] = curveLerp(a[i], b[i], weight);
}

void applyAdditiveCurves(std::span<const float> base, std::span<const float> delta, float weight,
                         std::span<float> out) {
  const std::size_t n = std::min({base.size(), delta.size(), out.size()});
  for (std::size_t i = 0; i < n; ++i) out[i] = base[i] + weight * delta[i];
}

void applyMorphs(std::span<const float> base, std::span<const MorphTargetDeltas> targets,
                 std::span<const float> weights, std::span<float> out) {
  assert(out.size() >= base.size());
  if (out.data() != base.data()) std::copy(base.begin(), base.end(), out.begin());
  const std::size_t n = std::min(targets.size(), weights.size());
  for (std::size_t t = 0; t < n; ++t) {
    const float w = weights[t];
    if (w == 0.f) continue;
    const MorphTargetDeltas& d = targets[t];
    for (std::size_t k = 0; k < d.vertices.size(); ++k) {
      const std::size_t v = std::size_t(d.vertices[k]) * 3;
      if (v + 2 >= out.size()) continue;
      for (int c = 0; c < 3; ++c) out[v + std::size_t(c)] += w * d.deltas[3 * k + std::size_t(c)];
    }
  }
}

}  // namespace animpack::runtime
