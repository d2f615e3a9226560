#include "core/batch/batch.h"

#include <algorithm>
#include <fstream>
#include <mutex>
#include <set>
#include <nlohmann/json.hpp>
#include <thread>

#include <assimp/Importer.hpp>

#include "core/batch/clip_names.h"
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

/// Version of the cache entries' layout: entries of another layout are never read.
constexpr std::uint64_t kCacheLayout = 2;

/// Cache key of one file: its bytes, its settings, the format version and the entry layout. An
/// entry holds every clip of the file under the pack names it had when it was written.
std::string cacheKey(std::uint64_t sourceHash, const CompressionSettings& settings) {
  std::uint64_t h = runtime::fnv1a64Value(sourceHash, runtime::kFnvOffset);
  h = runtime::fnv1a64Value(settings.hash(), h);
  h = runtime::fnv1a64Value(runtime::kPackVersion, h);
  h = runtime::fnv1a64Value(kCacheLayout, h);
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
    c.clipIndex = pc.clipIndex;
    c.fromCache = true;
    c.meta = clipRecord(pc, pack->bytes());
    const auto bytes = pack->bytes().subspan(pc.dataOffset, pc.dataSize);
    c.data.assign(bytes.begin(), bytes.end());
    c.meta.data = {};
    auto report = clipReportFromJson(reports[i].dump());
    if (!report) return false;
    c.report = std::move(report.value());
    c.report.file = file.path.string();
    c.sourceClip = c.report.sourceClip;
    file.clips.push_back(std::move(c));
  }
  file.clipsInFile = static_cast<std::uint32_t>(file.clips.size());
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
void compressClip(const BatchOptions& options, const CompressionSettings& settings, const ImportOptions& importOptions,
                  const ImportedAsset& asset, const RawClip& source, const std::filesystem::path& path, BatchClip& out,
                  const std::atomic<bool>* cancel) {
  const EffectiveSettings effective = resolve(settings, asset.skeleton, out.name, asset.meshes, asset.unitToCm);
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
  job.setUpAxis(objectUpAxis(asset.sceneRootTransform, UpAxis::AsImported));
  auto compressed = job.run(nullptr, cancel);
  if (!compressed) {
    out.error = compressed.message();
    return;
  }
  measureSkin(asset, *raw, unitToCm, *compressed);
  compressed->name = out.name;
  out.meta = clipRecord(*compressed, path.filename().string(), asset.sourceHash);
  out.meta.sourceClip = out.sourceClip;
  out.meta.data = {};
  out.data = compressed->data;
  out.report = makeClipReport(*compressed, asset.skeleton, path.string(), 0);
  out.report.sourceClip = out.sourceClip;
  out.compressed = std::move(compressed.value());
}


const CompressionSettings& fileSettingsOf(const BatchOptions& options, std::size_t file) {
  return options.fileSettings.empty() ? options.settings : options.fileSettings[file];
}

/// The pack name of every clip of every file (per file when each file is its own pack); fails when
/// two clips would share a name.
Expected<std::vector<std::vector<PackClipName>>> nameClips(const std::vector<BatchFile>& files, const BatchOptions& options) {
  std::vector<std::vector<PackClipName>> out(files.size());
  auto nameGroup = [&](std::size_t begin, std::size_t end) -> Status {
    std::vector<ClipNameSource> sources;
    for (std::size_t f = begin; f < end; ++f)
      for (const BatchClip& c : files[f].clips)
        sources.push_back({files[f].source, c.sourceClip, c.clipIndex, files[f].clipsInFile, &fileSettingsOf(options, f)});
    auto names = packClipNames(sources);
    if (!names) return Error{names.message()};
    std::size_t i = 0;
    for (std::size_t f = begin; f < end; ++f)
      for (std::size_t c = 0; c < files[f].clips.size(); ++c) out[f].push_back((*names)[i++]);
    return Status::ok();
  };
  if (!options.namesPerFile) {
    if (auto st = nameGroup(0, files.size()); !st) return Error{st.message()};
  } else {
    for (std::size_t f = 0; f < files.size(); ++f)
      if (auto st = nameGroup(f, f + 1); !st) return Error{st.message()};
  }
  return out;
}

}  // namespace

Expected<std::vector<BatchFile>> runBatch(const std::vector<std::filesystem::path>& files, const BatchOptions& options,
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
  auto importInto = [&](std::size_t i) {
    BatchFile& file = result[i];
    file.clips.clear();
    file.fromCache = false;
    ImportOptions fileImport = importOptions;
    fileImport.unitToCm = fileSettingsOf(options, i).unitToCm;
    fileImport.sampleRate = fileSettingsOf(options, i).sampleRate;
    auto asset = importFile(options, files[i], fileImport);
    if (!asset) {
      file.error = asset.message();
      return;
    }
    file.skeleton = skeletonRecord(asset->skeleton, asset->unitToCm);
    file.clipsInFile = static_cast<std::uint32_t>(asset->clips.size());
    for (const RawClip& clip : asset->clips) {
      BatchClip c;
      c.sourceClip = clip.name;
      c.clipIndex = clip.clipIndex;
      file.clips.push_back(std::move(c));
    }
    assets[i] = std::move(asset.value());
  };

  // 1. Every file's clips, from the cache or imported.
  parallelFor(files.size(), jobs, [&](std::size_t i) {
    BatchFile& file = result[i];
    file.path = files[i];
    file.source = options.sourceNames.empty() ? files[i].generic_string() : options.sourceNames[i];
    if (cancel && cancel->load()) {
      file.error = "cancelled";
      return;
    }
    if (options.cacheDir) {
      keys[i] = cacheKey(hashFile(files[i]), fileSettingsOf(options, i));
      if (loadCached(*options.cacheDir, keys[i], file)) return;
    }
    importInto(i);
  });

  // 2. Pack names. A cached file whose clips now carry other names was compressed for other clip
  // overrides when its settings have any: it is imported and compressed again.
  auto names = nameClips(result, options);
  if (!names) return Error{names.message()};
  std::vector<std::size_t> stale;
  for (std::size_t f = 0; f < result.size(); ++f) {
    if (!result[f].fromCache) continue;
    bool renamed = false;
    for (std::size_t c = 0; c < result[f].clips.size(); ++c) renamed = renamed || (*names)[f][c].name != result[f].clips[c].name;
    if (renamed && !fileSettingsOf(options, f).clips.empty()) stale.push_back(f);
  }
  parallelFor(stale.size(), jobs, [&](std::size_t s) { importInto(stale[s]); });
  if (!stale.empty()) {
    names = nameClips(result, options);
    if (!names) return Error{names.message()};
  }
  for (std::size_t f = 0; f < result.size(); ++f)
    for (std::size_t c = 0; c < result[f].clips.size(); ++c) {
      BatchClip& clip = result[f].clips[c];
      clip.name = (*names)[f][c].name;
      clip.renamedBy = (*names)[f][c].renamedBy;
      clip.meta.name = clip.name;
      clip.report.clip = clip.name;
    }

  // 3. The selection: a spec selects by pack or source name in any file, or #N of each file.
  std::vector<bool> complete(result.size(), true);
  if (!options.clips.empty()) {
    std::vector<bool> specUsed(options.clips.size(), false);
    for (std::size_t f = 0; f < result.size(); ++f) {
      std::vector<ClipChoice> choices;
      for (const BatchClip& c : result[f].clips) choices.push_back({c.name, c.sourceClip});
      std::vector<bool> keep(choices.size(), false);
      for (std::size_t s = 0; s < options.clips.size(); ++s) {
        auto found = matchClips(options.clips[s], choices);
        if (!found) continue;
        specUsed[s] = true;
        for (std::size_t i : *found) keep[i] = true;
      }
      std::vector<BatchClip> kept;
      for (std::size_t i = 0; i < keep.size(); ++i)
        if (keep[i]) kept.push_back(std::move(result[f].clips[i]));
      complete[f] = kept.size() == result[f].clips.size();
      result[f].clips = std::move(kept);
    }
    for (std::size_t s = 0; s < options.clips.size(); ++s)
      if (!specUsed[s]) return Error{"no clip '" + options.clips[s] + "' in the inputs (a pack name, an animation name or wildcard, or #N of a file)"};
  }
  for (const BatchFile& file : result) total += file.clips.size();
  for (const BatchFile& file : result)
    if (file.fromCache && !file.clips.empty()) report(file.clips.size(), file.path.filename().string() + " (cached)");

  // 4. Compression of what the cache did not hold.
  struct Work {
    std::size_t file, clip;
    const RawClip* raw;
  };
  std::vector<Work> work;
  for (std::size_t f = 0; f < result.size(); ++f) {
    if (!assets[f]) continue;
    for (std::size_t c = 0; c < result[f].clips.size(); ++c)
      work.push_back({f, c, &assets[f]->clips[result[f].clips[c].clipIndex]});
  }
  parallelFor(work.size(), jobs, [&](std::size_t w) {
    const Work& job = work[w];
    BatchFile& file = result[job.file];
    BatchClip& out = file.clips[job.clip];
    const ImportedAsset& asset = *assets[job.file];
    if (cancel && cancel->load()) {
      out.error = "cancelled";
    } else {
      const PackClipName name{out.name, out.renamedBy};
      compressClip(options, settingsForPackName(fileSettingsOf(options, job.file), name), importOptions, asset,
                   *job.raw, file.path, out, cancel);
    }
    report(1, file.path.filename().string() + ": " + out.name);
  });

  // 5. Only complete files go to the cache: an entry holds every clip of its file.
  if (options.cacheDir)
    for (std::size_t f = 0; f < result.size(); ++f)
      if (assets[f] && complete[f] && !result[f].clips.empty()) storeCached(*options.cacheDir, keys[f], result[f]);
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
