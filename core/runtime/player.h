#pragma once
// Decodes compressed clips into local joint transforms (core/runtime/FORMAT.md). A Player is the
// small per-instance context a game keeps per animated character: one cursor per clip it plays
// (the primary clip and, for blending, a second one). Uniform and raw tracks are decoded by direct
// indexing; keyed tracks by a forward linear scan of the need-sorted key stream into a 4-key window
// per track. Backward steps reuse the windows while they still cover the time; larger jumps restart
// from the nearest seek snapshot, so any access order gives bit-identical results. Between two
// frames every track gives the interpolation of its decoded values at those frames (lerp, and
// shortest-path slerp for rotations), exactly as the source is interpolated between its keys.

#include <cstdint>
#include <span>
#include <vector>

#include "core/runtime/clip_view.h"
#include "core/runtime/math.h"

namespace animpack::runtime {

enum class BlendMode : std::uint8_t {
  Naive,       ///< lerp translation and scale, nlerp rotation
  Decomposed,  ///< revolution, stretch and spin blended apart: bone lengths survive the blend
};

class Player {
 public:
  Player() = default;

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

  /// Heap bytes this player holds for its cursors (grows to the largest clips played).
  std::size_t contextBytes() const;
  /// Bytes of cursor state one keyed track costs (its 4-key window).
  static constexpr std::size_t bytesPerKeyedTrack();
  /// Bytes of cursor state one uniform track costs (the cached segment's boundaries and header).
  static constexpr std::size_t bytesPerUniformTrack();

  /// Counters for benchmarks and tests: keys decoded and snapshot restarts since construction.
  std::uint64_t keysDecoded() const { return m_keysDecoded; }
  std::uint64_t seeks() const { return m_seeks; }

 /// Where one uniform track's residuals of a segment start, and their bit widths (decoder state).
  struct SegmentTrack {
    std::uint32_t base;  // bit offset inside the segment
    float scale;
    std::uint8_t bits[4];
    std::uint8_t sum;
  };

 private:
  struct Window {
    float time[4];
    float value[4][4];
    std::uint32_t count;
  };
  struct Cursor {
    std::uint64_t clip = 0;  // ClipView::id() of the clip the state belongs to
    std::uint32_t next = 0;  // next key in the stream
    float frame = -1.f;      // last sampled frame
    std::vector<Window> windows;
    // Uniform tracks: the four boundary rows around the cached segment, as floats, and its headers.
    std::uint32_t segment = ~0u;
    float rowFrames[4] = {};
    std::vector<float> boundaries;  // track * 16 + row * 4 + component
    std::vector<SegmentTrack> segmentTracks;
  };

  void decode(Cursor& cursor, const ClipView& clip, float frame, std::span<Transform> out);
  void decodeUniform(Cursor& cursor, const ClipView& clip, float frame, std::span<Transform> out);
  static void decodeRaw(const ClipView& clip, float frame, std::span<Transform> out);
  static void loadSegment(Cursor& cursor, const ClipView& clip, std::uint32_t k);
  void restart(Cursor& cursor, const ClipView& clip, float frame);
  void consume(Cursor& cursor, const ClipView& clip, std::uint32_t end, float frame, bool conditional);
  static bool evaluate(const Window& w, Channel channel, float frame, float lastFrame, Transform& out);

  Cursor m_primary;
  Cursor m_secondary;
  std::vector<SegmentTrack> m_nextSegment;
  std::vector<Transform> m_scratch;
  std::vector<Transform> m_wrapScratch;  // the first frame, for the wrap interval
  std::uint64_t m_keysDecoded = 0;
  std::uint64_t m_seeks = 0;
};

constexpr std::size_t Player::bytesPerKeyedTrack() { return sizeof(Window); }
constexpr std::size_t Player::bytesPerUniformTrack() { return 16 * sizeof(float) + sizeof(SegmentTrack); }

/// Blends two local poses joint by joint (naive or decomposed, see BlendMode). `restPose` gives each joint's reference
/// bone direction for the decomposed mode.
void blendPoses(std::span<const Transform> a, std::span<const Transform> b, float weight, BlendMode mode,
                std::span<const Transform> restPose, std::span<Transform> out);

}  // namespace animpack::runtime

namespace animpack::runtime {
static_assert(Player::bytesPerKeyedTrack() == 84, "FORMAT.md documents 84 bytes of state per keyed track");
static_assert(Player::bytesPerUniformTrack() == 80, "FORMAT.md documents 80 bytes of state per uniform track");
}  // namespace animpack::runtime
