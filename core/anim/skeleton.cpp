#include "core/anim/skeleton.h"

#include <unordered_set>

#include "core/runtime/clip_format.h"
#include "core/runtime/pose_ops.h"

namespace animpack::core {

Status Skeleton::validate() const {
  const std::size_t n = names.size();
  // An empty skeleton is valid: a file that animates only morph-target weights (docs/IMPORT.md).
  if (n > runtime::kMaxJoints)
    return Error{"skeleton has " + std::to_string(n) + " joints; animpack supports at most " +
                 std::to_string(runtime::kMaxJoints)};
  if (parents.size() != n || restLocal.size() != n || inverseBind.size() != n)
    return Error{"skeleton arrays disagree in size"};
  std::unordered_set<std::string_view> seen;
  for (std::size_t j = 0; j < n; ++j) {
    const std::string label = "joint " + std::to_string(j) + " '" + names[j] + "'";
    if (names[j].empty()) return Error{"joint " + std::to_string(j) + " has an empty name"};
    if (!seen.insert(names[j]).second) return Error{label + " has a duplicate name"};
    if (parents[j] < -1 || parents[j] >= static_cast<std::int32_t>(j))
      return Error{label + " has parent " + std::to_string(parents[j]) + ", parents must come first"};
    if (!isFinite(restLocal[j])) return Error{label + " has a non-finite or non-unit rest transform"};
    for (float v : inverseBind[j].m)
      if (!std::isfinite(v)) return Error{label + " has a non-finite inverse bind matrix"};
  }
  return Status::ok();
}

std::int32_t Skeleton::find(std::string_view name) const {
  for (std::size_t j = 0; j < names.size(); ++j)
    if (names[j] == name) return static_cast<std::int32_t>(j);
  return -1;
}

std::vector<std::vector<std::int32_t>> Skeleton::children() const {
  std::vector<std::vector<std::int32_t>> result(names.size());
  for (std::size_t j = 0; j < names.size(); ++j)
    if (parents[j] >= 0) result[static_cast<std::size_t>(parents[j])].push_back(static_cast<std::int32_t>(j));
  return result;
}

int Skeleton::depth(std::size_t joint) const {
  int d = 0;
  for (std::int32_t p = parents[joint]; p >= 0; p = parents[static_cast<std::size_t>(p)]) ++d;
  return d;
}

std::vector<Mat34d> Skeleton::restObject() const {
  std::vector<Mat34d> out(names.size());
  runtime::localToObject<double>(parents, restLocal, out);
  return out;
}

}  // namespace animpack::core
