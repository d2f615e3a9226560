#pragma once
// Decodes compressed clips into local joint transforms (core/runtime/FORMAT.md). A Player is the
// per-instance context a game keeps per animated character. It decodes every pose from the clip's
// bytes: uniform tracks four at a time (structure of arrays, AVX2, SSE2 or portable lanes,
// core/runtime/lanes.h) from their boundary rows and the frame's residuals, keyed tracks from their
// keys (a binary search in the track's key frames), raw tracks by direct indexing. Between two
// frames every track gives the interpolation of its decoded values at those frames (lerp, and
// shortest-path slerp for rotations), exactly as the source is interpolated between its keys.
//
// What a player keeps (FORMAT.md "What the runtime keeps"): per clip it plays (a primary one and,
// for blending, a second) a cursor with the decoded values of the last two frames it decoded, four
// tracks a batch, so playback between the same two frames decodes each frame once; and for a blend
// the second pose. The frame cache is kept only while the player's whole state stays within
// kStateBytesPerJoint bytes per joint of the clip (kBlendStateBytesPerJoint with a blend); beyond
// that the clip is decoded without it, which gives the same poses. Any access order gives
// bit-identical results; several players may sample one Pack in several threads at once.

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <span>

#include "core/runtime/clip_view.h"
#include "core/runtime/lanes.h"
#include "core/runtime/math.h"

namespace animpack::runtime {

enum class BlendMode : std::uint8_t {
  Naive,       ///< lerp translation and scale, nlerp rotation
  Decomposed,  ///< revolution, stretch and spin blended apart: bone lengths survive the blend (a joint whose offset is
               ///< the same in both poses keeps it and nlerps its rotation, what the parts give without their rounding;
               ///< in both modes a joint the same in both poses keeps its transform)
};

class Player {
 public:
  /// The most state (object, frame caches, blend pose) a player keeps per joint of what it plays.
  static constexpr std::size_t kStateBytesPerJoint = 64;
  static constexpr std::size_t kBlendStateBytesPerJoint = 128;

  /// `path` picks the lane implementation (core/runtime/lanes.h); all give bit-identical poses.
  /// The player's state comes from `memory` (default: the heap): allocated at the first sample of
  /// a clip that needs more than it holds, so it grows to what the largest clip needs and then never
  /// allocates again.
  explicit Player(DecodePath path = DecodePath::Simd,
                  std::pmr::memory_resource* memory = std::pmr::get_default_resource());
  /// A player whose state lives in `storage` (caller-owned, 16-byte aligned): it never allocates.
  /// With too little storage for a clip's frame cache it decodes that clip without one; a blend
  /// needs at least blendStorageBytes() of the skeleton (asserted).
  explicit Player(std::span<std::byte> storage, DecodePath path = DecodePath::Simd);
  ~Player();
  Player(Player&& other) noexcept;
  Player& operator=(Player&& other) noexcept;
  Player(const Player&) = delete;
  Player& operator=(const Player&) = delete;

  /// The engine-facing API (animpack/player.h) checks every argument before it calls these; here
  /// `out` (and `weights`) must hold the clip's joints (curves): asserted in debug builds.
  /// Samples `clip` at `seconds` from its first frame into `out` (jointCount transforms). Looping
  /// clips wrap seamlessly (every ClipView::cycleFrames()); others clamp to their first and last frame.
  void sample(const ClipView& clip, float seconds, std::span<Transform> out);
  /// The same, with the clip's morph weights (format version 6; ClipView::curveCount() floats) in
  /// `weights`: each curve at the same time (runtime::sampleCurves). The player keeps a CurveCache
  /// of the clip (runtime::curveCacheBytes: 4 bytes a curve, 32 a keyed curve, 24 a segmented
  /// curve and 16 with them; from its memory
  /// resource, none on caller storage; budgeted per curve, beside the per-joint budget of the frame
  /// cache), so playback reads a keyed curve's keys only when it enters another segment; without it
  /// the same weights. An empty `out` samples the weights alone.
  void sample(const ClipView& clip, float seconds, std::span<Transform> out, std::span<float> weights);
  /// Samples at a fractional frame index, clamped to [0, frameCount - 1]; a wrapping clip
  /// (ClipView::wraps()) also takes (frameCount - 1, frameCount], its last frame interpolated to its first.
  void sampleFrame(const ClipView& clip, float frame, std::span<Transform> out);
  /// A level of detail: sample() of the clip's first `joints` joints alone (at most jointCount();
  /// `out` holds at least that many). Joints are stored parents first, so the first N are a
  /// skeleton of their own; a distant character keeps them and skips the rest (their transforms
  /// in `out` are left as they were). The same bits as a full pose's first N joints.
  void sampleJoints(const ClipView& clip, float seconds, std::uint32_t joints, std::span<Transform> out);
  void sampleFrameJoints(const ClipView& clip, float frame, std::uint32_t joints, std::span<Transform> out);
  /// Samples two clips and blends them: weight 0 gives clip A, 1 clip B. Both clips must share
  /// one skeleton (same joint count). The rest pose of A gives the reference bone directions.
  void blend(const ClipView& clipA, float secondsA, const ClipView& clipB, float secondsB, float weight, BlendMode mode,
             std::span<Transform> out);

  DecodePath path() const { return m_path; }
  /// False when the storage is the caller's (it never grows).
  bool ownsStorage() const { return m_memory != nullptr; }
  std::size_t capacity() const { return m_capacity; }

  /// Bytes this player holds: the object and its storage (owned or the caller's).
  std::size_t stateBytes() const { return sizeof(*this) + m_capacity; }
  /// Storage a player needs to sample `clip` with its frame cache.
  static std::size_t storageBytes(const ClipView& clip);
  /// Storage a player needs to blend clips of `a`'s and `b`'s sizes with their frame caches (at
  /// least the second pose).
  static std::size_t blendStorageBytes(const ClipView& a, const ClipView& b);
  /// For tests and benchmarks: frames decoded since construction (a frame whose values the cache
  /// held is not decoded again).
  std::uint64_t framesDecoded() const { return m_framesDecoded; }

 private:
  struct Cursor {
    std::uint32_t clip = 0;               // ClipView::id() of the clip the cache holds, 0: none
    std::uint32_t frame[2] = {~0u, ~0u};  // the frames in cache slots 0 and 1
  };
  void decode(Cursor* cursor, std::size_t cacheOffset, const ClipView& clip, float frame, std::uint32_t joints,
              std::span<Transform> out);
  void sampleWith(Cursor* cursor, std::size_t cacheOffset, const ClipView& clip, float seconds, std::uint32_t joints,
                  std::span<Transform> out);
  bool frameCacheFits(const ClipView& clip);
  bool reserve(std::size_t bytes);
  void forgetOverwritten(std::size_t used);
  /// Where the frame caches and a blend's second pose start: after the curve cache.
  std::byte* frameStorage() const { return m_data + m_curveBytes; }
  std::size_t frameCapacity() const { return m_capacity - m_curveBytes; }

  // One block of m_capacity bytes: the CurveCache of the last clip whose weights it sampled
  // (m_curveBytes; from m_memory only, none on caller storage), then the frame caches (cursor 0's
  // first, cursor 1's at m_secondOffset) and a blend's second pose.
  std::byte* m_data = nullptr;
  std::pmr::memory_resource* m_memory = nullptr;  // null: the storage is the caller's
  std::uint32_t m_capacity = 0;
  std::uint32_t m_curveBytes = 0;
  Cursor m_cursor[2];
  std::uint32_t m_secondOffset = 0;
  std::uint32_t m_framesDecoded = 0;  // wraps after 2^32 frames (a statistic for tests and benchmarks)
  std::uint32_t m_curveClip = 0;
  DecodePath m_path = DecodePath::Simd;
  std::uint16_t m_firstJoints = 0;  // the leading joints cursor 0's cache holds (its level of detail)
};

/// Blends two local poses joint by joint (naive or decomposed, see BlendMode): the joints that differ
/// four at a time, or on AVX2 eight consecutive joints a block (every lane implementation gives
/// identical poses). `restPose` gives each joint's reference bone
/// direction for the decomposed mode. A joint the same in both poses keeps its transform. `out` may
/// be `a` or `b`.
void blendPoses(std::span<const Transform> a, std::span<const Transform> b, float weight, BlendMode mode,
                std::span<const Transform> restPose, std::span<Transform> out, DecodePath path = DecodePath::Simd);

}  // namespace animpack::runtime
