#pragma once
// The decoded-clip JSON of docs/ARCHITECTURE.md (`animpack decode`, `animpack sample`): every
// frame's local transforms, in file units, so other tools (and other compressors) can check the
// error independently or start from the same samples.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/runtime/pack.h"

namespace animpack::core {

/// Everything but the frames: the clip's identity, timing, unit and per-joint tolerances.
struct ClipJsonHeader {
  std::string clip;
  std::uint32_t clipIndex = 0;
  double startTime = 0;    ///< s, source time of frame 0
  double sampleRate = 30;  ///< Hz: frame f is at startTime + f / sampleRate
  std::uint32_t frameCount = 0;
  double unitToCm = 1;    ///< cm per file unit
  double sceneScale = 1;  ///< x: scene cm are file units x unitToCm x sceneScale (tolerances and displacements are)
  std::vector<std::string> names;
  std::vector<std::int32_t> parents;
  std::vector<runtime::JointTolerance> tolerances;  ///< one per joint
  std::string source;                               ///< the source file name
  std::optional<std::string> sourceClip;  ///< the animation's own name; none when the pack does not record it (null)
  /// Morph curves (format version 6): one per curve of the file or pack.
  struct Curve {
    std::string name, node, target;
    std::uint32_t targetIndex = 0;
    float precisionCm = 0, displacementCm = 0;
  };
  std::vector<Curve> curves;
};

/// Fills `weights` (one per curve) with frame `frame`'s morph weights.
using ClipJsonCurveFrame = std::function<void(std::uint32_t frame, std::span<float> weights)>;

/// Fills `pose` (one transform per joint) with frame `frame`'s local transforms.
using ClipJsonFrame = std::function<void(std::uint32_t frame, std::span<runtime::Transform> pose)>;

/// {"clip","source","source_clip","clip_index","start_time","sample_rate","frame_count","unit_to_cm","scene_scale",
///  "joints":[{"name","parent","precision_cm","shell_cm"}],
///  "frames":[[[tx,ty,tz,qx,qy,qz,qw,sx,sy,sz] per joint] per frame],
///  "curves":[{"name","kind":"morph","node","target","target_index","precision_cm","displacement_cm"}],
///  "curve_frames":[[weight per curve] per frame]} (empty arrays without curves).
std::string clipJson(const ClipJsonHeader& header, const ClipJsonFrame& frame, const ClipJsonCurveFrame& curves = {});

/// clipJson() of a pack's clip as the runtime decodes it, frame by frame. With `rateHz`, the frames
/// are samples at start_time + k / rateHz (k = 0 .. floor(duration x rateHz)) through the runtime's
/// Player, and sample_rate is rateHz: a check between frames. A clip with root motion has it
/// folded back into its root joint (runtime::applyRootMotion, the source's pose) unless
/// `foldRootMotion` is false (the in-place tracks); no joint is ever added. An additive clip gives
/// the pose its deltas make on their base (base and delta each sampled at the time, then applied,
/// as a game does), or with `additiveDeltas` the deltas themselves.
std::string decodedClipJson(const runtime::Pack& pack, const runtime::PackClip& clip, std::optional<double> rateHz = {},
                            bool foldRootMotion = true, bool additiveDeltas = false);
/// Samples at k / rateHz for k = 0 .. floor(duration x rateHz).
std::uint32_t sampleCount(double durationS, double rateHz);

}  // namespace animpack::core
