#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "core/compress/joint_order.h"
#include "core/io/legacy.h"
#include "core/runtime/curves.h"
#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"

namespace animpack::cli {
namespace {

const char* kindName(runtime::TrackKind k) {
  switch (k) {
    case runtime::TrackKind::Default: return "default";
    case runtime::TrackKind::Constant: return "constant";
    case runtime::TrackKind::ConstantQ32: return "constant-q32";
    case runtime::TrackKind::ConstantFloat: return "constant-float";
    case runtime::TrackKind::Keyed: return "keyed";
    case runtime::TrackKind::Uniform: return "uniform";
    case runtime::TrackKind::Raw: return "raw";
    case runtime::TrackKind::Timed: return "timed";
    case runtime::TrackKind::Segmented: return "segmented";
  }
  return "?";
}

/// The stable JSON of `dump --json` (docs/CLIP_NAMES.md names the clip keys).
std::string dumpJson(const runtime::Pack& pack, const std::string& path) {
  using nlohmann::ordered_json;
  const runtime::PackSkeleton& sk = pack.skeleton();
  char hash[20];
  std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(sk.hash()));
  ordered_json joints = ordered_json::array();
  for (std::uint32_t j = 0; j < sk.jointCount(); ++j)
    joints.push_back({{"name", sk.name(j)}, {"parent", sk.parents()[j]}});
  ordered_json clips = ordered_json::array();
  for (const runtime::PackClip& c : pack.clips())
    clips.push_back(
        {{"name", c.name()},
         {"source_clip", c.sourceClip().empty() ? ordered_json(nullptr)
                                                : ordered_json(c.sourceClip())},  // not recorded before version 4
         {"source", c.sourceFile()},
         {"clip_index", c.clipIndex()},
         {"frames", c.frameCount()},
         {"sample_rate", c.sampleRate()},
         {"start_time", c.startTime()},
         {"duration", c.view.duration()},
         {"loop", c.loop()},
         {"scene_scale", c.sceneScale()},
         {"bytes", c.ownBytes()},
         {"curve_bytes", c.view.curveBytes()}});
  ordered_json curves = ordered_json::array();
  for (std::uint32_t i = 0; i < sk.curveCount(); ++i)
    curves.push_back({{"name", sk.curveName(i)},
                      {"node", sk.curveNode(i)},
                      {"target", sk.curveTarget(i)},
                      {"target_index", sk.curveTargetIndex(i)},
                      {"displacement_cm", sk.curveDisplacementCm(i)},
                      {"rest_weight", sk.restWeights()[i]}});
  ordered_json doc = {{"file", path},
                      {"format_version", pack.version()},
                      {"file_bytes", pack.fileSize()},
                      {"skeleton",
                       {{"joints", joints},
                        {"lod_levels", core::depthLevels(sk.parents())},
                        {"hash", hash},
                        {"unit_to_cm", sk.unitToCm()},
                        {"bytes", pack.skeletonBytes()}}},
                      {"curves", curves},
                      {"clips", clips}};
  return doc.dump(2) + "\n";
}

}  // namespace

int dumpCommand(int argc, char** argv, int first) {
  Args args("dump", "PACK [--tracks] [--json]",
            "Prints a pack's header, skeleton, clips, sizes by section and track kinds. With --json: the\n"
            "header, skeleton and clips (name, source_clip, source, clip_index, frames, bytes) as stable JSON.",
            {{"tracks", "", "list every joint's and morph curve's track kinds per clip"},
             {"json", "", "print JSON instead of text"}});
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() != 1) return usageError("dump", "expected exactly one PACK");
  auto pack = runtime::Pack::load(args.positional()[0], runtime::anyVersion());
  if (!pack) return failure(pack.message());
  if (args.has("json")) {
    std::fputs(dumpJson(*pack, args.positional()[0]).c_str(), stdout);
    return kExitOk;
  }
  const runtime::PackSkeleton& sk = pack->skeleton();
  std::printf("pack:      %s\nformat:    version %u, %zu bytes, checksum ok\n", args.positional()[0].c_str(),
              pack->version(), pack->fileSize());
  std::printf("skeleton:  %u joints, 1 unit = %g cm, hash %016llx, %zu bytes shared\n", sk.jointCount(),
              double(sk.unitToCm()), static_cast<unsigned long long>(sk.hash()), pack->skeletonBytes());
  for (std::uint32_t j = 0; j < sk.jointCount(); ++j)
    std::printf("  %3u %-32s parent %3d\n", j, std::string(sk.name(j)).c_str(), sk.parents()[j]);
  std::fputs(core::levelsText(core::depthLevels(sk.parents()), sk.jointCount()).c_str(), stdout);
  if (sk.curveCount() > 0) std::printf("curves:    %u morph targets\n", sk.curveCount());
  for (std::uint32_t i = 0; i < sk.curveCount(); ++i)
    std::printf("  %3u %-40s %g cm at weight 1 (object space), rest %g\n", i, std::string(sk.curveName(i)).c_str(),
                double(sk.curveDisplacementCm(i)), double(sk.restWeights()[i]));
  std::printf("clips:     %zu\n", pack->clips().size());
  for (const runtime::PackClip& c : pack->clips()) {
    const runtime::ClipView& v = c.view;
    std::map<runtime::TrackKind, int> kinds;
    for (std::uint32_t j = 0; j < v.jointCount(); ++j)
      for (int ch = 0; ch < 3; ++ch) ++kinds[v.kind(j, runtime::Channel(ch))];
    std::printf("  '%s' from %s [%u]: %u frames at %g Hz (%.3f s)%s, start %g s, %u bytes, scene scale x%g\n",
                std::string(c.name()).c_str(), std::string(c.sourceFile()).c_str(), c.clipIndex(), c.frameCount(),
                double(c.sampleRate()), double(v.duration()), c.loop() ? ", loops" : "", c.startTime(), c.ownBytes(),
                double(c.sceneScale()));
    const auto& s = v.sections();
    std::printf(
        "    sections: header %u, kinds %u, constants %u, keyed params %u, uniform params %u, keys %u (%u keys),\n"
        "              raw %u, timed %u (%u keys), segment table %u, boundaries %u, segments %u (%u x %u frames),\n"
        "              padding %u, root motion %u; table entry %u\n",
        s.header, s.kinds, s.constants, s.keyedParams, s.uniformParams, s.keys, v.keyCount(), s.rawSamples, s.timed,
        v.timedKeyCount(), s.segmentTable, s.boundaries, s.segmentData, v.segmentCount(), v.segmentLength(), s.padding,
        s.rootMotion, runtime::clipEntrySize(pack->version()));
    std::printf("    tracks:  ");
    for (const auto& [k, n] : kinds) std::printf(" %s %d", kindName(k), n);
    std::printf("\n");
    if (args.has("tracks"))
      for (std::uint32_t j = 0; j < v.jointCount(); ++j)
        std::printf("      %-32s r %-14s t %-14s s %-14s precision %g cm shell %g cm%s\n",
                    std::string(sk.name(j)).c_str(), kindName(v.kind(j, runtime::Channel::Rotation)),
                    kindName(v.kind(j, runtime::Channel::Translation)), kindName(v.kind(j, runtime::Channel::Scale)),
                    double(c.tolerance(j).precisionCm), double(c.tolerance(j).shellCm),
                    c.tolerance(j).pinned ? " pinned" : "");
    if (v.curveCount() == 0) continue;
    std::map<runtime::TrackKind, int> curveKinds;
    for (std::uint32_t i = 0; i < v.curveCount(); ++i) ++curveKinds[v.curveKind(i)];
    std::printf("    curves:  %u bytes (%u keys):", s.curves, v.curveKeyCount());
    for (const auto& [k, n] : curveKinds) std::printf(" %s %d", kindName(k), n);
    std::printf("\n");
    if (args.has("tracks"))
      for (std::uint32_t i = 0; i < v.curveCount(); ++i) {
        std::string kind = kindName(v.curveKind(i));
        if (v.curveKind(i) == runtime::TrackKind::Keyed)
          kind += " " + std::to_string(runtime::curveKeyFrames(v, i).size()) + " keys";
        std::printf("      %-40s %-16s precision %g cm\n", std::string(sk.curveName(i)).c_str(), kind.c_str(),
                    double(c.curvePrecisionCm(i)));
      }
  }
  return kExitOk;
}

}  // namespace animpack::cli
