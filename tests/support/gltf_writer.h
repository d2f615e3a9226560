#pragma once
// Writes small glTF 2.0 files (embedded base64 buffer) so tests can build rigs of their own:
// node hierarchies with TRS, skins, skinned meshes with morph targets, and LINEAR or STEP animations
// of transforms and morph weights.

#include <array>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/math/transform.h"

namespace animpack::test {

struct GltfNode {
  std::string name;
  int parent = -1;
  core::Transform rest;
};

struct GltfChannel {
  GltfChannel(int node_ = 0, int path_ = 0, std::vector<float> times_ = {},
              std::vector<std::array<float, 4>> values_ = {})
      : node(node_), path(path_), times(std::move(times_)), values(std::move(values_)) {}
  int node = 0;
  int path = 0;                              ///< 0 rotation, 1 translation, 2 scale, 3 morph weights
  std::vector<float> times;                  ///< seconds
  std::vector<std::array<float, 4>> values;  ///< xyz(w) (paths 0-2)
  std::vector<float> weights;                ///< path 3: one weight per target per time, time-major
  bool step = false;                         ///< STEP interpolation instead of LINEAR
};

struct GltfAnimation {
  std::string name;
  std::vector<GltfChannel> channels;
};

struct GltfSkinnedMesh {
  int node = 0;  ///< the node that instances the mesh
  std::vector<core::Vec3> positions, normals;
  std::vector<std::uint32_t> indices;
  std::vector<std::array<std::uint16_t, 4>> joints;  ///< indices into skinJoints
  std::vector<std::array<float, 4>> weights;
  std::vector<int> skinJoints;            ///< node index per skin joint
  std::vector<core::Mat34> inverseBinds;  ///< one per skin joint
  struct Target {
    std::string name;                ///< written to mesh.extras.targetNames (empty: no names are written)
    std::vector<core::Vec3> deltas;  ///< per vertex, POSITION displacement at weight 1
  };
  std::vector<Target> targets;        ///< morph targets
  std::vector<float> defaultWeights;  ///< mesh.weights (empty: none written)
};

struct GltfScene {
  std::vector<GltfNode> nodes;  ///< parents before children
  std::vector<GltfAnimation> animations;
  std::vector<GltfSkinnedMesh> meshes;
};

/// Writes `scene` as a .gltf file; false on I/O failure.
bool writeGltf(const GltfScene& scene, const std::filesystem::path& path);

}  // namespace animpack::test
