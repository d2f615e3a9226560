#include "viewport/scene_transform.h"

#include <algorithm>
#include <cmath>

namespace animpack::viewport {

QMatrix4x4 toQMatrix(const core::Mat34& m) {
  float m16[16];
  m.toMatrix4(m16);
  return QMatrix4x4(m16, 4, 4);  // this constructor reads column-major
}

QMatrix4x4 toQMatrix(const std::array<float, 16>& columnMajor) { return QMatrix4x4(columnMajor.data(), 4, 4); }

QMatrix4x4 displayTransform(const core::ImportedAsset& asset, UpAxis upAxis) {
  // The root's own scale is drawn through its matrix; what is left of the scene scale is the unit
  // Assimp folded into the root (COLLADA), which unitToCm holds too: divided out, it counts once.
  const auto& r = asset.sceneRootTransform;
  double rootScale = 0;
  for (int c = 0; c < 3; ++c)
    rootScale = std::max(rootScale, std::sqrt(double(r[4 * c]) * r[4 * c] + double(r[4 * c + 1]) * r[4 * c + 1] +
                                              double(r[4 * c + 2]) * r[4 * c + 2]));
  return displayTransform(r, upAxis, rootScale > 0 ? asset.lengthToCm() / rootScale : asset.unitToCm);
}

QMatrix4x4 displayTransform(const std::array<float, 16>& sceneRoot, UpAxis upAxis, double unitToCm) {
  QMatrix4x4 up;
  if (upAxis == UpAxis::ZUp) up.rotate(-90.f, 1.f, 0.f, 0.f);
  else if (upAxis == UpAxis::XUp) up.rotate(90.f, 0.f, 0.f, 1.f);
  QMatrix4x4 scale;
  scale.scale(static_cast<float>(unitToCm));
  return up * scale * toQMatrix(sceneRoot);
}

}  // namespace animpack::viewport
