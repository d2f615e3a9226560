#include "viewport/drawable.h"

#include <Qt3DRender/QLayer>
#include <Qt3DRender/QMaterial>

namespace animpack::viewport {

Drawable::Drawable(Qt3DCore::QGeometry* geometry, Qt3DRender::QGeometryRenderer::PrimitiveType primitive,
                   Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent), m_renderer(new Qt3DRender::QGeometryRenderer(this)) {
  m_renderer->setGeometry(geometry);
  m_renderer->setPrimitiveType(primitive);
  addComponent(m_renderer);
  setEnabled(false);
}

void Drawable::setMaterial(Qt3DRender::QMaterial* material) {
  if (material == m_material) return;
  if (m_material) removeComponent(m_material);
  m_material = material;
  if (m_material) addComponent(m_material);
  setEnabled(m_material != nullptr);
}

void Drawable::setLayer(Qt3DRender::QLayer* layer) {
  if (layer == m_layer) return;
  if (m_layer) removeComponent(m_layer);
  m_layer = layer;
  if (m_layer) addComponent(m_layer);
}

}  // namespace animpack::viewport
