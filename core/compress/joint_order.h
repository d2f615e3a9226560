#pragma once
// The order a pack stores its joints in (docs/SETTINGS.md `lod`): the source's (parents first, in the
// order the importer walks the node tree), by depth, or named joints first, so that the first N
// joints of a pose are the ones a distant character keeps (docs/RUNTIME.md "Levels of detail").
// The import applies it, so every tool after it (compressor, pack, verify, studio) sees one order.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/anim/imported_asset.h"
#include "core/base/status.h"

namespace animpack::core {

struct JointOrder {
  enum class Kind : std::uint8_t {
    Source,  ///< the importer's order
    Depth,   ///< by depth (roots, their children, ...), the source's order within a depth
    List,    ///< `first` with their ancestors, then the rest by depth
  };
  Kind kind = Kind::Source;
  /// List: names (an exact name wins) or wildcards, in the order they come; each joint is preceded by
  /// its ancestors not yet placed, a wildcard's joints in the source's order.
  std::vector<std::string> first;
  bool operator==(const JointOrder&) const = default;
};

/// Where each stored joint comes from: out[k] is the source joint stored at position k (parents
/// first). An entry of a list that matches no joint is an error naming it.
Expected<std::vector<std::int32_t>> jointOrder(const Skeleton& skeleton, const JointOrder& order);

/// Puts every per-joint array of `asset` in `order` (out[k] = old index; a permutation that keeps
/// parents first): skeleton, clip samples, keyed channels, source chains, mesh influences.
void reorderJoints(ImportedAsset& asset, std::span<const std::int32_t> order);

/// A pack made with settings `lod` stores a source's joints in another order: puts the same joints
/// (by name) in the order of `names` when they keep parents first; anything else is left as it is
/// (for the caller's skeleton check).
void matchJointOrder(ImportedAsset& asset, std::span<const std::string> names);

/// jointOrder then reorderJoints; a diagnostic says which order the joints are in.
Status applyJointOrder(ImportedAsset& asset, const JointOrder& order);

/// Per depth d from 0: how many first joints hold every joint of depth <= d. A depth order makes
/// these the levels of detail; in the source's order they are usually close to the joint count.
std::vector<std::uint32_t> depthLevels(std::span<const std::int32_t> parents);
/// One line for inspect and dump: "lod:       depth <= 0 in the first 1, <= 1 in the first 3, ... of J joints".
std::string levelsText(std::span<const std::uint32_t> levels, std::size_t joints);

}  // namespace animpack::core
