#pragma once
// Walks over the joint hierarchy that edits in the studio apply to.

#include <cstdint>
#include <vector>

#include "core/anim/skeleton.h"

namespace animpack::core {

/// `root` and every joint below it, in index order (empty when `root` is not a joint).
std::vector<std::int32_t> subtreeJoints(const Skeleton& skeleton, std::int32_t root);

}  // namespace animpack::core
