#pragma once
// The studio's main window: docks around the 3D viewport and the timeline, menus and actions.
// Thin wiring (docs/ARCHITECTURE.md): the document owns the edits, the recompressor the results,
// the pose preview the viewport's poses, the file actions the files (with the project session),
// the export runner the export; this class connects them to the panels and the viewport.

#include <QMainWindow>
#include <QMessageBox>

#include "core/batch/export.h"
#include "widgets/document/clip_document.h"
#include "widgets/document/export_runner.h"
#include "widgets/file_actions.h"
#include "widgets/document/pose_preview.h"
#include "widgets/document/recompressor.h"

class QActionGroup;

namespace animpack::viewport {
class OverlayCapture;
class ViewportWidget;
}  // namespace animpack::viewport

namespace animpack::widgets {
class BlendPanel;
class ClipListPanel;
class CurveView;
class DiagnosticsPanel;
class ErrorMap;
class JointTreeView;
class MorphPanel;
class StatsPanel;
class StatusLine;
class Timeline;
}  // namespace animpack::widgets

namespace animpack::app {

class ViewportPresenter;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  MainWindow();
  ~MainWindow() override;

  /// Opens an animation file or an .anproj project; reports errors in a dialog unless `quiet`.
  bool openPath(const QString& path, bool quiet = false);
  /// Adds animation files and folders to the project (File > Add files, Add folder, a drop); with
  /// nothing open, the first file opens. Returns how many files came in.
  int addPaths(const QStringList& paths, bool quiet = false);
  /// Saves the project to `path` (atomically); errors go to a dialog.
  bool saveProjectAs(const QString& path);
  /// Exports the document's source with its settings in the background (File > Export pack runs
  /// its dialog, then this); false when an export already runs. exportFinished() tells the outcome.
  bool startExport(core::ExportOptions options);
  /// Writes the document's review packet to `path` in the background (File > Export review packet
  /// asks for the path, then calls this); exportFinished() tells the outcome.
  bool startReviewExport(const QString& path);
  /// Cancels a running export or compression.
  void cancelWork();
  /// The limits of the import child (Edit > Preferences stores them; default: the stored ones).
  void setImportLimits(const core::ImportLimits& limits);
  const core::ImportLimits& importLimits() const { return m_importLimits; }
  /// The `animpack` that imports files in a child process (default: the one beside the studio;
  /// none there: Assimp runs in the studio's process).
  void setImportExecutable(const QString& path);
  /// How often unsaved edits are written to the autosave file (default one minute).
  void setAutosaveInterval(int ms) { m_files->session()->setAutosaveInterval(ms); }
  const QString& projectPath() const { return m_files->session()->projectPath(); }
  widgets::ClipDocument* document() { return &m_document; }
  widgets::Recompressor* recompressor() { return m_recompressor; }
  viewport::ViewportWidget* viewport() { return m_viewport; }
  widgets::Timeline* timeline() { return m_timeline; }
  widgets::ClipListPanel* clipList() { return m_clips; }

 signals:
  void exportFinished(bool ok, const QString& summary);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void buildMenus();
  void buildFileMenu();
  void buildEditMenu();
  void buildViewMenu();
  void buildClipMenu();
  void buildHelpMenu();
  void buildDocks();
  void applyDefaultLayout();
  void connectDocument();
  void updateTitle();
  /// A file or project was opened: play its first clip, show its worst joint.
  void afterOpen();
  void exportPacks();
  void exportReviewPacket();
  void stepFrames(int frames);
  void showError(const QString& message);
  /// Imports through m_importExecutable under m_importLimits.
  core::ImportFunction importer() const;
  void notify(QMessageBox::Icon icon, const QString& title, const QString& text);

  QString m_importExecutable;
  core::ImportLimits m_importLimits;
  widgets::ClipDocument m_document;
  widgets::Recompressor* m_recompressor;
  widgets::PosePreview m_preview;
  widgets::FileActions* m_files;  ///< file dialogs and the project session
  widgets::ExportRunner m_export;
  viewport::ViewportWidget* m_viewport = nullptr;
  viewport::OverlayCapture* m_pictures = nullptr;  ///< draws the review packet's pictures, made on first use
  widgets::Timeline* m_timeline = nullptr;
  widgets::ClipListPanel* m_clips = nullptr;
  widgets::JointTreeView* m_joints = nullptr;
  widgets::MorphPanel* m_morphs = nullptr;
  widgets::CurveView* m_curves = nullptr;
  widgets::ErrorMap* m_errorMap = nullptr;
  widgets::StatsPanel* m_stats = nullptr;
  widgets::DiagnosticsPanel* m_diagnostics = nullptr;
  widgets::BlendPanel* m_blend = nullptr;
  widgets::StatusLine* m_statusLine = nullptr;
  QActionGroup* m_upAxisGroup = nullptr;
  QAction* m_rootMotionAction = nullptr;
  ViewportPresenter* m_presenter = nullptr;  ///< feeds m_viewport from the document
  bool m_selectWorst = false;                ///< select the worst joint when the first result arrives
};

}  // namespace animpack::app
