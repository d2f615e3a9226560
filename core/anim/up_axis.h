#pragma once
// Which way is up when a rig is shown: as imported (Y up) or turned for Z-up and X-up files. A
// display choice saved in studio projects; it never changes what is compressed.

#include <optional>
#include <string_view>

namespace animpack::core {

/// The display orientation of an asset.
enum class UpAxis { AsImported, ZUp, XUp };

/// "as_imported", "z_up" or "x_up" (the project-file spelling).
constexpr const char* upAxisName(UpAxis axis) {
  switch (axis) {
    case UpAxis::ZUp: return "z_up";
    case UpAxis::XUp: return "x_up";
    case UpAxis::AsImported: break;
  }
  return "as_imported";
}

/// The axis named by upAxisName(), or nullopt for any other text.
constexpr std::optional<UpAxis> upAxisFromName(std::string_view name) {
  for (UpAxis axis : {UpAxis::AsImported, UpAxis::ZUp, UpAxis::XUp})
    if (name == upAxisName(axis)) return axis;
  return std::nullopt;
}

}  // namespace animpack::core
