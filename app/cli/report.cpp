#include <cstdio>
#include <filesystem>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/export_summary.h"
#include "app/cli/import_options.h"
#include "app/cli/progress.h"
#include "core/project/project.h"
#include "core/review/review_build.h"

namespace animpack::cli {

int reportCommand(int argc, char** argv, int first) {
  std::vector<Option> flags = {{"output", "OUT.html", "the review packet to write", false, 'o'},
                               {"no-pictures", "", "leave out the pictures of the worst frames"},
                               {"jobs", "N", "worker threads (default: one per core)", false, 'j'},
                               {"quiet", "", "no progress", false, 'q'}};
  for (Option& o : importOptions()) flags.push_back(std::move(o));
  Args args("report", "P.anproj -o OUT.html [options]",
            "Writes a project's review packet: one self-contained HTML file (no network) with the pack's\n"
            "totals against the project's budget, a row per clip (size, ratio, max and p99 error, worst joint\n"
            "and frame, approval, who and when), a size-against-error chart and pictures of the five worst\n"
            "frames, original and compressed overlaid. Every clip is compressed as the project says.",
            flags);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() != 1) return usageError("report", "expected one project file");
  const auto output = args.value("output");
  if (!output) return usageError("report", "missing -o OUT.html");
  unsigned jobs = 0;
  if (auto exit = readJobs(args, "report", jobs)) return *exit;
  core::ImportFunction importer;
  if (auto exit = readImporter(args, "report", importer)) return *exit;

  const std::filesystem::path projectPath = args.positional().front();
  auto project = core::readProject(projectPath);
  if (!project) return failure(project.message());
  core::ReviewOptions options;
  options.importer = std::move(importer);
  options.jobs = jobs;
  options.pictures = !args.has("no-pictures");
  options.toolVersion = ANIMPACK_VERSION;
  Progress progress(Progress::detect(args.has("quiet")));
  auto packet = core::buildReviewPacket(
      *project, projectPath, options,
      [&](std::size_t done, std::size_t total, const std::string& what) { progress.update(done, total, what); });
  progress.finish();
  if (!packet) return failure(packet.message());
  if (auto st = core::writeReviewPacket(*packet, *output); !st) return failure(st.message());
  const core::ReviewTotals totals = core::reviewTotals(packet->clips);
  std::printf("%s: %zu clip(s), %zu approved, pack %.1f KiB%s, %zu picture(s)\n", output->c_str(), totals.clips,
              totals.approved, double(packet->packBytes) / 1024.0,
              packet->budgetKib
                  ? (core::overBudget(packet->budgetKib, packet->budgetKind, packet->packBytes, packet->residentBytes)
                         ? " (over budget)"
                         : " (within budget)")
                  : "",
              packet->pictures.size());
  return totals.failed ? kExitFailure : kExitOk;
}

}  // namespace animpack::cli
