#include "viewport/grid_entity.h"

#include <cmath>
#include <vector>

#include "viewport/drawable.h"
#include "viewport/dynamic_geometry.h"
#include "viewport/error_ramp.h"

namespace animpack::viewport {

GridEntity::GridEntity(Qt3DRender::QMaterial* material, Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent), m_geometry(new DynamicGeometry(this)) {
  auto* lines = new Drawable(m_geometry, Qt3DRender::QGeometryRenderer::Lines, this);
  lines->setMaterial(material);
}

void GridEntity::layout(QVector3D center, float halfExtent, float y) {
  if (!(halfExtent > 0.f) || !std::isfinite(halfExtent) || !std::isfinite(y)) return;
  m_spacing = niceCeiling(2.f * halfExtent / 20.f);
  const int half = static_cast<int>(std::ceil(halfExtent / m_spacing));
  // Lines on multiples of the spacing, so the grid does not swim when the camera is re-framed.
  const float cx = std::round(center.x() / m_spacing) * m_spacing, cz = std::round(center.z() / m_spacing) * m_spacing;
  const float lo = -half * m_spacing, hi = half * m_spacing;
  std::vector<core::Vec3> positions;
  std::vector<Rgba> colors;
  const Rgba minor{0.33f, 0.34f, 0.36f, 1.f}, major{0.46f, 0.47f, 0.5f, 1.f};
  for (int i = -half; i <= half; ++i) {
    const float o = i * m_spacing;
    const Rgba c = (static_cast<int>(std::lround((cx + o) / m_spacing)) % 5 == 0) ? major : minor;
    const Rgba d = (static_cast<int>(std::lround((cz + o) / m_spacing)) % 5 == 0) ? major : minor;
    positions.insert(positions.end(),
                     {{cx + o, y, cz + lo}, {cx + o, y, cz + hi}, {cx + lo, y, cz + o}, {cx + hi, y, cz + o}});
    colors.insert(colors.end(), {c, c, d, d});
  }
  m_geometry->setVertices(positions, {}, colors);
}

}  // namespace animpack::viewport
