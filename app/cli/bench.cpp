#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/import_options.h"
#include "core/anim/raw_sampler.h"
#include "core/batch/clip_names.h"
#include "core/io/pack_verify.h"
#include "core/runtime/player.h"

namespace animpack::cli {
namespace {

/// Median over 7 runs of the nanoseconds per call of `body`, each run repeated for at least 20 ms.
double medianNs(std::size_t calls, const std::function<void()>& body) {
  std::vector<double> runs;
  for (int r = 0; r < 7; ++r) {
    std::size_t done = 0;
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    do {
      body();
      done += calls;
      elapsed = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    } while (elapsed < 2e7);
    runs.push_back(elapsed / double(done));
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

struct ClipBench {
  std::string name;
  std::uint32_t joints = 0, frames = 0;
  std::size_t poses = 0;
  double forward30 = 0, forward = 0, backward = 0, random = 0, blend = 0;
  std::optional<double> raw;
};

}  // namespace

int benchCommand(int argc, char** argv, int first) {
  std::vector<Option> flags = {{"source", "FILE", "source file: adds the raw float clip for comparison", true},
                               {"clip", "NAME", "only this clip: its pack name, its source animation's name, a wildcard or #N"},
                               {"scalar", "", "decode with the portable lanes instead of SIMD (every path gives identical poses)"},
                               {"sse2", "", "decode with SSE2 even on a CPU with AVX2 (identical poses)"},
                               {"json", "", "print one JSON object"}};
  for (Option& o : importOptions()) flags.push_back(std::move(o));
  Args args("bench", "PACK [--source FILE]... [--clip NAME] [--scalar|--sse2] [--json]",
            "Times decoding with the runtime: median ns per pose (and per joint) over 7 runs. forward = playback\n"
            "at times k/60 s (k = 0 .. duration x 60) through Player::sample (fwd 30Hz: k/30 s); random = the same\n"
            "60 Hz times in a fixed permutation; backward = the same times in reverse; blend = the 60 Hz times\n"
            "through Player::blend (decomposed blend, weight 0.5, with the next clip of the pack at the same share of\n"
            "its duration; a pack's only clip with itself at half the time). With the source, also the\n"
            "raw float clip sampled with the O(1) lookup, side by side (Assimp runs in a child process, as in\n"
            "compress). context_bytes: the player's state; clip_bytes: what the opened clips derive and every\n"
            "player of them shares (decoded boundary rows, residual offsets, track parameters).",
            flags);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() != 1) return usageError("bench", "expected exactly one PACK");
  core::ImportFunction importer;
  if (auto exit = readImporter(args, "bench", importer)) return *exit;
  auto pack = runtime::Pack::load(args.positional()[0]);
  if (!pack) return failure(pack.message());
  std::vector<std::filesystem::path> sourcePaths;
  for (const auto& s : args.values("source")) sourcePaths.emplace_back(s);
  core::SourceClips sources;
  sources.clips.resize(pack->clips().size());
  if (!sourcePaths.empty()) {
    auto matched = core::matchSources(*pack, sourcePaths, importer);
    if (!matched) return failure(matched.message());
    sources = std::move(matched.value());
  }
  // --clip as every command reads it (docs/CLIP_NAMES.md); source names come from the pack (format
  // version 4) or, for an older pack, from a given source.
  std::optional<std::size_t> only;
  if (const auto spec = args.value("clip")) {
    std::vector<core::ClipChoice> choices;
    for (std::size_t i = 0; i < pack->clips().size(); ++i)
      choices.push_back({pack->clips()[i].name, !pack->clips()[i].sourceClip.empty() ? pack->clips()[i].sourceClip
                                                : sources.clips[i] ? sources.clips[i]->name : std::string()});
    auto index = core::matchOneClip(*spec, choices);
    if (!index) return failure("'" + args.positional()[0] + "': " + index.message());
    only = *index;
  }

  std::vector<ClipBench> results;
  if (args.has("scalar") && args.has("sse2")) return usageError("bench", "--scalar and --sse2 pick two different decoders: give one");
  runtime::Player player(args.has("scalar") ? runtime::DecodePath::Scalar
                         : args.has("sse2") ? runtime::DecodePath::Sse2
                                            : runtime::DecodePath::Simd);
  volatile float sink = 0;
  for (std::size_t i = 0; i < pack->clips().size(); ++i) {
    const runtime::PackClip& clip = pack->clips()[i];
    if (only && i != *only) continue;
    const runtime::ClipView& view = clip.view;
    const runtime::PackClip& other = pack->clips()[(i + 1) % pack->clips().size()];
    ClipBench b;
    b.name = clip.name;
    b.joints = view.jointCount();
    b.frames = clip.frameCount;
    std::vector<runtime::Transform> out(view.jointCount());
    auto times = [&](double hz) {
      std::vector<float> t;
      for (double s = 0; s <= double(view.duration()) + 1e-9; s += 1.0 / hz) t.push_back(float(s));
      return t;
    };
    const std::vector<float> t30 = times(30), t60 = times(60);
    std::vector<float> back(t60.rbegin(), t60.rend()), random = t60;
    std::shuffle(random.begin(), random.end(), std::mt19937(42));
    auto play = [&](const std::vector<float>& ts) {
      return [&, ts] {
        for (float t : ts) player.sample(view, t, out);
        sink = sink + out[0].rotation.w;
      };
    };
    b.poses = t60.size();
    b.forward30 = medianNs(t30.size(), play(t30));
    b.forward = medianNs(t60.size(), play(t60));
    b.backward = medianNs(back.size(), play(back));
    b.random = medianNs(random.size(), [&] {
      for (float t : random) player.sample(view, t, out);
      sink = sink + out[0].rotation.w;
    });
    // The other clip's time runs through its whole duration; a pack's only clip blends with itself
    // at half the time, so the two poses differ (equal poses would only be compared, not blended).
    const float otherScale = &other == &clip ? 0.5f : other.view.duration() / std::max(view.duration(), 1e-6f);
    b.blend = medianNs(t60.size(), [&] {
      for (float t : t60) player.blend(view, t, other.view, t * otherScale, 0.5f, runtime::BlendMode::Decomposed, out);
      sink = sink + out[0].rotation.w;
    });
    if (sources.clips[i]) {
      const core::RawClip& raw = *sources.clips[i];
      std::vector<core::Transform> rawOut(raw.jointCount);
      b.raw = medianNs(t60.size(), [&] {
        // The source sampled as the runtime plays the clip: through its wrap interval when it wraps
        // with every source frame kept (a dropped repeated last frame leaves the source's own loop).
        const bool wraps = view.wraps() && raw.frameCount == view.frameCount();
        for (float t : t60) {
          if (wraps) core::RawSampler::sampleWrapping(raw, t, rawOut);
          else core::RawSampler::sample(raw, t, rawOut, clip.loop);
        }
        sink = sink + rawOut[0].rotation.w;
      });
    }
    results.push_back(b);
  }

  // Totals: every clip weighted by its 60 Hz poses.
  std::size_t poses = 0, rawPoses = 0;
  double f30 = 0, fwd = 0, bwd = 0, rnd = 0, bl = 0, raw = 0;
  for (const ClipBench& b : results) {
    poses += b.poses;
    f30 += b.forward30 * double(b.poses);
    fwd += b.forward * double(b.poses);
    bwd += b.backward * double(b.poses);
    rnd += b.random * double(b.poses);
    bl += b.blend * double(b.poses);
    if (b.raw) {
      raw += *b.raw * double(b.poses);
      rawPoses += b.poses;
    }
  }
  const double n = double(std::max<std::size_t>(poses, 1));
  std::size_t clipBytes = 0;
  for (const runtime::PackClip& c : pack->clips()) clipBytes += c.view.derivedBytes();
  const double joints = double(pack->skeleton().names.size());
  if (args.has("json")) {
    nlohmann::ordered_json j;
    j["joints"] = pack->skeleton().names.size();
    j["clips"] = results.size();
    j["forward_ns_per_pose"] = fwd / n;
    j["forward30_ns_per_pose"] = f30 / n;
    j["backward_ns_per_pose"] = bwd / n;
    j["random_ns_per_pose"] = rnd / n;
    j["blend_ns_per_pose"] = bl / n;
    j["raw_ns_per_pose"] = rawPoses ? nlohmann::ordered_json(raw / double(rawPoses)) : nlohmann::ordered_json(nullptr);
    j["forward_ns_per_joint"] = fwd / n / joints;
    j["context_bytes"] = player.contextBytes();
    j["clip_bytes"] = clipBytes;
    j["decode_path"] = runtime::decodePathName(player.path());
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("%s: %zu joints; median ns per pose (per joint) over 7 runs, %s decoder\n", args.positional()[0].c_str(),
              pack->skeleton().names.size(), runtime::decodePathName(player.path()));
  std::printf("%-30s %6s %9s %9s %9s %9s %9s %9s %8s\n", "clip", "frames", "fwd 30Hz", "fwd 60Hz", "backward", "random",
              "blend", "raw", "fwd/raw");
  auto row = [&](const std::string& name, std::uint32_t frames, double a, double b, double c, double d, double e,
                 std::optional<double> r) {
    char rawText[32] = "-", ratio[32] = "-";
    if (r) {
      std::snprintf(rawText, sizeof(rawText), "%.0f", *r);
      std::snprintf(ratio, sizeof(ratio), "%.2f", b / *r);
    }
    std::printf("%-30s %6u %9.0f %9.0f %9.0f %9.0f %9.0f %9s %8s\n", name.substr(0, 30).c_str(), frames, a, b, c, d, e, rawText, ratio);
  };
  for (const ClipBench& b : results) row(b.name, b.frames, b.forward30, b.forward, b.backward, b.random, b.blend, b.raw);
  row("all clips", 0, f30 / n, fwd / n, bwd / n, rnd / n, bl / n, rawPoses ? std::optional<double>(raw / double(rawPoses)) : std::nullopt);
  std::printf("per joint: forward %.1f ns, backward %.1f ns, random %.1f ns; player context %zu bytes, shared clip state %zu bytes\n",
              fwd / n / joints, bwd / n / joints, rnd / n / joints, player.contextBytes(), clipBytes);
  return kExitOk;
}

}  // namespace animpack::cli
