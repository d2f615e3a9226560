#pragma once
// Morph targets (blend shapes) as imported (docs/IMPORT.md "Morph targets"): one curve per (node,
// target), with the largest vertex displacement a unit of its weight causes, and each clip's keys of
// the curves it animates. Packs carry their weights from format version 6 (docs/COMPRESSION.md "Morph targets").

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace animpack::core {

/// One morph curve: a target of the meshes of one node (every primitive of that node shares it).
struct MorphCurve {
  std::string name;               ///< "NODE/TARGET"; a TARGET name that repeats within the node gets "#k"
  std::string node;               ///< the node whose meshes the target deforms
  std::string target;             ///< the target's name, or its index when it has none
  std::uint32_t targetIndex = 0;  ///< its position in the node's meshes' target lists
  double displacementCm = 0;      ///< cm, the largest vertex displacement at weight 1, object space at the rest pose
  float restWeight = 0;           ///< the weight when no clip animates it (glTF `mesh.weights`; FBX 0)
};

/// Each curve's rest weight, in curve order: what runtime::ClipView::open needs to open a clip with
/// curves (the vector must outlive the view).
inline std::vector<float> restWeights(std::span<const MorphCurve> curves) {
  std::vector<float> out;
  out.reserve(curves.size());
  for (const MorphCurve& c : curves) out.push_back(c.restWeight);
  return out;
}

/// The keys one clip gives one curve (linear between keys, held before the first and after the last).
struct CurveKeys {
  std::uint32_t curve = 0;      ///< index into ImportedAsset::curves
  std::vector<double> times;    ///< seconds from the clip's first frame, increasing
  std::vector<double> weights;  ///< one per time; not clamped (FBX weights outside 0..1 are real data)
};

}  // namespace animpack::core
