#include "viewport/trajectory_entity.h"

#include <vector>

#include "viewport/drawable.h"
#include "viewport/dynamic_geometry.h"
#include "viewport/error_ramp.h"

namespace animpack::viewport {

TrajectoryEntity::TrajectoryEntity(Qt3DRender::QMaterial* material, Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent), m_geometry(new DynamicGeometry(this)) {
  auto* lines = new Drawable(m_geometry, Qt3DRender::QGeometryRenderer::Lines, this);
  lines->setMaterial(material);
}

void TrajectoryEntity::layout(std::span<const core::Vec3> points, const QMatrix4x4& display, float groundY) {
  std::vector<core::Vec3> positions;
  std::vector<Rgba> colors;
  // Just above the grid so the line wins depth ties with it; from amber at the start to white at the end.
  const float y = groundY + 0.1f;
  m_segments = points.size() < 2 ? 0 : int(points.size() - 1);
  for (int k = 0; k < m_segments; ++k)
    for (int e = 0; e < 2; ++e) {
      const core::Vec3& p = points[std::size_t(k + e)];
      const QVector3D w = display.map(QVector3D(p.x, p.y, p.z));
      const float t = float(k + e) / float(m_segments);
      positions.push_back({w.x(), y, w.z()});
      colors.push_back({1.f, 0.62f + 0.38f * t, 0.1f + 0.9f * t, 1.f});
    }
  m_geometry->setVertices(positions, {}, colors);
}

}  // namespace animpack::viewport
