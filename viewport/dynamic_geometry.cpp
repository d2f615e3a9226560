#include "viewport/dynamic_geometry.h"

#include <Qt3DCore/QAttribute>
#include <Qt3DCore/QBuffer>
#include <cstring>

namespace animpack::viewport {

namespace {

constexpr std::uint32_t kVec3Bytes = 3 * sizeof(float);
constexpr std::uint32_t kRgbaBytes = 4 * sizeof(float);
static_assert(sizeof(core::Vec3) == kVec3Bytes && sizeof(Rgba) == kRgbaBytes, "vertex blocks are copied bytewise");

Qt3DCore::QAttribute* makeAttribute(Qt3DCore::QBuffer* buffer, const QString& name, uint size,
                                    Qt3DCore::QNode* parent) {
  auto* a = new Qt3DCore::QAttribute(parent);
  a->setBuffer(buffer);
  a->setName(name);
  a->setAttributeType(Qt3DCore::QAttribute::VertexAttribute);
  a->setVertexBaseType(Qt3DCore::QAttribute::Float);
  a->setVertexSize(size);
  a->setByteStride(size * sizeof(float));
  return a;
}

}  // namespace

DynamicGeometry::DynamicGeometry(Qt3DCore::QNode* parent, bool indexed) : Qt3DCore::QGeometry(parent), m_source(this) {
  m_vertexBuffer = new Qt3DCore::QBuffer(this);
  bindVertexAttributes(this);
  if (indexed) addIndexAttribute();
}

DynamicGeometry::DynamicGeometry(DynamicGeometry* shared, Qt3DCore::QNode* parent)
    : Qt3DCore::QGeometry(parent), m_source(shared) {
  bindVertexAttributes(shared);
  addIndexAttribute();
  shared->m_sharers.push_back(this);
  relayout(shared->m_vertexCount);
}

void DynamicGeometry::bindVertexAttributes(DynamicGeometry* source) {
  m_position = makeAttribute(source->m_vertexBuffer, Qt3DCore::QAttribute::defaultPositionAttributeName(), 3, this);
  m_normal = makeAttribute(source->m_vertexBuffer, Qt3DCore::QAttribute::defaultNormalAttributeName(), 3, this);
  m_color = makeAttribute(source->m_vertexBuffer, Qt3DCore::QAttribute::defaultColorAttributeName(), 4, this);
  addAttribute(m_position);
  addAttribute(m_normal);
  addAttribute(m_color);
  setBoundingVolumePositionAttribute(m_position);
}

std::uint32_t DynamicGeometry::vertexCount() const { return m_source->m_vertexCount; }

void DynamicGeometry::relayout(std::uint32_t count) {
  // Blocks: positions [0, 12n), normals [12n, 24n), colours [24n, 40n).
  m_position->setCount(count);
  m_normal->setCount(count);
  m_normal->setByteOffset(count * kVec3Bytes);
  m_color->setCount(count);
  m_color->setByteOffset(count * 2 * kVec3Bytes);
}

void DynamicGeometry::setVertices(std::span<const core::Vec3> positions, std::span<const core::Vec3> normals,
                                  std::span<const Rgba> colors, Rgba fill) {
  if (m_source != this) {
    m_source->setVertices(positions, normals, colors, fill);
    return;
  }
  const auto n = static_cast<std::uint32_t>(positions.size());
  const std::size_t normalOffset = std::size_t(n) * kVec3Bytes, colorOffset = 2 * normalOffset;
  // A fresh array each time: the buffer keeps a shallow copy of the last one until the renderer has
  // read it, so writing into a kept one would detach (copy) anyway.
  QByteArray bytes(qsizetype(colorOffset + std::size_t(n) * kRgbaBytes), Qt::Uninitialized);
  char* data = bytes.data();
  if (n > 0) std::memcpy(data, positions.data(), normalOffset);
  auto* outNormals = reinterpret_cast<core::Vec3*>(data + normalOffset);
  if (normals.size() == positions.size()) {
    if (n > 0) std::memcpy(outNormals, normals.data(), normalOffset);
  } else {
    std::fill_n(outNormals, n, core::Vec3{0, 1, 0});
  }
  auto* outColors = reinterpret_cast<Rgba*>(data + colorOffset);
  if (colors.size() == positions.size()) {
    if (n > 0) std::memcpy(outColors, colors.data(), std::size_t(n) * kRgbaBytes);
  } else {
    std::fill_n(outColors, n, fill);
  }
  if (n != m_vertexCount) {
    m_vertexCount = n;
    relayout(n);
    for (const QPointer<DynamicGeometry>& g : m_sharers)
      if (g) g->relayout(n);
  }
  m_vertexBuffer->setData(bytes);
}

void DynamicGeometry::setColors(std::span<const Rgba> colors) {
  if (m_source != this) {
    m_source->setColors(colors);
    return;
  }
  if (colors.size() != m_vertexCount || m_vertexCount == 0) return;
  const std::size_t offset = std::size_t(m_vertexCount) * 2 * kVec3Bytes;
  // updateData sends only the colour block to the renderer.
  m_vertexBuffer->updateData(
      int(offset), QByteArray(reinterpret_cast<const char*>(colors.data()), qsizetype(colors.size() * kRgbaBytes)));
}

void DynamicGeometry::addIndexAttribute() {
  m_indexBuffer = new Qt3DCore::QBuffer(this);
  m_index = new Qt3DCore::QAttribute(this);
  m_index->setAttributeType(Qt3DCore::QAttribute::IndexAttribute);
  m_index->setVertexBaseType(Qt3DCore::QAttribute::UnsignedInt);
  m_index->setBuffer(m_indexBuffer);
  m_index->setCount(0);
  addAttribute(m_index);
}

void DynamicGeometry::setIndices(std::span<const std::uint32_t> indices) {
  if (!m_index) return;
  m_indexCount = static_cast<std::uint32_t>(indices.size());
  m_index->setCount(m_indexCount);
  m_indexBuffer->setData(
      QByteArray(reinterpret_cast<const char*>(indices.data()), qsizetype(indices.size() * sizeof(std::uint32_t))));
}

}  // namespace animpack::viewport
