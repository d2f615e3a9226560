#include "core/io/legacy.h"
#include "core/batch/export.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/runtime/pack.h"

namespace animpack::core {
namespace {

/// Leaves out additive clips whose base is not in the pack (its file was left out), as failures.
void dropClipsWithoutBase(std::vector<PackClipRecord>& records, std::vector<ClipReport*>& rows) {
  for (std::size_t i = records.size(); i-- > 0;) {
    const AdditiveRef& ref = records[i].additive;
    if (ref.kind != AdditiveRef::Kind::Clip ||
        std::any_of(records.begin(), records.end(), [&](const PackClipRecord& r) { return r.name == ref.clip; }))
      continue;
    rows[i]->error = "its additive base '" + ref.clip + "' is not in the pack";
    records.erase(records.begin() + std::ptrdiff_t(i));
    rows.erase(rows.begin() + std::ptrdiff_t(i));
  }
}

/// Builds and writes one pack; fills the rows' compressed bytes from the written pack itself.
Expected<WrittenPack> writePack(const PackSkeletonRecord& skeleton, const std::vector<const BatchClip*>& clips,
                                const std::filesystem::path& path, std::vector<ClipReport*> rows) {
  std::vector<PackClipRecord> records;
  for (const BatchClip* c : clips) records.push_back(c->record());
  dropClipsWithoutBase(records, rows);
  const auto bytes = buildPack(skeleton, records);
  auto opened = runtime::Pack::open(bytes, runtime::anyVersion());
  if (!opened) return Error{"internal error: the pack just built does not open: " + opened.message()};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i]->compressedBytes = opened->clips()[i].ownBytes();
    rows[i]->residentBytes = rows[i]->compressedBytes + runtime::Pack::clipDerivedBytes();
  }
  if (auto st = writeFileAtomic(path, bytes); !st) return Error{st.message()};
  WrittenPack w;
  w.path = path;
  w.bytes = bytes.size();
  w.residentBytes = bytes.size() + opened->derivedBytes();
  w.clips = records.size();
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
  if (!std::filesystem::is_directory(output, ec))
    return Error{"cannot create the output directory '" + output.string() + "'"};
  return Status::ok();
}

}  // namespace

std::string skeletonDifferences(const PackSkeletonRecord& a, const PackSkeletonRecord& b) {
  std::map<std::string, std::string> parentA, parentB;
  auto parents = [](const PackSkeletonRecord& s, std::map<std::string, std::string>& out) {
    for (std::size_t j = 0; j < s.names.size(); ++j)
      out[s.names[j]] = s.parents[j] < 0 ? "" : s.names[std::size_t(s.parents[j])];
  };
  parents(a, parentA);
  parents(b, parentB);
  std::vector<std::string> diffs;
  for (const auto& [name, parent] : parentA) {
    const auto it = parentB.find(name);
    if (it == parentB.end()) diffs.push_back("no joint '" + name + "'");
    else if (it->second != parent)
      diffs.push_back("'" + name + "' has parent '" + it->second + "' instead of '" + parent + "'");
  }
  for (const auto& [name, parent] : parentB)
    if (!parentA.count(name)) diffs.push_back("an extra joint '" + name + "'");
  if (diffs.empty()) {
    const Status st = sameSkeleton(a, b);
    return st ? std::string("none") : st.message();
  }
  std::string out = std::to_string(diffs.size()) + " joint(s) differ: ";
  for (std::size_t i = 0; i < diffs.size() && i < 8; ++i) out += (i ? ", " : "") + diffs[i];
  if (diffs.size() > 8) out += ", ...";
  return out;
}

namespace {

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
    if (file.error.empty() && file.clips.empty() && file.clipsInFile > 0) continue;  // none of its clips selected
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
      auto written =
          writePack(*batch[f].skeleton, clips, options.output / (batch[f].path.stem().string() + ".anpk"), rows);
      if (!written) return Error{written.message()};
      result.packs.push_back(*written);
    }
    return Status::ok();
  }
  std::vector<PackCandidate> candidates;
  for (const BatchFile& file : batch)
    candidates.push_back({file.path.string(), file.skeleton ? &*file.skeleton : nullptr});
  const std::vector<std::string> leftOut = filesLeftOut(candidates);
  std::optional<std::size_t> first;
  std::vector<const BatchClip*> clips;
  std::vector<ClipReport*> rows;
  for (std::size_t f = 0; f < batch.size(); ++f) {
    if (!batch[f].skeleton) continue;
    if (!first) first = f;
    if (!leftOut[f].empty()) {
      if (!options.leaveOutOtherSkeletons)
        return Error{"'" + batch[f].path.string() + "' cannot share a pack with '" + batch[*first].path.string() +
                     "': " + sameSkeleton(*batch[*first].skeleton, *batch[f].skeleton).message() +
                     " (use --pack-per-file)"};
      // Its rows become failures in place (rows already point into result.rows).
      for (std::size_t row : rowOfClip[f])
        if (row != std::size_t(-1)) {
          result.rows[row].error = leftOut[f];
          ++result.failures;
        }
      continue;
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

std::vector<std::string> filesLeftOut(const std::vector<PackCandidate>& files) {
  std::vector<std::string> out(files.size());
  const PackCandidate* first = nullptr;
  for (std::size_t f = 0; f < files.size(); ++f) {
    if (!files[f].skeleton) continue;
    if (!first) {
      first = &files[f];
    } else if (!sameSkeleton(*first->skeleton, *files[f].skeleton)) {
      out[f] = "left out of the pack: its skeleton differs from that of '" + first->path +
               "': " + skeletonDifferences(*first->skeleton, *files[f].skeleton);
    }
  }
  return out;
}

Expected<ExportResult> exportPacks(const std::vector<std::filesystem::path>& files, const ExportOptions& options,
                                   const BatchProgress& progress, const std::atomic<bool>* cancel) {
  if (auto st = options.batch.settings.validate(); !st) return Error{st.message()};
  if (options.packPerFile)
    if (auto st = preparePackDirectory(files, options.output); !st) return Error{st.message()};
  BatchOptions batchOptions = options.batch;
  batchOptions.namesPerFile = options.packPerFile;
  auto batched = runBatch(files, batchOptions, progress, cancel);
  if (!batched) return Error{batched.message()};
  if (cancel && cancel->load()) return Error{"cancelled"};
  const std::vector<BatchFile>& batch = *batched;

  ExportResult result;
  const auto rowOfClip = collectRows(batch, result);
  if (auto st = writePacks(batch, rowOfClip, options, result); !st) return Error{st.message()};
  if (result.packs.empty()) return nothingCompressed(result);
  for (WrittenPack& p : result.packs)
    p.overBudget = overBudget(options.budgetKb, options.budgetKind, p.bytes, p.residentBytes);

  if (options.report) {
    std::uint64_t packBytes = 0, residentBytes = 0;
    for (const WrittenPack& p : result.packs) {
      packBytes += p.bytes;
      residentBytes += p.residentBytes;
    }
    const std::string ext = options.report->extension().string();
    const std::string text =
        ext == ".csv" ? reportCsv(result.rows) : reportJson(result.rows, packBytes, residentBytes, options.toolVersion);
    if (auto st = writeFileAtomic(*options.report, text); !st) return Error{st.message()};
  }
  return result;
}

Expected<std::uint64_t> mergePacks(const std::vector<std::filesystem::path>& paths,
                                   const std::filesystem::path& output) {
  if (paths.empty()) return Error{"no packs to merge"};
  std::vector<runtime::Pack> packs;
  for (const auto& path : paths) {
    auto pack = runtime::Pack::load(path, runtime::anyVersion());
    if (!pack) return Error{pack.message()};
    packs.push_back(std::move(pack.value()));
  }
  const PackSkeletonRecord skeleton = skeletonRecord(packs.front().skeleton());
  struct Entry {
    std::size_t pack;
    const runtime::PackClip* clip;
  };
  std::vector<Entry> entries;
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::size_t> seen;  // (source hash, clip index) -> pack
  std::map<std::string, int> uses;
  for (std::size_t i = 0; i < packs.size(); ++i) {
    if (auto st = sameSkeleton(skeleton, skeletonRecord(packs[i].skeleton())); !st)
      return Error{"'" + paths[i].string() + "' cannot be merged with '" + paths.front().string() +
                   "': " + st.message()};
    for (const runtime::PackClip& clip : packs[i].clips()) {
      const auto [it, added] = seen.emplace(std::make_pair(clip.sourceHash(), clip.clipIndex()), i);
      if (!added)
        return Error{"clip '" + std::string(clip.name()) + "' (" + std::string(clip.sourceFile()) + " #" +
                     std::to_string(clip.clipIndex()) + ") is in both '" + paths[it->second].string() + "' and '" +
                     paths[i].string() + "': the same animation of the same source bytes"};
      entries.push_back({i, &clip});
      ++uses[std::string(clip.name())];
    }
  }
  // Different animations that share a name: each takes its pack's stem as a prefix (docs/CLIP_NAMES.md).
  std::vector<PackClipRecord> records;
  std::map<std::string, std::size_t> owner;
  for (const Entry& e : entries) {
    PackClipRecord record = clipRecord(*e.clip);
    if (uses[record.name] > 1) record.name = paths[e.pack].stem().string() + "/" + record.name;
    // An additive clip's base comes from the same pack, and is renamed as it is.
    record.additive = additiveRef(packs[e.pack], *e.clip);
    if (record.additive.kind == AdditiveRef::Kind::Clip && uses[record.additive.clip] > 1)
      record.additive.clip = paths[e.pack].stem().string() + "/" + record.additive.clip;
    const auto [it, added] = owner.emplace(record.name, e.pack);
    if (!added)
      return Error{
          "clip '" + record.name + "' of '" + paths[e.pack].string() + "' and of '" + paths[it->second].string() +
          "' would share a name in the merged pack: rename one (settings \"clips\": {\"NAME\": {\"name\": ...}})"};
    records.push_back(std::move(record));
  }
  const auto bytes = buildPack(skeleton, records);
  if (auto st = writeFileAtomic(output, bytes); !st) return Error{st.message()};
  return std::uint64_t(bytes.size());
}

Expected<UpgradedPack> upgradePack(const std::filesystem::path& input, const std::filesystem::path& output) {
  auto pack = runtime::Pack::load(input, runtime::anyVersion());
  if (!pack) return Error{pack.message()};
  std::vector<PackClipRecord> records;
  for (const runtime::PackClip& clip : pack->clips()) {
    records.push_back(clipRecord(clip));
    records.back().additive = additiveRef(*pack, clip);
  }
  const auto bytes = buildPack(skeletonRecord(pack->skeleton()), records);
  if (auto st = writeFileAtomic(output, bytes); !st) return Error{st.message()};
  return UpgradedPack{pack->version(), std::uint64_t(bytes.size())};
}

}  // namespace animpack::core
