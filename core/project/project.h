#pragma once
// A project (.anproj, docs/PROJECT.md): the source files of one pack (paths relative to the
// project), one shared skeleton, the settings of the pack with per-file settings stacked on them
// (per-clip overrides in the `clips` block, keyed by pack name), each clip's approval and the
// pack's budget. Read by the studio and by `animpack project|approve|build`; version-1 projects
// (one source, the studio's earlier format) are read too and written back as version 2.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/batch/budget.h"
#include "core/compress/settings.h"

namespace animpack::core {

inline constexpr int kProjectVersion = 2;

enum class ApprovalState { NeedsReview, Approved, Rejected };
const char* approvalStateName(ApprovalState state);
std::optional<ApprovalState> approvalStateFromName(std::string_view name);

/// A lead's decision on one clip and what it was made for.
struct ClipApprovalRecord {
  ApprovalState state = ApprovalState::NeedsReview;
  std::uint64_t settingsHash = 0;   ///< the clip's effective settings (EffectiveSettings::hash) when decided
  std::uint64_t sourceHash = 0;     ///< FNV-1a 64 of the source file's bytes when decided
  std::string who;                  ///< OS user name
  std::string when;                 ///< UTC, ISO 8601 ("2026-12-01T13:20:00Z")
  std::optional<float> maxErrorCm;  ///< cm, the clip's measured max error when decided
  bool operator==(const ClipApprovalRecord&) const = default;
};

/// Why a decision (approved or rejected) was made for other settings or another source than the
/// clip's now; empty when it was made for these (or none was made). The studio shows such a clip as
/// needing review.
std::string approvalOutdated(const ClipApprovalRecord& approval, std::uint64_t settingsHash, std::uint64_t sourceHash);
/// Why an approval no longer holds for a clip as it is now; empty when it holds.
std::string approvalMismatch(const ClipApprovalRecord& approval, std::uint64_t settingsHash, std::uint64_t sourceHash,
                             float maxErrorCm);

struct ProjectSource {
  std::filesystem::path path;                   ///< absolute
  std::optional<CompressionSettings> settings;  ///< stacked on the project's settings for this file only
  bool operator==(const ProjectSource&) const = default;
};

/// A file's settings: the project's, with the file's own stacked on top.
CompressionSettings stackedSettings(const CompressionSettings& project, const std::optional<CompressionSettings>& own);

struct Project {
  std::vector<ProjectSource> sources;
  CompressionSettings settings;        ///< the pack's settings; `clips` keyed by pack name
  std::string upAxis = "as_imported";  ///< the studio's display up axis (core/anim/up_axis.h names)
  std::optional<double> budgetKib;     ///< KiB, the pack's size budget; none: no budget
  BudgetKind budgetKind =
      BudgetKind::Resident;  ///< what the budget counts; a project without `budget_kind` counts the pack file
  std::map<std::string, ClipApprovalRecord> approvals;  ///< by pack name
  /// Read from a version-1 project: approvals were keyed by the animation's own name.
  bool approvalsBySourceName = false;

  /// The settings source `index` is compressed with: the project's, then the file's own on top.
  CompressionSettings settingsFor(std::size_t index) const;
  /// The approval of a clip, by pack name (version-1 projects: by the animation's name).
  const ClipApprovalRecord* approval(const std::string& packName, const std::string& sourceClip) const;
  /// Adds files not already listed (compared as absolute, normalised paths); returns how many were new.
  std::size_t addSources(const std::vector<std::filesystem::path>& files);
  /// Removes a source by index; its clips' approvals stay until the next save drops unknown clips.
  void removeSource(std::size_t index);
  bool operator==(const Project&) const = default;
};

/// Parses a project's JSON; relative source paths are taken against `projectPath`'s folder.
/// Errors name `projectPath`, the key and the problem.
Expected<Project> parseProject(std::string_view text, const std::filesystem::path& projectPath);
/// Reads a project file.
Expected<Project> readProject(const std::filesystem::path& path);
/// The JSON of a project saved at `projectPath` (sources relative to its folder where they sit below it).
std::string projectJson(const Project& project, const std::filesystem::path& projectPath);
/// Writes the project atomically (temporary file + rename).
Status writeProject(const Project& project, const std::filesystem::path& path);

/// The OS user name (USER, LOGNAME, else the passwd entry), "unknown" when none is found.
std::string currentUserName();
/// The current UTC time as ISO 8601 with a Z ("2026-12-01T13:20:00Z").
std::string utcTimestamp();

}  // namespace animpack::core
