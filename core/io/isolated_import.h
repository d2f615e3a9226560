#pragma once
// Imports in a child process, so a file that crashes, hangs or exhausts Assimp cannot take the
// caller (a batch, the studio with its unsaved edits) down. The child is the `animpack`
// executable in its internal import mode: it imports the file in-process and sends the result
// back over a pipe as an import stream (core/io/import_stream.h), under a timeout and a memory
// cap, and dies with its parent. POSIX only.

#include <cstdint>
#include <filesystem>
#include <functional>

#include "core/io/asset_importer.h"

namespace animpack::core {

/// Limits of one import child. Not compression settings: they never enter a settings hash.
struct ImportLimits {
  static constexpr double kMaxTimeoutS = 1e6;
  static constexpr std::uint64_t kMinMemoryMb = 16, kMaxMemoryMb = std::uint64_t(1) << 24;

  double timeoutS = 60;  ///< s, default 60, in (0, kMaxTimeoutS]: the child is killed after this long
  std::uint64_t memoryMb =
      4096;  ///< MiB, default 4096, kMinMemoryMb..kMaxMemoryMb: the child's address-space cap (RLIMIT_AS)

  /// The first limit out of its range, named as the CLI option that sets it.
  Status validate() const;
};

/// Imports one file: importAsset() in this process, or importIsolated() through a child.
using ImportFunction = std::function<Expected<ImportedAsset>(const std::filesystem::path&, const ImportOptions&)>;

/// The argument that puts `animpack` into its import mode (argv[1]).
inline constexpr const char* kImportChildCommand = "__import-child";

/// The environment variable that makes the child fail on purpose, for tests: crash, hang or oom.
inline constexpr const char* kImportFaultVariable = "ANIMPACK_IMPORT_FAULT";

/// False in sanitizer builds, whose shadow memory cannot live under an address-space cap.
bool importMemoryCapAvailable();

/// Imports `path` in a child running `executable` (an `animpack` binary). A crash, a hang past
/// the timeout or the memory cap becomes an error naming the file and what happened; otherwise
/// the result is exactly importAsset()'s.
Expected<ImportedAsset> importIsolated(const std::filesystem::path& executable, const std::filesystem::path& path,
                                       const ImportOptions& options = {}, const ImportLimits& limits = {});

/// importIsolated() through `executable` under `limits`, or importAsset() in this process when
/// there is no such executable (a library build without the CLI). What applications open files with.
ImportFunction isolatedImporter(const std::filesystem::path& executable, const ImportLimits& limits = {});

/// The child's side: argv[first..] as importIsolated() passes it. Returns the process exit code.
int runImportChild(int argc, char** argv, int first);

}  // namespace animpack::core
