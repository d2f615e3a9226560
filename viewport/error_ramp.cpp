#include "viewport/error_ramp.h"

#include <cmath>

namespace animpack::viewport {

Rgba errorRampColor(float ratio) {
  const float t = ratio > 0.f ? (ratio < 1.f ? ratio : 1.f) : 0.f;  // also maps NaN to 0
  // Two linear segments through yellow keep the midpoint bright (a straight green-red blend is brown).
  if (t < 0.5f) return {2.f * t, 1.f, 0.f, 1.f};
  return {1.f, 2.f * (1.f - t), 0.f, 1.f};
}

float niceCeiling(float value) {
  if (!(value > 0.f) || !std::isfinite(value)) return 0.f;
  const float decade = std::pow(10.f, std::floor(std::log10(value)));
  for (const float step : {1.f, 2.f, 5.f, 10.f}) {
    // A small tolerance keeps an exact 0.2 at 0.2 despite rounding in pow/log10.
    if (value <= step * decade * 1.0001f) return step * decade;
  }
  return 10.f * decade;
}

}  // namespace animpack::viewport
