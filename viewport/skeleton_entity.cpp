#include "viewport/skeleton_entity.h"

#include "viewport/drawable.h"
#include "viewport/dynamic_geometry.h"

namespace animpack::viewport {

namespace {

using core::Vec3;

/// Appends the 8 flat-shaded faces of an octahedron (24 vertices) around `c`.
void appendOctahedron(Vec3 c, float r, Rgba color, std::vector<Vec3>& positions, std::vector<Vec3>& normals,
                      std::vector<Rgba>& colors) {
  for (int face = 0; face < 8; ++face) {
    const float sx = (face & 1) ? -1.f : 1.f, sy = (face & 2) ? -1.f : 1.f, sz = (face & 4) ? -1.f : 1.f;
    const Vec3 a{c.x + sx * r, c.y, c.z}, b{c.x, c.y + sy * r, c.z}, d{c.x, c.y, c.z + sz * r};
    // Counter-clockwise seen from outside whatever the octant's mirroring.
    const bool flip = sx * sy * sz < 0.f;
    positions.insert(positions.end(), {a, flip ? d : b, flip ? b : d});
    const float k = 0.57735027f;
    normals.insert(normals.end(), 3, Vec3{sx * k, sy * k, sz * k});
    colors.insert(colors.end(), 3, color);
  }
}

}  // namespace

SkeletonEntity::SkeletonEntity(const core::Skeleton& skeleton, float jointRadius, Qt3DRender::QMaterial* material,
                               Qt3DRender::QLayer* boneLayer, Qt3DRender::QLayer* jointLayer, Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent),
      m_skeleton(skeleton),
      m_jointRadius(jointRadius),
      m_joints(skeleton.jointCount()),
      m_bones(new DynamicGeometry(this)),
      m_octahedra(new DynamicGeometry(this)) {
  auto* bones = new Drawable(m_bones, Qt3DRender::QGeometryRenderer::Lines, this);
  bones->setLayer(boneLayer);
  bones->setMaterial(material);
  auto* joints = new Drawable(m_octahedra, Qt3DRender::QGeometryRenderer::Triangles, this);
  joints->setLayer(jointLayer);
  joints->setMaterial(material);
  const std::vector<core::Mat34d> rest = skeleton.restObject();
  std::vector<core::Mat34> object(rest.size());
  for (std::size_t j = 0; j < rest.size(); ++j) object[j] = rest[j].cast<float>();
  pose(object);
}

void SkeletonEntity::pose(std::span<const core::Mat34> object) {
  if (object.size() != m_joints.size()) return;
  for (std::size_t j = 0; j < object.size(); ++j) {
    const core::Mat34& m = object[j];
    m_joints[j] = {m.m[9], m.m[10], m.m[11]};
  }
  rebuild();
}

void SkeletonEntity::setBoneColor(Rgba color) {
  m_boneColor = color;
  rebuild();
}

void SkeletonEntity::setJointColors(std::span<const Rgba> colors) {
  if (colors.size() == m_joints.size()) m_jointColors.assign(colors.begin(), colors.end());
  else m_jointColors.clear();
  rebuild();
}

void SkeletonEntity::setSelectedJoint(int joint) {
  m_selected = joint >= 0 && std::size_t(joint) < m_joints.size() ? joint : -1;
  rebuild();
}

void SkeletonEntity::rebuild() {
  m_positions.clear();
  m_colors.clear();
  for (std::size_t j = 0; j < m_joints.size(); ++j) {
    const std::int32_t p = m_skeleton.parents[j];
    if (p < 0) continue;
    m_positions.push_back(m_joints[std::size_t(p)]);
    m_positions.push_back(m_joints[j]);
  }
  m_bones->setVertices(m_positions, {}, {}, m_boneColor);

  m_positions.clear();
  m_normals.clear();
  for (std::size_t j = 0; j < m_joints.size(); ++j) {
    const bool selected = int(j) == m_selected;
    const Rgba color = selected ? selectedJointColor() : m_jointColors.empty() ? neutralJointColor() : m_jointColors[j];
    appendOctahedron(m_joints[j], selected ? 2.f * m_jointRadius : m_jointRadius, color, m_positions, m_normals,
                     m_colors);
  }
  m_octahedra->setVertices(m_positions, m_normals, m_colors);
}

}  // namespace animpack::viewport
