#pragma once
// What `compress` and `build` print after an export: a line per clip (unless quiet), failures, the
// budget, a summary line, and the exit code (README "Command line").

#include <cstdint>
#include <optional>
#include <string>

#include "core/batch/export.h"

namespace animpack::cli {

/// "12.3 KB"-style sizes for the summaries.
std::string humanBytes(std::uint64_t bytes);
/// Prints the export's rows and summary; returns 0, or 1 with the reason (failures, clips over
/// their precision, packs over `budgetKib`).
int exportSummary(const core::ExportResult& result, bool quiet, std::optional<double> budgetKib);

}  // namespace animpack::cli
