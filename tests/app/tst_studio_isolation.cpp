// The studio protects the user's work from hostile files and from being killed: the import limits
// come from Edit > Preferences (QSettings), a file that crashes Assimp leaves the studio up (with
// --screenshot it shows why and exits 1 instead of waiting on the dialog), and a studio SIGKILLed
// between writing a temporary file and renaming it (the test hook of core/io/atomic_file.h), during
// an autosave, a project save or an export, leaves the project old or new, never truncated, the next
// open offers to recover the unsaved edits, and no partial pack.
//
// The studio that is killed is this test's own executable run as a child (`--child MODE DIR`): a
// real MainWindow, driven to the point where it writes, then paused there by the hook.

#include <QApplication>
#include <QDoubleSpinBox>
#include <QImage>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>

#include "app/main_window.h"
#include "core/io/atomic_file.h"
#include "tests/support/kill_point.h"
#include "tests/support/test_rigs.h"
#include "widgets/document/project_file.h"
#include "widgets/preferences_dialog.h"

using namespace animpack;

namespace {

void isolateSettings(const QString& dir) {
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir);  // no user settings
  QCoreApplication::setOrganizationName("animpack-tests");
}

float spinePrecision(const widgets::ClipDocument& document) {
  const int spine = document.asset()->skeleton.find("Spine");
  return document.effectiveSettings(0).joints[std::size_t(spine)].precisionCm;
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// The child: opens DIR/hero.gltf, saves DIR/hero.anproj (Spine at the default precision), sets
/// Spine to 0.07 cm and waits for the autosave holding it, sets Spine to 0.09 cm and then, per
/// MODE, autosaves, saves the project or exports DIR/hero.anpk with the hook set for that file.
/// The parent kills it there; any exit code means it was not paused.
int runChild(const QString& mode, const QString& dir) {
  isolateSettings(dir + "/settings");
  app::MainWindow w;
  w.setImportExecutable(ANIMPACK_CLI);
  w.show();
  const QString project = dir + "/hero.anproj";
  if (!w.openPath(dir + "/hero.gltf", true) || !w.saveProjectAs(project)) return 3;
  const int spine = w.document()->asset()->skeleton.find("Spine");
  const auto setSpine = [&](float cm) {
    w.document()->setJointValue(widgets::EditScope::AllClips, {spine}, widgets::JointField::Precision, cm);
  };
  setSpine(0.07f);
  w.setAutosaveInterval(20);
  if (!QTest::qWaitFor([&] { return QFileInfo::exists(project + ".autosave"); }, 20000)) return 4;
  w.setAutosaveInterval(1 << 30);
  setSpine(0.09f);
  if (mode == "autosave") {
    qputenv(core::kPauseBeforeRenameVariable, ".anproj.autosave");
    w.setAutosaveInterval(20);
  } else if (mode == "save") {
    qputenv(core::kPauseBeforeRenameVariable, "/hero.anproj");
    w.saveProjectAs(project);
  } else if (mode == "export") {
    qputenv(core::kPauseBeforeRenameVariable, ".anpk");
    core::ExportOptions options;
    options.batch.settings = w.document()->settings();
    options.output = (dir + "/hero.anpk").toStdString();
    w.startExport(options);
  }
  QTest::qWait(60000);
  return 5;
}

}  // namespace

class TstStudioIsolation : public QObject {
  Q_OBJECT
  QTemporaryDir m_settingsDir;

  /// A folder with hero.gltf in it.
  static bool prepare(const QTemporaryDir& dir) {
    static const QString rig =
        QString::fromStdString(test::writeScene(test::armatureRig(1.f, 60), "isolation.gltf").string());
    return QFile::copy(rig, dir.filePath("hero.gltf"));
  }

  /// Runs the child in `mode` until it pauses before a rename (it sets the hook itself, once its
  /// earlier writes are done), then SIGKILLs it.
  static bool killChildBeforeRename(const QTemporaryDir& dir, const QString& mode) {
    QProcess child;
    QByteArray err;
    const bool paused = test::startAndPauseBeforeRename(child, QCoreApplication::applicationFilePath(),
                                                        {"--child", mode, dir.path()}, QString(), err);
    test::killNow(child);
    if (!paused) qWarning("the child did not pause (exit %d): %s", child.exitCode(), err.constData());
    return paused && child.exitStatus() == QProcess::CrashExit;
  }

  /// Opens the project as a user would and answers the recovery question with Yes; the question.
  static QString openAndRecover(app::MainWindow& w, const QString& project) {
    QString asked;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        asked = box->text();
        box->button(QMessageBox::Yes)->click();
      }
    });
    answer.start(50);
    if (!w.openPath(project)) return {};
    return asked;
  }

  /// After a kill: the project is the one saved first (Spine at the default), the autosave holds
  /// the 0.07 edit, and opening the project offers it back.
  void checkRecovery(const QTemporaryDir& dir) {
    const QString project = dir.filePath("hero.anproj");
    auto saved = core::readProject(project.toStdString());
    QVERIFY2(saved, saved ? "" : saved.message().c_str());
    QVERIFY(!readAll(project).contains("Spine"));
    QVERIFY(readAll(project + ".autosave").contains("Spine"));
    app::MainWindow w;
    w.setImportExecutable(ANIMPACK_CLI);
    w.show();
    const QString asked = openAndRecover(w, project);
    QVERIFY2(asked.contains("Recover them?"), qPrintable(asked));
    QCOMPARE(spinePrecision(*w.document()), 0.07f);
    QVERIFY(w.isWindowModified());  // recovered edits are not saved yet
    QVERIFY(test::filesEndingWith(dir.path(), ".anpk").isEmpty());
  }

 private slots:
  void initTestCase() {
    if (QGuiApplication::platformName() != "xcb") QSKIP("needs an X display (ctest runs it under xvfb-run)");
    isolateSettings(m_settingsDir.path());
  }

  void importLimitsComeFromThePreferences() {
    QCOMPARE(widgets::loadImportLimits().timeoutS, core::ImportLimits{}.timeoutS);  // nothing stored: defaults
    widgets::saveImportLimits({1.0, 256});
    {
      app::MainWindow w;
      QCOMPARE(w.importLimits().timeoutS, 1.0);
      QCOMPARE(w.importLimits().memoryMb, std::uint64_t(256));
      w.setImportExecutable(ANIMPACK_CLI);
      w.show();
      // The child hangs on purpose: the stored 1 s timeout ends it, the studio says so and stays up.
      qputenv(core::kImportFaultVariable, "hang");
      QElapsedTimer timer;
      timer.start();
      QVERIFY(!w.openPath(QString::fromStdString(test::model("BVH/01_01.bvh").string()), true));
      qunsetenv(core::kImportFaultVariable);
      QVERIFY(timer.elapsed() < 20000);
      QVERIFY(!w.document()->hasAsset());
      QVERIFY(w.isVisible());
    }
    // Out of range in the stored settings: the default instead.
    QSettings().setValue("import/memory_mb", 3);
    QCOMPARE(widgets::loadImportLimits().memoryMb, core::ImportLimits{}.memoryMb);
    QCOMPARE(widgets::loadImportLimits().timeoutS, 1.0);
    QSettings().remove("import");
  }

  void thePreferencesDialogEditsTheLimits() {
    widgets::PreferencesDialog dialog({30, 2048});
    auto* timeout = dialog.findChild<QDoubleSpinBox*>("importTimeout");
    auto* memory = dialog.findChild<QSpinBox*>("importMemory");
    QVERIFY(timeout && memory);
    QCOMPARE(timeout->value(), 30.0);
    QCOMPARE(memory->value(), 2048);
    timeout->setValue(5);
    memory->setValue(1);  // clamped to the smallest cap the child can run under
    QCOMPARE(dialog.importLimits().timeoutS, 5.0);
    QCOMPARE(dialog.importLimits().memoryMb, core::ImportLimits::kMinMemoryMb);
    QVERIFY(dialog.importLimits().validate());
  }

  void aCrashingFileLeavesTheStudioUpAndTheScreenshotSaysWhy() {
    QTemporaryDir dir;
    QProcess studio;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CONFIG_HOME", dir.filePath("config"));  // no user settings, no recent files
    studio.setProcessEnvironment(env);
    const QString shot = dir.filePath("crash.png");
    studio.start(ANIMPACK_STUDIO, {QString::fromStdString(test::model("RAW/WithTexture.raw").string()), "--screenshot",
                                   shot, "--screenshot-delay", "2000"});
    QVERIFY(studio.waitForFinished(120000));  // before: the error dialog waited for a click forever
    QCOMPARE(studio.exitStatus(), QProcess::NormalExit);
    QCOMPARE(studio.exitCode(), 1);  // the file did not open
    const QImage image(shot);
    QVERIFY(!image.isNull() && image.width() > 600);
  }

  void killedDuringAutosave() {
    QTemporaryDir dir;
    QVERIFY(prepare(dir));
    QVERIFY(killChildBeforeRename(dir, "autosave"));
    QVERIFY(!readAll(dir.filePath("hero.anproj.autosave")).contains("0.09"));  // the old autosave, whole
    checkRecovery(dir);
  }

  void killedDuringProjectSave() {
    QTemporaryDir dir;
    QVERIFY(prepare(dir));
    QVERIFY(killChildBeforeRename(dir, "save"));
    checkRecovery(dir);
  }

  void killedDuringExport() {
    QTemporaryDir dir;
    QVERIFY(prepare(dir));
    QVERIFY(killChildBeforeRename(dir, "export"));
    QVERIFY(test::filesEndingWith(dir.path(), ".anpk").isEmpty());
    QCOMPARE(test::filesEndingWith(dir.path(), ".tmp").size(), 1);  // hidden, and not named like a pack
    QVERIFY(test::filesEndingWith(dir.path(), ".tmp").front().startsWith(".hero.anpk."));
  }
};

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (argc == 4 && QByteArray(argv[1]) == "--child") return runChild(argv[2], argv[3]);
  TstStudioIsolation test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_studio_isolation.moc"
