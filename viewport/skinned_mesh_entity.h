#pragma once
// One imported mesh posed on the CPU with core's skinning code (positions and normals) and uploaded to
// a Qt 3D buffer, drawn as a filled surface and, on demand, as a wireframe of its triangle edges.
// Its morph targets deform it before skinning when weights are given (normals stay the rest shape's).

#include <Qt3DCore/QEntity>
#include <span>
#include <vector>

#include "core/anim/skinned_mesh.h"
#include "viewport/error_ramp.h"

namespace animpack::viewport {

class Drawable;
class DynamicGeometry;

class SkinnedMeshEntity : public Qt3DCore::QEntity {
  Q_OBJECT
 public:
  /// Shows `mesh` as imported (bind pose). The mesh is kept by reference: its owner must outlive
  /// this entity.
  SkinnedMeshEntity(const core::SkinnedMesh& mesh, Rgba baseColor, Qt3DCore::QNode* parent);

  /// Morphs the mesh by `weights` (one per morph curve of the file; empty: the rest shape), then skins
  /// it with one skin matrix per joint (object * inverseBind; at least as many as the mesh's joint
  /// indices need) and uploads it. A static mesh (no influences) is only morphed.
  void pose(std::span<const core::Mat34> skin, std::span<const float> weights = {});
  /// Positions of the last pose, in skeleton units and object space.
  std::span<const core::Vec3> positions() const { return m_positions; }
  std::size_t vertexCount() const { return m_positions.size(); }

  /// Per-vertex colours for per-vertex-colour materials (one per vertex; other sizes are ignored).
  void setColors(std::span<const Rgba> colors);
  /// Sets every vertex colour to the base colour.
  void resetColors();

  /// The filled triangles (hidden until given a material).
  Drawable* surface() const { return m_surface; }
  /// The triangle edges as lines, sharing the surface's vertices (built on first use).
  Drawable* wireframe();
  bool hasWireframe() const { return m_wireframe != nullptr; }

 private:
  void upload();
  /// m_morphed = the bind positions plus each target's deltas times its weight; false (m_morphed
  /// untouched) when the mesh has no targets or no weights are given.
  bool morph(std::span<const float> weights);

  const core::SkinnedMesh& m_mesh;
  Rgba m_baseColor;
  std::vector<core::Vec3> m_positions;
  std::vector<core::Vec3> m_morphed;  ///< bind positions with the targets applied
  std::vector<core::Vec3> m_normals;
  std::vector<Rgba> m_colors;
  DynamicGeometry* m_triangles;
  DynamicGeometry* m_edges = nullptr;
  Drawable* m_surface;
  Drawable* m_wireframe = nullptr;
};

}  // namespace animpack::viewport
