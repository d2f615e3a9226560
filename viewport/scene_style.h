#pragma once
// The viewport's palette and proportions, shared by the scene and its legend.

#include <QColor>

#include "viewport/error_ramp.h"

namespace animpack::viewport {

struct SceneStyle {
  static constexpr Rgba kBackground{0.16f, 0.17f, 0.19f, 1.f};
  static constexpr Rgba kOriginalMesh{0.72f, 0.72f, 0.7f, 1.f};  ///< light grey, opaque
  static constexpr Rgba kCompressedMesh{0.35f, 0.6f, 1.f, 1.f};  ///< blue; the ghost uses kGhostAlpha
  static constexpr Rgba kBlendMesh{0.85f, 0.72f, 0.5f, 1.f};     ///< sand, for the blend preview
  static constexpr Rgba kOriginalBones{0.92f, 0.92f, 0.92f, 1.f};
  static constexpr Rgba kCompressedBones{0.45f, 0.7f, 1.f, 1.f};
  static constexpr float kGhostAlpha = 0.45f;
  static constexpr float kJointRadiusOfSkeleton = 0.012f;  ///< joint octahedron radius / skeleton extent
  static constexpr float kSideBySideGap = 0.15f;           ///< gap between figures / figure width
};

/// The QColor of a palette or ramp colour.
inline QColor toQColor(Rgba c) { return QColor::fromRgbF(c[0], c[1], c[2], c[3]); }

}  // namespace animpack::viewport
