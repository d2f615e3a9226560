#pragma once
// The import-isolation options of every command that imports (inspect, compress, sample, verify
// and bench with --source): --import-timeout S and --import-memory MB, and the importer that runs
// Assimp in a child process of this executable with them. They are not compression settings and
// never enter a settings hash.

#include <optional>
#include <string>
#include <vector>

#include "app/cli/args.h"
#include "core/io/isolated_import.h"

namespace animpack::cli {

/// The two options, with their defaults in the help.
std::vector<Option> importOptions();

/// Reads the limits and sets `out` to the importer that runs Assimp in a child process of this
/// executable under them; an exit code (usage error printed) or nullopt to go on. Says once, on
/// stderr, when this build cannot apply the memory cap (sanitizer builds).
std::optional<int> readImporter(const Args& args, const std::string& command, core::ImportFunction& out);

}  // namespace animpack::cli
