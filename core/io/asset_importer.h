#pragma once
// Imports a rig and its animations through Assimp (the contract: README.md, "What gets imported").

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/anim/skeleton.h"
#include "core/anim/skinned_mesh.h"
#include "core/base/status.h"

namespace animpack::core {

struct Diagnostic {
  enum class Severity { Info, Warning, Error };
  Severity severity = Severity::Info;
  std::string message;
};
const char* severityName(Diagnostic::Severity severity);

struct ImportOptions {
  std::optional<double> unitToCm;    ///< overrides the unit the file declares (cm per file unit)
  std::optional<double> sampleRate;  ///< resample every clip at this rate (Hz) instead of its key grid
};

struct ImportedAsset {
  std::string file;                    ///< the path as given
  std::string format;                  ///< lower-case file extension, e.g. "fbx"
  Skeleton skeleton;
  std::vector<RawClip> clips;          ///< one per aiAnimation, in Assimp's order
  std::vector<SkinnedMesh> meshes;
  double unitToCm = 1;                 ///< centimetres per skeleton length unit
  std::string unitSource;              ///< where unitToCm came from, e.g. "FBX UnitScaleFactor"
  std::array<float, 16> sceneRootTransform{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  ///< column-major
  std::uint64_t sourceHash = 0;        ///< FNV-1a of the file's bytes
  std::vector<Diagnostic> diagnostics;
};

/// Imports `path`. Errors name the file and the problem: missing, a directory, empty, a format
/// Assimp cannot read, nothing animated, NaN keys, too many joints.
Expected<ImportedAsset> importAsset(const std::filesystem::path& path, const ImportOptions& options = {});

/// FNV-1a 64 hash of a file's bytes (0 if unreadable).
std::uint64_t hashFile(const std::filesystem::path& path);

}  // namespace animpack::core
