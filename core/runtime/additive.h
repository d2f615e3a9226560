#pragma once
// Additive clips (core/runtime/FORMAT.md "Additive clips"): a clip whose tracks are deltas from a
// base pose, in local space as engines apply them: rotation base^-1 * r, translation t - t_base,
// scale s / s_base (per component). Applying a delta to its base gives the pose back.

#include <cstdint>
#include <span>

#include "core/runtime/clip_view.h"
#include "core/runtime/math.h"
#include "core/runtime/pack.h"
#include "core/runtime/player.h"

namespace animpack::runtime {

/// out = base with `delta` applied at `weight` (0: base, 1: base * delta): rotation base *
/// slerp(identity, delta, weight) along the shortest path, translation base + weight x delta,
/// scale base x lerp(1, delta, weight). All spans have the joint count; `out` may be `base`.
void applyAdditive(std::span<const Transform> base, std::span<const Transform> delta, float weight,
                   std::span<Transform> out);

/// One joint's delta from `base` to `pose` (the inverse of applyAdditive at weight 1).
Transform additiveDelta(const Transform& base, const Transform& pose);

/// The frame (fractional) of the base clip `base` at which an additive clip sampled at `seconds`
/// from its first frame takes its base: `baseFrame` when it is >= 0, otherwise the same time,
/// clamped to the base's first and last frame.
float additiveBaseFrame(const ClipView& base, std::int32_t baseFrame, float seconds);

/// The base pose of additive clip `clip` of `pack` for the clip's time `seconds` (from its first
/// frame): the rest pose, or its base clip sampled with `player` (use another player than the
/// clip's own, so neither loses its cursor). Leaves `out` alone for a clip that is not additive.
void sampleAdditiveBase(const Pack& pack, const PackClip& clip, Player& player, float seconds,
                        std::span<Transform> out);
/// The base's morph weights (format version 6) for additive clip `clip` at `seconds`: the pack's
/// rest weights, or its base clip's curves at the base frame (runtime::applyAdditiveCurves adds the
/// clip's own). Leaves `out` alone for a clip that is not additive.
void sampleAdditiveBaseCurves(const Pack& pack, const PackClip& clip, float seconds, std::span<float> out);

}  // namespace animpack::runtime
