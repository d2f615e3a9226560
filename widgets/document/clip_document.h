#pragma once
// The studio's document (docs/ARCHITECTURE.md, "The path of an edit"): a project of source files
// (docs/PROJECT.md), each imported with its own settings, sharing one skeleton; the compression
// settings (docs/SETTINGS.md, with per-file settings and per-clip overrides), each clip's approval,
// the display up axis, the budget, and the QUndoStack. Every edit goes through the edit API below, and each edit is
// exactly one undo command (commands.h); views and the main window never build commands. Compression
// results are derived data and live in the Recompressor. Typed signals tell views what changed.

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>
#include <algorithm>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/anim/imported_asset.h"
#include "core/anim/up_axis.h"
#include "core/batch/budget.h"
#include "core/base/status.h"
#include "core/compress/settings.h"
#include "core/io/asset_importer.h"
#include "core/io/isolated_import.h"
#include "core/compress/settings_edit.h"
#include "core/project/project.h"
#include "core/batch/additive_links.h"
#include "core/batch/clip_names.h"

namespace animpack::widgets {

using core::EditScope;
using core::JointField;
using core::UpAxis;

/// What a settings change touched (the document's typed change event): views update only that.
struct SettingsChange {
  std::vector<int> clips;   ///< clips whose compression key changed: their results are no longer current
  std::vector<int> joints;  ///< joints of the current clip whose effective values or own overrides changed
  bool renamed = false;     ///< some clip's pack name changed
  bool reimported = false;  ///< the files were imported again (a unit or sample-rate change)
  bool all = false;         ///< everything may differ (a file opened, added or removed)
  /// Whether `clip` is among those whose results changed.
  bool touches(int clip) const { return all || std::find(clips.begin(), clips.end(), clip) != clips.end(); }
  /// Whether `joint` of the current clip is among those that changed.
  bool touchesJoint(int joint) const { return all || std::find(joints.begin(), joints.end(), joint) != joints.end(); }
};

/// One source file of the document: what the project lists (core::ProjectSource: its absolute
/// path and own settings) and what its import gave.
struct SourceFile {
  core::ProjectSource source;
  std::shared_ptr<const core::ImportedAsset> asset;  ///< null when the file could not be imported
  QString importError;                               ///< why not, when asset is null
  std::vector<core::ClipApprovalRecord> approvals;   ///< one per clip of the asset
  QString path() const { return QString::fromStdString(source.path.string()); }
};

/// The animation files under `folder`, recursively, that the importer reads (by extension), sorted;
/// an error names a folder that does not exist or holds none.
Expected<QStringList> animationFilesIn(const QString& folder);

/// A merge key for edits of one field on one set of joints (a spin box drag is one undo step).
quint64 jointMergeKey(const std::vector<int>& joints, JointField field, EditScope scope);

class ClipDocument : public QObject {
  Q_OBJECT
 public:
  explicit ClipDocument(QObject* parent = nullptr);

  /// Imports `path` with the settings' unit and sample-rate overrides; on success resets settings,
  /// approvals and the undo stack. On failure the document is unchanged and the error returned.
  Status open(const QString& path, const core::CompressionSettings& settings = {});
  /// Opens a project's files (in order) with the project's settings. A file that cannot be imported
  /// stays listed with its error; the open fails (document unchanged) only when none can be.
  Status open(const std::vector<core::ProjectSource>& files, const core::CompressionSettings& settings);
  /// How files are imported (default: importAsset() in this process; the studio runs Assimp in a child).
  void setImporter(core::ImportFunction importer) { m_importer = std::move(importer); }
  /// After open(): a saved project's approvals (by clip name) and up axis; not an undo step.
  void restore(const std::vector<std::pair<QString, core::ClipApprovalRecord>>& approvals, UpAxis axis);
  bool hasAsset() const { return packAsset() != nullptr; }
  /// The current clip's file (no current clip: the pack's first file): what the joint tree, curves
  /// and viewport show.
  std::shared_ptr<const core::ImportedAsset> asset() const;
  /// The first file whose clips are in the pack: its skeleton is the pack's.
  std::shared_ptr<const core::ImportedAsset> packAsset() const;
  /// The project's first source: it names an unsaved project and its autosave.
  QString sourcePath() const;

  // The files. Clips are numbered across the files in the pack (file order, then clip order); a
  // file that could not be imported, or whose skeleton differs from packAsset()'s, has no clips.
  int fileCount() const { return int(m_files.size()); }
  const SourceFile& file(int file) const { return m_files[std::size_t(file)]; }
  /// Why the file's clips are not in the pack (its import error, or the joints its skeleton differs
  /// in, as `animpack build` says it); empty when they are.
  QString fileProblem(int file) const;
  /// The clips of `file`, in its order.
  std::vector<int> clipsOfFile(int file) const;
  /// The file of a clip (-1 for no clip).
  int fileOfClip(int clip) const;
  std::shared_ptr<const core::ImportedAsset> assetOf(int clip) const;
  /// The imported clip (its file's asset's clip).
  const core::RawClip& rawClip(int clip) const;
  /// The settings a file's clips resolve against: the project's with the file's own on top.
  const core::CompressionSettings& fileSettings(int file) const { return m_fileSettings[std::size_t(file)]; }
  /// The folder source names are taken relative to for the clip-name rule (the project's; default the
  /// first source's folder).
  QString projectFolder() const;
  /// Sets the project's folder (opening or saving a project does); renames clips when it matters.
  void setProjectFolder(const QString& folder);
  int clipCount() const { return int(m_clips.size()); }
  /// The clip's pack name (docs/CLIP_NAMES.md): what the pack, the report, `--clip` and the settings
  /// `clips` block call it.
  QString clipName(int clip) const;
  /// The animation's own name in the source file.
  QString sourceClipName(int clip) const;

  const core::CompressionSettings& settings() const { return m_settings; }
  /// The settings the clip resolves under its pack name: its file's, with a `clips` entry that
  /// renamed it applied as if keyed by the pack name (core::settingsForPackName, as `build` does).
  core::CompressionSettings clipSettings(int clip) const;
  /// The clip's settings resolved against the skeleton.
  core::EffectiveSettings effectiveSettings(int clip) const;
  /// Identity of what a clip's compression depends on: effective settings and the source bytes
  /// (an additive clip's also its base's).
  std::uint64_t compressionKey(int clip) const;
  /// The clip's additive base resolved among the file's clips (docs/SETTINGS.md `additive_base`).
  core::AdditiveLink additiveLink(int clip) const;
  /// The index of the clip an additive clip is a delta from, or -1 (absolute, the rest pose, an error).
  int additiveBaseClip(int clip) const;

  /// The clip's approval; NeedsReview when its settings or source changed since it was approved.
  core::ApprovalState approval(int clip) const;
  /// Why a decision given for the clip no longer holds ("" when it holds or none was given): the
  /// source changed, the default shells now follow the skin (the approval was given under the 3 cm
  /// default that files with a skinned mesh had before), or the settings changed.
  QString approvalResetReason(int clip) const;
  core::ClipApprovalRecord storedApproval(int clip) const;
  /// An approval for the clip as it is now.
  core::ClipApprovalRecord approvalNow(int clip, core::ApprovalState state) const;
  UpAxis upAxis() const { return m_upAxis; }
  /// The pack's size budget in KiB (the project's `budget_kib`); none when not set.
  std::optional<double> budgetKib() const { return m_budgetKib; }
  /// What the budget counts (the project's `budget_kind`): the pack and what opening it derives, or the file.
  core::BudgetKind budgetKind() const { return m_budgetKind; }

  // The edit API: each call pushes exactly one undo command, or none when nothing would change.
  // Joint edits in CurrentClip scope go to the current clip's override.

  /// Sets `field` (1 = pinned for Pinned) on `joints`; edits with the same non-zero `mergeKey` merge.
  void setJointValue(EditScope scope, const std::vector<int>& joints, JointField field, float value,
                     quint64 mergeKey = 0);
  /// Removes the joints' own value of `field`: they inherit again.
  void resetJointValue(EditScope scope, const std::vector<int>& joints, JointField field);
  /// Removes the joints' own precision, shell distance and pin ("Reset to inherited").
  void resetJoints(EditScope scope, const std::vector<int>& joints);
  /// Gives every joint under each root (roots included) the root's precision, shell distance and pin.
  void applyToSubtree(EditScope scope, const std::vector<int>& roots);
  /// Sets each joint's shell distance to its farthest influenced vertex (bind pose, in cm).
  void deriveShellsFromMesh(EditScope scope, const std::vector<int>& joints);
  /// Sets (or, with no value, removes) the own precision of morph curves (indices into the asset's
  /// curves, docs/SETTINGS.md "Morph targets"); edits with the same non-zero `mergeKey` merge.
  void setMorphPrecision(EditScope scope, const std::vector<int>& curves, std::optional<float> precisionCm,
                         quint64 mergeKey = 0);
  /// Makes `clip` additive on `base` ("rest", a clip's name, "CLIP@FRAME") or, with "", absolute.
  void setAdditiveBase(int clip, const QString& base);
  /// Sets the top-level (AllClips) or the current clip's precision, as a sweep point does.
  void setPrecision(EditScope scope, float precisionCm);
  /// Replaces the settings by a built-in preset, keeping the file unit and sample rate override.
  Status applyPreset(const QString& name);
  /// Replaces the settings by `settings` read from `source` (a file name for the undo text).
  void importSettings(const core::CompressionSettings& settings, const QString& source);
  /// Sets the current clip's `root_motion` (docs/SETTINGS.md) in its own clip override.
  void setRootMotion(core::RootMotionMode mode);
  /// Extracts the current clip's root motion from `joint` (root_motion and root_joint in one undo step).
  void setRootMotionJoint(const QString& joint);
  /// Overrides the centimetres per file unit; the file is imported again.
  void setUnitToCm(double unitToCm);
  /// The pack's joint order (settings `lod`): every file is imported again in it, one undo step.
  void setJointOrder(const core::JointOrder& order);
  /// Changes the display up axis.
  void setUpAxis(UpAxis axis);
  /// Gives every clip of `clips` the approval `state` for its settings and source as they are now.
  void setApproval(const std::vector<int>& clips, core::ApprovalState state);
  /// Gives each of `clips` `factor` times the precision of every joint (core::withClipPrecisionScaled).
  void scaleClipPrecision(const std::vector<int>& clips, float factor);
  /// Sets (or with nullopt removes) the pack budget in KiB; edits with the same non-zero `mergeKey` merge.
  void setBudgetKib(std::optional<double> kib, quint64 mergeKey = 0);
  /// Sets what the budget counts; one undo step.
  void setBudgetKind(core::BudgetKind kind);
  /// After open(): a saved project's budget; not an undo step.
  void restoreBudget(std::optional<double> kib, core::BudgetKind kind) {
    replaceBudgetKind(kind);
    replaceBudget(kib);
  }
  /// Imports the files not already listed and adds them (one undo step). Files that cannot be
  /// imported are not added; their errors go to `errors`. Returns how many were added.
  int addFiles(const QStringList& paths, QStringList* errors = nullptr);
  /// Adds every animation file under `folder` (recursively; only extensions the importer reads), as
  /// addFiles(). The folder that does not exist is an error in `errors`.
  int addFolder(const QString& folder, QStringList* errors = nullptr);
  /// Removes files by index (one undo step); their clips' approvals come back with undo.
  void removeFiles(std::vector<int> files);

  // Selection and time: view state shared by the panels, not undoable.
  int currentClip() const { return m_currentClip; }
  void setCurrentClip(int clip);
  const std::vector<int>& selectedJoints() const { return m_selectedJoints; }
  /// The names of `joints` in the current file's skeleton (indices out of range are left out).
  std::vector<std::string> jointNames(const std::vector<int>& joints) const;
  void setSelectedJoints(std::vector<int> joints);
  /// Morph curves selected (indices into the file's curves): the Morph targets panel, the error map.
  const std::vector<int>& selectedCurves() const { return m_selectedCurves; }
  void setSelectedCurves(std::vector<int> curves);
  double currentTime() const { return m_time; }  ///< seconds from the current clip's first frame
  void setCurrentTime(double seconds);

  QUndoStack* undoStack() { return &m_undo; }
  bool isModified() const { return !m_undo.isClean(); }

 signals:
  void assetChanged();  ///< the files or their clips changed: opened, added, removed, imported again
  /// The settings changed, and what that touched.
  void settingsChanged(const animpack::widgets::SettingsChange& change);
  void approvalChanged(int clip);
  void upAxisChanged(animpack::core::UpAxis axis);
  void budgetChanged();
  void currentClipChanged(int clip);
  void selectedJointsChanged();
  void selectedCurvesChanged();
  void currentTimeChanged(double seconds);
  /// The asset could not be imported again with new unit or sample-rate settings (the change was refused).
  void importFailed(const QString& message);

 private:
  // The value swaps the commands make (commands.cpp); nothing else writes these.
  friend class SettingsCommand;
  friend class ApprovalCommand;
  friend class UpAxisCommand;
  friend class BudgetCommand;
  friend class BudgetKindCommand;
  friend class FilesCommand;
  /// What each file's import gave (asset or error), by position and path: what a settings step that
  /// changes the unit or sample rate swaps.
  struct Imports {
    std::vector<QString> paths;
    std::vector<std::shared_ptr<const core::ImportedAsset>> assets;
    std::vector<QString> errors;
  };
  static Imports importsOf(const std::vector<SourceFile>& files);
  /// Replaces the settings and, given `imports` (made for these settings before the step was pushed),
  /// the files' assets. Never imports, so undo and redo cannot fail.
  void replaceSettings(const core::CompressionSettings& settings, const std::optional<Imports>& imports);
  void replaceApproval(int clip, const core::ClipApprovalRecord& approval);
  void replaceUpAxis(UpAxis axis);
  void replaceBudget(std::optional<double> kib);
  void replaceBudgetKind(core::BudgetKind kind);
  void replaceFiles(std::vector<SourceFile> files);
  void clampCurrentClip();
  /// Makes `files` the document (a fresh start: no undo history, no selection).
  void adopt(std::vector<SourceFile> files, const core::CompressionSettings& settings);

  /// Pushes one settings command unless `after` equals the current settings.
  void pushSettings(const QString& text, core::CompressionSettings after, quint64 mergeKey = 0);
  std::string currentClipName() const { return clipName(m_currentClip).toStdString(); }
  /// Imports a file with the unit and sample rate of `settings`.
  Expected<std::shared_ptr<const core::ImportedAsset>> import(const QString& path,
                                                              const core::CompressionSettings& settings) const;
  /// Imports every file (in parallel) with `settings` (the project's) and its own: its asset, or its error.
  void importEach(std::vector<SourceFile>& files, const core::CompressionSettings& settings) const;
  /// Imports every file again for `settings` (the project's); false, and `files` untouched, when one
  /// that was imported fails.
  bool importAll(std::vector<SourceFile>& files, const core::CompressionSettings& settings, QString* error) const;
  /// Recomputes the stacked settings, the clip table, the files left out, and the pack names.
  void layout();
  /// After a settings change that imported nothing: the stacked settings and the pack names only.
  void restack();
  /// What the settings change touches, comparing with `before` (taken with snapshot() before it).
  struct Snapshot {
    std::vector<std::uint64_t> keys;  ///< compressionKey per clip
    std::vector<std::string> names;   ///< pack name per clip
    core::EffectiveSettings current;  ///< the current clip's effective settings
    std::vector<bool> overrides;      ///< per joint and field of the current clip: whether it has its own value
  };
  Snapshot snapshot() const;
  SettingsChange changeSince(const Snapshot& before) const;
  /// A change of everything (a file opened, added, removed or imported again).
  SettingsChange everything() const;
  /// effectiveSettings(clip).hash(), cached until the settings or the asset change: item models ask
  /// for it (through compressionKey and approval) for every cell they paint.
  std::uint64_t effectiveHash(int clip) const;

  /// Recomputes m_packNames from the files and the settings (a `clips.KEY.name` renames a clip).
  void nameClips();

  struct ClipRef {
    int file = 0;
    int index = 0;  ///< in its file's asset
  };
  std::vector<SourceFile> m_files;
  std::vector<core::CompressionSettings> m_fileSettings;  ///< per file, stacked
  std::vector<QString> m_leftOut;                         ///< per file, fileProblem()
  std::vector<ClipRef> m_clips;
  std::vector<core::PackClipName> m_packNames;  ///< one per clip
  core::ImportFunction m_importer;
  QString m_projectFolder;
  core::CompressionSettings m_settings;
  mutable std::vector<std::optional<std::uint64_t>> m_effectiveHashes;
  UpAxis m_upAxis = UpAxis::AsImported;
  std::optional<double> m_budgetKib;
  core::BudgetKind m_budgetKind = core::BudgetKind::Resident;
  int m_currentClip = -1;
  std::vector<int> m_selectedJoints;
  std::vector<int> m_selectedCurves;
  double m_time = 0;
  QUndoStack m_undo;
};

}  // namespace animpack::widgets
