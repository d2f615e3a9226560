#pragma once
// The arithmetic of decoding one track value, shared by the Player and the compressor's encoders so
// what the compressor measures while encoding is what the runtime produces.

#include <cmath>
#include <cstdint>

#include "core/runtime/math.h"
#include "core/runtime/spline.h"

namespace animpack::runtime {

/// Uniform track: the Catmull-Rom curve through four quantized boundaries (weights from
/// catmullRomWeights), in value units. The weights sum to 1, so the minimum is added once.
inline float uniformSpline(const float w[4], const std::uint32_t q[4], float minValue, float step) {
  float s = 0.f;
  for (int i = 0; i < 4; ++i) s += w[i] * static_cast<float>(q[i]);
  return minValue + s * step;
}

/// Uniform track: spline value plus a residual given in steps (quantized residual times 2^-shift).
inline float uniformValue(float spline, float residualSteps, float step) { return spline + residualSteps * step; }

/// Scale of one residual unit: 2^-shift (shift 0..15).
inline float residualScale(unsigned shift) {
  static constexpr float kScales[16] = {1.f,
                                        0.5f,
                                        0.25f,
                                        0.125f,
                                        0.0625f,
                                        0.03125f,
                                        0.015625f,
                                        0.0078125f,
                                        0.00390625f,
                                        0.001953125f,
                                        0.0009765625f,
                                        0.00048828125f,
                                        0.000244140625f,
                                        0.0001220703125f,
                                        0.00006103515625f,
                                        0.000030517578125f};
  return kScales[shift & 15u];
}

/// Uniform rotation track: the stored x, y, z of a unit quaternion with w >= 0, relative to
/// `reference` when `hasReference`.
inline Quat uniformRotation(const float v[3], bool hasReference, const Quat& reference) {
  const float rest = 1.f - v[0] * v[0] - v[1] * v[1] - v[2] * v[2];
  // Inside the unit ball the reconstructed quaternion is unit already (and so is its product with
  // a unit reference); only a point pushed outside by quantization needs normalising.
  if (!(rest > 0.f)) return normalized({v[0], v[1], v[2], 0.f});
  const Quat q{v[0], v[1], v[2], std::sqrt(rest)};
  return hasReference ? reference * q : q;
}

/// Keyed track: Catmull-Rom through keys (i0, i1, i2, i3) of `times` and `values` (rows of four
/// floats: x y z w of a rotation, normalised by the caller, x y z 0 of a vector), at frame u in
/// [t[i1], t[i2]].
template <class Row>
inline void keyedSpline(const float* times, const Row* values, int i0, int i1, int i2, int i3, float u, float out[4]) {
  float w[4];
  catmullRomWeights(times[i0], times[i1], times[i2], times[i3], u, w);
  for (int c = 0; c < 4; ++c)
    out[c] = w[0] * values[i0][c] + w[1] * values[i1][c] + w[2] * values[i2][c] + w[3] * values[i3][c];
}

/// Output rotations of keyed tracks are put in one canonical sign, so a value does not depend on the
/// sign its keys were chained in.
inline Quat canonicalSign(Quat q) {
  if (q.w < 0.f || (q.w == 0.f && (q.x < 0.f || (q.x == 0.f && (q.y < 0.f || (q.y == 0.f && q.z < 0.f))))))
    return negated(q);
  return q;
}

}  // namespace animpack::runtime
