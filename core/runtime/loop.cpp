#include "core/runtime/loop.h"

#include "core/runtime/track_math.h"

namespace animpack::runtime {

void interpolatePoses(std::span<const Transform> a, std::span<const Transform> b, float alpha,
                      std::span<Transform> out) {
  for (std::size_t j = 0; j < out.size(); ++j) {
    const Transform& x = a[j];
    const Transform& y = b[j];
    out[j] = {canonicalSign(slerp(x.rotation, y.rotation, alpha)), lerp(x.translation, y.translation, alpha),
              lerp(x.scale, y.scale, alpha)};
  }
}

}  // namespace animpack::runtime
