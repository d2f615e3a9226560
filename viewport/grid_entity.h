#pragma once
// The ground grid: lines in the XZ plane at a given height, spaced by a round number of centimetres,
// every fifth line brighter.

#include <QVector3D>
#include <Qt3DCore/QEntity>

namespace Qt3DRender {
class QMaterial;
}

namespace animpack::viewport {

class DynamicGeometry;

class GridEntity : public Qt3DCore::QEntity {
  Q_OBJECT
 public:
  /// An empty grid drawn with a per-vertex colour `material`.
  GridEntity(Qt3DRender::QMaterial* material, Qt3DCore::QNode* parent);

  /// Lays the grid out at height `y` (cm) around `center`, covering at least `halfExtent` cm on
  /// each side of it; the spacing is a 1-2-5 step giving 10 to 25 cells across.
  void layout(QVector3D center, float halfExtent, float y);
  /// Spacing of the last layout (cm).
  float spacing() const { return m_spacing; }

 private:
  DynamicGeometry* m_geometry;
  float m_spacing = 0;
};

}  // namespace animpack::viewport
