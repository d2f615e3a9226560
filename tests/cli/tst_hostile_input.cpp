// Numeric hostility: generated files with NaN or infinite keys, translations of 1e30, zero,
// negative or NaN scales, quaternions of length 0 or 1e10, a clip of 10^6 frames, 16384 joints, and
// settings with a precision of 1e-30 or 1e30. Each ends in a clear error or a verified pack, never a
// crash or a hang (every case is its own ctest test with a TIMEOUT). Times are printed, not asserted.
#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>

#include "tests/cli/cli_runner.h"

using namespace animpack;
using test::CliRun;
using test::runCli;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

/// Root -> Mid -> Tip; clip "Move" keys Mid's rotation, translation and scale at 30 Hz, each key
/// as `edit` leaves it (it starts from a smooth swing), and Tip's rotation (a swing of its own).
using KeyEdit = std::function<void(int frame, std::array<float, 4>& rotation, std::array<float, 4>& translation,
                                   std::array<float, 4>& scale)>;
test::GltfScene chainRig(int frames, const KeyEdit& edit = {}) {
  test::GltfScene s;
  core::Transform offset;
  offset.translation = {0, 10, 0};
  s.nodes = {{"Root", -1, {}}, {"Mid", 0, offset}, {"Tip", 1, offset}};
  test::GltfChannel rot{1, 0, {}, {}}, pos{1, 1, {}, {}}, scale{1, 2, {}, {}}, tip{2, 0, {}, {}};
  for (int f = 0; f < frames; ++f) {
    const float a = 0.02f * float(f % 3000);
    std::array<float, 4> r{0, std::sin(a / 2), 0, std::cos(a / 2)}, t{std::sin(a), 10, 0, 0}, sc{1, 1, 1, 0};
    if (edit) edit(f, r, t, sc);
    const float time = float(f) / 30.f;
    for (test::GltfChannel* c : {&rot, &pos, &scale, &tip}) c->times.push_back(time);
    tip.values.push_back({std::sin(a), 0, 0, std::cos(a)});
    rot.values.push_back(r);
    pos.values.push_back(t);
    scale.values.push_back(sc);
  }
  s.animations.push_back({"Move", {rot, pos, scale, tip}});
  return s;
}

/// Compresses `file` (and verifies the pack against it when that succeeded); fails the test on a
/// signal, a hang or an unclear outcome. Returns the compress run.
CliRun compressOrExplain(const QString& file, const QStringList& extra = {}) {
  const QString pack = file + ".anpk";
  QElapsedTimer timer;
  timer.start();
  const CliRun inspect = runCli({"inspect", file});
  const qint64 inspectMs = timer.restart();
  const CliRun c = runCli(QStringList{"compress", file, "-o", pack, "-q"} + extra);
  qInfo("inspect: exit %d in %lld ms; compress: exit %d in %lld ms: %s", inspect.code, inspectMs, c.code,
        timer.elapsed(), (c.err.isEmpty() ? c.out : c.err).trimmed().replace('\n', " | ").constData());
  if (inspect.code != 0 && inspect.code != 1) QTest::qFail("inspect ended by a signal", __FILE__, __LINE__);
  if (c.code == 0) {
    const CliRun v = runCli({"verify", pack, "--source", file});
    qInfo("verify: exit %d: %s", v.code, v.out.trimmed().replace('\n', " | ").constData());
    if (v.code != 0) QTest::qFail("a pack compress accepted does not verify", __FILE__, __LINE__);
  } else if (c.code == 1 || c.code == 2) {
    if (c.err.trimmed().isEmpty()) QTest::qFail("a failure without a message", __FILE__, __LINE__);
  } else {
    QTest::qFail("compress ended by a signal or a hang", __FILE__, __LINE__);
  }
  return c;
}

QString write(const test::GltfScene& scene, const char* name) {
  return QString::fromStdString(test::writeScene(scene, name).string());
}

}  // namespace

class TestHostileInput : public QObject {
  Q_OBJECT
 private slots:
  void nanKeys() {
    const QString file = write(chainRig(30,
                                        [](int f, auto&, auto& t, auto&) {
                                          if (f == 7) t[0] = kNaN;
                                        }),
                               "nan.gltf");
    const CliRun c = compressOrExplain(file);
    QCOMPARE(c.code, 1);
    QVERIFY(c.err.contains("nan.gltf"));
  }
  void infiniteKeys() {
    const QString file = write(chainRig(30,
                                        [](int f, auto& r, auto&, auto&) {
                                          if (f == 3) r[1] = kInf;
                                        }),
                               "inf.gltf");
    const CliRun c = compressOrExplain(file);
    QCOMPARE(c.code, 1);
    QVERIFY(c.err.contains("inf.gltf"));
  }
  void hugeTranslations() {
    compressOrExplain(
        write(chainRig(30, [](int f, auto&, auto& t, auto&) { t[0] = 1e30f * float(f % 2); }), "far.gltf"));
  }
  void zeroScale() {
    compressOrExplain(write(chainRig(30,
                                     [](int f, auto&, auto&, auto& s) {
                                       if (f >= 10) s = {0, 0, 0, 0};
                                     }),
                            "zero-scale.gltf"));
  }
  void negativeScale() {
    compressOrExplain(write(chainRig(30, [](int, auto&, auto&, auto& s) { s = {-1, 1, 1, 0}; }), "mirror.gltf"));
  }
  void nanScale() {
    const CliRun c = compressOrExplain(write(chainRig(30,
                                                      [](int f, auto&, auto&, auto& s) {
                                                        if (f == 4) s[2] = kNaN;
                                                      }),
                                             "nan-scale.gltf"));
    QCOMPARE(c.code, 1);
  }
  void zeroQuaternion() {
    compressOrExplain(write(chainRig(30,
                                     [](int f, auto& r, auto&, auto&) {
                                       if (f == 12) r = {0, 0, 0, 0};
                                     }),
                            "zero-quat.gltf"));
  }
  void hugeQuaternion() {
    compressOrExplain(write(chainRig(30,
                                     [](int, auto& r, auto&, auto&) {
                                       for (float& v : r) v *= 1e10f;
                                     }),
                            "huge-quat.gltf"));
  }
  void millionFrames() { compressOrExplain(write(chainRig(1000000), "million.gltf")); }
  void tooManyJoints() {
    const CliRun c = compressOrExplain(write(test::manyJointsRig(16384), "joints16384.gltf"));
    QCOMPARE(c.code, 1);
    QVERIFY(c.err.contains("16383"));
  }
  void mostJoints() { compressOrExplain(write(test::manyJointsRig(16383), "joints16383.gltf")); }
  void tinyPrecision() {
    const CliRun c = compressOrExplain(write(chainRig(30), "tiny.gltf"), {"--precision", "1e-30"});
    QVERIFY(c.err.contains("precision"));
  }
  void hugePrecision() {
    const CliRun c = compressOrExplain(write(chainRig(30), "loose.gltf"), {"--precision", "1e30"});
    QVERIFY(c.code != 0 || c.out.contains("1 clip(s)"));
  }
  void settingsFilePrecision() {
    for (const char* value : {"1e-30", "1e30"}) {
      const QString settings = QString::fromStdString((test::scratchDir() / "precision.json").string());
      QFile f(settings);
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(QByteArray("{\"precision_cm\": ") + value + ", \"joints\": {\"Tip\": {\"precision_cm\": " + value +
              "}}}");
      f.close();
      compressOrExplain(write(chainRig(30), "settings.gltf"), {"--settings", settings});
    }
  }
};

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostile_input.moc"
