#pragma once
// Encoders for one sub-track (a joint's rotation, translation or scale over every frame of a clip)
// in the storage kinds of the clip format: default, constant, keyed (Catmull-Rom keys found by
// iterative insertion on quantized values) and uniform (spline through regular boundaries plus
// per-frame residuals at per-segment bit rates). Each encoder also returns the values the runtime
// will decode, computed with the runtime's own arithmetic (core/runtime/track_math.h).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/compress/settings.h"
#include "core/math/transform.h"
#include "core/runtime/clip_format.h"

namespace animpack::core {

using runtime::Channel;
using runtime::TrackKind;

/// One value of a sub-track: a rotation (x, y, z, w) or a vector (x, y, z, 0).
using Sample = std::array<float, 4>;

Sample sampleOf(const Transform& t, Channel channel);
void setSample(Transform& t, Channel channel, const Sample& s);

/// Distance in the channel's tolerance unit: rotation angle (radians), translation length (file
/// units), scale largest component difference.
double sampleDistance(Channel channel, const Sample& a, const Sample& b);

/// What to encode and how well.
struct TrackTarget {
  Channel channel = Channel::Rotation;
  std::span<const Sample> samples;  ///< one per frame; rotations sign-continuous
  Sample rest{};                    ///< the skeleton's rest value (a default track decodes to it)
  double tolerance = 0;             ///< largest allowed sampleDistance at any frame
};

struct UniformEncoding {
  bool hasReference = false;
  std::uint8_t components = 3;  ///< 4: rotation as x, y, z, w (any rotation range)
  Quat reference;
  float minValue[4] = {};
  float step = 0;                                        ///< quantization step of boundaries and residuals
  std::uint8_t width[4] = {};                            ///< boundary bits per component
  std::vector<std::array<std::uint32_t, 4>> boundaries;  ///< segmentCount + 1
  std::vector<std::uint8_t> shifts;                      ///< per segment: residual step = step * 2^-shift
  std::vector<std::array<std::uint8_t, 4>> bits;         ///< per segment and component
  std::vector<std::array<std::int32_t, 4>> residuals;    ///< per frame
};

struct KeyedEncoding {
  float rangeMin[3] = {};
  float rangeExtent[3] = {};
  std::vector<std::uint16_t> frames;
  std::vector<std::array<std::uint16_t, 3>> payload;
  std::vector<std::uint32_t> times;  ///< timed tracks: each key's time in 1/65536 frames (frames stays empty)
  std::uint8_t timedFormat =
      0;  ///< timed tracks: runtime::kTimedQuantized (payload), kTimedFloat (values) or kTimedPacked
  std::vector<Sample> values;  ///< timed tracks with float keys: each key's value
  /// Timed tracks with packed keys (kTimedPacked): per key its time's offset from the line of key times (units of
  /// 2^timeShift ticks) and its components' integers over minValue in units of step (FORMAT.md "Packed timed keys").
  std::uint8_t timeShift = 0, timeWidth = 0, components = 3;
  std::uint32_t timeSlope = 0;  ///< key k's time: (k x slope) / 256 + base + its offset (packed[k][0])
  std::int32_t timeBase = 0;
  std::uint8_t width[4] = {};
  float minValue[4] = {};
  float step = 0;
  std::vector<std::array<std::uint32_t, 5>> packed;
};

struct TrackEncoding {
  TrackKind kind = TrackKind::Default;
  Sample constant{};  ///< Default/Constant*: the decoded value at every frame
  UniformEncoding uniform;
  KeyedEncoding keyed;
  std::vector<Sample> decoded;  ///< per frame for keyed, uniform and raw tracks
  std::size_t bytes = 0;        ///< what the track costs in the clip
  double maxError = 0;          ///< largest sampleDistance to the target samples
  bool wide = false;            ///< needed more than 16 bits per component

  const Sample& at(std::size_t frame) const { return decoded.empty() ? constant : decoded[frame]; }
};

/// Default (equal to rest within tolerance) or constant (one value within tolerance, stored in the
/// smallest format that keeps it there), or nothing when the track varies more.
std::optional<TrackEncoding> encodeStatic(const TrackTarget& target, RotationFormat format);

/// Uniform encoding with `segmentLength`-frame segments. `shifts` (per segment, may be empty)
/// refine the residual step where the verification loop asked for it. Nothing when the values
/// cannot be represented (a rotation track spanning half a turn, or a range beyond 32 bits).
std::optional<TrackEncoding> encodeUniform(const TrackTarget& target, std::uint32_t segmentLength,
                                           std::span<const std::uint8_t> shifts);
/// Raw float32 samples (format version 2): the target itself, the precision floor of every other
/// kind, used where none of them reaches the tolerance.
TrackEncoding encodeRaw(const TrackTarget& target);

/// Bytes of a uniform track's fixed parameters.
std::size_t uniformParamBytes(const UniformEncoding& u);

/// Keyed encoding: keys added by iterative insertion at the worst sample until every frame is
/// within tolerance, never more than `maxGap` frames apart (bounding seek cost). Nothing when the
/// 48-bit/16-bit key formats cannot reach the tolerance or the keys would cost more than
/// `budgetBytes`.
std::optional<TrackEncoding> encodeKeyed(const TrackTarget& target, std::uint32_t maxGap, std::size_t budgetBytes);

/// A sub-track's source keys where some sit between the clip's frames: frame positions (the first
/// 0, the last the clip's last frame, increasing) and values (rotations sign-continuous).
struct TimedSource {
  std::vector<double> frames;
  std::vector<Sample> values;
};

/// A timed track's value between two keys `a` and `b` at fraction `u`, as the runtime computes it.
Sample timedValue(Channel channel, const Sample& a, const Sample& b, float u);

/// Timed encoding (format version 7): the source's keys at their own times, linear between them,
/// fewer where the line between the kept keys stays within `target.tolerance` of the dropped ones,
/// with quantized or float32 values, whichever is smaller (0 keeps every key, as float32: the
/// floor). `target.samples` are the frames' values, which the result is measured on. Nothing when
/// the keys cannot be placed (no key at the first or last frame).
std::optional<TrackEncoding> encodeTimed(const TrackTarget& target, const TimedSource& source);

/// Indices of the keys (at `ticks`, 1/65536 frames, with `values`) kept so the line between the kept
/// keys' `decoded` values passes every dropped key's value within `tolerance` (Douglas-Peucker on the
/// key times; the first and last are always kept, every key at tolerance 0).
std::vector<std::uint32_t> reduceTimed(Channel channel, std::span<const std::uint32_t> ticks,
                                       std::span<const Sample> values, std::span<const Sample> decoded,
                                       double tolerance);

/// Packed timed keys (format version 10, core/runtime/FORMAT.md "Packed timed keys") of the keys at
/// `ticks` with `values`: times rounded to a coarser unit with the source's value there, components
/// at the step the tolerance allows, keys thinned within what is left; the smallest of the units and
/// shares tried that keeps every source key and frame within `target.tolerance`. Nothing when none
/// does (or the tolerance is 0).
std::optional<TrackEncoding> encodePackedTimed(const TrackTarget& target, std::span<const std::uint32_t> ticks,
                                               std::span<const Sample> values);

}  // namespace animpack::core
