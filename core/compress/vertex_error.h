#pragma once
// The skin's view of compression error: every skinned vertex of a file's meshes, skinned by linear
// blend in double precision for a reference pose and a decoded pose, compared in object space
// (the skeleton's root space), in centimetres. Complements the joint metric of error_metric.h,
// which measures virtual vertices on each joint's shell.

#include <cstdint>
#include <span>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/anim/skeleton.h"
#include "core/anim/skinned_mesh.h"
#include "core/math/transform.h"
#include "core/runtime/clip_view.h"

namespace animpack::core {

class AdditiveBase;

/// The largest displacement one comparison found, and where.
struct VertexError {
  double cm = 0;           ///< cm, largest distance between a vertex skinned both ways
  std::int32_t mesh = -1;  ///< index into the meshes the metric was built from; -1 when it has no vertex
  std::int32_t vertex = -1;
};

class VertexErrorMetric {
 public:
  /// Precomputes every vertex that follows joints (skinned meshes and meshes rigidly attached to a
  /// joint) or morph targets; other static vertices are skipped. `unitToCm` converts file units to
  /// centimetres. `restWeights` (one per curve of the file) enables the morph targets' part: a
  /// vertex moves by its targets' weights times their displacements before it is skinned.
  VertexErrorMetric(const Skeleton& skeleton, std::span<const SkinnedMesh> meshes, double unitToCm,
                    std::span<const float> restWeights = {});

  /// True when no mesh has a vertex that follows a joint: there is nothing to measure.
  bool empty() const { return m_vertices.empty(); }
  std::size_t vertexCount() const { return m_vertices.size(); }

  /// Skins every vertex with skin[j] = object[j] * inverseBind[j] for both poses (object-space
  /// matrices, one per joint, e.g. from runtime::localToObject<double>) and returns the largest
  /// displacement.
  VertexError measure(std::span<const Mat34d> reference, std::span<const Mat34d> decoded) const {
    return measure(reference, decoded, {}, {});
  }
  /// The same with morph-target weights (one per curve) on both sides; empty spans: no morph part.
  /// `curveWorst` (optional, one per curve) is raised to each vertex's error for every curve that
  /// carries at least an eighth of that vertex's morph-weight error (which curves to tighten).
  VertexError measure(std::span<const Mat34d> reference, std::span<const Mat34d> decoded,
                      std::span<const double> referenceWeights, std::span<const double> decodedWeights,
                      std::span<double> curveWorst = {}) const;
  /// True when some measured vertex moves with a morph target.
  bool hasMorphs() const { return !m_deltas.empty(); }
  std::span<const float> restWeights() const { return m_restWeights; }

 private:
  struct Vertex {
    double position[3];
    double weights[4];
    std::uint16_t joints[4];
    std::uint8_t count;  // influences in use (weights above 0); 0: a static vertex moved by morphs only
    std::uint32_t firstDelta = 0, deltaCount = 0;  // its morph displacements in m_deltas
  };
  struct Delta {
    std::uint32_t curve;
    double d[3];
  };
  void attribute(const Vertex& v, std::span<const double> referenceWeights, std::span<const double> decodedWeights,
                 double squared, std::span<double> curveWorst) const;
  struct Source {
    std::uint32_t mesh, index;
  };
  std::vector<Mat34d> m_inverseBind;
  std::vector<Vertex> m_vertices;
  std::vector<Source> m_sources;  // where each vertex came from, for the report
  std::vector<Delta> m_deltas;
  std::vector<float> m_restWeights;
  double m_unitToCm;
};

/// Largest skinned-vertex displacement (cm) of a compressed clip against its raw clip, at every
/// frame and at the midpoint of every frame interval: decoded through runtime::Player, the
/// reference the source's own keys (the raw frames interpolated for clips built from frames).
/// -1 when the metric is empty. An additive clip is measured on its base, as its joints are: `raw`
/// is then the absolute clip and each decoded pose is applied to `base` at weight 1.
/// `curveWorst` (optional, one per curve): each curve's largest attributed vertex error
/// (VertexErrorMetric::measure) over the same instants.
float measureVertexError(const VertexErrorMetric& metric, const Skeleton& skeleton, const RawClip& raw,
                         const runtime::ClipView& clip, const AdditiveBase* base = nullptr,
                         std::span<double> curveWorst = {});

}  // namespace animpack::core
