#pragma once
// A Qt 3D geometry whose vertices are rewritten from the CPU: float positions, normals and RGBA
// colours (one buffer, three blocks) and an optional uint32 index buffer. A second geometry can share
// the vertices with its own indices (a wireframe over a surface). Every attribute exists from
// construction: Qt 3D 6.4 crashes in its render jobs when an attribute is added to a geometry that a
// renderer already draws.

#include <QPointer>
#include <Qt3DCore/QGeometry>
#include <cstdint>
#include <span>
#include <vector>

#include "core/math/transform.h"
#include "viewport/error_ramp.h"

namespace Qt3DCore {
class QAttribute;
class QBuffer;
}  // namespace Qt3DCore

namespace animpack::viewport {

class DynamicGeometry : public Qt3DCore::QGeometry {
  Q_OBJECT
 public:
  /// An empty geometry with its own vertex buffer, drawn through an index list if `indexed`.
  explicit DynamicGeometry(Qt3DCore::QNode* parent = nullptr, bool indexed = false);
  /// An indexed geometry drawing the vertices of `shared` with its own indices; vertex updates go
  /// to `shared`.
  DynamicGeometry(DynamicGeometry* shared, Qt3DCore::QNode* parent);

  /// Replaces positions, normals (empty: all +Y) and colours (empty: all `fill`), all with the
  /// positions' count, and uploads them in one buffer update.
  void setVertices(std::span<const core::Vec3> positions, std::span<const core::Vec3> normals,
                   std::span<const Rgba> colors, Rgba fill = {1, 1, 1, 1});
  /// Replaces the colours only (count must match the vertices; otherwise ignored).
  void setColors(std::span<const Rgba> colors);
  /// Replaces the index list (values must be < the vertex count when drawn); ignored unless indexed.
  void setIndices(std::span<const std::uint32_t> indices);

  /// Vertices in the (possibly shared) vertex buffer.
  std::uint32_t vertexCount() const;
  /// Indices in this geometry's index list (0 when not indexed).
  std::uint32_t indexCount() const { return m_indexCount; }

 private:
  void bindVertexAttributes(DynamicGeometry* source);
  void addIndexAttribute();
  void relayout(std::uint32_t count);

  DynamicGeometry* m_source;  // owner of the vertex buffer (this, or the geometry shared with)
  Qt3DCore::QBuffer* m_vertexBuffer = nullptr;
  Qt3DCore::QBuffer* m_indexBuffer = nullptr;
  Qt3DCore::QAttribute* m_position = nullptr;
  Qt3DCore::QAttribute* m_normal = nullptr;
  Qt3DCore::QAttribute* m_color = nullptr;
  Qt3DCore::QAttribute* m_index = nullptr;
  std::uint32_t m_vertexCount = 0;
  std::uint32_t m_indexCount = 0;
  std::vector<QPointer<DynamicGeometry>> m_sharers;
};

}  // namespace animpack::viewport
