#pragma once
// The Player's four-lane kernels for uniform tracks, written once against a lane implementation
// (core/runtime/lanes.h). They read everything from the clip's bytes: a batch's parameters from its
// four tracks' records, its boundary values from the boundary rows, its residuals from the segment.
// Every expression keeps the operation order of the scalar definitions in
// core/runtime/track_math.h and core/runtime/math.h, so each lane is bit-identical to decoding its
// track alone, whatever the lane implementation. Included by player.cpp (and its test).

#include <cstdint>
#include <cstring>

#include "core/runtime/bits.h"
#include "core/runtime/clip_format.h"
#include "core/runtime/lanes.h"
#include "core/runtime/math.h"
#include "core/runtime/segment_cache.h"
#include "core/runtime/track_math.h"

namespace animpack::runtime::kernels {

/// A lane implementation that computes two frames of a batch in one register (L::Pair).
template <class L>
concept HasPair = requires {
  typename L::Pair;
};

/// Byte offset of a joint's channel in a pose (a Transform array).
inline std::uint32_t poseOffset(std::uint32_t joint, std::uint32_t channel) {
  static constexpr std::uint8_t kChannel[4] = {offsetof(Transform, rotation), offsetof(Transform, translation),
                                               offsetof(Transform, scale), 0};
  return static_cast<std::uint32_t>(joint * sizeof(Transform) + kChannel[channel & 3u]);
}

/// Where one frame of a pose is read: its segment's residual data, the frame within the segment,
/// the segment's four boundary rows (bit positions k-1 .. k+2, an end repeating its neighbour) and
/// the Catmull-Rom weights of the frame between them.
struct FrameSource {
  const std::uint8_t* segment = nullptr;
  std::uint32_t local = 0;
  std::uint32_t segmentFrames = 0;
  std::uint32_t rowStart[4] = {};
  float weights[4] = {};
};

template <class L>
struct Uniform {
  using F = typename L::F;
  using I = typename L::I;
  using M = typename L::M;

  /// A batch of up to four uniform tracks of one group, gathered from their parameter records
  /// (lanes past `lanes` repeat the last track; their results are not stored).
  struct Batch {
    F minimum[4];
    F step;
    F reference[4];  // the lanes' reference rotations (group RotationReference)
    I rowMask[4];    // [component]: 2^width - 1 per lane
    std::uint32_t outOffset[4];
    unsigned lanes;
    std::uint32_t track[4];       // uniform track index per lane (its segment header)
    std::uint32_t rowOffset[4];   // bit offset of the lane's values in a boundary row
    std::uint8_t rowShift[4][4];  // [component][lane]: bit offset of the component in them
    bool wideRows;                // a lane's values span more than 56 bits
    bool unsignedRows;            // a component is 32 bits wide (its values may pass 2^31)
    std::uint32_t rowBits;        // the lanes' bits in a row (the batch's share of it)
  };

  /// 2^w - 1 per lane for w in 0..32.
  static I lowMask(I w) {
    const I is32 = L::eqInts(w, L::setInts(32));
    return L::orInts(L::subInts(L::powerOfTwo(L::andInts(w, L::setInts(31))), L::setInts(1)), is32);
  }

  /// Gathers the batch of tracks first .. first + lanes - 1 of group G, whose records start at
  /// `records` (the group's record of track `groupFirst`), the batch's values `rowOffset` bits into
  /// each boundary row.
  template <UniformGroup G>
  static void gather(const std::uint8_t* records, std::uint32_t groupFirst, std::uint32_t first, unsigned lanes,
                     std::uint32_t rowOffset, Batch& b) {
    constexpr std::uint32_t kRecord = G == UniformGroup::RotationReference ? kUniformParamSize + kUniformRefSize
                                      : G == UniformGroup::Rotation4       ? kUniformParamSize + 4
                                                                           : kUniformParamSize;
    const std::uint8_t* p[4];
    for (unsigned l = 0; l < 4; ++l) {
      const unsigned lane = l < lanes ? l : lanes - 1;
      b.track[l] = first + lane;
      p[l] = records + std::size_t(first + lane - groupFirst) * kRecord;
      b.outOffset[l] = poseOffset(loadLE<std::uint16_t>(p[l]), p[l][2]);
    }
    b.lanes = lanes;
    const std::uint8_t* mins[4] = {p[0] + 4, p[1] + 4, p[2] + 4, p[3] + 4};
    F v[4];
    L::gather4(mins, v);
    b.minimum[0] = v[0];
    b.minimum[1] = v[1];
    b.minimum[2] = v[2];
    b.step = v[3];
    if constexpr (G == UniformGroup::Rotation4)
      b.minimum[3] = L::floats(loadLE<float>(p[0] + 24), loadLE<float>(p[1] + 24), loadLE<float>(p[2] + 24),
                               loadLE<float>(p[3] + 24));
    if constexpr (G == UniformGroup::RotationReference) {
      const std::uint8_t* refs[4] = {p[0] + 24, p[1] + 24, p[2] + 24, p[3] + 24};
      L::gather4(refs, b.reference);
    }
    // The boundary widths, one byte per component: where each component sits in the lane's values.
    const I widths = L::ints(loadLE<std::uint32_t>(p[0] + 20), loadLE<std::uint32_t>(p[1] + 20),
                             loadLE<std::uint32_t>(p[2] + 20), loadLE<std::uint32_t>(p[3] + 20));
    const I byte = L::setInts(255);
    const I w0 = L::andInts(widths, byte), w1 = L::andInts(L::template shr<8>(widths), byte),
            w2 = L::andInts(L::template shr<16>(widths), byte), w3 = L::template shr<24>(widths);
    const I s2 = L::addInts(w0, w1), s3 = L::addInts(s2, w2), total = L::addInts(s3, w3);
    L::storeBytes(b.rowShift, L::setInts(0), w0, s2, s3);
    b.rowMask[0] = lowMask(w0);
    b.rowMask[1] = lowMask(w1);
    b.rowMask[2] = lowMask(w2);
    b.rowMask[3] = lowMask(w3);
    b.wideRows = L::anyAbove(total, 56);
    b.unsignedRows = L::anyAbove(L::orInts(L::orInts(w0, w1), L::orInts(w2, w3)), 31);
    std::uint32_t bits[4];
    L::storeInts(bits, total);
    b.rowOffset[0] = rowOffset;
    for (unsigned l = 1; l < 4; ++l) b.rowOffset[l] = b.rowOffset[l - 1] + (l < lanes ? bits[l - 1] : 0u);
    b.rowBits = b.rowOffset[lanes - 1] + bits[lanes - 1] - rowOffset;
  }

  /// A batch's residual layout in one segment from its lanes' 3-byte residual headers (FORMAT.md
  /// "Uniform tracks"), its residuals starting `base` bits into the segment. Returns the bits the
  /// batch's tracks take.
  static std::uint32_t layout(const Batch& b, const std::uint8_t* segment, std::uint32_t frames, std::uint32_t base,
                              BatchLayout& s) {
    std::uint32_t header[4];
    // Read as one 4-byte word: the byte after the last header is residual data or the clip's padding.
    for (unsigned l = 0; l < 4; ++l)
      header[l] = loadLE<std::uint32_t>(segment + kSegmentHeaderBytesPerTrack * std::size_t(b.track[l])) & 0xffffffu;
    layoutWithStrides(header, s);
    // Where each lane's residuals start: the batch's tracks one after the other, `frames` frames each.
    std::uint32_t offset = base;
    for (unsigned l = 0; l < 4; ++l) {
      s.base[l] = offset;
      if (l + 1 < b.lanes) offset += frames * s.stride[l];
    }
    return offset + frames * s.stride[b.lanes - 1] - base;
  }

  /// A residual layout from four lanes' 3-byte headers (widths in bits 0-4, 5-9, 10-14 and 19-23,
  /// the shift in bits 15-18) and where each lane's residuals start.
  static void layout(const std::uint32_t header[4], const std::uint32_t base[4], BatchLayout& s) {
    layoutWithStrides(header, s);
    std::memcpy(s.base, base, sizeof(s.base));
  }

  /// layout() but the lanes' starts: masks, offsets, strides, scales and the wide flag.
  static void layoutWithStrides(const std::uint32_t header[4], BatchLayout& s) {
    const I h = L::ints(header[0], header[1], header[2], header[3]);
    const I width = L::setInts(31), one = L::setInts(1);
    const I b0 = L::andInts(h, width), b1 = L::andInts(L::template shr<5>(h), width),
            b2 = L::andInts(L::template shr<10>(h), width), b3 = L::andInts(L::template shr<19>(h), width);
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
  }

  /// Per-batch constants of row(): the component shifts in the lane implementation's form.
  struct RowShifts {
    typename L::Shifts component[4];
  };
  template <unsigned Components>
  static RowShifts rowShifts(const Batch& b) {
    RowShifts r{};
    for (unsigned c = 0; c < Components; ++c) r.component[c] = L::shifts(b.rowShift[c]);
    return r;
  }

  /// The batch's quantized boundary values of one row (q[component]), as floats.
  template <unsigned Components>
  [[gnu::always_inline]] static void row(const Batch& b, const RowShifts& shifts, const std::uint8_t* bits,
                                         std::uint32_t rowStart, F q[4]) {
    static constexpr std::uint8_t kOne[4] = {1, 1, 1, 1};
    static constexpr std::uint8_t kZero[4] = {};
    // uint32 -> float rounds to nearest; below 2^31 the signed conversion gives the same float.
    if (b.rowBits == 0) {
      // Every width zero: each value is q = 0, read from no bit.
      for (unsigned c = 0; c < Components; ++c) q[c] = L::set(0.f);
      return;
    }
    auto toFloat = [&](I v) { return b.unsignedRows ? L::fromUint(v) : L::fromInt(v); };
    if (!b.wideRows) {
      // Each lane's values of the row in one read: positions rowOffset + rowStart x 1.
      const typename L::W w = L::words(bits, b.rowOffset, kOne, rowStart);
      for (unsigned c = 0; c < Components; ++c)
        q[c] = toFloat(L::andInts(L::shiftWords(w, shifts.component[c]), b.rowMask[c]));
      return;
    }
    // A lane past 56 bits a row: each component read at its own position.
    for (unsigned c = 0; c < Components; ++c) {
      std::uint32_t at[4];
      for (unsigned l = 0; l < 4; ++l) at[l] = b.rowOffset[l] + b.rowShift[c][l];
      const typename L::W w = L::words(bits, at, kOne, rowStart);
      q[c] = toFloat(L::andInts(L::shiftWords(w, L::shifts(kZero)), b.rowMask[c]));
    }
  }

  /// Residuals of frames `local` .. `local + Frames - 1` of the segment, in steps (quantized
  /// residual x 2^-shift). The frames share the layout's masks and scales, read once.
  template <unsigned Components, unsigned Frames>
  static void residuals(const BatchLayout& s, const std::uint8_t* data, std::uint32_t local, F out[Frames][4]) {
    if (s.wide) residualsOf<Components, Frames, true>(s, data, local, out);
    else residualsOf<Components, Frames, false>(s, data, local, out);
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
      else w[f] = L::words(data, s.base, s.stride, local + f);
    }
    for (unsigned c = 0; c < Components; ++c) {
      const std::uint8_t* o = s.offset[c];
      // Sign extension without branches: (r ^ signBit) - signBit, signBit = (mask + 1) / 2 (0 for width 0).
      const I mask = L::loadInts(s.mask[c]);
      const I sign = L::shr1(L::addInts(mask, L::setInts(1)));
      for (unsigned f = 0; f < Frames; ++f) {
        I raw;
        if constexpr (Wide) raw = wideComponent(data, start[f], o);
        else raw = L::shiftWords(w[f], L::shifts(o));
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

  /// A frame's values from its spline part s = w0 q0 + w1 q1 + w2 q2 + w3 q3 (in that order) and its
  /// residual, as the scalar definition: minimum + s x step, then uniformValue(spline, residual, step).
  template <class X, unsigned Components>
  [[gnu::always_inline]] static void values(const typename X::F minimum[4], typename X::F step,
                                            const typename X::F s[4], const typename X::F residual[4],
                                            typename X::F out[4]) {
    for (unsigned c = 0; c < Components; ++c)
      out[c] = X::add(X::add(minimum[c], X::mul(s[c], step)), X::mul(residual[c], step));
  }

  /// normalized() of four lanes of quaternions (identity where the length is not positive).
  template <class X>
  static void normalize(const typename X::F in[4], typename X::F out[4]) {
    using XF = typename X::F;
    const XF n2 =
        X::add(X::add(X::add(X::mul(in[0], in[0]), X::mul(in[1], in[1])), X::mul(in[2], in[2])), X::mul(in[3], in[3]));
    const auto positive = X::gt(n2, X::set(0.f));
    const XF inv = X::div(X::set(1.f), X::sqrt(n2));
    const Quat identity;
    const float id[4] = {identity.x, identity.y, identity.z, identity.w};
    for (unsigned c = 0; c < 4; ++c) out[c] = X::select(positive, X::mul(in[c], inv), X::set(id[c]));
  }

  /// uniformRotation() of the lanes: w rebuilt from x, y, z, then (`Relative`) the lanes' reference
  /// rotations `ref` applied.
  template <class X, bool Relative>
  static void rotation(const typename X::F v[4], const typename X::F ref[4], typename X::F q[4]) {
    using XF = typename X::F;
    const XF zero = X::set(0.f);
    const XF rest = X::sub(X::sub(X::sub(X::set(1.f), X::mul(v[0], v[0])), X::mul(v[1], v[1])), X::mul(v[2], v[2]));
    const auto inside = X::gt(rest, zero);
    const XF w = X::sqrt(rest);
    q[0] = v[0];
    q[1] = v[1];
    q[2] = v[2];
    q[3] = w;
    if constexpr (Relative) {
      // reference * (x, y, z, w), the Hamilton product in math.h's operation order.
      const XF ax = ref[0], ay = ref[1], az = ref[2], aw = ref[3];
      const XF rx = X::sub(X::add(X::add(X::mul(aw, v[0]), X::mul(ax, w)), X::mul(ay, v[2])), X::mul(az, v[1]));
      const XF ry = X::add(X::add(X::sub(X::mul(aw, v[1]), X::mul(ax, v[2])), X::mul(ay, w)), X::mul(az, v[0]));
      const XF rz = X::add(X::sub(X::add(X::mul(aw, v[2]), X::mul(ax, v[1])), X::mul(ay, v[0])), X::mul(az, w));
      const XF rw = X::sub(X::sub(X::sub(X::mul(aw, w), X::mul(ax, v[0])), X::mul(ay, v[1])), X::mul(az, v[2]));
      q[0] = rx;
      q[1] = ry;
      q[2] = rz;
      q[3] = rw;
    }
    if (X::any(X::notMask(inside))) {
      // Outside the unit ball (quantization pushed it out): normalized(x, y, z, 0), no reference.
      // Rare, so the common case skips its square root and division.
      const XF flat[4] = {v[0], v[1], v[2], zero};
      XF outside[4];
      normalize<X>(flat, outside);
      for (unsigned c = 0; c < 4; ++c) q[c] = X::select(inside, q[c], outside[c]);
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
    F wa, wb;
    if constexpr (HasPair<L>) {
      // Both series in one register (the lower half weight 1 - t, the upper t): the same operations per lane.
      using P = typename L::Pair;
      const typename P::F onePair = P::set(1.f), cosPair = P::pair(cosMinusOne, cosMinusOne);
      typename P::F acc = onePair;
      for (int i = 5; i >= 0; --i)
        acc = P::add(onePair, P::mul(P::mul(P::pair(series.termA[i], series.termB[i]), cosPair), acc));
      const typename P::F w = P::mul(P::pair(L::set(1.f - t), L::set(t)), acc);
      wa = P::low(w);
      wb = P::high(w);
    } else {
      F accA = one, accB = one;
      for (int i = 5; i >= 0; --i) {
        accA = L::add(one, L::mul(L::mul(series.termA[i], cosMinusOne), accA));
        accB = L::add(one, L::mul(L::mul(series.termB[i], cosMinusOne), accB));
      }
      wa = L::mul(L::set(1.f - t), accA);
      wb = L::mul(L::set(t), accB);
    }
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
    canonical(r, out);
  }

  /// canonicalSign() of four lanes: negated where w < 0, or w == 0 and the first non-zero of x, y,
  /// z is negative.
  [[gnu::always_inline]] static void canonical(const F q[4], F out[4]) {
    const F zero = L::set(0.f);
    if (!L::any(L::eq(q[3], zero))) {
      // w is not zero in any lane (nearly always): its sign alone decides.
      const M negative = L::lt(q[3], zero);
      for (unsigned c = 0; c < 4; ++c) out[c] = L::flipSign(negative, q[c]);
      return;
    }
    M negate = L::lt(q[2], zero);
    negate = L::orMask(L::lt(q[1], zero), L::andMask(L::eq(q[1], zero), negate));
    negate = L::orMask(L::lt(q[0], zero), L::andMask(L::eq(q[0], zero), negate));
    negate = L::orMask(L::lt(q[3], zero), L::andMask(L::eq(q[3], zero), negate));
    for (unsigned c = 0; c < 4; ++c) out[c] = L::flipSign(negate, q[c]);
  }

  /// The batch's values at the pose's frame `a` and, when `second`, at frame `b`: a rotation
  /// (normalised) or a vector, [frame][component]. The spline parts are accumulated row by row, so a
  /// row read once serves both frames when they share a segment (`sameSegment`).
  template <UniformGroup G>
  static void evaluate(const Batch& batch, const std::uint8_t* bits, const FrameSource& a, const BatchLayout& la,
                       const FrameSource& b, const BatchLayout& lb, bool second, bool sameSegment, F out[2][4]) {
    constexpr unsigned C = G == UniformGroup::Rotation4 ? 4 : 3;
    const RowShifts shifts = rowShifts<C>(batch);
    if constexpr (HasPair<L>) {
      if (second) {
        // Both frames in one register per component (L::Pair: each half computes what the four-lane
        // code below computes for its frame).
        using P = typename L::Pair;
        typename P::F s[4], r[4], v[4], q[4];
        auto rowTerms = [&](unsigned k, typename P::F t[4]) {
          F qa[4], qb[4];
          row<C>(batch, shifts, bits, a.rowStart[k], qa);
          if (!sameSegment) row<C>(batch, shifts, bits, b.rowStart[k], qb);
          const typename P::F w = P::pair(L::set(a.weights[k]), L::set(b.weights[k]));
          for (unsigned c = 0; c < C; ++c) t[c] = P::mul(w, P::pair(qa[c], sameSegment ? qa[c] : qb[c]));
        };
        rowTerms(0, s);
        for (unsigned k = 1; k < 4; ++k) {
          typename P::F t[4];
          rowTerms(k, t);
          for (unsigned c = 0; c < C; ++c) s[c] = P::add(s[c], t[c]);
        }
        if (sameSegment && !la.wide && b.local == a.local + 1) {
          residualPair<C>(la, a.segment, a.local, r);
        } else {
          F ra[1][4], rb[1][4];
          residuals<C, 1>(la, a.segment, a.local, ra);
          residuals<C, 1>(lb, b.segment, b.local, rb);
          for (unsigned c = 0; c < C; ++c) r[c] = P::pair(ra[0][c], rb[0][c]);
        }
        typename P::F minimum[4];
        for (unsigned c = 0; c < C; ++c) minimum[c] = P::pair(batch.minimum[c], batch.minimum[c]);
        values<P, C>(minimum, P::pair(batch.step, batch.step), s, r, v);
        if constexpr (G == UniformGroup::Vector) {
          for (unsigned c = 0; c < 3; ++c) q[c] = v[c];
        } else if constexpr (G == UniformGroup::Rotation4) {
          normalize<P>(v, q);
        } else {
          typename P::F ref[4];
          if constexpr (G == UniformGroup::RotationReference)
            for (unsigned c = 0; c < 4; ++c) ref[c] = P::pair(batch.reference[c], batch.reference[c]);
          rotation<P, G == UniformGroup::RotationReference>(v, ref, q);
        }
        for (unsigned c = 0; c < 4; ++c) {
          out[0][c] = P::low(q[c]);
          out[1][c] = P::high(q[c]);
        }
        return;
      }
    }
    const bool both = second && sameSegment;  // rows read once for both frames
    F sa[4], sb[4];
    auto accumulate = [&](unsigned k, const FrameSource& source, bool forA, bool forB) {
      F q[4];
      row<C>(batch, shifts, bits, source.rowStart[k], q);
      const F wa = L::set(a.weights[k]), wb = L::set(b.weights[k]);
      for (unsigned c = 0; c < C; ++c) {
        if (forA) sa[c] = k == 0 ? L::mul(wa, q[c]) : L::add(sa[c], L::mul(wa, q[c]));
        if (forB) sb[c] = k == 0 ? L::mul(wb, q[c]) : L::add(sb[c], L::mul(wb, q[c]));
      }
    };
    for (unsigned k = 0; k < 4; ++k) accumulate(k, a, true, both);
    F residual[1][4], v[4];
    residuals<C, 1>(la, a.segment, a.local, residual);
    values<L, C>(batch.minimum, batch.step, sa, residual[0], v);
    finishValue<G>(batch, v, out[0]);
    if (!second) return;
    if (!both)
      for (unsigned k = 0; k < 4; ++k) accumulate(k, b, false, true);
    residuals<C, 1>(lb, b.segment, b.local, residual);
    values<L, C>(batch.minimum, batch.step, sb, residual[0], v);
    finishValue<G>(batch, v, out[1]);
  }

  /// A frame's decoded value of the group's shape from its stored components.
  template <UniformGroup G>
  static void finishValue(const Batch& batch, const F v[4], F out[4]) {
    if constexpr (G == UniformGroup::Vector) {
      for (unsigned c = 0; c < 3; ++c) out[c] = v[c];
    } else if constexpr (G == UniformGroup::Rotation4) {
      normalize<L>(v, out);
    } else {
      rotation<L, G == UniformGroup::RotationReference>(v, batch.reference, out);
    }
  }

  /// Writes the values at the frame (`a`) or, when `second`, their interpolation towards the next
  /// frame's (`b`) by the series' fraction: lerp, or canonicalSign(slerp) for rotations.
  template <bool Vector>
  static void finish(const std::uint32_t* outOffset, unsigned lanes, const F a[4], const F b[4], bool second,
                     const SlerpSeries& series, Transform* out) {
    F result[4];
    auto* base = reinterpret_cast<unsigned char*>(out);
    if (!second) {
      if constexpr (Vector) L::storeTriples(a[0], a[1], a[2], base, outOffset, lanes);
      else L::storeQuads(a[0], a[1], a[2], a[3], base, outOffset, lanes);
      return;
    }
    if constexpr (Vector) {
      const F t = L::set(series.t);
      for (unsigned c = 0; c < 3; ++c) result[c] = L::add(a[c], L::mul(L::sub(b[c], a[c]), t));
      L::storeTriples(result[0], result[1], result[2], base, outOffset, lanes);
    } else {
      slerpCanonical(a, b, series, result);
      L::storeQuads(result[0], result[1], result[2], result[3], base, outOffset, lanes);
    }
  }
};

}  // namespace animpack::runtime::kernels
