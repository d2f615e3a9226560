#pragma once
// Exporting packs for the game build (README.md, "Batch export for the game build"): one pack for
// every input (all sharing a skeleton) or one pack per input file, the report (JSON or CSV), budget
// checks. Used by `animpack compress` and the studio's export.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/batch/batch.h"
#include "core/batch/budget.h"

namespace animpack::core {

struct ExportOptions {
  BatchOptions batch;
  std::filesystem::path output;  ///< the pack, or the directory with packPerFile
  bool packPerFile = false;      ///< one pack per input file, named after it
  bool leaveOutOtherSkeletons =
      false;  ///< one pack: a file whose skeleton differs from the first is a failure, not an error
  std::optional<double> budgetKb;                ///< flag packs larger than this many KiB
  BudgetKind budgetKind = BudgetKind::Resident;  ///< what the budget counts
  std::optional<std::filesystem::path> report;   ///< R.json or R.csv
  std::string toolVersion = "unknown";
};

struct WrittenPack {
  std::filesystem::path path;
  std::uint64_t bytes = 0;
  std::uint64_t residentBytes = 0;  ///< bytes and what opening the pack derives (runtime::Pack::derivedBytes)
  bool overBudget = false;
  std::size_t clips = 0;
};

struct ExportResult {
  std::vector<ClipReport> rows;  ///< every clip in pack order, failures included (error set)
  std::vector<WrittenPack> packs;
  std::size_t failures = 0;       ///< files and clips that failed
  std::size_t overPrecision = 0;  ///< clips over their precision
  std::size_t cachedClips = 0;
};

/// Compresses, builds and writes the packs (atomically) and the report. Per-file and per-clip
/// failures are recorded and the rest goes on; an error is returned only when nothing sensible
/// can be written (no clip compressed, inputs whose skeletons differ in one pack, a failed write).
Expected<ExportResult> exportPacks(const std::vector<std::filesystem::path>& files, const ExportOptions& options,
                                   const BatchProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// The joints that differ between two skeletons (missing, extra, another parent; a few named), as a
/// left-out file's failure says it.
std::string skeletonDifferences(const PackSkeletonRecord& a, const PackSkeletonRecord& b);

/// A file offered to one pack: its path as messages name it and its skeleton (null: not imported).
struct PackCandidate {
  std::string path;
  const PackSkeletonRecord* skeleton = nullptr;
};
/// Which files share one pack, the rule `build`, `compress --leave-out` and the studio apply: the
/// first file with a skeleton sets the pack's; a later file whose skeleton differs is left out. Per
/// file, why it is left out ("left out of the pack: its skeleton differs from that of 'FIRST': ...,"
/// with skeletonDifferences), or "" (in the pack, or not imported).
std::vector<std::string> filesLeftOut(const std::vector<PackCandidate>& files);

/// Merges packs built elsewhere into one (every pack must have the same skeleton). Refuses only a
/// true duplicate (the same source bytes and clip index in two packs), naming it; different clips
/// that share a name become `PACKSTEM/NAME`. Writes `output` atomically and returns its size.
Expected<std::uint64_t> mergePacks(const std::vector<std::filesystem::path>& packs,
                                   const std::filesystem::path& output);

/// `animpack upgrade`: rewrites a pack of any format version the tool reads in the current one,
/// clip for clip with every stored value carried over (each pose decodes bit-exactly as before),
/// writing `output` atomically.
struct UpgradedPack {
  std::uint32_t fromVersion = 0;
  std::uint64_t bytes = 0;
};
Expected<UpgradedPack> upgradePack(const std::filesystem::path& input, const std::filesystem::path& output);

}  // namespace animpack::core
