#include "core/compress/clip_writer.h"

#include <cstring>

#include "core/base/assert.h"
#include "core/io/clip_builder.h"
#include "core/runtime/quantize.h"

namespace animpack::core {
namespace {

/// The stored bytes of a constant track (FORMAT.md "Sub-tracks and kinds").
void constantBytes(const TrackEncoding& t, Channel channel, std::array<std::uint8_t, 16>& out) {
  const Sample& v = t.constant;
  switch (t.kind) {
    case TrackKind::Constant:
      if (channel == Channel::Rotation) {
        std::uint16_t q[3];
        runtime::packQuat48({v[0], v[1], v[2], v[3]}, q);
        for (int i = 0; i < 3; ++i) runtime::storeLE(out.data() + 2 * i, q[i]);
      } else {
        for (int c = 0; c < 3; ++c) runtime::storeLE(out.data() + 4 * c, v[std::size_t(c)]);
      }
      break;
    case TrackKind::ConstantQ32: runtime::storeLE(out.data(), runtime::packQuat32({v[0], v[1], v[2], v[3]})); break;
    case TrackKind::ConstantFloat:
      for (int c = 0; c < 4; ++c) runtime::storeLE(out.data() + 4 * c, v[std::size_t(c)]);
      break;
    default: break;
  }
}

/// One sub-track as the block builder reads it (spans into `t`).
runtime::BlockTrack blockTrack(const TrackEncoding& t, Channel channel) {
  runtime::BlockTrack b;
  b.kind = t.kind;
  constantBytes(t, channel, b.constant);
  if (t.kind == TrackKind::Keyed || t.kind == TrackKind::Timed) {
    std::memcpy(b.rangeMin, t.keyed.rangeMin, sizeof(b.rangeMin));
    std::memcpy(b.rangeExtent, t.keyed.rangeExtent, sizeof(b.rangeExtent));
    b.keyFrames = t.keyed.frames;
    b.keyTimes = t.keyed.times;
    b.keyPayloads = t.keyed.payload;
    b.timedFormat = t.keyed.timedFormat;
    b.keyValues = t.keyed.values;
    if (t.keyed.timedFormat == runtime::kTimedPacked) {
      b.timeShift = t.keyed.timeShift;
      b.timeWidth = t.keyed.timeWidth;
      b.timedComponents = t.keyed.components;
      std::memcpy(b.width, t.keyed.width, sizeof(b.width));
      std::memcpy(b.minValue, t.keyed.minValue, sizeof(b.minValue));
      b.step = t.keyed.step;
      b.keyPacked = t.keyed.packed;
      b.timeSlope = t.keyed.timeSlope;
      b.timeBase = t.keyed.timeBase;
    }
  }
  if (t.kind == TrackKind::Uniform) {
    const UniformEncoding& u = t.uniform;
    b.uniformFlags = static_cast<std::uint8_t>((u.hasReference ? runtime::kUniformFlagReference : 0) |
                                               (u.components == 4 ? runtime::kUniformFlagFourComponents : 0));
    std::memcpy(b.minValue, u.minValue, sizeof(b.minValue));
    b.step = u.step;
    std::memcpy(b.width, u.width, sizeof(b.width));
    b.reference[0] = u.reference.x;
    b.reference[1] = u.reference.y;
    b.reference[2] = u.reference.z;
    b.reference[3] = u.reference.w;
    b.boundaries = u.boundaries;
    b.shifts = u.shifts;
    b.bits = u.bits;
    b.residuals = u.residuals;
  }
  if (t.kind == TrackKind::Raw) b.raw = t.decoded;
  return b;
}

}  // namespace

std::vector<std::uint8_t> writeClip(const ClipLayout& layout) {
  const std::size_t subTracks = layout.tracks.size();
  ANIMPACK_ASSERT(subTracks % 3 == 0 && subTracks / 3 <= runtime::kMaxJoints, "sub-track count is a multiple of 3");
  std::vector<runtime::BlockTrack> tracks;
  tracks.reserve(subTracks);
  for (std::size_t i = 0; i < subTracks; ++i) {
    ANIMPACK_ASSERT(layout.tracks[i].kind != TrackKind::Raw || layout.tracks[i].decoded.size() == layout.frameCount,
                    "a raw track holds every frame");
    tracks.push_back(blockTrack(layout.tracks[i], Channel(i % 3)));
  }
  runtime::BlockClip clip;
  clip.frameCount = layout.frameCount;
  clip.sampleRate = layout.sampleRate;
  const bool wrap = layout.loop && layout.wrap;
  clip.flags =
      static_cast<std::uint16_t>((layout.loop ? runtime::kClipFlagLoop : 0u) | (wrap ? runtime::kClipFlagWrap : 0u) |
                                 (wrap && layout.droppedLast ? runtime::kClipFlagDroppedLast : 0u) |
                                 (layout.additive ? runtime::kClipFlagAdditive : 0u));
  clip.segmentLength = layout.segmentLength;
  clip.tracks = tracks;
  return runtime::buildClip(clip);
}

}  // namespace animpack::core
