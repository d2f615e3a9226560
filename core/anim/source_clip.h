#pragma once
// What a clip is at any instant: the source's own keys, kept in double precision and interpolated
// as the importer samples them (lerp for translation and scale, shortest-path slerp for rotation).
// The reference of every error measurement, at the clip's frames and between them, so resampling
// onto the frame grid and float32 rounding both count as error.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/math/transform.h"

namespace animpack::core {

struct RawClip;

/// A translation, rotation (unit quaternion x y z w) and scale in double precision.
struct TransformD {
  std::array<double, 3> translation{0, 0, 0};
  std::array<double, 4> rotation{0, 0, 0, 1};
  std::array<double, 3> scale{1, 1, 1};

  Mat34d matrix() const;
};

/// One source node: its static transform and the keys of its animated channels.
struct SourceNode {
  bool animated = false;                         ///< false: `staticMatrix` at every time
  Mat34d staticMatrix;                           ///< the node's own matrix, exactly as the file gives it
  TransformD rest;                               ///< an animated node's value for a channel without keys
  std::array<std::vector<double>, 3> times;      ///< ticks, ascending: rotation, translation, scale
  std::vector<std::array<double, 4>> rotations;  ///< unit, any sign (interpolation takes the short way)
  std::vector<std::array<double, 3>> positions;
  std::vector<std::array<double, 3>> scales;

  /// The node's transform at `ticks` (clamped to its keys).
  TransformD at(double ticks) const;
  /// Its matrix at `ticks`.
  Mat34d matrixAt(double ticks) const { return animated ? at(ticks).matrix() : staticMatrix; }
};

class SourceClip {
 public:
  /// `chains[j]`: the nodes whose product is joint j's local transform, outermost first.
  SourceClip(std::vector<SourceNode> nodes, std::vector<std::vector<std::uint32_t>> chains, double startTicks,
             double ticksPerFrame, double endTicks);

  std::uint32_t jointCount() const { return static_cast<std::uint32_t>(m_chains.size()); }
  const std::vector<SourceNode>& nodes() const { return m_nodes; }
  const std::vector<std::vector<std::uint32_t>>& chains() const { return m_chains; }
  double startTicks() const { return m_startTicks; }
  double ticksPerFrame() const { return m_ticksPerFrame; }
  double endTicks() const { return m_endTicks; }
  /// Checks chain indices, key counts, times (ascending, finite) and values (finite).
  bool valid(std::uint32_t joints) const;
  /// Local matrices of every joint at frame position `frame` (fractional frames lie between).
  void localMatrices(double frame, std::span<Mat34d> out) const;
  /// Frame positions of every source key (fractional where a key is not on a frame).
  std::vector<double> keyFramePositions() const;
  /// The frame position of the first jump: two keys of one channel at one time (within a
  /// millionth of a frame) with different values. No interpolation of frames follows a jump, and
  /// the file does not say which of the two values the time itself takes.
  std::optional<double> firstJumpFrame() const;
  /// Object-space matrices (parents first) at frame position `frame`.
  void objectMatrices(std::span<const std::int32_t> parents, double frame, std::span<Mat34d> out) const;

 private:
  std::vector<SourceNode> m_nodes;
  std::vector<std::vector<std::uint32_t>> m_chains;
  double m_startTicks, m_ticksPerFrame, m_endTicks;
};

/// The source of a clip that was built from frames (generated rigs): its frames are its keys.
SourceClip sourceFromFrames(const RawClip& clip);

/// Double-precision shortest-path slerp of unit quaternions (x y z w), from sines: the reference
/// every faster interpolation is measured against.
std::array<double, 4> slerpExact(const std::array<double, 4>& a, const std::array<double, 4>& b, double t);

}  // namespace animpack::core
