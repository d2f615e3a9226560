// The studio's curves (core/anim/curves.h): Euler angles about X, Y, Z in degrees, unwrapped in both
// directions; a decoded quaternion takes its source's sign; translations in cm.
#include <QTest>

#include <cmath>

#include "core/anim/curves.h"

using namespace animpack;
using namespace animpack::core;

namespace {

Quat axisAngle(double x, double y, double z, double degrees) {
  const double h = degrees * 3.14159265358979323846 / 360.0, s = std::sin(h);
  return {float(x * s), float(y * s), float(z * s), float(std::cos(h))};
}

Transform rotated(Quat q) {
  Transform t;
  t.rotation = q;
  return t;
}

}  // namespace

class TestCurves : public QObject {
  Q_OBJECT

 private slots:
  void eulerAnglesAboutEachAxis() {
    const auto x = eulerXyzDegrees(axisAngle(1, 0, 0, 30));
    QVERIFY(std::fabs(x[0] - 30) < 1e-4 && std::fabs(x[1]) < 1e-4 && std::fabs(x[2]) < 1e-4);
    const auto y = eulerXyzDegrees(axisAngle(0, 1, 0, -45));
    QVERIFY(std::fabs(y[1] + 45) < 1e-4 && std::fabs(y[0]) < 1e-4 && std::fabs(y[2]) < 1e-4);
    const auto z = eulerXyzDegrees(axisAngle(0, 0, 1, 170));
    QVERIFY(std::fabs(z[2] - 170) < 1e-3);
  }

  /// A joint spinning about Z through +180 and, later, back down through -180: the curve is smooth
  /// both ways (the view's old unwrap corrected only jumps above +180).
  void eulerCurvesUnwrapBothWays() {
    std::vector<Transform> frames;
    for (int d = 0; d <= 400; d += 20) frames.push_back(rotated(axisAngle(0, 0, 1, d)));  // up through 180
    for (int d = 400; d >= -400; d -= 20)
      frames.push_back(rotated(axisAngle(0, 0, 1, d)));  // down through 180 and -180
    const auto curve = jointCurve(CurveChannel::Euler, frames, 1.0);
    QCOMPARE(curve.size(), frames.size());
    for (std::size_t f = 1; f < curve.size(); ++f)
      QVERIFY2(std::fabs(curve[f][2] - curve[f - 1][2]) <= 20.001, qPrintable(QString::number(f)));
    QVERIFY(std::fabs(curve[20][2] - 400) < 1e-2);     // 400 degrees, not 40
    QVERIFY(std::fabs(curve.back()[2] + 400) < 1e-2);  // and down to -400
    std::vector<std::array<double, 4>> jumps{{170, 0, 0, 0}, {-170, 0, 0, 0}, {170, 0, 0, 0}, {-175, 0, 0, 0}};
    unwrapDegrees(jumps);
    QCOMPARE(jumps[1][0], 190.0);
    QCOMPARE(jumps[2][0], 170.0);
    QCOMPARE(jumps[3][0], 185.0);
  }

  void quaternionsFollowTheirReferenceSign() {
    const Quat q = axisAngle(0, 1, 0, 60);
    const std::vector<Transform> source{rotated(q), rotated(q)};
    const std::vector<Transform> decoded{rotated(q), rotated({-q.x, -q.y, -q.z, -q.w})};
    const auto curve = jointCurve(CurveChannel::Quaternion, decoded, 1.0, source);
    QCOMPARE(curve[1][1], double(q.y));
    QCOMPARE(curve[1][3], double(q.w));
    QCOMPARE(jointCurve(CurveChannel::Quaternion, decoded, 1.0)[1][3], double(-q.w));  // without a reference, as stored
  }

  void translationsInCentimetres() {
    Transform t;
    t.translation = {0.5f, -1.f, 2.f};
    t.scale = {2.f, 2.f, 2.f};
    const std::vector<Transform> frames{t};
    const auto cm = jointCurve(CurveChannel::Translation, frames, 100.0);
    QCOMPARE(cm[0][0], 50.0);
    QCOMPARE(cm[0][1], -100.0);
    QCOMPARE(jointCurve(CurveChannel::Scale, frames, 100.0)[0][2], 2.0);
  }
};

QTEST_GUILESS_MAIN(TestCurves)
#include "tst_curves.moc"
