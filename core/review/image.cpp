#include "core/review/image.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "core/base/assert.h"

namespace animpack::core {
namespace {

void putBE32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(std::uint8_t(v >> shift));
}

void chunk(std::vector<std::uint8_t>& out, std::string_view type, const std::vector<std::uint8_t>& data) {
  putBE32(out, std::uint32_t(data.size()));
  const std::size_t start = out.size();
  out.insert(out.end(), type.begin(), type.end());
  out.insert(out.end(), data.begin(), data.end());
  // The CRC covers the type and the data, not the length.
  const uLong crc = crc32(0, out.data() + start, uInt(out.size() - start));
  putBE32(out, std::uint32_t(crc));
}

}  // namespace

Image::Image(int w, int h, Rgb fill) : width(w), height(h), rgb(std::size_t(w) * std::size_t(h) * 3) {
  for (std::size_t i = 0; i < rgb.size(); i += 3) {
    rgb[i] = fill.r;
    rgb[i + 1] = fill.g;
    rgb[i + 2] = fill.b;
  }
}

void Image::set(int x, int y, Rgb c) { blend(x, y, c, 1.f); }

void Image::blend(int x, int y, Rgb c, float alpha) {
  if (x < 0 || y < 0 || x >= width || y >= height || alpha <= 0) return;
  alpha = std::min(alpha, 1.f);
  std::uint8_t* p = rgb.data() + (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3;
  const std::array<std::uint8_t, 3> src{c.r, c.g, c.b};
  for (int i = 0; i < 3; ++i)
    p[i] = std::uint8_t(float(p[i]) + (float(src[std::size_t(i)]) - float(p[i])) * alpha + 0.5f);
}

Rgb Image::at(int x, int y) const {
  const std::uint8_t* p = rgb.data() + (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3;
  return {p[0], p[1], p[2]};
}

std::vector<std::uint8_t> encodePng(const Image& image) {
  ANIMPACK_ASSERT(image.width > 0 && image.height > 0 &&
                      image.rgb.size() == std::size_t(image.width) * std::size_t(image.height) * 3,
                  "encodePng needs a non-empty image with width x height x 3 bytes");
  // Each scanline starts with its filter type; 0 (none) keeps the encoder simple, zlib does the rest.
  const std::size_t stride = std::size_t(image.width) * 3;
  std::vector<std::uint8_t> raw;
  raw.reserve((stride + 1) * std::size_t(image.height));
  for (int y = 0; y < image.height; ++y) {
    raw.push_back(0);
    const auto row = image.rgb.begin() + std::ptrdiff_t(std::size_t(y) * stride);
    raw.insert(raw.end(), row, row + std::ptrdiff_t(stride));
  }
  uLongf packedSize = compressBound(uLong(raw.size()));
  std::vector<std::uint8_t> packed(packedSize);
  const int rc = compress2(packed.data(), &packedSize, raw.data(), uLong(raw.size()), 9);
  ANIMPACK_ASSERT(rc == Z_OK, "compress2 failed with a buffer of compressBound bytes");
  packed.resize(packedSize);

  std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<std::uint8_t> header;
  putBE32(header, std::uint32_t(image.width));
  putBE32(header, std::uint32_t(image.height));
  header.insert(header.end(), {8, 2, 0, 0, 0});  // 8 bits, RGB, deflate, adaptive filters, no interlace
  chunk(png, "IHDR", header);
  chunk(png, "IDAT", packed);
  chunk(png, "IEND", {});
  return png;
}

}  // namespace animpack::core
