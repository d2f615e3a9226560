#pragma once
// Four float lanes for decoding four tracks at once (structure of arrays). Three implementations
// with one interface: `PortableLanes` (plain C++, any target), `Sse2Lanes` (x86-64's SSE2 baseline)
// and `Avx2Lanes` (SSE2's, for code compiled for AVX2 and chosen at run time on CPUs that have it).
// All use only operations IEEE-754 rounds exactly (add, sub, mul, div, sqrt, compare, select,
// int32 -> float), never a fused multiply-add, and the decoding kernels are written once against the
// interface, so they give bit-identical results and a pack decodes the same on every target.

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/runtime/bits.h"

#if defined(__SSE2__) && !defined(ANIMPACK_NO_SIMD)
#include <emmintrin.h>
#define ANIMPACK_HAVE_SSE2 1
// GCC and Clang compile single functions for AVX2 (target attribute) and check the CPU at run time.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ANIMPACK_HAVE_AVX2 1
#endif
#endif

namespace animpack::runtime {

/// Which lane implementation a Player decodes with (all give bit-identical poses).
enum class DecodePath : std::uint8_t {
  Simd,    ///< the widest this CPU runs: AVX2 on x86-64 CPUs that have it, else SSE2 (else the portable lanes)
  Scalar,  ///< plain C++ lanes, on every target
  Sse2,    ///< SSE2 even on a CPU with AVX2 (the portable lanes where SSE2 is not available)
};

/// True when this build has a SIMD implementation (x86-64 without ANIMPACK_NO_SIMD).
constexpr bool simdAvailable() {
#if defined(ANIMPACK_HAVE_SSE2)
  return true;
#else
  return false;
#endif
}

/// True when this build has the AVX2 path and the CPU it runs on has AVX2 and BMI2 (checked once).
inline bool avx2Available() {
#if defined(ANIMPACK_HAVE_AVX2)
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
  }();
  return has;
#else
  return false;
#endif
}

/// The lane implementation `path` decodes with on this CPU: "avx2", "sse2" or "scalar".
inline const char* decodePathName(DecodePath path) {
  if (path == DecodePath::Scalar || !simdAvailable()) return "scalar";
  return path == DecodePath::Simd && avx2Available() ? "avx2" : "sse2";
}

/// Bit unpacking of four lanes with one 64-bit word per lane (plain C++ shifts), for the lanes
/// without per-lane variable shifts; `L` makes the lane vectors.
template <class L>
struct ScalarWords {
  struct W {
    std::uint64_t v[4];
  };
  /// Each lane's 64 bits from bit base[l] + frame x stride[l] of `data` on (bitsAt).
  static W words(const std::uint8_t* data, const std::uint32_t base[4], const std::uint8_t stride[4],
                 std::uint32_t frame) {
    W w;
    for (int l = 0; l < 4; ++l) w.v[l] = bitsAt(data, base[l] + std::uint64_t(frame) * stride[l]);
    return w;
  }
  using Shifts = const std::uint8_t*;
  /// Per-lane shift counts (0..63) for shiftWords.
  static Shifts shifts(const std::uint8_t counts[4]) { return counts; }
  /// The low 32 bits of each lane's word shifted right by its count.
  static auto shiftWords(const W& w, Shifts o) {
    return L::ints(static_cast<std::uint32_t>(w.v[0] >> o[0]), static_cast<std::uint32_t>(w.v[1] >> o[1]),
                   static_cast<std::uint32_t>(w.v[2] >> o[2]), static_cast<std::uint32_t>(w.v[3] >> o[3]));
  }
};

struct PortableLanes : ScalarWords<PortableLanes> {
  struct F {
    float v[4];
  };
  struct I {
    std::uint32_t v[4];
  };
  using M = I;  // all-ones or zero per lane

  static F set(float x) { return {{x, x, x, x}}; }
  static F load(const float* p) {
    F r;
    std::memcpy(r.v, p, sizeof(r.v));
    return r;
  }
  static void store(float* p, F a) { std::memcpy(p, a.v, sizeof(a.v)); }
  static I loadInts(const std::uint32_t* p) {
    I r;
    std::memcpy(r.v, p, sizeof(r.v));
    return r;
  }

#define ANIMPACK_LANEWISE(expr)                \
  F r;                                         \
  for (int i = 0; i < 4; ++i) r.v[i] = (expr); \
  return r
  static F add(F a, F b) { ANIMPACK_LANEWISE(a.v[i] + b.v[i]); }
  static F sub(F a, F b) { ANIMPACK_LANEWISE(a.v[i] - b.v[i]); }
  static F mul(F a, F b) { ANIMPACK_LANEWISE(a.v[i] * b.v[i]); }
  static F div(F a, F b) { ANIMPACK_LANEWISE(a.v[i] / b.v[i]); }
  static F sqrt(F a) { ANIMPACK_LANEWISE(std::sqrt(a.v[i])); }
  static F neg(F a) { ANIMPACK_LANEWISE(-a.v[i]); }
#undef ANIMPACK_LANEWISE

#define ANIMPACK_LANEMASK(expr)                           \
  M r;                                                    \
  for (int i = 0; i < 4; ++i) r.v[i] = (expr) ? ~0u : 0u; \
  return r
  static M lt(F a, F b) { ANIMPACK_LANEMASK(a.v[i] < b.v[i]); }
  static M gt(F a, F b) { ANIMPACK_LANEMASK(a.v[i] > b.v[i]); }
  static M ge(F a, F b) { ANIMPACK_LANEMASK(a.v[i] >= b.v[i]); }
  static M eq(F a, F b) { ANIMPACK_LANEMASK(a.v[i] == b.v[i]); }
#undef ANIMPACK_LANEMASK

#define ANIMPACK_INTWISE(expr)                 \
  I r;                                         \
  for (int i = 0; i < 4; ++i) r.v[i] = (expr); \
  return r
  static M andMask(M a, M b) { ANIMPACK_INTWISE(a.v[i] & b.v[i]); }
  static M orMask(M a, M b) { ANIMPACK_INTWISE(a.v[i] | b.v[i]); }
  static M notMask(M a) { ANIMPACK_INTWISE(~a.v[i]); }
  static I andInts(I a, I b) { ANIMPACK_INTWISE(a.v[i] & b.v[i]); }
  static I xorInts(I a, I b) { ANIMPACK_INTWISE(a.v[i] ^ b.v[i]); }
  static I subInts(I a, I b) { ANIMPACK_INTWISE(a.v[i] - b.v[i]); }
  static I addInts(I a, I b) { ANIMPACK_INTWISE(a.v[i] + b.v[i]); }
  static I orInts(I a, I b) { ANIMPACK_INTWISE(a.v[i] | b.v[i]); }
  static I eqInts(I a, I b) { ANIMPACK_INTWISE(a.v[i] == b.v[i] ? ~0u : 0u); }
  static I shr1(I a) { ANIMPACK_INTWISE(a.v[i] >> 1); }
  template <int N>
  static I shr(I a) {
    ANIMPACK_INTWISE(a.v[i] >> N);
  }
  template <int N>
  static I shl(I a) {
    ANIMPACK_INTWISE(a.v[i] << N);
  }
  /// 2^a per lane, a in 0..31.
  static I powerOfTwo(I a) { ANIMPACK_INTWISE(1u << a.v[i]); }
  /// 2^-a per lane as a float, a in 0..126.
  static F powerOfHalf(I a) {
    F r;
    for (int i = 0; i < 4; ++i) r.v[i] = std::ldexp(1.f, -static_cast<int>(a.v[i]));
    return r;
  }
  static void storeInts(std::uint32_t* p, I a) { std::memcpy(p, a.v, sizeof(a.v)); }
  /// Lane i of each of a, b, c, d (each 0..255) to p[0][i], p[1][i], p[2][i], p[3][i].
  static void storeBytes(std::uint8_t (*p)[4], I a, I b, I c, I d) {
    const I all[4] = {a, b, c, d};
    for (int r = 0; r < 4; ++r)
      for (int i = 0; i < 4; ++i) p[r][i] = static_cast<std::uint8_t>(all[r].v[i]);
  }
  /// Lane i of `a` (each 0..255) to p[i].
  static void storeBytes(std::uint8_t* p, I a) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(a.v[i]);
  }
  /// Whether any lane of `a` (each below 2^31) exceeds x.
  static bool anyAbove(I a, std::uint32_t x) { return a.v[0] > x || a.v[1] > x || a.v[2] > x || a.v[3] > x; }
  static I setInts(std::uint32_t x) { return {{x, x, x, x}}; }
  static I ints(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) { return {{a, b, c, d}}; }
  static F floats(float a, float b, float c, float d) { return {{a, b, c, d}}; }
#undef ANIMPACK_INTWISE

  /// Lanes of `a` where `m` is set, `b` elsewhere.
  static F select(M m, F a, F b) {
    F r;
    for (int i = 0; i < 4; ++i) r.v[i] = m.v[i] ? a.v[i] : b.v[i];
    return r;
  }
  static F flipSign(M m, F a) { return select(m, neg(a), a); }
  /// All ones where a and b hold the same bits (a float compare would take -0 for +0).
  static M sameBits(F a, F b) {
    M r;
    for (int i = 0; i < 4; ++i)
      r.v[i] = std::bit_cast<std::uint32_t>(a.v[i]) == std::bit_cast<std::uint32_t>(b.v[i]) ? ~0u : 0u;
    return r;
  }
  /// Two's complement int32 -> float, rounded to nearest.
  static F fromInt(I a) {
    F r;
    for (int i = 0; i < 4; ++i) r.v[i] = static_cast<float>(static_cast<std::int32_t>(a.v[i]));
    return r;
  }
  /// uint32 -> float, rounded to nearest (as static_cast<float>(std::uint32_t)).
  static F fromUint(I a) {
    F r;
    for (int i = 0; i < 4; ++i) r.v[i] = static_cast<float>(a.v[i]);
    return r;
  }
  static bool any(M m) { return (m.v[0] | m.v[1] | m.v[2] | m.v[3]) != 0; }
  static bool lane(M m, int i) { return m.v[i] != 0; }
  static float lane(F a, int i) { return a.v[i]; }
  static F withLane(F a, int i, float x) {
    a.v[i] = x;
    return a;
  }
  /// Lane i of out[c] = records[i][c] for ten-float records (a Transform: rotation, translation, scale).
  static void gatherRecords10(const float* const records[4], F out[10]) {
    for (int c = 0; c < 10; ++c)
      for (int i = 0; i < 4; ++i) out[c].v[i] = records[i][c];
  }
  /// Lane i of out[c] = the c-th little-endian float at bytes[i] (four floats per lane, unaligned).
  static void gather4(const std::uint8_t* const bytes[4], F out[4]) {
    for (int c = 0; c < 4; ++c)
      for (int i = 0; i < 4; ++i) std::memcpy(&out[c].v[i], bytes[i] + 4 * c, sizeof(float));
  }
  /// Writes lane i's (x, y, z, w) to `base + offsets[i]` for the first `count` lanes.
  static void storeQuads(F x, F y, F z, F w, unsigned char* base, const std::uint32_t* offsets, unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      const float q[4] = {x.v[i], y.v[i], z.v[i], w.v[i]};
      std::memcpy(base + offsets[i], q, sizeof(q));
    }
  }
  /// Writes lane i's (x, y, z) to `base + offsets[i]` for the first `count` lanes.
  static void storeTriples(F x, F y, F z, unsigned char* base, const std::uint32_t* offsets, unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      const float v[3] = {x.v[i], y.v[i], z.v[i]};
      std::memcpy(base + offsets[i], v, sizeof(v));
    }
  }
};

#if defined(ANIMPACK_HAVE_SSE2)
struct Sse2Lanes : ScalarWords<Sse2Lanes> {
  struct F {
    __m128 v;
  };
  struct I {
    __m128i v;
  };
  using M = I;

  static F set(float x) { return {_mm_set1_ps(x)}; }
  static F load(const float* p) { return {_mm_loadu_ps(p)}; }
  static void store(float* p, F a) { _mm_storeu_ps(p, a.v); }
  static I loadInts(const std::uint32_t* p) { return {_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))}; }

  static F add(F a, F b) { return {_mm_add_ps(a.v, b.v)}; }
  static F sub(F a, F b) { return {_mm_sub_ps(a.v, b.v)}; }
  static F mul(F a, F b) { return {_mm_mul_ps(a.v, b.v)}; }
  static F div(F a, F b) { return {_mm_div_ps(a.v, b.v)}; }
  static F sqrt(F a) { return {_mm_sqrt_ps(a.v)}; }
  static F neg(F a) { return {_mm_xor_ps(a.v, _mm_set1_ps(-0.f))}; }

  static M lt(F a, F b) { return {_mm_castps_si128(_mm_cmplt_ps(a.v, b.v))}; }
  static M gt(F a, F b) { return {_mm_castps_si128(_mm_cmpgt_ps(a.v, b.v))}; }
  static M ge(F a, F b) { return {_mm_castps_si128(_mm_cmpge_ps(a.v, b.v))}; }
  static M eq(F a, F b) { return {_mm_castps_si128(_mm_cmpeq_ps(a.v, b.v))}; }

  static M andMask(M a, M b) { return {_mm_and_si128(a.v, b.v)}; }
  static M orMask(M a, M b) { return {_mm_or_si128(a.v, b.v)}; }
  static M notMask(M a) { return {_mm_xor_si128(a.v, _mm_set1_epi32(-1))}; }
  static I andInts(I a, I b) { return {_mm_and_si128(a.v, b.v)}; }
  static I xorInts(I a, I b) { return {_mm_xor_si128(a.v, b.v)}; }
  static I subInts(I a, I b) { return {_mm_sub_epi32(a.v, b.v)}; }
  static I addInts(I a, I b) { return {_mm_add_epi32(a.v, b.v)}; }
  static I orInts(I a, I b) { return {_mm_or_si128(a.v, b.v)}; }
  static I eqInts(I a, I b) { return {_mm_cmpeq_epi32(a.v, b.v)}; }
  static I shr1(I a) { return {_mm_srli_epi32(a.v, 1)}; }
  template <int N>
  static I shr(I a) {
    return {_mm_srli_epi32(a.v, N)};
  }
  template <int N>
  static I shl(I a) {
    return {_mm_slli_epi32(a.v, N)};
  }
  static I powerOfTwo(I a) {
    // The float 2^a built from its exponent bits, truncated to int32; 2^31 is out of range and
    // converts to 0x80000000, which is 2^31 read as unsigned.
    const __m128 p = _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(a.v, _mm_set1_epi32(127)), 23));
    return {_mm_cvttps_epi32(p)};
  }
  static F powerOfHalf(I a) { return {_mm_castsi128_ps(_mm_slli_epi32(_mm_sub_epi32(_mm_set1_epi32(127), a.v), 23))}; }
  static void storeInts(std::uint32_t* p, I a) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), a.v); }
  static void storeBytes(std::uint8_t (*p)[4], I a, I b, I c, I d) {
    const __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(a.v, b.v), _mm_packs_epi32(c.v, d.v));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), bytes);
  }
  static void storeBytes(std::uint8_t* p, I a) {
    const __m128i words = _mm_packs_epi32(a.v, a.v);
    const __m128i bytes = _mm_packus_epi16(words, words);
    const int word = _mm_cvtsi128_si32(bytes);
    std::memcpy(p, &word, 4);
  }
  static bool anyAbove(I a, std::uint32_t x) {
    return _mm_movemask_epi8(_mm_cmpgt_epi32(a.v, _mm_set1_epi32(static_cast<int>(x)))) != 0;
  }
  static I setInts(std::uint32_t x) { return {_mm_set1_epi32(static_cast<int>(x))}; }
  static F floats(float a, float b, float c, float d) { return {_mm_set_ps(d, c, b, a)}; }
  // From registers, not through memory: four scalar stores read back as one vector stall the load.
  static I ints(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    return {_mm_set_epi32(static_cast<int>(d), static_cast<int>(c), static_cast<int>(b), static_cast<int>(a))};
  }

  static F select(M m, F a, F b) {
    const __m128 mask = _mm_castsi128_ps(m.v);
    return {_mm_or_ps(_mm_and_ps(mask, a.v), _mm_andnot_ps(mask, b.v))};
  }
  static F flipSign(M m, F a) { return {_mm_xor_ps(a.v, _mm_and_ps(_mm_castsi128_ps(m.v), _mm_set1_ps(-0.f)))}; }
  /// All ones where a and b hold the same bits (a float compare would take -0 for +0).
  static M sameBits(F a, F b) { return {_mm_cmpeq_epi32(_mm_castps_si128(a.v), _mm_castps_si128(b.v))}; }
  static F fromInt(I a) { return {_mm_cvtepi32_ps(a.v)}; }
  static F fromUint(I a) {
    // Both halves convert exactly; their sum is rounded once, like a direct conversion.
    const __m128i lo = _mm_and_si128(a.v, _mm_set1_epi32(0xffff));
    const __m128i hi = _mm_srli_epi32(a.v, 16);
    return {_mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(hi), _mm_set1_ps(65536.f)), _mm_cvtepi32_ps(lo))};
  }
  static bool any(M m) { return _mm_movemask_ps(_mm_castsi128_ps(m.v)) != 0; }
  static bool lane(M m, int i) { return (_mm_movemask_ps(_mm_castsi128_ps(m.v)) >> i) & 1; }
  static float lane(F a, int i) {
    alignas(16) float t[4];
    _mm_store_ps(t, a.v);
    return t[i];
  }
  static F withLane(F a, int i, float x) {
    alignas(16) float t[4];
    _mm_store_ps(t, a.v);
    t[i] = x;
    return {_mm_load_ps(t)};
  }
  static void gatherRecords10(const float* const records[4], F out[10]) {
    // Floats 0-3, 4-7 and 6-9 of each record, transposed: three loads per record instead of ten.
    __m128 a0 = _mm_loadu_ps(records[0]), a1 = _mm_loadu_ps(records[1]), a2 = _mm_loadu_ps(records[2]),
           a3 = _mm_loadu_ps(records[3]);
    _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
    __m128 b0 = _mm_loadu_ps(records[0] + 4), b1 = _mm_loadu_ps(records[1] + 4), b2 = _mm_loadu_ps(records[2] + 4),
           b3 = _mm_loadu_ps(records[3] + 4);
    _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
    __m128 c0 = _mm_loadu_ps(records[0] + 6), c1 = _mm_loadu_ps(records[1] + 6), c2 = _mm_loadu_ps(records[2] + 6),
           c3 = _mm_loadu_ps(records[3] + 6);
    _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
    const __m128 all[10] = {a0, a1, a2, a3, b0, b1, b2, c1, c2, c3};
    for (int c = 0; c < 10; ++c) out[c].v = all[c];
  }
  static void gather4(const std::uint8_t* const bytes[4], F out[4]) {
    __m128 a0 = _mm_loadu_ps(reinterpret_cast<const float*>(bytes[0])),
           a1 = _mm_loadu_ps(reinterpret_cast<const float*>(bytes[1])),
           a2 = _mm_loadu_ps(reinterpret_cast<const float*>(bytes[2])),
           a3 = _mm_loadu_ps(reinterpret_cast<const float*>(bytes[3]));
    _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
    out[0].v = a0;
    out[1].v = a1;
    out[2].v = a2;
    out[3].v = a3;
  }
  static void storeQuads(F x, F y, F z, F w, unsigned char* base, const std::uint32_t* offsets, unsigned count) {
    __m128 a = x.v, b = y.v, c = z.v, d = w.v;
    _MM_TRANSPOSE4_PS(a, b, c, d);
    const __m128 lanes[4] = {a, b, c, d};
    for (unsigned i = 0; i < count; ++i) _mm_storeu_ps(reinterpret_cast<float*>(base + offsets[i]), lanes[i]);
  }
  static void storeTriples(F x, F y, F z, unsigned char* base, const std::uint32_t* offsets, unsigned count) {
    __m128 a = x.v, b = y.v, c = z.v, d = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(a, b, c, d);
    const __m128 lanes[4] = {a, b, c, d};
    for (unsigned i = 0; i < count; ++i) {
      float* p = reinterpret_cast<float*>(base + offsets[i]);
      _mm_storel_pi(reinterpret_cast<__m64*>(p), lanes[i]);
      _mm_store_ss(p + 2, _mm_movehl_ps(lanes[i], lanes[i]));
    }
  }
};
#endif

#if defined(ANIMPACK_HAVE_AVX2)
/// Two sets of four lanes in one 256-bit register, each half computed as Avx2Lanes computes four
/// lanes (no FMA; compares as SSE's), so each half is bit-identical to the four-lane code. Used
/// for a batch at two frames (kernels::Uniform::evaluate: the lower half the first frame, the upper
/// the second; parameters and boundary rows loaded into both halves) and for two batches at one
/// time (kernels::Uniform::finishRotations: the lower half one batch, the upper the next).
struct Avx2PairLanes {
  struct F {
    __m256 v;
  };
  struct M {
    __m256 v;  // all ones or zero per lane
  };
  using I = M;

  [[gnu::target("avx2")]] static F set(float x) { return {_mm256_set1_ps(x)}; }
  /// Four floats into both halves.
  [[gnu::target("avx2")]] static F load(const float* p) {
    return {_mm256_broadcast_ps(reinterpret_cast<const __m128*>(p))};
  }
  [[gnu::target("avx2")]] static M loadInts(const std::uint32_t* p) {
    return {_mm256_castsi256_ps(_mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))))};
  }
  [[gnu::target("avx2")]] static F add(F a, F b) { return {_mm256_add_ps(a.v, b.v)}; }
  [[gnu::target("avx2")]] static F sub(F a, F b) { return {_mm256_sub_ps(a.v, b.v)}; }
  [[gnu::target("avx2")]] static F mul(F a, F b) { return {_mm256_mul_ps(a.v, b.v)}; }
  [[gnu::target("avx2")]] static F div(F a, F b) { return {_mm256_div_ps(a.v, b.v)}; }
  [[gnu::target("avx2")]] static F sqrt(F a) { return {_mm256_sqrt_ps(a.v)}; }
  /// SSE's cmpgt: ordered, so false where either is NaN.
  [[gnu::target("avx2")]] static M gt(F a, F b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OS)}; }
  [[gnu::target("avx2")]] static M lt(F a, F b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LT_OS)}; }
  [[gnu::target("avx2")]] static M ge(F a, F b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OS)}; }
  /// SSE's cmpeq: ordered, quiet.
  [[gnu::target("avx2")]] static M eq(F a, F b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ)}; }
  [[gnu::target("avx2")]] static M andMask(M a, M b) { return {_mm256_and_ps(a.v, b.v)}; }
  [[gnu::target("avx2")]] static M orMask(M a, M b) { return {_mm256_or_ps(a.v, b.v)}; }
  [[gnu::target("avx2")]] static M notMask(M a) {
    return {_mm256_xor_ps(a.v, _mm256_castsi256_ps(_mm256_set1_epi32(-1)))};
  }
  [[gnu::target("avx2")]] static F select(M m, F a, F b) { return {_mm256_blendv_ps(b.v, a.v, m.v)}; }
  [[gnu::target("avx2")]] static F flipSign(M m, F a) {
    return {_mm256_xor_ps(a.v, _mm256_and_ps(m.v, _mm256_set1_ps(-0.f)))};
  }
  // 32-bit integer lanes, kept in the float register type (the casts cost nothing).
  [[gnu::target("avx2")]] static I setInts(std::uint32_t x) {
    return {_mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(x)))};
  }
  [[gnu::target("avx2")]] static I andInts(I a, I b) { return {_mm256_and_ps(a.v, b.v)}; }
  [[gnu::target("avx2")]] static I xorInts(I a, I b) { return {_mm256_xor_ps(a.v, b.v)}; }
  [[gnu::target("avx2")]] static I addInts(I a, I b) {
    return {_mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(a.v), _mm256_castps_si256(b.v)))};
  }
  [[gnu::target("avx2")]] static I subInts(I a, I b) {
    return {_mm256_castsi256_ps(_mm256_sub_epi32(_mm256_castps_si256(a.v), _mm256_castps_si256(b.v)))};
  }
  [[gnu::target("avx2")]] static I shr1(I a) {
    return {_mm256_castsi256_ps(_mm256_srli_epi32(_mm256_castps_si256(a.v), 1))};
  }
  [[gnu::target("avx2")]] static F fromInt(I a) { return {_mm256_cvtepi32_ps(_mm256_castps_si256(a.v))}; }
  [[gnu::target("avx2")]] static bool any(M m) { return _mm256_movemask_ps(m.v) != 0; }
  [[gnu::target("avx2")]] static bool lane(M m, int i) { return (_mm256_movemask_ps(m.v) >> i) & 1; }
  [[gnu::target("avx2")]] static float lane(F a, int i) {
    alignas(32) float t[8];
    _mm256_store_ps(t, a.v);
    return t[i];
  }
  [[gnu::target("avx2")]] static F withLane(F a, int i, float x) {
    alignas(32) float t[8];
    _mm256_store_ps(t, a.v);
    t[i] = x;
    return {_mm256_load_ps(t)};
  }
  /// The first frame's lanes and the second's in one register.
  [[gnu::target("avx2")]] static F pair(Sse2Lanes::F first, Sse2Lanes::F second) {
    return {_mm256_insertf128_ps(_mm256_castps128_ps256(first.v), second.v, 1)};
  }
  /// Sse2Lanes::storeQuads of the lower half's lanes (`lowCount` of them, to `lowOffsets`) and the
  /// upper half's, transposed in one pass for both.
  [[gnu::target("avx2")]] static void storeQuadPair(F x, F y, F z, F w, unsigned char* base,
                                                    const std::uint32_t* lowOffsets, unsigned lowCount,
                                                    const std::uint32_t* highOffsets, unsigned highCount) {
    const __m256 xy0 = _mm256_unpacklo_ps(x.v, y.v), xy1 = _mm256_unpackhi_ps(x.v, y.v);
    const __m256 zw0 = _mm256_unpacklo_ps(z.v, w.v), zw1 = _mm256_unpackhi_ps(z.v, w.v);
    const __m256 lanes[4] = {_mm256_shuffle_ps(xy0, zw0, 0x44), _mm256_shuffle_ps(xy0, zw0, 0xee),
                             _mm256_shuffle_ps(xy1, zw1, 0x44), _mm256_shuffle_ps(xy1, zw1, 0xee)};
    for (unsigned i = 0; i < lowCount; ++i)
      _mm_storeu_ps(reinterpret_cast<float*>(base + lowOffsets[i]), _mm256_castps256_ps128(lanes[i]));
    for (unsigned i = 0; i < highCount; ++i)
      _mm_storeu_ps(reinterpret_cast<float*>(base + highOffsets[i]), _mm256_extractf128_ps(lanes[i], 1));
  }
  /// The lower (first) and upper (second) half of a register, as four lanes.
  [[gnu::target("avx2")]] static Sse2Lanes::F low(F a) { return {_mm256_castps256_ps128(a.v)}; }
  [[gnu::target("avx2")]] static Sse2Lanes::F high(F a) { return {_mm256_extractf128_ps(a.v, 1)}; }
  [[gnu::target("avx2")]] static void storePair(float* first, float* second, F a) {
    _mm_storeu_ps(first, _mm256_castps256_ps128(a.v));
    _mm_storeu_ps(second, _mm256_extractf128_ps(a.v, 1));
  }
};

/// Eight lanes in one 256-bit register, each half computed as Avx2Lanes computes four (the paired
/// lanes' operations), for eight joints of a blend at once: records gathered four a half with
/// SSE2's transposes, quads stored with the paired transpose.
struct Avx2EightLanes : Avx2PairLanes {
  [[gnu::target("avx2")]] static F neg(F a) { return {_mm256_xor_ps(a.v, _mm256_set1_ps(-0.f))}; }
  /// Lane i from p[i].
  [[gnu::target("avx2")]] static F fromLanes(const float* p) { return {_mm256_loadu_ps(p)}; }
  [[gnu::target("avx2")]] static void gatherRecords10(const float* const records[8], F out[10]) {
    Sse2Lanes::F low[10], high[10];
    Sse2Lanes::gatherRecords10(records, low);
    Sse2Lanes::gatherRecords10(records + 4, high);
    for (int c = 0; c < 10; ++c) out[c] = pair(low[c], high[c]);
  }
  [[gnu::target("avx2")]] static void storeQuads(F x, F y, F z, F w, unsigned char* base, const std::uint32_t* offsets,
                                                 unsigned count) {
    storeQuadPair(x, y, z, w, base, offsets, count < 4 ? count : 4, offsets + 4, count > 4 ? count - 4 : 0);
  }
  [[gnu::target("avx2")]] static void storeTriples(F x, F y, F z, unsigned char* base, const std::uint32_t* offsets,
                                                   unsigned count) {
    Sse2Lanes::storeTriples(half(x, 0), half(y, 0), half(z, 0), base, offsets, count < 4 ? count : 4);
    if (count > 4) Sse2Lanes::storeTriples(half(x, 1), half(y, 1), half(z, 1), base, offsets + 4, count - 4);
  }
  /// gatherRecords10 of eight consecutive records (`first`, `first + 10`, ...): floats 0-3, 4-7 and
  /// 6-9 of records i and i + 4 in one register each, transposed in 128-bit halves.
  [[gnu::target("avx2")]] static void loadBlock10(const float* first, F out[10]) {
    F unused[2];
    loadQuadBlock(first, 0, out[0], out[1], out[2], out[3]);
    loadQuadBlock(first, 4, out[4], out[5], out[6], out[7]);
    loadQuadBlock(first, 6, unused[0], unused[1], out[8], out[9]);
  }
  /// Whether eight consecutive ten-float records at `a` and `b` hold the same bits (memcmp's answer
  /// in ten 32-byte compares).
  [[gnu::target("avx2")]] static bool sameBlock10(const float* a, const float* b) {
    __m256i same = _mm256_set1_epi32(-1);
    for (int v = 0; v < 10; ++v)
      same =
          _mm256_and_si256(same, _mm256_cmpeq_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 8 * v)),
                                                    _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 8 * v))));
    return _mm256_movemask_epi8(same) == -1;
  }
  /// Stores in[c] as float c of eight consecutive records (loadBlock10's inverse): floats 0-3 and
  /// 4-7 of each record in 16-byte stores, floats 8-9 in 8-byte ones.
  [[gnu::target("avx2")]] static void storeBlock10(const F in[10], float* first) {
    storeQuadBlock(first, 0, in[0], in[1], in[2], in[3]);
    storeQuadBlock(first, 4, in[4], in[5], in[6], in[7]);
    // Floats 8 and 9 as pairs: records 0, 1 and 4, 5 from the low interleave, 2, 3 and 6, 7 from the high.
    const __m256 p0 = _mm256_unpacklo_ps(in[8].v, in[9].v), p1 = _mm256_unpackhi_ps(in[8].v, in[9].v);
    const __m128 pairs[4] = {_mm256_castps256_ps128(p0), _mm256_castps256_ps128(p1), _mm256_extractf128_ps(p0, 1),
                             _mm256_extractf128_ps(p1, 1)};
    for (int h = 0; h < 4; ++h) {
      const int record = 2 * h;  // 0, 2, 4, 6
      _mm_storel_pi(reinterpret_cast<__m64*>(first + 10 * record + 8), pairs[h]);
      _mm_storeh_pi(reinterpret_cast<__m64*>(first + 10 * (record + 1) + 8), pairs[h]);
    }
  }
  /// All ones where a and b hold the same bits (a float compare would take -0 for +0).
  [[gnu::target("avx2")]] static M sameBits(F a, F b) {
    return {_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_castps_si256(a.v), _mm256_castps_si256(b.v)))};
  }

 private:
  /// Floats offset .. offset + 3 of eight consecutive ten-float records, transposed: a[i] the first of record i.
  [[gnu::target("avx2")]] static void loadQuadBlock(const float* first, int offset, F& a, F& b, F& c, F& d) {
    __m256 r[4];
    for (int i = 0; i < 4; ++i)
      r[i] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(first + 10 * i + offset)),
                                  _mm_loadu_ps(first + 10 * (i + 4) + offset), 1);
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    a.v = _mm256_shuffle_ps(t0, t2, 0x44);
    b.v = _mm256_shuffle_ps(t0, t2, 0xee);
    c.v = _mm256_shuffle_ps(t1, t3, 0x44);
    d.v = _mm256_shuffle_ps(t1, t3, 0xee);
  }
  /// loadQuadBlock()'s inverse.
  [[gnu::target("avx2")]] static void storeQuadBlock(float* first, int offset, const F& a, const F& b, const F& c,
                                                     const F& d) {
    const __m256 ab0 = _mm256_unpacklo_ps(a.v, b.v), ab1 = _mm256_unpackhi_ps(a.v, b.v);
    const __m256 cd0 = _mm256_unpacklo_ps(c.v, d.v), cd1 = _mm256_unpackhi_ps(c.v, d.v);
    const __m256 r[4] = {_mm256_shuffle_ps(ab0, cd0, 0x44), _mm256_shuffle_ps(ab0, cd0, 0xee),
                         _mm256_shuffle_ps(ab1, cd1, 0x44), _mm256_shuffle_ps(ab1, cd1, 0xee)};
    for (int i = 0; i < 4; ++i) {
      _mm_storeu_ps(first + 10 * i + offset, _mm256_castps256_ps128(r[i]));
      _mm_storeu_ps(first + 10 * (i + 4) + offset, _mm256_extractf128_ps(r[i], 1));
    }
  }
  [[gnu::target("avx2")]] static Sse2Lanes::F half(F a, int upper) {
    return {upper ? _mm256_extractf128_ps(a.v, 1) : _mm256_castps256_ps128(a.v)};
  }
};

/// SSE2's lanes for code compiled for AVX2 (the Player's AVX2 decode): the same float operations,
/// so the same results, in AVX's three-operand encoding; bit unpacking shifts the four lanes' 64-bit
/// words at once (AVX2's per-lane variable shifts) instead of one at a time.
struct Avx2Lanes : Sse2Lanes {
  /// Two frames at once for kernels::Uniform::evaluate.
  using Pair = Avx2PairLanes;
  /// One blend instead of and, andnot, or: the masks are all ones or zero per lane, so the sign
  /// bit it reads picks the same lanes.
  [[gnu::target("avx2")]] static F select(M m, F a, F b) { return {_mm_blendv_ps(b.v, a.v, _mm_castsi128_ps(m.v))}; }
  struct W {
    __m256i v;
  };
  /// ScalarWords::words(), the positions computed four lanes at once.
  [[gnu::target("avx2")]] static W words(const std::uint8_t* data, const std::uint32_t base[4],
                                         const std::uint8_t stride[4], std::uint32_t frame) {
    std::uint32_t strides;
    std::memcpy(&strides, stride, sizeof(strides));
    const __m256i position =
        _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(base))),
                         _mm256_mul_epu32(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128(static_cast<int>(strides))),
                                          _mm256_set1_epi64x(frame)));
    alignas(32) std::uint64_t byte[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(byte), _mm256_srli_epi64(position, 3));
    std::uint64_t word[4];
    for (int l = 0; l < 4; ++l) std::memcpy(&word[l], data + byte[l], sizeof(word[l]));
    const __m256i words = _mm256_set_epi64x(static_cast<long long>(word[3]), static_cast<long long>(word[2]),
                                            static_cast<long long>(word[1]), static_cast<long long>(word[0]));
    return {_mm256_srlv_epi64(words, _mm256_and_si256(position, _mm256_set1_epi64x(7)))};
  }
  struct Shifts {
    __m256i v;
  };
  /// ScalarWords::shifts(), widened to one 64-bit count per lane.
  [[gnu::target("avx2")]] static Shifts shifts(const std::uint8_t counts[4]) {
    std::uint32_t c;
    std::memcpy(&c, counts, sizeof(c));
    return {_mm256_cvtepu8_epi64(_mm_cvtsi32_si128(static_cast<int>(c)))};
  }
  /// shiftWords() of one frame's words (`first`) and the next's (`second`), the first's lanes in
  /// the lower half of the result and the second's in the upper.
  [[gnu::target("avx2")]] static Pair::I shiftWordPair(const W& first, const W& second, Shifts o) {
    const __m256i a = _mm256_srlv_epi64(first.v, o.v), b = _mm256_srlv_epi64(second.v, o.v);
    // Low 32 bits of a's 64-bit lanes in the even 32-bit lanes, of b's in the odd ones, then sorted.
    const __m256i mixed = _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xaa);
    return {_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(mixed, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)))};
  }
  /// ScalarWords::shiftWords() in one per-lane variable shift.
  [[gnu::target("avx2")]] static I shiftWords(const W& w, Shifts o) {
    const __m256i shifted = _mm256_srlv_epi64(w.v, o.v);
    return {_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(shifted, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)))};
  }
};
#endif

}  // namespace animpack::runtime
