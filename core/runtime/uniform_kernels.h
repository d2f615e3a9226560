#pragma once
// The Player's four-lane kernels for uniform tracks, written once against a lane implementation
// (core/runtime/lanes.h). Every expression keeps the operation order of the scalar definitions in
// core/runtime/track_math.h and core/runtime/math.h, so each lane is bit-identical to decoding its
// track alone, whatever the lane implementation. Included by player.cpp (and its test).

#include <cstdint>
#include <cstring>

#include "core/runtime/bits.h"
#include "core/runtime/clip_view.h"
#include "core/runtime/lanes.h"
#include "core/runtime/math.h"
#include "core/runtime/segment_cache.h"
#include "core/runtime/track_math.h"

namespace animpack::runtime::kernels {

/// A lane implementation that computes two frames of a batch in one register (L::Pair).
template <class L>
concept HasPair = requires { typename L::Pair; };

template <class L>
struct Uniform {
  using F = typename L::F;
  using I = typename L::I;
  using M = typename L::M;

  /// A batch's residual layout in one segment from its lanes' 3-byte residual headers (FORMAT.md
  /// "Segments": widths in bits 0-4, 5-9, 10-14 and 19-23, the shift in bits 15-18) and where each
  /// lane's residuals start.
  static void layout(const std::uint32_t header[4], const std::uint32_t base[4], BatchLayout& s) {
    const I h = L::ints(header[0], header[1], header[2], header[3]);
    const I width = L::setInts(31), one = L::setInts(1);
    const I b0 = L::andInts(h, width), b1 = L::andInts(L::template shr<5>(h), width), b2 = L::andInts(L::template shr<10>(h), width),
            b3 = L::andInts(L::template shr<19>(h), width);
    L::storeInts(s.mask[0], L::subInts(L::powerOfTwo(b0), one));
    L::storeInts(s.mask[1], L::subInts(L::powerOfTwo(b1), one));
    L::storeInts(s.mask[2], L::subInts(L::powerOfTwo(b2), one));
    L::storeInts(s.mask[3], L::subInts(L::powerOfTwo(b3), one));
    const I o2 = L::addInts(b0, b1), o3 = L::addInts(o2, b2);
    L::storeBytes(s.offset, L::setInts(0), b0, o2, o3);
    const I stride = L::addInts(o3, b3);
    L::storeBytes(s.stride, stride);
    s.wide = L::anyAbove(stride, 57);
    L::store(s.scale, L::powerOfHalf(L::andInts(L::template shr<15>(h), L::setInts(15))));
    std::memcpy(s.base, base, sizeof(s.base));
  }

  /// Residuals of frames `local` .. `local + Frames - 1` of the segment, in steps (quantized
  /// residual x 2^-shift). The frames share the layout's masks and scales, read once.
  template <unsigned Components, unsigned Frames>
  static void residuals(const BatchLayout& s, const std::uint8_t* data, std::uint32_t local, F out[Frames][4]) {
    if (s.wide)
      residualsOf<Components, Frames, true>(s, data, local, out);
    else
      residualsOf<Components, Frames, false>(s, data, local, out);
  }

  /// residuals(): each lane's whole frame in one read, or (`Wide`, lanes past 57 bits a frame) each
  /// component read at its own position, the lanes' frame positions computed once per frame.
  template <unsigned Components, unsigned Frames, bool Wide>
  static void residualsOf(const BatchLayout& s, const std::uint8_t* data, std::uint32_t local, F out[Frames][4]) {
    const F scale = L::load(s.scale);
    [[maybe_unused]] typename L::W w[Frames];
    [[maybe_unused]] std::uint64_t start[Frames][4];
    for (unsigned f = 0; f < Frames; ++f) {
      if constexpr (Wide)
        for (unsigned l = 0; l < 4; ++l) start[f][l] = s.base[l] + std::uint64_t(local + f) * s.stride[l];
      else
        w[f] = L::words(data, s.base, s.stride, local + f);
    }
    for (unsigned c = 0; c < Components; ++c) {
      const std::uint8_t* o = s.offset[c];
      // Sign extension without branches: (r ^ signBit) - signBit, signBit = (mask + 1) / 2 (0 for width 0).
      const I mask = L::loadInts(s.mask[c]);
      const I sign = L::shr1(L::addInts(mask, L::setInts(1)));
      for (unsigned f = 0; f < Frames; ++f) {
        I raw;
        if constexpr (Wide)
          raw = wideComponent(data, start[f], o);
        else
          raw = L::shiftWords(w[f], L::shifts(o));
        const I r = L::subInts(L::xorInts(L::andInts(raw, mask), sign), sign);
        out[f][c] = L::mul(L::fromInt(r), scale);
      }
    }
  }

  /// residuals() of frames `local` and `local + 1` into one register per component of L::Pair (the
  /// first frame in the lower half): the same integer steps and the same conversion and product per
  /// lane, eight lanes at a time. Not for wide layouts.
  template <unsigned Components, class PairF>
  static void residualPair(const BatchLayout& s, const std::uint8_t* data, std::uint32_t local, PairF out[4]) {
    using P = typename L::Pair;
    const typename P::F scale = P::load(s.scale);
    const typename L::W w0 = L::words(data, s.base, s.stride, local), w1 = L::words(data, s.base, s.stride, local + 1);
    for (unsigned c = 0; c < Components; ++c) {
      const typename P::I mask = P::loadInts(s.mask[c]);
      const typename P::I sign = P::shr1(P::addInts(mask, P::setInts(1)));
      const typename P::I raw = L::shiftWordPair(w0, w1, L::shifts(s.offset[c]));
      const typename P::I r = P::subInts(P::xorInts(P::andInts(raw, mask), sign), sign);
      out[c] = P::mul(P::fromInt(r), scale);
    }
  }

  /// A component of a frame whose lanes span more than 57 bits: read at its own position, `start`
  /// being each lane's frame position.
  static I wideComponent(const std::uint8_t* data, const std::uint64_t start[4], const std::uint8_t o[4]) {
    std::uint32_t v[4];
    for (unsigned l = 0; l < 4; ++l) v[l] = static_cast<std::uint32_t>(bitsAt(data, start[l] + o[l]));
    return L::ints(v[0], v[1], v[2], v[3]);
  }

  /// The frames' values: spline through the boundary rows (weights w[f]) plus the residual, the
  /// rows read once for all frames. `rows` is the batch's row k-1 (ClipView::boundaryRows), the
  /// next rows `stride` floats apart.
  template <unsigned Components, unsigned Frames>
  static void values(const UniformBatch& b, const float* rows, std::uint32_t stride, const F (*w)[4], const F (*residual)[4], F out[Frames][4]) {
    const F step = L::load(b.step);
    const float* r0 = rows;
    const float* r1 = r0 + stride;
    const float* r2 = r1 + stride;
    const float* r3 = r2 + stride;
    for (unsigned c = 0; c < Components; ++c) {
      const F q0 = L::load(r0 + 4 * c), q1 = L::load(r1 + 4 * c), q2 = L::load(r2 + 4 * c), q3 = L::load(r3 + 4 * c);
      const F minimum = L::load(b.minValue[c]);
      for (unsigned f = 0; f < Frames; ++f) {
        // As in Player's scalar definition: minimum + (w0 q0 + w1 q1 + w2 q2 + w3 q3) x step, then
        // uniformValue(spline, residual, step).
        F s = L::add(L::mul(w[f][0], q0), L::mul(w[f][1], q1));
        s = L::add(s, L::mul(w[f][2], q2));
        s = L::add(s, L::mul(w[f][3], q3));
        const F spline = L::add(minimum, L::mul(s, step));
        out[f][c] = L::add(spline, L::mul(residual[f][c], step));
      }
    }
  }

  /// normalized() of four lanes of quaternions (identity where the length is not positive).
  static void normalize(const F in[4], F out[4]) {
    const F n2 = L::add(L::add(L::add(L::mul(in[0], in[0]), L::mul(in[1], in[1])), L::mul(in[2], in[2])), L::mul(in[3], in[3]));
    const M positive = L::gt(n2, L::set(0.f));
    const F inv = L::div(L::set(1.f), L::sqrt(n2));
    const Quat identity;
    const float id[4] = {identity.x, identity.y, identity.z, identity.w};
    for (unsigned c = 0; c < 4; ++c) out[c] = L::select(positive, L::mul(in[c], inv), L::set(id[c]));
  }

  /// uniformRotation() of four lanes: w rebuilt from x, y, z, then the reference applied.
  static void rotation(const UniformBatch& b, const F v[4], F q[4]) {
    const F zero = L::set(0.f);
    const F rest = L::sub(L::sub(L::sub(L::set(1.f), L::mul(v[0], v[0])), L::mul(v[1], v[1])), L::mul(v[2], v[2]));
    const M inside = L::gt(rest, zero);
    const F w = L::sqrt(rest);
    q[0] = v[0];
    q[1] = v[1];
    q[2] = v[2];
    q[3] = w;
    if (b.relative) {
      // reference * (x, y, z, w), the Hamilton product in math.h's operation order.
      const F ax = L::load(b.reference[0]), ay = L::load(b.reference[1]), az = L::load(b.reference[2]), aw = L::load(b.reference[3]);
      const F rx = L::sub(L::add(L::add(L::mul(aw, v[0]), L::mul(ax, w)), L::mul(ay, v[2])), L::mul(az, v[1]));
      const F ry = L::add(L::add(L::sub(L::mul(aw, v[1]), L::mul(ax, v[2])), L::mul(ay, w)), L::mul(az, v[0]));
      const F rz = L::add(L::sub(L::add(L::mul(aw, v[2]), L::mul(ax, v[1])), L::mul(ay, v[0])), L::mul(az, w));
      const F rw = L::sub(L::sub(L::sub(L::mul(aw, w), L::mul(ax, v[0])), L::mul(ay, v[1])), L::mul(az, v[2]));
      const M relative = L::loadInts(b.hasReference);
      q[0] = L::select(relative, rx, v[0]);
      q[1] = L::select(relative, ry, v[1]);
      q[2] = L::select(relative, rz, v[2]);
      q[3] = L::select(relative, rw, w);
    }
    if (L::any(L::notMask(inside))) {
      // Outside the unit ball (quantization pushed it out): normalized(x, y, z, 0), no reference.
      // Rare, so the common case skips its square root and division.
      const F flat[4] = {v[0], v[1], v[2], zero};
      F outside[4];
      normalize(flat, outside);
      for (unsigned c = 0; c < 4; ++c) q[c] = L::select(inside, q[c], outside[c]);
    }
  }

  /// The pose's SlerpTerms, each term in every lane: computed once per pose, not once per batch.
  struct SlerpSeries {
    float t;
    F termA[6];  // for weight 1 - t
    F termB[6];  // for weight t
  };
  static SlerpSeries slerpSeries(const SlerpTerms& terms) {
    SlerpSeries series;
    series.t = terms.t;
    for (int i = 0; i < 6; ++i) {
      series.termA[i] = L::set(terms.nearTerms[i]);
      series.termB[i] = L::set(terms.farTerms[i]);
    }
    return series;
  }

  /// canonicalSign(slerp(a, b, t)) of four lanes; lanes stepping more than 60 degrees take the
  /// scalar slerp (its sines).
  [[gnu::always_inline]] static void slerpCanonical(const F a[4], const F b[4], const SlerpSeries& series, F out[4]) {
    const float t = series.t;
    F d = L::add(L::add(L::add(L::mul(a[0], b[0]), L::mul(a[1], b[1])), L::mul(a[2], b[2])), L::mul(a[3], b[3]));
    const M flip = L::lt(d, L::set(0.f));
    d = L::flipSign(flip, d);
    const M polynomial = L::ge(d, L::set(kPolynomialSlerpMinDot));
    const F cosMinusOne = L::sub(d, L::set(1.f));
    // slerpWeight(1 - t) and slerpWeight(t), in its operation order.
    const F one = L::set(1.f);
    F accA = one, accB = one;
    for (int i = 5; i >= 0; --i) {
      accA = L::add(one, L::mul(L::mul(series.termA[i], cosMinusOne), accA));
      accB = L::add(one, L::mul(L::mul(series.termB[i], cosMinusOne), accB));
    }
    const F wa = L::mul(L::set(1.f - t), accA);
    const F wb = L::mul(L::set(t), accB);
    F r[4];
    for (unsigned c = 0; c < 4; ++c) r[c] = L::add(L::mul(a[c], wa), L::mul(L::flipSign(flip, b[c]), wb));
    if (L::any(L::notMask(polynomial))) {
      for (int l = 0; l < static_cast<int>(sizeof(F) / sizeof(float)); ++l) {
        if (L::lane(polynomial, l)) continue;
        const Quat q = slerp({L::lane(a[0], l), L::lane(a[1], l), L::lane(a[2], l), L::lane(a[3], l)},
                             {L::lane(b[0], l), L::lane(b[1], l), L::lane(b[2], l), L::lane(b[3], l)}, t);
        r[0] = L::withLane(r[0], l, q.x);
        r[1] = L::withLane(r[1], l, q.y);
        r[2] = L::withLane(r[2], l, q.z);
        r[3] = L::withLane(r[3], l, q.w);
      }
    }
    // canonicalSign: negate where w < 0, or w == 0 and the first non-zero of x, y, z is negative.
    const F zero = L::set(0.f);
    M negate = L::lt(r[2], zero);
    negate = L::orMask(L::lt(r[1], zero), L::andMask(L::eq(r[1], zero), negate));
    negate = L::orMask(L::lt(r[0], zero), L::andMask(L::eq(r[0], zero), negate));
    negate = L::orMask(L::lt(r[3], zero), L::andMask(L::eq(r[3], zero), negate));
    for (unsigned c = 0; c < 4; ++c) out[c] = L::flipSign(negate, r[c]);
  }

  /// The batch's decoded values at frames `local` .. `local + Frames - 1` of the segment (weights
  /// w[f]), into out[f]: a rotation (normalised) or a vector.
  template <UniformBatch::Shape S, unsigned Frames>
  static void evaluate(const UniformBatch& batch, const float* rows, std::uint32_t rowStride, const BatchLayout& layout,
                       const std::uint8_t* data, std::uint32_t local, const F (*w)[4], float (*const* out)[4]) {
    constexpr unsigned kComponents = S == UniformBatch::Shape::Rotation4 ? 4 : 3;
    F residual[Frames][4], v[Frames][4];
    if constexpr (Frames == 2 && HasPair<L>) {
      // Both frames' residuals, values, rotations and stores in one register per component
      // (L::Pair: each half computes what the four-lane code below computes for its frame).
      using P = typename L::Pair;
      typename P::F pw[1][4], pr[1][4], pv[1][4], q[4];
      for (unsigned j = 0; j < 4; ++j) pw[0][j] = P::pair(w[0][j], w[1][j]);
      if (!layout.wide) {
        residualPair<kComponents>(layout, data, local, pr[0]);
      } else {
        residuals<kComponents, Frames>(layout, data, local, residual);
        for (unsigned c = 0; c < kComponents; ++c) pr[0][c] = P::pair(residual[0][c], residual[1][c]);
      }
      Uniform<P>::template values<kComponents, 1>(batch, rows, rowStride, pw, pr, pv);
      if constexpr (S == UniformBatch::Shape::Vector) {
        for (unsigned c = 0; c < 3; ++c) P::storePair(out[0][c], out[1][c], pv[0][c]);
      } else {
        if constexpr (S == UniformBatch::Shape::Rotation) Uniform<P>::rotation(batch, pv[0], q);
        else Uniform<P>::normalize(pv[0], q);
        for (unsigned c = 0; c < 4; ++c) P::storePair(out[0][c], out[1][c], q[c]);
      }
      return;
    }
    residuals<kComponents, Frames>(layout, data, local, residual);
    values<kComponents, Frames>(batch, rows, rowStride, w, residual, v);
    for (unsigned f = 0; f < Frames; ++f) {
      if constexpr (S == UniformBatch::Shape::Vector) {
        for (unsigned c = 0; c < 3; ++c) L::store(out[f][c], v[f][c]);
      } else {
        F q[4];
        if constexpr (S == UniformBatch::Shape::Rotation) rotation(batch, v[f], q);
        else normalize(v[f], q);
        for (unsigned c = 0; c < 4; ++c) L::store(out[f][c], q[c]);
      }
    }
  }

  /// Writes the batch's values at a frame (`a`) or, when `second`, their interpolation towards the
  /// next frame's (`b`) by the series' fraction: lerp, or canonicalSign(slerp) for rotations.
  template <UniformBatch::Shape S>
  static void finish(const UniformBatch& batch, const float (*a)[4], const float (*b)[4], bool second, const SlerpSeries& series, Transform* out) {
    F va[4], result[4];
    constexpr unsigned kComponents = S == UniformBatch::Shape::Vector ? 3 : 4;
    for (unsigned c = 0; c < kComponents; ++c) va[c] = L::load(a[c]);
    if (!second) {
      store(batch, va, out);
      return;
    }
    if constexpr (S == UniformBatch::Shape::Vector) {
      const F t = L::set(series.t);
      for (unsigned c = 0; c < 3; ++c) result[c] = L::add(va[c], L::mul(L::sub(L::load(b[c]), va[c]), t));
    } else {
      const F vb[4] = {L::load(b[0]), L::load(b[1]), L::load(b[2]), L::load(b[3])};
      slerpCanonical(va, vb, series, result);
    }
    store(batch, result, out);
  }

  /// finish() between frames of two rotation batches at once: `x` in the lower half of each register
  /// of L::Pair and `y` in the upper, `series` the pose's series in both halves. Each half is
  /// finish()'s four-lane arithmetic for its batch, so the poses are bit-identical.
  template <class PairSeries>
  static void finishRotations(const UniformBatch& x, const float (*ax)[4], const float (*bx)[4], const UniformBatch& y, const float (*ay)[4],
                              const float (*by)[4], const PairSeries& series, Transform* out) {
    using P = typename L::Pair;
    typename P::F a[4], b[4], r[4];
    for (unsigned c = 0; c < 4; ++c) {
      a[c] = P::pair(L::load(ax[c]), L::load(ay[c]));
      b[c] = P::pair(L::load(bx[c]), L::load(by[c]));
    }
    Uniform<P>::slerpCanonical(a, b, series, r);
    P::storeQuadPair(r[0], r[1], r[2], r[3], reinterpret_cast<unsigned char*>(out), x.outOffset, x.lanes, y.outOffset, y.lanes);
  }

  /// Writes the batch's lanes into the pose.
  static void store(const UniformBatch& b, const F v[4], Transform* pose) {
    auto* base = reinterpret_cast<unsigned char*>(pose);
    if (b.shape == UniformBatch::Shape::Vector) L::storeTriples(v[0], v[1], v[2], base, b.outOffset, b.lanes);
    else L::storeQuads(v[0], v[1], v[2], v[3], base, b.outOffset, b.lanes);
  }
};

/// The pose's SlerpSeries in L's paired lanes (Uniform::finishRotations); empty without them.
template <class L>
struct PairSeriesOf {
  struct type {};
};
template <HasPair L>
struct PairSeriesOf<L> {
  using type = typename Uniform<typename L::Pair>::SlerpSeries;
};

}  // namespace animpack::runtime::kernels
