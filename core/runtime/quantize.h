#pragma once
// Quantized value formats shared by the compressor (encode) and the runtime (decode):
// smallest-three quaternions in 48 bits (3 x 15 + 2-bit index) or 32 bits (3 x 10 + 2-bit index),
// and 16-bit vector components over a per-track range.

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/runtime/math.h"

namespace animpack::runtime {

inline constexpr float kSmallestThreeRange = 0.70710678118654752f;  // 1/sqrt(2)

/// Largest per-component error of a 48-bit smallest-three quaternion (half a quantization step).
inline constexpr float kQ48ComponentError = kSmallestThreeRange / 32767.f;
/// Largest per-component error of a 32-bit smallest-three quaternion.
inline constexpr float kQ32ComponentError = kSmallestThreeRange / 1023.f;

namespace detail {
/// Splits q into the index of its largest-magnitude component and the other three, sign-flipped so
/// that the dropped component is positive.
inline int smallestThree(Quat q, float out[3]) {
  const float c[4] = {q.x, q.y, q.z, q.w};
  int largest = 0;
  for (int i = 1; i < 4; ++i)
    if (std::fabs(c[i]) > std::fabs(c[largest])) largest = i;
  const float sign = c[largest] < 0.f ? -1.f : 1.f;
  int k = 0;
  for (int i = 0; i < 4; ++i)
    if (i != largest) out[k++] = c[i] * sign;
  return largest;
}
inline std::uint32_t quantizeUnit(float v, std::uint32_t maxValue) {
  const float t =
      (std::clamp(v, -kSmallestThreeRange, kSmallestThreeRange) + kSmallestThreeRange) / (2.f * kSmallestThreeRange);
  return static_cast<std::uint32_t>(std::lround(t * static_cast<float>(maxValue)));
}
inline float dequantizeUnit(std::uint32_t q, std::uint32_t maxValue) {
  return static_cast<float>(q) * (2.f * kSmallestThreeRange / static_cast<float>(maxValue)) - kSmallestThreeRange;
}
inline Quat assemble(int largest, const float v[3]) {
  const float rest = 1.f - v[0] * v[0] - v[1] * v[1] - v[2] * v[2];
  const float dropped = rest > 0.f ? std::sqrt(rest) : 0.f;
  float c[4];
  int k = 0;
  for (int i = 0; i < 4; ++i) c[i] = i == largest ? dropped : v[k++];
  return normalized({c[0], c[1], c[2], c[3]});
}
}  // namespace detail

/// Packs a unit quaternion into 48 bits: three 15-bit components in v[0..2] bits 0..44, index in 45..46.
inline void packQuat48(Quat q, std::uint16_t out[3]) {
  float v[3];
  const int largest = detail::smallestThree(normalized(q), v);
  const std::uint64_t bits = std::uint64_t(detail::quantizeUnit(v[0], 32767)) |
                             (std::uint64_t(detail::quantizeUnit(v[1], 32767)) << 15) |
                             (std::uint64_t(detail::quantizeUnit(v[2], 32767)) << 30) | (std::uint64_t(largest) << 45);
  out[0] = static_cast<std::uint16_t>(bits);
  out[1] = static_cast<std::uint16_t>(bits >> 16);
  out[2] = static_cast<std::uint16_t>(bits >> 32);
}
inline Quat unpackQuat48(const std::uint16_t in[3]) {
  const std::uint64_t bits = std::uint64_t(in[0]) | (std::uint64_t(in[1]) << 16) | (std::uint64_t(in[2]) << 32);
  const float v[3] = {detail::dequantizeUnit(bits & 0x7fff, 32767),
                      detail::dequantizeUnit((bits >> 15) & 0x7fff, 32767),
                      detail::dequantizeUnit((bits >> 30) & 0x7fff, 32767)};
  return detail::assemble(static_cast<int>((bits >> 45) & 3), v);
}

/// Packs a unit quaternion into 32 bits: three 10-bit components, index in bits 30..31.
inline std::uint32_t packQuat32(Quat q) {
  float v[3];
  const int largest = detail::smallestThree(normalized(q), v);
  return detail::quantizeUnit(v[0], 1023) | (detail::quantizeUnit(v[1], 1023) << 10) |
         (detail::quantizeUnit(v[2], 1023) << 20) | (std::uint32_t(largest) << 30);
}
inline Quat unpackQuat32(std::uint32_t bits) {
  const float v[3] = {detail::dequantizeUnit(bits & 1023, 1023), detail::dequantizeUnit((bits >> 10) & 1023, 1023),
                      detail::dequantizeUnit((bits >> 20) & 1023, 1023)};
  return detail::assemble(static_cast<int>(bits >> 30), v);
}

/// 16-bit quantization of a value over [minValue, minValue + extent].
inline std::uint16_t packUnorm16(float v, float minValue, float extent) {
  if (!(extent > 0.f)) return 0;
  const float t = std::clamp((v - minValue) / extent, 0.f, 1.f);
  return static_cast<std::uint16_t>(std::lround(t * 65535.f));
}
inline float unpackUnorm16(std::uint16_t q, float minValue, float extent) {
  return minValue + static_cast<float>(q) * (extent / 65535.f);
}

}  // namespace animpack::runtime
