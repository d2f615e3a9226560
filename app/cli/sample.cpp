#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/import_options.h"
#include "app/cli/settings_options.h"
#include "core/anim/raw_sampler.h"
#include "core/anim/source_clip.h"
#include "core/batch/clip_names.h"
#include "core/io/asset_importer.h"
#include "core/compress/curve_compress.h"
#include "core/io/decoded_json.h"

namespace animpack::cli {
namespace {

/// The most transforms one JSON file may hold (about 100 bytes of text each).
constexpr double kMaxSampledTransforms = double(1u << 26);

/// The source clip at `seconds` after its first frame: the one place that defines the
/// uncompressed reference `sample --rate` writes between frames.
void sampleSource(const core::RawClip& clip, double seconds, std::span<core::Transform> out) {
  if (!clip.source) {
    core::RawSampler::sample(clip, seconds, out);
    return;
  }
  // The source's own keys, interpolated in double (what the error metric compares against).
  std::vector<core::Mat34d> local(clip.jointCount);
  const double frame = std::clamp(seconds * clip.sampleRate, 0.0, double(clip.frameCount - 1));
  clip.source->localMatrices(frame, local);
  for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
    out[j] = core::decompose(local[j]);
    // The sign of the frames' (sign-continuous) rotations, so the samples read as one track.
    if (runtime::dot(out[j].rotation, clip.at(j, static_cast<std::uint32_t>(frame)).rotation) < 0.f)
      out[j].rotation = runtime::negated(out[j].rotation);
  }
}

/// The pack names of a file's clips as a pack of this file alone would hold them.
Expected<std::vector<core::PackClipName>> fileClipNames(const core::ImportedAsset& asset, const std::string& file,
                                                        const core::CompressionSettings& settings) {
  std::vector<core::ClipNameSource> sources;
  for (const core::RawClip& c : asset.clips)
    sources.push_back({file, c.name, c.clipIndex, static_cast<std::uint32_t>(asset.clips.size()), &settings});
  return core::packClipNames(sources);
}

}  // namespace

int sampleCommand(int argc, char** argv, int first) {
  std::vector<Option> options = {
      {"clip", "NAME|#N",
       "the clip: its pack name, its animation name, a wildcard matching one clip, or #N (clip_index N, from 0)"},
      {"rate", "HZ", "write frames at start_time + k / HZ instead of the clip's own frames"},
      {"scene-units", "",
       "write unit_to_cm x scene_scale as unit_to_cm and scene_scale 1: the scene's cm per file unit, for tools "
       "that know only unit_to_cm (the peer benchmarks)"},
      {"output", "RAW.json", "where to write the JSON ('-' for stdout)", false, 'o'}};
  for (Option& o : settingsOptions()) options.push_back(std::move(o));
  for (Option& o : importOptions()) options.push_back(std::move(o));
  Args args("sample", "FILE --clip NAME|#N [--rate HZ] [--scene-units] -o RAW.json [settings options]",
            "Imports FILE and writes one clip, uncompressed, in the JSON that 'animpack decode' writes (the\n"
            "README's 'decode' schema: local transforms in file units): the input other compressors and\n"
            "peer benchmarks start from. Each joint's precision_cm and shell_cm are the ones 'compress'\n"
            "would use with the same settings options. Without --rate the frames are the clip's own; with\n"
            "--rate HZ (0 < HZ <= 10000) frame k is the source at start_time + k / HZ, k = 0 .. floor(duration * HZ).",
            options);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() != 1) return usageError("sample", "expected exactly one FILE");
  const auto clipSpec = args.value("clip");
  const auto output = args.value("output");
  if (!clipSpec) return usageError("sample", "missing --clip NAME|#N");
  if (!output) return usageError("sample", "missing -o RAW.json");
  std::optional<double> rate;
  std::string error;
  if (!args.number("rate", rate, error)) return usageError("sample", error);
  if (rate && !(*rate > 0 && *rate <= 10000)) return usageError("sample", "--rate must be in (0, 10000] Hz");
  core::CompressionSettings settings;
  if (auto exit = readSettings(args, "sample", settings)) return *exit;
  core::ImportFunction importFile;
  if (auto exit = readImporter(args, "sample", importFile)) return *exit;

  const std::string file = args.positional()[0];
  core::ImportOptions importOptions = core::importOptionsOf(settings);
  auto asset = importFile(file, importOptions);
  if (!asset) return failure(asset.message());
  auto names = fileClipNames(*asset, file, settings);
  if (!names) return failure(names.message());
  std::vector<core::ClipChoice> choices;
  for (std::size_t c = 0; c < asset->clips.size(); ++c) choices.push_back({(*names)[c].name, asset->clips[c].name});
  auto index = core::matchOneClip(*clipSpec, choices);
  if (!index) return failure("'" + file + "': " + index.message());
  const core::PackClipName& packName = (*names)[*index];
  const core::RawClip* found = &asset->clips[*index];
  const core::EffectiveSettings effective =
      core::resolve(core::settingsForPackName(settings, packName), asset->skeleton, packName.name, asset->meshes,
                    asset->unitToCm, asset->curves, asset->sceneScale);
  // A clip override of the sample rate or unit needs the file imported with it, as compress does.
  if ((effective.sampleRate && *effective.sampleRate != found->sampleRate) ||
      (effective.unitToCm && *effective.unitToCm != asset->unitToCm)) {
    const std::uint32_t clipIndex = found->clipIndex;
    importOptions.unitToCm = effective.unitToCm;
    importOptions.sampleRate = effective.sampleRate;
    asset = importFile(file, importOptions);
    if (!asset) return failure(asset.message());
    found = &asset->clips[clipIndex];
  }
  const core::RawClip& clip = *found;

  core::ClipJsonHeader header{packName.name,
                              clip.clipIndex,
                              clip.startTime,
                              clip.sampleRate,
                              clip.frameCount,
                              asset->unitToCm,
                              effective.sceneScale,
                              asset->skeleton.names,
                              asset->skeleton.parents,
                              {},
                              std::filesystem::path(file).filename().string(),
                              clip.name,
                              {}};
  if (args.has("scene-units")) {
    header.unitToCm *= header.sceneScale;
    header.sceneScale = 1;
  }
  for (const core::EffectiveJoint& j : effective.joints) header.tolerances.push_back({j.precisionCm, j.shellCm});
  for (std::size_t i = 0; i < asset->curves.size(); ++i) {
    const core::MorphCurve& c = asset->curves[i];
    const float precision = i < effective.curves.size() ? effective.curves[i].precisionCm : core::kDefaultPrecisionCm;
    header.curves.push_back({c.name, c.node, c.target, c.targetIndex, precision,
                             static_cast<float>(c.displacementCm * effective.sceneScale / asset->sceneScale)});
  }
  if (rate) {
    // A relative slack so a duration that is a whole number of steps keeps its last frame.
    const double steps = std::floor(clip.duration() * *rate * (1 + 1e-12) + 1e-9);
    if ((steps + 1) * double(clip.jointCount) > kMaxSampledTransforms)
      return failure("--rate " + *args.value("rate") + " gives " + std::to_string(std::llround(steps + 1)) +
                     " frames of " + std::to_string(clip.jointCount) + " joints: too many for one JSON file");
    header.sampleRate = *rate;
    header.frameCount = static_cast<std::uint32_t>(steps) + 1;
  }
  const std::string json = core::clipJson(
      header,
      [&](std::uint32_t f, std::span<runtime::Transform> pose) {
        if (rate) sampleSource(clip, double(f) / *rate, pose);
        else std::copy(clip.frame(f).begin(), clip.frame(f).end(), pose.begin());
      },
      [&](std::uint32_t f, std::span<float> weights) {
        // The source's own keys (linear between them), at the frame's time or start_time + f / HZ.
        const double seconds = rate ? double(f) / *rate : double(f) / clip.sampleRate;
        for (std::size_t i = 0; i < weights.size(); ++i)
          weights[i] = static_cast<float>(
              core::sourceWeight(clip, static_cast<std::uint32_t>(i), asset->curves[i].restWeight, seconds));
      });
  return writeOutput(*output, json);
}

}  // namespace animpack::cli
