#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "core/runtime/lanes.h"
#include "core/runtime/player.h"

namespace animpack::runtime {
namespace {

/// Shortest-arc rotation turning unit vector `from` onto unit vector `to`; for opposite vectors a
/// half turn about an axis perpendicular to `from`, chosen deterministically.
Quat rotationBetween(Vec3 from, Vec3 to) {
  const float d = dot(from, to);
  if (d < -0.999999f) {
    Vec3 axis = cross(std::fabs(from.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0}, from);
    axis = axis * (1.f / length(axis));
    return {axis.x, axis.y, axis.z, 0.f};
  }
  const Vec3 c = cross(from, to);
  return normalized({c.x, c.y, c.z, 1.f + d});
}

/// Revolution R1 (reference axis onto the offset direction), stretch (offset length) and spin
/// (R1^-1 * R): bone lengths survive a blend of the parts.
struct Decomposed {
  Quat revolution;
  float stretch;
  Quat spin;
};

Decomposed decompose(const Transform& t, Vec3 axis) {
  Decomposed d;
  d.stretch = length(t.translation);
  d.revolution = d.stretch > 1e-12f ? rotationBetween(axis, t.translation * (1.f / d.stretch)) : Quat{};
  d.spin = conjugate(d.revolution) * t.rotation;
  return d;
}

/// One joint of blendPoses, scalar: the reference the lane kernel falls back to for a lane whose
/// bone turns half a revolution (rotationBetween's special case).
Transform blendJoint(const Transform& ta, const Transform& tb, float weight, BlendMode mode, Vec3 restOffset) {
  Transform r;
  r.scale = lerp(ta.scale, tb.scale, weight);
  if (mode == BlendMode::Naive) {
    r.translation = lerp(ta.translation, tb.translation, weight);
    r.rotation = nlerp(ta.rotation, tb.rotation, weight);
    return r;
  }
  if (ta.translation.x == tb.translation.x && ta.translation.y == tb.translation.y &&
      ta.translation.z == tb.translation.z) {
    // One offset: its revolution cancels (R1 x nlerp(R1^-1 Ra, R1^-1 Rb) = nlerp(Ra, Rb)) and the
    // bone keeps its length exactly.
    r.translation = ta.translation;
    r.rotation = nlerp(ta.rotation, tb.rotation, weight);
    return r;
  }
  // The reference axis is the rest bone direction, so the revolution stays small in practice.
  Vec3 axis = restOffset;
  const float len = length(axis);
  axis = len > 1e-12f ? axis * (1.f / len) : Vec3{0, 1, 0};
  const Decomposed da = decompose(ta, axis);
  const Decomposed db = decompose(tb, axis);
  // nlerp keeps rotations unit, which is all the bone length needs; slerp's constant angular
  // speed is not worth its trigonometry per joint.
  const Quat revolution = nlerp(da.revolution, db.revolution, weight);
  const float stretch = da.stretch + (db.stretch - da.stretch) * weight;
  const Quat spin = nlerp(da.spin, db.spin, weight);
  r.translation = rotate(revolution, axis * stretch);
  r.rotation = normalized(revolution * spin);
  return r;
}

/// The joints one BlendLanes::run blends: `count` (1..N) of them, listed in `list` or, without a
/// list, consecutive from `first`. Lanes from `count` on repeat the last joint.
struct JointBlock {
  const std::uint32_t* list = nullptr;
  std::size_t first = 0;
  unsigned count = 0;
  std::size_t operator[](unsigned lane) const {
    const unsigned i = lane < count ? lane : count - 1;
    return list ? list[i] : first + i;
  }
};

/// blendJoint for four joints at once (eight with Avx2EightLanes; lanes of core/runtime/lanes.h),
/// in its operation order.
template <class L>
struct BlendLanes {
  using F = typename L::F;
  using M = typename L::M;
  static constexpr unsigned N = sizeof(F) / sizeof(float);
  struct V3 {
    F x, y, z;
  };
  struct Q {
    F x, y, z, w;
  };

  [[gnu::always_inline]] static F dot3(const V3& a, const V3& b) {
    return L::add(L::add(L::mul(a.x, b.x), L::mul(a.y, b.y)), L::mul(a.z, b.z));
  }
  [[gnu::always_inline]] static F dot4(const Q& a, const Q& b) {
    return L::add(L::add(L::add(L::mul(a.x, b.x), L::mul(a.y, b.y)), L::mul(a.z, b.z)), L::mul(a.w, b.w));
  }
  [[gnu::always_inline]] static V3 scale3(const V3& a, F s) { return {L::mul(a.x, s), L::mul(a.y, s), L::mul(a.z, s)}; }
  [[gnu::always_inline]] static V3 add3(const V3& a, const V3& b) {
    return {L::add(a.x, b.x), L::add(a.y, b.y), L::add(a.z, b.z)};
  }
  [[gnu::always_inline]] static V3 cross3(const V3& a, const V3& b) {
    return {L::sub(L::mul(a.y, b.z), L::mul(a.z, b.y)), L::sub(L::mul(a.z, b.x), L::mul(a.x, b.z)),
            L::sub(L::mul(a.x, b.y), L::mul(a.y, b.x))};
  }
  [[gnu::always_inline]] static F lerp1(F a, F b, F t) { return L::add(a, L::mul(L::sub(b, a), t)); }
  [[gnu::always_inline]] static V3 lerp3(const V3& a, const V3& b, F t) {
    return {lerp1(a.x, b.x, t), lerp1(a.y, b.y, t), lerp1(a.z, b.z, t)};
  }
  [[gnu::always_inline]] static Q normalize(const Q& q) {
    const F n2 = dot4(q, q);
    const M positive = L::gt(n2, L::set(0.f));
    const F inv = L::div(L::set(1.f), L::sqrt(n2));
    return {L::select(positive, L::mul(q.x, inv), L::set(0.f)), L::select(positive, L::mul(q.y, inv), L::set(0.f)),
            L::select(positive, L::mul(q.z, inv), L::set(0.f)), L::select(positive, L::mul(q.w, inv), L::set(1.f))};
  }
  [[gnu::always_inline]] static Q nlerp(const Q& a, Q b, F t) {
    const M flip = L::lt(dot4(a, b), L::set(0.f));
    b = {L::flipSign(flip, b.x), L::flipSign(flip, b.y), L::flipSign(flip, b.z), L::flipSign(flip, b.w)};
    return normalize({lerp1(a.x, b.x, t), lerp1(a.y, b.y, t), lerp1(a.z, b.z, t), lerp1(a.w, b.w, t)});
  }
  [[gnu::always_inline]] static Q mul(const Q& a, const Q& b) {
    return {L::sub(L::add(L::add(L::mul(a.w, b.x), L::mul(a.x, b.w)), L::mul(a.y, b.z)), L::mul(a.z, b.y)),
            L::add(L::add(L::sub(L::mul(a.w, b.y), L::mul(a.x, b.z)), L::mul(a.y, b.w)), L::mul(a.z, b.x)),
            L::add(L::sub(L::add(L::mul(a.w, b.z), L::mul(a.x, b.y)), L::mul(a.y, b.x)), L::mul(a.z, b.w)),
            L::sub(L::sub(L::sub(L::mul(a.w, b.w), L::mul(a.x, b.x)), L::mul(a.y, b.y)), L::mul(a.z, b.z))};
  }
  [[gnu::always_inline]] static V3 rotate(const Q& q, const V3& v) {
    const V3 u{q.x, q.y, q.z};
    const V3 t = scale3(cross3(u, v), L::set(2.f));
    return add3(add3(v, scale3(t, q.w)), cross3(u, t));
  }
  /// decompose(): revolution (identity for a zero offset), stretch and spin; `opposite` marks lanes
  /// whose offset points against the axis (rotationBetween's special case).
  [[gnu::always_inline]] static void decompose(const V3& translation, const Q& rotation, const V3& axis, Q& revolution,
                                               F& stretch, Q& spin, M& opposite) {
    stretch = L::sqrt(dot3(translation, translation));
    const M offset = L::gt(stretch, L::set(1e-12f));
    const V3 dir = scale3(translation, L::div(L::set(1.f), stretch));
    const F d = dot3(axis, dir);
    const V3 c = cross3(axis, dir);
    const Q between = normalize({c.x, c.y, c.z, L::add(L::set(1.f), d)});
    opposite = L::andMask(offset, L::lt(d, L::set(-0.999999f)));
    revolution = {L::select(offset, between.x, L::set(0.f)), L::select(offset, between.y, L::set(0.f)),
                  L::select(offset, between.z, L::set(0.f)), L::select(offset, between.w, L::set(1.f))};
    spin = mul({L::neg(revolution.x), L::neg(revolution.y), L::neg(revolution.z), revolution.w}, rotation);
  }

  /// Loads `joints` of `pose` as ten components of N lanes; lanes from joints.count on repeat the last joint.
  [[gnu::always_inline]] static void load(const Transform* pose, const JointBlock& joints, const std::size_t (&j)[N],
                                          F out[10]) {
    if constexpr (requires(const float* p) { L::loadBlock10(p, out); })
      if (!joints.list && joints.count == N) {
        L::loadBlock10(reinterpret_cast<const float*>(pose + joints.first), out);
        return;
      }
    const float* records[N];
    for (unsigned l = 0; l < N; ++l) records[l] = reinterpret_cast<const float*>(pose + j[l]);
    L::gatherRecords10(records, out);
  }
  /// load()'s inverse for the first joints.count lanes.
  [[gnu::always_inline]] static void store(const F in[10], Transform* pose, const JointBlock& joints,
                                           const std::size_t (&j)[N]) {
    if constexpr (requires(float* p) { L::storeBlock10(in, p); })
      if (!joints.list && joints.count == N) {
        L::storeBlock10(in, reinterpret_cast<float*>(pose + joints.first));
        return;
      }
    auto* bytes = reinterpret_cast<unsigned char*>(pose);
    std::uint32_t offsets[N];
    for (unsigned l = 0; l < N; ++l)
      offsets[l] = static_cast<std::uint32_t>(j[l] * sizeof(Transform) + offsetof(Transform, rotation));
    L::storeQuads(in[0], in[1], in[2], in[3], bytes, offsets, joints.count);
    for (unsigned l = 0; l < N; ++l) offsets[l] += offsetof(Transform, translation) - offsetof(Transform, rotation);
    L::storeTriples(in[4], in[5], in[6], bytes, offsets, joints.count);
    for (unsigned l = 0; l < N; ++l) offsets[l] += offsetof(Transform, scale) - offsetof(Transform, translation);
    L::storeTriples(in[7], in[8], in[9], bytes, offsets, joints.count);
  }

  /// Blends `joints` (1..N of them); a joint the same in both poses, bit for bit, keeps its
  /// transform. Every joint is read before any is written, so `out` may alias `a` or `b`.
  [[gnu::always_inline]] static void run(const Transform* a, const Transform* b, const JointBlock& joints, float weight,
                                         BlendMode mode, std::span<const Transform> restPose, Transform* out) {
    static_assert(sizeof(Transform) == 10 * sizeof(float) && offsetof(Transform, rotation) == 0 &&
                      offsetof(Transform, translation) == 16 && offsetof(Transform, scale) == 28,
                  "load() reads a Transform as rotation, translation, scale");
    std::size_t j[N];
    for (unsigned l = 0; l < N; ++l) j[l] = joints[l];
    F fa[10], fb[10];
    load(a, joints, j, fa);
    load(b, joints, j, fb);
    const Q ra{fa[0], fa[1], fa[2], fa[3]}, rb{fb[0], fb[1], fb[2], fb[3]};
    const V3 ta{fa[4], fa[5], fa[6]}, tb{fb[4], fb[5], fb[6]};
    const V3 sa{fa[7], fa[8], fa[9]}, sb{fb[7], fb[8], fb[9]};
    const F w = L::set(weight);
    const V3 scale = lerp3(sa, sb, w);
    V3 translation;
    Q rotation;
    M opposite = L::lt(w, w);  // none
    if (mode == BlendMode::Naive) {
      translation = lerp3(ta, tb, w);
      rotation = nlerp(ra, rb, w);
    } else if (const M sameOffset = L::andMask(L::andMask(L::eq(ta.x, tb.x), L::eq(ta.y, tb.y)), L::eq(ta.z, tb.z));
               !L::any(L::notMask(sameOffset))) {
      // Every lane has one offset in both poses (most joints of a skeleton): blendJoint's shortcut.
      translation = ta;
      rotation = nlerp(ra, rb, w);
    } else {
      auto rest = [&](unsigned l) { return j[l] < restPose.size() ? restPose[j[l]].translation : Vec3{}; };
      V3 axis;
      if constexpr (N == 4) {
        const Vec3 r0 = rest(0), r1 = rest(1), r2 = rest(2), r3 = rest(3);
        axis = {L::floats(r0.x, r1.x, r2.x, r3.x), L::floats(r0.y, r1.y, r2.y, r3.y),
                L::floats(r0.z, r1.z, r2.z, r3.z)};
      } else {
        float rx[N], ry[N], rz[N];
        for (unsigned l = 0; l < N; ++l) {
          const Vec3 r = rest(l);
          rx[l] = r.x;
          ry[l] = r.y;
          rz[l] = r.z;
        }
        axis = {L::fromLanes(rx), L::fromLanes(ry), L::fromLanes(rz)};
      }
      const F len = L::sqrt(dot3(axis, axis));
      const M bone = L::gt(len, L::set(1e-12f));
      axis = scale3(axis, L::div(L::set(1.f), len));
      axis = {L::select(bone, axis.x, L::set(0.f)), L::select(bone, axis.y, L::set(1.f)),
              L::select(bone, axis.z, L::set(0.f))};
      Q revA, spinA, revB, spinB;
      F stretchA, stretchB;
      M oppositeA, oppositeB;
      decompose(ta, ra, axis, revA, stretchA, spinA, oppositeA);
      decompose(tb, rb, axis, revB, stretchB, spinB, oppositeB);
      opposite = L::orMask(oppositeA, oppositeB);
      const Q revolution = nlerp(revA, revB, w);
      const F stretch = lerp1(stretchA, stretchB, w);
      const Q spin = nlerp(spinA, spinB, w);
      translation = rotate(revolution, scale3(axis, stretch));
      rotation = normalize(mul(revolution, spin));
      // Lanes with one offset take the shortcut as blendJoint does; only the others are special.
      const Q shortcut = nlerp(ra, rb, w);
      translation = {L::select(sameOffset, ta.x, translation.x), L::select(sameOffset, ta.y, translation.y),
                     L::select(sameOffset, ta.z, translation.z)};
      rotation = {L::select(sameOffset, shortcut.x, rotation.x), L::select(sameOffset, shortcut.y, rotation.y),
                  L::select(sameOffset, shortcut.z, rotation.z), L::select(sameOffset, shortcut.w, rotation.w)};
      opposite = L::andMask(opposite, L::notMask(sameOffset));
    }
    F result[10] = {rotation.x,    rotation.y,    rotation.z, rotation.w, translation.x,
                    translation.y, translation.z, scale.x,    scale.y,    scale.z};
    if (!joints.list) {
      // A block of consecutive joints may hold some the same in both poses (a listed joint differs:
      // blendPoses compared them).
      M same = L::sameBits(fa[0], fb[0]);
      for (int c = 1; c < 10; ++c) same = L::andMask(same, L::sameBits(fa[c], fb[c]));
      for (int c = 0; c < 10; ++c) result[c] = L::select(same, fa[c], result[c]);
    }
    if (!L::any(opposite)) {
      store(result, out, joints, j);
      return;
    }
    // A half turn between axis and offset: the scalar special case, computed before `out` (which
    // may alias the inputs) is written.
    Transform special[N];
    for (unsigned l = 0; l < joints.count; ++l)
      if (L::lane(opposite, l))
        special[l] =
            blendJoint(a[j[l]], b[j[l]], weight, mode, j[l] < restPose.size() ? restPose[j[l]].translation : Vec3{});
    store(result, out, joints, j);
    for (unsigned l = 0; l < joints.count; ++l)
      if (L::lane(opposite, l)) out[j[l]] = special[l];
  }
};

#if defined(ANIMPACK_HAVE_AVX2)
/// BlendLanes::run of eight joints compiled for AVX2 (blendPoses checks the CPU); without FMA every
/// operation rounds as on SSE2, so the poses are bit-identical.
[[gnu::target("avx2,bmi2"), gnu::flatten]] void blendEightAvx2(const Transform* a, const Transform* b,
                                                               std::size_t first, unsigned count, float weight,
                                                               BlendMode mode, std::span<const Transform> restPose,
                                                               Transform* out) {
  BlendLanes<Avx2EightLanes>::run(a, b, JointBlock{nullptr, first, count}, weight, mode, restPose, out);
}

/// Whether joints first .. first + 7 are the same in both poses, bit for bit.
[[gnu::target("avx2")]] bool sameEightAvx2(const Transform* a, const Transform* b, std::size_t first) {
  return Avx2EightLanes::sameBlock10(reinterpret_cast<const float*>(a + first),
                                     reinterpret_cast<const float*>(b + first));
}
#endif

}  // namespace

void blendPoses(std::span<const Transform> a, std::span<const Transform> b, float weight, BlendMode mode,
                std::span<const Transform> restPose, std::span<Transform> out, [[maybe_unused]] DecodePath path) {
  auto keep = [&](std::size_t first, std::size_t count) {
    if (out.data() != a.data()) std::memmove(&out[first], &a[first], count * sizeof(Transform));
  };
#if defined(ANIMPACK_HAVE_AVX2)
  if (path == DecodePath::Simd && avx2Available()) {
    // Consecutive joints eight at a time: a block the same in both poses (joints neither clip
    // animates: most of a rig's fingers and face) is kept whole; in the others a joint the same in
    // both keeps its transform (BlendLanes::run).
    for (std::size_t first = 0; first < out.size(); first += 8) {
      const auto count = static_cast<unsigned>(std::min<std::size_t>(8, out.size() - first));
      const bool same = count == 8 ? sameEightAvx2(a.data(), b.data(), first)
                                   : std::memcmp(&a[first], &b[first], count * sizeof(Transform)) == 0;
      if (same) keep(first, count);
      else blendEightAvx2(a.data(), b.data(), first, count, weight, mode, restPose, out.data());
    }
    return;
  }
#endif
  // Four lanes: the joints that differ, four at a time whichever they are (a joint the same in both
  // poses keeps its transform). Each group is read before it is written and only joints already
  // compared are written, so `out` may alias `a` or `b`.
  std::uint32_t group[4];
  unsigned count = 0;
  auto blendGroup = [&] {
    const JointBlock joints{group, 0, count};
#if defined(ANIMPACK_HAVE_SSE2)
    if (path != DecodePath::Scalar)
      BlendLanes<Sse2Lanes>::run(a.data(), b.data(), joints, weight, mode, restPose, out.data());
    else
#endif
      BlendLanes<PortableLanes>::run(a.data(), b.data(), joints, weight, mode, restPose, out.data());
    count = 0;
  };
  for (std::size_t j = 0; j < out.size(); ++j) {
    if (std::memcmp(&a[j], &b[j], sizeof(Transform)) == 0) {
      keep(j, 1);
      continue;
    }
    group[count++] = static_cast<std::uint32_t>(j);
    if (count == 4) blendGroup();
  }
  if (count > 0) blendGroup();
}

}  // namespace animpack::runtime
