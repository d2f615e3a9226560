#pragma once
// The poses the viewport shows for the document's current time: the original (the imported clip
// sampled), the compressed one (the current result played through the runtime, as a game plays
// it), each joint's error against its precision, and the optional blend preview of two clips.
// The main window only hands these to the viewport.

#include <QObject>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/runtime/player.h"
#include "core/runtime/root_motion.h"
#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

namespace animpack::widgets {

/// Which two clips the blend preview mixes, and how.
struct BlendSetup {
  bool enabled = false;
  int clipA = -1, clipB = -1;
  bool crossfade = false;   ///< the weight ramps from 0 to 1 over `crossfadeS` from time 0
  float weight = 0.5f;      ///< fixed weight of B, 0..1 (when not a crossfade)
  double crossfadeS = 0.5;  ///< s, the crossfade's length
  /// The weight of B at `seconds`.
  float weightAt(double seconds) const;
  bool operator==(const BlendSetup&) const = default;
};

class PosePreview : public QObject {
  Q_OBJECT
 public:
  PosePreview(ClipDocument* document, Recompressor* recompressor, QObject* parent = nullptr);

  /// In place: with root motion, both poses without it (the compressed clip's in-place tracks, the
  /// original moved back by the clip's root motion); otherwise the compressed pose has its root
  /// motion folded back, as `animpack decode` writes it (off by default).
  void setInPlace(bool inPlace);
  /// The compressed clip's root trajectory: the root's ground position (object space, file units)
  /// over one cycle; empty without root motion.
  const std::vector<core::Vec3>& rootTrajectory() const { return m_trajectory; }
  /// Sets what the blend preview shows (off by default).
  void setBlend(const BlendSetup& blend);
  /// How much of an additive clip is applied on its base, 0..1 (default 1: the clip as authored).
  /// Both the original and the compressed pose show the base with the layer at this weight.
  void setAdditiveWeight(float weight);
  float additiveWeight() const { return m_additiveWeight; }
  /// Local transforms of the original clip at the current time (empty without a clip).
  std::span<const core::Transform> original() const { return m_original; }
  /// The compressed clip at the same time, empty until there is a result to play.
  std::span<const core::Transform> compressed() const {
    return m_compressedValid ? std::span<const core::Transform>(m_compressed) : std::span<const core::Transform>();
  }
  /// Morph weights (one per curve of the file) of the original clip at the current time: its source
  /// keys, linear between them; empty for a file without morph targets.
  std::span<const float> originalWeights() const { return m_originalWeights; }
  /// The compressed clip's weights at the same time (an additive clip's on its base), empty until
  /// there is a result to play.
  std::span<const float> compressedWeights() const {
    return m_compressedValid ? std::span<const float>(m_compressedWeights) : std::span<const float>();
  }
  /// Per joint: error / precision at the current frame (empty without a result).
  const std::vector<float>& errorRatios() const { return m_ratios; }
  /// The blend preview's naive and decomposed poses (empty when it is off).
  std::span<const core::Transform> blendNaive() const { return m_naive; }
  std::span<const core::Transform> blendDecomposed() const { return m_decomposed; }

 signals:
  /// The poses were computed again (the time, the clip, the result or the blend changed).
  void changed();

 private:
  void update();
  void sampleCompressed(const ShownResult& shown, double seconds);
  /// The source's and the playing result's morph weights at `seconds`.
  void sampleWeights(const core::RawClip& raw, double seconds);
  void sampleBlend(double seconds);
  void updateTrajectory();
  /// The current clip's base pose at `seconds`: from the source (`decoded` false) or as the playing
  /// compressed clip's base decodes (true, as its deltas were taken); false when there is none.
  bool basePose(double seconds, bool decoded, std::vector<core::Transform>& out);

  ClipDocument* m_document;
  Recompressor* m_recompressor;
  BlendSetup m_blend;
  /// The playing compressed clip: its data (kept alive) and the runtime view over it. It is sampled
  /// like a game would; no whole-clip decode is needed here.
  std::shared_ptr<const core::CompressedClip> m_playing;
  std::vector<float> m_restWeights;  ///< what m_playingView's default curves decode to
  std::optional<runtime::ClipView> m_playingView;
  runtime::Player m_player;
  runtime::RootMotionScratch m_rootScratch;  // the root-motion fold's working poses
  float m_additiveWeight = 1.f;
  std::vector<core::Transform> m_base;
  std::vector<core::Transform> m_original, m_compressed, m_blendA, m_blendB, m_naive, m_decomposed;
  std::vector<float> m_originalWeights, m_compressedWeights, m_baseWeights;
  bool m_compressedValid = false;
  bool m_inPlace = false;
  std::vector<core::Vec3> m_trajectory;
  std::vector<float> m_ratios;
};

}  // namespace animpack::widgets
