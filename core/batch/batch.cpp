#include "core/io/legacy.h"
#include "core/batch/batch.h"

#include <algorithm>
#include <fstream>
#include <mutex>
#include <set>
#include <nlohmann/json.hpp>
#include <thread>

#include <assimp/Importer.hpp>

#include "core/batch/additive_links.h"
#include "core/batch/clip_names.h"
#include "core/compress/compress_setup.h"
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

Expected<ImportedAsset> importFile(const BatchOptions& options, const std::filesystem::path& path,
                                   const ImportOptions& importOptions) {
  return options.importer ? options.importer(path, importOptions) : importAsset(path, importOptions);
}

/// Version of the cache entries' layout (and of what the compressor makes of the same inputs):
/// entries of another layout are never read. 3: additive clips keep their exact deltas between
/// frames; reports carry floor_reason.
constexpr std::uint64_t kCacheLayout = 3;

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
  auto pack = runtime::Pack::load(dir / (key + ".anpk"), runtime::anyVersion());
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
    c.name = std::string(pc.name());
    c.clipIndex = pc.clipIndex();
    c.fromCache = true;
    c.meta = clipRecord(pc);
    const auto bytes = pc.view.bytes();
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
    // A base in another file cannot be linked inside this entry: the rest pose holds its place
    // and the batch links the clip again from its settings when the entry is read.
    const AdditiveRef& ref = records.back().additive;
    if (ref.kind == AdditiveRef::Kind::Clip &&
        std::none_of(file.clips.begin(), file.clips.end(), [&](const BatchClip& o) { return o.name == ref.clip; }))
      records.back().additive = AdditiveRef{AdditiveRef::Kind::Rest, {}, -1};
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
  const std::vector<float> rest = restWeights(asset.curves);
  const VertexErrorMetric metric(asset.skeleton, asset.meshes, unitToCm, rest);
  if (metric.empty()) return;
  const auto view = runtime::ClipView::open(clip.data, asset.skeleton.restLocal, rest);
  if (view) clip.stats.maxVertexErrorCm = measureVertexError(metric, asset.skeleton, raw, *view);
}

/// Compresses one clip of an imported file into `out` (its record, data and report, or its error).
void compressClip(const BatchOptions& options, const CompressionSettings& settings, const ImportOptions& importOptions,
                  const ImportedAsset& asset, const RawClip& source, const std::filesystem::path& path, BatchClip& out,
                  const std::atomic<bool>* cancel, AdditiveSetup additive) {
  const EffectiveSettings effective =
      resolve(settings, asset.skeleton, out.name, asset.meshes, asset.unitToCm, asset.curves, asset.sceneScale);
  // A clip override of the sample rate or unit needs the file imported with it.
  std::optional<ImportedAsset> reimported;
  const ImportedAsset* file = &asset;
  const RawClip* raw = &source;
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
    file = &*reimported;
    raw = &reimported->clips[raw->clipIndex];
  }
  const bool absolute = !additive.ref.additive();
  auto compressed = makeCompressJob(*file, *raw, effective, std::move(additive)).run(nullptr, cancel);
  if (!compressed) {
    out.error = compressed.message();
    return;
  }
  if (absolute) measureSkin(*file, *raw, file->unitToCm * effective.sceneScale, *compressed);
  compressed->name = out.name;
  const AdditiveRef ref = out.meta.additive;
  out.meta = clipRecord(*compressed, path.filename().string(), asset.sourceHash);
  out.meta.sourceClip = out.sourceClip;
  out.meta.additive = ref;
  out.meta.data = {};
  out.data = compressed->data;
  out.report = makeClipReport(*compressed, asset.skeleton, path.string(), 0);
  out.report.sourceClip = out.sourceClip;
  out.compressed = std::move(compressed.value());
}

const CompressionSettings& fileSettingsOf(const BatchOptions& options, std::size_t file) {
  return options.fileSettings.empty() ? options.settings : options.fileSettings[file];
}

/// Calls `group(begin, end)` for each range of files that share one pack (each file when every file
/// is its own pack, else all of them); stops at the first error.
template <typename Group>
Status forEachPackGroup(std::size_t files, bool perFile, Group group) {
  if (!perFile) return group(std::size_t(0), files);
  for (std::size_t f = 0; f < files; ++f)
    if (auto st = group(f, f + 1); !st) return st;
  return Status::ok();
}

/// The pack name of every clip of every file (per file when each file is its own pack); fails when
/// two clips would share a name.
Expected<std::vector<std::vector<PackClipName>>> nameClips(const std::vector<BatchFile>& files,
                                                           const BatchOptions& options) {
  std::vector<std::vector<PackClipName>> out(files.size());
  auto nameGroup = [&](std::size_t begin, std::size_t end) -> Status {
    std::vector<ClipNameSource> sources;
    for (std::size_t f = begin; f < end; ++f)
      for (const BatchClip& c : files[f].clips)
        sources.push_back(
            {files[f].source, c.sourceClip, c.clipIndex, files[f].clipsInFile, &fileSettingsOf(options, f)});
    auto names = packClipNames(sources);
    if (!names) return Error{names.message()};
    std::size_t i = 0;
    for (std::size_t f = begin; f < end; ++f)
      for (std::size_t c = 0; c < files[f].clips.size(); ++c) out[f].push_back((*names)[i++]);
    return Status::ok();
  };
  if (auto st = forEachPackGroup(files.size(), options.namesPerFile, nameGroup); !st) return Error{st.message()};
  return out;
}

/// Every clip's additive base among the clips of its pack (its file, or every input).
std::vector<std::vector<AdditiveLink>> linkBases(const std::vector<BatchFile>& files, const BatchOptions& options,
                                                 const std::vector<std::optional<ImportedAsset>>& assets) {
  std::vector<std::vector<AdditiveLink>> out(files.size());
  (void)forEachPackGroup(files.size(), options.namesPerFile, [&](std::size_t begin, std::size_t end) {
    std::vector<AdditiveCandidate> candidates;
    for (std::size_t f = begin; f < end; ++f)
      for (const BatchClip& c : files[f].clips) {
        const CompressionSettings settings = settingsForPackName(fileSettingsOf(options, f), {c.name, c.renamedBy});
        const std::uint32_t frames = assets[f] ? assets[f]->clips[c.clipIndex].frameCount : c.meta.frameCount;
        candidates.push_back({c.name, c.sourceClip, additiveBaseSetting(settings, c.name), frames});
      }
    const std::vector<AdditiveLink> links = linkAdditiveBases(candidates);
    std::size_t i = 0;
    for (std::size_t f = begin; f < end; ++f)
      for (std::size_t c = 0; c < files[f].clips.size(); ++c) out[f].push_back(links[i++]);
    return Status::ok();
  });
  return out;
}

/// Whether a file's settings make some clip additive on another clip: its cache entry then depends
/// on the files that clip may come from.
bool namesClipBase(const CompressionSettings& settings) {
  auto clipBase = [](const std::optional<std::string>& b) { return b && !b->empty() && *b != "rest"; };
  return clipBase(settings.additiveBase) || std::any_of(settings.clips.begin(), settings.clips.end(),
                                                        [&](const auto& c) { return clipBase(c.second.additiveBase); });
}

/// The clip named `name` in the pack group of file `file`, or nullptr.
BatchClip* findInGroup(std::vector<BatchFile>& files, bool perFile, std::size_t file, const std::string& name) {
  for (std::size_t f = perFile ? file : 0; f < (perFile ? file + 1 : files.size()); ++f)
    for (BatchClip& c : files[f].clips)
      if (c.name == name) return &c;
  return nullptr;
}

/// Marks the base of every kept additive clip as kept too.
void keepAdditiveBases(std::vector<BatchFile>& files, bool perFile, std::vector<std::vector<bool>>& keep) {
  for (std::size_t f = 0; f < files.size(); ++f)
    for (std::size_t c = 0; c < files[f].clips.size(); ++c) {
      const AdditiveRef& ref = files[f].clips[c].meta.additive;
      if (!keep[f][c] || ref.kind != AdditiveRef::Kind::Clip) continue;
      for (std::size_t g = perFile ? f : 0; g < (perFile ? f + 1 : files.size()); ++g)
        for (std::size_t b = 0; b < files[g].clips.size(); ++b)
          if (files[g].clips[b].name == ref.clip) keep[g][b] = true;
    }
}

/// The additive setup of `clip`: none when it is absolute, the rest pose, or its base clip (compressed
/// in the first wave) as it decodes; or why it has none.
AdditiveSetup additiveBaseOf(std::vector<BatchFile>& files, bool perFile, std::size_t file, const BatchClip& clip,
                             const AdditiveLink& link, const ImportedAsset& asset) {
  const AdditiveRef& ref = clip.meta.additive;
  if (!link.error.empty()) return {ref, {}, link.error};
  if (ref.kind != AdditiveRef::Kind::Clip) return additiveSetup(ref, asset, std::span<const std::uint8_t>());
  const BatchClip* base = findInGroup(files, perFile, file, ref.clip);
  if (!base || !base->error.empty() || base->data.empty())
    return {ref,
            {},
            "its additive base '" + ref.clip + "' failed" + (base && !base->error.empty() ? ": " + base->error : "")};
  return additiveSetup(ref, asset, base->data);
}

}  // namespace

Expected<std::vector<BatchFile>> runBatch(const std::vector<std::filesystem::path>& files, const BatchOptions& options,
                                          const BatchProgress& progress, const std::atomic<bool>* cancel) {
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<BatchFile> result(files.size());
  std::vector<std::optional<ImportedAsset>> assets(files.size());
  std::vector<std::string> keys(files.size());
  const ImportOptions importOptions = importOptionsOf(options.settings);
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
    const ImportOptions fileImport = importOptionsOf(fileSettingsOf(options, i));
    auto asset = importFile(options, files[i], fileImport);
    if (!asset) {
      file.error = asset.message();
      return;
    }
    file.skeleton = skeletonRecord(asset->skeleton, asset->unitToCm, asset->curves, asset->sceneScale);
    file.clipsInFile = static_cast<std::uint32_t>(asset->clips.size());
    for (const RawClip& clip : asset->clips) {
      BatchClip c;
      c.sourceClip = clip.name;
      c.clipIndex = clip.clipIndex;
      file.clips.push_back(std::move(c));
    }
    assets[i] = std::move(asset.value());
  };

  // 1. Every file's clips, from the cache or imported. A file whose clips may be additive on a clip
  // of another input keys its entry with every input's bytes and settings too (the base's identity).
  std::vector<std::uint64_t> sourceHashes(files.size(), 0);
  if (options.cacheDir) parallelFor(files.size(), jobs, [&](std::size_t i) { sourceHashes[i] = hashFile(files[i]); });
  auto keyOf = [&](std::size_t i) {
    std::string key = cacheKey(sourceHashes[i], fileSettingsOf(options, i));
    if (!namesClipBase(fileSettingsOf(options, i))) return key;
    std::uint64_t h = runtime::fnv1a64(key);
    for (std::size_t o = 0; o < files.size(); ++o)
      if (o != i)
        h = runtime::fnv1a64Value(fileSettingsOf(options, o).hash(), runtime::fnv1a64Value(sourceHashes[o], h));
    return cacheKey(h, fileSettingsOf(options, i));
  };
  parallelFor(files.size(), jobs, [&](std::size_t i) {
    BatchFile& file = result[i];
    file.path = files[i];
    file.source = options.sourceNames.empty() ? files[i].generic_string() : options.sourceNames[i];
    if (cancel && cancel->load()) {
      file.error = "cancelled";
      return;
    }
    if (options.cacheDir) {
      keys[i] = keyOf(i);
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
    for (std::size_t c = 0; c < result[f].clips.size(); ++c)
      renamed = renamed || (*names)[f][c].name != result[f].clips[c].name;
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

  // 2b. Additive bases (after naming: a base is named as `--clip` names clips).
  std::vector<std::vector<AdditiveLink>> links = linkBases(result, options, assets);
  for (std::size_t f = 0; f < result.size(); ++f)
    for (std::size_t c = 0; c < result[f].clips.size(); ++c) result[f].clips[c].meta.additive = links[f][c].ref;

  // 3. The selection: a spec selects by pack or source name in any file, or #N of each file. A
  // selected additive clip brings its base along (the pack must hold it).
  std::vector<bool> complete(result.size(), true);
  if (!options.clips.empty()) {
    std::vector<bool> specUsed(options.clips.size(), false);
    std::vector<std::vector<bool>> keep(result.size());
    for (std::size_t f = 0; f < result.size(); ++f) {
      std::vector<ClipChoice> choices;
      for (const BatchClip& c : result[f].clips) choices.push_back({c.name, c.sourceClip});
      keep[f].assign(choices.size(), false);
      for (std::size_t s = 0; s < options.clips.size(); ++s) {
        auto found = matchClips(options.clips[s], choices);
        if (!found) continue;
        specUsed[s] = true;
        for (std::size_t i : *found) keep[f][i] = true;
      }
    }
    keepAdditiveBases(result, options.namesPerFile, keep);
    for (std::size_t f = 0; f < result.size(); ++f) {
      std::vector<BatchClip> kept;
      std::vector<AdditiveLink> keptLinks;
      for (std::size_t i = 0; i < keep[f].size(); ++i)
        if (keep[f][i]) {
          kept.push_back(std::move(result[f].clips[i]));
          keptLinks.push_back(links[f][i]);
        }
      complete[f] = kept.size() == result[f].clips.size();
      result[f].clips = std::move(kept);
      links[f] = std::move(keptLinks);
    }
    for (std::size_t s = 0; s < options.clips.size(); ++s)
      if (!specUsed[s])
        return Error{"no clip '" + options.clips[s] +
                     "' in the inputs (a pack name, an animation name or wildcard, or #N of a file)"};
  }
  for (const BatchFile& file : result) total += file.clips.size();
  for (const BatchFile& file : result)
    if (file.fromCache && !file.clips.empty()) report(file.clips.size(), file.path.filename().string() + " (cached)");

  // 4. Compression of what the cache did not hold: absolute clips (and deltas from the rest pose)
  // first, then the clips additive on them, which are deltas from their decoded base.
  struct Work {
    std::size_t file, clip;
    const RawClip* raw;
  };
  std::vector<Work> work[2];
  for (std::size_t f = 0; f < result.size(); ++f) {
    if (!assets[f]) continue;
    for (std::size_t c = 0; c < result[f].clips.size(); ++c)
      work[result[f].clips[c].meta.additive.kind == AdditiveRef::Kind::Clip ? 1 : 0].push_back(
          {f, c, &assets[f]->clips[result[f].clips[c].clipIndex]});
  }
  for (int wave = 0; wave < 2; ++wave)
    parallelFor(work[wave].size(), jobs, [&](std::size_t w) {
      const Work& job = work[wave][w];
      BatchFile& file = result[job.file];
      BatchClip& out = file.clips[job.clip];
      const ImportedAsset& asset = *assets[job.file];
      AdditiveSetup additive =
          additiveBaseOf(result, options.namesPerFile, job.file, out, links[job.file][job.clip], asset);
      if (cancel && cancel->load()) {
        out.error = "cancelled";
      } else if (!additive.error.empty()) {
        out.error = additive.error;
      } else {
        const PackClipName name{out.name, out.renamedBy};
        compressClip(options, settingsForPackName(fileSettingsOf(options, job.file), name), importOptions, asset,
                     *job.raw, file.path, out, cancel, std::move(additive));
      }
      report(1, file.path.filename().string() + ": " + out.name);
    });
  // A cached clip whose base setting no longer resolves fails as a compressed one would.
  for (std::size_t f = 0; f < result.size(); ++f)
    for (std::size_t c = 0; c < result[f].clips.size(); ++c)
      if (result[f].clips[c].error.empty() && !links[f][c].error.empty()) result[f].clips[c].error = links[f][c].error;
  for (BatchFile& file : result)
    for (BatchClip& c : file.clips) c.report.additiveBase = c.meta.additive.spelling();

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
      for (const auto& e : std::filesystem::recursive_directory_iterator(
               path, std::filesystem::directory_options::skip_permission_denied, ec))
        consider(e);
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
