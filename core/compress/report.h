#pragma once
// The compression report (`compress --report R.json|R.csv`, README "Command line"): one row per
// clip plus totals. Rows are built from a CompressedClip once its size inside the pack is known.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/anim/skeleton.h"
#include "core/base/status.h"
#include "core/compress/compressor.h"

namespace animpack::core {

struct ClipReport {
  std::string file;
  std::string clip;        ///< the pack name (docs/CLIP_NAMES.md)
  std::string sourceClip;  ///< the animation's own name in its file
  std::uint32_t clipIndex = 0;
  std::uint32_t joints = 0;
  std::uint32_t frames = 0;
  double sampleRate = 0;
  std::uint64_t rawBytes = 0;
  std::uint64_t compressedBytes = 0;  ///< the clip's own bytes in the pack
  std::uint64_t residentBytes =
      0;  ///< compressedBytes and what opening the pack derives for the clip (runtime::Pack::clipDerivedBytes)
  float maxErrorCm = 0;               ///< at and between frames
  float maxErrorBetweenFramesCm = 0;  ///< strictly between frames
  float p99ErrorCm = 0;
  std::string worstJoint;
  std::int32_t worstFrame = -1;
  double worstTimeS = 0;  ///< seconds after the first frame
  std::uint64_t keys = 0;
  std::uint32_t defaultTracks = 0, constantTracks = 0, fittedTracks = 0, uniformTracks = 0, rawTracks = 0;
  struct Pinned {
    std::string joint;
    float driftCm = 0, driftUnpinnedCm = 0;
  };
  std::vector<Pinned> pinned;
  std::vector<std::string> wideTracks;  ///< "joint.channel" that needed more than 16 bits
  struct Over {
    std::string joint;
    float maxErrorCm = 0, precisionCm = 0;
    float floorCm = 0;  ///< what float32 samples reach: no storage does better
  };
  std::vector<Over> overPrecision;  ///< joints the storage formats could not bring within precision
  std::string floorReason;  ///< why no storage reaches the precision (CompressionStats::floorReason); empty: none
  double compressMs = 0;
  bool withinPrecision = true;
  float maxVertexErrorCm = -1;  ///< cm, largest skinned-vertex displacement; -1: the file has no skinned mesh
  float skinBoundCm =
      -1;  ///< cm, what the skin is held to (kSkinBoundFactor x the strictest precision); -1: no skinned mesh
  /// "skin" when the skinned vertices are nearer their bound than any joint is to its precision
  /// (as a fraction of each), else "joints": which of the two errors decides the clip's size.
  std::string limitedBy;
  struct JointSetting {
    std::string joint;
    float precisionCm = 0, shellCm = 0;
  };
  std::vector<JointSetting> jointSettings;  ///< each joint's effective precision and shell, skeleton order
  bool loop = false;                        ///< the clip loops
  float seamErrorCm = -1;  ///< cm, looping clips: the jump from the source's last frame to its first; -1 otherwise
  bool droppedLastFrame = false;  ///< the repeated last frame was dropped (frames counts the stored ones)
  /// With `root_motion: extract` (docs/RUNTIME.md "Root motion"): the joint, one cycle's ground distance and
  /// turn, and how far ten cycles lead with the compressed and the source motion.
  struct RootMotion {
    std::string joint;
    float distanceCm = 0, turnDeg = 0, drift10CyclesCm = 0, sourceDrift10CyclesCm = 0;
  };
  std::optional<RootMotion> rootMotion;  ///< none: the root keeps its motion (null)
  std::string
      additiveBase;  ///< additive clips: "rest", "CLIP" or "CLIP@FRAME" (AdditiveRef::spelling); empty: absolute
  /// Morph curves (format version 6): kinds, the curve section's bytes, the largest |weight error| x
  /// displacement (cm; -1: the file has no curves), the worst curve and the curves over precision.
  std::uint32_t defaultCurves = 0, constantCurves = 0, fittedCurves = 0, uniformCurves = 0, rawCurves = 0;
  std::uint64_t curveKeys = 0, curveBytes = 0;
  float maxMorphErrorCm = -1;
  std::string worstCurve;
  struct CurveOver {
    std::string curve;
    float maxErrorCm = 0, precisionCm = 0;
  };
  std::vector<CurveOver> curvesOverPrecision;
  std::string error;  ///< non-empty when the clip failed (then only file/clip are set)

  double ratio() const { return compressedBytes ? double(rawBytes) / double(compressedBytes) : 0.0; }
};

ClipReport makeClipReport(const CompressedClip& clip, const Skeleton& skeleton, const std::string& file,
                          std::uint64_t compressedBytes);

/// The report JSON: {"tool_version","clips":[...],"totals":{...},"pack_bytes"}. `residentBytes`:
/// the packs' files and what opening them derives (totals' resident_bytes).
std::string reportJson(const std::vector<ClipReport>& rows, std::uint64_t packBytes, std::uint64_t residentBytes,
                       const std::string& toolVersion);
/// One clip's report as a JSON object (the form in the report's "clips" array), and back.
std::string clipReportToJson(const ClipReport& report);
Expected<ClipReport> clipReportFromJson(const std::string& text);

/// One CSV row per clip with the scalar keys of the JSON report.
std::string reportCsv(const std::vector<ClipReport>& rows);

const char* channelName(int channel);

}  // namespace animpack::core
