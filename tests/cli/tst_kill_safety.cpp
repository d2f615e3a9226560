// Kill-safety of the CLI's writes: `animpack compress` SIGKILLed between writing a temporary file
// and renaming it (the test hook of core/io/atomic_file.h) leaves the previous pack and report
// intact, or none, and never a partial pack or a temporary named like a pack; the next write
// removes what the killed one left.
#include <QtTest>

#include "core/runtime/pack.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/kill_point.h"

using namespace animpack;
using test::CliRun;
using test::runCli;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestKillSafety : public QObject {
  Q_OBJECT
  QString m_rig;

 private slots:
  void initTestCase() {
    m_rig = QString::fromStdString(test::writeScene(test::armatureRig(1.f, 60), "kill.gltf").string());
  }

  void aKilledFirstExportLeavesNoPack() {
    QTemporaryDir dir;
    QProcess p;
    QByteArray err;
    QVERIFY2(test::startAndPauseBeforeRename(p, ANIMPACK_CLI,
                                             {"compress", m_rig, "-o", dir.filePath("hero.anpk"), "-q"}, ".anpk", err),
             err.constData());
    QCOMPARE(test::filesEndingWith(dir.path(), ".tmp").size(), 1);  // the whole pack, not yet renamed
    test::killNow(p);
    QCOMPARE(p.exitStatus(), QProcess::CrashExit);
    QVERIFY(test::filesEndingWith(dir.path(), ".anpk").isEmpty());
  }

  void aKilledExportKeepsTheOldPackAndReport() {
    QTemporaryDir dir;
    const QString pack = dir.filePath("hero.anpk"), report = dir.filePath("hero.report.json");
    const QStringList args = {"compress", m_rig, "-o", pack, "--report", report, "-q"};
    QCOMPARE(runCli(args).code, 0);
    const QByteArray oldPack = readAll(pack), oldReport = readAll(report);
    QVERIFY(!oldPack.isEmpty() && !oldReport.isEmpty());

    // Killed before the pack's rename, then (another run) before the report's.
    for (const QString& suffix : {QString(".anpk"), QString(".report.json")}) {
      QProcess p;
      QByteArray err;
      QVERIFY2(test::startAndPauseBeforeRename(p, ANIMPACK_CLI, args + QStringList{"--precision", "0.5"}, suffix, err),
               err.constData());
      test::killNow(p);
      if (suffix == ".anpk") QCOMPARE(readAll(pack), oldPack);
      QCOMPARE(readAll(report), oldReport);
      QCOMPARE(test::filesEndingWith(dir.path(), ".anpk"), QStringList{"hero.anpk"});
      QVERIFY(bool(runtime::Pack::load(pack.toStdString())));
    }
    // The pack of the second run was renamed before it was killed: it is the new one, whole.
    QVERIFY(readAll(pack) != oldPack);
    QVERIFY(!test::filesEndingWith(dir.path(), ".tmp").isEmpty());

    // The next export removes the temporaries the killed ones left.
    QCOMPARE(runCli(args).code, 0);
    QCOMPARE(test::filesEndingWith(dir.path(), ".tmp"), QStringList());
    QCOMPARE(readAll(pack), oldPack);
  }

  void theHookWaitsOnlyForItsSuffix() {
    QTemporaryDir dir;
    QProcess p;
    QByteArray err;
    // Nothing this run writes ends with ".anproj": it finishes without pausing.
    QVERIFY(!test::startAndPauseBeforeRename(p, ANIMPACK_CLI, {"compress", m_rig, "-o", dir.filePath("a.anpk"), "-q"},
                                             ".anproj", err));
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(QFileInfo::exists(dir.filePath("a.anpk")));
  }
};

QTEST_GUILESS_MAIN(TestKillSafety)
#include "tst_kill_safety.moc"
