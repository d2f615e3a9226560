#pragma once
// Batch compression: many source files, every clip compressed on a pool of worker threads, results
// in a fixed order (input order, then clip index) so output bytes do not depend on the thread
// count. With a cache directory, files whose bytes and settings are unchanged are not recompressed.

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
#include "core/io/isolated_import.h"
#include "core/io/pack_writer.h"

namespace animpack::core {

struct BatchOptions {
  CompressionSettings settings;               ///< preset, settings file and flags already merged
  std::vector<std::string> clips;             ///< clip names or wildcards to compress; empty: all
  unsigned jobs = 0;                          ///< worker threads; 0: one per core
  std::optional<std::filesystem::path> cacheDir;  ///< reuse files whose bytes and settings are unchanged
  ImportFunction importer;                    ///< empty: importAsset() in this process (the CLI isolates it)
};

struct BatchClip {
  std::string name;
  std::string error;                         ///< non-empty when the clip failed
  bool fromCache = false;
  std::optional<CompressedClip> compressed;  ///< the full result (not kept for cached clips)
  std::vector<std::uint8_t> data;            ///< the clip block for the pack
  PackClipRecord meta;                       ///< everything but the data span
  ClipReport report;                         ///< compressed_bytes is filled in when a pack is built

  /// The record a pack is built from (its data points into this clip).
  PackClipRecord record() const {
    PackClipRecord r = meta;
    r.data = data;
    return r;
  }
};

struct BatchFile {
  std::filesystem::path path;
  std::string error;                            ///< non-empty when the file could not be imported
  std::optional<PackSkeletonRecord> skeleton;   ///< from the import or the cache
  std::vector<BatchClip> clips;
  bool fromCache = false;
};

/// Progress: clips finished so far, clips in total (grows while files are imported), and the clip
/// just finished ("file: clip").
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
