// The public skinning helpers (animpack/skinning.h).
#include "animpack/skinning.h"
#include "core/runtime/math.h"

namespace animpack {

Matrix4 multiply(const Matrix4& a, const Matrix4& b) {
  Matrix4 r;
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 4; ++row) {
      float s = 0.f;
      for (int k = 0; k < 4; ++k) s += a.m[k * 4 + row] * b.m[c * 4 + k];
      r.m[c * 4 + row] = s;
    }
  return r;
}

Matrix4 toMatrix(const Transform& t) {
  Matrix4 r;
  runtime::Mat34::fromTransform(t).toMatrix4(r.m);
  return r;
}

Vec3 transformPoint(const Matrix4& m, Vec3 p) {
  return {m.m[0] * p.x + m.m[4] * p.y + m.m[8] * p.z + m.m[12], m.m[1] * p.x + m.m[5] * p.y + m.m[9] * p.z + m.m[13],
          m.m[2] * p.x + m.m[6] * p.y + m.m[10] * p.z + m.m[14]};
}

Result modelMatrices(std::span<const std::int32_t> parents, std::span<const Transform> local,
                     std::span<Matrix4> model) {
  if (local.size() < parents.size() || model.size() < parents.size()) return Result::PoseTooShort;
  for (std::size_t j = 0; j < parents.size(); ++j)
    if (parents[j] >= static_cast<std::int64_t>(j) || parents[j] < -1) return Result::ParentOrder;
  // The runtime's own affine composition (core/runtime/math.h), joint after joint into the 4x4 output.
  for (std::size_t j = 0; j < parents.size(); ++j) {
    runtime::Mat34 m = runtime::Mat34::fromTransform(local[j]);
    if (parents[j] >= 0) m = runtime::Mat34::fromMatrix4(model[static_cast<std::size_t>(parents[j])].m) * m;
    m.toMatrix4(model[j].m);
  }
  return Result::Ok;
}

Result skinningPalette(std::span<const Matrix4> model, std::span<const Matrix4> inverseBind,
                       std::span<Matrix4> palette) {
  if (inverseBind.size() != model.size() || palette.size() < model.size()) return Result::PoseTooShort;
  for (std::size_t j = 0; j < model.size(); ++j) palette[j] = multiply(model[j], inverseBind[j]);
  return Result::Ok;
}

}  // namespace animpack
