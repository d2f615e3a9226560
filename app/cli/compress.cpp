#include <cstdio>
#include <filesystem>
#include <set>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/export_summary.h"
#include "app/cli/import_options.h"
#include "app/cli/progress.h"
#include "app/cli/settings_options.h"
#include "core/runtime/pack_format.h"
#include "core/batch/export.h"

namespace animpack::cli {

int compressCommand(int argc, char** argv, int first) {
  std::vector<Option> flags = {{"output", "PATH", "the pack to write (with --pack-per-file: a directory)", false, 'o'},
                               {"clip", "NAME", "compress only clips with this name or wildcard", true},
                               {"all", "", "compress every clip (the default)"},
                               {"recursive", "", "descend into subdirectories of folder inputs", false, 'r'},
                               {"pack-per-file", "", "write DIR/<file>.anpk for each input instead of one pack"}};
  for (Option& o : settingsOptions()) flags.push_back(std::move(o));
  for (Option& o : importOptions()) flags.push_back(std::move(o));
  flags.insert(flags.end(),
               {{"report", "R.json|R.csv", "write a per-clip report (JSON or CSV by extension)"},
                {"budget", "KB", "flag packs larger than this (KiB): exit code 1"},
                {"budget-kind", "resident|pack",
                 "what --budget counts: the pack and what opening it derives (default) or the file"},
                {"cache", "DIR", "skip files whose bytes and settings are unchanged since the last run"},
                {"jobs", "N", "worker threads (default: one per core)", false, 'j'},
                {"quiet", "", "no progress and no per-clip lines; errors and the summary only", false, 'q'}});
  Args args("compress", "FILES|DIRS... -o OUT.anpk [options]",
            "Compresses every clip of the given animation files (folders: the files Assimp reads in them)\n"
            "into one pack, or one pack per file, verifying that every joint stays within its precision at\n"
            "every frame. A file or clip that fails does not stop the batch: the summary lists it and the\n"
            "exit code is 1. Output bytes are the same for any --jobs. Assimp runs in a child process per\n"
            "file: one that crashes, hangs or exhausts it fails alone, named in the summary and the report.",
            flags);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().empty()) return usageError("compress", "no input files");
  const auto output = args.value("output");
  if (!output) return usageError("compress", args.has("pack-per-file") ? "missing -o DIR" : "missing -o OUT.anpk");
  if (args.has("all") && args.has("clip")) return usageError("compress", "--all and --clip exclude each other");

  core::ExportOptions options;
  options.toolVersion = ANIMPACK_VERSION;
  options.output = *output;
  options.packPerFile = args.has("pack-per-file");
  if (auto exit = readSettings(args, "compress", options.batch.settings)) return *exit;
  if (auto exit = readImporter(args, "compress", options.batch.importer)) return *exit;
  if (auto exit = readJobsBudgetCache(args, "compress", options)) return *exit;
  options.batch.clips = args.values("clip");
  if (const auto report = args.value("report")) options.report = *report;

  auto files = core::expandInputs(args.positional(), args.has("recursive"));
  if (!files) return failure(files.message());
  if (files->empty()) return failure("no animation file found in the inputs");
  const bool quiet = args.has("quiet");
  Progress progress(Progress::detect(quiet));
  auto result = core::exportPacks(*files, options, [&](std::size_t done, std::size_t total, const std::string& what) {
    progress.update(done, total, what);
  });
  progress.finish();
  if (!result) return failure(result.message());

  return exportSummary(*result, quiet, options.budgetKb, options.budgetKind);
}

int mergeCommand(int argc, char** argv, int first) {
  Args args("merge", "A.anpk B.anpk... -o OUT.anpk",
            "Merges packs built separately (per file, on several machines) into one. Every pack must have\n"
            "the same skeleton and clip names must be unique.",
            {{"output", "OUT.anpk", "the pack to write", false, 'o'}});
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  const auto output = args.value("output");
  if (!output) return usageError("merge", "missing -o OUT.anpk");
  if (args.positional().empty()) return usageError("merge", "no packs to merge");
  std::vector<std::filesystem::path> packs(args.positional().begin(), args.positional().end());
  auto bytes = core::mergePacks(packs, *output);
  if (!bytes) return failure(bytes.message());
  std::printf("merged %zu pack(s) into %s (%s)\n", packs.size(), output->c_str(), humanBytes(*bytes).c_str());
  return kExitOk;
}

int upgradeCommand(int argc, char** argv, int first) {
  Args args("upgrade", "OLD.anpk -o NEW.anpk",
            "Rewrites a pack of an older format version in the current one, clip for clip and every value as\n"
            "stored, so each pose decodes bit-exactly as before. The runtime a game links reads only the\n"
            "versions this tool writes now (core/runtime/FORMAT.md \"Versioning\"); the tool reads them all.",
            {{"output", "NEW.anpk", "the pack to write", false, 'o'}});
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  const auto output = args.value("output");
  if (!output) return usageError("upgrade", "missing -o NEW.anpk");
  if (args.positional().size() != 1) return usageError("upgrade", "expected exactly one OLD.anpk");
  const std::filesystem::path input = args.positional()[0];
  auto upgraded = core::upgradePack(input, *output);
  if (!upgraded) return failure(upgraded.message());
  std::printf("upgraded %s (format version %u) to %s (format version %u, %s)\n", input.string().c_str(),
              upgraded->fromVersion, output->c_str(), runtime::kPackVersion, humanBytes(upgraded->bytes).c_str());
  return kExitOk;
}

}  // namespace animpack::cli
