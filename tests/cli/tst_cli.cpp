// The animpack CLI as a user runs it: output, JSON, exit codes (DESIGN §9: 0 ok, 1 failure, 2 usage).
#include <QtTest>

#include "tests/support/test_rigs.h"

using namespace animpack;

namespace {
struct Run {
  int code = -1;
  QByteArray out, err;
};
Run runCli(const QStringList& args) {
  QProcess p;
  p.start(ANIMPACK_CLI, args);
  p.waitForFinished(600000);
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}
QString model(const char* rel) { return QString::fromStdString(test::model(rel).string()); }
}  // namespace

class TestCli : public QObject {
  Q_OBJECT
 private slots:
  void inspectPrintsTheSkeletonTree() {
    const Run r = runCli({"inspect", model("BVH/01_01.bvh")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("38 joints"));
    QVERIFY(r.out.contains("    LeftUpLeg"));  // indented under LHipJoint under Hips
    QVERIFY(r.out.contains("2752 frames"));
    QVERIFY(r.err.isEmpty());
  }
  void inspectJson() {
    const Run r = runCli({"inspect", "--json", model("X/Testwuson.X")});
    QCOMPARE(r.code, 0);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(doc.object()["joints"].toArray().size(), 39);
    QCOMPARE(doc.object()["clips"].toArray().size(), 3);
    QCOMPARE(doc.object()["meshes"].toArray()[0].toObject()["vertices"].toInt(), 11196);
  }
  void failuresAreOneLineWithExitCode1() {
    const Run r = runCli({"inspect", "/nonexistent/walk.fbx"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("/nonexistent/walk.fbx"));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
  }
  void badUsageExitsWith2() {
    QCOMPARE(runCli({}).code, 2);
    QCOMPARE(runCli({"frobnicate"}).code, 2);
    QCOMPARE(runCli({"inspect"}).code, 2);
    QCOMPARE(runCli({"inspect", "--bogus", model("BVH/01_01.bvh")}).code, 2);
    QCOMPARE(runCli({"inspect", "--sample-rate", "fast", model("BVH/01_01.bvh")}).code, 2);
  }
  void helpOnEveryCommand() {
    const Run top = runCli({"--help"});
    QCOMPARE(top.code, 0);
    QVERIFY(top.out.contains("inspect"));
    const Run r = runCli({"inspect", "--help"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("usage: animpack inspect"));
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
