#pragma once
// animpack runtime: the pose types a game reads and writes. Standard library only.
//
// A pose is one Transform per joint, in the pack's joint order (parents before children; the pack's
// skeleton names them, see animpack/pack.h). Lengths are in the pack's skeleton units.

#include <cstdint>
#include <span>

namespace animpack {
namespace runtime {

struct Vec3 {
  float x = 0, y = 0, z = 0;
};

/// Unit quaternion (x, y, z, w); identity by default.
struct Quat {
  float x = 0, y = 0, z = 0, w = 1;
};

/// A local joint transform: scale first, then rotation, then translation.
struct Transform {
  Quat rotation;
  Vec3 translation;
  Vec3 scale{1, 1, 1};
};

}  // namespace runtime

using runtime::Quat;
using runtime::Transform;
using runtime::Vec3;

}  // namespace animpack
