#pragma once
// What an imported file holds for animpack: the skeleton, its clips and skinned meshes, the unit
// and what the importer noticed. Made by core/io/asset_importer.h, read by the compressor, the CLI
// and the studio.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/anim/morph.h"
#include "core/anim/raw_clip.h"
#include "core/anim/skeleton.h"
#include "core/anim/skinned_mesh.h"

namespace animpack::core {

/// One thing the importer noticed about a file (a unit assumption, a pivot helper, a single-key clip).
struct Diagnostic {
  enum class Severity { Info, Warning, Error };
  Severity severity = Severity::Info;
  std::string message;
};

/// An imported rig with its animations, in the file's own length unit.
struct ImportedAsset {
  std::string file;    ///< the path as given
  std::string format;  ///< lower-case file extension, e.g. "fbx"
  Skeleton skeleton;
  std::vector<RawClip> clips;  ///< one per aiAnimation, in Assimp's order
  std::vector<SkinnedMesh> meshes;
  std::vector<MorphCurve> curves;  ///< every morph target of the file's nodes (RawClip::curves: which a clip animates)
  double unitToCm = 1;             ///< centimetres per skeleton length unit
  std::string unitSource;          ///< where unitToCm came from, e.g. "FBX UnitScaleFactor"
  /// x, default 1: the largest axis scale of the transforms above the skeleton (the scene root's),
  /// without the file unit Assimp folds into the root (COLLADA), so that a length in the scene's
  /// centimetres is file units x unitToCm x sceneScale (docs/IMPORT.md "Scene scale"). Meshes and morph
  /// targets are in the skeleton's root space, so the same scale turns theirs into the scene's.
  double sceneScale = 1;
  std::string sceneScaleSource;  ///< where sceneScale came from, e.g. "scene root 'RootNode'"
  std::array<float, 16> sceneRootTransform{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  ///< column-major
  std::uint64_t sourceHash = 0;  ///< FNV-1a of the file's bytes
  std::vector<Diagnostic> diagnostics;

  /// Scene centimetres per skeleton length unit: unitToCm x sceneScale.
  double lengthToCm() const { return unitToCm * sceneScale; }
};

}  // namespace animpack::core
