#include "core/runtime/pose_ops.h"

#include <cmath>

namespace animpack::runtime {

void skinMatrices(std::span<const Mat34> object, std::span<const Mat34> inverseBind, std::span<Mat34> out) {
  for (std::size_t j = 0; j < object.size(); ++j) out[j] = object[j] * inverseBind[j];
}

void skinVertices(std::span<const Mat34> skin, std::span<const Vec3> positions, std::span<const Vec3> normals,
                  std::span<const VertexInfluences> influences, std::span<Vec3> outPositions,
                  std::span<Vec3> outNormals) {
  const bool doNormals = !outNormals.empty() && normals.size() == positions.size();
  for (std::size_t v = 0; v < positions.size(); ++v) {
    const VertexInfluences& inf = influences[v];
    float m[12] = {};
    for (int i = 0; i < 4; ++i) {
      const float w = inf.weights[i];
      if (w == 0.f) continue;
      const float* s = skin[inf.joints[i]].m;
      for (int k = 0; k < 12; ++k) m[k] += w * s[k];
    }
    const Vec3 p = positions[v];
    outPositions[v] = {m[0] * p.x + m[3] * p.y + m[6] * p.z + m[9], m[1] * p.x + m[4] * p.y + m[7] * p.z + m[10],
                       m[2] * p.x + m[5] * p.y + m[8] * p.z + m[11]};
    if (!doNormals) continue;
    // Cofactor matrix = det * inverse-transpose: the right normal transform up to a scale, which the
    // normalisation removes (its sign flips with a mirroring matrix, so correct by det's sign).
    // A = [[m0 m3 m6] [m1 m4 m7] [m2 m5 m8]]; C is its cofactor matrix, n' = C n.
    const float c00 = m[4] * m[8] - m[7] * m[5], c01 = m[7] * m[2] - m[1] * m[8], c02 = m[1] * m[5] - m[4] * m[2];
    const float c10 = m[6] * m[5] - m[3] * m[8], c11 = m[0] * m[8] - m[6] * m[2], c12 = m[3] * m[2] - m[0] * m[5];
    const float c20 = m[3] * m[7] - m[6] * m[4], c21 = m[6] * m[1] - m[0] * m[7], c22 = m[0] * m[4] - m[3] * m[1];
    const float det = m[0] * c00 + m[3] * c01 + m[6] * c02;
    const Vec3 n = normals[v];
    const Vec3 r{c00 * n.x + c01 * n.y + c02 * n.z, c10 * n.x + c11 * n.y + c12 * n.z,
                 c20 * n.x + c21 * n.y + c22 * n.z};
    const float len = length(r);
    outNormals[v] = len > 0.f ? r * ((det < 0.f ? -1.f : 1.f) / len) : n;
  }
}

}  // namespace animpack::runtime
