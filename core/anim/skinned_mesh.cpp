#include "core/anim/skinned_mesh.h"

#include <algorithm>
#include <cmath>

namespace animpack::core {

Status SkinnedMesh::validate(std::size_t jointCount) const {
  const std::string label = "mesh '" + name + "'";
  if (normals.size() != positions.size())
    return Error{label + " has " + std::to_string(normals.size()) + " normals for " + std::to_string(positions.size()) +
                 " vertices"};
  if (indices.size() % 3 != 0) return Error{label + " index count is not a multiple of 3"};
  for (std::uint32_t i : indices)
    if (i >= positions.size()) return Error{label + " has an index past its vertices"};
  if (!influences.empty() && influences.size() != positions.size())
    return Error{label + " has influences for some vertices only"};
  for (std::size_t v = 0; v < influences.size(); ++v) {
    float sum = 0;
    for (int i = 0; i < 4; ++i) {
      const float w = influences[v].weights[i];
      if (!(w >= 0.f) || !std::isfinite(w))
        return Error{label + " vertex " + std::to_string(v) + " has a negative or non-finite weight"};
      if (w > 0.f && influences[v].joints[i] >= jointCount)
        return Error{label + " vertex " + std::to_string(v) + " names a joint past the skeleton"};
      sum += w;
    }
    if (std::fabs(sum - 1.f) > 1e-3f)
      return Error{label + " vertex " + std::to_string(v) + " weights sum to " + std::to_string(sum) + ", not 1"};
  }
  for (const Vec3& p : positions)
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      return Error{label + " has a non-finite position"};
  for (const Morph& m : morphs) {
    if (m.deltas.size() != positions.size())
      return Error{label + " has a morph target of " + std::to_string(m.deltas.size()) + " vertices"};
    for (const Vec3& d : m.deltas)
      if (!std::isfinite(d.x) || !std::isfinite(d.y) || !std::isfinite(d.z))
        return Error{label + " has a non-finite morph displacement"};
  }
  return Status::ok();
}

std::vector<double> farthestInfluencedVertex(const Skeleton& skeleton, std::span<const SkinnedMesh> meshes,
                                             double unitToCm) {
  // inverseBind takes a vertex from its mesh's bind space into joint space, where the joint sits at
  // the origin. Mesh spaces differ from object space by whatever sits above the mesh (a x100
  // armature on Blender exports), so distances are measured in joint space and then mapped by the
  // joint's object-space rest matrix, whose linear part carries every scale above the joint.
  std::vector<Mat34d> toOffset = skeleton.restObject();
  for (std::size_t j = 0; j < toOffset.size(); ++j) {
    toOffset[j].m[9] = toOffset[j].m[10] = toOffset[j].m[11] = 0;
    toOffset[j] = toOffset[j] * skeleton.inverseBind[j].cast<double>();
  }
  std::vector<double> farthest(skeleton.jointCount(), 0.0);
  for (const SkinnedMesh& mesh : meshes)
    for (std::size_t v = 0; v < mesh.influences.size(); ++v) {
      const double p[3] = {mesh.positions[v].x, mesh.positions[v].y, mesh.positions[v].z};
      for (std::size_t i = 0; i < 4; ++i) {
        const std::size_t j = mesh.influences[v].joints[i];
        if (mesh.influences[v].weights[i] <= 0.01f || j >= farthest.size()) continue;
        double offset[3];
        toOffset[j].transformPoint(p, offset);
        const double d = std::sqrt(offset[0] * offset[0] + offset[1] * offset[1] + offset[2] * offset[2]);
        farthest[j] = std::max(farthest[j], d * unitToCm);
      }
    }
  return farthest;
}

}  // namespace animpack::core
