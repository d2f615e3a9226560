#pragma once
// A picture of one frame for the review packet: the original pose and the compressed pose of the
// same frame overlaid, drawn as orthographic stick figures (a software raster; the studio may draw
// the same overlay with the viewport instead, through PictureRenderer).

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/math/transform.h"
#include "core/review/image.h"

namespace animpack::core {

struct ImportedAsset;
struct CompressedClip;

/// Both poses of one frame in the display's space (the scene-root transform applied, Y up).
struct PoseOverlay {
  std::vector<std::int32_t> parents;            ///< parents first, -1 for a root
  std::vector<std::array<double, 3>> original;  ///< joint positions, file units
  std::vector<std::array<double, 3>> compressed;
  std::vector<Transform> originalLocal;  ///< the poses themselves, local joint transforms
  std::vector<Transform> compressedLocal;
  std::int32_t worstJoint = -1;                ///< circled; -1: none
  std::shared_ptr<const ImportedAsset> asset;  ///< the file (for renderers that draw its meshes)
  std::shared_ptr<const CompressedClip> clip;  ///< the compression result drawn
  std::uint32_t frame = 0;
};

/// The overlay of `clip` at `frame`: the source's frame and the runtime's decoding of it.
Expected<PoseOverlay> poseOverlay(std::shared_ptr<const ImportedAsset> asset,
                                  std::shared_ptr<const CompressedClip> clip, std::uint32_t frame,
                                  std::int32_t worstJoint);

/// Draws the overlay, looking along -Z at the figure's bounding box (original grey-blue, compressed
/// orange, the worst joint circled red), `width` x `height` pixels.
Image drawPoseOverlay(const PoseOverlay& overlay, int width = 420, int height = 300);

/// How to read a renderer's pictures: the colours of the two poses (CSS) and how the worst joint is marked.
struct PictureLegend {
  std::string original = "#466eaa";
  std::string compressed = "#eb7814";
  std::string marks = "the worst joint circled in red and magnified in the inset";
};

/// Draws an overlay (the software raster, or the viewport in the studio); an error says why not.
using PictureRenderer = std::function<Expected<Image>(const PoseOverlay&)>;

}  // namespace animpack::core
