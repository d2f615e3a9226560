#include "viewport/camera_controller.h"

#include <QMouseEvent>
#include <QWheelEvent>
#include <QWindow>
#include <Qt3DRender/QCamera>
#include <algorithm>
#include <cmath>

namespace animpack::viewport {

namespace {

constexpr float kDefaultYaw = 25.f, kDefaultPitch = 15.f;  // degrees: front, a little right and above
constexpr float kDegreesPerPixel = 0.4f;
constexpr double kClickSlopPx = 4.0;

float radians(float degrees) { return degrees * 3.14159265f / 180.f; }

}  // namespace

CameraController::CameraController(Qt3DRender::QCamera* camera, QWindow* window, QObject* parent)
    : QObject(parent), m_camera(camera), m_window(window) {
  m_camera->setFieldOfView(40.f);
  window->installEventFilter(this);
  apply();
}

void CameraController::frame(const QVector3D& lo, const QVector3D& hi, bool resetOrientation) {
  if (!(lo.x() <= hi.x() && lo.y() <= hi.y() && lo.z() <= hi.z())) return;
  if (resetOrientation) {
    m_yaw = kDefaultYaw;
    m_pitch = kDefaultPitch;
  }
  m_center = (lo + hi) * 0.5f;
  m_radius = std::max((hi - lo).length() * 0.5f, 1e-3f);
  const float cy = std::cos(radians(m_pitch));
  const QVector3D back(cy * std::sin(radians(m_yaw)), std::sin(radians(m_pitch)), cy * std::cos(radians(m_yaw)));
  const QVector3D right = QVector3D::crossProduct(QVector3D(0, 1, 0), back).normalized();
  const QVector3D up = QVector3D::crossProduct(back, right);
  const float tanV = std::tan(radians(m_camera->fieldOfView() * 0.5f));
  const float tanH = tanV * std::max(m_camera->aspectRatio(), 0.1f);
  // Each corner needs the camera at least this far back along `back` to fit both frustum planes.
  float needed = 0.f;
  for (int c = 0; c < 8; ++c) {
    const QVector3D corner((c & 1) ? hi.x() : lo.x(), (c & 2) ? hi.y() : lo.y(), (c & 4) ? hi.z() : lo.z());
    const QVector3D d = corner - m_center;
    const float depth = QVector3D::dotProduct(d, back);
    needed = std::max({needed, depth + std::abs(QVector3D::dotProduct(d, right)) / tanH,
                       depth + std::abs(QVector3D::dotProduct(d, up)) / tanV});
  }
  m_distance = std::max(needed * 1.08f, m_radius * 0.1f);
  apply();
}

void CameraController::orbit(float yawDegrees, float pitchDegrees) {
  m_yaw = std::fmod(m_yaw + yawDegrees, 360.f);
  m_pitch = std::clamp(m_pitch + pitchDegrees, -89.f, 89.f);
  apply();
}

void CameraController::pan(QPointF pixels) {
  const float height = std::max(1, m_window->height());
  const float perPixel = 2.f * m_distance * std::tan(radians(m_camera->fieldOfView() * 0.5f)) / height;
  const QVector3D forward = (m_center - m_camera->position()).normalized();
  const QVector3D right = QVector3D::crossProduct(forward, QVector3D(0, 1, 0)).normalized();
  const QVector3D up = QVector3D::crossProduct(right, forward);
  // The scene follows the mouse: the centre moves the other way.
  m_center += (-right * float(pixels.x()) + up * float(pixels.y())) * perPixel;
  apply();
}

void CameraController::zoom(float steps) {
  m_distance = std::clamp(m_distance * std::pow(0.85f, steps), m_radius * 0.02f, m_radius * 60.f);
  apply();
}

void CameraController::apply() {
  const float cy = std::cos(radians(m_pitch));
  const QVector3D back(cy * std::sin(radians(m_yaw)), std::sin(radians(m_pitch)), cy * std::cos(radians(m_yaw)));
  m_camera->setUpVector(QVector3D(0, 1, 0));
  m_camera->setViewCenter(m_center);
  m_camera->setPosition(m_center + back * m_distance);
  // Clip planes follow the distance so depth precision stays where the figure is.
  m_camera->setNearPlane(std::max(m_distance * 0.01f, 1e-3f));
  m_camera->setFarPlane(m_distance * 4.f + m_radius * 20.f);
}

bool CameraController::eventFilter(QObject* watched, QEvent* event) {
  if (watched != m_window) return QObject::eventFilter(watched, event);
  switch (event->type()) {
    case QEvent::MouseButtonPress: {
      auto* e = static_cast<QMouseEvent*>(event);
      const bool panButton = e->button() == Qt::MiddleButton || e->button() == Qt::RightButton ||
                             (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier));
      m_drag = panButton ? Drag::Pan : e->button() == Qt::LeftButton ? Drag::Orbit : Drag::None;
      m_pressPosition = m_lastPosition = e->position();
      m_moved = false;
      return m_drag != Drag::None;
    }
    case QEvent::MouseMove: {
      if (m_drag == Drag::None) return false;
      auto* e = static_cast<QMouseEvent*>(event);
      const QPointF delta = e->position() - m_lastPosition;
      m_lastPosition = e->position();
      if ((e->position() - m_pressPosition).manhattanLength() > kClickSlopPx) m_moved = true;
      if (!m_moved) return true;
      if (m_drag == Drag::Orbit) orbit(-float(delta.x()) * kDegreesPerPixel, float(delta.y()) * kDegreesPerPixel);
      else pan(delta);
      return true;
    }
    case QEvent::MouseButtonRelease: {
      if (m_drag == Drag::None) return false;
      auto* e = static_cast<QMouseEvent*>(event);
      const bool click = m_drag == Drag::Orbit && !m_moved;
      m_drag = Drag::None;
      if (click) emit clicked(e->position());
      return true;
    }
    case QEvent::Wheel: {
      auto* e = static_cast<QWheelEvent*>(event);
      zoom(float(e->angleDelta().y()) / 120.f);
      return true;
    }
    default: return false;
  }
}

}  // namespace animpack::viewport
