#include "core/io/curve_builder.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

#include "core/runtime/bits.h"
#include "core/runtime/curves.h"

namespace animpack::runtime {
namespace {

template <typename T>
void put(std::vector<std::uint8_t>& out, T v) {
  const std::size_t at = out.size();
  out.resize(at + sizeof(T));
  storeLE(out.data() + at, v);
}
void align4(std::vector<std::uint8_t>& out) { out.resize((out.size() + 3u) & ~std::size_t(3)); }
void append(std::vector<std::uint8_t>& out, const std::vector<std::uint8_t>& bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

/// A segmented curve's boundary value k: its frame's, or past the last frame the line from the
/// boundary before through the last frame, continued.
std::uint32_t boundaryValue(std::span<const std::uint32_t> q, std::uint32_t k, unsigned shift, unsigned width) {
  const auto frames = static_cast<std::uint32_t>(q.size());
  if ((std::uint64_t(k) << shift) < frames) return q[k << shift];
  const std::uint32_t first = (k - 1) << shift, n = frames - 1 - first;
  const double qa = q[first], line = qa + (double(q[frames - 1]) - qa) * double(1u << shift) / double(n);
  return static_cast<std::uint32_t>(std::clamp(std::round(line), 0.0, double((1u << width) - 1)));
}

/// A curve's residuals in segment k, against the line between its boundary values.
std::vector<std::int64_t> residuals(std::span<const std::uint32_t> q, std::uint32_t k, unsigned shift, unsigned width) {
  const auto frames = static_cast<std::uint32_t>(q.size());
  const std::int64_t qa = boundaryValue(q, k, shift, width), qb = boundaryValue(q, k + 1, shift, width);
  std::vector<std::int64_t> r;
  for (std::uint32_t j = 1; j <= curveSegmentResiduals(k, frames, shift); ++j)
    r.push_back(std::int64_t(q[(k << shift) + j]) - curveSegmentLine(qa, qb, j, shift));
  return r;
}

/// The fewest bits (0..25) that hold every residual as a two's complement integer.
unsigned residualWidth(std::span<const std::int64_t> r) {
  unsigned w = 0;
  for (std::int64_t x : r)
    while (x != 0 && (w == 0 || x < -(std::int64_t(1) << (w - 1)) || x >= (std::int64_t(1) << (w - 1)))) ++w;
  assert(w <= kMaxCurveResidualBits);
  return w;
}

/// The segmented part (FORMAT.md "Segmented curves") of the curves of kind Segmented.
void appendSegmented(std::vector<std::uint8_t>& out, std::uint32_t frames, std::span<const BlockCurve> curves,
                     unsigned shift) {
  std::vector<std::size_t> seg;
  std::uint32_t rowBits = 0;
  for (std::size_t i = 0; i < curves.size(); ++i)
    if (curves[i].kind == TrackKind::Segmented) seg.push_back(i), rowBits += curves[i].width;
  if (seg.empty()) return;
  assert(frames >= 2 && shift >= kMinCurveSegmentShift && shift <= kMaxCurveSegmentShift);
  put<std::uint16_t>(out, static_cast<std::uint16_t>(seg.size()));
  put<std::uint8_t>(out, static_cast<std::uint8_t>(shift));
  put<std::uint8_t>(out, 0);
  put<std::uint32_t>(out, rowBits);
  for (std::size_t i : seg) {
    put<std::uint16_t>(out, static_cast<std::uint16_t>(i));
    put<std::uint8_t>(out, curves[i].width);
    put<std::uint8_t>(out, 0);
    put<float>(out, curves[i].minValue);
    put<float>(out, curves[i].step);
  }
  const std::uint32_t segments = curveSegmentCount(frames, shift);
  BitWriter rows;
  for (std::uint32_t k = 0; k <= segments; ++k)
    for (std::size_t i : seg) rows.write(boundaryValue(curves[i].values, k, shift, curves[i].width), curves[i].width);
  std::vector<std::uint8_t> data;
  for (std::uint32_t k = 0; k < segments; ++k) {
    put<std::uint32_t>(out, static_cast<std::uint32_t>(data.size()));
    std::vector<std::vector<std::int64_t>> r;
    BitWriter bits;
    for (std::size_t i : seg)
      bits.write(residualWidth(r.emplace_back(residuals(curves[i].values, k, shift, curves[i].width))),
                 kCurveResidualWidthBits);
    for (const auto& curve : r) {
      const unsigned w = residualWidth(curve);
      for (std::int64_t x : curve) bits.writeSigned(static_cast<std::int32_t>(x), w);
    }
    append(data, bits.bytes());
  }
  put<std::uint32_t>(out, static_cast<std::uint32_t>(data.size()));
  append(out, rows.bytes());
  append(out, data);
  out.resize(out.size() + kBitPadding, 0);
  align4(out);
}

}  // namespace

std::uint64_t segmentedCurveBits(std::span<const std::uint32_t> values, unsigned width, unsigned shift) {
  const auto frames = static_cast<std::uint32_t>(values.size());
  const std::uint32_t segments = curveSegmentCount(frames, shift);
  std::uint64_t bits = std::uint64_t(segments + 1) * width;
  for (std::uint32_t k = 0; k < segments; ++k)
    bits += kCurveResidualWidthBits +
            std::uint64_t(residualWidth(residuals(values, k, shift, width))) * curveSegmentResiduals(k, frames, shift);
  return bits;
}

std::vector<std::uint8_t> buildCurveSection(std::uint32_t frames, std::span<const BlockCurve> curves,
                                            unsigned segmentShift) {
  assert(!curves.empty() && curves.size() <= kMaxCurves);
  std::uint32_t counts[kTrackKindCount] = {};
  std::uint32_t rowBits = 0;
  const unsigned frameBits = curveKeyFrameBits(frames);
  BitWriter keys;
  for (const BlockCurve& c : curves) {
    ++counts[std::size_t(c.kind)];
    if (c.kind == TrackKind::Uniform) rowBits += c.width;
    for (std::size_t k = 0; c.kind == TrackKind::Keyed && k < c.keyFrames.size(); ++k) {
      keys.write(c.keyFrames[k], frameBits);
      keys.write(c.keyValues[k], c.width);
    }
  }
  using L = CurveSectionLayout;
  std::vector<std::uint8_t> out(L::size, 0);
  out.reserve(L::size + curves.size() * 16 + keys.bytes().size() + std::size_t(frames) * rowBits / 8 + 64);
  storeLE<std::uint16_t>(out.data() + L::curveCount, static_cast<std::uint16_t>(curves.size()));
  storeLE<std::uint16_t>(out.data() + L::uniformCount,
                         static_cast<std::uint16_t>(counts[std::size_t(TrackKind::Uniform)]));
  storeLE<std::uint16_t>(out.data() + L::keyedCount, static_cast<std::uint16_t>(counts[std::size_t(TrackKind::Keyed)]));
  storeLE<std::uint16_t>(out.data() + L::rawCount, static_cast<std::uint16_t>(counts[std::size_t(TrackKind::Raw)]));
  storeLE<std::uint32_t>(out.data() + L::keyBits, static_cast<std::uint32_t>(keys.bitCount()));
  storeLE<std::uint32_t>(out.data() + L::rowBits, rowBits);
  const std::size_t kinds = out.size();
  out.resize(kinds + (curves.size() + 1) / 2, 0);
  for (std::size_t i = 0; i < curves.size(); ++i)
    out[kinds + i / 2] |= static_cast<std::uint8_t>(unsigned(curves[i].kind) << ((i & 1) * 4));
  align4(out);
  for (const BlockCurve& c : curves)
    if (c.kind == TrackKind::Constant) put<float>(out, c.constant);
  for (std::size_t i = 0; i < curves.size(); ++i) {
    if (curves[i].kind != TrackKind::Keyed) continue;
    put<std::uint16_t>(out, static_cast<std::uint16_t>(i));
    put<std::uint8_t>(out, curves[i].width);
    put<std::uint8_t>(out, 0);
    put<std::uint32_t>(out, static_cast<std::uint32_t>(curves[i].keyFrames.size()));
    put<float>(out, curves[i].minValue);
    put<float>(out, curves[i].step);
  }
  for (std::size_t i = 0; i < curves.size(); ++i) {
    if (curves[i].kind != TrackKind::Uniform) continue;
    put<std::uint16_t>(out, static_cast<std::uint16_t>(i));
    put<std::uint8_t>(out, curves[i].width);
    put<std::uint8_t>(out, 0);
    put<float>(out, curves[i].minValue);
    put<float>(out, curves[i].step);
  }
  for (const BlockCurve& c : curves)
    for (std::size_t f = 0; c.kind == TrackKind::Raw && f < frames; ++f) put<float>(out, c.raw[f]);
  BitWriter rows;
  for (std::uint32_t f = 0; rowBits > 0 && f < frames; ++f)
    for (const BlockCurve& c : curves)
      if (c.kind == TrackKind::Uniform) rows.write(c.values[f], c.width);
  if (keys.bitCount() + rows.bitCount() > 0) {
    for (const BitWriter* w : {&keys, &rows}) {
      const std::size_t at = out.size(), n = w->bytes().size();
      out.resize(at + n);
      if (n > 0) std::memcpy(out.data() + at, w->bytes().data(), n);
    }
    out.resize(out.size() + kBitPadding, 0);
  }
  align4(out);
  appendSegmented(out, frames, curves, segmentShift);
  return out;
}

void appendCurveSection(std::vector<std::uint8_t>& block, std::span<const std::uint8_t> section) {
  align4(block);
  const std::size_t at = block.size();
  block.resize(at + section.size());
  if (!section.empty()) std::memcpy(block.data() + at, section.data(), section.size());
  const std::uint16_t flags = loadLE<std::uint16_t>(block.data() + ClipHeaderLayout::flags);
  // Segmented curves (version 9) flag their part: a kind 8 among the section's kinds.
  bool segmented = false;
  const std::uint32_t count = section.size() >= CurveSectionLayout::size ? loadLE<std::uint16_t>(section.data()) : 0;
  for (std::uint32_t i = 0; i < count; ++i)
    segmented = segmented ||
                ((section[CurveSectionLayout::size + i / 2] >> ((i & 1) * 4)) & 15u) == unsigned(TrackKind::Segmented);
  const std::uint16_t set = kClipFlagCurves | (segmented ? kClipFlagSegmentedCurves : 0);
  storeLE<std::uint16_t>(block.data() + ClipHeaderLayout::flags, static_cast<std::uint16_t>(flags | set));
  storeLE<std::uint32_t>(block.data() + ClipHeaderLayout::totalSize, static_cast<std::uint32_t>(block.size()));
}

}  // namespace animpack::runtime
