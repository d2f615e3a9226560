#pragma once
// Imports a rig and its animations through Assimp (the contract: docs/IMPORT.md, "What gets imported").

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/anim/imported_asset.h"
#include "core/base/status.h"
#include "core/compress/joint_order.h"
#include "core/compress/settings.h"

namespace animpack::core {

const char* severityName(Diagnostic::Severity severity);

struct ImportOptions {
  std::optional<double> unitToCm;    ///< overrides the unit the file declares (cm per file unit)
  std::optional<double> sampleRate;  ///< resample every clip at this rate (Hz) instead of its key grid
  JointOrder jointOrder;             ///< the order the joints come in (settings `lod`)
};

/// What the settings ask of the import: unit_to_cm, sample_rate and lod.
ImportOptions importOptionsOf(const CompressionSettings& settings);

/// Imports `path`. Errors name the file and the problem: missing, a directory, empty, a format
/// Assimp cannot read, nothing animated, NaN keys, too many joints.
Expected<ImportedAsset> importAsset(const std::filesystem::path& path, const ImportOptions& options = {});

/// FNV-1a 64 hash of a file's bytes (0 if unreadable).
std::uint64_t hashFile(const std::filesystem::path& path);

}  // namespace animpack::core
