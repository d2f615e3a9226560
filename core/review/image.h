#pragma once
// An RGB picture for the review packet and its PNG encoding (zlib-compressed, no other library).

#include <cstdint>
#include <vector>

namespace animpack::core {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

/// 8-bit RGB pixels, rows top to bottom.
struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  ///< width x height x 3

  Image() = default;
  Image(int w, int h, Rgb fill);
  void set(int x, int y, Rgb c);
  /// Blends `c` over the pixel with `alpha` in [0, 1] (antialiased edges).
  void blend(int x, int y, Rgb c, float alpha);
  Rgb at(int x, int y) const;
};

/// The image as a PNG file (colour type 2, 8 bits, one IDAT).
std::vector<std::uint8_t> encodePng(const Image& image);

}  // namespace animpack::core
