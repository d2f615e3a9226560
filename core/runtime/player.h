#pragma once
// Decodes compressed clips into local joint transforms (core/runtime/FORMAT.md). A Player is the
// small per-instance context a game keeps per animated character: one cursor per clip it plays
// (the primary clip and, for blending, a second one). Uniform tracks are decoded four at a time
// (structure of arrays, AVX2, SSE2 or portable lanes, core/runtime/lanes.h) from the cached segment's
// boundary rows and the frame's residuals; raw tracks by direct indexing; keyed tracks from their
// keys decoded when the clip was opened (ClipView::keyTimes, keyValues): a cursor keeps each track's
// current key, steps it forward or searches for it after a jump, so any access order reads the same
// keys and gives bit-identical results. Between two
// frames every track gives the interpolation of its decoded values at those frames (lerp, and
// shortest-path slerp for rotations), exactly as the source is interpolated between its keys. The
// decoded values of the last two frames are kept for uniform and keyed tracks alike, four tracks a
// batch, and interpolated four lanes at a time (on AVX2, two rotation batches in one register).

#include <cstdint>
#include <span>
#include <vector>

#include "core/runtime/clip_view.h"
#include "core/runtime/lanes.h"
#include "core/runtime/math.h"
#include "core/runtime/segment_cache.h"

namespace animpack::runtime {

enum class BlendMode : std::uint8_t {
  Naive,       ///< lerp translation and scale, nlerp rotation
  Decomposed,  ///< revolution, stretch and spin blended apart: bone lengths survive the blend (a joint whose offset is the same in both poses keeps it and nlerps its rotation, what the parts give without their rounding; in both modes a joint the same in both poses keeps its transform)
};

class Player {
 public:
  /// `path` picks the lane implementation (core/runtime/lanes.h); all give bit-identical poses.
  explicit Player(DecodePath path = DecodePath::Simd) : m_path(path) {}

  /// Samples `clip` at `seconds` from its first frame into `out` (jointCount transforms). Looping
  /// clips wrap seamlessly (every ClipView::cycleFrames()); others clamp to their first and last frame.
  void sample(const ClipView& clip, float seconds, std::span<Transform> out);
  /// Samples at a fractional frame index, clamped to [0, frameCount - 1]; a wrapping clip
  /// (ClipView::wraps()) also takes (frameCount - 1, frameCount], its last frame interpolated to its first.
  void sampleFrame(const ClipView& clip, float frame, std::span<Transform> out);
  /// Samples two clips and blends them: weight 0 gives clip A, 1 clip B. Both clips must share
  /// one skeleton (same joint count). The rest pose of A gives the reference bone directions.
  void blend(const ClipView& clipA, float secondsA, const ClipView& clipB, float secondsB, float weight,
             BlendMode mode, std::span<Transform> out);

  DecodePath path() const { return m_path; }

  /// Heap and object bytes this player holds (grows to the largest clips played).
  std::size_t contextBytes() const;
  /// Bytes of cursor state one keyed track costs (its current key, its share of its batch's decoded
  /// values of the last two frames).
  static constexpr std::size_t bytesPerKeyedTrack();
  /// Bytes of cursor state a batch of four uniform tracks costs (the current segment's residual
  /// layout, the last two decoded frames).
  static constexpr std::size_t bytesPerUniformBatch();

  /// For benchmarks and tests: keyed-track key searches (a jump backward or more than a key ahead)
  /// since construction.
  std::uint64_t seeks() const { return m_seeks; }

 private:
  struct Cursor {
    std::uint64_t clip = 0;  // ClipView::id() of the clip the state belongs to
    // Per keyed track: its key (index into the track's keys) at or before the last frame decoded.
    std::vector<std::uint32_t> keys;
    // Uniform tracks: the current segment's boundary frames and residual layout per batch.
    std::uint32_t segment = ~0u;
    float rowFrames[4] = {};
    std::vector<BatchLayout> layouts;
    // The decoded values of the last two frames decoded (valueFrame, ~0u: none), per batch: the
    // uniform batches', then the keyed batches' (ClipView::keyedBatches).
    std::uint32_t valueFrame[2] = {~0u, ~0u};
    std::vector<BatchValues> values;
  };
  /// A fractional frame split into its frame and the fraction towards the next (0 at the last).
  struct FrameSplit {
    std::uint32_t frame;
    float alpha;
  };

  void sampleOn(Cursor& cursor, const ClipView& clip, float seconds, std::span<Transform> out);
  void sampleFrameOn(Cursor& cursor, const ClipView& clip, float frame, std::span<Transform> out);
  void decode(Cursor& cursor, const ClipView& clip, float frame, std::span<Transform> out);
  template <class Lanes, unsigned Frames>
  void decodeUniformFrames(Cursor& cursor, const ClipView& clip, std::uint32_t f, const unsigned (&slots)[Frames]);
  template <class Lanes>
  void decodeTracks(Cursor& cursor, const ClipView& clip, float frame, FrameSplit at, const SlerpTerms& terms, Transform* out);
  void decodeTracksAvx2(Cursor& cursor, const ClipView& clip, float frame, FrameSplit at, const SlerpTerms& terms, Transform* out);
  void decodeTracksSse2(Cursor& cursor, const ClipView& clip, float frame, FrameSplit at, const SlerpTerms& terms, Transform* out);
  template <class Lanes>
  static void loadSegment(Cursor& cursor, const ClipView& clip, std::uint32_t k);
  template <class Lanes>
  static void readLayouts(const ClipView& clip, std::uint32_t k, std::span<BatchLayout> out);
  static void decodeRaw(const ClipView& clip, FrameSplit at, const SlerpTerms& terms, std::span<Transform> out);
  void decodeKeyedFrames(Cursor& cursor, const ClipView& clip, float frame, FrameSplit at, int slot0, int slot1);
  std::uint32_t keyAt(std::uint32_t key, const float* times, std::uint32_t count, float frame);
  static void keyedValues(const float* times, const KeyValue* values, std::uint32_t count, std::uint32_t key, Channel channel,
                          std::uint32_t frame, const bool want[2], float (*out)[4]);

  DecodePath m_path = DecodePath::Simd;
  Cursor m_primary;
  Cursor m_secondary;
  std::vector<Transform> m_scratch;
  std::vector<Transform> m_wrapScratch;  // the first frame, for the wrap interval
  std::uint64_t m_seeks = 0;
};

constexpr std::size_t Player::bytesPerKeyedTrack() { return sizeof(std::uint32_t) + sizeof(BatchValues) / 4; }
constexpr std::size_t Player::bytesPerUniformBatch() { return sizeof(BatchLayout) + sizeof(BatchValues); }

/// Blends two local poses joint by joint (naive or decomposed, see BlendMode): the joints that differ
/// four at a time, or on AVX2 eight consecutive joints a block (every lane implementation gives
/// identical poses). `restPose` gives each joint's reference bone
/// direction for the decomposed mode. A joint the same in both poses keeps its transform. `out` may
/// be `a` or `b`.
void blendPoses(std::span<const Transform> a, std::span<const Transform> b, float weight, BlendMode mode,
                std::span<const Transform> restPose, std::span<Transform> out, DecodePath path = DecodePath::Simd);

}  // namespace animpack::runtime

namespace animpack::runtime {
static_assert(Player::bytesPerKeyedTrack() == 36, "FORMAT.md documents 36 bytes of state per keyed track");
static_assert(Player::bytesPerUniformBatch() == 248, "FORMAT.md documents 248 bytes of state per batch of four uniform tracks");
}  // namespace animpack::runtime
