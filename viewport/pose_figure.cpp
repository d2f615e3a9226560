#include "viewport/pose_figure.h"

#include <Qt3DCore/QTransform>

#include "core/runtime/pose_ops.h"
#include "viewport/skeleton_entity.h"
#include "viewport/skinned_mesh_entity.h"

namespace animpack::viewport {

void Box::add(const QVector3D& p) {
  lo = QVector3D(std::min(lo.x(), p.x()), std::min(lo.y(), p.y()), std::min(lo.z(), p.z()));
  hi = QVector3D(std::max(hi.x(), p.x()), std::max(hi.y(), p.y()), std::max(hi.z(), p.z()));
}

void Box::add(const Box& b) {
  if (b.isEmpty()) return;
  add(b.lo);
  add(b.hi);
}

PoseFigure::PoseFigure(std::shared_ptr<const core::ImportedAsset> asset, std::span<const std::size_t> meshes,
                       Rgba meshColor, float jointRadius, Qt3DRender::QMaterial* skeletonMaterial,
                       Qt3DRender::QLayer* boneLayer, Qt3DRender::QLayer* jointLayer, Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent),
      m_asset(std::move(asset)),
      m_transform(new Qt3DCore::QTransform(this)),
      m_meshRoot(new Qt3DCore::QEntity(this)) {
  addComponent(m_transform);
  for (const std::size_t m : meshes)
    if (m < m_asset->meshes.size())
      m_meshes.push_back(new SkinnedMeshEntity(m_asset->meshes[m], meshColor, m_meshRoot));
  m_skeleton = new SkeletonEntity(m_asset->skeleton, jointRadius, skeletonMaterial, boneLayer, jointLayer, this);
  const std::size_t joints = m_asset->skeleton.jointCount();
  m_object.resize(joints);
  m_skin.resize(joints);
  setPose(m_asset->skeleton.restLocal);
}

bool PoseFigure::setPose(std::span<const core::Transform> local, std::span<const float> weights) {
  const core::Skeleton& skeleton = m_asset->skeleton;
  if (local.size() != skeleton.jointCount() || skeleton.parents.size() != local.size() ||
      skeleton.inverseBind.size() != local.size())
    return false;
  runtime::localToObject<float>(skeleton.parents, local, m_object);
  runtime::skinMatrices(m_object, skeleton.inverseBind, m_skin);
  for (SkinnedMeshEntity* mesh : m_meshes) mesh->pose(m_skin, weights);
  m_skeleton->pose(m_object);
  return true;
}

void PoseFigure::setPlacement(const QMatrix4x4& world) {
  m_placement = world;
  m_transform->setMatrix(world);
}

void PoseFigure::setMeshesVisible(bool visible) {
  m_meshesVisible = visible;
  m_meshRoot->setEnabled(visible);
}

void PoseFigure::setSkeletonVisible(bool visible) {
  m_skeletonVisible = visible;
  m_skeleton->setEnabled(visible);
}

std::vector<QVector3D> PoseFigure::worldJoints() const {
  std::vector<QVector3D> out;
  out.reserve(m_skeleton->jointPositions().size());
  for (const core::Vec3& p : m_skeleton->jointPositions()) out.push_back(m_placement.map(QVector3D(p.x, p.y, p.z)));
  return out;
}

Box PoseFigure::worldBounds() const {
  Box box;
  if (m_meshesVisible)
    for (const SkinnedMeshEntity* mesh : m_meshes)
      for (const core::Vec3& p : mesh->positions()) box.add(m_placement.map(QVector3D(p.x, p.y, p.z)));
  // Joints count even when hidden if there is no mesh to show: a skeleton-only asset still frames.
  if (m_skeletonVisible || box.isEmpty())
    for (const QVector3D& p : worldJoints()) box.add(p);
  return box;
}

}  // namespace animpack::viewport
