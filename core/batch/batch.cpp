#include "core/batch/batch.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>

#include <assimp/Importer.hpp>

#include "core/compress/settings.h"

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

}  // namespace

std::vector<BatchFile> runBatch(const std::vector<std::filesystem::path>& files, const BatchOptions& options,
                                const BatchProgress& progress, const std::atomic<bool>* cancel) {
  const unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<BatchFile> result(files.size());
  ImportOptions importOptions;
  importOptions.unitToCm = options.settings.unitToCm;
  importOptions.sampleRate = options.settings.sampleRate;
  parallelFor(files.size(), jobs, [&](std::size_t i) {
    result[i].path = files[i];
    if (cancel && cancel->load()) {
      result[i].error = "cancelled";
      return;
    }
    auto asset = importAsset(files[i], importOptions);
    if (!asset) {
      result[i].error = asset.message();
      return;
    }
    result[i].asset = std::move(asset.value());
    for (const RawClip& clip : result[i].asset->clips) {
      const bool wanted = options.clips.empty() ||
                          std::any_of(options.clips.begin(), options.clips.end(),
                                      [&](const std::string& p) { return isWildcard(p) ? wildcardMatch(p, clip.name) : p == clip.name; });
      if (wanted) result[i].clips.push_back({clip.name, std::nullopt, "", false});
    }
  });

  struct Work {
    std::size_t file, clip;
    const RawClip* raw;
  };
  std::vector<Work> work;
  for (std::size_t f = 0; f < result.size(); ++f) {
    if (!result[f].asset) continue;
    for (std::size_t c = 0; c < result[f].clips.size(); ++c)
      for (const RawClip& raw : result[f].asset->clips)
        if (raw.name == result[f].clips[c].name) work.push_back({f, c, &raw});
  }
  std::mutex progressMutex;
  std::size_t done = 0;
  parallelFor(work.size(), jobs, [&](std::size_t w) {
    const Work& job = work[w];
    BatchFile& file = result[job.file];
    BatchClip& out = file.clips[job.clip];
    const ImportedAsset& asset = *file.asset;
    if (cancel && cancel->load()) {
      out.error = "cancelled";
    } else {
      const EffectiveSettings effective = resolve(options.settings, asset.skeleton, job.raw->name);
      CompressJob compress(asset.skeleton, *job.raw, asset.unitToCm, effective);
      auto compressed = compress.run(nullptr, cancel);
      if (compressed) out.compressed = std::move(compressed.value());
      else out.error = compressed.message();
    }
    if (progress) {
      std::lock_guard<std::mutex> lock(progressMutex);
      progress(++done, work.size(), file.path.filename().string() + ": " + out.name);
    }
  });
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
  return files;
}

}  // namespace animpack::core
