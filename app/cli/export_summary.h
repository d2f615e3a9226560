#pragma once
// What `compress` and `build` print after an export: a line per clip (unless quiet), failures, the
// budget, a summary line, and the exit code (README "Command line"); and the export options they
// (and `approve`, `report`) read alike.

#include <cstdint>
#include <optional>
#include <string>

#include "app/cli/args.h"
#include "core/batch/export.h"

namespace animpack::cli {

/// "12.3 KB"-style sizes for the summaries.
std::string humanBytes(std::uint64_t bytes);
/// Prints the export's rows and summary; returns 0, or 1 with the reason (failures, clips over
/// their precision, packs over `budgetKib`).
int exportSummary(const core::ExportResult& result, bool quiet, std::optional<double> budgetKib, core::BudgetKind kind);

/// Reads --jobs (a whole number from 1 to 256; 0 = one per core when absent) into `jobs`; an exit
/// code (usage error printed) or nullopt to go on.
std::optional<int> readJobs(const Args& args, const std::string& command, unsigned& jobs);
/// Reads --jobs, --budget (KiB, positive) and --cache DIR into `options`, as compress, approve and
/// build take them; an exit code (usage error printed) or nullopt to go on.
std::optional<int> readJobsBudgetCache(const Args& args, const std::string& command, core::ExportOptions& options);

}  // namespace animpack::cli
