// `animpack sample`: the imported, uncompressed clip in the JSON `decode` writes (the input of peer
// benchmarks), clip selection, per-joint settings and resampling with --rate.
#include <QtTest>

#include <cmath>

#include "tests/cli/cli_runner.h"

using namespace animpack;
using test::CliRun;
using test::runCli;

namespace {

QString scratch(const char* name) { return QString::fromStdString((test::scratchDir() / name).string()); }

QJsonObject readJson(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object();
}

QByteArray readBytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// What a reader of the decode schema (peer_bench, any other compressor's importer) relies on;
/// empty when the document satisfies it, else the first broken rule.
QString schemaProblem(const QJsonObject& d) {
  for (const char* key :
       {"clip", "clip_index", "start_time", "sample_rate", "frame_count", "unit_to_cm", "joints", "frames"})
    if (!d.contains(key)) return QString("no key ") + key;
  if (!d["clip"].isString() || !d["clip_index"].isDouble() || !d["start_time"].isDouble() ||
      !(d["sample_rate"].toDouble() > 0) || !(d["unit_to_cm"].toDouble() > 0))
    return "a header value has the wrong type";
  const QJsonArray joints = d["joints"].toArray(), frames = d["frames"].toArray();
  for (int j = 0; j < joints.size(); ++j) {
    const QJsonObject o = joints[j].toObject();
    if (!o["name"].isString() || o["parent"].toInt(-2) < -1 || o["parent"].toInt() >= j)
      return QString("joint %1").arg(j);
    if (!(o["precision_cm"].toDouble() > 0) || !(o["shell_cm"].toDouble() > 0))
      return QString("joint %1 tolerances").arg(j);
  }
  if (frames.size() != d["frame_count"].toInt()) return "frame_count differs from the frames";
  for (int f = 0; f < frames.size(); ++f) {
    const QJsonArray pose = frames[f].toArray();
    if (pose.size() != joints.size()) return QString("frame %1 has %2 joints").arg(f).arg(pose.size());
    for (int j = 0; j < pose.size(); ++j) {
      const QJsonArray v = pose[j].toArray();
      if (v.size() != 10) return QString("frame %1 joint %2 has %3 numbers").arg(f).arg(j).arg(v.size());
      double q = 0;
      for (int i = 3; i < 7; ++i) q += v[i].toDouble() * v[i].toDouble();
      if (std::abs(q - 1) > 1e-4) return QString("frame %1 joint %2: rotation not unit").arg(f).arg(j);
    }
  }
  return {};
}

double value(const QJsonObject& d, int frame, int joint, int component) {
  return d["frames"].toArray()[frame].toArray()[joint].toArray()[component].toDouble();
}

}  // namespace

class TestSample : public QObject {
  Q_OBJECT
 private slots:
  void writesTheDecodeSchemaWithCompressSettings() {
    const QString settings = scratch("sample-settings.json");
    QFile s(settings);
    QVERIFY(s.open(QIODevice::WriteOnly));
    s.write(R"({"joints": {"Spine_Back02": {"precision_cm": 0.004}}})");
    s.close();
    const QStringList flags = {"--settings", settings, "--precision", "0.02", "--shell", "5"};
    const CliRun r = runCli(QStringList{"sample", test::modelPath("X/Testwuson.X"), "--clip", "Wuson_Walk", "-o",
                                        scratch("walk-raw.json")} +
                            flags);
    QCOMPARE(r.code, 0);
    QVERIFY(r.err.isEmpty());
    const QJsonObject raw = readJson(scratch("walk-raw.json"));
    QCOMPARE(schemaProblem(raw), QString());
    QCOMPARE(raw["frame_count"].toInt(), 109);
    QCOMPARE(raw["sample_rate"].toDouble(), 30.0);

    // The same clip through compress and decode: the same header, joints and key set.
    QCOMPARE(runCli(QStringList{"compress", test::modelPath("X/Testwuson.X"), "-o", scratch("walk.anpk"), "-q"} + flags)
                 .code,
             0);
    QCOMPARE(runCli({"decode", scratch("walk.anpk"), "--clip", "Wuson_Walk", "-o", scratch("walk-decoded.json")}).code,
             0);
    const QJsonObject decoded = readJson(scratch("walk-decoded.json"));
    QCOMPARE(raw.keys(), decoded.keys());
    for (const char* key : {"clip", "clip_index", "start_time", "frame_count", "unit_to_cm"})
      QCOMPARE(raw[key], decoded[key]);
    QCOMPARE(raw["joints"].toArray().size(), 39);
    for (int j = 0; j < 39; ++j) {
      const QJsonObject a = raw["joints"].toArray()[j].toObject(), b = decoded["joints"].toArray()[j].toObject();
      QCOMPARE(a.keys(), b.keys());
      for (const char* key : {"name", "parent"}) QCOMPARE(a[key], b[key]);
      QCOMPARE(float(a["precision_cm"].toDouble()), float(b["precision_cm"].toDouble()));
      QCOMPARE(float(a["shell_cm"].toDouble()), 5.f);
    }
    // The flag everywhere, the settings file's joint rule where it applies (and below it).
    auto precisionOf = [&](const QString& name) {
      for (const QJsonValue& j : raw["joints"].toArray())
        if (j.toObject()["name"].toString() == name) return float(j.toObject()["precision_cm"].toDouble());
      return -1.f;
    };
    QCOMPARE(precisionOf("Wuson"), 0.02f);
    QCOMPARE(precisionOf("Spine_Back01"), 0.02f);
    QCOMPARE(precisionOf("Spine_Back02"), 0.004f);
    QCOMPARE(precisionOf("Spine_Back03"), 0.004f);
    // Uncompressed: the decoded clip is close to it, not equal.
    QVERIFY(std::abs(value(raw, 50, 2, 0) - value(decoded, 50, 2, 0)) < 0.05);
  }

  void peerBenchReadsIt() {
    const QString peer = QString(ANIMPACK_SOURCE_DIR) + "/../shared/peers/peer_bench";
    if (!QFileInfo(peer).isExecutable()) QSKIP("no ../shared/peers/peer_bench beside the repository");
    QCOMPARE(
        runCli({"sample", test::modelPath("X/BCN_Epileptic.X"), "--clip", "#0", "-o", scratch("bcn-raw.json")}).code,
        0);
    QProcess p;
    p.start(peer, {scratch("bcn-raw.json"), "--reps", "1"});
    QVERIFY(p.waitForFinished(300000));
    QCOMPARE(p.exitCode(), 0);
    const QJsonObject out = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QCOMPARE(out["joints"].toInt(), 57);
    QCOMPARE(out["frames"].toInt(), readJson(scratch("bcn-raw.json"))["frame_count"].toInt());
    QVERIFY(out["acl_bytes"].toInt() > 0);
  }

  void clipByNameWildcardOrIndex() {
    const QString file = test::modelPath("X/Testwuson.X");
    QCOMPARE(runCli({"sample", file, "--clip", "Wuson_Walk", "-o", scratch("by-name.json")}).code, 0);
    QCOMPARE(runCli({"sample", file, "--clip", "Wuson_W*", "-o", scratch("by-wildcard.json")}).code, 0);
    QCOMPARE(runCli({"sample", file, "--clip", "#1", "-o", scratch("by-index.json")}).code, 0);
    const QByteArray bytes = readBytes(scratch("by-name.json"));
    QVERIFY(!bytes.isEmpty());
    QCOMPARE(readBytes(scratch("by-wildcard.json")), bytes);
    QCOMPARE(readBytes(scratch("by-index.json")), bytes);
    const CliRun stdoutRun = runCli({"sample", file, "--clip", "#1", "-o", "-"});
    QCOMPARE(stdoutRun.out, bytes);

    const CliRun several = runCli({"sample", file, "--clip", "Wuson_*", "-o", scratch("x.json")});
    QCOMPARE(several.code, 1);
    QVERIFY(several.err.contains("matches 3 clips"));
    QVERIFY(several.err.contains("Wuson_Run, Wuson_Walk, Wuson_Bind"));
    QCOMPARE(several.err.count('\n'), 1);
    const CliRun missing = runCli({"sample", file, "--clip", "Swim", "-o", scratch("x.json")});
    QCOMPARE(missing.code, 1);
    QVERIFY(missing.err.contains("no clip 'Swim'") && missing.err.contains("Wuson_Bind"));
    QCOMPARE(runCli({"sample", file, "--clip", "#3", "-o", scratch("x.json")}).code, 1);
    QVERIFY(!QFile::exists(scratch("x.json")));
    QCOMPARE(runCli({"sample", file, "-o", scratch("x.json")}).code, 2);
    QCOMPARE(runCli({"sample", file, "--clip", "#0"}).code, 2);
    QCOMPARE(runCli({"sample", "/nonexistent/a.bvh", "--clip", "#0", "-o", scratch("x.json")}).code, 1);
  }

  void rateResamplesTheSource() {
    const QString file = test::modelPath("X/Testwuson.X");
    QCOMPARE(runCli({"sample", file, "--clip", "Wuson_Walk", "-o", scratch("walk30.json")}).code, 0);
    QCOMPARE(runCli({"sample", file, "--clip", "Wuson_Walk", "--rate", "60", "-o", scratch("walk60.json")}).code, 0);
    const QJsonObject at30 = readJson(scratch("walk30.json")), at60 = readJson(scratch("walk60.json"));
    QCOMPARE(schemaProblem(at60), QString());
    QCOMPARE(at60["sample_rate"].toDouble(), 60.0);
    QCOMPARE(at60["frame_count"].toInt(), 217);  // 3.6 s: k = 0..216
    QCOMPARE(at60["start_time"], at30["start_time"]);
    for (int k = 0; k < 109; k += 9)
      for (int c = 0; c < 10; ++c) QVERIFY(std::abs(value(at60, 2 * k, 5, c) - value(at30, k, 5, c)) < 1e-5);
    // Between frames translation is the midpoint of its neighbours.
    for (int c = 0; c < 3; ++c)
      QVERIFY(std::abs(value(at60, 21, 1, c) - 0.5 * (value(at30, 10, 1, c) + value(at30, 11, 1, c))) < 1e-4);

    QCOMPARE(runCli({"sample", file, "--clip", "Wuson_Walk", "--rate", "7.3", "-o", scratch("walk7.json")}).code, 0);
    QCOMPARE(readJson(scratch("walk7.json"))["frame_count"].toInt(), 27);  // floor(3.6 * 7.3) + 1
    for (const char* bad : {"0", "-30", "10000.5", "nan", "inf", "fast"})
      QCOMPARE(runCli({"sample", file, "--clip", "Wuson_Walk", "--rate", bad, "-o", scratch("x.json")}).code, 2);
  }
};

QTEST_GUILESS_MAIN(TestSample)
#include "tst_sample.moc"
