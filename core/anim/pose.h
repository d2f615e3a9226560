#pragma once
// A posed skeleton: local transforms and their object-space matrices.

#include <vector>

#include "core/anim/skeleton.h"
#include "core/math/transform.h"
#include "core/runtime/pose_ops.h"

namespace animpack::core {

struct Pose {
  std::vector<Transform> local;
  std::vector<Mat34> object;

  Pose() = default;
  explicit Pose(const Skeleton& skeleton) : local(skeleton.restLocal), object(skeleton.jointCount()) {
    update(skeleton);
  }

  /// Recomputes the object-space matrices from the local transforms.
  void update(const Skeleton& skeleton) { runtime::localToObject<float>(skeleton.parents, local, object); }
  /// Checks sizes and that every local transform is finite.
  Status validate(const Skeleton& skeleton) const {
    if (local.size() != skeleton.jointCount() || object.size() != skeleton.jointCount())
      return Error{"pose size disagrees with the skeleton"};
    for (std::size_t j = 0; j < local.size(); ++j)
      if (!isFinite(local[j])) return Error{"pose joint '" + skeleton.names[j] + "' is not finite"};
    return Status::ok();
  }
};

}  // namespace animpack::core
