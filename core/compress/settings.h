#pragma once
// Compression settings: the one JSON schema (docs/SETTINGS.md) shared by the CLI (--settings,
// presets) and the studio's project files, with per-joint, per-morph-target and per-clip overrides by
// exact name or wildcard. Every field is optional so layers (preset, settings file, command-line flags,
// studio edits) can be stacked with merge(); resolve() turns the stack into one value per joint and
// per morph curve for a clip.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/anim/morph.h"
#include "core/anim/skeleton.h"
#include "core/anim/skinned_mesh.h"
#include "core/base/status.h"
#include "core/compress/joint_order.h"

namespace animpack::core {

enum class RotationFormat : std::uint8_t {
  Q48,  ///< 48-bit smallest-three (3 x 15 bits): ~4.3e-5 per component
  Q32,  ///< 32-bit smallest-three (3 x 10 bits): used where it meets the precision and saves bytes
};

/// Whether a clip loops (docs/SETTINGS.md `loop`).
enum class LoopPolicy : std::uint8_t {
  Auto,  ///< loops when its last frame repeats its first within every joint's precision
  On,    ///< loops; a last frame that does not repeat the first is followed by the wrap interval
  Off,   ///< never loops: sampling clamps to the first and last frame
};

/// What happens to a clip's root motion (docs/SETTINGS.md `root_motion`).
enum class RootMotionMode : std::uint8_t {
  Keep,     ///< the root joint keeps its motion
  Extract,  ///< the ground-plane translation and the turn about the up axis go into a root-motion track
};

inline constexpr float kDefaultPrecisionCm = 0.01f;
inline constexpr float kDefaultShellCm = 3.f;
inline constexpr float kDefaultSnapshotIntervalS = 1.f;
/// The shell value `"shell_cm": "mesh"` (CLI `--shell mesh`): each joint gets the distance of the
/// farthest vertex it influences; resolve() replaces it, so it never reaches an EffectiveJoint.
/// Negative, so code taking a shell from user input must refuse non-positive numbers (the JSON
/// parser and the CLI do) or a -1 would read as "mesh".
inline constexpr float kShellFromMesh = -1.f;
/// Mesh-derived shells shorter than this (cm) count as "influences no vertex".
inline constexpr float kMinMeshShellCm = 1e-3f;
/// The shortest mesh-derived shell (cm): a joint whose farthest vertex is closer gets this, so a
/// joint that carries only a few vertices near it still has its rotation measured (docs/SETTINGS.md).
inline constexpr float kMeshShellFloorCm = 1.f;
/// The skin's bound, as a multiple of the strictest joint precision of the clip: the skin check keeps
/// every skinned vertex within it, at and between frames (docs/SETTINGS.md "Shells").
inline constexpr float kSkinBoundFactor = 1.5f;
inline constexpr float kMinPrecisionCm = 1e-6f, kMaxPrecisionCm = 1000.f, kMinShellCm = 1e-4f,
                       kMaxShellCm = 1e5f;                            ///< cm, what validate() accepts
inline constexpr double kMinSceneScale = 1e-6, kMaxSceneScale = 1e6;  ///< what validate() accepts of scene_scale

/// One entry of "joints": values that apply to the joints a name or wildcard matches.
struct JointOverride {
  std::optional<float> precisionCm;  ///< cm, max object-space error on the shell
  std::optional<float> shellCm;      ///< cm, distance of the virtual vertices from the joint, or kShellFromMesh
  std::optional<bool> pinned;        ///< recompute the track against compressed ancestors (no inheritance)
  bool operator==(const JointOverride&) const = default;
};

/// One entry of "morphs": values for the morph curves (MorphCurve::name, "NODE/TARGET") a name or
/// wildcard matches.
struct MorphOverride {
  std::optional<float> precisionCm;  ///< cm, the most a vertex may move through the curve's weight error
  bool operator==(const MorphOverride&) const = default;
};

/// One entry of "clips": any top-level value, for the clips a name or wildcard matches.
struct ClipOverride {
  std::optional<float> precisionCm;
  std::optional<float> shellCm;
  std::optional<RotationFormat> rotationFormat;
  std::optional<float> snapshotIntervalS;
  std::optional<double> unitToCm;
  std::optional<double> sampleRate;
  std::vector<std::pair<std::string, JointOverride>> joints;
  std::vector<std::pair<std::string, MorphOverride>> morphs;
  std::optional<std::string>
      name;  ///< the clip's pack name instead of the automatic one (docs/CLIP_NAMES.md); exact keys only
  std::optional<LoopPolicy> loop;
  std::optional<RootMotionMode> rootMotion;
  std::optional<std::string>
      rootJoint;  ///< the root-motion joint; unset (null): the first animated joint that translates
  std::optional<std::string> additiveBase;  ///< see CompressionSettings::additiveBase
  std::optional<double> sceneScale;         ///< see CompressionSettings::sceneScale
  bool operator==(const ClipOverride&) const = default;
};

struct CompressionSettings {
  std::optional<float> precisionCm;  ///< cm, default 0.01: max object-space error on the shell
  /// cm, virtual-vertex distance from each joint, or kShellFromMesh. Default: "mesh" when the file
  /// has a mesh that follows the skeleton, else shellFallbackCm.
  std::optional<float> shellCm;
  /// cm, default 3: the shell of joints a mesh gives no distance (no mesh follows the skeleton, or
  /// no vertex follows the joint or anything below it).
  std::optional<float> shellFallbackCm;
  std::optional<RotationFormat> rotationFormat;  ///< default q48
  std::optional<float> snapshotIntervalS;        ///< s, default 1: seek snapshot spacing
  std::optional<double> unitToCm;                ///< cm per file unit; default: what the file declares
  /// x, the scale of the transforms above the skeleton (ImportedAsset::sceneScale), for an engine
  /// that drops or rescales the scene root; default: what the file's scene root gives.
  std::optional<double> sceneScale;
  std::optional<double> sampleRate;                           ///< Hz; default: the clip's key grid
  std::vector<std::pair<std::string, JointOverride>> joints;  ///< name or wildcard -> override, file order
  std::vector<std::pair<std::string, MorphOverride>> morphs;  ///< curve name or wildcard -> override, file order
  std::vector<std::pair<std::string, ClipOverride>> clips;    ///< name or wildcard -> override
  std::string description;                   ///< what the settings are for (presets say when to use them)
  std::optional<LoopPolicy> loop;            ///< default auto: whether clips loop
  std::optional<RootMotionMode> rootMotion;  ///< default keep
  std::optional<std::string> rootJoint;      ///< default null: the first animated joint that translates
  /// Default null (not additive): "rest", "CLIP" or "CLIP@FRAME", the pose the clip is stored as a
  /// delta from (docs/SETTINGS.md `additive_base`); an empty string is an explicit null.
  std::optional<std::string> additiveBase;
  /// Default source: the order the pack stores its joints in, "source", "depth" or a list of joints
  /// kept first (docs/SETTINGS.md `lod`). The whole pack shares one skeleton, so no clip overrides it.
  std::optional<JointOrder> lod;

  /// Checks every value (ranges, patterns); errors name the key.
  Status validate() const;
  /// Parses the JSON schema; errors name `source` (a file name), the key and the problem.
  static Expected<CompressionSettings> fromJson(std::string_view text, std::string_view source);
  /// Reads and parses a settings file.
  static Expected<CompressionSettings> load(const std::filesystem::path& path);
  /// The JSON form (only the values that are set).
  std::string toJson() const;
  /// Stacks `over` on top: values it sets win; rules for the same pattern are replaced, new ones added.
  void merge(const CompressionSettings& over);
  /// FNV-1a of the canonical JSON.
  std::uint64_t hash() const;
  bool operator==(const CompressionSettings& other) const { return toJson() == other.toJson(); }
};

/// The values one joint is compressed with.
struct EffectiveJoint {
  float precisionCm = kDefaultPrecisionCm;
  float shellCm = kDefaultShellCm;
  bool pinned = false;
  bool operator==(const EffectiveJoint&) const = default;
};

/// The values one morph curve is compressed with.
struct EffectiveCurve {
  /// cm; the curve's weight tolerance is precisionCm / MorphCurve::displacementCm.
  float precisionCm = kDefaultPrecisionCm;
  bool operator==(const EffectiveCurve&) const = default;
};

/// Settings resolved for one clip of one skeleton.
struct EffectiveSettings {
  std::vector<EffectiveJoint> joints;
  std::vector<EffectiveCurve> curves;  ///< one per morph curve of the file, in its order
  RotationFormat rotationFormat = RotationFormat::Q48;
  float snapshotIntervalS = kDefaultSnapshotIntervalS;
  std::optional<double> unitToCm;
  std::optional<double> sampleRate;
  /// Some shell came from "mesh": the compressor also verifies the skin (its vertices within
  /// 1.5 x the precision, at and between frames) when it is given the meshes.
  bool verifySkin = false;
  LoopPolicy loop = LoopPolicy::Auto;
  RootMotionMode rootMotion = RootMotionMode::Keep;
  std::string rootJoint;     ///< empty: the first animated joint that translates
  std::string additiveBase;  ///< empty: not additive; else "rest", "CLIP" or "CLIP@FRAME" as the settings spell it
  /// x, default 1: the scene scale the clip's lengths are measured at (the settings' scene_scale,
  /// else the file's): centimetres are file units x unit_to_cm x sceneScale.
  double sceneScale = 1;

  /// Covers every effective value; without curves, the hash of settings from before curves existed.
  std::uint64_t hash() const;
  bool operator==(const EffectiveSettings&) const = default;
};

/// Applies the precedence of docs/SETTINGS.md, strongest first: the clip override (its joint rules,
/// then its own values), the exact joint name, the longest matching wildcard, the parent joint's
/// effective value, the defaults. `pinned` is never inherited. Without a shell anywhere in the
/// settings, shells are "mesh" when `meshes` has a vertex that follows a joint. A "mesh" shell takes
/// the distance of the farthest vertex of `meshes` the joint influences (scene cm through `unitToCm`,
/// or the clip's unit_to_cm override, times the scene scale: the settings' scene_scale, else
/// `sceneScale`, the file's; EffectiveSettings::sceneScale says which), at least kMeshShellFloorCm; a joint that
/// influences none takes its parent's shell when a joint below it moves a vertex (a root: the top-level number or
/// shell_fallback_cm), else shell_fallback_cm (3 cm by default). Each of `curves` gets its precision
/// from the clip's morph rule, the clip's own value, the top-level morph rule (exact, then longest
/// wildcard), the top-level value, the default; curves inherit nothing.
EffectiveSettings resolve(const CompressionSettings& settings, const Skeleton& skeleton, std::string_view clipName,
                          std::span<const SkinnedMesh> meshes = {}, double unitToCm = 1.0,
                          std::span<const MorphCurve> curves = {}, double sceneScale = 1.0);

/// The `clips` rule that applies to a clip: an exact name, else the longest matching wildcard; nullptr if none.
const ClipOverride* clipRule(const CompressionSettings& settings, std::string_view clipName);
/// A clip's effective `additive_base` (EffectiveSettings::additiveBase) without resolving its joints.
std::string additiveBaseSetting(const CompressionSettings& settings, std::string_view clipName);

/// True when any shell value (top level, joint rule, clip or clip joint rule) is "mesh".
bool usesMeshShells(const CompressionSettings& settings);
/// True when some vertex of `meshes` follows a joint (a skinned mesh or one attached to a joint):
/// the meshes resolve() derives default shells from.
bool hasFollowingVertices(std::span<const SkinnedMesh> meshes);

/// Glob match: `*` any run, `?` one character; everything else literal and case-sensitive.
bool wildcardMatch(std::string_view pattern, std::string_view name);
bool isWildcard(std::string_view pattern);

const char* rotationFormatName(RotationFormat format);
/// "auto", "true" or "false" (the JSON spelling).
const char* loopPolicyName(LoopPolicy policy);
/// "keep" or "extract" (the JSON spelling).
const char* rootMotionModeName(RootMotionMode mode);

}  // namespace animpack::core
