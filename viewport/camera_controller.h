#pragma once
// Orbit camera for the viewport window: left drag orbits around the view centre (yaw about +Y,
// pitch clamped short of the poles), middle or right drag (or Shift + left drag) pans, the wheel
// zooms; a left press and release without a drag is reported as a click.

#include <QObject>
#include <QPointF>
#include <QVector3D>

class QWindow;
namespace Qt3DRender {
class QCamera;
}

namespace animpack::viewport {

class CameraController : public QObject {
  Q_OBJECT
 public:
  /// Drives `camera` from the mouse events of `window` (an event filter is installed on it).
  CameraController(Qt3DRender::QCamera* camera, QWindow* window, QObject* parent = nullptr);

  /// Moves the camera back along its view direction until the box (world) fits the window, looking at
  /// its centre; `resetOrientation` first turns to the default front-right, slightly-above view.
  void frame(const QVector3D& lo, const QVector3D& hi, bool resetOrientation);
  /// Turns the view by degrees (yaw about +Y, then pitch).
  void orbit(float yawDegrees, float pitchDegrees);
  /// Moves the view centre by a window-space drag (pixels).
  void pan(QPointF pixels);
  /// Zooms by wheel steps (positive: nearer).
  void zoom(float steps);

  /// The point the camera orbits around (world).
  QVector3D viewCenter() const { return m_center; }
  /// Distance from the camera to the view centre (world units, cm).
  float distance() const { return m_distance; }

 signals:
  /// A left click (press and release within a few pixels) at a window position.
  void clicked(QPointF windowPosition);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void apply();

  Qt3DRender::QCamera* m_camera;
  QWindow* m_window;
  QVector3D m_center;
  float m_distance = 300.f;            // cm
  float m_radius = 100.f;              // cm, size of the last framed box (clip planes and zoom limits)
  float m_yaw = 25.f, m_pitch = 15.f;  // degrees
  enum class Drag { None, Orbit, Pan } m_drag = Drag::None;
  QPointF m_pressPosition, m_lastPosition;
  bool m_moved = false;
};

}  // namespace animpack::viewport
