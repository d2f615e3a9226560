// Pose and transform math against hand-computed cases (core/math/transform.h, core/runtime/math.h).
#include <QtTest>

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
    compareVec(outP[0], {-1, 1, 0});      // (0,1,0) above j1, turned to (-1,0,0)
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
