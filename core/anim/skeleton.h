#pragma once
// The joint hierarchy of an asset: names, parents listed before children,
// rest (node) transforms and inverse bind matrices.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/math/transform.h"

namespace animpack::core {

struct Skeleton {
  std::vector<std::string> names;
  std::vector<std::int32_t> parents;  ///< parent joint, -1 for a root; always < the joint's own index
  std::vector<Transform> restLocal;   ///< node transforms, in file units
  std::vector<Mat34> inverseBind;     ///< bind-pose object space -> joint space (skin = object * inverseBind)

  std::size_t jointCount() const { return names.size(); }
  /// Checks sizes, parent order, unique non-empty names, finite values and the joint limit.
  Status validate() const;
  /// Index of the joint with this name, or -1.
  std::int32_t find(std::string_view name) const;
  /// Children of each joint, in index order.
  std::vector<std::vector<std::int32_t>> children() const;
  /// Number of ancestors of a joint (a root has depth 0).
  int depth(std::size_t joint) const;
  /// Object-space rest matrices (one parents-first pass).
  std::vector<Mat34d> restObject() const;
};

}  // namespace animpack::core
