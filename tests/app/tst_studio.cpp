// The studio's main window, wired together under Xvfb: opening a file starts playback and
// compression, the first result selects the worst joint in every panel, viewport clicks select
// joints, the up axis is undoable, edits mark the window modified, autosave and projects work, a
// dropped file opens, and files and folders dropped on an open project join it (undoable).

#include <QApplication>
#include <QDropEvent>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "app/main_window.h"
#include "core/runtime/pack.h"
#include "tests/support/test_rigs.h"
#include "viewport/legend_bar.h"
#include "viewport/viewport_widget.h"
#include "widgets/document/project_file.h"
#include "widgets/timeline.h"

using namespace animpack;

namespace {

QString rig(const std::string& name = "studio.gltf") {
  static std::map<std::string, QString> written;
  QString& path = written[name];
  if (path.isEmpty()) path = QString::fromStdString(test::writeScene(test::armatureRig(1.f, 60), name).string());
  return path;
}

bool waitForResult(app::MainWindow& w, int clip) {
  return QTest::qWaitFor([&] { return w.recompressor()->result(clip) && !w.recompressor()->busy(); }, 30000);
}

}  // namespace

class TstStudio : public QObject {
  Q_OBJECT
  QTemporaryDir m_settingsDir;

 private slots:
  void initTestCase() {
    if (QGuiApplication::platformName() != "xcb") QSKIP("needs an X display (ctest runs it under xvfb-run)");
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());  // no user settings
    QCoreApplication::setOrganizationName("animpack-tests");
  }

  void openingAFileStartsEverything() {
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openPath(rig(), true));
    QCOMPARE(w.document()->clipCount(), 2);
    QCOMPARE(w.document()->currentClip(), 0);
    QVERIFY(w.timeline()->isPlaying());
    QVERIFY(waitForResult(w, 0));
    // The first result selects the joint with the largest error, in the document and the viewport.
    const int worst = w.recompressor()->result(0)->compressed->stats.worstJoint;
    QVERIFY(worst >= 0);
    QVERIFY(QTest::qWaitFor([&] { return w.document()->selectedJoints() == std::vector<int>{worst}; }, 5000));
    QCOMPARE(w.viewport()->selectedJoint(), worst);
    // Playback moves time and the viewport follows with both poses.
    const double t0 = w.document()->currentTime();
    QVERIFY(QTest::qWaitFor([&] { return w.document()->currentTime() != t0; }, 5000));
    QVERIFY(w.viewport()->maxVertexErrorCm() >= 0.f);
    QVERIFY(w.windowTitle().contains("studio.gltf"));
    QVERIFY(w.windowTitle().contains("Walk"));
    QVERIFY(!w.isWindowModified());
  }

  void aBadFileKeepsWhatIsOpen() {
    app::MainWindow w;
    w.show();
    QVERIFY(w.openPath(rig(), true));
    const auto asset = w.document()->asset();
    QVERIFY(!w.openPath("/nonexistent/hero.fbx", true));
    QCOMPARE(w.document()->asset(), asset);
    QTemporaryDir dir;
    QFile junk(dir.filePath("junk.fbx"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("Kaydara FBX Binary  \0\x1a\0 truncated", 34);
    junk.close();
    QVERIFY(!w.openPath(junk.fileName(), true));
    QCOMPARE(w.document()->asset(), asset);
  }

  void viewportClicksAndUpAxis() {
    app::MainWindow w;
    w.show();
    QVERIFY(w.openPath(rig(), true));
    const int head = w.document()->asset()->skeleton.find("Head");
    emit w.viewport()->jointClicked(head);
    QCOMPARE(w.document()->selectedJoints(), std::vector<int>{head});
    QCOMPARE(w.viewport()->selectedJoint(), head);
    emit w.viewport()->jointClicked(-1);
    QVERIFY(w.document()->selectedJoints().empty());
    QCOMPARE(w.viewport()->selectedJoint(), -1);

    w.document()->setUpAxis(core::UpAxis::ZUp);
    QCOMPARE(w.viewport()->upAxis(), viewport::UpAxis::ZUp);
    QVERIFY(w.isWindowModified());
    w.document()->undoStack()->undo();
    QCOMPARE(w.viewport()->upAxis(), viewport::UpAxis::AsImported);
    QVERIFY(!w.isWindowModified());
  }

  void theViewportSaysUpdatingWhileItsResultIsStale() {
    // The viewport is fed by app/viewport_presenter.h: while the shown result is of older settings,
    // its joint colours are dimmed and its legend says "updating", as every panel does.
    app::MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openPath(rig(), true));
    QVERIFY(waitForResult(w, 0));
    QVERIFY(!w.viewport()->updating());
    QVERIFY(!w.viewport()->legend()->text().contains("updating"));
    w.recompressor()->setDebounceMs(60000);  // hold the stale state long enough to look at it
    w.document()->setPrecision(widgets::EditScope::AllClips, 0.5f);
    QVERIFY(w.recompressor()->current().stale);
    QVERIFY(w.viewport()->updating());
    QVERIFY(w.viewport()->legend()->text().startsWith("updating"));
    if (const QByteArray dir = qgetenv("ANIMPACK_STUDIO_SHOTS"); !dir.isEmpty()) {
      QTest::qWait(500);
      QVERIFY(w.screen()->grabWindow(w.winId()).save(QString::fromUtf8(dir) + "/studio_updating.png"));
    }
    w.recompressor()->compressAll();  // the job the debounce held back
    QVERIFY(QTest::qWaitFor([&] { return !w.viewport()->updating(); }, 30000));
    QVERIFY(!w.recompressor()->current().stale);
    QVERIFY(!w.viewport()->legend()->text().contains("updating"));
  }

  void rootMotionActionTrajectoryAndInPlace() {
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(
        w.openPath(QString::fromStdString(test::writeScene(test::walkerRig(90), "studio_walker.gltf").string()), true));
    QVERIFY(waitForResult(w, 0));
    QCOMPARE(w.viewport()->rootTrajectorySegments(), 0);
    QAction* extract = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
      if (a->text() == "E&xtract root motion") extract = a;
    QVERIFY(extract && extract->isEnabled() && !extract->isChecked());
    extract->trigger();
    QVERIFY(extract->isChecked());
    QVERIFY(w.isWindowModified());
    QVERIFY(waitForResult(w, 0));
    QVERIFY(w.recompressor()->result(0)->compressed->stats.rootMotion.extracted);
    QVERIFY(QTest::qWaitFor([&] { return w.viewport()->rootTrajectorySegments() > 0; }, 5000));
    // The in-place toggle (View menu, I) and the trajectory toggle (T).
    QSignalSpy inPlace(w.viewport(), &viewport::ViewportWidget::inPlaceChanged);
    w.viewport()->setInPlace(true);
    QCOMPARE(inPlace.count(), 1);
    w.viewport()->setShowRootTrajectory(false);
    QCOMPARE(w.viewport()->rootTrajectorySegments(), 0);
    w.viewport()->setShowRootTrajectory(true);
    QVERIFY(w.viewport()->rootTrajectorySegments() > 0);
    w.document()->undoStack()->undo();
    QVERIFY(!extract->isChecked());
    QVERIFY(waitForResult(w, 0));
    QVERIFY(QTest::qWaitFor([&] { return w.viewport()->rootTrajectorySegments() == 0; }, 5000));
  }

  void autosaveAndProjects() {
    QTemporaryDir dir;
    const QString source = dir.filePath("hero.gltf");
    QVERIFY(QFile::copy(rig(), source));
    app::MainWindow w;
    w.setAutosaveInterval(50);
    w.show();
    QVERIFY(w.openPath(source, true));
    const int spine = w.document()->asset()->skeleton.find("Spine");
    w.document()->setJointValue(widgets::EditScope::AllClips, {spine}, widgets::JointField::Precision, 0.07f);
    QVERIFY(w.isWindowModified());
    const QString autosave = widgets::autosavePath({}, source);
    QVERIFY(QTest::qWaitFor([&] { return QFileInfo::exists(autosave); }, 5000));
    auto saved = core::readProject(autosave.toStdString());
    QVERIFY2(saved, saved ? "" : saved.message().c_str());
    QCOMPARE(saved->settings.toJson(), w.document()->settings().toJson());

    const QString project = dir.filePath("hero.anproj");
    QVERIFY(w.saveProjectAs(project));
    QVERIFY(!w.isWindowModified());
    QVERIFY(!QFileInfo::exists(autosave));  // saved: nothing left to recover
    QCOMPARE(w.projectPath(), project);

    app::MainWindow other;
    QVERIFY(other.openPath(project, true));
    QCOMPARE(other.document()->settings().toJson(), w.document()->settings().toJson());
    QCOMPARE(other.projectPath(), project);
    QVERIFY(other.windowTitle().startsWith("hero.anproj"));
  }

  void spaceTogglesPlaybackFromThe3DView() {
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openPath(rig(), true));
    QVERIFY(w.timeline()->isPlaying());
    QWindow* view = w.viewport()->renderWindow();
    QTest::keyClick(view, Qt::Key_Space);
    QVERIFY(!w.timeline()->isPlaying());
    QTest::keyClick(view, Qt::Key_Space);
    QVERIFY(w.timeline()->isPlaying());
    // Page Down (next clip) reaches the window's actions the same way.
    QTest::keyClick(view, Qt::Key_PageDown);
    QCOMPARE(w.document()->currentClip(), 1);
  }

  void exportWritesAVerifiedPack() {
    QTemporaryDir dir;
    app::MainWindow w;
    w.show();
    QVERIFY(w.openPath(rig(), true));
    w.document()->setJointValue(widgets::EditScope::AllClips, {w.document()->asset()->skeleton.find("Head")},
                                widgets::JointField::Precision, 0.05f);
    QSignalSpy finished(&w, &app::MainWindow::exportFinished);
    core::ExportOptions options;
    options.batch.settings = w.document()->settings();
    options.batch.clips = {"Wave"};  // as "only approved clips" does
    options.output = (dir.path() + "/rig.anpk").toStdString();
    options.report = (dir.path() + "/rig.report.json").toStdString();
    QVERIFY(w.startExport(options));
    QVERIFY(!w.startExport(options));  // one export at a time
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().at(0).toBool(), true);
    QVERIFY(finished.first().at(1).toString().contains("1 clips"));

    auto pack = runtime::Pack::load(dir.filePath("rig.anpk").toStdString());
    QVERIFY2(pack, pack ? "" : pack.message().c_str());
    QCOMPARE(pack->clips().size(), std::size_t(1));
    const runtime::PackClip* wave = pack->findClip("Wave");
    QVERIFY(wave);
    // The pack carries the studio's settings: the edited joint's tolerance is in it.
    const auto tolerances = wave->tolerances();
    QVERIFY(std::any_of(tolerances.begin(), tolerances.end(),
                        [](const runtime::JointTolerance& t) { return std::fabs(t.precisionCm - 0.05f) < 1e-6f; }));
    QVERIFY(QFileInfo::exists(dir.filePath("rig.report.json")));
  }

  void exportsTheReviewPacket() {
    QTemporaryDir dir;
    app::MainWindow w;
    w.show();
    QVERIFY(w.openPath(rig(), true));
    w.document()->setApproval({0}, core::ApprovalState::Approved);
    w.document()->setBudgetKib(0.5);
    QSignalSpy finished(&w, &app::MainWindow::exportFinished);
    const QString out = dir.filePath("rig-review.html");
    QVERIFY(w.startReviewExport(out));
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QVERIFY(finished.first().at(1).toString().contains("2 clips, 1 approved"));
    QVERIFY(finished.first().at(1).toString().contains("OVER BUDGET"));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(f.readAll());
    QCOMPARE(html.count("<tr class=\"clip\">"), 2);
    QVERIFY(html.contains(">Walk<") && html.contains(">Wave<"));
    QVERIFY(html.contains("class=\"meter over\""));
    QCOMPARE(html.count("data:image/png;base64,"), 2);
    // With a display, the viewport draws the pictures, and the packet says so.
    QVERIFY(html.contains("drawn by the studio's 3D viewport"));
    QVERIFY(!html.contains("pictures-note"));
    QVERIFY(html.contains(">approved<"));  // the studio's approval, for the settings it was given for
  }

  void aFailedExportSaysWhy() {
    app::MainWindow w;
    w.show();
    QVERIFY(w.openPath(rig(), true));
    QSignalSpy finished(&w, &app::MainWindow::exportFinished);
    core::ExportOptions options;
    options.batch.settings = w.document()->settings();
    options.batch.clips = {"NoSuchClip"};
    options.output = "/nonexistent-folder/out.anpk";
    QVERIFY(w.startExport(options));
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY(!finished.first().at(1).toString().isEmpty());
    QVERIFY(!QFileInfo::exists("/nonexistent-folder/out.anpk"));
  }

  void droppingAFileOpensIt() {
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QString path = rig("dropped.gltf");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QVERIFY(QTest::qWaitFor([&] { return w.document()->sourcePath() == path; }, 5000));
    QCOMPARE(w.document()->clipCount(), 2);
  }

  void droppingFilesAndFoldersAddsThem() {
    QTemporaryDir dir;
    const auto take = [&](const QString& name, int frames) {
      return test::writeSceneAt(test::singleTakeRig(frames), dir.filePath(name).toStdString());
    };
    QVERIFY(take("idle.gltf", 20) && take("walk.gltf", 22) && take("takes/run.gltf", 24) &&
            take("takes/more/jump.gltf", 26));
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openPath(dir.filePath("idle.gltf"), true));
    const auto drop = [&](const QStringList& paths) {
      QMimeData mime;
      QList<QUrl> urls;
      for (const QString& p : paths) urls << QUrl::fromLocalFile(p);
      mime.setUrls(urls);
      QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
      QApplication::sendEvent(&w, &enter);
      QVERIFY(enter.isAccepted());
      QDropEvent event(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
      QApplication::sendEvent(&w, &event);
    };
    // A file and a folder (searched below) in one drop: one undo step, the window modified.
    drop({dir.filePath("walk.gltf"), dir.filePath("takes")});
    QVERIFY(QTest::qWaitFor([&] { return w.document()->fileCount() == 4; }, 10000));
    QCOMPARE(w.document()->clipCount(), 4);
    QCOMPARE(w.document()->undoStack()->count(), 1);
    QVERIFY(w.isWindowModified());
    QCOMPARE(w.document()->sourcePath(), dir.filePath("idle.gltf"));  // the project is still idle's
    // Selecting a clip of another file shows that file.
    w.document()->setCurrentClip(3);
    QCOMPARE(w.document()->asset(), w.document()->file(3).asset);
    QVERIFY(waitForResult(w, 3));
    QVERIFY(w.windowTitle().contains(w.document()->clipName(3)));
    w.document()->undoStack()->undo();
    QCOMPARE(w.document()->fileCount(), 1);
    QVERIFY(!w.isWindowModified());
    // The export writes every file's clips into one pack.
    w.document()->undoStack()->redo();
    core::ExportOptions options = widgets::documentExportOptions(*w.document());
    options.output = dir.filePath("all.anpk").toStdString();
    QSignalSpy finished(&w, &app::MainWindow::exportFinished);
    QVERIFY(w.startExport(options));
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    auto pack = runtime::Pack::load(dir.filePath("all.anpk").toStdString());
    QVERIFY(pack);
    QCOMPARE(pack->clips().size(), std::size_t(4));
    w.document()->undoStack()->setClean();  // no question on close
  }
};

QTEST_MAIN(TstStudio)
#include "tst_studio.moc"
