#pragma once
// JSON forms of an imported asset (docs/ARCHITECTURE.md: `inspect --json`).

#include <string>

#include "core/io/asset_importer.h"

namespace animpack::core {

/// The `inspect --json` object: file, unit, scene-root transform, joints, clips, meshes, diagnostics.
std::string inspectJson(const ImportedAsset& asset);

}  // namespace animpack::core

namespace animpack::core {

/// Human-readable summary for `animpack inspect`: skeleton tree, clips, meshes, unit, scene-root
/// transform and diagnostics.
std::string inspectText(const ImportedAsset& asset);

}  // namespace animpack::core
