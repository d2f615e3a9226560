#include "app/cli/import_options.h"

#include <cstdio>

namespace animpack::cli {

std::vector<Option> importOptions() {
  const core::ImportLimits defaults;
  return {{"import-timeout", "S", "kill an import that takes longer, seconds (" + std::to_string(int(defaults.timeoutS)) + ")"},
          {"import-memory", "MB", "memory cap of the import process, MiB (" + std::to_string(defaults.memoryMb) + ")"}};
}

std::optional<int> readImportLimits(const Args& args, const std::string& command, core::ImportLimits& out) {
  std::optional<double> timeout, memory;
  std::string error;
  if (!args.number("import-timeout", timeout, error) || !args.number("import-memory", memory, error)) return usageError(command, error);
  if (timeout && !(*timeout > 0 && *timeout <= 1e6)) return usageError(command, "--import-timeout must be in (0, 1e6] seconds");
  if (memory && !(*memory >= 16 && *memory <= 1 << 24 && *memory == double(std::uint64_t(*memory))))
    return usageError(command, "--import-memory must be a whole number of MiB from 16 to 16777216");
  if (timeout) out.timeoutS = *timeout;
  if (memory) out.memoryMb = std::uint64_t(*memory);
  if (!core::importMemoryCapAvailable())
    std::fprintf(stderr, "animpack: note: sanitizer build, the import memory cap (--import-memory) is not applied\n");
  return std::nullopt;
}

core::ImportFunction isolatedImporter(const core::ImportLimits& limits) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return core::isolatedImporter(ec ? std::filesystem::path("/proc/self/exe") : self, limits);
}

}  // namespace animpack::cli
