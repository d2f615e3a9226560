#pragma once
// The colour ramp of every error display in the viewport (joints, vertices, legend): green at no
// error, yellow at half the limit, red at and beyond the limit.

#include <array>

namespace animpack::viewport {

/// Linear RGBA colour, components in [0, 1] (the layout of the vertex colour buffers).
using Rgba = std::array<float, 4>;

/// Colour of an error ratio (error / limit): green at 0, yellow at 0.5, red at 1 and above;
/// negative or NaN ratios count as 0.
Rgba errorRampColor(float ratio);

/// Smallest 1, 2 or 5 times a power of ten that is >= `value` (legend scales); 0 for value <= 0
/// or a non-finite value.
float niceCeiling(float value);

}  // namespace animpack::viewport
