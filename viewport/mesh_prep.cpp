#include "viewport/mesh_prep.h"

#include <algorithm>

namespace animpack::viewport {

std::vector<std::size_t> displayableMeshes(const core::ImportedAsset& asset) {
  // These formats carry motion only: any mesh in them is Assimp's SkeletonMeshBuilder stand-in
  // (a pyramid per bone), which would hide the real skeleton drawing.
  if (asset.format == "bvh" || asset.format == "csm") return {};
  std::vector<std::size_t> out;
  for (std::size_t m = 0; m < asset.meshes.size(); ++m) {
    const core::SkinnedMesh& mesh = asset.meshes[m];
    if (mesh.positions.empty() || mesh.indices.empty()) continue;
    if (!mesh.validate(asset.skeleton.jointCount())) continue;
    out.push_back(m);
  }
  return out;
}

std::vector<std::uint32_t> triangleEdges(std::span<const std::uint32_t> triangles) {
  std::vector<std::uint64_t> keys;
  keys.reserve(triangles.size());
  for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
    for (int e = 0; e < 3; ++e) {
      const std::uint64_t a = triangles[t + e], b = triangles[t + (e + 1) % 3];
      if (a == b) continue;
      keys.push_back(a < b ? (a << 32) | b : (b << 32) | a);
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<std::uint32_t> lines;
  lines.reserve(keys.size() * 2);
  for (const std::uint64_t k : keys) {
    lines.push_back(static_cast<std::uint32_t>(k >> 32));
    lines.push_back(static_cast<std::uint32_t>(k & 0xffffffffu));
  }
  return lines;
}

}  // namespace animpack::viewport
