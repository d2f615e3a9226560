#pragma once
// animpack runtime: from a local pose to a skinning palette. Standard library only.
//
//   animpack::modelMatrices(pack->parents(), pose, model);             // model[j] = model[parent] x local[j]
//   animpack::skinningPalette(model, inverseBind, palette);            // what a skinning shader takes

#include <cstdint>
#include <span>

#include "animpack/pose.h"
#include "animpack/result.h"

namespace animpack {

/// A column-major 4x4 matrix (m[12], m[13], m[14] are the translation), as GPUs take skinning palettes.
struct Matrix4 {
  float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
};

/// The product a x b (b applied first).
Matrix4 multiply(const Matrix4& a, const Matrix4& b);
/// The matrix of a transform (scale, then rotation, then translation).
Matrix4 toMatrix(const Transform& t);
/// `m` applied to a point.
Vec3 transformPoint(const Matrix4& m, Vec3 p);

/// Model-space matrices of a local pose: model[j] = model[parent[j]] x local[j] (a root's parent is
/// -1). Refuses (PoseTooShort) a `local` or `model` shorter than `parents`, and a parent that is not
/// an earlier joint (ParentOrder); writes nothing then.
[[nodiscard]] Result modelMatrices(std::span<const std::int32_t> parents, std::span<const Transform> local,
                                   std::span<Matrix4> model);
/// A skinning palette: palette[j] = model[j] x inverseBind[j] for every joint of `model`. Refuses
/// (PoseTooShort) an `inverseBind` of another size than `model` or a shorter `palette`; writes
/// nothing then.
[[nodiscard]] Result skinningPalette(std::span<const Matrix4> model, std::span<const Matrix4> inverseBind,
                                     std::span<Matrix4> palette);

}  // namespace animpack
