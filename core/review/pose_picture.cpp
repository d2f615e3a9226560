#include "core/review/pose_picture.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/anim/imported_asset.h"
#include "core/compress/compressor.h"
#include "core/compress/decoded_clip.h"
#include "core/runtime/pose_ops.h"

namespace animpack::core {
namespace {

constexpr Rgb kBackground{250, 250, 247};
constexpr Rgb kOriginal{70, 110, 170};
constexpr Rgb kCompressed{235, 120, 20};
constexpr Rgb kWorst{210, 30, 30};
constexpr Rgb kGround{215, 215, 210};

/// Object-space joint positions of `locals` with the scene-root transform (column-major 4x4) applied.
std::vector<std::array<double, 3>> positions(const Skeleton& skeleton, std::span<const Transform> locals,
                                             const std::array<float, 16>& root) {
  std::vector<runtime::Affine<double>> object(locals.size());
  runtime::localToObject<double>(skeleton.parents, locals, object);
  std::vector<std::array<double, 3>> out(locals.size());
  for (std::size_t j = 0; j < locals.size(); ++j) {
    const double p[3] = {object[j].m[9], object[j].m[10], object[j].m[11]};
    for (int r = 0; r < 3; ++r)
      out[j][std::size_t(r)] = root[std::size_t(r)] * p[0] + root[std::size_t(4 + r)] * p[1] +
                               root[std::size_t(8 + r)] * p[2] + root[std::size_t(12 + r)];
  }
  return out;
}

/// Pixels a drawing may touch: [x0, x1) x [y0, y1).
struct Clip {
  int x0, y0, x1, y1;
};

/// An antialiased line of `thickness` pixels (distance to the segment, one pass over its box).
void drawLine(Image& image, double x0, double y0, double x1, double y1, double thickness, Rgb colour,
              Clip clip = {0, 0, 1 << 30, 1 << 30}) {
  const double half = thickness / 2;
  // Clamp the box before converting: a zoomed segment can reach far outside the picture.
  auto box = [](double v, int lo, int hi) { return int(std::clamp(v, double(lo), double(hi))); };
  const int minX =
      box(std::floor(std::min(x0, x1) - half - 1), std::max(clip.x0, 0), std::min(clip.x1, image.width) - 1);
  const int maxX =
      box(std::ceil(std::max(x0, x1) + half + 1), std::max(clip.x0, 0), std::min(clip.x1, image.width) - 1);
  const int minY =
      box(std::floor(std::min(y0, y1) - half - 1), std::max(clip.y0, 0), std::min(clip.y1, image.height) - 1);
  const int maxY =
      box(std::ceil(std::max(y0, y1) + half + 1), std::max(clip.y0, 0), std::min(clip.y1, image.height) - 1);
  const double dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;
  for (int y = minY; y <= maxY; ++y)
    for (int x = minX; x <= maxX; ++x) {
      const double px = x + 0.5 - x0, py = y + 0.5 - y0;
      const double t = len2 > 0 ? std::clamp((px * dx + py * dy) / len2, 0.0, 1.0) : 0.0;
      const double d = std::hypot(px - t * dx, py - t * dy);
      image.blend(x, y, colour, float(std::clamp(half + 0.5 - d, 0.0, 1.0)));
    }
}

void drawRing(Image& image, double cx, double cy, double radius, double thickness, Rgb colour) {
  const int r = int(std::ceil(radius + thickness));
  for (int y = int(cy) - r; y <= int(cy) + r; ++y)
    for (int x = int(cx) - r; x <= int(cx) + r; ++x) {
      const double d = std::abs(std::hypot(x + 0.5 - cx, y + 0.5 - cy) - radius);
      image.blend(x, y, colour, float(std::clamp(thickness / 2 + 0.5 - d, 0.0, 1.0)));
    }
}

/// A magnified inset (a top corner) around the worst joint, scaled so the two poses' offset there
/// shows as about kZoomOffsetPx pixels: at full size a within-precision error is far below a pixel.
template <class ToPixel>
void drawZoom(Image& image, const PoseOverlay& overlay, const ToPixel& toPixel, std::size_t worst) {
  constexpr int kSize = 112;
  constexpr double kZoomOffsetPx = 14;
  const auto a = toPixel(overlay.original[worst]), b = toPixel(overlay.compressed[worst]);
  // The top corner away from the worst joint, so the inset never hides it.
  const int left = a[0] > image.width / 2.0 ? 6 : image.width - kSize - 6;
  const Clip box{left, 6, left + kSize, 6 + kSize};
  const double offset = std::hypot(b[0] - a[0], b[1] - a[1]);
  const double zoom = std::clamp(kZoomOffsetPx / std::max(offset, 1e-9), 4.0, 1e6);
  const double cx = (box.x0 + box.x1) / 2.0, cy = (box.y0 + box.y1) / 2.0;
  for (int y = box.y0; y < box.y1; ++y)
    for (int x = box.x0; x < box.x1; ++x) image.set(x, y, Rgb{255, 255, 255});
  auto zoomed = [&](const std::array<double, 2>& q) {
    return std::array<double, 2>{cx + (q[0] - (a[0] + b[0]) / 2) * zoom, cy + (q[1] - (a[1] + b[1]) / 2) * zoom};
  };
  auto figure = [&](const std::vector<std::array<double, 3>>& joints, Rgb colour, double thickness) {
    for (std::size_t j = 0; j < joints.size(); ++j) {
      const std::int32_t parent = j < overlay.parents.size() ? overlay.parents[j] : -1;
      if (parent < 0 || std::size_t(parent) >= joints.size()) continue;
      const auto p = zoomed(toPixel(joints[j])), q = zoomed(toPixel(joints[std::size_t(parent)]));
      drawLine(image, p[0], p[1], q[0], q[1], thickness, colour, box);
    }
    const auto w = zoomed(toPixel(joints[worst]));
    drawLine(image, w[0], w[1], w[0], w[1], thickness + 3, colour, box);
  };
  figure(overlay.original, kOriginal, 3.5);
  figure(overlay.compressed, kCompressed, 1.6);
  // The frame, and the magnification as tick marks would need text: the caption states it instead.
  drawLine(image, box.x0, box.y0, box.x1, box.y0, 1, kGround);
  drawLine(image, box.x0, box.y1, box.x1, box.y1, 1, kGround);
  drawLine(image, box.x0, box.y0, box.x0, box.y1, 1, kGround);
  drawLine(image, box.x1, box.y0, box.x1, box.y1, 1, kGround);
}

}  // namespace

Expected<PoseOverlay> poseOverlay(std::shared_ptr<const ImportedAsset> asset,
                                  std::shared_ptr<const CompressedClip> clip, std::uint32_t frame,
                                  std::int32_t worstJoint) {
  if (!asset || !clip) return Error{"no clip to draw"};
  if (clip->clipIndex >= asset->clips.size()) return Error{"clip " + clip->name + " is not in " + asset->file};
  const RawClip& raw = asset->clips[clip->clipIndex];
  if (frame >= raw.frameCount)
    return Error{"frame " + std::to_string(frame) + " is past the end of clip " + clip->name};
  const DecodedClip decoded(asset, clip);
  if (!decoded.valid() || frame >= decoded.frameCount()) return Error{"clip " + clip->name + " does not decode"};
  PoseOverlay overlay;
  overlay.parents = asset->skeleton.parents;
  overlay.original = positions(asset->skeleton, raw.frame(frame), asset->sceneRootTransform);
  overlay.compressed = positions(asset->skeleton, decoded.frame(frame), asset->sceneRootTransform);
  overlay.originalLocal.assign(raw.frame(frame).begin(), raw.frame(frame).end());
  overlay.compressedLocal.assign(decoded.frame(frame).begin(), decoded.frame(frame).end());
  overlay.worstJoint = worstJoint;
  overlay.asset = std::move(asset);
  overlay.clip = std::move(clip);
  overlay.frame = frame;
  return overlay;
}

Image drawPoseOverlay(const PoseOverlay& overlay, int width, int height) {
  Image image(width, height, kBackground);
  double lo[2] = {std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
  double hi[2] = {std::numeric_limits<double>::lowest(), std::numeric_limits<double>::lowest()};
  for (const auto* set : {&overlay.original, &overlay.compressed})
    for (const auto& p : *set)
      for (int a = 0; a < 2; ++a) {
        lo[a] = std::min(lo[a], p[std::size_t(a)]);
        hi[a] = std::max(hi[a], p[std::size_t(a)]);
      }
  if (overlay.original.empty()) return image;
  // Fit the box with a margin, keeping the aspect; a single point still gets a scale.
  const double margin = 16;
  const double extent = std::max({hi[0] - lo[0], hi[1] - lo[1], 1e-9});
  const double scale = std::min((width - 2 * margin) / std::max(hi[0] - lo[0], extent * 1e-3),
                                (height - 2 * margin) / std::max(hi[1] - lo[1], extent * 1e-3));
  const double cx = (lo[0] + hi[0]) / 2, cy = (lo[1] + hi[1]) / 2;
  auto toPixel = [&](const std::array<double, 3>& p) {
    return std::array<double, 2>{width / 2.0 + (p[0] - cx) * scale, height / 2.0 - (p[1] - cy) * scale};
  };
  const double groundY = height / 2.0 - (lo[1] - cy) * scale;
  drawLine(image, margin / 2, groundY, width - margin / 2, groundY, 1, kGround);

  auto drawFigure = [&](const std::vector<std::array<double, 3>>& joints, Rgb colour, double thickness) {
    for (std::size_t j = 0; j < joints.size(); ++j) {
      const auto a = toPixel(joints[j]);
      const std::int32_t parent = j < overlay.parents.size() ? overlay.parents[j] : -1;
      if (parent >= 0 && std::size_t(parent) < joints.size()) {
        const auto b = toPixel(joints[std::size_t(parent)]);
        drawLine(image, a[0], a[1], b[0], b[1], thickness, colour);
      }
      drawLine(image, a[0], a[1], a[0], a[1], thickness + 1.5, colour);
    }
  };
  drawFigure(overlay.original, kOriginal, 3.5);
  drawFigure(overlay.compressed, kCompressed, 1.6);
  if (overlay.worstJoint >= 0 && std::size_t(overlay.worstJoint) < overlay.compressed.size()) {
    const std::size_t w = std::size_t(overlay.worstJoint);
    const auto p = toPixel(overlay.compressed[w]);
    drawRing(image, p[0], p[1], 9, 2, kWorst);
    drawZoom(image, overlay, toPixel, w);
  }
  return image;
}

}  // namespace animpack::core
