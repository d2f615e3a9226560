#pragma once
// A pack file (.anpk): one skeleton and many compressed clips (FORMAT.md beside this file). open()
// validates every byte it will ever read (sizes, offsets, counts, joint indices, key order,
// checksum, version) and returns a clear error for a truncated, corrupt or future-version file.
// An opened pack decodes from its own bytes: what it derives is the skeleton's parents and rest
// pose (once per pack) and a small view per clip (Pack::derivedBytes). Names, tolerances and the
// other metadata are read from the bytes when asked for. A Pack is read-only after open(), so
// several threads may sample it at once, each with its own Player.

#include <cstdint>
#include <filesystem>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/runtime/clip_view.h"
#include "core/runtime/math.h"
#include "core/runtime/status.h"

namespace animpack::runtime {

/// The error budget a clip was compressed with, per joint (so `verify` can judge a pack alone).
struct JointTolerance {
  float precisionCm = 0.01f;
  float shellCm = 3.f;
  bool pinned = false;
};

/// The pack's skeleton: parents and rest pose decoded once, names read from the pack's bytes.
class PackSkeleton {
 public:
  explicit PackSkeleton(std::pmr::memory_resource* memory = std::pmr::get_default_resource())
      : m_parents(memory), m_restPose(memory), m_restWeights(memory) {}
  std::uint32_t jointCount() const { return static_cast<std::uint32_t>(m_parents.size()); }
  /// Joint j's name (a view into the pack's bytes).
  std::string_view name(std::uint32_t j) const;
  /// Every joint's name, as strings.
  std::vector<std::string> names() const;
  /// The joint with this name, or -1.
  std::int32_t find(std::string_view name) const;
  std::span<const std::int32_t> parents() const { return m_parents; }  ///< parents before children, -1 for a root
  std::span<const Transform> restPose() const { return m_restPose; }
  float unitToCm() const { return m_unitToCm; }  ///< centimetres per skeleton length unit
  std::uint64_t hash() const { return m_hash; }  ///< FNV-1a of joint names and parents: compare with your rig

  /// Curves (format version 6): morph-target weights every clip of the pack samples, in this order.
  std::uint32_t curveCount() const { return static_cast<std::uint32_t>(m_restWeights.size()); }
  std::string_view curveName(std::uint32_t i) const;  ///< "NODE/TARGET"
  std::string_view curveNode(std::uint32_t i) const;  ///< the node whose meshes the target deforms
  std::string_view curveTarget(std::uint32_t i) const;
  std::uint32_t curveTargetIndex(std::uint32_t i) const;
  float curveDisplacementCm(std::uint32_t i) const;  ///< the target's largest vertex displacement at weight 1
  /// What a curve no clip animates stays at; one per curve (ClipView::open takes them).
  std::span<const float> restWeights() const { return m_restWeights; }
  /// The curve with this name, or -1.
  std::int32_t findCurve(std::string_view name) const;
  std::uint64_t curveHash() const { return m_curveHash; }  ///< FNV-1a of the curve names (0 without curves)

 private:
  const std::uint8_t* curveRecord(std::uint32_t i) const;
  friend class PackReader;
  friend class Pack;
  const std::uint8_t* m_file = nullptr;  // the pack's bytes
  std::uint32_t m_block = 0;             // the skeleton block's offset
  std::uint32_t m_strings = 0;           // the string table's offset
  float m_unitToCm = 1.f;
  std::uint64_t m_hash = 0;
  std::pmr::vector<std::int32_t> m_parents;
  std::pmr::vector<Transform> m_restPose;
  std::pmr::vector<float> m_restWeights;
  std::uint32_t m_curveTable = 0;  // offset of the curve table (version 6), 0: none
  std::uint64_t m_curveHash = 0;
};

/// One clip of a pack: its view, and its metadata read from the pack's clip table when asked for.
class PackClip {
 public:
  ClipView view;

  std::string_view name() const;  ///< the pack name (unique within the pack)
  std::string_view sourceFile() const;
  std::string_view sourceClip() const;  ///< the source animation's own name; empty when the pack does not record it
                                        ///< (versions 1-3, or a clip merged from one)
  std::uint32_t clipIndex() const;      ///< the clip's position among the source file's animations
  double startTime() const;             ///< seconds on the source timeline of frame 0
  float sampleRate() const { return view.sampleRate(); }
  std::uint32_t frameCount() const { return view.frameCount(); }
  bool loop() const { return view.loops(); }
  std::uint64_t settingsHash() const;
  std::uint64_t sourceHash() const;
  /// The precision and shell distance joint j was compressed with.
  JointTolerance tolerance(std::uint32_t joint) const;
  std::vector<JointTolerance> tolerances() const;
  /// The precision curve i was compressed with (cm at the target's largest displacement; version 6).
  float curvePrecisionCm(std::uint32_t curve) const;
  /// x, the scene scale the clip's lengths were measured at (format version 8; 1 in older packs):
  /// scene centimetres are skeleton units x Skeleton::unitToCm() x sceneScale() (FORMAT.md).
  float sceneScale() const;
  /// The clip's compressed size (FORMAT.md "Compressed size"): its table entry and data block in the file.
  std::uint32_t ownBytes() const;
  std::uint32_t additiveBase() const;  ///< version 3: kAdditiveNone, kAdditiveRest or the base clip's index
  std::int32_t additiveFrame() const;  ///< version 3: the base's frame, or -1 for the same time
  std::uint32_t index() const { return m_index; }

 private:
  friend class PackReader;
  const std::uint8_t* entry() const;
  std::string_view string(std::uint32_t offset, std::uint32_t length) const;
  const std::uint8_t* m_file = nullptr;
  std::uint32_t m_index = 0;
};

/// Rewrites a clip block of format versions 1 to 4 into the current layout (the tool's
/// core/io/legacy.h); `joints` is the skeleton's joint count.
using PackClipUpgrader = Expected<std::vector<std::uint8_t>> (*)(std::span<const std::uint8_t> block,
                                                                 std::uint32_t joints);
struct PackOpenOptions {
  /// Without one, a pack of format versions 1 to 4 is refused, naming `animpack upgrade`.
  PackClipUpgrader upgrade = nullptr;
  /// What the pack derives (skeleton, clip views, rewritten clips) comes from here.
  std::pmr::memory_resource* memory = std::pmr::get_default_resource();
};

class Pack {
 public:
  using ClipUpgrader = PackClipUpgrader;
  using OpenOptions = PackOpenOptions;
  /// Validates a pack's bytes and reads them in place: `bytes` must outlive the Pack and stay unchanged.
  static Expected<Pack> open(std::span<const std::uint8_t> bytes, const OpenOptions& options);
  /// Validates and takes ownership of a pack's bytes.
  static Expected<Pack> open(std::vector<std::uint8_t> bytes, const OpenOptions& options = {});
  /// Reads and opens a pack file; errors name the file.
  static Expected<Pack> load(const std::filesystem::path& path, const OpenOptions& options = {});

  Pack(Pack&&) noexcept = default;
  Pack& operator=(Pack&&) noexcept = default;
  Pack(const Pack&) = delete;
  Pack& operator=(const Pack&) = delete;

  /// The file's format version.
  std::uint32_t version() const { return m_version; }
  std::size_t fileSize() const { return m_bytes.size(); }
  /// The file's bytes (the caller's, or the pack's own copy).
  std::span<const std::uint8_t> bytes() const { return m_bytes; }
  const PackSkeleton& skeleton() const { return m_skeleton; }
  std::span<const PackClip> clips() const { return m_clips; }
  /// The clip with this name, or nullptr.
  const PackClip* findClip(std::string_view name) const;
  /// Bytes of the shared skeleton block (header, joints and joint names).
  std::size_t skeletonBytes() const { return m_skeletonBytes; }
  /// Bytes the opened pack holds beside the file's: its objects, the skeleton's parents and rest
  /// pose, one view per clip (and, for a pack of versions 1 to 4, its rewritten clips).
  std::size_t derivedBytes() const;
  /// The part of derivedBytes() that is the pack's, not a clip's: the objects and the skeleton.
  std::size_t sharedDerivedBytes() const {
    return sharedDerivedBytes(m_skeleton.jointCount(), m_skeleton.curveCount());
  }
  /// What opening a current-format pack derives for its skeleton of `joints` joints (the Pack
  /// object, parents and rest pose), and for each clip (its view): derivedBytes() is the first
  /// plus the second per clip. Reports and budgets use them (`resident_bytes`).
  static std::size_t sharedDerivedBytes(std::uint32_t joints, std::uint32_t curves = 0);
  static std::size_t clipDerivedBytes();

 private:
  friend class PackReader;
  explicit Pack(std::pmr::memory_resource* memory);
  std::span<const std::uint8_t> m_bytes;  // the file's bytes: the caller's, or m_owned's
  std::vector<std::uint8_t> m_owned;
  std::pmr::vector<std::uint8_t> m_upgraded;  // clip blocks of a version 1-4 pack in the current layout
  std::uint32_t m_version = 0;
  std::size_t m_skeletonBytes = 0;
  PackSkeleton m_skeleton;
  std::pmr::vector<PackClip> m_clips;
};

/// Skeleton hash as stored in packs: FNV-1a over joint count, parents and names.
std::uint64_t skeletonHash(std::span<const std::string> names, std::span<const std::int32_t> parents);
/// Curve hash as stored in packs (version 6): FNV-1a over the curve count and names.
std::uint64_t curveHash(std::span<const std::string> names);

}  // namespace animpack::runtime
