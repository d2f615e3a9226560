#pragma once
// Pose operations shared by the runtime, the compressor's error metric and the viewport
// (local -> object palette in one parents-first pass, skin matrices, CPU skinning).

#include <array>
#include <cstdint>
#include <span>

#include "core/runtime/math.h"

namespace animpack::runtime {

/// Object-space (skeleton root space) matrices of every joint in one pass. `parents` must list
/// parents before children (-1 for a root); all spans have the joint count.
template <typename S>
void localToObject(std::span<const std::int32_t> parents, std::span<const Transform> locals, std::span<Affine<S>> out) {
  for (std::size_t j = 0; j < locals.size(); ++j) {
    const Affine<S> local = Affine<S>::fromTransform(locals[j]);
    const std::int32_t p = parents[j];
    out[j] = p < 0 ? local : out[static_cast<std::size_t>(p)] * local;
  }
}

/// skin[j] = object[j] * inverseBind[j].
void skinMatrices(std::span<const Mat34> object, std::span<const Mat34> inverseBind, std::span<Mat34> out);

/// Up to four joint influences of one vertex; weights sum to 1 (unused slots have weight 0).
struct VertexInfluences {
  std::array<std::uint16_t, 4> joints{};
  std::array<float, 4> weights{};
};

/// Linear-blend CPU skinning of positions and (optionally) normals. Normals are transformed by the
/// cofactor of the blended matrix, so non-uniform scale keeps them perpendicular, then renormalised.
/// `outNormals` may be empty to skip normals.
void skinVertices(std::span<const Mat34> skin, std::span<const Vec3> positions, std::span<const Vec3> normals,
                  std::span<const VertexInfluences> influences, std::span<Vec3> outPositions,
                  std::span<Vec3> outNormals);

}  // namespace animpack::runtime
