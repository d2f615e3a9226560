#pragma once
// Scalar curves of a clip (format version 6, FORMAT.md "Curves"): morph-target weights, one track
// per curve of the pack, in a section at the end of the clip block. The writer (buildCurveSection,
// used by the compressor) and the decoder (sampleCurves) share the arithmetic below, so what the
// compressor verifies is what a game gets. Decoding reads the clip's bytes; nothing is cached.

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "core/runtime/clip_format.h"

namespace animpack::runtime {

class ClipView;

/// Curve section header (16 bytes), then kinds (4 bits a curve), constants (f32), keyed parameters
/// (16 bytes), uniform parameters (12 bytes), raw samples (f32 per frame), keys (bit-packed), rows.
struct CurveSectionLayout {
  static constexpr std::uint32_t curveCount = 0;    // u16
  static constexpr std::uint32_t uniformCount = 2;  // u16
  static constexpr std::uint32_t keyedCount = 4;    // u16
  static constexpr std::uint32_t rawCount = 6;      // u16
  static constexpr std::uint32_t keyBits = 8;       // u32: bits of all keys
  static constexpr std::uint32_t rowBits = 12;      // u32: bits of one frame's row of uniform values
  static constexpr std::uint32_t size = 16;
};
inline constexpr std::uint32_t kCurveKeyedParamSize = 16;    // u16 curve, u8 width, u8 0, u32 key count, f32 min, step
inline constexpr std::uint32_t kCurveUniformParamSize = 12;  // u16 curve, u8 width, u8 0, f32 min, f32 step
inline constexpr unsigned kMaxCurveBits = 24;                // widest uniform curve value
inline constexpr unsigned kMaxCurveKeyBits = 16;             // widest keyed curve value
inline constexpr std::uint32_t kMaxCurves = 65535;

/// Bits of a key's frame in a clip of `frames` frames (keys are bit-packed: frame, then value).
inline unsigned curveKeyFrameBits(std::uint32_t frames) {
  // The fewest bits (at least 1) that count to frames - 1.
  return frames <= 2 ? 1u : static_cast<unsigned>(std::bit_width(frames - 1));
}
/// A quantized curve value, keyed or uniform: min + q x step (float arithmetic the compressor predicts).
inline float curveValue(std::uint32_t q, float minValue, float step) { return minValue + float(q) * step; }
/// A keyed curve between keys (frame a, value va) and (b, vb) at fractional frame x, as every
/// decoder evaluates it (float32, no contraction): va + (x - a) x slope.
inline float curveSlope(float a, float b, float va, float vb) { return (vb - va) * (1.f / (b - a)); }
inline float curveSegmentValue(float a, float va, float slope, float x) { return va + (x - a) * slope; }
/// Linear interpolation as every curve is interpolated (frames, blends).
inline float curveLerp(float a, float b, float t) { return a + (b - a) * t; }

/// A keyed curve's current key segment, as a player keeps it: frames a < b, their values, the key
/// at a and where the curve's keys start in the key bits.
struct CurveSegment {
  float a = 0, b = -1, va = 0, vb = 0;
  float slope = 0;  ///< curveSlope(a, b, va, vb): the value at x is curveSegmentValue(a, va, slope, x)
  std::uint32_t key = 0, start = 0;
  std::uint32_t curve = 0;  ///< which curve (its place in the weights)
};
/// What a player keeps to sample one clip's curves (Player::sample with weights): every curve's
/// value when it does not move (default, constant), and each keyed curve's segment, so playback
/// within a segment reads no key. Any cache gives the same values as none.
struct CurveCache {
  std::uint32_t clip = 0;  ///< ClipView::id() it holds (0: nothing)
  std::span<float> statics;
  std::span<CurveSegment> segments;
};
/// Bytes a CurveCache of `clip` holds: 4 a curve, sizeof(CurveSegment) (32) a keyed curve.
std::size_t curveCacheBytes(const ClipView& clip);

/// Every curve at a fractional frame (clamped as Player::sampleFrame clamps; a wrapping clip's
/// (F - 1, F) interpolates its last frame to its first) into `out` (curveCount() floats): each
/// curve's decoded frames interpolated linearly, a keyed curve the line between its keys. `cache`
/// (optional, its spans sized by curveCacheBytes) is filled or used.
void sampleCurvesAtFrame(const ClipView& clip, float frame, std::span<float> out, CurveCache* cache = nullptr);
/// Every curve at `seconds` from the first frame (loops wrap as Player::sample wraps).
void sampleCurves(const ClipView& clip, float seconds, std::span<float> out, CurveCache* cache = nullptr);

/// The frames curve `curve` of `clip` stores a key on: a keyed curve's keys; every stored frame for a
/// uniform or raw curve; none for a default or constant one (for tools: dump, the studio's curve view).
std::vector<std::uint32_t> curveKeyFrames(const ClipView& clip, std::uint32_t curve);

/// Weights of two clips blended: lerp from `a` (weight 0) to `b` (1). `out` may be `a` or `b`.
void blendCurves(std::span<const float> a, std::span<const float> b, float weight, std::span<float> out);
/// An additive clip's weights on a base: base + weight x delta. `out` may be `base`.
void applyAdditiveCurves(std::span<const float> base, std::span<const float> delta, float weight, std::span<float> out);

/// One morph target's displacement of a mesh: sparse (vertex, delta at weight 1), object or mesh space.
struct MorphTargetDeltas {
  std::span<const std::uint32_t> vertices;
  std::span<const float> deltas;  ///< x y z per listed vertex
};
/// CPU morphing before skinning: out = base + sum of weight_i x delta_i. `out` may be `base`
/// (positions x y z per vertex); targets and weights pair up by index.
void applyMorphs(std::span<const float> base, std::span<const MorphTargetDeltas> targets,
                 std::span<const float> weights, std::span<float> out);

}  // namespace animpack::runtime
