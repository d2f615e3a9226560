#include "core/io/curve_builder.h"

#include <cassert>

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

}  // namespace

std::vector<std::uint8_t> buildCurveSection(std::uint32_t frames, std::span<const BlockCurve> curves) {
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
  return out;
}

void appendCurveSection(std::vector<std::uint8_t>& block, std::span<const std::uint8_t> section) {
  align4(block);
  const std::size_t at = block.size();
  block.resize(at + section.size());
  if (!section.empty()) std::memcpy(block.data() + at, section.data(), section.size());
  const std::uint16_t flags = loadLE<std::uint16_t>(block.data() + ClipHeaderLayout::flags);
  storeLE<std::uint16_t>(block.data() + ClipHeaderLayout::flags, static_cast<std::uint16_t>(flags | kClipFlagCurves));
  storeLE<std::uint32_t>(block.data() + ClipHeaderLayout::totalSize, static_cast<std::uint32_t>(block.size()));
}

}  // namespace animpack::runtime
