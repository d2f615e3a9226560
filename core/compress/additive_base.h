#pragma once
// Additive clips on the compression side (docs/SETTINGS.md `additive_base`): which pose a clip is a
// delta from (AdditiveRef, what packs and reports name), and that pose as the runtime decodes it
// (AdditiveBase), so the compressor stores deltas from the *decoded* base and verifies base + delta.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/anim/raw_clip.h"
#include "core/base/status.h"
#include "core/runtime/clip_view.h"
#include "core/runtime/pack.h"
#include "core/runtime/player.h"

namespace animpack::core {

/// What an additive clip is a delta from.
struct AdditiveRef {
  enum class Kind : std::uint8_t { None, Rest, Clip };
  Kind kind = Kind::None;
  std::string clip;         ///< Kind::Clip: the base clip's pack name
  std::int32_t frame = -1;  ///< Kind::Clip: the base's frame, or -1 for the same time
  bool additive() const { return kind != Kind::None; }
  /// "rest", "CLIP", "CLIP@FRAME", or "" when not additive (the report's spelling).
  std::string spelling() const;
  bool operator==(const AdditiveRef&) const = default;
};

/// Splits a setting value into the clip spec and the frame: "CLIP@FRAME" gives (CLIP, FRAME) when
/// FRAME is a non-negative integer, anything else (CLIP, -1). `whole` names are tried first by the
/// caller, so a clip whose name contains '@' still resolves.
std::pair<std::string, std::int32_t> splitBaseFrame(std::string_view spec);

/// Parses a report's spelling back (the inverse of AdditiveRef::spelling()).
AdditiveRef additiveRefFromSpelling(std::string_view spelling);

/// The base pose of an additive clip as the runtime decodes it: the rest pose, or a compressed clip
/// sampled at the same time (clamped to its length) or at one of its frames. Copies share the
/// decoded block; sampling is not thread-safe (each copy has its own player).
class AdditiveBase {
 public:
  /// The skeleton's rest pose.
  /// `restWeights`: the file's morph curves at rest (what the rest pose gives them).
  static AdditiveBase rest(std::span<const Transform> restPose, std::span<const float> restWeights = {});
  /// A compressed, non-additive clip block; `frame` -1 for the same time, else the base frame.
  static Expected<AdditiveBase> clip(std::vector<std::uint8_t> block, std::span<const Transform> restPose,
                                     std::int32_t frame, std::span<const float> restWeights = {});

  /// The base of additive clip `clip` of `pack` (a clip that is not additive gets the rest pose).
  static Expected<AdditiveBase> fromPack(const runtime::Pack& pack, const runtime::PackClip& clip);

  /// The base pose for the additive clip's time `seconds` (from its first frame).
  void sample(float seconds, std::span<Transform> out) const;
  /// The base's morph weights for the additive clip's time `seconds` (one per curve).
  void sampleCurves(float seconds, std::span<float> out) const;
  std::uint32_t curveCount() const { return static_cast<std::uint32_t>(m_restWeights->size()); }
  /// Base poses at every frame of an additive clip of `frames` frames at `rate` Hz (frame-major).
  std::vector<Transform> frames(std::uint32_t frames, double rate) const;
  std::uint32_t jointCount() const { return static_cast<std::uint32_t>(m_rest->size()); }

 private:
  std::shared_ptr<const std::vector<Transform>> m_rest;  // shared by copies: the view reads default tracks from it
  std::shared_ptr<const std::vector<float>> m_restWeights = std::make_shared<const std::vector<float>>();
  std::shared_ptr<const std::vector<std::uint8_t>> m_block;
  std::shared_ptr<const runtime::ClipView> m_view;  // null: the rest pose
  std::int32_t m_frame = -1;
  /// Each copy decodes with a player of its own (a player's frame cache belongs to it).
  struct OwnPlayer {
    runtime::Player player;
    OwnPlayer() = default;
    OwnPlayer(const OwnPlayer&) {}
    OwnPlayer& operator=(const OwnPlayer&) { return *this; }
  };
  mutable OwnPlayer m_player;
};

/// `clip` as deltas from `base` at each of its frames (runtime::additiveDelta), rotations made
/// sign-continuous from frame to frame.
RawClip additiveDeltas(const RawClip& clip, const AdditiveBase& base);

/// Composes one frame-major block of deltas with the base poses (frame-major, same size) at weight 1.
std::vector<Transform> composeAdditive(std::span<const Transform> base, std::span<const Transform> deltas);

}  // namespace animpack::core
