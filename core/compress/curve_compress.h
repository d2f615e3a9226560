#pragma once
// Compression of a clip's morph curves (docs/COMPRESSION.md "Morph targets"): one scalar track per
// curve of the file in the clip's curve section (core/runtime/FORMAT.md "Curves"), each the smallest
// of default, constant, keyed (linear between keys on frames), uniform (a quantized value per frame),
// segmented (a quantized value per frame as lines plus residuals) and raw float32 that keeps the weight within
// precision_cm / displacement_cm. Verified with the runtime's decoder at every frame and at every source key between
// frames, tightened where not.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/anim/morph.h"
#include "core/anim/raw_clip.h"
#include "core/compress/additive_base.h"
#include "core/compress/settings.h"
#include "core/runtime/clip_format.h"

namespace animpack::core {

/// What compressing a clip's curves gave.
struct CurveReport {
  struct Curve {
    runtime::TrackKind kind = runtime::TrackKind::Default;
    float precisionCm = kDefaultPrecisionCm;
    float maxErrorCm = 0;  ///< max over frames and source keys of |decoded - source| x displacement
    std::uint32_t keys = 0;
    bool withinPrecision = true;
  };
  std::vector<Curve> curves;       ///< one per curve of the file
  std::vector<std::string> names;  ///< the curves' names, in the same order
  std::uint32_t defaultCurves = 0, constantCurves = 0, keyedCurves = 0, uniformCurves = 0, rawCurves = 0;
  std::uint32_t segmentedCurves = 0;  ///< every frame as lines between boundaries plus residuals (version 9)
  std::uint64_t keys = 0;
  std::size_t bytes = 0;  ///< the curve section
  float maxMorphErrorCm = 0;
  std::int32_t worstCurve = -1;
  double worstTimeS = 0;  ///< seconds after the first frame
  bool withinPrecision = true;
};

/// A clip's curves to compress, laid out as its joints were (loop layout, frames kept).
struct CurveJob {
  std::span<const MorphCurve> curves;        ///< the file's
  const RawClip* clip = nullptr;             ///< the source clip (its keys: RawClip::curves)
  std::span<const EffectiveCurve> settings;  ///< one per curve (missing: the default precision)
  std::uint32_t frames = 0;                  ///< frames stored (one less than the source's with dropLast)
  bool dropLast = false;                     ///< the source's last frame repeats its first and decodes as frame 0
  const AdditiveBase* base = nullptr;        ///< additive clip: curves store weight minus the base's
  std::span<const Transform> restPose;       ///< the skeleton's (to open the clip block)
  std::span<const double> toleranceScales;   ///< per curve, < 1: held tighter (the skin asked for it); empty: 1
};

/// Whether every curve's last frame repeats its first within its precision (a loop may drop it).
bool curvesClose(std::span<const MorphCurve> curves, const RawClip& clip, std::span<const EffectiveCurve> settings);

/// Compresses the curves and appends the section to the clip block `block` (a clip of `job.frames`
/// frames); nothing is appended when the file has no curves.
CurveReport appendCurves(std::vector<std::uint8_t>& block, const CurveJob& job);

}  // namespace animpack::core
