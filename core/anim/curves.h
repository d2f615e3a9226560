#pragma once
// The curves the studio draws of one joint: its rotation as a quaternion or as Euler angles, its
// translation in cm, its scale, one value per frame and component. Computed here, drawn by
// widgets/curve_view.cpp, so the unwrap and the sign rule are tested without a widget.

#include <array>
#include <span>
#include <vector>

#include "core/math/transform.h"

namespace animpack::core {

enum class CurveChannel { Quaternion, Euler, Translation, Scale };

/// Euler angles in degrees, rotations about X, then Y, then Z (q = qz * qy * qx), each in
/// (-180, 180] (Y in [-90, 90]).
std::array<double, 3> eulerXyzDegrees(const Quat& q);

/// Shifts angles (degrees, components 0..2) by whole turns so that each differs from the one
/// before it by at most 180 degrees, in either direction.
void unwrapDegrees(std::vector<std::array<double, 4>>& values);

/// One joint's curve over `frames` (its local transform at each frame): x, y, z (and w for a
/// quaternion) per frame. Translation is in cm through `unitToCm`; Euler angles are unwrapped; a
/// quaternion takes the sign of `signReference[f]` where given (so a decoded curve overlays its
/// source's).
std::vector<std::array<double, 4>> jointCurve(CurveChannel channel, std::span<const Transform> frames, double unitToCm,
                                              std::span<const Transform> signReference = {});

}  // namespace animpack::core
