#pragma once
// A posed skeleton: bones as lines from each joint to its parent, joints as small octahedra coloured
// per joint (error colours), the selected joint white and twice the size.

#include <Qt3DCore/QEntity>
#include <span>
#include <vector>

#include "core/anim/skeleton.h"
#include "viewport/error_ramp.h"

namespace Qt3DRender {
class QLayer;
class QMaterial;
}  // namespace Qt3DRender

namespace animpack::viewport {

class Drawable;
class DynamicGeometry;

class SkeletonEntity : public Qt3DCore::QEntity {
  Q_OBJECT
 public:
  /// Draws `skeleton` (kept by reference: its owner must outlive this entity) with a per-vertex
  /// colour `material`, bones in `boneLayer` and joints (octahedra of `jointRadius` skeleton units)
  /// in `jointLayer`.
  SkeletonEntity(const core::Skeleton& skeleton, float jointRadius, Qt3DRender::QMaterial* material,
                 Qt3DRender::QLayer* boneLayer, Qt3DRender::QLayer* jointLayer, Qt3DCore::QNode* parent);

  /// Poses the drawing with object-space joint matrices, one per joint (other sizes are ignored).
  void pose(std::span<const core::Mat34> object);
  /// Object-space joint positions of the last pose (skeleton units).
  std::span<const core::Vec3> jointPositions() const { return m_joints; }

  /// Colour of the bone lines.
  void setBoneColor(Rgba color);
  /// One colour per joint; an empty span (or a wrong size) paints every joint `neutralJointColor()`.
  void setJointColors(std::span<const Rgba> colors);
  /// Highlights joint `joint` (-1 or out of range: none).
  void setSelectedJoint(int joint);

  /// Joint colour when no error colours are given.
  static constexpr Rgba neutralJointColor() { return {0.75f, 0.75f, 0.8f, 1.f}; }
  /// Colour of the highlighted joint.
  static constexpr Rgba selectedJointColor() { return {1.f, 1.f, 1.f, 1.f}; }

 private:
  void rebuild();

  const core::Skeleton& m_skeleton;
  float m_jointRadius;
  std::vector<core::Vec3> m_joints;
  std::vector<Rgba> m_jointColors;
  Rgba m_boneColor{0.85f, 0.85f, 0.85f, 1.f};
  int m_selected = -1;
  DynamicGeometry* m_bones;
  DynamicGeometry* m_octahedra;
  // Scratch buffers reused by rebuild().
  std::vector<core::Vec3> m_positions, m_normals;
  std::vector<Rgba> m_colors;
};

}  // namespace animpack::viewport
