#include "app/cli/import_options.h"

#include <cstdio>

namespace animpack::cli {

std::vector<Option> importOptions() {
  const core::ImportLimits defaults;
  return {{"import-timeout", "S",
           "kill an import that takes longer, seconds (" + std::to_string(int(defaults.timeoutS)) + ")"},
          {"import-memory", "MB", "memory cap of the import process, MiB (" + std::to_string(defaults.memoryMb) + ")"}};
}

std::optional<int> readImporter(const Args& args, const std::string& command, core::ImportFunction& out) {
  std::optional<double> timeout, memory;
  std::string error;
  if (!args.number("import-timeout", timeout, error) || !args.number("import-memory", memory, error))
    return usageError(command, error);
  core::ImportLimits limits;
  if (timeout) limits.timeoutS = *timeout;
  // A fraction or a value beyond 64 bits must not round into the range.
  if (memory)
    limits.memoryMb =
        *memory >= 0 && *memory < 1e18 && *memory == double(std::uint64_t(*memory)) ? std::uint64_t(*memory) : 0;
  if (auto st = limits.validate(); !st) return usageError(command, st.message());
  if (!core::importMemoryCapAvailable())
    std::fprintf(stderr, "animpack: note: sanitizer build, the import memory cap (--import-memory) is not applied\n");
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  out = core::isolatedImporter(ec ? std::filesystem::path("/proc/self/exe") : self, limits);
  return std::nullopt;
}

}  // namespace animpack::cli
