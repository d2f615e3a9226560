#include "core/io/pack_verify.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/compress/additive_base.h"
#include "core/compress/curve_compress.h"
#include "core/compress/error_metric.h"
#include "core/compress/joint_order.h"
#include "core/compress/settings.h"
#include "core/compress/vertex_error.h"
#include "core/runtime/additive.h"
#include "core/runtime/curves.h"
#include "core/runtime/player.h"
#include "core/runtime/root_motion.h"

namespace animpack::core {

Expected<SourceClips> matchSources(const runtime::Pack& pack, const std::vector<std::filesystem::path>& sources,
                                   const ImportFunction& importer) {
  const ImportFunction import = importer ? importer : ImportFunction(&importAsset);
  SourceClips out;
  out.clips.resize(pack.clips().size());
  out.assetOf.assign(pack.clips().size(), -1);
  const runtime::PackSkeleton& sk = pack.skeleton();
  for (const std::filesystem::path& source : sources) {
    const std::string fileName = source.filename().string();
    // Clips of this source, grouped by sample rate (a settings override may have resampled them).
    std::map<float, std::vector<std::size_t>> byRate;
    for (std::size_t i = 0; i < pack.clips().size(); ++i)
      if (pack.clips()[i].sourceFile() == fileName) byRate[pack.clips()[i].sampleRate()].push_back(i);
    if (byRate.empty())
      return Error{"no clip of '" + source.string() + "' is in the pack (its clips come from other files)"};
    for (const auto& [rate, indices] : byRate) {
      ImportOptions options;
      options.unitToCm = sk.unitToCm();
      auto asset = import(source, options);
      if (!asset) return Error{asset.message()};
      // Resample only when the pack's rate is not the file's own.
      bool sameRate = true;
      for (std::size_t i : indices) {
        const std::uint32_t index = pack.clips()[i].clipIndex();
        sameRate = sameRate && index < asset->clips.size() && float(asset->clips[index].sampleRate) == rate;
      }
      if (!sameRate) {
        options.sampleRate = rate;
        asset = import(source, options);
        if (!asset) return Error{asset.message()};
      }
      matchJointOrder(*asset, sk.names());
      if (asset->skeleton.names != sk.names() || !std::ranges::equal(asset->skeleton.parents, sk.parents()))
        return Error{"'" + source.string() + "' has another skeleton than the pack"};
      bool sameCurves = asset->curves.size() == sk.curveCount();
      for (std::uint32_t c = 0; sameCurves && c < sk.curveCount(); ++c)
        sameCurves = asset->curves[c].name == sk.curveName(c);
      if (!sameCurves)
        return Error{"'" + source.string() + "' has other morph targets than the pack (" +
                     std::to_string(asset->curves.size()) + " curves, the pack " + std::to_string(sk.curveCount()) +
                     ")"};
      for (std::size_t i : indices) {
        const std::uint32_t index = pack.clips()[i].clipIndex();
        if (index < asset->clips.size()) out.clips[i] = asset->clips[index];
        out.assetOf[i] = std::int32_t(out.assets.size());
      }
      out.assets.push_back(std::move(asset.value()));
    }
  }
  return out;
}

namespace {

/// The clip's curves against the source's keys (an additive clip: its weights on its decoded base).
void verifyCurves(const runtime::Pack& pack, const runtime::PackClip& clip, const RawClip& raw, ClipVerification& v) {
  const runtime::PackSkeleton& sk = pack.skeleton();
  const std::uint32_t n = sk.curveCount();
  if (n == 0) return;
  std::vector<double> times;  // in source frames
  const std::uint32_t frames = clip.view.sourceFrameCount();
  for (std::uint32_t f = 0; f < frames; ++f)
    for (int k = 0; k < (f + 1 < frames ? 4 : 1); ++k) times.push_back(f + k / 4.0);
  for (const CurveKeys& keys : raw.curves)
    for (double t : keys.times) times.push_back(std::clamp(t * raw.sampleRate, 0.0, double(frames - 1)));
  std::vector<float> weights(n), base(n);
  std::vector<double> worst(n, 0);
  for (double frame : times) {
    runtime::sampleCurvesAtFrame(clip.view, static_cast<float>(frame), weights);
    const double seconds = frame / raw.sampleRate;
    if (clip.view.additive()) {
      runtime::sampleAdditiveBaseCurves(pack, clip, static_cast<float>(seconds), base);
      runtime::applyAdditiveCurves(base, weights, 1.f, weights);
    }
    for (std::uint32_t c = 0; c < n; ++c) {
      const double e = std::fabs(double(weights[c]) - sourceWeight(raw, c, sk.restWeights()[c], seconds)) *
                       double(sk.curveDisplacementCm(c)) * double(clip.sceneScale());
      worst[c] = std::max(worst[c], e);
    }
  }
  v.maxMorphErrorCm = 0;
  for (std::uint32_t c = 0; c < n; ++c) {
    if (worst[c] > v.maxMorphErrorCm || v.worstCurve.empty()) {
      v.maxMorphErrorCm = static_cast<float>(worst[c]);
      v.worstCurve = sk.curveName(c);
    }
    if (worst[c] > double(clip.curvePrecisionCm(c)) * 1.0001) v.overPrecision.emplace_back(sk.curveName(c));
  }
}

}  // namespace

std::vector<ClipVerification> verifyPack(const runtime::Pack& pack, const SourceClips& sources) {
  std::vector<ClipVerification> result;
  const runtime::PackSkeleton& sk = pack.skeleton();
  Skeleton skeleton;
  skeleton.names = sk.names();
  skeleton.parents.assign(sk.parents().begin(), sk.parents().end());
  skeleton.restLocal.assign(sk.restPose().begin(), sk.restPose().end());
  skeleton.inverseBind.resize(sk.jointCount());
  for (std::size_t i = 0; i < pack.clips().size(); ++i) {
    const runtime::PackClip& clip = pack.clips()[i];
    ClipVerification v;
    v.name = clip.name();
    v.sourceFile = clip.sourceFile();
    const auto& raw = sources.clips[i];
    v.checked = raw.has_value();
    if (!raw) {
      result.push_back(v);
      continue;
    }
    if (raw->frameCount != clip.view.sourceFrameCount()) {
      v.problem = "the source has " + std::to_string(raw->frameCount) + " frames, the pack " +
                  std::to_string(clip.view.sourceFrameCount());
      result.push_back(v);
      continue;
    }
    std::vector<float> shells;
    for (const auto& t : clip.tolerances()) shells.push_back(t.shellCm);
    // At every frame and between frames, against the source's own keys; a looping clip's wrap
    // interval as the compressor verified it.
    // With root motion the wrap interval ends at frame 0 moved on by one cycle.
    std::vector<Transform> cycleEnd;
    if (const auto rm = clip.view.rootMotion(); rm && clip.view.wraps()) {
      cycleEnd.assign(raw->frame(0).begin(), raw->frame(0).end());
      const float cycle = clip.view.cycleFrames() / clip.view.sampleRate();
      runtime::moveJoint(skeleton.parents, rm->joint, runtime::characterMotion(clip.view, 0.f, cycle), cycleEnd);
    }
    // Lengths in the scene's centimetres, at the scene scale the clip was compressed at.
    const double lengthToCm = double(sk.unitToCm()) * double(clip.sceneScale());
    const ErrorMetric metric(skeleton, *raw, lengthToCm, shells, 1,
                             LoopLayout{clip.view.wraps(), clip.view.droppedLastFrame()}, cycleEnd);
    runtime::Player player;
    // An additive clip is judged as what it shows: its deltas applied to its decoded base.
    const auto base = clip.view.additive() ? std::optional(AdditiveBase::fromPack(pack, clip)) : std::nullopt;
    if (base && !*base) {
      v.problem = base->message();
      result.push_back(v);
      continue;
    }
    const ErrorSummary s =
        metric.summarize(metric.measureDecoded(clip.view, player, nullptr, base ? &base->value() : nullptr));
    v.maxErrorCm = s.maxCm;
    v.maxErrorBetweenFramesCm = s.maxBetweenCm;
    v.p99ErrorCm = s.p99Cm;
    v.worstJoint = s.worstJoint >= 0 ? std::string(sk.name(std::uint32_t(s.worstJoint))) : "";
    v.worstFrame = s.worstFrame;
    v.worstTimeS = s.worstFrameTime / double(clip.sampleRate());
    float strictest = std::numeric_limits<float>::infinity(), jointShare = 0;
    for (std::size_t j = 0; j < s.jointMaxCm.size(); ++j) {
      const float precision = clip.tolerance(std::uint32_t(j)).precisionCm;
      if (s.jointMaxCm[j] > precision) v.overPrecision.emplace_back(sk.name(std::uint32_t(j)));
      strictest = std::min(strictest, precision);
      jointShare = std::max(jointShare, s.jointMaxCm[j] / precision);
    }
    // The skin the source file carries, as the compressor measured it (an additive clip on its
    // base); a clip with extracted root motion decodes in place, so its skin is not compared here.
    const std::int32_t a = sources.assetOf.empty() ? -1 : sources.assetOf[i];
    if (a >= 0 && !s.jointMaxCm.empty() && !clip.view.rootMotion()) {
      const ImportedAsset& asset = sources.assets[std::size_t(a)];
      const VertexErrorMetric skin(asset.skeleton, asset.meshes, lengthToCm, restWeights(asset.curves));
      if (!skin.empty()) {
        v.maxVertexErrorCm = measureVertexError(skin, asset.skeleton, *raw, clip.view, base ? &base->value() : nullptr);
        v.skinBoundCm = kSkinBoundFactor * strictest;
      }
    }
    v.limitedBy = pack.skeleton().jointCount() == 0                                      ? "morphs"
                  : v.skinBoundCm > 0 && v.maxVertexErrorCm / v.skinBoundCm > jointShare ? "skin"
                                                                                         : "joints";
    verifyCurves(pack, clip, *raw, v);
    result.push_back(v);
  }
  return result;
}

}  // namespace animpack::core
