// `animpack project new|add|remove`, `animpack approve` and `animpack build`: the command line reads
// and writes the studio's projects (docs/PROJECT.md) and builds their packs for the game build.

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <set>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/export_summary.h"
#include "app/cli/import_options.h"
#include "app/cli/progress.h"
#include "app/cli/settings_options.h"
#include "core/batch/clip_names.h"
#include "core/project/project_build.h"

namespace animpack::cli {
namespace {

/// Compresses the project as `build` does into `output`; prints progress unless quiet.
Expected<core::ExportResult> exportProject(const core::Project& project, core::ExportOptions options,
                                           const std::filesystem::path& output, bool quiet) {
  options.output = output;
  options.toolVersion = ANIMPACK_VERSION;
  Progress progress(Progress::detect(quiet));
  auto result = core::exportPacks(
      core::projectFiles(project), options,
      [&](std::size_t done, std::size_t total, const std::string& what) { progress.update(done, total, what); });
  progress.finish();
  return result;
}

/// A path beside `target` for a pack that may not be kept.
std::filesystem::path scratchBeside(const std::filesystem::path& target, const char* what) {
  const auto dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  return dir / ("." + target.filename().string() + "." + what + std::to_string(::getpid()));
}

int projectNewOrAdd(const std::string& verb, int argc, char** argv, int first) {
  const bool isNew = verb == "new";
  std::vector<Option> flags = {{"recursive", "", "descend into subdirectories of folder inputs", false, 'r'}};
  if (isNew) {
    for (Option& o : settingsOptions()) flags.push_back(std::move(o));
    flags.push_back({"budget", "KB", "the pack's size budget in KiB"});
    flags.push_back({"budget-kind", "resident|pack",
                     "what the budget counts: the pack and what opening it derives (default), or the file"});
    flags.push_back({"force", "", "replace an existing project"});
  }
  Args args("project " + verb, "P.anproj FILES|DIRS... [-r]",
            isNew ? "Creates a project of the given animation files (folders: the files Assimp reads in them):\n"
                    "one pack, one skeleton, paths stored relative to the project (docs/PROJECT.md)."
                  : "Adds animation files (folders: the files Assimp reads in them) to a project; files it\n"
                    "already lists are skipped.",
            flags);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  const std::string command = "project " + verb;
  if (args.positional().size() < 2) return usageError(command, "expected P.anproj and at least one file or folder");
  const std::filesystem::path path = args.positional()[0];
  if (path.extension() != ".anproj")
    return usageError(command, "the project must end in .anproj: '" + path.string() + "'");
  core::Project project;
  if (isNew) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !args.has("force"))
      return failure("'" + path.string() + "' exists (use 'animpack project add', or --force to replace it)");
    if (auto exit = readSettings(args, command, project.settings)) return *exit;
    std::optional<double> budget;
    std::string error;
    if (!args.number("budget", budget, error)) return usageError(command, error);
    if (budget && !(*budget > 0)) return usageError(command, "--budget must be a positive number of KiB");
    project.budgetKib = budget;
    if (const auto kind = args.value("budget-kind")) {
      const auto parsed = core::budgetKindFromName(*kind);
      if (!parsed) return usageError(command, "--budget-kind must be 'resident' or 'pack'");
      project.budgetKind = *parsed;
    }
  } else {
    auto read = core::readProject(path);
    if (!read) return failure(read.message());
    project = std::move(read.value());
  }
  const std::vector<std::string> inputs(args.positional().begin() + 1, args.positional().end());
  auto files = core::expandInputs(inputs, args.has("recursive"));
  if (!files) return failure(files.message());
  if (files->empty()) return failure("no animation file found in the inputs");
  const std::size_t added = project.addSources(*files);
  if (auto st = core::writeProject(project, path); !st) return failure(st.message());
  std::printf("%s: %zu source(s) added, %zu in the project\n", path.c_str(), added, project.sources.size());
  return kExitOk;
}

int projectRemove(int argc, char** argv, int first) {
  Args args("project remove", "P.anproj FILES...",
            "Removes source files from a project (its other files keep their settings).", {});
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() < 2) return usageError("project remove", "expected P.anproj and at least one file");
  const std::filesystem::path path = args.positional()[0];
  auto project = core::readProject(path);
  if (!project) return failure(project.message());
  for (std::size_t i = 1; i < args.positional().size(); ++i) {
    const auto file = std::filesystem::absolute(args.positional()[i]).lexically_normal();
    std::size_t index = project->sources.size();
    for (std::size_t s = 0; s < project->sources.size(); ++s)
      if (project->sources[s].path == file) index = s;
    if (index == project->sources.size())
      return failure("'" + args.positional()[i] + "' is not a source of '" + path.string() + "'");
    project->removeSource(index);
  }
  if (auto st = core::writeProject(*project, path); !st) return failure(st.message());
  std::printf("%s: %zu source(s) left\n", path.c_str(), project->sources.size());
  return kExitOk;
}

}  // namespace

int projectCommand(int argc, char** argv, int first) {
  const std::string verb = first < argc ? argv[first] : "";
  if (verb == "new" || verb == "add") return projectNewOrAdd(verb, argc, argv, first + 1);
  if (verb == "remove") return projectRemove(argc, argv, first + 1);
  if (verb == "--help" || verb == "-h") {
    std::printf(
        "usage: animpack project new|add|remove P.anproj FILES|DIRS... [-r]\n\n"
        "Creates a project, adds sources to it or removes them (docs/PROJECT.md).\n"
        "'animpack project new --help' describes each.\n");
    return kExitOk;
  }
  return usageError(
      "project", verb.empty() ? "expected new, add or remove" : "unknown subcommand '" + verb + "' (new, add, remove)");
}

int approveCommand(int argc, char** argv, int first) {
  std::vector<Option> flags = {{"clip", "NAME", "a clip to approve (pack name, animation name, wildcard)", true},
                               {"all", "", "approve every clip of the pack"},
                               {"reject", "", "record a rejection instead"},
                               {"cache", "DIR", "reuse compressed files from this cache"},
                               {"jobs", "N", "worker threads (default: one per core)", false, 'j'},
                               {"quiet", "", "no progress", false, 'q'}};
  for (Option& o : importOptions()) flags.push_back(std::move(o));
  Args args("approve", "P.anproj (--clip NAME... | --all) [--reject]",
            "Compresses the project to measure each clip, as 'build' does, then records the approval of the\n"
            "chosen clips for their current settings and source bytes, with the OS user, the UTC time and\n"
            "the measured max error (docs/PROJECT.md). 'build --require-approved' then accepts them.",
            flags);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() != 1) return usageError("approve", "expected exactly one P.anproj");
  if (args.has("all") == args.has("clip")) return usageError("approve", "give --clip NAME... or --all");
  const std::filesystem::path path = args.positional()[0];
  auto project = core::readProject(path);
  if (!project) return failure(project.message());
  if (project->sources.empty()) return failure("'" + path.string() + "' lists no source file");
  core::ExportOptions options = core::projectExportOptions(*project, path);
  if (auto exit = readJobsBudgetCache(args, "approve", options)) return *exit;
  if (auto exit = readImporter(args, "approve", options.batch.importer)) return *exit;
  options.budgetKb.reset();
  const auto scratch = scratchBeside(std::filesystem::temp_directory_path() / "animpack-approve.anpk", "measure");
  auto result = exportProject(*project, options, scratch, args.has("quiet"));
  if (!result) return failure(result.message());
  auto clips = core::builtClips(*result, scratch);
  std::error_code ec;
  std::filesystem::remove(scratch, ec);
  if (!clips) return failure(clips.message());

  std::vector<core::ClipChoice> choices;
  for (const core::BuiltClip& c : *clips) choices.push_back({c.name, c.sourceClip});
  std::set<std::size_t> chosen;
  if (args.has("all")) {
    for (std::size_t i = 0; i < clips->size(); ++i) chosen.insert(i);
  } else {
    for (const std::string& spec : args.values("clip")) {
      auto found = core::matchClips(spec, choices);
      if (!found) return failure("'" + path.string() + "': " + found.message());
      chosen.insert(found->begin(), found->end());
    }
  }
  const bool reject = args.has("reject");
  const std::string who = core::currentUserName(), when = core::utcTimestamp();
  std::string names;
  for (std::size_t i : chosen) {
    const core::BuiltClip& c = (*clips)[i];
    core::ClipApprovalRecord a{reject ? core::ApprovalState::Rejected : core::ApprovalState::Approved,
                               c.settingsHash,
                               c.sourceHash,
                               who,
                               when,
                               c.maxErrorCm};
    // A version-1 project keyed approvals by animation name; written back it keys them by pack name.
    if (project->approvalsBySourceName) {
      project->approvals.clear();
      for (const core::BuiltClip& other : *clips)
        if (const auto* old = project->approval(other.name, other.sourceClip)) project->approvals[other.name] = *old;
      project->approvalsBySourceName = false;
    }
    project->approvals[c.name] = a;
    names += (names.empty() ? "" : ", ") + c.name;
  }
  if (auto st = core::writeProject(*project, path); !st) return failure(st.message());
  std::printf("%s %zu clip(s) as %s at %s: %s\n", reject ? "rejected" : "approved", chosen.size(), who.c_str(),
              when.c_str(), names.c_str());
  return result->failures
             ? failure(std::to_string(result->failures) + " input(s) failed to compress (listed in 'animpack build')")
             : kExitOk;
}

int buildCommand(int argc, char** argv, int first) {
  std::vector<Option> flags = {
      {"output", "OUT.anpk", "the pack to write", false, 'o'},
      {"report", "R.json|R.csv", "write a per-clip report (JSON or CSV by extension)"},
      {"depfile", "D.d", "write a Make-style depfile: the pack depends on the project and every source"},
      {"require-approved", "", "fail, listing them, when a clip is unapproved or its approval no longer holds"},
      {"clip", "NAME", "build only these clips (pack name, animation name, wildcard, #N of a file)", true},
      {"budget", "KB", "the pack's budget in KiB (default: the project's budget_kib): exit code 1 over it"},
      {"budget-kind", "resident|pack", "what the budget counts (default: the project's budget_kind)"},
      {"cache", "DIR", "reuse files whose bytes and settings are unchanged (safe to share between builds)"},
      {"jobs", "N", "worker threads (default: one per core)", false, 'j'},
      {"quiet", "", "no progress and no per-clip lines; errors and the summary only", false, 'q'}};
  for (Option& o : importOptions()) flags.push_back(std::move(o));
  Args args("build", "P.anproj -o OUT.anpk [options]",
            "Compresses exactly what the project says (its sources, settings and clip overrides) into one\n"
            "pack, the same bytes as the studio's export of the project. A source whose skeleton differs is\n"
            "left out and named (exit code 1, the pack holds the rest). Exit codes: 0 success, 1 failure\n"
            "(a one-line message on stderr), 2 bad usage.",
            flags);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() != 1) return usageError("build", "expected exactly one P.anproj");
  const auto output = args.value("output");
  if (!output) return usageError("build", "missing -o OUT.anpk");
  const std::filesystem::path path = args.positional()[0];
  auto project = core::readProject(path);
  if (!project) return failure(project.message());
  if (project->sources.empty()) return failure("'" + path.string() + "' lists no source file");
  core::ExportOptions options = core::projectExportOptions(*project, path);
  if (auto exit = readJobsBudgetCache(args, "build", options)) return *exit;
  if (auto exit = readImporter(args, "build", options.batch.importer)) return *exit;
  options.batch.clips = args.values("clip");
  if (const auto report = args.value("report")) options.report = *report;
  const bool requireApproved = args.has("require-approved");

  // With --require-approved the pack is kept only when every clip passes.
  const std::filesystem::path target = *output;
  const std::filesystem::path written = requireApproved ? scratchBeside(target, "unchecked") : target;
  auto result = exportProject(*project, options, written, args.has("quiet"));
  if (!result) return failure(result.message());
  for (core::WrittenPack& p : result->packs) p.path = target;
  if (requireApproved) {
    auto clips = core::builtClips(*result, written);
    if (!clips) return failure(clips.message());
    const auto unapproved = core::unapprovedClips(*project, *clips);
    std::error_code ec;
    if (!unapproved.empty()) {
      std::filesystem::remove(written, ec);
      for (const std::string& u : unapproved) std::fprintf(stderr, "animpack: %s\n", u.c_str());
      return failure(std::to_string(unapproved.size()) +
                     " clip(s) not approved as they are (listed above); no pack written");
    }
    std::filesystem::rename(written, target, ec);
    if (ec) return failure("cannot write '" + target.string() + "': " + ec.message());
  }
  if (const auto depfile = args.value("depfile")) {
    if (auto exit = writeOutput(*depfile, core::depfileText(target, path, *project)); exit != kExitOk) return exit;
  }
  return exportSummary(*result, args.has("quiet"), options.budgetKb, options.budgetKind);
}

}  // namespace animpack::cli
