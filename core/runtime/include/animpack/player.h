#pragma once
// animpack runtime: sampling clips into poses. Standard library only.
//
//   animpack::Player player;                                   // one per animated character
//   std::vector<animpack::Transform> pose(pack->jointCount());
//   if (auto r = player.sample(run, seconds, pose); r != animpack::Result::Ok) log(animpack::describe(r));
//
// Every call checks what it is given (span sizes, finite times and weights, clips on one skeleton,
// the player's storage) and returns a Result the caller cannot silently drop; when it refuses, it
// writes nothing. A call that succeeds gives the same bits on every CPU and compiler the runtime is
// built for (docs/RUNTIME.md "Targets"). A Player is not thread-safe; several players may sample
// one Pack in several threads at once.

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <span>

#include "animpack/pack.h"
#include "animpack/pose.h"
#include "animpack/result.h"

namespace animpack {

enum class BlendMode : std::uint8_t {
  Naive,       ///< lerp translation and scale, nlerp rotation
  Decomposed,  ///< bone direction, length and twist blended apart: bone lengths survive the blend
};

class Player {
 public:
  /// Caller storage (useStorage) must be aligned to this.
  static constexpr std::size_t kStorageAlignment = 16;
  /// The largest time (seconds, either sign) and frame index a call takes (Result::TimeOutOfRange
  /// beyond): a game keeps a clip's local time and wraps it long before.
  static constexpr float kMaxSeconds = 1e6f;
  static constexpr float kMaxFrame = 1e8f;

  /// A player whose state comes from `memory`: the last two decoded frames of what it plays (while
  /// they stay within 64 bytes a joint, 128 with a blend's second pose) and the curve cache of a clip
  /// whose weights it samples. Allocated at the first sample of a clip that needs more than it holds,
  /// so it grows to what the largest clip needs and then never allocates again.
  explicit Player(std::pmr::memory_resource* memory = std::pmr::get_default_resource());
  ~Player();
  Player(Player&& other) noexcept;
  Player& operator=(Player&& other) noexcept;
  Player(const Player&) = delete;
  Player& operator=(const Player&) = delete;

  /// From now on the player's state lives in `storage` (caller-owned, kStorageAlignment-aligned, alive
  /// as long as the player uses it) and it never allocates. With less than storageBytes(clip) it
  /// decodes that clip without its frame cache (same poses, slower); a blend needs room for its
  /// second pose at least (joints x 40 bytes, rounded up to 16; Result::StorageTooSmall), and
  /// blendStorageBytes(a, b) for both clips' frame caches too. Refuses misaligned storage.
  [[nodiscard]] Result useStorage(std::span<std::byte> storage);
  static std::size_t storageBytes(const Clip& clip);
  static std::size_t blendStorageBytes(const Clip& a, const Clip& b);

  /// Refuse (Result::ForeignClip) clips of any other skeleton than `pack`'s from now on.
  void bindSkeleton(const Pack& pack) { m_skeleton = pack.skeletonHash(); }
  void unbindSkeleton() { m_skeleton = 0; }

  /// `clip` at `seconds` from its first frame into pose[0, clip.jointCount()). Looping clips wrap
  /// seamlessly; others clamp to their first and last frame.
  Result sample(const Clip& clip, float seconds, std::span<Transform> pose);
  /// The same with the clip's morph weights in weights[0, clip.curveCount()) at the same time. An
  /// empty `pose` samples the weights alone.
  Result sample(const Clip& clip, float seconds, std::span<Transform> pose, std::span<float> weights);
  /// A level of detail: the clip's first `jointCount` joints alone into pose[0, jointCount) (the
  /// rest of `pose` is left as it was), the same bits as a full pose's first joints. Joints are
  /// stored parents first (Pack::parents()[j] < j), so the first N are a skeleton of their own; a
  /// distant character samples fewer and skins with them (docs/RUNTIME.md "Levels of detail").
  /// Refuses more joints than the clip has (Result::JointCountOutOfRange).
  Result sample(const Clip& clip, float seconds, std::uint32_t jointCount, std::span<Transform> pose);
  /// The same at a fractional frame index (as sampleFrame).
  Result sampleFrame(const Clip& clip, float frame, std::uint32_t jointCount, std::span<Transform> pose);
  /// At a fractional frame index, clamped to [0, frameCount - 1] (a clip that wraps() also
  /// takes (frameCount - 1, frameCount]: its last frame interpolated to its first).
  Result sampleFrame(const Clip& clip, float frame, std::span<Transform> pose);
  /// The same with the clip's morph weights at that frame (an empty `pose`: the weights alone).
  Result sampleFrame(const Clip& clip, float frame, std::span<Transform> pose, std::span<float> weights);
  /// Samples two clips of one skeleton and blends them: weight 0 gives `a`, 1 gives `b` (clamped
  /// to [0, 1]).
  Result blend(const Clip& a, float secondsA, const Clip& b, float secondsB, float weight, BlendMode mode,
               std::span<Transform> pose);
  /// Adds an additive clip at `seconds` with `weight` (0: nothing, 1: all of it) onto `pose` (a pose
  /// of the same skeleton the game sampled before); `scratch` (not overlapping `pose`) holds its
  /// delta pose.
  Result addClip(const Clip& additive, float seconds, float weight, std::span<Transform> pose,
                 std::span<Transform> scratch);
  /// The root's motion from `fromSeconds` to `toSeconds` (looping cycles included) as a transform
  /// the game applies to the character; identity for a clip without root motion.
  Result rootMotion(const Clip& clip, float fromSeconds, float toSeconds, Transform& motion) const;

  /// Bytes this player holds: the object and its state (owned or the caller's).
  std::size_t stateBytes() const;

 private:
  Result check(const Clip& clip, float time, float limit) const;
  Result checkLevel(const Clip& clip, float time, float limit, std::uint32_t jointCount, std::size_t poseSize) const;
  static constexpr std::size_t kImplBytes = 64;
  alignas(16) std::byte m_impl[kImplBytes];
  std::uint64_t m_skeleton = 0;
};

/// Blends two poses of one skeleton joint by joint (see BlendMode); `restPose` (the Pack's) gives
/// the reference bone directions of the decomposed mode. `out` may be `a` or `b`.
[[nodiscard]] Result blendPoses(std::span<const Transform> a, std::span<const Transform> b, float weight,
                                BlendMode mode, std::span<const Transform> restPose, std::span<Transform> out);

}  // namespace animpack
