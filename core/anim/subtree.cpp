#include "core/anim/subtree.h"

namespace animpack::core {

std::vector<std::int32_t> subtreeJoints(const Skeleton& skeleton, std::int32_t root) {
  std::vector<std::int32_t> joints;
  if (root < 0 || std::size_t(root) >= skeleton.jointCount()) return joints;
  // Parents come before their children, so one forward pass from the root marks the subtree.
  std::vector<bool> inside(skeleton.jointCount(), false);
  inside[std::size_t(root)] = true;
  joints.push_back(root);
  for (std::size_t j = std::size_t(root) + 1; j < skeleton.jointCount(); ++j) {
    const std::int32_t parent = skeleton.parents[j];
    if (parent >= 0 && inside[std::size_t(parent)]) {
      inside[j] = true;
      joints.push_back(std::int32_t(j));
    }
  }
  return joints;
}

}  // namespace animpack::core
