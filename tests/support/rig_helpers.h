#pragma once
// Small pieces the generated rigs share (test_rigs.cpp, face_rig.cpp).

#include <cmath>
#include <cstddef>
#include <vector>

#include "tests/support/gltf_writer.h"

namespace animpack::test {

/// The rotation of `angle` radians about the unit axis (x, y, z).
inline core::Quat axisAngle(float x, float y, float z, float angle) {
  const float s = std::sin(angle / 2);
  return runtime::normalized({x * s, y * s, z * s, std::cos(angle / 2)});
}

inline core::Transform makeTransform(core::Vec3 t, core::Quat r = {}, core::Vec3 s = {1, 1, 1}) {
  core::Transform x;
  x.translation = t;
  x.rotation = r;
  x.scale = s;
  return x;
}

/// Each node's rest transform in object space (nodes are listed parents first).
inline std::vector<core::Mat34> restObjects(const GltfScene& s) {
  std::vector<core::Mat34> object(s.nodes.size());
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    const core::Mat34 local = core::Mat34::fromTransform(s.nodes[n].rest);
    object[n] = s.nodes[n].parent < 0 ? local : object[std::size_t(s.nodes[n].parent)] * local;
  }
  return object;
}

}  // namespace animpack::test
