#include "core/anim/skinned_mesh.h"

#include <algorithm>
#include <cmath>

namespace animpack::core {

Status SkinnedMesh::validate(std::size_t jointCount) const {
  const std::string label = "mesh '" + name + "'";
  if (normals.size() != positions.size()) return Error{label + " has " + std::to_string(normals.size()) + " normals for " + std::to_string(positions.size()) + " vertices"};
  if (indices.size() % 3 != 0) return Error{label + " index count is not a multiple of 3"};
  for (std::uint32_t i : indices)
    if (i >= positions.size()) return Error{label + " has an index past its vertices"};
  if (!influences.empty() && influences.size() != positions.size()) return Error{label + " has influences for some vertices only"};
  for (std::size_t v = 0; v < influences.size(); ++v) {
    float sum = 0;
    for (int i = 0; i < 4; ++i) {
      const float w = influences[v].weights[i];
      if (!(w >= 0.f) || !std::isfinite(w)) return Error{label + " vertex " + std::to_string(v) + " has a negative or non-finite weight"};
      if (w > 0.f && influences[v].joints[i] >= jointCount) return Error{label + " vertex " + std::to_string(v) + " names a joint past the skeleton"};
      sum += w;
    }
    if (std::fabs(sum - 1.f) > 1e-3f) return Error{label + " vertex " + std::to_string(v) + " weights sum to " + std::to_string(sum) + ", not 1"};
  }
  for (const Vec3& p : positions)
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return Error{label + " has a non-finite position"};
  return Status::ok();
}

std::vector<double> farthestInfluencedVertex(const Skeleton& skeleton, std::span<const SkinnedMesh> meshes) {
  // In the bind pose object(j) = inverse(inverseBind(j)), so a mesh's positions are already where
  // the skin puts them and the joint sits at the translation of that inverse.
  std::vector<Vec3> joint(skeleton.jointCount());
  for (std::size_t j = 0; j < joint.size(); ++j) {
    const Mat34 bind = skeleton.inverseBind[j].inverse();
    joint[j] = {bind.m[9], bind.m[10], bind.m[11]};
  }
  std::vector<double> farthest(skeleton.jointCount(), 0.0);
  for (const SkinnedMesh& mesh : meshes)
    for (std::size_t v = 0; v < mesh.influences.size(); ++v)
      for (int i = 0; i < 4; ++i) {
        const auto j = mesh.influences[v].joints[std::size_t(i)];
        if (mesh.influences[v].weights[std::size_t(i)] <= 0.01f || j >= joint.size()) continue;
        farthest[j] = std::max(farthest[j], double(runtime::length(mesh.positions[v] - joint[j])));
      }
  return farthest;
}

}  // namespace animpack::core
