#include "app/main_window.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>
#include <cmath>
#include <functional>

#include "core/batch/export.h"
#include "core/compress/presets.h"
#include "core/anim/raw_sampler.h"
#include "viewport/viewport_widget.h"
#include "widgets/blend_panel.h"
#include "widgets/clip_list.h"
#include "widgets/curve_view.h"
#include "widgets/diagnostics_panel.h"
#include "widgets/document/commands.h"
#include "widgets/document/project_file.h"
#include "widgets/error_map.h"
#include "widgets/format.h"
#include "widgets/joint_tree_view.h"
#include "widgets/stats_panel.h"
#include "widgets/timeline.h"

namespace animpack::app {

namespace {

/// Assimp runs in a child process of the `animpack` installed beside the studio: a file that
/// crashes it fails to open instead of taking the unsaved document down.
core::ImportFunction studioImporter() {
  return core::isolatedImporter(QDir(QCoreApplication::applicationDirPath()).filePath("animpack").toStdString());
}

constexpr int kMaxRecent = 10;
constexpr int kAutosaveMs = 60'000;

const char* const kAnimationFilter =
    "Animated rigs (*.fbx *.gltf *.glb *.dae *.bvh *.x *.md5mesh *.md5anim *.smd *.ms3d *.b3d *.ogex *.irr *.xml *.anproj);;"
    "animpack projects (*.anproj);;All files (*)";

viewport::UpAxis toViewportAxis(widgets::UpAxis axis) {
  switch (axis) {
    case widgets::UpAxis::ZUp: return viewport::UpAxis::ZUp;
    case widgets::UpAxis::XUp: return viewport::UpAxis::XUp;
    case widgets::UpAxis::AsImported: break;
  }
  return viewport::UpAxis::AsImported;
}

bool isProject(const QString& path) { return path.endsWith(".anproj", Qt::CaseInsensitive); }

}  // namespace

MainWindow::MainWindow() : m_recompressor(new widgets::Recompressor(&m_document, this)) {
  setWindowTitle("animpack studio");
  m_document.setImporter(studioImporter());
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
  connectDocument();

  m_status = new QLabel("Open an animated rig (File > Open, or drop a file here).", this);
  m_progress = new QProgressBar(this);
  m_progress->setMaximumWidth(220);
  m_progress->setVisible(false);
  m_cancel = new QToolButton(this);
  m_cancel->setText("Cancel");
  m_cancel->setVisible(false);
  statusBar()->addWidget(m_status, 1);
  statusBar()->addPermanentWidget(m_progress);
  statusBar()->addPermanentWidget(m_cancel);
  connect(m_cancel, &QToolButton::clicked, this, &MainWindow::cancelWork);

  m_autosave.setInterval(kAutosaveMs);
  connect(&m_autosave, &QTimer::timeout, this, &MainWindow::autosave);
  m_autosave.start();

  resize(1500, 950);
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  // Dock sizes only apply once the window has its size: lay out after the first show.
  if (!restoreState(settings.value("window/state").toByteArray())) QTimer::singleShot(0, this, &MainWindow::applyDefaultLayout);
  updateRecentMenu();
  updateTitle();
}

MainWindow::~MainWindow() {
  if (m_exportCancel) m_exportCancel->store(true);
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
  m_curves = new widgets::CurveView(&m_document, m_recompressor, this);
  m_errorMap = new widgets::ErrorMap(&m_document, m_recompressor, this);
  m_stats = new widgets::StatsPanel(&m_document, m_recompressor, this);
  m_diagnostics = new widgets::DiagnosticsPanel(&m_document, this);
  m_blend = new widgets::BlendPanel(&m_document, this);

  QDockWidget* clips = dock("Clips", "dock.clips", m_clips, Qt::LeftDockWidgetArea);
  QDockWidget* joints = dock("Joints", "dock.joints", m_joints, Qt::LeftDockWidgetArea);
  splitDockWidget(clips, joints, Qt::Vertical);
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
  resizeDocks({d("dock.clips"), d("dock.joints")}, {h * 22 / 100, h * 40 / 100}, Qt::Vertical);
  resizeDocks({d("dock.curves")}, {h * 30 / 100}, Qt::Vertical);
  resizeDocks({d("dock.curves"), d("dock.errormap")}, {w * 58 / 100, w * 42 / 100}, Qt::Horizontal);
}

void MainWindow::buildMenus() {
  // File
  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("&Open...", QKeySequence::Open, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open an animated rig or a project", QString(), kAnimationFilter);
    if (!path.isEmpty()) openPath(path);
  });
  m_recentMenu = file->addMenu("Open &recent");
  file->addSeparator();
  file->addAction("&Save project", QKeySequence::Save, this, [this] { saveProject(m_projectPath.isEmpty()); });
  file->addAction("Save project &as...", QKeySequence::SaveAs, this, [this] { saveProject(true); });
  file->addSeparator();
  file->addAction("&Import settings...", this, &MainWindow::importSettings);
  file->addAction("E&xport settings...", this, &MainWindow::exportSettings);
  file->addSeparator();
  file->addAction("&Export pack...", QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportPacks);
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

  // Edit
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
    connect(a, &QAction::triggered, this, [this, name] { applyPreset(name); });
  }
  presets->setToolTipsVisible(true);
  edit->addAction("File &unit...", this, &MainWindow::setUnitOverride);
  edit->addSeparator();
  edit->addAction("&Reset selected joints", this, [this] { m_joints->resetSelection(); });
  edit->addAction("Derive shell from &mesh", this, [this] { m_joints->deriveShellFromMesh(); });

  // View
  QMenu* view = menuBar()->addMenu("&View");
  view->addAction("&Frame all", QKeySequence(Qt::Key_F), this, [this] { m_viewport->frameAll(); });
  auto toggle = [this, view](const QString& text, bool on, auto setter, const QKeySequence& key = {}) {
    QAction* a = view->addAction(text);
    a->setCheckable(true);
    a->setChecked(on);
    if (!key.isEmpty()) a->setShortcut(key);
    connect(a, &QAction::toggled, this, [this, setter](bool checked) { (m_viewport->*setter)(checked); });
    return a;
  };
  toggle("Show &original", true, &viewport::ViewportWidget::setShowOriginal, QKeySequence(Qt::Key_1));
  toggle("Show &compressed", true, &viewport::ViewportWidget::setShowCompressed, QKeySequence(Qt::Key_2));
  toggle("Show &mesh", true, &viewport::ViewportWidget::setShowMesh, QKeySequence(Qt::Key_M));
  toggle("Show s&keleton", true, &viewport::ViewportWidget::setShowSkeleton, QKeySequence(Qt::Key_K));
  toggle("Colour mesh by &vertex error", false, &viewport::ViewportWidget::setVertexErrorColoring, QKeySequence(Qt::Key_V));
  view->addSeparator();
  // Exclusive choices: one checkable action per value, the first checked.
  auto choice = [this, view](std::initializer_list<std::pair<QString, std::function<void()>>> entries) {
    auto* group = new QActionGroup(this);
    for (const auto& [text, apply] : entries) {
      QAction* a = view->addAction(text);
      a->setCheckable(true);
      a->setChecked(group->actions().isEmpty());
      group->addAction(a);
      connect(a, &QAction::triggered, this, apply);
    }
  };
  choice({{"Compare: o&verlay", [this] { m_viewport->setCompareMode(viewport::CompareMode::Overlay); }},
          {"Compare: &side by side", [this] { m_viewport->setCompareMode(viewport::CompareMode::SideBySide); }}});
  choice({{"Ghost: &translucent", [this] { m_viewport->setGhostStyle(viewport::GhostStyle::Translucent); }},
          {"Ghost: &wireframe", [this] { m_viewport->setGhostStyle(viewport::GhostStyle::Wireframe); }}});
  toggle("Show &grid", true, &viewport::ViewportWidget::setShowGrid, QKeySequence(Qt::Key_G));
  view->addSeparator();
  QMenu* up = view->addMenu("&Up axis");
  m_upAxisGroup = new QActionGroup(this);
  const std::pair<const char*, widgets::UpAxis> axes[] = {
      {"As imported (Y up)", widgets::UpAxis::AsImported}, {"Z up", widgets::UpAxis::ZUp}, {"X up", widgets::UpAxis::XUp}};
  for (const auto& [text, axis] : axes) {
    QAction* a = up->addAction(text);
    a->setCheckable(true);
    a->setData(int(axis));
    a->setChecked(axis == widgets::UpAxis::AsImported);
    m_upAxisGroup->addAction(a);
    const widgets::UpAxis value = axis;
    connect(a, &QAction::triggered, this, [this, value] {
      if (m_document.hasAsset() && m_document.upAxis() != value)
        m_document.undoStack()->push(new widgets::UpAxisCommand(&m_document, value));
    });
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

  // Clip
  QMenu* clip = menuBar()->addMenu("&Clip");
  QAction* play = clip->addAction("&Play / pause", m_timeline, &widgets::Timeline::togglePlay);
  play->setShortcut(Qt::Key_Space);
  play->setShortcutContext(Qt::WindowShortcut);
  clip->addAction("&Next clip", QKeySequence(Qt::Key_PageDown), this, [this] {
    if (m_document.clipCount() > 0) m_document.setCurrentClip((m_document.currentClip() + 1) % m_document.clipCount());
  });
  clip->addAction("Pre&vious clip", QKeySequence(Qt::Key_PageUp), this, [this] {
    const int n = m_document.clipCount();
    if (n > 0) m_document.setCurrentClip((m_document.currentClip() + n - 1) % n);
  });
  clip->addAction("Step &forward", QKeySequence(Qt::Key_Period), this, [this] {
    if (m_document.currentClip() >= 0) m_timeline->advance(1.0 / m_document.asset()->clips[std::size_t(m_document.currentClip())].sampleRate / m_timeline->speed());
  });
  clip->addAction("Step &back", QKeySequence(Qt::Key_Comma), this, [this] {
    if (m_document.currentClip() < 0) return;
    const double dt = 1.0 / m_document.asset()->clips[std::size_t(m_document.currentClip())].sampleRate;
    m_document.setCurrentTime(std::max(0.0, m_document.currentTime() - dt));
  });
  clip->addSeparator();
  clip->addAction("&Approve selected clips", QKeySequence(Qt::CTRL | Qt::Key_Return), m_clips, &widgets::ClipListPanel::approveSelected);
  clip->addAction("&Reject selected clips", QKeySequence(Qt::CTRL | Qt::Key_Backspace), m_clips, &widgets::ClipListPanel::rejectSelected);
  clip->addAction("Back to needs &review", m_clips, &widgets::ClipListPanel::reopenSelected);
  clip->addSeparator();
  clip->addAction("&Compress all clips", QKeySequence(Qt::CTRL | Qt::Key_B), m_recompressor, &widgets::Recompressor::compressAll);
  clip->addAction("Precision &sweep", m_stats, &widgets::StatsPanel::startSweep);

  // Help
  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("&Keyboard shortcuts", this, [this] {
    QMessageBox::information(this, "Keyboard shortcuts",
                             "Space  play / pause\n, and .  step a frame\nPage Up / Page Down  previous / next clip\n"
                             "F  frame all\n1 / 2  show original / compressed\nM / K  mesh / skeleton\nV  vertex-error colours\n"
                             "Ctrl+Enter / Ctrl+Backspace  approve / reject the selected clips\nCtrl+B  compress every clip\n"
                             "Ctrl+E  export a pack\nCtrl+Z / Ctrl+Shift+Z  undo / redo\n"
                             "In the curve view: wheel zooms time, Ctrl+wheel zooms values, F frames all");
  });
  help->addAction("&About animpack studio", this, [this] {
    QMessageBox::about(this, "animpack studio",
                       QString("animpack studio %1\nSkeletal-animation compression: see each joint's curves and the fitted "
                               "keys, tune per-bone precision and pinning, compare original and compressed, export packs.")
                           .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::connectDocument() {
  connect(&m_document, &widgets::ClipDocument::currentTimeChanged, this, &MainWindow::updateViewport);
  connect(&m_document, &widgets::ClipDocument::currentClipChanged, this, [this] {
    m_playing.reset();
    m_playingView.reset();
    updateViewport();
    updateTitle();
  });
  connect(&m_document, &widgets::ClipDocument::selectedJointsChanged, this, [this] {
    const auto& sel = m_document.selectedJoints();
    m_viewport->setSelectedJoint(sel.empty() ? -1 : sel.front());
  });
  connect(&m_document, &widgets::ClipDocument::assetChanged, this, [this] {
    const auto& asset = *m_document.asset();
    m_readyText = QString("%1: %2 joints, %3 clips, %4 meshes, 1 unit = %5 cm (%6)")
                      .arg(QFileInfo(m_document.sourcePath()).fileName())
                      .arg(asset.skeleton.jointCount())
                      .arg(asset.clips.size())
                      .arg(asset.meshes.size())
                      .arg(asset.unitToCm)
                      .arg(QString::fromStdString(asset.unitSource));
    m_status->setText(m_readyText);
    m_playing.reset();
    m_playingView.reset();
    m_viewport->setAsset(m_document.asset());
    m_viewport->setUpAxis(toViewportAxis(m_document.upAxis()));
    m_viewport->frameAll();
    updateViewport();
    updateTitle();
  });
  connect(&m_document, &widgets::ClipDocument::upAxisChanged, this, [this](widgets::UpAxis axis) {
    m_viewport->setUpAxis(toViewportAxis(axis));
    for (QAction* a : m_upAxisGroup->actions()) a->setChecked(a->data().toInt() == int(axis));
    m_viewport->frameAll();
  });
  connect(&m_document, &widgets::ClipDocument::importFailed, this, &MainWindow::showError);
  connect(m_document.undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
  connect(m_recompressor, &widgets::Recompressor::resultReady, this, [this](int clip) {
    if (clip != m_document.currentClip()) return;
    // A file just opened: show the curves of the joint with the largest error.
    if (m_selectWorst && m_document.selectedJoints().empty()) {
      if (auto r = m_recompressor->result(clip); r && r->compressed && r->compressed->stats.worstJoint >= 0)
        m_document.setSelectedJoints({r->compressed->stats.worstJoint});
    }
    m_selectWorst = false;
    updateViewport();
  });
  connect(m_recompressor, &widgets::Recompressor::failed, this, [this](int clip, const QString& message) {
    m_status->setText(QString("%1: %2").arg(m_document.clipName(clip), message));
  });
  connect(m_recompressor, &widgets::Recompressor::busyChanged, this, [this](bool busy) {
    if (!m_exporting) setBusy("Compressing...", busy);
    if (!busy && !m_exporting) m_status->setText(m_readyText);
  });
  connect(m_recompressor, &widgets::Recompressor::progress, this, [this](int done, int total) {
    if (m_exporting) return;
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_status->setText(QString("Compressed %1 of %2 clips").arg(done).arg(total));
  });
  connect(m_viewport, &viewport::ViewportWidget::jointClicked, this, [this](int joint) {
    m_document.setSelectedJoints(joint < 0 ? std::vector<int>{} : std::vector<int>{joint});
  });
  connect(m_blend, &widgets::BlendPanel::changed, this, &MainWindow::updateViewport);
}

bool MainWindow::openPath(const QString& path, bool quiet) {
  if (!maybeSave()) return false;
  const QString absolute = QFileInfo(path).absoluteFilePath();
  Status status = Status::ok();
  bool recovered = false;
  QString projectPath;
  if (isProject(absolute)) {
    projectPath = absolute;
    if (!quiet) recovered = offerAutosaveRecovery(absolute, {});
    if (!recovered) status = widgets::loadProject(m_document, absolute);
  } else {
    if (!quiet) recovered = offerAutosaveRecovery({}, absolute);
    if (!recovered) status = m_document.open(absolute);
  }
  if (!status) {
    if (quiet) m_status->setText(QString::fromStdString(status.message()));
    else showError(QString::fromStdString(status.message()));
    return false;
  }
  m_projectPath = projectPath;
  if (recovered) m_document.undoStack()->resetClean();  // recovered edits are not saved yet
  addRecent(absolute);
  m_player = runtime::Player();
  if (m_document.clipCount() > 0) {
    m_document.setCurrentClip(0);
    m_timeline->play();
  }
  m_selectWorst = m_document.selectedJoints().empty();
  updateTitle();
  return true;
}

bool MainWindow::offerAutosaveRecovery(const QString& projectPath, const QString& sourcePath) {
  const QString autosave = widgets::autosavePath(projectPath, sourcePath);
  const QFileInfo info(autosave);
  if (!info.exists()) return false;
  if (!projectPath.isEmpty() && QFileInfo(projectPath).lastModified() >= info.lastModified()) return false;
  const auto answer = QMessageBox::question(
      this, "Recover unsaved work",
      QString("animpack studio found an autosave of %1 from %2 with edits that were not saved.\n\nRecover them?")
          .arg(QFileInfo(projectPath.isEmpty() ? sourcePath : projectPath).fileName(),
               info.lastModified().toString("yyyy-MM-dd hh:mm")),
      QMessageBox::Yes | QMessageBox::No | QMessageBox::Discard, QMessageBox::Yes);
  if (answer == QMessageBox::Discard) {
    QFile::remove(autosave);
    return false;
  }
  if (answer != QMessageBox::Yes) return false;
  if (auto st = widgets::loadProject(m_document, autosave); !st) {
    showError(QString("The autosave could not be read: %1").arg(QString::fromStdString(st.message())));
    return false;
  }
  return true;
}

void MainWindow::updateViewport() {
  const int clip = m_document.currentClip();
  if (!m_document.hasAsset() || clip < 0) {
    m_viewport->setPoses({}, {});
    return;
  }
  const auto& asset = *m_document.asset();
  const auto& raw = asset.clips[std::size_t(clip)];
  const std::size_t n = asset.skeleton.jointCount();
  const double t = m_document.currentTime();
  m_original.resize(n);
  core::RawSampler::sample(raw, t, m_original);

  // The compressed pose from the newest result for this clip (an older one while recomputing).
  const auto result = m_recompressor->latestResult(clip);
  std::span<const core::Transform> compressed;
  if (result && result->compressed && result->asset == m_document.asset()) {
    if (m_playing != result->compressed) {
      m_playing = result->compressed;
      auto view = runtime::ClipView::open(m_playing->data, asset.skeleton.restLocal);
      m_playingView = view ? std::optional<runtime::ClipView>(std::move(view.value())) : std::nullopt;
    }
    if (m_playingView) {
      m_compressed.resize(n);
      m_player.sample(*m_playingView, float(t), m_compressed);
      compressed = m_compressed;
    }
  }
  m_viewport->setPoses(m_original, compressed);

  // Per-joint error at the nearest frame, as a fraction of the joint's precision.
  std::vector<float> ratios;
  if (result && result->compressed) {
    const auto& stats = result->compressed->stats;
    const std::size_t frames = result->compressed->frameCount;
    const std::size_t frame = std::min<std::size_t>(frames - 1, std::size_t(std::lround(std::max(0.0, t) * raw.sampleRate)));
    if (stats.errors.size() == frames * n && stats.joints.size() == n) {
      ratios.resize(n);
      for (std::size_t j = 0; j < n; ++j)
        ratios[j] = stats.errors[frame * n + j] / std::max(1e-6f, stats.joints[j].precisionCm);
    }
  }
  m_viewport->setJointErrorRatios(ratios);

  if (m_blend->enabled() && m_blend->clipA() < int(asset.clips.size()) && m_blend->clipB() < int(asset.clips.size())) {
    const auto& a = asset.clips[std::size_t(m_blend->clipA())];
    const auto& b = asset.clips[std::size_t(m_blend->clipB())];
    m_blendA.resize(n);
    m_blendB.resize(n);
    m_naive.resize(n);
    m_decomposed.resize(n);
    core::RawSampler::sample(a, t, m_blendA, true);
    core::RawSampler::sample(b, t, m_blendB, true);
    const float w = m_blend->weightNow();
    const auto& rest = asset.skeleton.restLocal;
    runtime::blendPoses(m_blendA, m_blendB, w, runtime::BlendMode::Naive, rest, m_naive);
    runtime::blendPoses(m_blendA, m_blendB, w, runtime::BlendMode::Decomposed, rest, m_decomposed);
    m_viewport->setBlendPreview(m_naive, m_decomposed);
  } else {
    m_viewport->setBlendPreview({}, {});
  }
}

void MainWindow::updateTitle() {
  QString title;
  if (m_document.hasAsset()) {
    title = QFileInfo(m_projectPath.isEmpty() ? m_document.sourcePath() : m_projectPath).fileName() + "[*]";
    if (m_document.currentClip() >= 0) title += " - " + m_document.clipName(m_document.currentClip());
    title += " - ";
  }
  setWindowTitle(title + "animpack studio");
  setWindowModified(m_document.isModified());
}

void MainWindow::updateRecentMenu() {
  m_recentMenu->clear();
  const QStringList recent = QSettings().value("recent").toStringList();
  for (const QString& path : recent) {
    QAction* a = m_recentMenu->addAction(QFileInfo(path).fileName());
    a->setToolTip(path);
    a->setStatusTip(path);
    a->setEnabled(QFileInfo::exists(path));
    connect(a, &QAction::triggered, this, [this, path] { openPath(path); });
  }
  m_recentMenu->setEnabled(!recent.isEmpty());
  if (!recent.isEmpty()) {
    m_recentMenu->addSeparator();
    m_recentMenu->addAction("Clear the list", this, [this] {
      QSettings().remove("recent");
      updateRecentMenu();
    });
  }
}

void MainWindow::addRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("recent").toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue("recent", recent);
  updateRecentMenu();
}

bool MainWindow::maybeSave() {
  if (!m_document.hasAsset() || !m_document.isModified()) return true;
  const auto answer = QMessageBox::warning(this, "Unsaved changes",
                                           "The settings and approvals of this asset have changed. Save the project?",
                                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) return saveProject(m_projectPath.isEmpty());
  QFile::remove(widgets::autosavePath(m_projectPath, m_document.sourcePath()));
  return true;
}

bool MainWindow::saveProject(bool askForPath) {
  if (!m_document.hasAsset()) return false;
  QString path = m_projectPath;
  if (askForPath || path.isEmpty()) {
    const QString suggestion = QFileInfo(m_document.sourcePath()).dir().filePath(QFileInfo(m_document.sourcePath()).completeBaseName() + ".anproj");
    path = QFileDialog::getSaveFileName(this, "Save the project", path.isEmpty() ? suggestion : path, "animpack projects (*.anproj)");
    if (path.isEmpty()) return false;
    if (!isProject(path)) path += ".anproj";
  }
  return saveProjectAs(path);
}

bool MainWindow::saveProjectAs(const QString& path) {
  if (!m_document.hasAsset()) return false;
  if (auto st = widgets::saveProject(m_document, path); !st) {
    showError(QString::fromStdString(st.message()));
    return false;
  }
  QFile::remove(widgets::autosavePath(m_projectPath, m_document.sourcePath()));
  QFile::remove(widgets::autosavePath(path, m_document.sourcePath()));
  m_projectPath = QFileInfo(path).absoluteFilePath();
  m_document.undoStack()->setClean();
  addRecent(m_projectPath);
  m_status->setText("Saved " + m_projectPath);
  updateTitle();
  return true;
}

void MainWindow::autosave() {
  if (!m_document.hasAsset() || !m_document.isModified()) return;
  const QString path = widgets::autosavePath(m_projectPath, m_document.sourcePath());
  if (auto st = widgets::saveProject(m_document, path); !st)
    m_status->setText("Autosave failed: " + QString::fromStdString(st.message()));
  else
    m_status->setText("Autosaved at " + QTime::currentTime().toString("hh:mm"));
}

void MainWindow::importSettings() {
  if (!m_document.hasAsset()) return;
  const QString path = QFileDialog::getOpenFileName(this, "Import compression settings", QString(), "Settings (*.json);;All files (*)");
  if (path.isEmpty()) return;
  auto loaded = core::CompressionSettings::load(path.toStdString());
  if (!loaded) return showError(QString::fromStdString(loaded.message()));
  m_document.undoStack()->push(new widgets::SettingsCommand(&m_document, "Import settings " + QFileInfo(path).fileName(), *loaded));
}

void MainWindow::exportSettings() {
  if (!m_document.hasAsset()) return;
  const QString path = QFileDialog::getSaveFileName(this, "Export compression settings",
                                                    QFileInfo(m_document.sourcePath()).completeBaseName() + ".settings.json",
                                                    "Settings (*.json)");
  if (path.isEmpty()) return;
  QSaveFile out(path);  // written beside and renamed over: never half a file
  const std::string json = m_document.settings().toJson();
  if (!out.open(QIODevice::WriteOnly) || out.write(json.data(), qint64(json.size())) != qint64(json.size()) || !out.commit())
    return showError(QString("Cannot write %1: %2").arg(path, out.errorString()));
  m_status->setText("Settings written to " + path + " (use with: animpack compress --settings)");
}

void MainWindow::applyPreset(const QString& name) {
  if (!m_document.hasAsset()) return;
  auto preset = core::findPreset(name.toStdString());
  if (!preset) return showError(QString::fromStdString(preset.message()));
  core::CompressionSettings settings = *preset;
  // The unit and sample rate describe the file, not the quality target: keep the user's override.
  if (!settings.unitToCm) settings.unitToCm = m_document.settings().unitToCm;
  if (!settings.sampleRate) settings.sampleRate = m_document.settings().sampleRate;
  m_document.undoStack()->push(new widgets::SettingsCommand(&m_document, "Apply preset " + name, settings));
}

void MainWindow::setUnitOverride() {
  if (!m_document.hasAsset()) return;
  const auto& asset = *m_document.asset();
  bool ok = false;
  const double cm = QInputDialog::getDouble(
      this, "File unit",
      QString("Centimetres per file unit. The file says %1 (%2).\nPrecision is measured in centimetres, so a wrong unit "
              "makes every tolerance wrong.")
          .arg(asset.unitToCm)
          .arg(QString::fromStdString(asset.unitSource)),
      asset.unitToCm, 1e-4, 1e5, 4, &ok);
  if (!ok || cm == asset.unitToCm) return;
  core::CompressionSettings settings = m_document.settings();
  settings.unitToCm = cm;
  m_document.undoStack()->push(new widgets::SettingsCommand(&m_document, QString("File unit %1 cm").arg(cm), settings));
}

void MainWindow::exportPacks() {
  if (!m_document.hasAsset() || m_exporting) return;
  QDialog dialog(this);
  dialog.setWindowTitle("Export pack");
  auto* form = new QFormLayout(&dialog);
  auto* output = new QLineEdit(QFileInfo(m_document.sourcePath()).dir().filePath(QFileInfo(m_document.sourcePath()).completeBaseName() + ".anpk"));
  auto* browse = new QPushButton("Browse...");
  auto* row = new QHBoxLayout;
  row->addWidget(output, 1);
  row->addWidget(browse);
  form->addRow("Pack", row);
  // Which clips: all, the approved ones, or those selected in the Clips panel.
  std::vector<std::string> all, approved, selected;
  for (int c = 0; c < m_document.clipCount(); ++c) {
    all.push_back(m_document.clipName(c).toStdString());
    if (m_document.approval(c) == widgets::Approval::Approved) approved.push_back(all.back());
  }
  for (int c : m_clips->selectedClips()) selected.push_back(m_document.clipName(c).toStdString());
  auto* which = new QComboBox;
  which->addItem(QString("All clips (%1)").arg(all.size()));
  which->addItem(QString("Approved clips (%1)").arg(approved.size()));
  which->addItem(QString("Clips selected in the Clips panel (%1)").arg(selected.size()));
  auto* items = qobject_cast<QStandardItemModel*>(which->model());
  items->item(1)->setEnabled(!approved.empty());
  items->item(2)->setEnabled(!selected.empty());
  which->setCurrentIndex(approved.empty() ? 0 : 1);
  form->addRow("Clips", which);
  auto* report = new QComboBox;
  report->addItems({"None", "JSON beside the pack", "CSV beside the pack"});
  report->setCurrentIndex(1);
  form->addRow("Report", report);
  auto* budget = new QDoubleSpinBox;
  budget->setRange(0, 1e7);
  budget->setSuffix(" KiB");
  budget->setSpecialValueText("no budget");
  budget->setToolTip("Flag the pack when it is larger than this");
  form->addRow("Size budget", budget);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText("Export");
  form->addRow(buttons);
  connect(browse, &QPushButton::clicked, &dialog, [&] {
    const QString p = QFileDialog::getSaveFileName(&dialog, "Pack file", output->text(), "animpack packs (*.anpk)",
                                                   nullptr, QFileDialog::DontConfirmOverwrite);
    if (!p.isEmpty()) output->setText(p);
  });
  connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
    const QString path = output->text().trimmed();
    if (path.isEmpty()) return;
    if (QFileInfo::exists(path) &&
        QMessageBox::question(&dialog, "Export pack", QString("%1 exists. Replace it?").arg(path)) != QMessageBox::Yes)
      return;
    dialog.accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  if (dialog.exec() != QDialog::Accepted) return;

  core::ExportOptions options;
  options.batch.settings = m_document.settings();
  options.batch.importer = studioImporter();
  options.batch.clips = which->currentIndex() == 1 ? approved : which->currentIndex() == 2 ? selected : std::vector<std::string>{};
  options.output = output->text().trimmed().toStdString();
  if (budget->value() > 0) options.budgetKb = budget->value();
  if (report->currentIndex() > 0) {
    std::filesystem::path r = options.output;
    r.replace_extension(report->currentIndex() == 1 ? ".report.json" : ".report.csv");
    options.report = r;
  }
  startExport(std::move(options));
}

bool MainWindow::startExport(core::ExportOptions options) {
  if (!m_document.hasAsset() || m_exporting) return false;
  options.toolVersion = QApplication::applicationVersion().toStdString();
  const std::vector<std::filesystem::path> files{m_document.sourcePath().toStdString()};

  m_exporting = true;
  m_exportCancel = std::make_shared<std::atomic<bool>>(false);
  setBusy("Exporting...", true);
  auto cancel = m_exportCancel;
  QPointer<MainWindow> self(this);
  auto progress = [self](std::size_t done, std::size_t total, const std::string& what) {
    QMetaObject::invokeMethod(qApp, [self, done, total, what] {
      if (!self) return;
      self->m_progress->setRange(0, int(total));
      self->m_progress->setValue(int(done));
      self->m_status->setText(QString("Exporting %1 (%2 of %3)").arg(QString::fromStdString(what)).arg(done).arg(total));
    });
  };
  auto* watcher = new QFutureWatcher<Expected<core::ExportResult>>(this);
  connect(watcher, &QFutureWatcher<Expected<core::ExportResult>>::finished, this, [this, watcher] {
    watcher->deleteLater();
    m_exporting = false;
    setBusy({}, false);
    const Expected<core::ExportResult> result = watcher->result();
    if (!result) {
      m_status->setText("Export failed");
      notify(QMessageBox::Critical, "Export failed", QString::fromStdString(result.message()));
      emit exportFinished(false, QString::fromStdString(result.message()));
      return;
    }
    QStringList lines;
    for (const auto& pack : result->packs)
      lines << QString("%1: %2 clips, %3%4")
                   .arg(QString::fromStdString(pack.path.string()))
                   .arg(pack.clips)
                   .arg(widgets::formatBytes(pack.bytes))
                   .arg(pack.overBudget ? "  OVER BUDGET" : "");
    if (result->failures) lines << QString("%1 clips failed (see the report)").arg(result->failures);
    if (result->overPrecision) lines << QString("%1 clips are over their precision").arg(result->overPrecision);
    m_status->setText("Exported " + lines.value(0));
    notify(QMessageBox::Information, "Export finished", lines.join("\n"));
    emit exportFinished(true, lines.join("\n"));
  });
  watcher->setFuture(QtConcurrent::run([files, options, progress, cancel] {
    return core::exportPacks(files, options, progress, cancel.get());
  }));
  return true;
}

void MainWindow::notify(QMessageBox::Icon icon, const QString& title, const QString& text) {
  // Not exec(): a result that arrives in the background must not block the event loop.
  auto* box = new QMessageBox(icon, title, text, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::cancelWork() {
  if (m_exportCancel) m_exportCancel->store(true);
  m_recompressor->cancel();
}

void MainWindow::setBusy(const QString& what, bool busy) {
  m_progress->setVisible(busy);
  m_cancel->setVisible(busy);
  if (busy) {
    m_progress->setRange(0, 0);
    if (!what.isEmpty()) m_status->setText(what);
  }
}

void MainWindow::showError(const QString& message) { QMessageBox::critical(this, "animpack studio", message); }

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
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

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls() && event->mimeData()->urls().size() == 1 && event->mimeData()->urls().front().isLocalFile())
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString path = event->mimeData()->urls().front().toLocalFile();
  event->acceptProposedAction();
  QTimer::singleShot(0, this, [this, path] { openPath(path); });  // not inside the drag's event loop
}

}  // namespace animpack::app
