#include "core/batch/batch.h"

#include <algorithm>
#include <fstream>
#include <mutex>
#include <set>
#include <nlohmann/json.hpp>
#include <thread>

#include <assimp/Importer.hpp>

#include "core/compress/vertex_error.h"
#include "core/runtime/hash.h"
#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"

namespace animpack::core {
namespace {

/// Runs `task(i)` for i in [0, count) on `jobs` threads.
template <typename Task>
void parallelFor(std::size_t count, unsigned jobs, Task task) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) task(i);
  };
  const unsigned threads = static_cast<unsigned>(std::min<std::size_t>(jobs, count));
  if (threads <= 1) {
    worker();
    return;
  }
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
}

Expected<ImportedAsset> importFile(const BatchOptions& options, const std::filesystem::path& path, const ImportOptions& importOptions) {
  return options.importer ? options.importer(path, importOptions) : importAsset(path, importOptions);
}

bool wanted(const BatchOptions& options, const std::string& clip) {
  return options.clips.empty() || std::any_of(options.clips.begin(), options.clips.end(), [&](const std::string& p) {
           return isWildcard(p) ? wildcardMatch(p, clip) : p == clip;
         });
}

/// Cache key of one file: its bytes, the settings, the clip filter and the format version.
std::string cacheKey(std::uint64_t sourceHash, const BatchOptions& options) {
  std::uint64_t h = runtime::fnv1a64Value(sourceHash, runtime::kFnvOffset);
  h = runtime::fnv1a64Value(options.settings.hash(), h);
  h = runtime::fnv1a64Value(runtime::kPackVersion, h);
  for (const std::string& c : options.clips) h = runtime::fnv1a64(c + "\n", h);
  char buf[20];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

/// A cached file: its clips as a pack and their reports as JSON.
bool loadCached(const std::filesystem::path& dir, const std::string& key, BatchFile& file) {
  auto pack = runtime::Pack::load(dir / (key + ".anpk"));
  std::ifstream in(dir / (key + ".json"));
  if (!pack || !in) return false;
  nlohmann::json reports;
  try {
    in >> reports;
  } catch (...) {
    return false;
  }
  if (!reports.is_array() || reports.size() != pack->clips().size()) return false;
  file.skeleton = skeletonRecord(pack->skeleton());
  for (std::size_t i = 0; i < pack->clips().size(); ++i) {
    const runtime::PackClip& pc = pack->clips()[i];
    BatchClip c;
    c.name = pc.name;
    c.fromCache = true;
    c.meta = clipRecord(pc, pack->bytes());
    const auto bytes = pack->bytes().subspan(pc.dataOffset, pc.dataSize);
    c.data.assign(bytes.begin(), bytes.end());
    c.meta.data = {};
    auto report = clipReportFromJson(reports[i].dump());
    if (!report) return false;
    c.report = std::move(report.value());
    c.report.file = file.path.string();
    file.clips.push_back(std::move(c));
  }
  file.fromCache = true;
  return true;
}

void storeCached(const std::filesystem::path& dir, const std::string& key, const BatchFile& file) {
  std::vector<PackClipRecord> records;
  nlohmann::json reports = nlohmann::json::array();
  for (const BatchClip& c : file.clips) {
    if (!c.error.empty()) return;  // only complete files are cached
    records.push_back(c.record());
    reports.push_back(nlohmann::json::parse(clipReportToJson(c.report)));
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const auto pack = buildPack(*file.skeleton, records);
  if (!writeFileAtomic(dir / (key + ".anpk"), pack)) return;
  const std::string text = reports.dump();
  (void)writeFileAtomic(dir / (key + ".json"), text);
}

/// Fills the clip's skinned-vertex error when the compressor has not (files with skinned meshes).
void measureSkin(const ImportedAsset& asset, const RawClip& raw, double unitToCm, CompressedClip& clip) {
  if (clip.stats.maxVertexErrorCm >= 0) return;
  const VertexErrorMetric metric(asset.skeleton, asset.meshes, unitToCm);
  if (metric.empty()) return;
  const auto view = runtime::ClipView::open(clip.data, asset.skeleton.restLocal);
  if (view) clip.stats.maxVertexErrorCm = measureVertexError(metric, asset.skeleton, raw, *view);
}

/// Compresses one clip of an imported file into `out` (its record, data and report, or its error).
void compressClip(const BatchOptions& options, const ImportOptions& importOptions, const ImportedAsset& asset,
                  const RawClip& source, const std::filesystem::path& path, BatchClip& out, const std::atomic<bool>* cancel) {
  const EffectiveSettings effective = resolve(options.settings, asset.skeleton, source.name, asset.meshes, asset.unitToCm);
  // A clip override of the sample rate or unit needs the file imported with it.
  std::optional<ImportedAsset> reimported;
  const RawClip* raw = &source;
  double unitToCm = asset.unitToCm;
  if ((effective.sampleRate && *effective.sampleRate != raw->sampleRate) ||
      (effective.unitToCm && *effective.unitToCm != asset.unitToCm)) {
    ImportOptions clipOptions = importOptions;
    clipOptions.sampleRate = effective.sampleRate;
    clipOptions.unitToCm = effective.unitToCm;
    auto again = importFile(options, path, clipOptions);
    if (!again) {
      out.error = again.message();
      return;
    }
    reimported = std::move(again.value());
    raw = &reimported->clips[raw->clipIndex];
    unitToCm = reimported->unitToCm;
  }
  CompressJob job(asset.skeleton, *raw, unitToCm, effective);
  job.setMeshes(asset.meshes);
  auto compressed = job.run(nullptr, cancel);
  if (!compressed) {
    out.error = compressed.message();
    return;
  }
  measureSkin(asset, *raw, unitToCm, *compressed);
  out.meta = clipRecord(*compressed, path.filename().string(), asset.sourceHash);
  out.meta.data = {};
  out.data = compressed->data;
  out.report = makeClipReport(*compressed, asset.skeleton, path.string(), 0);
  out.compressed = std::move(compressed.value());
}

}  // namespace

std::vector<BatchFile> runBatch(const std::vector<std::filesystem::path>& files, const BatchOptions& options,
                                const BatchProgress& progress, const std::atomic<bool>* cancel) {
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<BatchFile> result(files.size());
  std::vector<std::optional<ImportedAsset>> assets(files.size());
  std::vector<std::string> keys(files.size());
  ImportOptions importOptions;
  importOptions.unitToCm = options.settings.unitToCm;
  importOptions.sampleRate = options.settings.sampleRate;
  std::mutex progressMutex;
  std::size_t done = 0, total = 0;
  auto report = [&](std::size_t finished, const std::string& what) {
    if (!progress) return;
    std::lock_guard<std::mutex> lock(progressMutex);
    done += finished;
    progress(done, total, what);
  };

  parallelFor(files.size(), jobs, [&](std::size_t i) {
    BatchFile& file = result[i];
    file.path = files[i];
    if (cancel && cancel->load()) {
      file.error = "cancelled";
      return;
    }
    if (options.cacheDir) {
      keys[i] = cacheKey(hashFile(files[i]), options);
      if (loadCached(*options.cacheDir, keys[i], file)) {
        {
          std::lock_guard<std::mutex> lock(progressMutex);
          total += file.clips.size();
        }
        report(file.clips.size(), file.path.filename().string() + " (cached)");
        return;
      }
    }
    auto asset = importFile(options, files[i], importOptions);
    if (!asset) {
      file.error = asset.message();
      return;
    }
    file.skeleton = skeletonRecord(asset->skeleton, asset->unitToCm);
    for (const RawClip& clip : asset->clips)
      if (wanted(options, clip.name)) file.clips.push_back(BatchClip{clip.name, "", false, std::nullopt, {}, {}, {}});
    {
      std::lock_guard<std::mutex> lock(progressMutex);
      total += file.clips.size();
    }
    assets[i] = std::move(asset.value());
  });

  struct Work {
    std::size_t file, clip;
    const RawClip* raw;
  };
  std::vector<Work> work;
  for (std::size_t f = 0; f < result.size(); ++f) {
    if (!assets[f]) continue;
    for (std::size_t c = 0; c < result[f].clips.size(); ++c)
      for (const RawClip& raw : assets[f]->clips)
        if (raw.name == result[f].clips[c].name) work.push_back({f, c, &raw});
  }
  parallelFor(work.size(), jobs, [&](std::size_t w) {
    const Work& job = work[w];
    BatchFile& file = result[job.file];
    BatchClip& out = file.clips[job.clip];
    const ImportedAsset& asset = *assets[job.file];
    if (cancel && cancel->load()) {
      out.error = "cancelled";
    } else {
      compressClip(options, importOptions, asset, *job.raw, file.path, out, cancel);
    }
    report(1, file.path.filename().string() + ": " + out.name);
  });

  if (options.cacheDir)
    for (std::size_t f = 0; f < result.size(); ++f)
      if (assets[f] && !result[f].clips.empty()) storeCached(*options.cacheDir, keys[f], result[f]);
  return result;
}

Expected<std::vector<std::filesystem::path>> expandInputs(const std::vector<std::string>& inputs, bool recursive) {
  std::vector<std::filesystem::path> files;
  Assimp::Importer importer;
  for (const std::string& input : inputs) {
    const std::filesystem::path path(input);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return Error{"'" + input + "': no such file or directory"};
    if (!std::filesystem::is_directory(path, ec)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::filesystem::path> found;
    auto consider = [&](const std::filesystem::directory_entry& e) {
      if (!e.is_regular_file()) return;
      const std::string ext = e.path().extension().string();
      if (!ext.empty() && importer.IsExtensionSupported(ext)) found.push_back(e.path());
    };
    if (recursive) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(path, std::filesystem::directory_options::skip_permission_denied, ec)) consider(e);
    } else {
      for (const auto& e : std::filesystem::directory_iterator(path, ec)) consider(e);
    }
    if (ec) return Error{"'" + input + "': " + ec.message()};
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  // A file named twice (directly and through its folder) is compressed once, where it first appears.
  std::vector<std::filesystem::path> unique;
  std::set<std::filesystem::path> seen;
  for (const auto& f : files) {
    std::error_code ec;
    const auto canonical = std::filesystem::weakly_canonical(f, ec);
    if (seen.insert(ec ? f : canonical).second) unique.push_back(f);
  }
  return unique;
}

}  // namespace animpack::core
