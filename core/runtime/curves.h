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

/// Segmented curves (format version 9, FORMAT.md "Segmented curves"): a part after the section's
/// others, when the clip has kClipFlagSegmentedCurves. Header (8 bytes), parameters (12 bytes a
/// curve), segment table (u32 a segment and one), boundary rows, segment data, padding.
struct SegmentedCurvesLayout {
  static constexpr std::uint32_t count = 0;         // u16: segmented curves
  static constexpr std::uint32_t segmentShift = 2;  // u8: s, segments of S = 2^s frames
  static constexpr std::uint32_t reserved = 3;      // u8: 0
  static constexpr std::uint32_t rowBits = 4;       // u32: bits of one boundary row
  static constexpr std::uint32_t size = 8;
};
inline constexpr std::uint32_t kCurveSegmentedParamSize = 12;  // u16 curve, u8 width, u8 0, f32 min, f32 step
inline constexpr unsigned kCurveResidualWidthBits = 5;         // a segment's residual width per curve
inline constexpr unsigned kMaxCurveResidualBits = 25;          // a residual of two 24-bit values
inline constexpr unsigned kMinCurveSegmentShift = 2, kMaxCurveSegmentShift = 7;  // 4 to 128 frames

/// Segments of a clip of `frames` (>= 2) frames: boundaries at 0, S, 2S, ..., the last at or past
/// the last frame.
inline std::uint32_t curveSegmentCount(std::uint32_t frames, unsigned shift) {
  return ((frames - 1) + (1u << shift) - 1) >> shift;
}
/// Frames of segment k that store a residual (those between its boundaries, inside the clip).
inline std::uint32_t curveSegmentResiduals(std::uint32_t k, std::uint32_t frames, unsigned shift) {
  const std::uint32_t first = k << shift, inside = frames - 1 - first;
  return inside < (1u << shift) - 1 ? inside : (1u << shift) - 1;
}
/// The line between a segment's boundary values qa and qb at its frame j of 2^shift, rounded half
/// up (integers, an arithmetic shift: every decoder gets the same value).
inline std::int64_t curveSegmentLine(std::int64_t qa, std::int64_t qb, std::uint32_t j, unsigned shift) {
  return qa + (((qb - qa) * std::int64_t(j) + (std::int64_t(1) << shift >> 1)) >> shift);
}

/// Where the segmented part of a curve section keeps each piece (`part`: its header).
struct SegmentedCurvesView {
  const std::uint8_t* params = nullptr;
  const std::uint8_t* table = nullptr;  ///< u32 byte offset of each segment in `data`, and the end
  const std::uint8_t* rows = nullptr;
  const std::uint8_t* data = nullptr;
  std::uint32_t count = 0, shift = 0, segments = 0, rowBits = 0;
  static SegmentedCurvesView at(const std::uint8_t* part, std::uint32_t frames) {
    using L = SegmentedCurvesLayout;
    SegmentedCurvesView g;
    g.count = loadLE<std::uint16_t>(part + L::count);
    g.shift = part[L::segmentShift];
    g.rowBits = loadLE<std::uint32_t>(part + L::rowBits);
    g.segments = curveSegmentCount(frames, g.shift);
    g.params = part + L::size;
    g.table = g.params + std::size_t(kCurveSegmentedParamSize) * g.count;
    g.rows = g.table + 4 * (std::size_t(g.segments) + 1);
    g.data = g.rows + (std::size_t(g.segments + 1) * g.rowBits + 7) / 8;
    return g;
  }
};

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
/// A segmented curve's line in the segment a player is in (format version 9): its boundary value,
/// the step to the next boundary, where its residuals start and their width, its parameters, and
/// its weights at the two frames playback was last between.
struct SegmentedLine {
  std::int32_t qa = 0, d = 0;
  std::uint32_t residuals = 0;  ///< bit of its first residual, from the segment data's start
  std::uint16_t curve = 0;
  std::uint8_t width = 0, unused = 0;
  float minValue = 0, step = 0;
  float v0 = 0, v1 = 0;  ///< the weights at frames f and f + 1 (the header's pair)
};
/// What a player keeps to sample one clip's curves (Player::sample with weights): every curve's
/// value when it does not move (default, constant), each keyed curve's segment, so playback within
/// a segment reads no key, and each segmented curve's line in the current segment, so playback
/// within it reads a residual a frame. Any cache gives the same values as none.
struct CurveCache {
  std::uint32_t clip = 0;  ///< ClipView::id() it holds (0: nothing)
  std::span<float> statics;
  std::span<CurveSegment> segments;
  std::span<SegmentedLine> lines;  ///< one per segmented curve
  /// With segmented curves, 16 bytes before `lines` (nullptr: the lines are not used): the segment
  /// they hold plus 1 (0: none), their count, the segmented part's offset in the clip block and the
  /// frame f + 1 of the pair (f, f + 1) whose weights the lines hold (0: none); the decoder fills it
  /// when the cache takes a clip.
  std::uint32_t* linesHeader = nullptr;
};
/// Bytes a CurveCache of `clip` holds: 4 a curve, sizeof(CurveSegment) (32) a keyed curve,
/// sizeof(SegmentedLine) (32) a segmented curve and 16 when there is one.
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
