#pragma once
// CompressJob: one raw clip -> one compressed clip (docs/COMPRESSION.md "How it compresses").
// Pipeline: sign continuity (import) -> default/constant detection -> hierarchy-aware local
// tolerances -> per sub-track the smallest of keyed Catmull-Rom fitting and uniform sampling (raw
// float32 samples where neither reaches the tolerance) -> pinned joints recomputed against their
// compressed ancestors -> the object-space verification loop, which decodes with the runtime's
// Player, measures every joint at every frame and between frames against the source's own keys
// and tightens the tracks that contribute to any error above its joint's precision until none is
// left (or says which joints cannot get there, and how close float32 could come).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/anim/imported_asset.h"
#include "core/anim/raw_clip.h"
#include "core/anim/skeleton.h"
#include "core/anim/skinned_mesh.h"
#include "core/base/status.h"
#include "core/compress/additive_base.h"
#include "core/compress/curve_compress.h"
#include "core/compress/error_metric.h"
#include "core/compress/root_motion.h"
#include "core/compress/settings.h"
#include "core/compress/track_encoding.h"

namespace animpack::core {

struct JointReport {
  float maxErrorCm = 0;
  float precisionCm = kDefaultPrecisionCm;
  float shellCm = kDefaultShellCm;
  bool pinned = false;
  bool withinPrecision = true;
  bool unreachable = false;          ///< the storage formats could not get within precision
  float floorCm = 0;                 ///< when unreachable: the error of float32 samples (the floor)
  std::array<TrackKind, 3> kinds{};  ///< rotation, translation, scale
  std::array<bool, 3> wide{};        ///< sub-track needed more than 16 bits per component
  std::uint32_t keys = 0;            ///< keys in the key stream
};

struct PinnedReport {
  std::uint32_t joint = 0;
  float driftCm = 0;          ///< max object-space error of the pinned joint
  float driftUnpinnedCm = 0;  ///< the same joint compressed without pinning, at the same tolerance
};

/// The report of one compression (README "Command line": the report fields).
struct CompressionStats {
  std::size_t rawBytes = 0;   ///< 10 float32 x joints x frames
  std::size_t clipBytes = 0;  ///< the clip's data block (a pack adds its table entry, names, tolerances)
  float maxErrorCm = 0;
  float p99ErrorCm = 0;
  std::int32_t worstJoint = -1;
  std::int32_t worstFrame = -1;
  float maxErrorBetweenFramesCm = 0;  ///< the largest error strictly between frames (maxErrorCm covers both)
  double worstTimeS = 0;              ///< seconds after the first frame of the largest error
  std::uint32_t defaultTracks = 0, constantTracks = 0, keyedTracks = 0, uniformTracks = 0, rawTracks = 0;
  std::uint64_t keys = 0;
  std::uint32_t wideTracks = 0;  ///< sub-tracks that needed more than 16 bits per component
  std::vector<JointReport> joints;
  std::vector<PinnedReport> pinned;
  std::vector<float> errors;  ///< frame-major joints x frames error table at frames, cm
  std::vector<float>
      betweenErrors;  ///< frame-major joints x (frames - 1): the largest error inside each interval (f, f+1), cm
  float maxVertexErrorCm =
      -1;  ///< largest skinned-vertex displacement at and between frames, cm; -1 without a skinned mesh
  double compressMs = 0;
  /// Looping clips: the jump from the source's last frame to its first on the shell, the largest
  /// over joints (cm); -1 when the clip does not loop.
  float seamErrorCm = -1;
  std::uint32_t iterations = 0;  ///< verification passes
  /// With `root_motion: extract`: the cycle's motion and ten cycles' drift (core/compress/root_motion.h).
  RootMotionReport rootMotion;
  /// Why no storage brings the clip within precision, when the floor (what float32 samples of every
  /// track reach) is itself over it: the source jumps, or float32 cannot hold the precision on the
  /// worst joint's lever; empty otherwise.
  std::string floorReason;
  /// The morph curves (format version 6): their kinds, bytes and errors; empty without curves.
  CurveReport curves;
  bool withinPrecision = true;
};

struct CompressedClip {
  std::string name;
  std::uint32_t clipIndex = 0;
  double startTime = 0;
  float sampleRate = 30.f;
  std::uint32_t frameCount = 1;
  bool loop = false;
  bool wrap = false;  ///< loops through a wrap interval from the last frame to the first (format version 3)
  bool droppedLastFrame =
      false;  ///< the source's last frame repeated its first and was dropped: frameCount is one less
  std::vector<std::uint8_t> data;    ///< the clip block of FORMAT.md
  AdditiveRef additive;              ///< an additive clip's base; its block holds deltas
  std::optional<AdditiveBase> base;  ///< an additive clip's base as it decodes (what its deltas apply to)
  EffectiveSettings settings;
  std::uint64_t settingsHash = 0;
  CompressionStats stats;
};

/// Per-clip state kept between runs, so that a recompress after a small settings change re-encodes
/// only the sub-tracks whose tolerance changed. Not thread-safe: one job at a time per context.
class CompressorContext {
 public:
  CompressorContext();
  ~CompressorContext();
  CompressorContext(CompressorContext&&) noexcept;
  CompressorContext& operator=(CompressorContext&&) noexcept;
  void clear();
  struct State;
  std::unique_ptr<State> state;
};

struct AdditiveSetup;
class CompressJob;
CompressJob makeCompressJob(const ImportedAsset& asset, const RawClip& clip, EffectiveSettings settings,
                            AdditiveSetup additive);

/// Made only by makeCompressJob (core/compress/compress_setup.h), so every compression of a clip
/// gets the same inputs: its skeleton and units, the file's meshes (the report then gives the
/// skinned-vertex error, and with mesh-derived shells, EffectiveSettings::verifySkin, the
/// verification loop keeps every vertex within 1.5 x the precision at and between frames), the
/// object-space up axis root motion is extracted about, and an additive clip's base (stored as
/// deltas from the *decoded* base, so errors do not stack, and verified as base + delta against
/// the source; its skinned-vertex error is measured on the base).
class CompressJob {
 public:
  /// Checks the inputs (skeleton, clip, settings, additive base) and names what is wrong.
  Status validate() const;
  /// Compresses. `context` (optional) makes repeated runs on the same clip incremental; `cancel`
  /// (optional) is polled between passes.
  Expected<CompressedClip> run(CompressorContext* context = nullptr, const std::atomic<bool>* cancel = nullptr) const;

  /// Aggressiveness of the initial error budget (see localTolerances; the verification loop keeps
  /// the bound). 6 measured best on the corpus: fewer bytes, a few more verification passes.
  static constexpr double kAggressiveness = 6.0;

 private:
  friend CompressJob makeCompressJob(const ImportedAsset& asset, const RawClip& clip, EffectiveSettings settings,
                                     AdditiveSetup additive);
  /// `unitToCm` converts the clip's lengths to centimetres (ImportedAsset::unitToCm).
  CompressJob(const Skeleton& skeleton, const RawClip& clip, double unitToCm, EffectiveSettings settings);

  /// Per joint, the jump from the clip's last frame to its first on the shell (cm).
  std::vector<float> seamErrors(const RawClip& clip, std::span<const float> shells) const;
  /// The pipeline for one layout of the clip (`clip` is m_clip, or its in-place form with root
  /// motion taken out into `rootMotion`, with or without its last frame).
  Expected<CompressedClip> runLayout(CompressorContext& ctx, const RawClip& clip, LoopLayout layout, bool loop,
                                     std::chrono::steady_clock::time_point started, const std::atomic<bool>* cancel,
                                     const RootMotionTrack* rootMotion) const;
  /// Appends the clip's curve section to `out` and measures the skin with it (`rest`: the curves'
  /// rest weights), holding the curves tighter while the skin is over its bound.
  void appendAndCheckCurves(CompressedClip& out, std::span<const float> rest) const;

  const Skeleton& m_skeleton;
  const RawClip& m_clip;
  double m_unitToCm;
  EffectiveSettings m_settings;
  std::span<const SkinnedMesh> m_meshes;
  std::vector<MorphCurve> m_curves;  ///< the file's morph curves at the job's scene scale (keys: RawClip::curves)
  std::uint8_t m_upAxis = 1;
  std::optional<AdditiveBase> m_base;
  AdditiveRef m_additive;
  std::string m_setupError;  ///< why the job cannot run (an additive base that could not be made)
};

}  // namespace animpack::core
