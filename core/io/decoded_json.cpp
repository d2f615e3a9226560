#include "core/io/decoded_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/runtime/additive.h"
#include "core/runtime/curves.h"
#include "core/runtime/player.h"
#include "core/runtime/root_motion.h"

namespace animpack::core {

namespace {

/// The "curves" and "curve_frames" members (with their leading commas).
void appendCurves(std::string& out, const ClipJsonHeader& header, const ClipJsonCurveFrame& curveFrame) {
  using nlohmann::json;
  json curves = json::array();
  for (const ClipJsonHeader::Curve& c : header.curves)
    curves.push_back({{"name", c.name},
                      {"kind", "morph"},
                      {"node", c.node},
                      {"target", c.target},
                      {"target_index", c.targetIndex},
                      {"precision_cm", c.precisionCm},
                      {"displacement_cm", c.displacementCm}});
  out += ",\"curves\":" + curves.dump() + ",\"curve_frames\":[";
  std::vector<float> weights(header.curves.size());
  char buf[32];
  for (std::uint32_t f = 0; !header.curves.empty() && curveFrame && f < header.frameCount; ++f) {
    curveFrame(f, weights);
    out += f ? ",[" : "[";
    for (std::size_t i = 0; i < weights.size(); ++i) {
      std::snprintf(buf, sizeof(buf), "%s%.9g", i ? "," : "", static_cast<double>(weights[i]));
      out += buf;
    }
    out += ']';
  }
  out += ']';
}

}  // namespace

std::string clipJson(const ClipJsonHeader& header, const ClipJsonFrame& frame, const ClipJsonCurveFrame& curves) {
  using nlohmann::json;
  json joints = json::array();
  for (std::size_t j = 0; j < header.names.size(); ++j)
    joints.push_back({{"name", header.names[j]},
                      {"parent", header.parents[j]},
                      {"precision_cm", header.tolerances[j].precisionCm},
                      {"shell_cm", header.tolerances[j].shellCm}});
  std::string out =
      "{\"clip\":" + json(header.clip).dump() + ",\"source\":" + json(header.source).dump() +
      ",\"source_clip\":" + (header.sourceClip ? json(*header.sourceClip) : json(nullptr)).dump() +
      ",\"clip_index\":" + std::to_string(header.clipIndex) + ",\"start_time\":" + json(header.startTime).dump() +
      ",\"sample_rate\":" + json(header.sampleRate).dump() + ",\"frame_count\":" + std::to_string(header.frameCount) +
      ",\"unit_to_cm\":" + json(header.unitToCm).dump() + ",\"scene_scale\":" + json(header.sceneScale).dump() +
      ",\"joints\":" + joints.dump() + ",\"frames\":[";
  // Frames are written by hand: a mocap clip has millions of numbers.
  std::vector<runtime::Transform> pose(header.names.size());
  char buf[32];
  auto number = [&](float v) {
    std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
    out += buf;
  };
  for (std::uint32_t f = 0; f < header.frameCount; ++f) {
    frame(f, pose);
    out += f ? ",[" : "[";
    for (std::size_t j = 0; j < pose.size(); ++j) {
      const runtime::Transform& t = pose[j];
      const float v[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                           t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
      out += j ? ",[" : "[";
      for (int i = 0; i < 10; ++i) {
        if (i) out += ',';
        number(v[i]);
      }
      out += ']';
    }
    out += ']';
  }
  out += "]";
  appendCurves(out, header, curves);
  out += "}\n";
  return out;
}

std::string decodedClipJson(const runtime::Pack& pack, const runtime::PackClip& clip, std::optional<double> rateHz,
                            bool foldRootMotion, bool additiveDeltas) {
  const runtime::PackSkeleton& sk = pack.skeleton();
  // A dropped last frame is written too (decoded through the wrap as frame 0): the output has the
  // source's frames, so an independent check compares like with like.
  const std::uint32_t frames = clip.view.sourceFrameCount();
  const double duration = frames > 1 ? double(frames - 1) / double(clip.sampleRate()) : 0.0;
  const std::uint32_t count = rateHz ? sampleCount(duration, *rateHz) : frames;
  // The pack stores these as floats: widen them exactly so the text reads back as the same float.
  ClipJsonHeader header{std::string(clip.name()),
                        clip.clipIndex(),
                        clip.startTime(),
                        rateHz ? *rateHz : double(clip.sampleRate()),
                        count,
                        double(sk.unitToCm()),
                        double(clip.sceneScale()),
                        sk.names(),
                        {sk.parents().begin(), sk.parents().end()},
                        clip.tolerances(),
                        std::string(clip.sourceFile()),
                        clip.sourceClip().empty() ? std::nullopt : std::optional<std::string>(clip.sourceClip()),
                        {}};
  for (std::uint32_t i = 0; i < sk.curveCount(); ++i)
    header.curves.push_back({std::string(sk.curveName(i)), std::string(sk.curveNode(i)), std::string(sk.curveTarget(i)),
                             sk.curveTargetIndex(i), clip.curvePrecisionCm(i),
                             sk.curveDisplacementCm(i) * clip.sceneScale()});
  runtime::Player player, basePlayer;
  runtime::RootMotionScratch rootScratch;
  const bool apply = clip.view.additive() && !additiveDeltas;
  std::vector<runtime::Transform> base(apply ? sk.jointCount() : 0);
  std::vector<float> baseWeights(apply ? sk.curveCount() : 0);
  // The clip's own frames exactly; with a rate, the frame position of start_time + f / rate.
  auto frameOf = [&](std::uint32_t f) {
    return rateHz ? std::min(double(f) / *rateHz * double(clip.sampleRate()), double(frames - 1)) : double(f);
  };
  auto curves = [&](std::uint32_t f, std::span<float> weights) {
    const double frame = frameOf(f);
    runtime::sampleCurvesAtFrame(clip.view, static_cast<float>(frame), weights);
    if (!apply) return;
    runtime::sampleAdditiveBaseCurves(pack, clip, static_cast<float>(frame / double(clip.sampleRate())), baseWeights);
    runtime::applyAdditiveCurves(baseWeights, weights, 1.f, weights);
  };
  return clipJson(
      header,
      [&](std::uint32_t f, std::span<runtime::Transform> pose) {
        const double frame = frameOf(f);
        player.sampleFrame(clip.view, static_cast<float>(frame), pose);
        if (foldRootMotion)
          runtime::applyRootMotionAtFrame(player, clip.view, static_cast<float>(frame), sk.parents(), pose,
                                          rootScratch);
        if (!apply) return;
        runtime::sampleAdditiveBase(pack, clip, basePlayer, static_cast<float>(frame / double(clip.sampleRate())),
                                    base);
        runtime::applyAdditive(base, pose, 1.f, pose);
      },
      curves);
}

std::uint32_t sampleCount(double durationS, double rateHz) {
  return static_cast<std::uint32_t>(std::floor(durationS * rateHz + 1e-9)) + 1;
}

}  // namespace animpack::core
