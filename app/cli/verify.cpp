#include <cstdio>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/import_options.h"
#include "core/io/legacy.h"
#include "core/io/pack_verify.h"

namespace animpack::cli {

int verifyCommand(int argc, char** argv, int first) {
  std::vector<Option> flags = {{"source", "FILE", "a source file of the pack's clips", true}};
  for (Option& o : importOptions()) flags.push_back(std::move(o));
  Args args("verify", "PACK [--source FILE]...",
            "Validates a pack (sizes, offsets, counts, joint indices, key order, checksum, version). With the\n"
            "source files, re-imports them, decodes every clip at every frame and between frames (against the\n"
            "source's own keys) and reports per clip the measured max and 99th-percentile error, the worst\n"
            "time, and whether every joint stayed within the precision stored in the pack. Where the source has\n"
            "a skinned mesh it also gives the skin's error against its bound (1.5 x the clip's strictest precision)\n"
            "and which of the two, joints or skin, limits the clip (docs/SETTINGS.md \"Shells\"); the skin is\n"
            "reported, not judged, since a clip compressed with fixed shells does not hold it.\n"
            "Assimp runs in a child process, as in compress. Exit code 0 only if everything holds.",
            flags);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() != 1) return usageError("verify", "expected exactly one PACK");
  core::ImportFunction importer;
  if (auto exit = readImporter(args, "verify", importer)) return *exit;
  auto pack = runtime::Pack::load(args.positional()[0], runtime::anyVersion());
  if (!pack) return failure(pack.message());
  std::printf("%s: valid pack, format version %u, %zu clips, %zu joints, %zu bytes\n", args.positional()[0].c_str(),
              pack->version(), pack->clips().size(), std::size_t(pack->skeleton().jointCount()), pack->fileSize());
  const auto sourcesGiven = args.values("source");
  if (sourcesGiven.empty()) return kExitOk;
  std::vector<std::filesystem::path> sources(sourcesGiven.begin(), sourcesGiven.end());
  auto matched = core::matchSources(*pack, sources, importer);
  if (!matched) return failure(matched.message());
  int bad = 0, unchecked = 0;
  for (const core::ClipVerification& v : core::verifyPack(*pack, *matched)) {
    if (!v.checked) {
      ++unchecked;
      std::printf("  %-32s not checked (source %s not given)\n", v.name.c_str(), v.sourceFile.c_str());
      continue;
    }
    if (!v.problem.empty()) {
      ++bad;
      std::printf("  %-32s FAILED: %s\n", v.name.c_str(), v.problem.c_str());
      continue;
    }
    bad += !v.withinPrecision();
    if (pack->skeleton().jointCount() == 0) {  // a pack of morph curves alone
      std::printf("  %-32s morph targets %.4f cm (%s)  %s\n", v.name.c_str(), std::max(v.maxMorphErrorCm, 0.f),
                  v.worstCurve.c_str(), v.withinPrecision() ? "within precision" : "OVER PRECISION");
      continue;
    }
    std::printf("  %-32s max %.4f cm (%s, %.4f s)  between frames %.4f cm  p99 %.4f cm  %s\n", v.name.c_str(),
                v.maxErrorCm, v.worstJoint.c_str(), v.worstTimeS, v.maxErrorBetweenFramesCm, v.p99ErrorCm,
                v.withinPrecision() ? "within precision" : "OVER PRECISION");
    if (v.maxVertexErrorCm >= 0)
      std::printf("      skin %.4f cm (bound %.4f cm)  limited by the %s\n", v.maxVertexErrorCm, v.skinBoundCm,
                  v.limitedBy.c_str());
    if (v.maxMorphErrorCm >= 0)
      std::printf("      morph targets %.4f cm (%s)\n", v.maxMorphErrorCm, v.worstCurve.c_str());
    for (const std::string& j : v.overPrecision) std::printf("      over precision: %s\n", j.c_str());
  }
  if (bad) return failure(std::to_string(bad) + " clip(s) are not within their precision");
  if (unchecked) std::printf("%d clip(s) not checked\n", unchecked);
  return kExitOk;
}

}  // namespace animpack::cli
