#pragma once
// Hierarchy-aware local tolerances (docs/COMPRESSION.md "How it compresses"): an object-space precision in
// centimetres becomes, per sub-track, the largest local deviation (rotation angle, translation
// length, scale difference) that keeps every joint it moves within its own precision. A joint
// with a long chain below it gets a tighter tolerance, and each joint's budget is shared among
// the animated sub-tracks on its chain (up to a pinned joint, which cancels what is above it).

#include <array>
#include <cstdint>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/anim/skeleton.h"
#include "core/compress/error_metric.h"
#include "core/compress/settings.h"

namespace animpack::core {

/// Lever arms measured on the original clip, in object units.
struct HierarchyLevers {
  /// For each joint j: (ancestor a, largest distance between a and j over the clip), from j itself
  /// (distance 0) up to and including the first pinned ancestor-or-self, or the root.
  std::vector<std::vector<std::pair<std::uint32_t, double>>> chain;
  /// Largest axis scale of each joint's parent in object space (1 for roots): translation errors
  /// of a joint move its subtree by this factor.
  std::vector<double> parentScale;
  /// Smallest absolute local scale component of each joint over the clip (scale errors are
  /// relative to it).
  std::vector<double> localScale;
};

HierarchyLevers measureLevers(const Skeleton& skeleton, const RawClip& clip, const ErrorMetric& metric,
                              const EffectiveSettings& settings);

/// True for each sub-track (joint * 3 + channel) whose samples change over the clip.
std::vector<bool> varyingSubTracks(const RawClip& clip);

/// Local tolerance of every sub-track (joint * 3 + channel): radians, file units, or scale units.
/// A joint's precision is shared among the n animated sub-tracks on its chain: each gets
/// min(1, aggressiveness / n) of it. Errors rarely add up at their worst on the same frame, so
/// aggressiveness > 1 pays; the verification loop catches the frames where they do.
std::vector<double> localTolerances(const Skeleton& skeleton, const HierarchyLevers& levers,
                                    const std::vector<bool>& varying, const EffectiveSettings& settings,
                                    double unitToCm, double aggressiveness);

}  // namespace animpack::core
