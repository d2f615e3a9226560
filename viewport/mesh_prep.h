#pragma once
// Which imported meshes the viewport draws, and the edge lists of its wireframes.

#include <cstdint>
#include <span>
#include <vector>

#include "core/anim/imported_asset.h"

namespace animpack::viewport {

/// Indices of the meshes worth drawing: every mesh that validates against the skeleton, except the
/// placeholder bone meshes Assimp builds for motion-only formats (BVH, CSM), whose assets the viewport
/// shows as a skeleton alone.
std::vector<std::size_t> displayableMeshes(const core::ImportedAsset& asset);

/// Every edge of a triangle list once, as pairs of vertex indices (a line list for wireframes).
std::vector<std::uint32_t> triangleEdges(std::span<const std::uint32_t> triangles);

}  // namespace animpack::viewport
