#include "viewport/joint_picking.h"

#include <QVector4D>

namespace animpack::viewport {

std::optional<QPointF> projectToWindow(const QVector3D& world, const QMatrix4x4& viewProjection, QSizeF windowSize) {
  const QVector4D clip = viewProjection * QVector4D(world, 1.f);
  if (!(clip.w() > 1e-6f)) return std::nullopt;
  const float x = clip.x() / clip.w(), y = clip.y() / clip.w();
  // NDC y points up, window y down.
  return QPointF((x + 1.0) * 0.5 * windowSize.width(), (1.0 - y) * 0.5 * windowSize.height());
}

int pickNearest(std::span<const QVector3D> worldPoints, const QMatrix4x4& viewProjection, QSizeF windowSize,
                QPointF click, double radiusPx) {
  int best = -1;
  double bestDistance2 = radiusPx * radiusPx;
  for (std::size_t i = 0; i < worldPoints.size(); ++i) {
    const std::optional<QPointF> p = projectToWindow(worldPoints[i], viewProjection, windowSize);
    if (!p) continue;
    const QPointF d = *p - click;
    const double distance2 = d.x() * d.x() + d.y() * d.y();
    if (distance2 <= bestDistance2) {
      bestDistance2 = distance2;
      best = static_cast<int>(i);
    }
  }
  return best;
}

}  // namespace animpack::viewport
