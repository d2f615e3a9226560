#pragma once
// animpack runtime: opening a pack (.anpk) and finding its clips. Standard library only.
//
//   auto pack = animpack::Pack::load("hero.anpk");          // or Pack::open(bytes) over your buffer
//   if (!pack) { log(pack.message()); return; }              // names the file and what is wrong
//   animpack::Clip run = pack->findClip("Run");               // an empty handle when there is none
//
// open() validates every byte it will ever read (sizes, offsets, counts, joint indices, key order,
// checksum, version): a truncated, corrupt or future-version pack is refused with a message, never
// read out of bounds. An opened Pack is read-only, so several threads may sample it at once, each
// with its own Player (animpack/player.h).
//
// Versions: the runtime reads pack format versions 5 to 10, the layout it decodes in place (the
// current animpack tool writes 9; core/runtime/FORMAT.md "Versioning"); an older pack is refused
// with a message naming its version and `animpack upgrade OLD.anpk -o NEW.anpk`, which rewrites it.

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <span>
#include <string_view>

#include "animpack/pose.h"
#include "animpack/status.h"

namespace animpack {

namespace runtime {
class Pack;
class PackClip;
}  // namespace runtime

/// A clip of an opened Pack: a small handle, valid as long as its Pack (moving the Pack keeps it
/// valid; destroying it does not). A default-constructed handle is empty; every Player call refuses
/// it (Result::NoClip).
class Clip {
 public:
  Clip() = default;
  bool empty() const { return m_clip == nullptr; }
  explicit operator bool() const { return !empty(); }

  std::string_view name() const;  ///< its name in the pack (unique within it)
  std::uint32_t jointCount() const;
  std::uint32_t curveCount() const;  ///< morph-target weights it samples (the pack's curve count, or 0)
  std::uint32_t frameCount() const;
  float sampleRate() const;  ///< frames per second
  float duration() const;    ///< seconds from the first frame to the last (a looping clip's cycle)
  bool loops() const;        ///< sampling wraps (otherwise it clamps to the first and last frame)
  bool wraps() const;        ///< a looping clip whose last frame interpolates to its first (Player::sampleFrame)
  bool additive() const;     ///< a delta for Player::addClip, not a pose of its own
  bool hasRootMotion() const;
  std::uint64_t skeletonHash() const { return m_skeleton; }  ///< the hash of its pack's skeleton

 private:
  friend class Pack;
  friend class Player;
  const runtime::PackClip* m_clip = nullptr;
  const runtime::Pack* m_pack = nullptr;
  std::uint64_t m_skeleton = 0;
};

class Pack {
 public:
  /// Validates a pack's bytes and reads them in place, without a copy: `bytes` (any alignment) must
  /// stay alive and unchanged as long as the Pack. What it derives (the skeleton's parents and rest
  /// pose, one small view per clip; derivedBytes()) comes from `memory`.
  static Expected<Pack> open(std::span<const std::byte> bytes,
                             std::pmr::memory_resource* memory = std::pmr::get_default_resource());
  /// Reads a pack file into memory the Pack owns (from the global heap, not `memory`) and opens it;
  /// errors name the file.
  static Expected<Pack> load(const char* path, std::pmr::memory_resource* memory = std::pmr::get_default_resource());

  ~Pack();
  Pack(Pack&& other) noexcept;
  Pack& operator=(Pack&& other) noexcept;
  Pack(const Pack&) = delete;
  Pack& operator=(const Pack&) = delete;

  std::uint32_t version() const;  ///< the file's format version
  std::size_t fileBytes() const;
  /// Bytes the opened pack holds beside the file's (from the memory resource).
  std::size_t derivedBytes() const;

  std::uint32_t clipCount() const;
  Clip clip(std::uint32_t index) const;  ///< an empty handle past the last clip
  Clip findClip(std::string_view name) const;

  /// The skeleton every clip of the pack plays: joints parents-first (a pose's order).
  std::uint32_t jointCount() const;
  std::string_view jointName(std::uint32_t joint) const;  ///< a view into the pack's bytes ("" past the end)
  std::int32_t findJoint(std::string_view name) const;    ///< -1 when there is none
  std::span<const std::int32_t> parents() const;          ///< -1 for a root
  std::span<const Transform> restPose() const;
  float unitToCm() const;  ///< centimetres per skeleton length unit
  /// FNV-1a of joint names and parents: compare with your rig's (core/runtime/FORMAT.md "Skeleton block").
  std::uint64_t skeletonHash() const;

  /// Morph-target weights (curves) the clips sample, in this order: "NODE/TARGET" names.
  std::uint32_t curveCount() const;
  std::string_view curveName(std::uint32_t curve) const;
  std::int32_t findCurve(std::string_view name) const;
  std::span<const float> restWeights() const;

 private:
  explicit Pack(runtime::Pack* impl, std::pmr::memory_resource* memory) : m_impl(impl), m_memory(memory) {}
  static Expected<Pack> adopt(Expected<runtime::Pack> opened, std::pmr::memory_resource* memory);
  void release();
  runtime::Pack* m_impl = nullptr;
  std::pmr::memory_resource* m_memory = nullptr;
};

}  // namespace animpack
