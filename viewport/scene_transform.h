#pragma once
// Conversions from core's column-major matrices to Qt, and the display transform the viewport
// applies on top of object space: the asset's scene-root transform and an optional up-axis fix.

#include <QMatrix4x4>
#include <array>

#include "core/anim/imported_asset.h"
#include "core/anim/up_axis.h"
#include "core/math/transform.h"

namespace animpack::viewport {

using core::UpAxis;

/// QMatrix4x4 of a column-major affine matrix (QMatrix4x4(const float*) would read it row-major).
QMatrix4x4 toQMatrix(const core::Mat34& m);
/// QMatrix4x4 of a column-major 4x4 array (e.g. ImportedAsset::sceneRootTransform).
QMatrix4x4 toQMatrix(const std::array<float, 16>& columnMajor);
/// Display transform: `upAxis` turned to +Y, times the scene-root transform, times `unitToCm`
/// (the viewport works in centimetres so every asset appears at its real size).
QMatrix4x4 displayTransform(const std::array<float, 16>& sceneRoot, UpAxis upAxis, double unitToCm);
/// The display transform of `asset`: in the scene's centimetres (file units x unitToCm x sceneScale,
/// docs/IMPORT.md "Scene scale"), the scene root drawn, the unit Assimp folded into it counted once.
QMatrix4x4 displayTransform(const core::ImportedAsset& asset, UpAxis upAxis);

}  // namespace animpack::viewport
