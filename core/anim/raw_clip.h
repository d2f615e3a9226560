#pragma once
// An imported animation clip resampled on a uniform grid (docs/IMPORT.md "What gets imported"): local
// transforms of every joint at every frame, in file units, plus the source keys it came from.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/anim/morph.h"
#include "core/anim/skeleton.h"
#include "core/base/status.h"
#include "core/math/transform.h"

namespace animpack::core {

class SourceClip;

/// Bits of RawClip::keyedChannels.
inline constexpr std::uint8_t kKeyedRotation = 1, kKeyedTranslation = 2, kKeyedScale = 4;

/// How a clip's source keys sit on its sample grid (inspect's "grid"; docs/IMPORT.md "What gets imported").
enum class KeyGridKind : std::uint8_t {
  Regular,    ///< every key on one regular grid (within a thousandth of a step)
  Snapped,    ///< every key within 1 % of a step of one regular grid: the grid times are the keys' times
  Mixed,      ///< channels keyed on regular grids of their own (different steps or offsets)
  Irregular,  ///< keys on no regular grid: resampled
};
const char* keyGridName(KeyGridKind kind);

struct RawClip {
  std::string name;             ///< unique within the file (`name#index` for empty or duplicate names)
  std::uint32_t clipIndex = 0;  ///< position among the file's animations
  double startTime = 0;         ///< seconds on the source timeline of frame 0
  double sampleRate = 30;       ///< frames per second
  std::uint32_t frameCount = 0;
  std::uint32_t jointCount = 0;
  std::vector<Transform> samples;           ///< frame-major: samples[frame * jointCount + joint]
  std::vector<std::uint8_t> keyedChannels;  ///< per joint: which channels the source animates
  /// The source's own keys in double precision (core/anim/source_clip.h): what the clip is between
  /// frames. Null for clips built from frames, whose frames are their keys.
  std::shared_ptr<const SourceClip> source;
  KeyGridKind grid = KeyGridKind::Regular;  ///< how the source's keys sit on the frames
  std::vector<CurveKeys> curves;            ///< the morph curves the clip animates, with their keys

  /// Seconds from the first to the last frame.
  double duration() const { return frameCount > 1 ? double(frameCount - 1) / sampleRate : 0.0; }
  std::span<const Transform> frame(std::uint32_t f) const {
    return {samples.data() + std::size_t(f) * jointCount, jointCount};
  }
  std::span<Transform> frame(std::uint32_t f) { return {samples.data() + std::size_t(f) * jointCount, jointCount}; }
  const Transform& at(std::uint32_t joint, std::uint32_t f) const {
    return samples[std::size_t(f) * jointCount + joint];
  }
  Transform& at(std::uint32_t joint, std::uint32_t f) { return samples[std::size_t(f) * jointCount + joint]; }
  /// Joints with at least one animated channel in the source.
  std::size_t animatedJointCount() const;

  /// Checks counts against the skeleton, the sample rate and that every sample is finite.
  Status validate(const Skeleton& skeleton) const;
};

/// Makes every joint's rotation track sign-continuous (q and -q are the same rotation: keep the
/// one nearest the previous frame), so interpolation never takes the long way round.
void makeRotationsContinuous(RawClip& clip);

/// Curve `index`'s source weight at `seconds` from the clip's first frame: its keys in `clip`,
/// linear between them and held at the ends; `rest` when the clip does not animate it.
double sourceWeight(const RawClip& clip, std::uint32_t index, float rest, double seconds);
/// The same from one curve's keys (not empty).
double sourceWeight(const CurveKeys& keys, double seconds);

}  // namespace animpack::core
