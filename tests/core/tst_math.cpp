// Pose and transform math against hand-computed cases (core/math/transform.h, core/runtime/math.h).
#include <QtTest>

#include "core/anim/source_clip.h"

#include <cmath>

#include "core/math/transform.h"
#include "core/runtime/pose_ops.h"

using namespace animpack;
using core::Mat34;
using core::Quat;
using core::Transform;
using core::Vec3;

namespace {
Quat axisAngle(Vec3 axis, float angle) {
  const float s = std::sin(angle / 2);
  return {axis.x * s, axis.y * s, axis.z * s, std::cos(angle / 2)};
}
Transform trs(Vec3 t, Quat r = {}, Vec3 s = {1, 1, 1}) {
  Transform x;
  x.translation = t;
  x.rotation = r;
  x.scale = s;
  return x;
}
void compareVec(Vec3 a, Vec3 b, float tol = 1e-5f) {
  QVERIFY2(std::fabs(a.x - b.x) < tol && std::fabs(a.y - b.y) < tol && std::fabs(a.z - b.z) < tol,
           qPrintable(QString("(%1 %2 %3) != (%4 %5 %6)").arg(a.x).arg(a.y).arg(a.z).arg(b.x).arg(b.y).arg(b.z)));
}
Vec3 point(const Mat34& m, Vec3 p) {
  const float in[3] = {p.x, p.y, p.z};
  float out[3];
  m.transformPoint(in, out);
  return {out[0], out[1], out[2]};
}
}  // namespace

class TestMath : public QObject {
  Q_OBJECT
 private slots:
  void quaternionRotatesAndComposes() {
    const Quat z90 = axisAngle({0, 0, 1}, float(M_PI / 2));
    compareVec(runtime::rotate(z90, {1, 0, 0}), {0, 1, 0});
    const Quat x90 = axisAngle({1, 0, 0}, float(M_PI / 2));
    // (z90 * x90) applies x90 first: y -> z, then z stays z.
    compareVec(runtime::rotate(z90 * x90, {0, 1, 0}), {0, 0, 1});
    compareVec(runtime::rotate(runtime::conjugate(z90) * z90, {0.3f, -2, 5}), {0.3f, -2, 5});
  }

  // runtime::slerp (polynomial weights up to 60-degree steps, sines beyond) against double-precision
  // slerp from sines, over steps from 0 to 180 degrees: the deviation is float32 rounding.
  void slerpMatchesDoublePrecisionSlerp() {
    double worst = 0, worstSmall = 0;
    for (int step = 0; step <= 180; ++step)
      for (int axis = 0; axis < 3; ++axis) {
        const double half = step * 3.14159265358979323846 / 360.0;
        const std::array<double, 4> a{0.1, -0.2, 0.3, 0.9};
        const double n = std::sqrt(0.95);
        std::array<double, 4> qa{a[0] / n, a[1] / n, a[2] / n, a[3] / n};
        // b = qa rotated by `step` degrees about one of three axes.
        double r[4] = {0, 0, 0, std::cos(half)};
        r[axis] = std::sin(half);
        const std::array<double, 4> qb{r[3] * qa[0] + r[0] * qa[3] + r[1] * qa[2] - r[2] * qa[1],
                                       r[3] * qa[1] - r[0] * qa[2] + r[1] * qa[3] + r[2] * qa[0],
                                       r[3] * qa[2] + r[0] * qa[1] - r[1] * qa[0] + r[2] * qa[3],
                                       r[3] * qa[3] - r[0] * qa[0] - r[1] * qa[1] - r[2] * qa[2]};
        for (int k = 1; k < 32; ++k) {
          const double t = k / 32.0;
          const auto exact = core::slerpExact(qa, qb, t);
          const Quat got = runtime::slerp({float(qa[0]), float(qa[1]), float(qa[2]), float(qa[3])},
                                          {float(qb[0]), float(qb[1]), float(qb[2]), float(qb[3])}, float(t));
          // Twice the distance of the (sign-aligned) quaternions: the rotation angle between them for
          // small differences (acos near 1 would drown it in rounding).
          const double sign =
              exact[0] * got.x + exact[1] * got.y + exact[2] * got.z + exact[3] * got.w < 0 ? -1.0 : 1.0;
          const double dx = sign * got.x - exact[0], dy = sign * got.y - exact[1], dz = sign * got.z - exact[2],
                       dw = sign * got.w - exact[3];
          const double angle = 2 * std::sqrt(dx * dx + dy * dy + dz * dz + dw * dw);
          worst = std::max(worst, angle);
          if (step <= 60) worstSmall = std::max(worstSmall, angle);
        }
      }
    qInfo("runtime::slerp vs double slerp: %.2e rad up to 60 degrees, %.2e rad up to 180", worstSmall, worst);
    QVERIFY(worst < 1e-6);
  }

  void slerpTakesTheShortestPath() {
    const Quat a = axisAngle({0, 0, 1}, 0.2f);
    const Quat b = runtime::negated(axisAngle({0, 0, 1}, 0.6f));  // same rotation, opposite sign
    const Quat mid = runtime::slerp(a, b, 0.5f);
    compareVec(runtime::rotate(mid, {1, 0, 0}), runtime::rotate(axisAngle({0, 0, 1}, 0.4f), {1, 0, 0}));
    const Quat nmid = runtime::nlerp(a, b, 0.5f);
    compareVec(runtime::rotate(nmid, {1, 0, 0}), runtime::rotate(axisAngle({0, 0, 1}, 0.4f), {1, 0, 0}));
  }

  void affineMatchesTrsAndInverts() {
    const Transform t = trs({1, 2, 3}, axisAngle({0, 1, 0}, 0.7f), {2, 0.5f, 3});
    const Mat34 m = Mat34::fromTransform(t);
    // T * R * S applied to a point.
    const Vec3 p{0.3f, -1, 2};
    const Vec3 expected = runtime::rotate(t.rotation, {p.x * 2, p.y * 0.5f, p.z * 3}) + t.translation;
    compareVec(point(m, p), expected);
    const Mat34 id = m * m.inverse();
    for (int i = 0; i < 12; ++i) QVERIFY(std::fabs(id.m[i] - Mat34::identity().m[i]) < 1e-5f);
    float m16[16];
    m.toMatrix4(m16);
    QCOMPARE(m16[15], 1.f);
    QCOMPARE(m16[12], 1.f);  // column-major: translation in elements 12..14
    const Mat34 back = Mat34::fromMatrix4(m16);
    for (int i = 0; i < 12; ++i) QCOMPARE(back.m[i], m.m[i]);
  }

  void localToObjectIsOnePassParentsFirst() {
    // root at (1,0,0) turned 90 deg about z; child 2 along the root's x; grandchild 1 along the child's x.
    const std::vector<std::int32_t> parents{-1, 0, 1};
    const std::vector<Transform> locals{trs({1, 0, 0}, axisAngle({0, 0, 1}, float(M_PI / 2))), trs({2, 0, 0}),
                                        trs({1, 0, 0}, {}, {2, 2, 2})};
    std::vector<Mat34> object(3);
    runtime::localToObject<float>(parents, locals, object);
    compareVec(point(object[0], {0, 0, 0}), {1, 0, 0});
    compareVec(point(object[1], {0, 0, 0}), {1, 2, 0});
    compareVec(point(object[2], {0, 0, 0}), {1, 3, 0});
    compareVec(point(object[2], {1, 0, 0}), {1, 5, 0});  // scale 2 at the grandchild
    // The same code composes in double for the error metric.
    std::vector<runtime::Affine<double>> objectD(3);
    runtime::localToObject<double>(parents, locals, objectD);
    QVERIFY(std::fabs(objectD[2].m[10] - 3.0) < 1e-6);
  }

  void skinningMatchesAHandComputedCase() {
    // Two joints: j0 at the origin, j1 at (0,1,0) in the bind pose. Pose: j1 turns 90 deg about z.
    const std::vector<std::int32_t> parents{-1, 0};
    const std::vector<Transform> bind{trs({0, 0, 0}), trs({0, 1, 0})};
    std::vector<Mat34> bindObject(2), inverseBind(2);
    runtime::localToObject<float>(parents, bind, bindObject);
    for (int j = 0; j < 2; ++j) inverseBind[j] = bindObject[j].inverse();
    const std::vector<Transform> pose{trs({0, 0, 0}), trs({0, 1, 0}, axisAngle({0, 0, 1}, float(M_PI / 2)))};
    std::vector<Mat34> object(2), skin(2);
    runtime::localToObject<float>(parents, pose, object);
    runtime::skinMatrices(object, inverseBind, skin);

    const std::vector<Vec3> positions{{0, 2, 0}, {0, 2, 0}};
    const std::vector<Vec3> normals{{1, 0, 0}, {1, 0, 0}};
    std::vector<runtime::VertexInfluences> influences(2);
    influences[0].joints = {1, 0, 0, 0};
    influences[0].weights = {1, 0, 0, 0};
    influences[1].joints = {0, 1, 0, 0};
    influences[1].weights = {0.5f, 0.5f, 0, 0};
    std::vector<Vec3> outP(2), outN(2);
    runtime::skinVertices(skin, positions, normals, influences, outP, outN);
    compareVec(outP[0], {-1, 1, 0});        // (0,1,0) above j1, turned to (-1,0,0)
    compareVec(outP[1], {-0.5f, 1.5f, 0});  // halfway between the rest and the turned position
    compareVec(outN[0], {0, 1, 0});
    const float inv = 1.f / std::sqrt(2.f);
    compareVec(outN[1], {inv, inv, 0});
  }

  void normalsStayPerpendicularUnderNonUniformScale() {
    // A plane x + y = 1 scaled by 2 along x becomes x/2 + y = 1: its normal goes to (1/2, 1, 0).
    const std::vector<Mat34> skin{Mat34::fromTransform(trs({0, 0, 0}, {}, {2, 1, 1}))};
    const float inv = 1.f / std::sqrt(2.f);
    const std::vector<Vec3> p{{0.5f, 0.5f, 0}}, n{{inv, inv, 0}};
    std::vector<runtime::VertexInfluences> inf(1);
    inf[0].weights = {1, 0, 0, 0};
    std::vector<Vec3> outP(1), outN(1);
    runtime::skinVertices(skin, p, n, inf, outP, outN);
    const float len = std::sqrt(0.25f + 1.f);
    compareVec(outN[0], {0.5f / len, 1.f / len, 0});
    // A mirror keeps normals pointing out.
    const std::vector<Mat34> mirror{Mat34::fromTransform(trs({0, 0, 0}, {}, {-1, 1, 1}))};
    runtime::skinVertices(mirror, p, n, inf, outP, outN);
    compareVec(outN[0], {-inv, inv, 0});
  }

  void decomposeRoundTrips() {
    const Transform t = trs({4, -2, 7}, runtime::normalized({0.2f, -0.4f, 0.1f, 0.9f}), {1.5f, 2, 0.25f});
    const core::Mat34d m = core::Mat34d::fromTransform(t);
    double residual = 1;
    const Transform d = core::decompose(m, &residual);
    QVERIFY(residual < 1e-6);
    compareVec(d.translation, t.translation);
    compareVec(d.scale, t.scale);
    QVERIFY(std::fabs(std::fabs(runtime::dot(d.rotation, t.rotation)) - 1.f) < 1e-6f);
    // A mirrored matrix: negative x scale, proper rotation.
    const Transform mirrored = trs({0, 0, 0}, axisAngle({0, 0, 1}, 0.3f), {-2, 1, 1});
    const Transform dm = core::decompose(core::Mat34d::fromTransform(mirrored));
    compareVec(dm.scale, {-2, 1, 1});
    QVERIFY(core::isFinite(dm));
  }
};

QTEST_GUILESS_MAIN(TestMath)
#include "tst_math.moc"
