#include <cstdio>
#include <map>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "core/batch/batch.h"
#include "core/io/pack_writer.h"

namespace animpack::cli {
namespace {

std::string humanBytes(std::uint64_t b) {
  char buf[32];
  if (b >= 10 * 1024 * 1024) std::snprintf(buf, sizeof(buf), "%.1f MB", double(b) / (1024.0 * 1024.0));
  else if (b >= 10 * 1024) std::snprintf(buf, sizeof(buf), "%.1f KB", double(b) / 1024.0);
  else std::snprintf(buf, sizeof(buf), "%llu B", static_cast<unsigned long long>(b));
  return buf;
}

}  // namespace

int compressCommand(int argc, char** argv, int first) {
  Args args("compress", "FILES... -o OUT.anpk [options]",
            "Compresses every clip of the given animation files (or only --clip) into one pack, verifying\n"
            "that every joint stays within its precision at every frame. Prints one line per clip.",
            {{"output", "OUT.anpk", "the pack to write", false, 'o'},
             {"clip", "NAME", "compress only this clip (name or wildcard)", true},
             {"all", "", "compress every clip (the default)"},
             {"precision", "CM", "default precision: max object-space error on the shell, cm (0.01)"},
             {"shell", "CM", "default shell distance of the virtual vertices, cm (3)"},
             {"pin", "JOINT", "pin a joint (name or wildcard): recompute it against compressed ancestors", true},
             {"settings", "S.json", "settings file (DESIGN §9 schema) applied on top of the defaults"},
             {"report", "R.json|R.csv", "write a per-clip report (JSON or CSV by extension)"},
             {"jobs", "N", "worker threads (default: one per core)"}});
  std::string error;
  if (!args.parse(argc, argv, first, error)) return usageError("compress", error);
  if (args.helpRequested()) {
    std::fputs(args.help().c_str(), stdout);
    return kExitOk;
  }
  if (args.positional().empty()) return usageError("compress", "no input files");
  const auto output = args.value("output");
  if (!output) return usageError("compress", "missing -o OUT.anpk");
  if (args.has("all") && args.has("clip")) return usageError("compress", "--all and --clip exclude each other");

  core::BatchOptions options;
  if (const auto s = args.value("settings")) {
    auto loaded = core::CompressionSettings::load(*s);
    if (!loaded) return failure(loaded.message());
    options.settings.merge(*loaded);
  }
  std::optional<double> precision, shell, jobs;
  if (!args.number("precision", precision, error) || !args.number("shell", shell, error) || !args.number("jobs", jobs, error))
    return usageError("compress", error);
  core::CompressionSettings flags;
  if (precision) flags.precisionCm = static_cast<float>(*precision);
  if (shell) flags.shellCm = static_cast<float>(*shell);
  for (const std::string& joint : args.values("pin")) flags.joints.emplace_back(joint, core::JointOverride{{}, {}, true});
  options.settings.merge(flags);
  if (auto st = options.settings.validate(); !st) return usageError("compress", st.message());
  if (jobs && (*jobs < 1 || *jobs > 256)) return usageError("compress", "--jobs must be between 1 and 256");
  options.jobs = jobs ? static_cast<unsigned>(*jobs) : 0;
  options.clips = args.values("clip");

  auto files = core::expandInputs(args.positional(), false);
  if (!files) return failure(files.message());
  const auto results = core::runBatch(*files, options);

  // Assemble one pack in input order; every file must share the first file's skeleton.
  std::vector<core::ClipReport> rows;
  std::vector<core::PackClipRecord> records;
  std::optional<core::PackSkeletonRecord> skeleton;
  int failures = 0, over = 0;
  for (const core::BatchFile& file : results) {
    const std::string name = file.path.filename().string();
    if (!file.asset) {
      std::fprintf(stderr, "animpack: %s\n", file.error.c_str());
      core::ClipReport failed;
      failed.file = file.path.string();
      failed.error = file.error;
      rows.push_back(failed);
      ++failures;
      continue;
    }
    const core::PackSkeletonRecord sk = core::skeletonRecord(file.asset->skeleton, file.asset->unitToCm);
    if (!skeleton) skeleton = sk;
    else if (auto st = core::sameSkeleton(*skeleton, sk); !st) {
      return failure("'" + file.path.string() + "' cannot share a pack with '" + results.front().path.string() +
                     "': " + st.message());
    }
    if (file.clips.empty()) std::fprintf(stderr, "animpack: %s: no clip to compress\n", file.path.string().c_str());
    for (const core::BatchClip& clip : file.clips) {
      if (!clip.compressed) {
        std::fprintf(stderr, "animpack: %s: clip '%s': %s\n", file.path.string().c_str(), clip.name.c_str(), clip.error.c_str());
        core::ClipReport failed;
        failed.file = file.path.string();
        failed.clip = clip.name;
        failed.error = clip.error;
        rows.push_back(failed);
        ++failures;
        continue;
      }
      records.push_back(core::clipRecord(*clip.compressed, name, file.asset->sourceHash));
      rows.push_back(core::makeClipReport(*clip.compressed, file.asset->skeleton, file.path.string(), 0));
    }
  }
  if (records.empty()) return failure("nothing was compressed");
  const auto pack = core::buildPack(*skeleton, records);
  // Sizes come from the pack itself: each clip's own bytes in it (DESIGN §9).
  auto opened = runtime::Pack::open(pack);
  if (!opened) return failure("internal error: the pack just built does not open: " + opened.message());
  std::size_t next = 0;
  for (core::ClipReport& r : rows) {
    if (!r.error.empty()) continue;
    r.compressedBytes = opened->clips()[next++].ownBytes;
    over += !r.withinPrecision;
    std::printf("%s: %-28s %5u frames  %10s -> %9s  %6.2f:1  max %.4f cm  p99 %.4f cm  %6.1f ms%s\n",
                std::filesystem::path(r.file).filename().c_str(), r.clip.c_str(), r.frames, humanBytes(r.rawBytes).c_str(),
                humanBytes(r.compressedBytes).c_str(), r.ratio(), r.maxErrorCm, r.p99ErrorCm, r.compressMs,
                r.withinPrecision ? "" : "  OVER PRECISION");
  }
  if (auto st = core::writeFileAtomic(*output, pack); !st) return failure(st.message());
  std::uint64_t raw = 0, compressed = 0;
  for (const auto& r : rows) {
    raw += r.rawBytes;
    compressed += r.compressedBytes;
  }
  std::printf("%zu clips: %s -> %s (%.2f:1), pack %s written to %s\n", records.size(), humanBytes(raw).c_str(),
              humanBytes(compressed).c_str(), compressed ? double(raw) / double(compressed) : 0.0,
              humanBytes(pack.size()).c_str(), output->c_str());
  if (const auto report = args.value("report")) {
    const bool csv = report->size() >= 4 && report->substr(report->size() - 4) == ".csv";
    const std::string text = csv ? core::reportCsv(rows) : core::reportJson(rows, pack.size(), ANIMPACK_VERSION);
    if (auto st = core::writeFileAtomic(*report, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())); !st)
      return failure(st.message());
  }
  if (failures) return failure(std::to_string(failures) + " input(s) failed (listed above); the pack holds the rest");
  if (over) return failure(std::to_string(over) + " clip(s) exceed their precision (see the OVER PRECISION lines)");
  return kExitOk;
}

}  // namespace animpack::cli
