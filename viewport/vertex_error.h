#pragma once
// The visual error figure (the skin counterpart of core/compress/error_metric.h): how far each skinned vertex of the
// compressed pose lies from the same vertex of the original pose, in centimetres, and the colours that show it.

#include <span>

#include "core/math/transform.h"
#include "viewport/error_ramp.h"

namespace animpack::viewport {

/// Writes the displacement (cm) of every vertex between two skinned copies of one mesh to `outCm`
/// and returns the largest. Positions are in skeleton units, scaled by `unitToCm`; only the first
/// min(a, b, outCm) vertices are measured.
float vertexDisplacementsCm(std::span<const core::Vec3> a, std::span<const core::Vec3> b, double unitToCm,
                            std::span<float> outCm);

/// Colours of displacements on the error ramp, `scaleCm` being red (scaleCm <= 0 paints all green).
void displacementColors(std::span<const float> displacementCm, float scaleCm, std::span<Rgba> out);

}  // namespace animpack::viewport
