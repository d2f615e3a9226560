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
  CompressionSettings settings;                   ///< preset, settings file and flags already merged
  std::vector<CompressionSettings> fileSettings;  ///< per input file (a project's); empty: `settings` for every file
  std::vector<std::string> sourceNames;  ///< per input file, its name for the clip-name rule (relative to a project);
                                         ///< empty: the path as given
  bool namesPerFile = false;             ///< each file becomes its own pack: names need only be unique within it
  std::vector<std::string>
      clips;          ///< clips to compress (pack name, source name or wildcard, #N of the file); empty: all
  unsigned jobs = 0;  ///< worker threads; 0: one per core
  std::optional<std::filesystem::path> cacheDir;  ///< reuse files whose bytes and settings are unchanged
  ImportFunction importer;                        ///< empty: importAsset() in this process (the CLI isolates it)
};

struct BatchClip {
  std::string name;        ///< the pack name (core/batch/clip_names.h)
  std::string sourceClip;  ///< the animation's own name
  std::uint32_t clipIndex = 0;
  std::string renamedBy;  ///< the settings `clips` key whose "name" named it; empty: automatic
  std::string error;      ///< non-empty when the clip failed
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
  std::string source;                          ///< its name for the clip-name rule
  std::uint32_t clipsInFile = 0;               ///< every animation of the file, selected or not
  std::string error;                           ///< non-empty when the file could not be imported
  std::optional<PackSkeletonRecord> skeleton;  ///< from the import or the cache
  std::vector<BatchClip> clips;
  bool fromCache = false;
};

/// Progress: clips finished so far, clips in total (grows while files are imported), and the clip
/// just finished ("file: clip").
using BatchProgress = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;

/// Imports every file, names its clips (core/batch/clip_names.h) and compresses the selected ones.
/// A file or clip that fails is recorded with its error and the rest go on; an error is returned
/// only when clips cannot be named uniquely or a `--clip` selection matches nothing. `progress` is
/// called from worker threads (serialised).
Expected<std::vector<BatchFile>> runBatch(const std::vector<std::filesystem::path>& files, const BatchOptions& options,
                                          const BatchProgress& progress = {},
                                          const std::atomic<bool>* cancel = nullptr);

/// Expands files and directories into the animation files to compress (sorted; `recursive`
/// descends into subdirectories; files inside directories are kept when Assimp knows their
/// extension). Errors name a path that does not exist.
Expected<std::vector<std::filesystem::path>> expandInputs(const std::vector<std::string>& inputs, bool recursive);

}  // namespace animpack::core
