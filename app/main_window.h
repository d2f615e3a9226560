#pragma once
// The studio's main window: docks around the 3D viewport and the timeline, menus and actions,
// files (open, recent, drag and drop, projects with autosave), export. Thin wiring: every piece of
// behaviour lives in the widgets and viewport libraries.

#include <QMainWindow>
#include <QMessageBox>
#include <QTimer>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/batch/export.h"
#include "core/runtime/player.h"

#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

class QAction;
class QActionGroup;
class QLabel;
class QProgressBar;
class QToolButton;

namespace animpack::viewport {
class ViewportWidget;
}

namespace animpack::widgets {
class BlendPanel;
class ClipListPanel;
class CurveView;
class DiagnosticsPanel;
class ErrorMap;
class JointTreeView;
class StatsPanel;
class Timeline;
}  // namespace animpack::widgets

namespace animpack::app {

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  MainWindow();
  ~MainWindow() override;

  /// Opens an animation file or an .anproj project; reports errors in a dialog unless `quiet`.
  bool openPath(const QString& path, bool quiet = false);
  /// Saves the project to `path` (atomically); errors go to a dialog.
  bool saveProjectAs(const QString& path);
  /// Exports the document's source with its settings in the background (File > Export pack runs
  /// its dialog, then this); false when an export already runs. exportFinished() tells the outcome.
  bool startExport(core::ExportOptions options);
  /// Cancels a running export or compression.
  void cancelWork();
  /// How often unsaved edits are written to the autosave file (default one minute).
  void setAutosaveInterval(int ms) { m_autosave.setInterval(ms); }
  const QString& projectPath() const { return m_projectPath; }
  widgets::ClipDocument* document() { return &m_document; }
  widgets::Recompressor* recompressor() { return m_recompressor; }
  viewport::ViewportWidget* viewport() { return m_viewport; }
  widgets::Timeline* timeline() { return m_timeline; }

 signals:
  void exportFinished(bool ok, const QString& summary);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void buildMenus();
  void buildDocks();
  void applyDefaultLayout();
  void connectDocument();
  void updateViewport();
  void updateTitle();
  void updateRecentMenu();
  void addRecent(const QString& path);
  bool maybeSave();
  bool saveProject(bool askForPath);
  void autosave();
  void importSettings();
  void exportSettings();
  void applyPreset(const QString& name);
  void setUnitOverride();
  void exportPacks();
  void showError(const QString& message);
  void notify(QMessageBox::Icon icon, const QString& title, const QString& text);
  bool offerAutosaveRecovery(const QString& projectPath, const QString& sourcePath);
  void setBusy(const QString& what, bool busy);

  widgets::ClipDocument m_document;
  widgets::Recompressor* m_recompressor;
  viewport::ViewportWidget* m_viewport = nullptr;
  widgets::Timeline* m_timeline = nullptr;
  widgets::ClipListPanel* m_clips = nullptr;
  widgets::JointTreeView* m_joints = nullptr;
  widgets::CurveView* m_curves = nullptr;
  widgets::ErrorMap* m_errorMap = nullptr;
  widgets::StatsPanel* m_stats = nullptr;
  widgets::DiagnosticsPanel* m_diagnostics = nullptr;
  widgets::BlendPanel* m_blend = nullptr;
  QMenu* m_recentMenu = nullptr;
  QLabel* m_status = nullptr;
  QProgressBar* m_progress = nullptr;
  QToolButton* m_cancel = nullptr;
  QString m_projectPath;
  QTimer m_autosave;
  QActionGroup* m_upAxisGroup = nullptr;
  /// The playing compressed clip: its data (kept alive) and the runtime view over it. The viewport
  /// samples it like a game would; no whole-clip decode is needed here.
  std::shared_ptr<const core::CompressedClip> m_playing;
  std::optional<runtime::ClipView> m_playingView;
  runtime::Player m_player;
  std::vector<core::Transform> m_original, m_compressed, m_blendA, m_blendB, m_naive, m_decomposed;
  std::shared_ptr<std::atomic<bool>> m_exportCancel;
  bool m_exporting = false;
  bool m_selectWorst = false;  ///< select the worst joint when the first result arrives
  QString m_readyText;         ///< the status line when nothing runs
};

}  // namespace animpack::app
