// Additive clips from the command line (docs/SETTINGS.md `additive_base`): compress with the
// setting, the report's additive_base, decode writing the applied pose (comparable with `sample` of
// the source clip) or, with --additive-deltas, the deltas, and a base that is not in the file.
#include <QtTest>

#include <cmath>

#include "tests/cli/cli_runner.h"

using namespace animpack;

namespace {
using Run = test::CliRun;
using test::runCli;

QJsonObject readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  return QJsonDocument::fromJson(f.readAll()).object();
}

QString writeSettings(const QString& path, const QByteArray& json) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(json);
  return path;
}

/// Largest difference of translations (file units) and rotations (quaternion components, either
/// sign) between two decode-schema documents, frame by frame.
double largestDifference(const QJsonObject& a, const QJsonObject& b) {
  double worst = 0;
  const QJsonArray fa = a["frames"].toArray(), fb = b["frames"].toArray();
  for (qsizetype f = 0; f < std::min(fa.size(), fb.size()); ++f)
    for (qsizetype j = 0; j < fa[f].toArray().size(); ++j) {
      const QJsonArray x = fa[f].toArray()[j].toArray(), y = fb[f].toArray()[j].toArray();
      double same = 0, flipped = 0;
      for (int k = 3; k < 7; ++k) {
        same = std::max(same, std::fabs(x[k].toDouble() - y[k].toDouble()));
        flipped = std::max(flipped, std::fabs(x[k].toDouble() + y[k].toDouble()));
      }
      worst = std::max(worst, std::min(same, flipped));
      for (int k : {0, 1, 2}) worst = std::max(worst, std::fabs(x[k].toDouble() - y[k].toDouble()));
    }
  return worst;
}
}  // namespace

class TestAdditiveCli : public QObject {
  Q_OBJECT
 private slots:
  void decodeAppliesTheDeltasOrWritesThem() {
    const QString dir = QString::fromStdString(test::scratchDir().string());
    const QString wuson = test::modelPath("X/Testwuson.X");
    const QString settings =
        writeSettings(dir + "/additive.json", R"({"clips":{"Wuson_Run":{"additive_base":"Wuson_Walk"}}})");
    const QString pack = dir + "/additive.anpk", report = dir + "/additive.json.report";
    const Run c = runCli({"compress", wuson, "-o", pack, "--settings", settings, "--report", dir + "/report.json"});
    QCOMPARE(c.code, 0);
    const QJsonArray clips = readJson(dir + "/report.json")["clips"].toArray();
    for (const QJsonValue& clip : clips) {
      const QJsonObject o = clip.toObject();
      if (o["clip"].toString() == "Wuson_Run") QCOMPARE(o["additive_base"].toString(), QString("Wuson_Walk"));
      else QVERIFY(o["additive_base"].isNull());
    }
    QCOMPARE(runCli({"decode", pack, "--clip", "Wuson_Run", "-o", dir + "/applied.json"}).code, 0);
    QCOMPARE(runCli({"decode", pack, "--clip", "Wuson_Run", "--additive-deltas", "-o", dir + "/deltas.json"}).code, 0);
    QCOMPARE(runCli({"sample", wuson, "--clip", "Wuson_Run", "-o", dir + "/source.json"}).code, 0);
    const QJsonObject applied = readJson(dir + "/applied.json"), deltas = readJson(dir + "/deltas.json"),
                      source = readJson(dir + "/source.json");
    QCOMPARE(applied["frames"].toArray().size(), source["frames"].toArray().size());
    // Applied: the source within a fraction of a centimetre (Testwuson is in cm); deltas: far from it.
    QVERIFY2(largestDifference(applied, source) < 0.01,
             qPrintable(QString::number(largestDifference(applied, source))));
    QVERIFY(largestDifference(deltas, source) > 0.1);
    QCOMPARE(runCli({"verify", pack, "--source", wuson}).code, 0);
    QVERIFY(runCli({"decode", "--help"}).out.contains("--additive-deltas"));
  }

  void aBaseNotInTheFileFailsNamingIt() {
    const QString dir = QString::fromStdString(test::scratchDir().string());
    const QString settings =
        writeSettings(dir + "/missing.json", R"({"clips":{"Wuson_Run":{"additive_base":"Wuson_Jump"}}})");
    const Run c =
        runCli({"compress", test::modelPath("X/Testwuson.X"), "-o", dir + "/missing.anpk", "--settings", settings});
    QCOMPARE(c.code, 1);
    QVERIFY2(c.err.contains("additive_base 'Wuson_Jump' is not a clip of this file or project"), c.err.constData());
    QVERIFY(c.err.contains("Wuson_Run"));
  }
};

QTEST_GUILESS_MAIN(TestAdditiveCli)
#include "tst_additive_cli.moc"
