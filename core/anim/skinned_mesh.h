#pragma once
// A triangle mesh bound to the skeleton: up to four weighted joint influences per vertex.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/anim/skeleton.h"
#include "core/base/status.h"
#include "core/math/transform.h"
#include "core/runtime/pose_ops.h"

namespace animpack::core {

using runtime::VertexInfluences;

struct SkinnedMesh {
  std::string name;
  std::vector<Vec3> positions;               ///< bind-pose positions in the space inverseBind expects
  std::vector<Vec3> normals;                 ///< unit normals, one per position
  std::vector<std::uint32_t> indices;        ///< triangle list
  std::vector<VertexInfluences> influences;  ///< one per vertex; empty for a static mesh
  bool skinned = false;                      ///< weights come from bones (false: rigid or static)
  std::int32_t rigidJoint = -1;              ///< the joint a bone-less mesh follows, or -1 (static)
  /// A morph target of this mesh: its curve (index into ImportedAsset::curves) and each vertex's
  /// displacement at weight 1, in the space of `positions` (docs/IMPORT.md "Morph targets").
  struct Morph {
    std::uint32_t curve = 0;
    std::vector<Vec3> deltas;
  };
  std::vector<Morph> morphs;  ///< targets that move some vertex

  std::size_t vertexCount() const { return positions.size(); }
  /// Checks array sizes, index ranges, joint indices and that weights are normalised.
  Status validate(std::size_t jointCount) const;
};

/// Per joint: the largest rest-pose distance, in object-space centimetres (the skeleton's root
/// space, armature scale included, times `unitToCm`), from the joint to a vertex it influences with
/// a weight above 1 %, over every skinned or rigid mesh; 0 for joints that move no vertex. The
/// studio's "derive shell distance from the mesh" and the `"shell_cm": "mesh"` setting.
std::vector<double> farthestInfluencedVertex(const Skeleton& skeleton, std::span<const SkinnedMesh> meshes,
                                             double unitToCm);

}  // namespace animpack::core
