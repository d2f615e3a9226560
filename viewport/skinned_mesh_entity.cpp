#include "viewport/skinned_mesh_entity.h"

#include "core/runtime/pose_ops.h"
#include "viewport/drawable.h"
#include "viewport/dynamic_geometry.h"
#include "viewport/mesh_prep.h"

namespace animpack::viewport {

SkinnedMeshEntity::SkinnedMeshEntity(const core::SkinnedMesh& mesh, Rgba baseColor, Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent),
      m_mesh(mesh),
      m_baseColor(baseColor),
      m_positions(mesh.positions),
      m_normals(mesh.normals),
      m_colors(mesh.positions.size(), baseColor),
      m_triangles(new DynamicGeometry(this, true)),
      m_surface(new Drawable(m_triangles, Qt3DRender::QGeometryRenderer::Triangles, this)) {
  m_triangles->setIndices(mesh.indices);
  upload();
}

void SkinnedMeshEntity::pose(std::span<const core::Mat34> skin, std::span<const float> weights) {
  const bool morphed = morph(weights);
  const std::span<const core::Vec3> shape = morphed ? std::span<const core::Vec3>(m_morphed) : m_mesh.positions;
  if (m_mesh.influences.size() != m_positions.size()) {  // static: already in object space
    if (m_mesh.morphs.empty()) return;
    m_positions.assign(shape.begin(), shape.end());
  } else {
    runtime::skinVertices(skin, shape, m_mesh.normals, m_mesh.influences, m_positions, m_normals);
  }
  upload();
}

bool SkinnedMeshEntity::morph(std::span<const float> weights) {
  if (m_mesh.morphs.empty() || weights.empty()) return false;
  m_morphed.assign(m_mesh.positions.begin(), m_mesh.positions.end());
  for (const core::SkinnedMesh::Morph& target : m_mesh.morphs) {
    const float w = target.curve < weights.size() ? weights[target.curve] : 0.f;
    if (w == 0.f || target.deltas.size() != m_morphed.size()) continue;
    for (std::size_t v = 0; v < m_morphed.size(); ++v) m_morphed[v] = m_morphed[v] + target.deltas[v] * w;
  }
  return true;
}

void SkinnedMeshEntity::setColors(std::span<const Rgba> colors) {
  if (colors.size() != m_colors.size()) return;
  m_colors.assign(colors.begin(), colors.end());
  m_triangles->setColors(m_colors);
}

void SkinnedMeshEntity::resetColors() {
  std::fill(m_colors.begin(), m_colors.end(), m_baseColor);
  m_triangles->setColors(m_colors);
}

Drawable* SkinnedMeshEntity::wireframe() {
  if (!m_wireframe) {
    m_edges = new DynamicGeometry(m_triangles, this);
    m_edges->setIndices(triangleEdges(m_mesh.indices));
    m_wireframe = new Drawable(m_edges, Qt3DRender::QGeometryRenderer::Lines, this);
  }
  return m_wireframe;
}

void SkinnedMeshEntity::upload() { m_triangles->setVertices(m_positions, m_normals, m_colors); }

}  // namespace animpack::viewport
