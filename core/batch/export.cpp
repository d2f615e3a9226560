#include "core/batch/export.h"

#include <map>
#include <set>

#include "core/runtime/pack.h"

namespace animpack::core {
namespace {

/// Builds and writes one pack; fills the rows' compressed bytes from the written pack itself.
Expected<WrittenPack> writePack(const PackSkeletonRecord& skeleton, const std::vector<const BatchClip*>& clips,
                                const std::filesystem::path& path, std::vector<ClipReport*> rows) {
  std::vector<PackClipRecord> records;
  for (const BatchClip* c : clips) records.push_back(c->record());
  const auto bytes = buildPack(skeleton, records);
  auto opened = runtime::Pack::open(bytes);
  if (!opened) return Error{"internal error: the pack just built does not open: " + opened.message()};
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i]->compressedBytes = opened->clips()[i].ownBytes;
  if (auto st = writeFileAtomic(path, bytes); !st) return Error{st.message()};
  WrittenPack w;
  w.path = path;
  w.bytes = bytes.size();
  w.clips = clips.size();
  return w;
}

/// Pack per file: refuses inputs that would write the same pack and creates the directory.
Status preparePackDirectory(const std::vector<std::filesystem::path>& files, const std::filesystem::path& output) {
  std::map<std::string, std::filesystem::path> targets;
  for (const auto& file : files) {
    const auto [it, added] = targets.emplace(file.stem().string(), file);
    if (!added)
      return Error{"'" + it->second.string() + "' and '" + file.string() + "' would both write '" +
                   (output / (file.stem().string() + ".anpk")).string() + "'"};
  }
  std::error_code ec;
  std::filesystem::create_directories(output, ec);
  if (!std::filesystem::is_directory(output, ec)) return Error{"cannot create the output directory '" + output.string() + "'"};
  return Status::ok();
}

void addFailure(ExportResult& result, const BatchFile& file, const std::string& clip, const std::string& error) {
  ClipReport failed;
  failed.file = file.path.string();
  failed.clip = clip;
  failed.error = error;
  result.rows.push_back(failed);
  ++result.failures;
}

/// The report rows in pack order, failures where they happen; returns each clip's row (or -1).
std::vector<std::vector<std::size_t>> collectRows(const std::vector<BatchFile>& batch, ExportResult& result) {
  std::vector<std::vector<std::size_t>> rowOfClip(batch.size());
  for (std::size_t f = 0; f < batch.size(); ++f) {
    const BatchFile& file = batch[f];
    if (!file.error.empty() || file.clips.empty()) {
      addFailure(result, file, "", file.error.empty() ? "no clip to compress" : file.error);
      continue;
    }
    for (const BatchClip& c : file.clips) {
      if (!c.error.empty()) {
        addFailure(result, file, c.name, c.error);
        rowOfClip[f].push_back(std::size_t(-1));
        continue;
      }
      rowOfClip[f].push_back(result.rows.size());
      result.rows.push_back(c.report);
      result.cachedClips += c.fromCache;
      result.overPrecision += !c.report.withinPrecision;
    }
  }
  return rowOfClip;
}

/// The error when no pack could be written, with the first failure's reason (one line).
Error nothingCompressed(const ExportResult& result) {
  for (const ClipReport& r : result.rows)
    if (!r.error.empty())
      return Error{"nothing was compressed: " + r.error +
                   (result.failures > 1 ? " (and " + std::to_string(result.failures - 1) + " more failure(s))" : "")};
  return Error{"nothing was compressed"};
}

/// Writes one pack per file, or one pack of every file when their skeletons agree.
Status writePacks(const std::vector<BatchFile>& batch, const std::vector<std::vector<std::size_t>>& rowOfClip,
                  const ExportOptions& options, ExportResult& result) {
  auto collect = [&](std::size_t f, std::vector<const BatchClip*>& clips, std::vector<ClipReport*>& rows) {
    for (std::size_t c = 0; c < batch[f].clips.size(); ++c) {
      if (!batch[f].clips[c].error.empty()) continue;
      clips.push_back(&batch[f].clips[c]);
      rows.push_back(&result.rows[rowOfClip[f][c]]);
    }
  };
  if (options.packPerFile) {
    for (std::size_t f = 0; f < batch.size(); ++f) {
      std::vector<const BatchClip*> clips;
      std::vector<ClipReport*> rows;
      collect(f, clips, rows);
      if (clips.empty()) continue;
      auto written = writePack(*batch[f].skeleton, clips, options.output / (batch[f].path.stem().string() + ".anpk"), rows);
      if (!written) return Error{written.message()};
      result.packs.push_back(*written);
    }
    return Status::ok();
  }
  std::optional<std::size_t> first;
  std::vector<const BatchClip*> clips;
  std::vector<ClipReport*> rows;
  for (std::size_t f = 0; f < batch.size(); ++f) {
    if (!batch[f].skeleton) continue;
    if (!first) {
      first = f;
    } else if (auto st = sameSkeleton(*batch[*first].skeleton, *batch[f].skeleton); !st) {
      return Error{"'" + batch[f].path.string() + "' cannot share a pack with '" + batch[*first].path.string() + "': " +
                   st.message() + " (use --pack-per-file)"};
    }
    collect(f, clips, rows);
  }
  if (clips.empty()) return nothingCompressed(result);
  auto written = writePack(*batch[*first].skeleton, clips, options.output, rows);
  if (!written) return Error{written.message()};
  result.packs.push_back(*written);
  return Status::ok();
}

}  // namespace

Expected<ExportResult> exportPacks(const std::vector<std::filesystem::path>& files, const ExportOptions& options,
                                   const BatchProgress& progress, const std::atomic<bool>* cancel) {
  if (auto st = options.batch.settings.validate(); !st) return Error{st.message()};
  if (options.packPerFile)
    if (auto st = preparePackDirectory(files, options.output); !st) return Error{st.message()};
  std::vector<BatchFile> batch = runBatch(files, options.batch, progress, cancel);
  if (cancel && cancel->load()) return Error{"cancelled"};

  ExportResult result;
  const auto rowOfClip = collectRows(batch, result);
  if (auto st = writePacks(batch, rowOfClip, options, result); !st) return Error{st.message()};
  if (result.packs.empty()) return nothingCompressed(result);
  for (WrittenPack& p : result.packs) p.overBudget = options.budgetKb && double(p.bytes) > *options.budgetKb * 1024.0;

  if (options.report) {
    std::uint64_t packBytes = 0;
    for (const WrittenPack& p : result.packs) packBytes += p.bytes;
    const std::string ext = options.report->extension().string();
    const std::string text = ext == ".csv" ? reportCsv(result.rows) : reportJson(result.rows, packBytes, options.toolVersion);
    if (auto st = writeFileAtomic(*options.report, text); !st) return Error{st.message()};
  }
  return result;
}

Expected<std::uint64_t> mergePacks(const std::vector<std::filesystem::path>& paths, const std::filesystem::path& output) {
  if (paths.empty()) return Error{"no packs to merge"};
  std::vector<runtime::Pack> packs;
  for (const auto& path : paths) {
    auto pack = runtime::Pack::load(path);
    if (!pack) return Error{pack.message()};
    packs.push_back(std::move(pack.value()));
  }
  const PackSkeletonRecord skeleton = skeletonRecord(packs.front().skeleton());
  std::vector<PackClipRecord> records;
  std::map<std::string, std::string> names;  // clip name -> pack it came from
  for (std::size_t i = 0; i < packs.size(); ++i) {
    if (auto st = sameSkeleton(skeleton, skeletonRecord(packs[i].skeleton())); !st)
      return Error{"'" + paths[i].string() + "' cannot be merged with '" + paths.front().string() + "': " + st.message()};
    for (const runtime::PackClip& clip : packs[i].clips()) {
      const auto [it, added] = names.emplace(clip.name, paths[i].string());
      if (!added) return Error{"clip '" + clip.name + "' is in both '" + it->second + "' and '" + paths[i].string() + "'"};
      records.push_back(clipRecord(clip, packs[i].bytes()));
    }
  }
  const auto bytes = buildPack(skeleton, records);
  if (auto st = writeFileAtomic(output, bytes); !st) return Error{st.message()};
  return std::uint64_t(bytes.size());
}

}  // namespace animpack::core
