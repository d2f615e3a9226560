#pragma once
// The studio's document (STYLE items 8-9): one imported asset, its compression settings (the §9
// schema, with per-clip overrides) and per-clip approval states, and the QUndoStack. Widgets never
// write here directly: they push commands (commands.h). Compression results are derived data and
// live in the Recompressor, not here. Typed signals tell views what changed.

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <memory>
#include <optional>
#include <vector>

#include "core/compress/settings.h"
#include "core/io/asset_importer.h"
#include "core/io/isolated_import.h"

namespace animpack::widgets {

enum class Approval { NeedsReview, Approved, Rejected };
const char* approvalName(Approval a);
std::optional<Approval> approvalFromName(const QString& name);

/// A lead's decision on a clip, tied to what it was made for.
struct ClipApproval {
  Approval state = Approval::NeedsReview;
  std::uint64_t settingsHash = 0;  ///< the clip's effective settings when approved
  std::uint64_t sourceHash = 0;    ///< the source file's bytes when approved
  bool operator==(const ClipApproval&) const = default;
};

/// Display orientation of the asset (the viewport's up-axis fix; not part of the compression).
enum class UpAxis { AsImported, ZUp, XUp };

class ClipDocument : public QObject {
  Q_OBJECT
 public:
  explicit ClipDocument(QObject* parent = nullptr);

  /// Imports `path` with the settings' unit and sample-rate overrides; on success resets settings,
  /// approvals and the undo stack. On failure the document is unchanged and the error returned.
  Status open(const QString& path, const core::CompressionSettings& settings = {});
  /// How files are imported (default: importAsset() in this process; the studio runs Assimp in a child).
  void setImporter(core::ImportFunction importer) { m_importer = std::move(importer); }
  bool hasAsset() const { return m_asset != nullptr; }
  std::shared_ptr<const core::ImportedAsset> asset() const { return m_asset; }
  const QString& sourcePath() const { return m_sourcePath; }
  int clipCount() const;
  QString clipName(int clip) const;

  const core::CompressionSettings& settings() const { return m_settings; }
  /// Replaces the settings (commands call this); re-imports when unit or sample rate change.
  void setSettings(const core::CompressionSettings& settings);
  /// The clip's settings resolved against the skeleton.
  core::EffectiveSettings effectiveSettings(int clip) const;
  /// Identity of what a clip's compression depends on: effective settings and the source bytes.
  std::uint64_t compressionKey(int clip) const;

  /// The clip's approval; NeedsReview when its settings or source changed since it was approved.
  Approval approval(int clip) const;
  ClipApproval storedApproval(int clip) const;
  /// Replaces a clip's stored approval (commands call this).
  void setStoredApproval(int clip, const ClipApproval& approval);
  /// An approval for the clip as it is now.
  ClipApproval approvalNow(int clip, Approval state) const;

  UpAxis upAxis() const { return m_upAxis; }
  void setUpAxis(UpAxis axis);  // commands call this

  // Selection and time: view state shared by the panels, not undoable.
  int currentClip() const { return m_currentClip; }
  void setCurrentClip(int clip);
  const std::vector<int>& selectedJoints() const { return m_selectedJoints; }
  void setSelectedJoints(std::vector<int> joints);
  double currentTime() const { return m_time; }  ///< seconds from the current clip's first frame
  void setCurrentTime(double seconds);

  QUndoStack* undoStack() { return &m_undo; }
  bool isModified() const { return !m_undo.isClean(); }

 signals:
  void assetChanged();  ///< a new asset, or the same file imported again
  void settingsChanged();
  void approvalChanged(int clip);
  void upAxisChanged(animpack::widgets::UpAxis axis);
  void currentClipChanged(int clip);
  void selectedJointsChanged();
  void currentTimeChanged(double seconds);
  /// The asset could not be imported again with new unit or sample-rate settings.
  void importFailed(const QString& message);

 private:
  Status import(const QString& path, const core::CompressionSettings& settings);
  /// effectiveSettings(clip).hash(), cached until the settings or the asset change: item models ask
  /// for it (through compressionKey and approval) for every cell they paint.
  std::uint64_t effectiveHash(int clip) const;

  std::shared_ptr<const core::ImportedAsset> m_asset;
  core::ImportFunction m_importer;
  QString m_sourcePath;
  core::CompressionSettings m_settings;
  std::vector<ClipApproval> m_approvals;
  mutable std::vector<std::optional<std::uint64_t>> m_effectiveHashes;
  UpAxis m_upAxis = UpAxis::AsImported;
  int m_currentClip = -1;
  std::vector<int> m_selectedJoints;
  double m_time = 0;
  QUndoStack m_undo;
};

}  // namespace animpack::widgets
