#pragma once
// Reads a scene's morph targets and morph-weight channels into curves (core/anim/morph.h), by the
// rules of docs/IMPORT.md "Morph targets": a channel binds to a node (glTF: the node it names; FBX:
// its name without the "*N" suffix), a node's targets are those of all its meshes (primitives), and
// what Assimp 5.2 reads wrongly is refused with a diagnostic naming the channel and the reason.
// Internal to core/io (used by the importer).

#include <string>
#include <vector>

#include "core/anim/imported_asset.h"
#include "core/math/transform.h"

struct aiScene;
struct aiAnimation;

namespace animpack::core {

/// A node of the scene as the morph reader needs it.
struct MorphNode {
  std::string name;
  std::vector<unsigned> meshes;  ///< indices into aiScene::mMeshes
  Mat34d object;                 ///< the node's rest transform in object space
};

class MorphReader {
 public:
  /// Finds every node's targets (the curves) and their displacement; notes what it refuses.
  MorphReader(const aiScene& scene, std::vector<MorphNode> nodes, std::string format, double unitToCm,
              std::vector<Diagnostic>& diagnostics);
  const std::vector<MorphCurve>& curves() const { return m_curves; }
  /// The curve of target `target` of node `node`'s meshes, or -1 (no such curve, or refused).
  int curveOf(int node, unsigned target) const;
  /// The keys animation `anim` gives each curve, times in seconds from `startSeconds` (the clip's first
  /// frame) at `ticksPerSecond`; channels that cannot be bound or read are noted and left out.
  std::vector<CurveKeys> keys(const aiAnimation& anim, double ticksPerSecond, double startSeconds,
                              const std::string& label);

 private:
  /// The node a channel drives, or -1 (noted).
  int bind(const std::string& channel, const std::string& label);
  void addNodeCurves(int node);

  const aiScene& m_scene;
  std::vector<MorphNode> m_nodes;
  std::string m_format;
  double m_unitToCm;
  std::vector<Diagnostic>& m_diagnostics;
  std::vector<MorphCurve> m_curves;
  std::vector<int> m_firstCurve;     ///< per node: its first curve, or -1 when it has none
  std::vector<int> m_refused;        ///< per node: 1 when its targets were refused (noted once)
  std::vector<std::string> m_noted;  ///< channel names whose binding was already noted (said once per file)
};

}  // namespace animpack::core
