#pragma once
// The Player's four-lane kernel for keyed tracks (FORMAT.md "Keyed tracks"), written once against
// a lane implementation (core/runtime/lanes.h): four tracks of one shape (rotations or vectors) at
// once, each lane finding its key by a binary search in its track's key frames and evaluating the
// Catmull-Rom curve through the four keys around it, straight from the clip's bytes. Every
// expression keeps the operation order of the scalar definitions (core/runtime/quantize.h
// unpackQuat48 and unpackUnorm16, core/runtime/spline.h, core/runtime/track_math.h keyedSpline and
// canonicalSign, core/runtime/math.h normalized), so each lane is bit-identical to decoding its
// track alone. Included by player.cpp.

#include <cstdint>

#include "core/runtime/clip_format.h"
#include "core/runtime/lanes.h"
#include "core/runtime/quantize.h"
#include "core/runtime/uniform_kernels.h"

namespace animpack::runtime::kernels {

template <class L>
struct Keyed {
  using F = typename L::F;
  using I = typename L::I;
  using M = typename L::M;

  /// Up to four keyed tracks of one shape: where each lane's keys are and which key it is at.
  struct Lanes {
    const std::uint8_t* keys[4];  // the lane's track's first key
    std::uint32_t count[4];       // its keys
    std::uint32_t key[4];         // its key at or before the pose's time
    F minimum[3], extent[3];      // vector tracks' ranges
  };

  /// The key of a track (`count` keys at `keys`, the first at frame 0) at or before `frame`.
  static std::uint32_t keyAt(const std::uint8_t* keys, std::uint32_t count, float frame) {
    std::uint32_t lo = 0, hi = count;  // the answer is in [lo, hi)
    while (hi - lo > 1) {
      const std::uint32_t mid = (lo + hi) / 2;
      if (static_cast<float>(loadLE<std::uint16_t>(keys + std::size_t(mid) * kKeySize)) <= frame) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /// Key `index[l]` of each lane: its frame, and its value (x y z w of a unit rotation through
  /// unpackQuat48, x y z of a vector through unpackUnorm16).
  template <bool Rotation>
  static void key(const Lanes& t, const std::uint32_t index[4], F& time, F v[4]) {
    const std::uint8_t* p[4];
    for (unsigned l = 0; l < 4; ++l) p[l] = t.keys[l] + std::size_t(index[l]) * kKeySize;
    time = L::fromInt(L::ints(loadLE<std::uint16_t>(p[0]), loadLE<std::uint16_t>(p[1]), loadLE<std::uint16_t>(p[2]),
                              loadLE<std::uint16_t>(p[3])));
    if constexpr (Rotation) {
      // 48 bits: components at bits 0, 15 and 30 (15 bits each), the dropped index at bits 45..46.
      const I lo = L::ints(loadLE<std::uint32_t>(p[0] + 2), loadLE<std::uint32_t>(p[1] + 2),
                           loadLE<std::uint32_t>(p[2] + 2), loadLE<std::uint32_t>(p[3] + 2));
      const I hi = L::ints(loadLE<std::uint16_t>(p[0] + 6), loadLE<std::uint16_t>(p[1] + 6),
                           loadLE<std::uint16_t>(p[2] + 6), loadLE<std::uint16_t>(p[3] + 6));
      const I mask = L::setInts(0x7fff);
      const I q[3] = {L::andInts(lo, mask), L::andInts(L::template shr<15>(lo), mask),
                      L::andInts(L::orInts(L::template shr<30>(lo), L::template shl<2>(hi)), mask)};
      const I index3 = L::andInts(L::template shr<13>(hi), L::setInts(3));
      // detail::dequantizeUnit: q x (2 R / 32767) - R.
      const F scale = L::set(2.f * kSmallestThreeRange / 32767.f), range = L::set(kSmallestThreeRange);
      F c[3];
      for (unsigned i = 0; i < 3; ++i) c[i] = L::sub(L::mul(L::fromInt(q[i]), scale), range);
      // detail::assemble: the dropped component from the others, put where the index says, then normalized.
      const F rest = L::sub(L::sub(L::sub(L::set(1.f), L::mul(c[0], c[0])), L::mul(c[1], c[1])), L::mul(c[2], c[2]));
      const F dropped = L::select(L::gt(rest, L::set(0.f)), L::sqrt(rest), L::set(0.f));
      const M is0 = L::eqInts(index3, L::setInts(0)), is1 = L::eqInts(index3, L::setInts(1)),
              is2 = L::eqInts(index3, L::setInts(2)), is3 = L::eqInts(index3, L::setInts(3));
      const F assembled[4] = {L::select(is0, dropped, c[0]), L::select(is0, c[0], L::select(is1, dropped, c[1])),
                              L::select(L::orMask(is0, is1), c[1], L::select(is2, dropped, c[2])),
                              L::select(is3, dropped, c[2])};
      Uniform<L>::template normalize<L>(assembled, v);
    } else {
      for (unsigned c = 0; c < 3; ++c) {
        const I q = L::ints(loadLE<std::uint16_t>(p[0] + 2 + 2 * c), loadLE<std::uint16_t>(p[1] + 2 + 2 * c),
                            loadLE<std::uint16_t>(p[2] + 2 + 2 * c), loadLE<std::uint16_t>(p[3] + 2 + 2 * c));
        // unpackUnorm16: minimum + q x (extent / 65535).
        v[c] = L::add(t.minimum[c], L::mul(L::fromInt(q), L::div(t.extent[c], L::set(65535.f))));
      }
      v[3] = L::set(0.f);
    }
  }

  /// Each lane's value at integer frame `frame[l]` from the curve through keys key - 1 .. key + 2
  /// (an end repeats its key; the track's last key is its value), rotations normalised and in the
  /// canonical sign (the scalar keyedValue).
  template <bool Rotation>
  static void evaluate(const Lanes& t, const F frame, F out[4]) {
    std::uint32_t index[4][4];
    unsigned lastMask = 0;
    for (unsigned l = 0; l < 4; ++l) {
      const std::uint32_t k = t.key[l], n = t.count[l];
      lastMask |= (k + 1 == n ? 1u : 0u) << l;
      index[0][l] = k > 0 ? k - 1 : k;
      index[1][l] = k;
      index[2][l] = k + 1 < n ? k + 1 : k;  // the last key's lanes take its own value below
      index[3][l] = k + 2 < n ? k + 2 : (k + 1 < n ? k + 1 : k);
    }
    F times[4], values[4][4];
    for (unsigned i = 0; i < 4; ++i) key<Rotation>(t, index[i], times[i], values[i]);
    if constexpr (Rotation) {
      // One sign chain through the window: a key negated where it points away from the one before.
      for (unsigned i = 1; i < 4; ++i) {
        const F* p = values[i - 1];
        F* v = values[i];
        const F d =
            L::add(L::add(L::add(L::mul(v[0], p[0]), L::mul(v[1], p[1])), L::mul(v[2], p[2])), L::mul(v[3], p[3]));
        const M flip = L::lt(d, L::set(0.f));
        for (unsigned c = 0; c < 4; ++c) v[c] = L::flipSign(flip, v[c]);
      }
    }
    // catmullRomWeights(t0, t1, t2, t3, frame) in its operation order.
    const F zero = L::set(0.f);
    const F h = L::sub(times[2], times[1]);
    const F s = L::select(L::gt(h, zero), L::div(L::sub(frame, times[1]), h), zero);
    const F s2 = L::mul(s, s), s3 = L::mul(s2, s);
    const F h00 = L::add(L::sub(L::mul(L::set(2.f), s3), L::mul(L::set(3.f), s2)), L::set(1.f));
    const F h10 = L::add(L::sub(s3, L::mul(L::set(2.f), s2)), s);
    const F h01 = L::add(L::mul(L::set(-2.f), s3), L::mul(L::set(3.f), s2));
    const F h11 = L::sub(s3, s2);
    const F a = L::select(L::gt(times[2], times[0]), L::div(L::mul(h, h10), L::sub(times[2], times[0])), zero);
    const F b = L::select(L::gt(times[3], times[1]), L::div(L::mul(h, h11), L::sub(times[3], times[1])), zero);
    const F w[4] = {L::neg(a), L::sub(h00, b), L::add(h01, a), b};
    // A lane at its track's last key takes that key as it is.
    const M last = L::eqInts(L::andInts(L::ints(1, 2, 4, 8), L::setInts(lastMask)), L::ints(1, 2, 4, 8));
    for (unsigned c = 0; c < (Rotation ? 4u : 3u); ++c) {
      const F curve =
          L::add(L::add(L::add(L::mul(w[0], values[0][c]), L::mul(w[1], values[1][c])), L::mul(w[2], values[2][c])),
                 L::mul(w[3], values[3][c]));
      out[c] = L::select(last, values[1][c], curve);
    }
    if constexpr (Rotation) {
      F q[4];
      Uniform<L>::template normalize<L>(out, q);
      Uniform<L>::canonical(q, out);
    } else {
      out[3] = zero;
    }
  }
};

}  // namespace animpack::runtime::kernels
