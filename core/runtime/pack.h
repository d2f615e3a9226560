#pragma once
// A pack file (.anpk): one skeleton and many compressed clips (FORMAT.md beside this file). open()
// validates every byte it will ever read (sizes, offsets, counts, joint indices, key order,
// checksum, version) and returns a clear error for a truncated, corrupt or future-version file.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/runtime/clip_view.h"
#include "core/runtime/math.h"
#include "core/runtime/status.h"

namespace animpack::runtime {

struct PackSkeleton {
  std::vector<std::string> names;
  std::vector<std::int32_t> parents;  ///< parents before children, -1 for a root
  std::vector<Transform> restPose;
  float unitToCm = 1.f;               ///< centimetres per skeleton length unit
  std::uint64_t hash = 0;             ///< FNV-1a of joint names and parents: compare with your rig
};

/// The error budget a clip was compressed with, per joint (so `verify` can judge a pack alone).
struct JointTolerance {
  float precisionCm = 0.01f;
  float shellCm = 3.f;
  bool pinned = false;
};

struct PackClip {
  std::string name;             ///< the pack name (unique within the pack)
  std::string sourceFile;
  std::string sourceClip;       ///< the source animation's own name; empty when the pack does not record it (versions 1-3, or a clip merged from one)
  std::uint32_t clipIndex = 0;  ///< the clip's position among the source file's animations
  double startTime = 0;         ///< seconds on the source timeline of frame 0
  float sampleRate = 30.f;
  std::uint32_t frameCount = 1;
  bool loop = false;
  std::uint64_t settingsHash = 0;
  std::uint64_t sourceHash = 0;
  std::vector<JointTolerance> tolerances;
  std::uint32_t dataOffset = 0;  ///< clip data position in the file
  std::uint32_t dataSize = 0;
  std::uint32_t ownBytes = 0;    ///< table entry + data block: the clip's compressed size (FORMAT.md "Compressed size")
  std::uint32_t additiveBase = 0xffffffffu;  ///< version 3: kAdditiveNone, kAdditiveRest or the base clip's index
  std::int32_t additiveFrame = -1;           ///< version 3: the base's frame, or -1 for the same time
  ClipView view;
};

class Pack {
 public:
  /// Validates and takes ownership of a pack's bytes.
  static Expected<Pack> open(std::vector<std::uint8_t> bytes);
  /// Reads and opens a pack file; errors name the file.
  static Expected<Pack> load(const std::filesystem::path& path);

  Pack(Pack&&) noexcept = default;
  Pack& operator=(Pack&&) noexcept = default;
  Pack(const Pack&) = delete;
  Pack& operator=(const Pack&) = delete;

  std::uint32_t version() const { return m_version; }
  std::size_t fileSize() const { return m_bytes.size(); }
  std::span<const std::uint8_t> bytes() const { return m_bytes; }
  const PackSkeleton& skeleton() const { return m_skeleton; }
  std::span<const PackClip> clips() const { return m_clips; }
  /// The clip with this name, or nullptr.
  const PackClip* findClip(std::string_view name) const;
  /// Bytes of the shared skeleton block (header, joints and joint names).
  std::size_t skeletonBytes() const { return m_skeletonBytes; }

 private:
  friend class PackReader;
  Pack() = default;
  std::vector<std::uint8_t> m_bytes;
  std::uint32_t m_version = 0;
  PackSkeleton m_skeleton;
  std::vector<PackClip> m_clips;
  std::size_t m_skeletonBytes = 0;
};

/// Skeleton hash as stored in packs: FNV-1a over joint count, parents and names.
std::uint64_t skeletonHash(std::span<const std::string> names, std::span<const std::int32_t> parents);

}  // namespace animpack::runtime
