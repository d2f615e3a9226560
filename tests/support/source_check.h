#pragma once
// An independent check of a compressed clip against its source file, for the fidelity tests and
// benchmarks: it reads the file with Assimp itself (not through animpack's importer), interpolates
// the source keys in double precision (lerp, shortest-path slerp from sines), composes every joint
// with Eigen in double, decodes the clip with the runtime's Player at the same instants and measures
// the shell-vertex distance in centimetres. It shares no code with core/compress/error_metric.

#include <filesystem>
#include <span>
#include <string>

#include "core/io/asset_importer.h"
#include "core/runtime/clip_view.h"

namespace animpack::test {

struct SourceCheck {
  double maxCm = 0;          ///< largest error at the checked instants
  double maxAtFramesCm = 0;  ///< at frame times only
  std::string worstJoint;
  double worstFrame = 0;  ///< frame position (fractional between frames)
  std::vector<double> jointMaxAtFramesCm;
  std::string error;  ///< non-empty when the file could not be read
};

/// Checks clip `clipIndex` of `file` (imported by animpack as `asset`) decoded from `view` at
/// `subSteps` evenly spaced instants per frame interval (the frame itself included), with the
/// given shell distances (cm, per joint).
/// An additive `view` is applied to `additiveBase` first (the rest pose when it is nullptr), both
/// sampled by the runtime at the same instant (the base at `baseFrame` when it is >= 0).
SourceCheck checkAgainstSource(const std::filesystem::path& file, const core::ImportedAsset& asset,
                               std::uint32_t clipIndex, const runtime::ClipView& view, std::span<const float> shellCm,
                               int subSteps, const runtime::ClipView* additiveBase = nullptr,
                               std::int32_t baseFrame = -1);

/// Compresses every clip of `file` at the default settings (0.01 cm on a 3 cm shell) and checks it
/// with checkAgainstSource at `subSteps`; returns a description of every clip over its precision
/// (x 1.001) or of a failure, empty when all hold. `worstCm` receives the largest error seen.
std::string compressAndCheck(const std::filesystem::path& file, int subSteps, double* worstCm = nullptr);

}  // namespace animpack::test
