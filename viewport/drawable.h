#pragma once
// One geometry drawn with one material: an entity whose material and render pass (layer) can be
// swapped at run time; without a material it is hidden.

#include <Qt3DCore/QEntity>
#include <Qt3DRender/QGeometryRenderer>

namespace Qt3DCore {
class QGeometry;
}
namespace Qt3DRender {
class QLayer;
class QMaterial;
}  // namespace Qt3DRender

namespace animpack::viewport {

class Drawable : public Qt3DCore::QEntity {
  Q_OBJECT
 public:
  /// Draws `geometry` (not owned: it may be shared) as `primitive`s.
  Drawable(Qt3DCore::QGeometry* geometry, Qt3DRender::QGeometryRenderer::PrimitiveType primitive,
           Qt3DCore::QNode* parent);

  /// Draws with `material` (shared, not owned); nullptr hides the drawable.
  void setMaterial(Qt3DRender::QMaterial* material);
  /// Draws in the pass that filters `layer`; nullptr: the opaque pass.
  void setLayer(Qt3DRender::QLayer* layer);
  Qt3DRender::QMaterial* material() const { return m_material; }

 private:
  Qt3DRender::QGeometryRenderer* m_renderer;
  Qt3DRender::QMaterial* m_material = nullptr;
  Qt3DRender::QLayer* m_layer = nullptr;
};

}  // namespace animpack::viewport
