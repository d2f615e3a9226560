// Imports in a child process: Assimp files that crash or exhaust it, and the ANIMPACK_IMPORT_FAULT
// hook (crash, hang, oom), end in a one-line error naming the file (inspect, compress, sample, and
// verify and bench with --source) while the command, or the batch
// around them, goes on; the child returns exactly what an in-process import does and dies with
// its parent.
#include <QtTest>

#include <signal.h>

#include "core/io/import_stream.h"
#include "core/io/isolated_import.h"
#include "tests/cli/cli_runner.h"

using namespace animpack;
using test::CliRun;
using test::modelPath;
using test::runCli;

namespace {

QString scratch(const QString& name) {
  return QString::fromStdString((test::scratchDir() / name.toStdString()).string());
}

QJsonObject readJson(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

/// The pids of a process's children (from /proc).
QList<qint64> childrenOf(qint64 pid) {
  QList<qint64> out;
  QFile f(QString("/proc/%1/task/%1/children").arg(pid));
  if (f.open(QIODevice::ReadOnly))
    for (const QByteArray& p : f.readAll().split(' '))
      if (!p.trimmed().isEmpty()) out.push_back(p.trimmed().toLongLong());
  return out;
}

/// True once `pid` has exited (gone, or a zombie nobody has reaped yet).
bool exited(qint64 pid) {
  QFile f(QString("/proc/%1/stat").arg(pid));
  if (!f.open(QIODevice::ReadOnly)) return true;
  const QByteArray stat = f.readAll();
  const int close = stat.lastIndexOf(')');
  return close > 0 && stat.mid(close + 2, 1) == "Z";
}

}  // namespace

class TestIsolatedImport : public QObject {
  Q_OBJECT
 private slots:
  void filesThatKillAssimpEndWithExit1() {
    const struct {
      const char* file;
      const char* what;
    } cases[] = {{"RAW/WithTexture.raw", "crashed reading"},
                 {"RAW/WithColor.raw", "crashed reading"},
                 {"invalid/OutOfMemory.off", ""}};
    for (const auto& c : cases) {
      const QString file = modelPath(c.file);
      const CliRun r = runCli({"inspect", file});
      QCOMPARE(r.code, 1);
      QVERIFY2(r.err.contains(file.toUtf8()) && r.err.contains(c.what), r.err.constData());
      QCOMPARE(r.err.count('\n'), 1);
      QVERIFY(r.out.isEmpty());
      QCOMPARE(runCli({"compress", file, "-o", scratch("crash.anpk"), "-q"}).code, 1);
      QVERIFY(!QFile::exists(scratch("crash.anpk")));
    }
    QVERIFY(runCli({"inspect", modelPath("RAW/WithColor.raw")}).err.contains("(signal 11)"));
  }

  void aFolderWithACrashingFileWritesTheGoodOne() {
    const QString dir = scratch("crash-folder");
    QDir().mkpath(dir + "/in");
    QVERIFY(QFile::copy(modelPath("RAW/WithTexture.raw"), dir + "/in/WithTexture.raw"));
    QVERIFY(QFile::copy(modelPath("X/BCN_Epileptic.X"), dir + "/in/BCN_Epileptic.X"));
    const CliRun r = runCli({"compress", dir + "/in", "-o", dir + "/out.anpk", "--report", dir + "/report.json", "-q"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("Assimp crashed reading " + (dir + "/in/WithTexture.raw").toUtf8()), r.err.constData());
    QVERIFY(r.err.contains("failed (WithTexture.raw"));
    QVERIFY(r.out.contains("1 clip(s)"));
    QVERIFY(runCli({"dump", dir + "/out.anpk"}).out.contains("Epileptisch"));
    const QJsonArray failures = readJson(dir + "/report.json")["failures"].toArray();
    QCOMPARE(failures.size(), 1);
    QCOMPARE(failures[0].toObject()["file"].toString(), dir + "/in/WithTexture.raw");
    QVERIFY(failures[0].toObject()["error"].toString().contains("crashed"));
    QCOMPARE(readJson(dir + "/report.json")["clips"].toArray().size(), 1);
  }

  void theFaultHookProvesTheParentSurvives_data() {
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("message");
    const QString file = modelPath("BVH/01_01.bvh");
    QTest::newRow("crash") << "crash" << QString("Assimp crashed reading %1 (signal 11)").arg(file);
    QTest::newRow("hang") << "hang" << file + ": the import timed out after 1 s";
    QTest::newRow("oom") << "oom" << file + ": the import ran out of memory (256 MB cap)";
    QTest::newRow("unknown") << "melt"
                             << "ANIMPACK_IMPORT_FAULT='melt': expected crash, hang or oom";
  }
  void theFaultHookProvesTheParentSurvives() {
    QFETCH(QString, fault);
    QFETCH(QString, message);
    const QString file = modelPath("BVH/01_01.bvh");
    const QStringList env = {"ANIMPACK_IMPORT_FAULT=" + fault};
    // Only the hang waits for the timeout; the other faults get room so a loaded machine cannot turn them into one.
    const QString timeout = fault == "hang" ? "1" : "60";
    const QStringList limits = {"--import-timeout", timeout, "--import-memory", "256"};
    const CliRun inspect = runCli(QStringList{"inspect", file} + limits, env);
    const CliRun compress = runCli(QStringList{"compress", file, "-o", scratch("fault.anpk"), "-q"} + limits, env);
    const CliRun sample =
        runCli(QStringList{"sample", file, "--clip", "#0", "-o", scratch("fault.json")} + limits, env);
    QCOMPARE(inspect.code, 1);
    QVERIFY2(inspect.err.contains(message.toUtf8()), inspect.err.constData());
    QCOMPARE(inspect.err.count('\n'), 1);
    QCOMPARE(compress.code, 1);
    QVERIFY(compress.err.contains(message.toUtf8()));
    QCOMPARE(sample.code, 1);
    QVERIFY(!QFile::exists(scratch("fault.json")));

    // verify and bench import their --source through the child too.
    static const bool packed = runCli({"compress", file, "-o", scratch("fault-good.anpk"), "-q"}).code == 0;
    QVERIFY(packed);
    for (const char* command : {"verify", "bench"}) {
      const CliRun r = runCli(QStringList{command, scratch("fault-good.anpk"), "--source", file} + limits, env);
      QCOMPARE(r.code, 1);
      QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
      QCOMPARE(r.err.count('\n'), 1);
    }
  }

  void theChildReturnsWhatAnInProcessImportDoes() {
    for (const char* file : {"X/Testwuson.X", "BVH/01_01.bvh", "FBX/huesitos.fbx"}) {
      const auto inProcess = core::importAsset(test::model(file));
      const auto isolated = core::importIsolated(ANIMPACK_CLI, test::model(file));
      QVERIFY2(isolated, isolated ? "" : isolated.message().c_str());
      QCOMPARE(core::writeImportStream(isolated), core::writeImportStream(inProcess));
    }
    // The parent applies the joint order (settings lod) to what the child imports, as importAsset does.
    const core::ImportOptions options{2.54, 24.0, {core::JointOrder::Kind::Depth, {}}};
    QCOMPARE(core::writeImportStream(core::importIsolated(ANIMPACK_CLI, test::model("BVH/01_01.bvh"), options)),
             core::writeImportStream(core::importAsset(test::model("BVH/01_01.bvh"), options)));
    const auto missing = core::importIsolated(ANIMPACK_CLI, "/nonexistent/walk.fbx");
    QVERIFY(!missing);
    QCOMPARE(missing.message(), core::importAsset("/nonexistent/walk.fbx").message());
    const auto noExecutable = core::importIsolated("/nonexistent/animpack", test::model("BVH/01_01.bvh"));
    QVERIFY(!noExecutable && noExecutable.message().find("cannot start") != std::string::npos);
  }

  void theChildDiesWithItsParent() {
    QProcess parent;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("ANIMPACK_IMPORT_FAULT", "hang");
    parent.setProcessEnvironment(env);
    parent.start(ANIMPACK_CLI, {"inspect", modelPath("BVH/01_01.bvh"), "--import-timeout", "300"});
    QVERIFY(parent.waitForStarted());
    QList<qint64> children;
    QTRY_VERIFY_WITH_TIMEOUT(!(children = childrenOf(parent.processId())).isEmpty(), 20000);
    ::kill(pid_t(parent.processId()), SIGKILL);
    QVERIFY(parent.waitForFinished());
    QTRY_VERIFY_WITH_TIMEOUT(exited(children[0]), 20000);
  }

  void limitsAreUsageCheckedAndStayOutOfTheCacheKey() {
    const QString file = modelPath("X/Testwuson.X");
    QCOMPARE(runCli({"inspect", file, "--import-timeout", "0"}).code, 2);
    QCOMPARE(runCli({"inspect", file, "--import-memory", "lots"}).code, 2);
    QCOMPARE(runCli({"compress", file, "-o", scratch("x.anpk"), "--import-memory", "4"}).code, 2);
    QCOMPARE(runCli({"verify", scratch("x.anpk"), "--import-memory", "4096.5"}).code, 2);
    QCOMPARE(runCli({"bench", scratch("x.anpk"), "--import-timeout", "-1"}).code, 2);
    const QString cache = scratch("limits-cache");
    QCOMPARE(runCli({"compress", file, "-o", scratch("l1.anpk"), "--cache", cache, "-q"}).code, 0);
    const CliRun again = runCli({"compress", file, "-o", scratch("l2.anpk"), "--cache", cache, "-q", "--import-timeout",
                                 "30", "--import-memory", "2048"});
    QCOMPARE(again.code, 0);
    QVERIFY(again.out.contains("3 from the cache"));
  }
};

QTEST_GUILESS_MAIN(TestIsolatedImport)
#include "tst_isolated_import.moc"
