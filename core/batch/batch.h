#pragma once
// Batch compression: many source files, every clip compressed on a pool of worker threads, results
// in a fixed order (input order, then clip index) so output bytes do not depend on the thread count.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/compress/compressor.h"
#include "core/compress/report.h"
#include "core/compress/settings.h"
#include "core/io/asset_importer.h"

namespace animpack::core {

struct BatchOptions {
  CompressionSettings settings;               ///< preset, settings file and flags already merged
  std::vector<std::string> clips;             ///< clip names or wildcards to compress; empty: all
  unsigned jobs = 0;                          ///< worker threads; 0: one per core
  std::optional<std::filesystem::path> cacheDir;  ///< reuse clips whose source and settings are unchanged
};

struct BatchClip {
  std::string name;
  std::optional<CompressedClip> compressed;  ///< empty when it failed
  std::string error;
  bool fromCache = false;
};

struct BatchFile {
  std::filesystem::path path;
  std::optional<ImportedAsset> asset;  ///< empty when the import failed (the clips' meshes are dropped)
  std::string error;
  std::vector<BatchClip> clips;
};

/// Progress: clips finished so far, clips in total, and the clip just finished ("file: clip").
using BatchProgress = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;

/// Imports every file and compresses its clips. A file or clip that fails is recorded with its
/// error and the rest go on. `progress` is called from worker threads (serialised).
std::vector<BatchFile> runBatch(const std::vector<std::filesystem::path>& files, const BatchOptions& options,
                                const BatchProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// Expands files and directories into the animation files to compress (sorted; `recursive`
/// descends into subdirectories; files inside directories are kept when Assimp knows their
/// extension). Errors name a path that does not exist.
Expected<std::vector<std::filesystem::path>> expandInputs(const std::vector<std::string>& inputs, bool recursive);

}  // namespace animpack::core
