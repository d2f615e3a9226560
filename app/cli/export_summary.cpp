#include "app/cli/export_summary.h"

#include <cstdio>
#include <filesystem>
#include <set>

#include "app/cli/args.h"

namespace animpack::cli {

std::string humanBytes(std::uint64_t b) {
  char buf[32];
  if (b >= 10 * 1024 * 1024) std::snprintf(buf, sizeof(buf), "%.1f MB", double(b) / (1024.0 * 1024.0));
  else if (b >= 10 * 1024) std::snprintf(buf, sizeof(buf), "%.1f KB", double(b) / 1024.0);
  else std::snprintf(buf, sizeof(buf), "%llu B", static_cast<unsigned long long>(b));
  return buf;
}

int exportSummary(const core::ExportResult& exported, bool quiet, std::optional<double> budget, core::BudgetKind kind) {
  const core::ExportResult* result = &exported;
  std::uint64_t raw = 0, compressed = 0;
  for (const core::ClipReport& r : result->rows) {
    if (!r.error.empty()) {
      // An import error already names its file.
      if (r.clip.empty() && r.error.find(r.file) != std::string::npos)
        std::fprintf(stderr, "animpack: %s\n", r.error.c_str());
      else
        std::fprintf(stderr, "animpack: %s%s: %s\n", r.file.c_str(),
                     r.clip.empty() ? "" : (" clip '" + r.clip + "'").c_str(), r.error.c_str());
      continue;
    }
    raw += r.rawBytes;
    compressed += r.compressedBytes;
    if (!quiet && r.joints == 0)  // morph curves alone: no raw joint bytes to compare with
      std::printf("%s: %-28s %5u frames  %9s of morph curves  max %.4f cm  %6.1f ms%s\n",
                  std::filesystem::path(r.file).filename().c_str(), r.clip.c_str(), r.frames,
                  humanBytes(r.compressedBytes).c_str(), std::max(r.maxMorphErrorCm, 0.f), r.compressMs,
                  r.withinPrecision ? "" : "  OVER PRECISION");
    else if (!quiet)
      std::printf("%s: %-28s %5u frames  %10s -> %9s  %6.2f:1  max %.4f cm  p99 %.4f cm  %6.1f ms%s\n",
                  std::filesystem::path(r.file).filename().c_str(), r.clip.c_str(), r.frames,
                  humanBytes(r.rawBytes).c_str(), humanBytes(r.compressedBytes).c_str(), r.ratio(), r.maxErrorCm,
                  r.p99ErrorCm, r.compressMs, r.withinPrecision ? "" : "  OVER PRECISION");
    if (!quiet && !r.floorReason.empty()) std::printf("    no storage reaches it: %s\n", r.floorReason.c_str());
  }
  int overBudget = 0;
  for (const core::WrittenPack& p : result->packs) {
    if (p.overBudget) {
      ++overBudget;
      if (kind == core::BudgetKind::Resident)
        std::fprintf(stderr,
                     "animpack: %s is %s resident (%s file and what opening it derives), over the budget of %.0f KiB\n",
                     p.path.c_str(), humanBytes(p.residentBytes).c_str(), humanBytes(p.bytes).c_str(), *budget);
      else
        std::fprintf(stderr, "animpack: %s is %s (%s resident), over the budget of %.0f KiB for the pack file\n",
                     p.path.c_str(), humanBytes(p.bytes).c_str(), humanBytes(p.residentBytes).c_str(), *budget);
    }
  }
  const std::size_t clips = result->rows.size() - result->failures;
  const std::string cached =
      result->cachedClips ? " (" + std::to_string(result->cachedClips) + " from the cache)" : std::string();
  if (raw == 0 && compressed > 0)  // morph curves alone
    std::printf("%zu clip(s)%s: %s of morph curves in %zu pack(s)", clips, cached.c_str(),
                humanBytes(compressed).c_str(), result->packs.size());
  else
    std::printf("%zu clip(s)%s: %s -> %s (%.2f:1) in %zu pack(s)", clips, cached.c_str(), humanBytes(raw).c_str(),
                humanBytes(compressed).c_str(), compressed ? double(raw) / double(compressed) : 0.0,
                result->packs.size());
  if (result->packs.size() == 1)
    std::printf(", %s written to %s (%s resident once opened)", humanBytes(result->packs[0].bytes).c_str(),
                result->packs[0].path.c_str(), humanBytes(result->packs[0].residentBytes).c_str());
  std::printf("\n");
  if (result->failures) {
    std::string failed;
    std::set<std::string> named;
    for (const core::ClipReport& r : result->rows) {
      const std::string name =
          std::filesystem::path(r.file).filename().string() + (r.clip.empty() ? "" : " '" + r.clip + "'");
      if (!r.error.empty() && named.insert(name).second) failed += (failed.empty() ? "" : ", ") + name;
    }
    return failure(std::to_string(result->failures) + " input(s) failed (" + failed +
                   ", listed above); the packs hold the rest");
  }
  if (result->overPrecision)
    return failure(std::to_string(result->overPrecision) +
                   " clip(s) exceed their precision (see the OVER PRECISION lines)");
  if (overBudget) return failure(std::to_string(overBudget) + " pack(s) over budget");
  return kExitOk;
}

std::optional<int> readJobs(const Args& args, const std::string& command, unsigned& jobs) {
  std::optional<double> n;
  std::string error;
  if (!args.number("jobs", n, error)) return usageError(command, error);
  if (n && (*n < 1 || *n > 256 || *n != double(int(*n))))
    return usageError(command, "--jobs must be a whole number from 1 to 256");
  jobs = n ? static_cast<unsigned>(*n) : 0;
  return std::nullopt;
}

std::optional<int> readJobsBudgetCache(const Args& args, const std::string& command, core::ExportOptions& options) {
  if (auto exit = readJobs(args, command, options.batch.jobs)) return exit;
  std::optional<double> budget;
  std::string error;
  if (!args.number("budget", budget, error)) return usageError(command, error);
  if (budget && !(*budget > 0)) return usageError(command, "--budget must be a positive number of KiB");
  if (budget) options.budgetKb = budget;
  if (const auto kind = args.value("budget-kind")) {
    const auto parsed = core::budgetKindFromName(*kind);
    if (!parsed) return usageError(command, "--budget-kind must be 'resident' or 'pack'");
    options.budgetKind = *parsed;
  }
  if (const auto cache = args.value("cache")) options.batch.cacheDir = *cache;
  return std::nullopt;
}

}  // namespace animpack::cli
