#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "app/cli/alloc_count.h"
#include "app/cli/args.h"
#include "app/cli/bench_scenario.h"
#include "app/cli/commands.h"
#include "app/cli/import_options.h"
#include "core/io/legacy.h"
#include "core/anim/raw_sampler.h"
#include "core/batch/clip_names.h"
#include "core/io/pack_verify.h"
#include "core/runtime/curves.h"
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
  std::uint32_t joints = 0, frames = 0, compressedBytes = 0;
  std::size_t poses = 0;
  double forward30 = 0, forward = 0, backward = 0, random = 0, blend = 0;
  /// A level of detail: the first half of the joints (runtime::Player::sampleJoints), forward and random.
  std::uint32_t lodJoints = 0;
  double lodForward = 0, lodRandom = 0;
  double lodTracks = 0;  ///< the share of the clip's animated tracks (not constant, not rest) the level holds
  std::optional<double> raw;
  /// Morph curves (format version 6): all weights at k / 60 s, and at the clip's frame times (as
  /// ../shared/peers/peer_curves times ACL's scalar tracks), ns per time; null without curves.
  std::uint32_t curves = 0, curveBytes = 0;
  std::optional<double> curveForward, curveFrames;
};

/// The share of the clip's animated tracks (keyed, uniform, raw or timed) among its first `joints`
/// joints: what a level of detail decodes, so its cost follows it more than the joint count.
double animatedShare(const runtime::ClipView& view, std::uint32_t joints) {
  std::uint32_t all = 0, kept = 0;
  for (std::uint32_t j = 0; j < view.jointCount(); ++j)
    for (int c = 0; c < 3; ++c) {
      const runtime::TrackKind k = view.kind(j, runtime::Channel(c));
      const bool animated = k == runtime::TrackKind::Keyed || k == runtime::TrackKind::Uniform ||
                            k == runtime::TrackKind::Raw || k == runtime::TrackKind::Timed;
      all += animated;
      kept += animated && j < joints;
    }
  return all ? double(kept) / all : 0.0;
}

/// The times `bench` samples a clip at: k / hz seconds over its duration.
std::vector<float> timesAt(const runtime::ClipView& view, double hz) {
  std::vector<float> t;
  for (double s = 0; s <= double(view.duration()) + 1e-9; s += 1.0 / hz) t.push_back(float(s));
  return t;
}

/// What an opened pack costs in memory (docs/RUNTIME.md "Runtime": what the runtime keeps).
struct MemoryFigures {
  std::int64_t derivedBytes = 0;      // Pack::open and a first sample of every clip, counted, plus sizeof(Pack)
  std::int64_t playerBytes = 0;       // a fresh Player after the forward, backward and random passes
  std::int64_t blendPlayerBytes = 0;  // the same Player after the blend pass
};

/// Opens the pack from its bytes while counting allocations, and samples every clip once.
Expected<runtime::Pack> openCounted(std::vector<std::uint8_t> bytes, MemoryFigures& m) {
  std::vector<std::vector<runtime::Transform>> poses;  // outside the count: the caller's poses
  AllocationCount::start();
  auto pack = runtime::Pack::open(std::move(bytes), runtime::anyVersion());
  std::int64_t counted = AllocationCount::stop();
  if (!pack) return pack;
  for (const runtime::PackClip& c : pack->clips()) poses.emplace_back(c.view.jointCount());
  // A first sample of every clip, without a frame cache (what a player keeps is player_bytes).
  std::vector<std::byte> none;
  runtime::Player player(none);
  AllocationCount::start();
  for (std::size_t i = 0; i < pack->clips().size(); ++i) player.sample(pack->clips()[i].view, 0.f, poses[i]);
  counted += AllocationCount::stop();
  m.derivedBytes = counted + std::int64_t(sizeof(runtime::Pack));
  return pack;
}

}  // namespace

int benchCommand(int argc, char** argv, int first) {
  std::vector<Option> flags = {
      {"source", "FILE", "source file: adds the raw float clip for comparison", true},
      {"clip", "NAME",
       "the bench clip: its pack name, its source animation's name, a wildcard or #N (default: the first)"},
      {"scalar", "", "decode with the portable lanes instead of SIMD (every path gives identical poses)"},
      {"sse2", "", "decode with SSE2 even on a CPU with AVX2 (identical poses)"},
      {"json", "", "print one JSON object"},
      {"scenario", "", "a game-sized run over every PACK given: many characters, a blend of two clips each"},
      {"characters", "N", "--scenario: characters (64)"},
      {"seconds", "S", "--scenario: seconds of play at 60 Hz (10)"}};
  for (Option& o : importOptions()) flags.push_back(std::move(o));
  Args args("bench",
            "PACK [--source FILE]... [--clip NAME] [--scalar|--sse2] [--json] | --scenario PACK... [--characters N] "
            "[--seconds S]",
            "Times decoding with the runtime: median ns per pose (and per joint) over 7 runs. forward = playback\n"
            "at times k/60 s (k = 0 .. duration x 60) through Player::sample (fwd 30Hz: k/30 s); random = the same\n"
            "60 Hz times in a fixed permutation; backward = the same times in reverse; blend = the 60 Hz times\n"
            "through Player::blend (decomposed blend, weight 0.5, with the next clip of the pack at the same share of\n"
            "its duration; a pack's only clip with itself at half the time). With the source, also the\n"
            "raw float clip sampled with the O(1) lookup, side by side (Assimp runs in a child process, as in\n"
            "compress). Memory, counted with a counting allocator: derived_bytes = what Pack::open and a first\n"
            "sample of every clip allocate, plus the Pack object (the file's bytes excluded); player_bytes = a\n"
            "fresh Player after the forward, backward and random passes of the bench clip; blend_player_bytes =\n"
            "the same Player after the blend pass. --json prints the bench clip's figures (--clip, or the first).\n"
            "--scenario: every PACK is opened and kept resident; N characters each play a blend of two clips of\n"
            "one pack at 60 Hz for S seconds; prints resident MB (packs, derived, players) and ns per\n"
            "character-frame: both clips sampled and blended naively, the same with the decomposed blend, and the\n"
            "naive blend of two poses alone (scripts/bench-scenario runs it over the sample files beside ACL).",
            flags);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.has("scenario")) {
    std::optional<double> characters, seconds;
    std::string error;
    if (!args.number("characters", characters, error) || !args.number("seconds", seconds, error))
      return usageError("bench", error);
    if (characters && !(*characters >= 1 && *characters <= 100000 && *characters == double(int(*characters))))
      return usageError("bench", "--characters must be a whole number from 1 to 100000");
    if (seconds && !(*seconds > 0 && *seconds <= 3600)) return usageError("bench", "--seconds must be in (0, 3600]");
    if (args.positional().empty()) return usageError("bench", "--scenario needs at least one PACK");
    return benchScenario(args.positional(), characters ? unsigned(*characters) : 64u, seconds.value_or(10.0),
                         args.has("json"));
  }
  if (args.positional().size() != 1) return usageError("bench", "expected exactly one PACK");
  if (args.has("scalar") && args.has("sse2"))
    return usageError("bench", "--scalar and --sse2 pick two different decoders: give one");
  core::ImportFunction importer;
  if (auto exit = readImporter(args, "bench", importer)) return *exit;
  const std::string path = args.positional()[0];
  std::vector<std::uint8_t> bytes;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) return failure("cannot open '" + path + "': no such file or not readable");
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  MemoryFigures memory;
  auto pack = openCounted(std::move(bytes), memory);
  if (!pack) return failure("'" + path + "': " + pack.message());
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
  std::size_t benchClip = 0;
  const bool one = args.value("clip").has_value();
  if (const auto spec = args.value("clip")) {
    std::vector<core::ClipChoice> choices;
    for (std::size_t i = 0; i < pack->clips().size(); ++i) {
      const runtime::PackClip& c = pack->clips()[i];
      choices.push_back({std::string(c.name()), !c.sourceClip().empty() ? std::string(c.sourceClip())
                                                : sources.clips[i]      ? sources.clips[i]->name
                                                                        : std::string()});
    }
    auto index = core::matchOneClip(*spec, choices);
    if (!index) return failure("'" + path + "': " + index.message());
    benchClip = *index;
  }
  if (pack->clips().empty()) return failure("'" + path + "' holds no clip");

  const runtime::DecodePath decodePath = args.has("scalar") ? runtime::DecodePath::Scalar
                                         : args.has("sse2") ? runtime::DecodePath::Sse2
                                                            : runtime::DecodePath::Simd;
  volatile float sink = 0;
  std::vector<ClipBench> results;
  for (std::size_t i = 0; i < pack->clips().size(); ++i) {
    if ((one || args.has("json")) && i != benchClip) continue;
    const runtime::PackClip& clip = pack->clips()[i];
    const runtime::ClipView& view = clip.view;
    const runtime::PackClip& other = pack->clips()[(i + 1) % pack->clips().size()];
    // The other clip's time runs through its whole duration; a pack's only clip blends with itself
    // at half the time, so the two poses differ (equal poses would only be compared, not blended).
    const float otherScale = &other == &clip ? 0.5f : other.view.duration() / std::max(view.duration(), 1e-6f);
    ClipBench b;
    b.name = clip.name();
    b.joints = view.jointCount();
    b.frames = clip.frameCount();
    b.compressedBytes = clip.ownBytes();
    std::vector<runtime::Transform> out(view.jointCount());
    const std::vector<float> t30 = timesAt(view, 30), t60 = timesAt(view, 60);
    std::vector<float> back(t60.rbegin(), t60.rend()), random = t60;
    std::shuffle(random.begin(), random.end(), std::mt19937(42));
    runtime::Player player(decodePath);
    auto play = [&](const std::vector<float>& ts) {
      for (float t : ts) player.sample(view, t, out);
      if (!out.empty()) sink = sink + out[0].rotation.w;
    };
    const std::uint32_t half = (view.jointCount() + 1) / 2;
    auto playHalf = [&](const std::vector<float>& ts) {
      for (float t : ts) player.sampleJoints(view, t, half, out);
      if (!out.empty()) sink = sink + out[0].rotation.w;
    };
    auto blend = [&] {
      for (float t : t60) player.blend(view, t, other.view, t * otherScale, 0.5f, runtime::BlendMode::Decomposed, out);
      if (!out.empty()) sink = sink + out[0].rotation.w;
    };
    std::vector<float> weights(view.curveCount());
    auto curves = [&](const std::vector<float>& ts) {
      for (float t : ts) player.sample(view, t, {}, weights);
      if (!weights.empty()) sink = sink + weights[0];
    };
    if (i == benchClip) {
      // The player's memory: what it keeps after each kind of pass, its object included.
      AllocationCount::start();
      play(t60);
      play(back);
      play(random);
      curves(t60);
      memory.playerBytes = AllocationCount::stop() + std::int64_t(sizeof(runtime::Player));
      AllocationCount::start();
      blend();
      memory.blendPlayerBytes = memory.playerBytes + AllocationCount::stop();
    }
    b.poses = t60.size();
    if (b.joints > 0) {  // a pack of morph curves alone has no pose to time
      b.forward30 = medianNs(t30.size(), [&] { play(t30); });
      b.forward = medianNs(t60.size(), [&] { play(t60); });
      b.backward = medianNs(back.size(), [&] { play(back); });
      b.random = medianNs(random.size(), [&] { play(random); });
      b.blend = medianNs(t60.size(), blend);
      b.lodJoints = half;
      b.lodTracks = animatedShare(view, half);
      b.lodForward = medianNs(t60.size(), [&] { playHalf(t60); });
      b.lodRandom = medianNs(random.size(), [&] { playHalf(random); });
    }
    if (view.curveCount() > 0) {
      b.curves = view.curveCount();
      b.curveBytes = view.curveBytes();
      std::vector<float> frameTimes;
      for (std::uint32_t f = 0; f < view.frameCount(); ++f) frameTimes.push_back(float(f) / view.sampleRate());
      b.curveForward = medianNs(t60.size(), [&] { curves(t60); });
      b.curveFrames = medianNs(frameTimes.size(), [&] { curves(frameTimes); });
    }
    if (sources.clips[i] && b.joints > 0) {
      const core::RawClip& raw = *sources.clips[i];
      std::vector<core::Transform> rawOut(raw.jointCount);
      b.raw = medianNs(t60.size(), [&] {
        // The source sampled as the runtime plays the clip: through its wrap interval when it wraps
        // with every source frame kept (a dropped repeated last frame leaves the source's own loop).
        const bool wraps = view.wraps() && raw.frameCount == view.frameCount();
        for (float t : t60) {
          if (wraps) core::RawSampler::sampleWrapping(raw, t, rawOut);
          else core::RawSampler::sample(raw, t, rawOut, clip.loop());
        }
        sink = sink + rawOut[0].rotation.w;
      });
    }
    results.push_back(b);
  }

  const double joints = double(pack->skeleton().jointCount());
  if (args.has("json")) {
    const ClipBench& b = results.front();
    nlohmann::ordered_json j;
    j["clip"] = b.name;
    j["joints"] = pack->skeleton().jointCount();
    j["frames"] = b.frames;
    // A pack of morph curves alone has no pose: its pose timings are null.
    const auto pose = [&](double ns) {
      return b.joints ? nlohmann::ordered_json(ns) : nlohmann::ordered_json(nullptr);
    };
    j["forward_ns_per_pose"] = pose(b.forward);
    j["forward30_ns_per_pose"] = pose(b.forward30);
    j["backward_ns_per_pose"] = pose(b.backward);
    j["random_ns_per_pose"] = pose(b.random);
    j["blend_ns_per_pose"] = pose(b.blend);
    j["lod_joints"] = b.lodJoints;
    j["lod_forward_ns_per_pose"] = pose(b.lodForward);
    j["lod_animated_tracks"] = b.lodTracks;
    j["lod_random_ns_per_pose"] = pose(b.lodRandom);
    j["raw_ns_per_pose"] = b.raw ? nlohmann::ordered_json(*b.raw) : nlohmann::ordered_json(nullptr);
    j["forward_ns_per_joint"] = pose(b.forward / std::max(joints, 1.0));
    j["compressed_bytes"] = b.compressedBytes;
    j["derived_bytes"] = memory.derivedBytes;
    j["player_bytes"] = memory.playerBytes;
    j["blend_player_bytes"] = memory.blendPlayerBytes;
    j["pack_clips"] = pack->clips().size();
    j["pack_compressed_bytes"] = [&] {
      std::size_t sum = 0;
      for (const runtime::PackClip& c : pack->clips()) sum += c.ownBytes();
      return sum;
    }();
    j["decode_path"] = runtime::decodePathName(decodePath);
    j["curves"] = b.curves;
    // What a player keeps for the clip's curves (runtime::curveCacheBytes, rounded up to 16 as it stores it).
    j["curve_cache_bytes"] = (runtime::curveCacheBytes(pack->clips()[benchClip].view) + 15) / 16 * 16;
    j["curve_bytes"] = b.curveBytes;
    j["curve_ns_per_sample"] =
        b.curveForward ? nlohmann::ordered_json(*b.curveForward) : nlohmann::ordered_json(nullptr);
    j["curve_frames_ns_per_sample"] =
        b.curveFrames ? nlohmann::ordered_json(*b.curveFrames) : nlohmann::ordered_json(nullptr);
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("%s: %.0f joints; median ns per pose over 7 runs, %s decoder\n", path.c_str(), joints,
              runtime::decodePathName(decodePath));
  std::printf("%-30s %6s %8s %9s %9s %9s %9s %9s %9s %8s\n", "clip", "frames", "bytes", "fwd 30Hz", "fwd 60Hz",
              "backward", "random", "blend", "raw", "fwd/raw");
  for (const ClipBench& b : results) {
    char rawText[32] = "-", ratio[32] = "-";
    if (b.raw) {
      std::snprintf(rawText, sizeof(rawText), "%.0f", *b.raw);
      std::snprintf(ratio, sizeof(ratio), "%.2f", b.forward / *b.raw);
    }
    if (b.joints == 0)
      std::printf("%-30s %6u %8u %9s %9s %9s %9s %9s %9s %8s\n", b.name.substr(0, 30).c_str(), b.frames,
                  b.compressedBytes, "-", "-", "-", "-", "-", "-", "-");
    else
      std::printf("%-30s %6u %8u %9.0f %9.0f %9.0f %9.0f %9.0f %9s %8s\n", b.name.substr(0, 30).c_str(), b.frames,
                  b.compressedBytes, b.forward30, b.forward, b.backward, b.random, b.blend, rawText, ratio);
    if (b.joints > 0)
      std::printf(
          "%-30s level of detail, the first %u joints (%.0f %% of the animated tracks): %.0f ns forward (%.2f x), %.0f "
          "ns random (%.2f x)\n",
          "", b.lodJoints, 100 * b.lodTracks, b.lodForward, b.lodForward / b.forward, b.lodRandom,
          b.lodRandom / b.random);
    if (b.curveForward)
      std::printf("%-30s %u morph curves in %u bytes: all weights %.0f ns at k/60 s, %.0f ns at the frames\n", "",
                  b.curves, b.curveBytes, *b.curveForward, *b.curveFrames);
  }
  std::size_t packBytes = 0;
  for (const runtime::PackClip& c : pack->clips()) packBytes += c.ownBytes();
  char perJoint[48] = "";
  if (joints > 0) std::snprintf(perJoint, sizeof(perJoint), " (%.1f per joint)", double(memory.playerBytes) / joints);
  std::printf(
      "memory: %zu clip bytes in the pack; opened, it derives %lld bytes (%.1f %% of them); a player keeps %lld "
      "bytes%s, %lld after a blend\n",
      packBytes, static_cast<long long>(memory.derivedBytes),
      100.0 * double(memory.derivedBytes) / double(std::max<std::size_t>(packBytes, 1)),
      static_cast<long long>(memory.playerBytes), perJoint, static_cast<long long>(memory.blendPlayerBytes));
  return kExitOk;
}

}  // namespace animpack::cli
