#pragma once
// One posed copy of an asset in the scene: its displayable meshes skinned on the CPU and its
// skeleton, under one world placement (display transform and side-by-side offset).

#include <QMatrix4x4>
#include <QVector3D>
#include <Qt3DCore/QEntity>
#include <memory>
#include <span>
#include <vector>

#include "core/anim/imported_asset.h"
#include "viewport/error_ramp.h"

namespace Qt3DCore {
class QTransform;
}
namespace Qt3DRender {
class QLayer;
class QMaterial;
}  // namespace Qt3DRender

namespace animpack::viewport {

class SkeletonEntity;
class SkinnedMeshEntity;

/// Axis-aligned box; empty until a point is added.
struct Box {
  QVector3D lo{1e30f, 1e30f, 1e30f};
  QVector3D hi{-1e30f, -1e30f, -1e30f};
  bool isEmpty() const { return lo.x() > hi.x(); }
  /// Grows the box to hold `p`.
  void add(const QVector3D& p);
  /// Grows the box to hold `b` (an empty `b` changes nothing).
  void add(const Box& b);
  QVector3D center() const { return (lo + hi) * 0.5f; }
  /// Extent along each axis; zero when empty.
  QVector3D size() const { return isEmpty() ? QVector3D() : hi - lo; }
};

class PoseFigure : public Qt3DCore::QEntity {
  Q_OBJECT
 public:
  /// Creates the meshes `meshes` (indices into asset->meshes) with vertex colour `meshColor` and the
  /// skeleton (drawn with `skeletonMaterial`, bones in `boneLayer`, joints of `jointRadius` skeleton
  /// units in `jointLayer`), posed at the rest pose. Keeps the asset alive.
  PoseFigure(std::shared_ptr<const core::ImportedAsset> asset, std::span<const std::size_t> meshes, Rgba meshColor,
             float jointRadius, Qt3DRender::QMaterial* skeletonMaterial, Qt3DRender::QLayer* boneLayer,
             Qt3DRender::QLayer* jointLayer, Qt3DCore::QNode* parent);

  /// Poses meshes and skeleton with local joint transforms (the skeleton's joint count) and morph
  /// weights (one per curve of the file; empty: the rest shapes); returns false and changes nothing
  /// for any other joint count.
  bool setPose(std::span<const core::Transform> local, std::span<const float> weights = {});

  /// World transform of object space (display transform, then any offset).
  void setPlacement(const QMatrix4x4& world);
  const QMatrix4x4& placement() const { return m_placement; }

  /// Shows or hides the meshes (they keep being posed).
  void setMeshesVisible(bool visible);
  /// Shows or hides the skeleton (it keeps being posed).
  void setSkeletonVisible(bool visible);
  bool meshesVisible() const { return m_meshesVisible; }
  bool skeletonVisible() const { return m_skeletonVisible; }

  /// The mesh entities, in the order of the `meshes` indices given at construction.
  const std::vector<SkinnedMeshEntity*>& meshes() const { return m_meshes; }
  SkeletonEntity* skeleton() const { return m_skeleton; }
  /// Object-space joint matrices of the last pose.
  std::span<const core::Mat34> objectMatrices() const { return m_object; }

  /// World-space joint positions of the last pose.
  std::vector<QVector3D> worldJoints() const;
  /// World-space bounds of what is visible of the figure (meshes and/or joints).
  Box worldBounds() const;

 private:
  std::shared_ptr<const core::ImportedAsset> m_asset;
  Qt3DCore::QTransform* m_transform;
  QMatrix4x4 m_placement;
  Qt3DCore::QEntity* m_meshRoot;
  std::vector<SkinnedMeshEntity*> m_meshes;
  SkeletonEntity* m_skeleton;
  std::vector<core::Mat34> m_object;
  std::vector<core::Mat34> m_skin;
  bool m_meshesVisible = true;
  bool m_skeletonVisible = true;
};

}  // namespace animpack::viewport
