#pragma once
// Builds pack files (.anpk, core/runtime/FORMAT.md) from compressed clips or from clips of other
// packs (merging); writeFileAtomic() (core/io/atomic_file.h) writes them.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/anim/morph.h"
#include "core/anim/skeleton.h"
#include "core/base/status.h"
#include "core/io/atomic_file.h"  // writeFileAtomic(), which writes the packs
#include "core/compress/compressor.h"
#include "core/runtime/pack.h"

namespace animpack::core {

/// Everything a pack stores about one clip.
struct PackClipRecord {
  std::string name;
  std::string sourceFile;  ///< file name of the source (no directories)
  std::string sourceClip;  ///< the source animation's own name (empty: unknown)
  std::uint32_t clipIndex = 0;
  double startTime = 0;
  float sampleRate = 30.f;
  std::uint32_t frameCount = 1;
  bool loop = false;
  std::uint64_t settingsHash = 0;
  std::uint64_t sourceHash = 0;
  std::vector<runtime::JointTolerance> tolerances;  ///< per joint
  std::vector<float> curvePrecisions;               ///< per curve of the pack (format version 6), cm
  float sceneScale = 1.f;              ///< x (format version 8): the scene scale the clip's lengths were measured at
  std::span<const std::uint8_t> data;  ///< the clip block
  AdditiveRef additive;                ///< an additive clip's base: a clip of the same pack, by pack name
};

/// One curve of the pack (format version 6): a morph target's weight.
struct PackCurveRecord {
  std::string name;  ///< "NODE/TARGET" (core/anim/morph.h)
  std::string node;  ///< the prefix of `name` before its '/'
  std::string target;
  std::uint32_t targetIndex = 0;
  float displacementCm = 0;
  float restWeight = 0;
  bool operator==(const PackCurveRecord&) const = default;
};

struct PackSkeletonRecord {
  std::vector<std::string> names;
  std::vector<std::int32_t> parents;
  std::vector<Transform> restPose;
  float unitToCm = 1.f;
  std::vector<PackCurveRecord> curves;
};

/// The skeleton block of `skeleton`; `curves` carry displacements in the scene's cm at `sceneScale`
/// (ImportedAsset::sceneScale), which the block stores in object space (FORMAT.md).
PackSkeletonRecord skeletonRecord(const Skeleton& skeleton, double unitToCm, std::span<const MorphCurve> curves = {},
                                  double sceneScale = 1.0);
PackSkeletonRecord skeletonRecord(const runtime::PackSkeleton& skeleton);
PackClipRecord clipRecord(const CompressedClip& clip, const std::string& sourceFile, std::uint64_t sourceHash);
/// A clip of an opened pack, its block in the current layout (ClipView::bytes), to be written again.
PackClipRecord clipRecord(const runtime::PackClip& clip);
/// A pack clip's additive base, naming a base clip by its pack name.
AdditiveRef additiveRef(const runtime::Pack& pack, const runtime::PackClip& clip);

/// Whether two skeletons can share a pack: same joint names, parents, rest pose (within 1e-5
/// relative) and unit. The error names the first difference.
Status sameSkeleton(const PackSkeletonRecord& a, const PackSkeletonRecord& b);

/// The pack's bytes; clips keep their order. An additive clip's base must be one of `clips`
/// (resolved by name; callers check it, see linkAdditiveBases in core/batch/additive_links.h).
std::vector<std::uint8_t> buildPack(const PackSkeletonRecord& skeleton, std::span<const PackClipRecord> clips);

/// Bytes a clip costs inside a pack (docs/ARCHITECTURE.md `compressed_bytes`): its table entry and its data
/// block. Names, tolerance tables and the skeleton block are pack metadata.
std::size_t packClipBytes(const PackClipRecord& clip);

}  // namespace animpack::core
