#pragma once
// Plain math types shared by the runtime and the rest of core: vectors, quaternions, TRS transforms
// and column-major affine matrices. Standard library only. The types are the public ones
// (animpack/pose.h); the operations are the runtime's own.

#include <cmath>
#include <cstdint>

#include "animpack/pose.h"

namespace animpack::runtime {

inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline float length(Vec3 a) { return std::sqrt(dot(a, a)); }
inline Vec3 lerp(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }

inline float dot(Quat a, Quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
inline Quat negated(Quat q) { return {-q.x, -q.y, -q.z, -q.w}; }
inline Quat conjugate(Quat q) { return {-q.x, -q.y, -q.z, q.w}; }
inline Quat normalized(Quat q) {
  const float n2 = dot(q, q);
  if (!(n2 > 0.f)) return {};
  const float inv = 1.f / std::sqrt(n2);
  return {q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}
/// Hamilton product a*b: rotate by b first, then by a.
inline Quat operator*(Quat a, Quat b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
inline Vec3 rotate(Quat q, Vec3 v) {
  const Vec3 u{q.x, q.y, q.z};
  const Vec3 t = cross(u, v) * 2.f;
  return v + t * q.w + cross(u, t);
}
/// Normalised linear interpolation along the shortest path.
inline Quat nlerp(Quat a, Quat b, float t) {
  if (dot(a, b) < 0.f) b = negated(b);
  return normalized({a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t});
}
/// Rotation steps up to 60 degrees (the endpoints' dot product, the cosine of half the step, at
/// least this) take slerp's weights from a polynomial; larger steps evaluate sines. Measured
/// against double-precision slerp by tests/core/tst_math.cpp: the polynomial's own deviation is
/// below 2e-9 rad on every step it serves, far under float32 rounding.
inline constexpr float kPolynomialSlerpMinDot = 0.8660254f;

/// slerp's weights' series (below) for one fraction t: term i of each weight, kA[i] u^2 - kB[i] for
/// u = 1 - t (the near endpoint's weight) and u = t (the far one's). Every slerp of a pose shares its
/// fraction, so a decoder computes these once per pose.
struct SlerpTerms {
  float t;
  float nearTerms[6];
  float farTerms[6];

  static SlerpTerms of(float t) {
    // Term i multiplies the rest by (u^2 - i^2) / (i (2i + 1)) * (cos(theta) - 1).
    static constexpr float kA[6] = {1.f / 3.f, 1.f / 10.f, 1.f / 21.f, 1.f / 36.f, 1.f / 55.f, 1.f / 78.f};
    static constexpr float kB[6] = {1.f / 3.f, 4.f / 10.f, 9.f / 21.f, 16.f / 36.f, 25.f / 55.f, 36.f / 78.f};
    SlerpTerms s;
    s.t = t;
    const float u = 1.f - t, u2 = u * u, t2 = t * t;
    for (int i = 0; i < 6; ++i) {
      s.nearTerms[i] = kA[i] * u2 - kB[i];
      s.farTerms[i] = kA[i] * t2 - kB[i];
    }
    return s;
  }
};

/// slerp's weight sin(u theta) / sin(theta) from cos(theta) - 1 and u's series terms: the first six
/// terms of its series in (cos(theta) - 1), nested so each term is one multiply-add.
inline float slerpWeight(float u, const float terms[6], float cosMinusOne) {
  float acc = 1.f;
  for (int i = 5; i >= 0; --i) acc = 1.f + terms[i] * cosMinusOne * acc;
  return u * acc;
}

/// acos(x) for x in [0, 1] from + - * / and sqrt alone, so that every target rounds it alike (the
/// libm acosf of glibc x86-64, glibc aarch64 and mingw-w64 differ in the last bits, measured):
/// sqrt(1 - x) times a degree-7 polynomial (Abramowitz and Stegun 4.4.46, error at most 2e-8 rad).
inline float portableAcos(float x) {
  float p = -0.0012624911f;
  for (const float c :
       {0.0066700901f, -0.0170881256f, 0.0308918810f, -0.0501743046f, 0.0889789874f, -0.2145988016f, 1.5707963050f})
    p = p * x + c;
  return std::sqrt(1.f - x) * p;
}

/// sin(x) the same way, for x in [-pi, pi]: folded into [-pi/2, pi/2] (sin(pi - x) = sin x), then its
/// series to x^13 (truncation below 7e-10 there, under float rounding).
inline float portableSin(float x) {
  constexpr float kPi = 3.14159265358979f, kHalfPi = 1.57079632679490f;
  if (x > kHalfPi) x = kPi - x;
  if (x < -kHalfPi) x = -kPi - x;
  const float x2 = x * x;
  float s = 1.f / 6227020800.f;
  for (const float c : {-1.f / 39916800.f, 1.f / 362880.f, -1.f / 5040.f, 1.f / 120.f, -1.f / 6.f, 1.f}) s = s * x2 + c;
  return x * s;
}

/// Spherical linear interpolation along the shortest path (the interpolation the importer and the
/// decoder use between frames) by the fraction `s.t`. Polynomial weights for steps up to 60 degrees,
/// sines beyond (portableAcos, portableSin: bit-identical on every target).
inline Quat slerp(Quat a, Quat b, const SlerpTerms& s) {
  const float t = s.t;
  float d = dot(a, b);
  if (d < 0.f) {
    b = negated(b);
    d = -d;
  }
  float wa, wb;
  if (d >= kPolynomialSlerpMinDot) {
    wa = slerpWeight(1.f - t, s.nearTerms, d - 1.f);
    wb = slerpWeight(t, s.farTerms, d - 1.f);
  } else {
    const float theta = portableAcos(d < 1.f ? d : 1.f);
    const float r = 1.f / portableSin(theta);
    wa = portableSin((1.f - t) * theta) * r;
    wb = portableSin(t * theta) * r;
  }
  return {a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb};
}

inline Quat slerp(Quat a, Quat b, float t) { return slerp(a, b, SlerpTerms::of(t)); }

/// Column-major 3x4 affine matrix: columns 0..2 are the linear part, column 3 the translation.
/// Templated on the scalar so the error metric can compose in double with the same code.
template <typename S>
struct Affine {
  S m[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};

  S& at(int row, int col) { return m[col * 3 + row]; }
  S at(int row, int col) const { return m[col * 3 + row]; }

  static Affine identity() { return {}; }

  /// The matrix of a TRS transform: T * R * S.
  static Affine fromTransform(const Transform& t) {
    const S x = t.rotation.x, y = t.rotation.y, z = t.rotation.z, w = t.rotation.w;
    const S sx = t.scale.x, sy = t.scale.y, sz = t.scale.z;
    Affine a;
    a.m[0] = (1 - 2 * (y * y + z * z)) * sx;
    a.m[1] = (2 * (x * y + z * w)) * sx;
    a.m[2] = (2 * (x * z - y * w)) * sx;
    a.m[3] = (2 * (x * y - z * w)) * sy;
    a.m[4] = (1 - 2 * (x * x + z * z)) * sy;
    a.m[5] = (2 * (y * z + x * w)) * sy;
    a.m[6] = (2 * (x * z + y * w)) * sz;
    a.m[7] = (2 * (y * z - x * w)) * sz;
    a.m[8] = (1 - 2 * (x * x + y * y)) * sz;
    a.m[9] = t.translation.x;
    a.m[10] = t.translation.y;
    a.m[11] = t.translation.z;
    return a;
  }

  template <typename T>
  Affine<T> cast() const {
    Affine<T> r;
    for (int i = 0; i < 12; ++i) r.m[i] = static_cast<T>(m[i]);
    return r;
  }

  /// Point transform (applies translation).
  void transformPoint(const S in[3], S out[3]) const {
    for (int r = 0; r < 3; ++r) out[r] = m[r] * in[0] + m[3 + r] * in[1] + m[6 + r] * in[2] + m[9 + r];
  }
  /// Direction transform (linear part only).
  void transformVector(const S in[3], S out[3]) const {
    for (int r = 0; r < 3; ++r) out[r] = m[r] * in[0] + m[3 + r] * in[1] + m[6 + r] * in[2];
  }

  S determinant3() const {
    return m[0] * (m[4] * m[8] - m[7] * m[5]) - m[3] * (m[1] * m[8] - m[7] * m[2]) + m[6] * (m[1] * m[5] - m[4] * m[2]);
  }

  /// Inverse of an invertible affine matrix; identity if singular.
  Affine inverse() const {
    const S det = determinant3();
    if (det == S(0) || !std::isfinite(static_cast<double>(det))) return {};
    const S inv = S(1) / det;
    Affine r;
    r.m[0] = (m[4] * m[8] - m[7] * m[5]) * inv;
    r.m[1] = (m[7] * m[2] - m[1] * m[8]) * inv;
    r.m[2] = (m[1] * m[5] - m[4] * m[2]) * inv;
    r.m[3] = (m[6] * m[5] - m[3] * m[8]) * inv;
    r.m[4] = (m[0] * m[8] - m[6] * m[2]) * inv;
    r.m[5] = (m[3] * m[2] - m[0] * m[5]) * inv;
    r.m[6] = (m[3] * m[7] - m[6] * m[4]) * inv;
    r.m[7] = (m[6] * m[1] - m[0] * m[7]) * inv;
    r.m[8] = (m[0] * m[4] - m[3] * m[1]) * inv;
    const S t[3] = {m[9], m[10], m[11]};
    S it[3];
    r.transformVector(t, it);
    r.m[9] = -it[0];
    r.m[10] = -it[1];
    r.m[11] = -it[2];
    return r;
  }

  /// 4x4 column-major export (bottom row 0 0 0 1), e.g. for a GPU or QMatrix4x4(data, 4, 4).
  void toMatrix4(S out[16]) const {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 3; ++r) out[c * 4 + r] = m[c * 3 + r];
      out[c * 4 + 3] = c == 3 ? S(1) : S(0);
    }
  }
  static Affine fromMatrix4(const S in[16]) {
    Affine a;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 3; ++r) a.m[c * 3 + r] = in[c * 4 + r];
    return a;
  }
};

template <typename S>
inline Affine<S> operator*(const Affine<S>& a, const Affine<S>& b) {
  Affine<S> r;
  for (int c = 0; c < 4; ++c) {
    for (int row = 0; row < 3; ++row) {
      S v = a.m[row] * b.m[c * 3] + a.m[3 + row] * b.m[c * 3 + 1] + a.m[6 + row] * b.m[c * 3 + 2];
      if (c == 3) v += a.m[9 + row];
      r.m[c * 3 + row] = v;
    }
  }
  return r;
}

using Mat34 = Affine<float>;

}  // namespace animpack::runtime
