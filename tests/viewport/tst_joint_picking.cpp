// Joint picking math (viewport/joint_picking): projection to window pixels against hand-computed
// values, points behind the camera, the pick radius and the nearest-wins rule. No GL.
#include <QtTest>

#include "viewport/joint_picking.h"

using namespace animpack::viewport;

namespace {

/// A camera at (0, 0, 10) looking down -Z with a 90 degree vertical field of view, square window.
QMatrix4x4 viewProjection() {
  QMatrix4x4 projection, view;
  projection.perspective(90.f, 1.f, 0.1f, 100.f);
  view.lookAt(QVector3D(0, 0, 10), QVector3D(0, 0, 0), QVector3D(0, 1, 0));
  return projection * view;
}

const QSizeF kWindow(200, 200);

}  // namespace

class TestJointPicking : public QObject {
  Q_OBJECT
 private slots:
  void projectsToWindowPixels() {
    // At distance 10 with a 90 degree field of view the half-height of the view is 10 units.
    const auto centre = projectToWindow(QVector3D(0, 0, 0), viewProjection(), kWindow);
    QVERIFY(centre);
    QCOMPARE(*centre, QPointF(100, 100));
    const auto upRight = projectToWindow(QVector3D(5, 5, 0), viewProjection(), kWindow);
    QVERIFY(upRight);
    QVERIFY(std::abs(upRight->x() - 150) < 1e-3 && std::abs(upRight->y() - 50) < 1e-3);  // window y grows down
    const auto nearer = projectToWindow(QVector3D(5, 0, 5), viewProjection(), kWindow);  // half the distance
    QVERIFY(nearer && std::abs(nearer->x() - 200) < 1e-3);
  }

  void pointsBehindTheCameraDoNotProject() {
    QVERIFY(!projectToWindow(QVector3D(0, 0, 20), viewProjection(), kWindow));
    const std::vector<QVector3D> points{QVector3D(0, 0, 20)};  // would land at the centre if mirrored
    QCOMPARE(pickNearest(points, viewProjection(), kWindow, QPointF(100, 100)), -1);
  }

  void nearestWithinTheRadiusWins() {
    const std::vector<QVector3D> points{QVector3D(0, 0, 0), QVector3D(1, 0, 0), QVector3D(-5, -5, 0)};
    // Point 1 projects to (110, 100); point 0 to (100, 100).
    QCOMPARE(pickNearest(points, viewProjection(), kWindow, QPointF(107, 101)), 1);
    QCOMPARE(pickNearest(points, viewProjection(), kWindow, QPointF(103, 99)), 0);
    QCOMPARE(pickNearest(points, viewProjection(), kWindow, QPointF(52, 148)), 2);
    QCOMPARE(pickNearest(points, viewProjection(), kWindow, QPointF(130, 130)), -1);  // > 10 px from all
    QCOMPARE(pickNearest(points, viewProjection(), kWindow, QPointF(130, 130), 40.0), 1);
    QCOMPARE(pickNearest({}, viewProjection(), kWindow, QPointF(100, 100)), -1);
  }
};

QTEST_GUILESS_MAIN(TestJointPicking)
#include "tst_joint_picking.moc"
