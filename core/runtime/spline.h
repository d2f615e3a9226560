#pragma once
// Catmull-Rom evaluation with key times as the parameter. The curve through
// p1 (at t1) and p2 (at t2) is a cubic Hermite whose tangents are the Catmull-Rom finite
// differences (p2 - p0) / (t2 - t0) and (p3 - p1) / (t3 - t1). A missing neighbour is passed as a
// copy of the endpoint (p0 = p1, t0 = t1), which gives the one-sided difference.

namespace animpack::runtime {

/// Weights w[0..3] such that the curve at u (t1 <= u <= t2) is sum(w[i] * p[i]). The curve is
/// linear in the control values, which lets the compressor fit keys by least squares.
inline void catmullRomWeights(float t0, float t1, float t2, float t3, float u, float w[4]) {
  const float h = t2 - t1;
  const float s = h > 0.f ? (u - t1) / h : 0.f;
  const float s2 = s * s, s3 = s2 * s;
  const float h00 = 2.f * s3 - 3.f * s2 + 1.f;
  const float h10 = s3 - 2.f * s2 + s;
  const float h01 = -2.f * s3 + 3.f * s2;
  const float h11 = s3 - s2;
  const float a = t2 > t0 ? h * h10 / (t2 - t0) : 0.f;
  const float b = t3 > t1 ? h * h11 / (t3 - t1) : 0.f;
  w[0] = -a;
  w[1] = h00 - b;
  w[2] = h01 + a;
  w[3] = b;
}

}  // namespace animpack::runtime
