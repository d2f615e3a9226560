#pragma once
// Looping clips (FORMAT.md "Loops"): the interpolation of the wrap interval, shared by the Player
// and the compressor's checks so both see one pose between a clip's last frame and its first.

#include <span>

#include "core/runtime/math.h"

namespace animpack::runtime {

/// Joint by joint, the pose between `a` (alpha 0) and `b` (alpha 1) as between any two decoded
/// frames: lerp of translation and scale, shortest-path slerp of rotation in the canonical sign.
/// `out` may alias `a`.
void interpolatePoses(std::span<const Transform> a, std::span<const Transform> b, float alpha,
                      std::span<Transform> out);

}  // namespace animpack::runtime
