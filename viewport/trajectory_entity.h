#pragma once
// The root trajectory of a clip with root motion: where its root-motion joint travels on the
// ground over one cycle, drawn as a line on the grid's plane.

#include <QMatrix4x4>
#include <Qt3DCore/QEntity>
#include <span>

#include "core/math/transform.h"

namespace Qt3DRender {
class QMaterial;
}

namespace animpack::viewport {

class DynamicGeometry;

class TrajectoryEntity : public Qt3DCore::QEntity {
  Q_OBJECT
 public:
  /// An empty trajectory drawn with a per-vertex colour `material`.
  TrajectoryEntity(Qt3DRender::QMaterial* material, Qt3DCore::QNode* parent);

  /// `points` (object space, file units) through `display` to the world, laid on the plane at
  /// height `groundY` (cm); fewer than two points draw nothing.
  void layout(std::span<const core::Vec3> points, const QMatrix4x4& display, float groundY);
  /// Line segments drawn by the last layout.
  int segmentCount() const { return m_segments; }

 private:
  DynamicGeometry* m_geometry;
  int m_segments = 0;
};

}  // namespace animpack::viewport
