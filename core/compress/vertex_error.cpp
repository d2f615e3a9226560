#include "core/compress/vertex_error.h"

#include <algorithm>
#include <cmath>

#include "core/anim/raw_sampler.h"
#include "core/anim/source_clip.h"
#include "core/base/assert.h"
#include "core/compress/additive_base.h"
#include "core/compress/curve_compress.h"
#include "core/runtime/curves.h"
#include "core/runtime/additive.h"
#include "core/runtime/player.h"
#include "core/runtime/pose_ops.h"

namespace animpack::core {

VertexErrorMetric::VertexErrorMetric(const Skeleton& skeleton, std::span<const SkinnedMesh> meshes, double unitToCm,
                                     std::span<const float> restWeights)
    : m_restWeights(restWeights.begin(), restWeights.end()), m_unitToCm(unitToCm) {
  m_inverseBind.reserve(skeleton.jointCount());
  for (const Mat34& m : skeleton.inverseBind) m_inverseBind.push_back(m.cast<double>());
  for (std::size_t m = 0; m < meshes.size(); ++m) {
    const SkinnedMesh& mesh = meshes[m];
    const bool skinned = mesh.influences.size() == mesh.positions.size();
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
      Vertex out{{mesh.positions[v].x, mesh.positions[v].y, mesh.positions[v].z}, {}, {}, 0};
      for (std::size_t i = 0; i < 4 && skinned; ++i) {
        const float w = mesh.influences[v].weights[i];
        if (!(w > 0.f) || mesh.influences[v].joints[i] >= skeleton.jointCount()) continue;
        out.joints[out.count] = mesh.influences[v].joints[i];
        out.weights[out.count] = w;
        ++out.count;
      }
      out.firstDelta = std::uint32_t(m_deltas.size());
      for (const SkinnedMesh::Morph& t : mesh.morphs) {
        const Vec3& d = t.deltas[v];
        if (t.curve < m_restWeights.size() && (d.x != 0.f || d.y != 0.f || d.z != 0.f))
          m_deltas.push_back({t.curve, {d.x, d.y, d.z}});
      }
      out.deltaCount = std::uint32_t(m_deltas.size()) - out.firstDelta;
      if (out.count == 0 && out.deltaCount == 0) continue;
      m_vertices.push_back(out);
      m_sources.push_back({std::uint32_t(m), std::uint32_t(v)});
    }
  }
}

namespace {

/// The blend of a vertex's influence matrices (12 doubles each), or the identity (`identity`) for a
/// static vertex.
const double* blendMatrices(const double* const* m, const double* weights, std::uint8_t count, const double* identity,
                            double* out) {
  if (count == 0) return identity;
  if (count == 1) return m[0];
  for (int c = 0; c < 12; ++c) out[c] = weights[0] * m[0][c];
  for (std::uint8_t i = 1; i < count; ++i)
    for (int c = 0; c < 12; ++c) out[c] += weights[i] * m[i][c];
  return out;
}

}  // namespace

/// Raises curveWorst for the curves that carry at least an eighth of vertex v's morph-weight error
/// (|weight error| x the target's displacement there), to the vertex's error.
void VertexErrorMetric::attribute(const Vertex& v, std::span<const double> referenceWeights,
                                  std::span<const double> decodedWeights, double squared,
                                  std::span<double> curveWorst) const {
  double total = 0;
  auto share = [&](const Delta& t) {
    const double b = std::fabs(decodedWeights[t.curve] - referenceWeights[t.curve]);
    return b * std::sqrt(t.d[0] * t.d[0] + t.d[1] * t.d[1] + t.d[2] * t.d[2]);
  };
  for (std::uint32_t i = v.firstDelta; i < v.firstDelta + v.deltaCount; ++i) total += share(m_deltas[i]);
  if (!(total > 0)) return;
  const double cm = std::sqrt(squared) * m_unitToCm;
  for (std::uint32_t i = v.firstDelta; i < v.firstDelta + v.deltaCount; ++i) {
    const Delta& t = m_deltas[i];
    if (t.curve < curveWorst.size() && 8 * share(t) >= total) curveWorst[t.curve] = std::max(curveWorst[t.curve], cm);
  }
}

VertexError VertexErrorMetric::measure(std::span<const Mat34d> reference, std::span<const Mat34d> decoded,
                                       std::span<const double> referenceWeights, std::span<const double> decodedWeights,
                                       std::span<double> curveWorst) const {
  ANIMPACK_ASSERT(reference.size() == m_inverseBind.size() && decoded.size() == m_inverseBind.size(),
                  "one object matrix per joint in both poses");
  const bool morphs = !m_deltas.empty() && referenceWeights.size() >= m_restWeights.size() &&
                      decodedWeights.size() >= m_restWeights.size();
  // Skinning is linear in the skin matrices, so a vertex's displacement is its blend of the
  // per-joint differences of skin matrices applied to its (reference-morphed) bind position, plus
  // the decoded blend applied to the difference of the morph offsets: one blend per vertex.
  std::vector<Mat34d> difference(m_inverseBind.size()), skin(morphs ? m_inverseBind.size() : 0);
  for (std::size_t j = 0; j < difference.size(); ++j) {
    const Mat34d r = reference[j] * m_inverseBind[j];
    const Mat34d d = decoded[j] * m_inverseBind[j];
    for (int k = 0; k < 12; ++k) difference[j].m[k] = d.m[k] - r.m[k];
    if (morphs) skin[j] = d;
  }
  static constexpr double kZero[12] = {}, kIdentity[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  double worstSquared = -1;
  std::size_t worstVertex = 0;
  for (std::size_t k = 0; k < m_vertices.size(); ++k) {
    const Vertex& v = m_vertices[k];
    const double* influences[4];
    for (std::uint8_t i = 0; i < v.count; ++i) influences[i] = difference[v.joints[i]].m;
    double blend[12];
    const double* m = blendMatrices(influences, v.weights, v.count, kZero, blend);
    double p[3] = {v.position[0], v.position[1], v.position[2]}, dm[3] = {0, 0, 0};
    if (morphs)
      for (std::uint32_t i = v.firstDelta; i < v.firstDelta + v.deltaCount; ++i) {
        const Delta& t = m_deltas[i];
        const double a = referenceWeights[t.curve], b = decodedWeights[t.curve] - a;
        for (int c = 0; c < 3; ++c) {
          p[c] += a * t.d[c];
          dm[c] += b * t.d[c];
        }
      }
    double x = m[0] * p[0] + m[3] * p[1] + m[6] * p[2] + m[9];
    double y = m[1] * p[0] + m[4] * p[1] + m[7] * p[2] + m[10];
    double z = m[2] * p[0] + m[5] * p[1] + m[8] * p[2] + m[11];
    if (dm[0] != 0 || dm[1] != 0 || dm[2] != 0) {
      for (std::uint8_t i = 0; i < v.count; ++i) influences[i] = skin[v.joints[i]].m;
      double skinBlend[12];
      const double* s = blendMatrices(influences, v.weights, v.count, kIdentity, skinBlend);
      x += s[0] * dm[0] + s[3] * dm[1] + s[6] * dm[2];
      y += s[1] * dm[0] + s[4] * dm[1] + s[7] * dm[2];
      z += s[2] * dm[0] + s[5] * dm[1] + s[8] * dm[2];
    }
    const double squared = x * x + y * y + z * z;
    if (morphs && !curveWorst.empty() && squared > 0)
      attribute(v, referenceWeights, decodedWeights, squared, curveWorst);
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
                         const runtime::ClipView& clip, const AdditiveBase* base, std::span<double> curveWorst) {
  if (metric.empty()) return -1.f;
  const std::size_t joints = skeleton.jointCount();
  std::vector<Transform> decodedLocal(joints), referenceLocal(joints), basePose(base ? joints : 0);
  std::vector<Mat34d> decoded(joints), reference(joints);
  runtime::Player player;
  // Morph targets: the source's weights from its keys in double, the decoded ones from the clip's
  // curves (a clip without curves yet, as during the joint loop, decodes the source's weights). An
  // additive clip's curves are deltas on its base's weights: its skin is measured on joints alone.
  const std::span<const float> rest = metric.restWeights();
  const bool morphs = metric.hasMorphs() && !base;
  const bool curves = morphs && clip.curveCount() == rest.size();
  std::vector<double> referenceWeights(morphs ? rest.size() : 0), decodedWeights(referenceWeights.size());
  std::vector<float> sampled(curves ? rest.size() : 0);
  auto weights = [&](double frame) {
    if (!morphs) return;
    for (std::uint32_t c = 0; c < rest.size(); ++c)
      referenceWeights[c] = sourceWeight(raw, c, rest[c], double(float(frame)) / raw.sampleRate);
    if (curves) {
      runtime::sampleCurvesAtFrame(clip, float(frame), sampled);
      std::copy(sampled.begin(), sampled.end(), decodedWeights.begin());
    } else {
      decodedWeights = referenceWeights;
    }
  };
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
    weights(frame);
    worst = std::max(
        worst,
        metric.measure(reference, decoded, referenceWeights, decodedWeights, curves ? curveWorst : std::span<double>())
            .cm);
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
