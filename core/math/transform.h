#pragma once
// Core's view of the shared math types (defined dependency-free in core/runtime/math.h) plus the
// conversions and decompositions the offline code needs (Eigen for the heavy lifting).

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/runtime/math.h"

namespace animpack::core {

using runtime::Affine;
using runtime::Mat34;
using runtime::Quat;
using runtime::Transform;
using runtime::Vec3;

using Mat34d = runtime::Affine<double>;

/// Column-major 4x4 Eigen matrix of an affine matrix.
template <typename S>
Eigen::Matrix<S, 4, 4> toEigen(const Affine<S>& a) {
  Eigen::Matrix<S, 4, 4> m = Eigen::Matrix<S, 4, 4>::Identity();
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 3; ++r) m(r, c) = a.at(r, c);
  return m;
}
template <typename S>
Affine<S> fromEigen(const Eigen::Matrix<S, 4, 4>& m) {
  Affine<S> a;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 3; ++r) a.at(r, c) = m(r, c);
  return a;
}

/// Splits an affine matrix into translation, rotation and (signed) scale. Shear cannot be
/// represented; `residual` (if given) receives the largest element difference of the recomposition.
Transform decompose(const Mat34d& m, double* residual = nullptr);

/// True when every component is finite and the rotation is a unit quaternion (within 1e-3).
bool isFinite(const Transform& t);

}  // namespace animpack::core
