#include "core/math/transform.h"

#include <cmath>

namespace animpack::core {

Transform decompose(const Mat34d& m, double* residual) {
  Eigen::Matrix3d linear;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) linear(r, c) = m.at(r, c);
  Eigen::Vector3d scale(linear.col(0).norm(), linear.col(1).norm(), linear.col(2).norm());
  // A mirrored matrix gets its negative scale on x, so the rotation stays proper.
  if (linear.determinant() < 0) scale.x() = -scale.x();
  Eigen::Matrix3d rotation = linear;
  for (int c = 0; c < 3; ++c) rotation.col(c) /= (scale[c] != 0.0 ? scale[c] : 1.0);
  // Re-orthonormalise (removes shear and rounding) before converting to a quaternion.
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(rotation, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d proper = svd.matrixU() * svd.matrixV().transpose();
  if (proper.determinant() < 0) {
    Eigen::Matrix3d u = svd.matrixU();
    u.col(2) = -u.col(2);
    proper = u * svd.matrixV().transpose();
  }
  Eigen::Quaterniond q(proper);
  q.normalize();
  Transform t;
  t.translation = {float(m.at(0, 3)), float(m.at(1, 3)), float(m.at(2, 3))};
  t.rotation = {float(q.x()), float(q.y()), float(q.z()), float(q.w())};
  t.scale = {float(scale.x()), float(scale.y()), float(scale.z())};
  if (residual) {
    Transform td = t;
    const Mat34d back = Mat34d::fromTransform(td);
    double worst = 0;
    for (int i = 0; i < 9; ++i) worst = std::max(worst, std::fabs(back.m[i] - m.m[i]));
    *residual = worst;
  }
  return t;
}

bool isFinite(const Transform& t) {
  const float v[10] = {t.rotation.x,    t.rotation.y,    t.rotation.z, t.rotation.w, t.translation.x,
                       t.translation.y, t.translation.z, t.scale.x,    t.scale.y,    t.scale.z};
  for (float f : v)
    if (!std::isfinite(f)) return false;
  return std::fabs(runtime::dot(t.rotation, t.rotation) - 1.f) < 1e-3f;
}

}  // namespace animpack::core
