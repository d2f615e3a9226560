#include "core/compress/vertex_error.h"

#include <algorithm>
#include <cmath>

#include "core/anim/raw_sampler.h"
#include "core/anim/source_clip.h"
#include "core/base/assert.h"
#include "core/compress/additive_base.h"
#include "core/runtime/additive.h"
#include "core/runtime/player.h"
#include "core/runtime/pose_ops.h"

namespace animpack::core {

VertexErrorMetric::VertexErrorMetric(const Skeleton& skeleton, std::span<const SkinnedMesh> meshes, double unitToCm)
    : m_unitToCm(unitToCm) {
  m_inverseBind.reserve(skeleton.jointCount());
  for (const Mat34& m : skeleton.inverseBind) m_inverseBind.push_back(m.cast<double>());
  for (std::size_t m = 0; m < meshes.size(); ++m) {
    const SkinnedMesh& mesh = meshes[m];
    for (std::size_t v = 0; v < mesh.influences.size(); ++v) {
      Vertex out{{mesh.positions[v].x, mesh.positions[v].y, mesh.positions[v].z}, {}, {}, 0};
      for (std::size_t i = 0; i < 4; ++i) {
        const float w = mesh.influences[v].weights[i];
        if (!(w > 0.f) || mesh.influences[v].joints[i] >= skeleton.jointCount()) continue;
        out.joints[out.count] = mesh.influences[v].joints[i];
        out.weights[out.count] = w;
        ++out.count;
      }
      if (out.count == 0) continue;
      m_vertices.push_back(out);
      m_sources.push_back({std::uint32_t(m), std::uint32_t(v)});
    }
  }
}

VertexError VertexErrorMetric::measure(std::span<const Mat34d> reference, std::span<const Mat34d> decoded) const {
  ANIMPACK_ASSERT(reference.size() == m_inverseBind.size() && decoded.size() == m_inverseBind.size(),
                  "one object matrix per joint in both poses");
  // Skinning is linear in the skin matrices, so a vertex's displacement is its blend of the
  // per-joint differences of skin matrices applied to its bind position: one blend per vertex.
  std::vector<Mat34d> difference(m_inverseBind.size());
  for (std::size_t j = 0; j < difference.size(); ++j) {
    const Mat34d r = reference[j] * m_inverseBind[j];
    const Mat34d d = decoded[j] * m_inverseBind[j];
    for (int k = 0; k < 12; ++k) difference[j].m[k] = d.m[k] - r.m[k];
  }
  double worstSquared = -1;
  std::size_t worstVertex = 0;
  for (std::size_t k = 0; k < m_vertices.size(); ++k) {
    const Vertex& v = m_vertices[k];
    // Most vertices of rigid parts have one influence (weight 1): its difference matrix as is.
    double blend[12];
    const double* m = difference[v.joints[0]].m;
    if (v.count > 1) {
      for (int c = 0; c < 12; ++c) blend[c] = v.weights[0] * m[c];
      for (std::uint8_t i = 1; i < v.count; ++i) {
        const double* s = difference[v.joints[i]].m;
        for (int c = 0; c < 12; ++c) blend[c] += v.weights[i] * s[c];
      }
      m = blend;
    }
    const double* p = v.position;
    const double x = m[0] * p[0] + m[3] * p[1] + m[6] * p[2] + m[9];
    const double y = m[1] * p[0] + m[4] * p[1] + m[7] * p[2] + m[10];
    const double z = m[2] * p[0] + m[5] * p[1] + m[8] * p[2] + m[11];
    const double squared = x * x + y * y + z * z;
    if (squared > worstSquared) {
      worstSquared = squared;
      worstVertex = k;
    }
  }
  VertexError worst;
  if (m_vertices.empty()) return worst;
  worst.mesh = std::int32_t(m_sources[worstVertex].mesh);
  worst.vertex = std::int32_t(m_sources[worstVertex].index);
  if (worstSquared > 0) worst.cm = std::sqrt(worstSquared) * m_unitToCm;
  return worst;
}

float measureVertexError(const VertexErrorMetric& metric, const Skeleton& skeleton, const RawClip& raw,
                         const runtime::ClipView& clip, const AdditiveBase* base) {
  if (metric.empty()) return -1.f;
  const std::size_t joints = skeleton.jointCount();
  std::vector<Transform> decodedLocal(joints), referenceLocal(joints), basePose(base ? joints : 0);
  std::vector<Mat34d> decoded(joints), reference(joints);
  runtime::Player player;
  double worst = 0;
  auto compare = [&](double frame) {
    player.sampleFrame(clip, float(frame), decodedLocal);
    if (base) {
      base->sample(float(frame / raw.sampleRate), basePose);
      runtime::applyAdditive(basePose, decodedLocal, 1.f, decodedLocal);
    }
    // The source's own keys in double where the clip has them (core/anim/source_clip.h).
    if (raw.source) {
      raw.source->objectMatrices(skeleton.parents, double(float(frame)), reference);
    } else {
      const double whole = std::floor(frame);
      if (frame == whole) std::copy_n(raw.frame(std::uint32_t(whole)).begin(), joints, referenceLocal.begin());
      else RawSampler::sampleFrame(raw, frame, referenceLocal);
      runtime::localToObject<double>(skeleton.parents, referenceLocal, reference);
    }
    runtime::localToObject<double>(skeleton.parents, decodedLocal, decoded);
    worst = std::max(worst, metric.measure(reference, decoded).cm);
  };
  // An additive source keeps a last frame its clip may have dropped (a loop's repeated frame).
  const std::uint32_t frames = std::min(raw.frameCount, clip.frameCount());
  for (std::uint32_t f = 0; f < frames; ++f) {
    compare(double(f));
    if (f + 1 < frames) compare(double(f) + 0.5);
  }
  return float(worst);
}

}  // namespace animpack::core
