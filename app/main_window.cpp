#include "app/main_window.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "app/viewport_presenter.h"
#include "core/compress/presets.h"
#include "core/io/isolated_import.h"
#include "viewport/overlay_capture.h"
#include "viewport/view_actions.h"
#include "viewport/viewport_widget.h"
#include "widgets/blend_panel.h"
#include "widgets/clip_list.h"
#include "widgets/curve_view.h"
#include "widgets/diagnostics_panel.h"
#include "widgets/error_map.h"
#include "widgets/export_dialog.h"
#include "widgets/document/project_file.h"
#include "widgets/document/review_project.h"
#include "widgets/file_actions.h"
#include "widgets/joint_tree_view.h"
#include "widgets/morph_panel.h"
#include "widgets/preferences_dialog.h"
#include "widgets/stats_panel.h"
#include "widgets/status_line.h"
#include "widgets/timeline.h"

namespace animpack::app {

namespace {

const char* const kShortcutsText =
    "Space  play / pause\n, and .  step a frame\nPage Up / Page Down  previous / next clip\n"
    "F  frame all\n1 / 2  show original / compressed\nM / K  mesh / skeleton\nV  vertex-error colours\n"
    "Ctrl+Enter / Ctrl+Backspace  approve / reject the selected clips\nCtrl+B  compress every clip\n"
    "Ctrl+E  export a pack\nCtrl+Shift+O  add files to the project\nCtrl+Z / Ctrl+Shift+Z  undo / redo\n"
    "In the curve view: wheel zooms time, Ctrl+wheel zooms values, F frames all";

}  // namespace

MainWindow::MainWindow()
    : m_recompressor(new widgets::Recompressor(&m_document, this)),
      m_preview(&m_document, m_recompressor),
      m_files(new widgets::FileActions(&m_document, this)) {
  setWindowTitle("animpack studio");
  // Assimp runs in a child process of the `animpack` installed beside the studio: a file that
  // crashes it fails to open instead of taking the unsaved document down.
  m_importExecutable = QDir(QCoreApplication::applicationDirPath()).filePath("animpack");
  m_importLimits = widgets::loadImportLimits();
  m_document.setImporter(importer());
  setAcceptDrops(true);
  setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);

  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  m_viewport = new viewport::ViewportWidget(central);
  m_timeline = new widgets::Timeline(&m_document, central);
  layout->addWidget(m_viewport, 1);
  layout->addWidget(m_timeline);
  setCentralWidget(central);

  buildDocks();
  buildMenus();
  m_statusLine = new widgets::StatusLine(statusBar(), &m_document, m_recompressor, &m_export);
  connect(m_statusLine, &widgets::StatusLine::cancelRequested, this, &MainWindow::cancelWork);
  connectDocument();

  resize(1500, 950);
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  // Dock sizes only apply once the window has its size: lay out after the first show.
  if (!restoreState(settings.value("window/state").toByteArray()))
    QTimer::singleShot(0, this, &MainWindow::applyDefaultLayout);
  updateTitle();
}

MainWindow::~MainWindow() {
  m_export.cancel();
  m_recompressor->cancel();
  // The panels read the document and the recompressor, which are members and die before QWidget's
  // destructor would delete the panels: delete the panels first.
  hide();
  delete takeCentralWidget();
  qDeleteAll(findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly));
  delete m_recompressor;
}

void MainWindow::buildDocks() {
  auto dock = [this](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);  // restoreState finds docks by object name
    d->setWidget(widget);
    addDockWidget(area, d);
    return d;
  };
  m_clips = new widgets::ClipListPanel(&m_document, m_recompressor, this);
  m_joints = new widgets::JointTreeView(&m_document, m_recompressor, this);
  m_morphs = new widgets::MorphPanel(&m_document, m_recompressor, this);
  m_curves = new widgets::CurveView(&m_document, m_recompressor, this);
  m_errorMap = new widgets::ErrorMap(&m_document, m_recompressor, this);
  m_stats = new widgets::StatsPanel(&m_document, m_recompressor, this);
  m_diagnostics = new widgets::DiagnosticsPanel(&m_document, this);
  m_blend = new widgets::BlendPanel(&m_document, this);

  QDockWidget* clips = dock("Clips", "dock.clips", m_clips, Qt::LeftDockWidgetArea);
  QDockWidget* joints = dock("Joints", "dock.joints", m_joints, Qt::LeftDockWidgetArea);
  splitDockWidget(clips, joints, Qt::Vertical);
  tabifyDockWidget(joints, dock("Morph targets", "dock.morphs", m_morphs, Qt::LeftDockWidgetArea));
  joints->raise();
  QDockWidget* stats = dock("Stats", "dock.stats", m_stats, Qt::RightDockWidgetArea);
  QDockWidget* diagnostics = dock("Diagnostics", "dock.diagnostics", m_diagnostics, Qt::RightDockWidgetArea);
  QDockWidget* blend = dock("Blend", "dock.blend", m_blend, Qt::RightDockWidgetArea);
  tabifyDockWidget(stats, diagnostics);
  tabifyDockWidget(diagnostics, blend);
  stats->raise();
  QDockWidget* curves = dock("Curves", "dock.curves", m_curves, Qt::BottomDockWidgetArea);
  QDockWidget* errors = dock("Error map", "dock.errormap", m_errorMap, Qt::BottomDockWidgetArea);
  splitDockWidget(curves, errors, Qt::Horizontal);
}

void MainWindow::applyDefaultLayout() {
  const auto d = [this](const char* name) { return findChild<QDockWidget*>(name); };
  const int w = width(), h = height();
  resizeDocks({d("dock.clips"), d("dock.stats")}, {w * 31 / 100, w * 19 / 100}, Qt::Horizontal);
  resizeDocks({d("dock.clips"), d("dock.joints")}, {h * 30 / 100, h * 32 / 100}, Qt::Vertical);
  resizeDocks({d("dock.curves")}, {h * 30 / 100}, Qt::Vertical);
  resizeDocks({d("dock.curves"), d("dock.errormap")}, {w * 58 / 100, w * 42 / 100}, Qt::Horizontal);
}

void MainWindow::buildMenus() {
  buildFileMenu();
  buildEditMenu();
  buildViewMenu();
  buildClipMenu();
  buildHelpMenu();
}

void MainWindow::buildFileMenu() {
  QMenu* file = menuBar()->addMenu("&File");
  m_files->addTo(file);
  QAction* remove =
      file->addAction("Re&move selected files from the project", m_clips, &widgets::ClipListPanel::removeSelectedFiles);
  remove->setStatusTip("Removes the files of the rows selected in the Clips panel (undoable)");
  file->addSeparator();
  file->addAction("&Export pack...", QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportPacks);
  file->addAction("Export &review packet...", this, &MainWindow::exportReviewPacket);
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildEditMenu() {
  QMenu* edit = menuBar()->addMenu("&Edit");
  QAction* undo = m_document.undoStack()->createUndoAction(this, "&Undo");
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = m_document.undoStack()->createRedoAction(this, "&Redo");
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  QMenu* presets = edit->addMenu("Apply &preset");
  for (const auto& preset : core::builtinPresets()) {
    QAction* a = presets->addAction(QString::fromStdString(preset.name));
    a->setToolTip(QString::fromStdString(preset.settings.description));
    a->setStatusTip(QString::fromStdString(preset.settings.description));
    const QString name = QString::fromStdString(preset.name);
    connect(a, &QAction::triggered, this, [this, name] {
      if (auto st = m_document.applyPreset(name); !st) showError(QString::fromStdString(st.message()));
    });
  }
  presets->setToolTipsVisible(true);
  edit->addAction("File &unit...", m_files, &widgets::FileActions::askUnit);
  edit->addAction("&Joint order...", m_files, &widgets::FileActions::askJointOrder);
  edit->addSeparator();
  edit->addAction("&Reset selected joints", m_joints, &widgets::JointTreeView::resetSelection);
  edit->addAction("Derive shell from &mesh", m_joints, &widgets::JointTreeView::deriveShellFromMesh);
  edit->addSeparator();
  edit->addAction("Pre&ferences...", QKeySequence(Qt::CTRL | Qt::Key_Comma), this, [this] {
    if (auto limits = widgets::askPreferences(this)) setImportLimits(*limits);
  });
}

void MainWindow::buildViewMenu() {
  QMenu* view = menuBar()->addMenu("&View");
  viewport::addDisplayActions(view, m_viewport);
  view->addSeparator();
  QMenu* up = view->addMenu("&Up axis");
  m_upAxisGroup = new QActionGroup(this);
  const std::pair<const char*, core::UpAxis> axes[] = {
      {"As imported (Y up)", core::UpAxis::AsImported}, {"Z up", core::UpAxis::ZUp}, {"X up", core::UpAxis::XUp}};
  for (const auto& [text, axis] : axes) {
    QAction* a = up->addAction(text);
    a->setCheckable(true);
    a->setData(int(axis));
    a->setChecked(axis == core::UpAxis::AsImported);
    m_upAxisGroup->addAction(a);
    connect(a, &QAction::triggered, this, [this, value = axis] { m_document.setUpAxis(value); });
  }
  view->addSeparator();
  QMenu* panels = view->addMenu("&Panels");
  for (QDockWidget* d : findChildren<QDockWidget*>()) panels->addAction(d->toggleViewAction());
  view->addAction("Reset &layout", this, [this] {
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
      d->setFloating(false);
      d->show();
    }
    applyDefaultLayout();
  });
}

void MainWindow::buildClipMenu() {
  QMenu* clip = menuBar()->addMenu("&Clip");
  QAction* play = clip->addAction("&Play / pause", m_timeline, &widgets::Timeline::togglePlay);
  play->setShortcut(Qt::Key_Space);
  play->setShortcutContext(Qt::WindowShortcut);
  const auto stepClip = [this](int by) {
    const int n = m_document.clipCount();
    if (n > 0) m_document.setCurrentClip((m_document.currentClip() + by + n) % n);
  };
  clip->addAction("&Next clip", QKeySequence(Qt::Key_PageDown), this, [stepClip] { stepClip(1); });
  clip->addAction("Pre&vious clip", QKeySequence(Qt::Key_PageUp), this, [stepClip] { stepClip(-1); });
  clip->addAction("Step &forward", QKeySequence(Qt::Key_Period), this, [this] { stepFrames(1); });
  clip->addAction("Step &back", QKeySequence(Qt::Key_Comma), this, [this] { stepFrames(-1); });
  clip->addSeparator();
  clip->addAction("&Approve selected clips", QKeySequence(Qt::CTRL | Qt::Key_Return), m_clips,
                  &widgets::ClipListPanel::approveSelected);
  clip->addAction("&Reject selected clips", QKeySequence(Qt::CTRL | Qt::Key_Backspace), m_clips,
                  &widgets::ClipListPanel::rejectSelected);
  clip->addAction("Back to needs &review", m_clips, &widgets::ClipListPanel::reopenSelected);
  clip->addSeparator();
  clip->addAction("&Compress all clips", QKeySequence(Qt::CTRL | Qt::Key_B), m_recompressor,
                  &widgets::Recompressor::compressAll);
  clip->addAction("Precision &sweep", m_stats, &widgets::StatsPanel::startSweep);
  clip->addSeparator();
  // The current clip's root_motion setting (docs/SETTINGS.md), an undoable settings edit.
  m_rootMotionAction = clip->addAction("E&xtract root motion");
  m_rootMotionAction->setCheckable(true);
  m_rootMotionAction->setStatusTip("Move the root's ground motion and turn into a root-motion track (this clip)");
  connect(m_rootMotionAction, &QAction::triggered, this, [this](bool on) {
    m_document.setRootMotion(on ? core::RootMotionMode::Extract : core::RootMotionMode::Keep);
  });
  const auto sync = [this] {
    const int c = m_document.currentClip();
    m_rootMotionAction->setEnabled(m_document.hasAsset() && c >= 0);
    m_rootMotionAction->setChecked(m_rootMotionAction->isEnabled() &&
                                   m_document.effectiveSettings(c).rootMotion == core::RootMotionMode::Extract);
  };
  connect(&m_document, &widgets::ClipDocument::settingsChanged, this, sync);
  connect(&m_document, &widgets::ClipDocument::currentClipChanged, this, sync);
  connect(&m_document, &widgets::ClipDocument::assetChanged, this, sync);
  sync();
}

void MainWindow::buildHelpMenu() {
  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&Keyboard shortcuts", this,
                  [this] { QMessageBox::information(this, "Keyboard shortcuts", kShortcutsText); });
  help->addAction("&About animpack studio", this, [this] {
    QMessageBox::about(
        this, "animpack studio",
        QString("animpack studio %1\nSkeletal-animation compression: see each joint's curves and the fitted "
                "keys, tune per-bone precision and pinning, compare original and compressed, export packs.")
            .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::stepFrames(int frames) {
  const int clip = m_document.currentClip();
  if (clip < 0) return;
  const double dt = 1.0 / m_document.rawClip(clip).sampleRate;
  // Forward goes through the timeline so looping wraps; backward stops at the first frame.
  if (frames > 0) m_timeline->advance(frames * dt / m_timeline->speed());
  else m_document.setCurrentTime(std::max(0.0, m_document.currentTime() + frames * dt));
}

void MainWindow::connectDocument() {
  m_presenter = new ViewportPresenter(&m_document, m_recompressor, &m_preview, m_viewport, this);
  connect(&m_document, &widgets::ClipDocument::currentClipChanged, this, &MainWindow::updateTitle);
  connect(&m_document, &widgets::ClipDocument::assetChanged, this, &MainWindow::updateTitle);
  connect(&m_document, &widgets::ClipDocument::upAxisChanged, this, [this](core::UpAxis axis) {
    for (QAction* a : m_upAxisGroup->actions()) a->setChecked(a->data().toInt() == int(axis));
  });
  connect(&m_document, &widgets::ClipDocument::importFailed, this, &MainWindow::showError);
  connect(m_document.undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
  connect(m_clips->additiveBar(), &widgets::AdditiveBar::weightChanged, &m_preview,
          &widgets::PosePreview::setAdditiveWeight);
  connect(m_blend, &widgets::BlendPanel::changed, this, [this] { m_preview.setBlend(m_blend->setup()); });
  connect(m_recompressor, &widgets::Recompressor::currentChanged, this, [this] {
    const widgets::ShownResult shown = m_recompressor->current();
    // A clip that wraps through the interval from its last frame to its first loops one frame later.
    const core::CompressedClip* c = shown.compressed();
    m_timeline->setCycleDuration(c && c->wrap && !c->droppedLastFrame ? double(c->frameCount) / double(c->sampleRate)
                                                                      : 0.0);
    // A file just opened: show the curves of the joint with the largest error.
    if (!m_selectWorst || shown.stale || !shown.compressed()) return;
    // A file of morph targets alone: the target with the largest error.
    const core::CompressionStats& stats = shown.compressed()->stats;
    if (m_document.selectedJoints().empty() && m_document.selectedCurves().empty()) {
      if (stats.worstJoint >= 0) m_document.setSelectedJoints({stats.worstJoint});
      else if (stats.curves.worstCurve >= 0) m_document.setSelectedCurves({stats.curves.worstCurve});
    }
    m_selectWorst = false;
  });
  connect(m_files, &widgets::FileActions::message, m_statusLine, &widgets::StatusLine::showMessage);
  connect(m_files, &widgets::FileActions::opened, this, &MainWindow::afterOpen);
  connect(&m_export, &widgets::ExportRunner::finished, this, [this](bool ok, const QString& summary) {
    notify(ok ? QMessageBox::Information : QMessageBox::Critical, ok ? "Export finished" : "Export failed", summary);
    emit exportFinished(ok, summary);
  });
  connect(m_files->session(), &widgets::ProjectSession::projectPathChanged, this, &MainWindow::updateTitle);
}

bool MainWindow::openPath(const QString& path, bool quiet) { return m_files->open(path, quiet); }

int MainWindow::addPaths(const QStringList& paths, bool quiet) { return m_files->add(paths, quiet); }

void MainWindow::afterOpen() {
  if (m_document.clipCount() > 0) {
    m_document.setCurrentClip(0);
    m_timeline->play();
  }
  m_selectWorst = m_document.selectedJoints().empty();
  updateTitle();
}

void MainWindow::updateTitle() {
  QString title;
  if (m_document.hasAsset()) {
    title = QFileInfo(projectPath().isEmpty() ? m_document.sourcePath() : projectPath()).fileName() + "[*]";
    if (m_document.currentClip() >= 0) title += " - " + m_document.clipName(m_document.currentClip());
    title += " - ";
  }
  setWindowTitle(title + "animpack studio");
  setWindowModified(m_document.isModified());
}

void MainWindow::exportPacks() {
  if (!m_document.hasAsset() || m_export.running()) return;
  if (auto options = widgets::askExportOptions(this, m_document, m_clips->selectedClips(), projectPath()))
    startExport(std::move(*options));
}

bool MainWindow::startExport(core::ExportOptions options) {
  options.batch.importer = importer();
  return m_document.hasAsset() && m_export.start(widgets::documentFiles(m_document), std::move(options));
}

void MainWindow::exportReviewPacket() {
  if (!m_document.hasAsset() || m_export.running()) return;
  const QString base = QFileInfo(projectPath().isEmpty() ? m_document.sourcePath() : projectPath()).completeBaseName();
  const QString path =
      QFileDialog::getSaveFileName(this, "Export review packet", base + "-review.html", "HTML (*.html)");
  if (!path.isEmpty()) startReviewExport(path);
}

bool MainWindow::startReviewExport(const QString& path) {
  if (!m_document.hasAsset()) return false;
  core::ReviewOptions options;
  options.importer = importer();
  // The viewport draws the pictures as the studio shows the poses; without a display, the software raster.
  if (viewport::OverlayCapture::displayAvailable()) {
    if (!m_pictures) m_pictures = new viewport::OverlayCapture(QSize(480, 360), this);
    options.renderer = m_pictures->renderer();
    options.rendererName = viewport::OverlayCapture::rendererName();
    options.legend = viewport::OverlayCapture::legend();
  }
  return m_export.startReview(widgets::documentProject(m_document),
                              widgets::reviewProjectPath(m_document, projectPath()), std::move(options), path);
}

core::ImportFunction MainWindow::importer() const {
  return core::isolatedImporter(m_importExecutable.toStdString(), m_importLimits);
}

void MainWindow::setImportLimits(const core::ImportLimits& limits) {
  m_importLimits = limits;
  m_document.setImporter(importer());
}

void MainWindow::setImportExecutable(const QString& path) {
  m_importExecutable = path;
  m_document.setImporter(importer());
}

void MainWindow::notify(QMessageBox::Icon icon, const QString& title, const QString& text) {
  // Not exec(): a result that arrives in the background must not block the event loop.
  auto* box = new QMessageBox(icon, title, text, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::cancelWork() {
  m_export.cancel();
  m_recompressor->cancel();
}

void MainWindow::showError(const QString& message) { QMessageBox::critical(this, "animpack studio", message); }

bool MainWindow::saveProjectAs(const QString& path) {
  const bool saved = m_files->saveAs(path);
  updateTitle();
  return saved;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!m_files->maybeSave()) {
    event->ignore();
    return;
  }
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  event->accept();
}

void MainWindow::keyPressEvent(QKeyEvent* event) {
  // Keys typed while the 3D window has focus arrive here (forwarded by the viewport) instead of going
  // through the shortcut map, which does not see that native window: run the matching action.
  const QKeySequence pressed(event->keyCombination());
  for (QAction* action : findChildren<QAction*>()) {
    if (action->isEnabled() && action->shortcuts().contains(pressed)) {
      action->trigger();
      return;
    }
  }
  QMainWindow::keyPressEvent(event);
}

namespace {

QStringList droppedPaths(const QMimeData* data) {
  QStringList paths;
  if (!data->hasUrls()) return paths;
  for (const QUrl& url : data->urls())
    if (url.isLocalFile()) paths << url.toLocalFile();
  return paths;
}

}  // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!droppedPaths(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QStringList paths = droppedPaths(event->mimeData());
  if (paths.isEmpty()) return;
  event->acceptProposedAction();
  // Not inside the drag's event loop. A project opens; files and folders join the open project (or,
  // with nothing open, the first file opens and the rest join it).
  QTimer::singleShot(0, this, [this, paths] {
    if (paths.size() == 1 && widgets::ProjectSession::isProject(paths.front())) openPath(paths.front());
    else addPaths(paths);
  });
}

}  // namespace animpack::app
