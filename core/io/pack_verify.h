#pragma once
// Independent verification of a pack against its sources (`animpack verify`): re-import each source,
// decode every clip with the runtime and measure the error of every joint at every frame and
// between frames (against the source's own keys) with the tolerances stored in the pack.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/base/status.h"
#include "core/io/asset_importer.h"
#include "core/io/isolated_import.h"
#include "core/runtime/pack.h"

namespace animpack::core {

/// The source clip of every pack clip (empty where no source was given for it), imported at the
/// pack's unit and the clip's sample rate. Errors: a source that fails to import or whose skeleton
/// differs from the pack's. `importer` imports each source (empty: importAsset() in this process;
/// the CLI passes its child-process importer).
struct SourceClips {
  std::vector<ImportedAsset> assets;
  std::vector<std::optional<RawClip>> clips;  ///< aligned with pack.clips()
  std::vector<std::int32_t> assetOf;          ///< aligned with pack.clips(): the index into assets, -1 without a source
};
Expected<SourceClips> matchSources(const runtime::Pack& pack, const std::vector<std::filesystem::path>& sources,
                                   const ImportFunction& importer = {});

struct ClipVerification {
  std::string name;
  std::string sourceFile;
  bool checked = false;  ///< a source was given for this clip
  std::string problem;   ///< why the clip cannot be compared (frame count, missing clip)
  float maxErrorCm = 0;  ///< at and between frames
  float maxErrorBetweenFramesCm = 0;
  float p99ErrorCm = 0;
  std::string worstJoint;
  std::int32_t worstFrame = -1;
  double worstTimeS = 0;                   ///< seconds after the first frame of the largest error
  std::vector<std::string> overPrecision;  ///< joints above their precision at some time
  float maxVertexErrorCm = -1;  ///< cm, the source's skinned vertices, at and between frames; -1: no skinned mesh
  float skinBoundCm = -1;       ///< cm, kSkinBoundFactor x the clip's strictest precision; -1: no skinned mesh
  /// "skin" when the skinned vertices are nearer their bound than any joint is to its precision
  /// (as a fraction of each), else "joints".
  std::string limitedBy;
  /// Morph curves (format version 6): the largest |weight error| x displacement (cm) at every frame,
  /// at three points between frames and at the source's keys; -1 without curves. Curves above their
  /// precision join overPrecision.
  float maxMorphErrorCm = -1;
  std::string worstCurve;
  bool withinPrecision() const { return checked && problem.empty() && overPrecision.empty(); }
};

/// Compares every clip that has a source; see ClipVerification.
std::vector<ClipVerification> verifyPack(const runtime::Pack& pack, const SourceClips& sources);

}  // namespace animpack::core
