#pragma once
// The import-isolation options of every command that imports (inspect, compress, sample):
// --import-timeout S and --import-memory MB, and the importer that runs Assimp in a child process
// of this executable with them. They are not compression settings and never enter a settings hash.

#include <optional>
#include <string>
#include <vector>

#include "app/cli/args.h"
#include "core/batch/batch.h"
#include "core/io/isolated_import.h"

namespace animpack::cli {

/// The two options, with their defaults in the help.
std::vector<Option> importOptions();

/// Reads the limits into `out`; an exit code (usage error printed) or nullopt to go on. Says once,
/// on stderr, when this build cannot apply the memory cap (sanitizer builds).
std::optional<int> readImportLimits(const Args& args, const std::string& command, core::ImportLimits& out);

/// Imports through a child process of this executable under `limits`.
core::ImportFunction isolatedImporter(const core::ImportLimits& limits);

}  // namespace animpack::cli
