// The compressor (core/compress/compressor.h): every joint and frame within precision on real clips of each format,
// checked independently of the compressor; decoder == compressor reconstruction; tight vs loose;
// default/constant detection; determinism; pinning; invalid settings; unreachable precision.
#include <QtTest>

#include <cmath>
#include <thread>

#include "core/base/assert.h"
#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/compress/error_metric.h"
#include "core/compress/report.h"
#include "core/io/asset_importer.h"
#include "core/io/pack_writer.h"
#include "core/runtime/player.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

ImportedAsset load(const std::filesystem::path& path) {
  auto a = importAsset(path);
  if (!a) qFatal("%s", a.message().c_str());
  return std::move(a.value());
}

CompressedClip compress(const ImportedAsset& a, std::size_t clip, const CompressionSettings& settings = {},
                        CompressorContext* context = nullptr) {
  auto job = makeCompressJob(a, a.clips[clip], resolve(settings, a.skeleton, a.clips[clip].name));
  auto r = job.run(context);
  if (!r) qFatal("%s", r.message().c_str());
  return std::move(r.value());
}

/// Decodes `c` with a fresh runtime Player and measures it with a fresh metric: the independent check.
std::vector<float> independentErrors(const ImportedAsset& a, std::size_t clip, const CompressedClip& c) {
  auto view = runtime::ClipView::open(c.data, a.skeleton.restLocal);
  if (!view) qFatal("%s", view.message().c_str());
  const RawClip& raw = a.clips[clip];
  std::vector<Transform> decoded(raw.samples.size());
  runtime::Player player;
  for (std::uint32_t f = 0; f < raw.frameCount; ++f)
    player.sampleFrame(*view, float(f), std::span(decoded.data() + std::size_t(f) * raw.jointCount, raw.jointCount));
  std::vector<float> shells;
  for (const auto& j : c.settings.joints) shells.push_back(j.shellCm);
  return ErrorMetric(a.skeleton, raw, a.unitToCm, shells).measure(decoded);
}

void checkWithinPrecision(const ImportedAsset& a, std::size_t clip, const CompressedClip& c) {
  const std::vector<float> errors = independentErrors(a, clip, c);
  QCOMPARE(errors.size(), c.stats.errors.size());
  for (std::size_t i = 0; i < errors.size(); ++i) {
    const std::size_t joint = i % a.skeleton.jointCount();
    QVERIFY2(errors[i] <= c.settings.joints[joint].precisionCm, qPrintable(QString("%1 joint %2 frame %3: %4 cm")
                                                                               .arg(c.name.c_str())
                                                                               .arg(a.skeleton.names[joint].c_str())
                                                                               .arg(i / a.skeleton.jointCount())
                                                                               .arg(errors[i])));
    QCOMPARE(errors[i], c.stats.errors[i]);  // what the compressor verified is what the runtime decodes
  }
  QVERIFY(c.stats.withinPrecision);
}

}  // namespace

class TestCompressor : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { setAssertThrows(true); }

  void everyJointAndFrameWithinPrecision_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("glTF") << "glTF2/simple_skin/simple_skin.gltf";
    QTest::newRow("X") << "X/Testwuson.X";
    QTest::newRow("X epileptic") << "X/BCN_Epileptic.X";
    QTest::newRow("FBX") << "FBX/animation_with_skeleton.fbx";
    QTest::newRow("FBX huesitos") << "FBX/huesitos.fbx";
    QTest::newRow("COLLADA") << "Collada/box_nested_animation.dae";
    QTest::newRow("COLLADA spins") << "Collada/anims_with_full_rotations_between_keys.DAE";
    QTest::newRow("MDL") << "MDL/MDL (HL1)/man.mdl";
    QTest::newRow("ASE") << "ASE/anim2.ASE";
    QTest::newRow("3DS") << "3DS/RotatingCube.3DS";
    QTest::newRow("LWS") << "LWS/move_xz_spline.lws";
  }
  void everyJointAndFrameWithinPrecision() {
    QFETCH(QString, file);
    const ImportedAsset a = load(test::model(file.toStdString()));
    for (std::size_t c = 0; c < a.clips.size(); ++c) checkWithinPrecision(a, c, compress(a, c));
  }

  void scaledArmatureRig() {
    // Blender-style x100 armature: precision and shell are object-space centimetres.
    const ImportedAsset a = load(test::writeScene(test::armatureRig(100.f, 60, 30.f), "armature100.gltf"));
    const CompressedClip c = compress(a, 0);
    checkWithinPrecision(a, 0, c);
    QVERIFY(c.stats.maxErrorCm > 0.001f);  // the budget is used, not wasted
  }

  void tightPrecisionCostsMoreThanLoose() {
    const ImportedAsset a = load(test::model("X/Testwuson.X"));
    CompressionSettings tight, loose;
    tight.precisionCm = 0.001f;
    loose.precisionCm = 0.1f;
    const CompressedClip t = compress(a, 1, tight), l = compress(a, 1, loose);
    checkWithinPrecision(a, 1, t);
    checkWithinPrecision(a, 1, l);
    QVERIFY2(t.data.size() > l.data.size() * 2, qPrintable(QString("%1 vs %2").arg(t.data.size()).arg(l.data.size())));
    QVERIFY(t.stats.maxErrorCm < l.stats.maxErrorCm);
    QVERIFY(l.stats.maxErrorCm <= 0.1f);
  }

  void defaultAndConstantTracksCostNothingOrLittle() {
    // Hips moves; Head holds a constant pose away from rest; the leg never moves (default).
    test::GltfScene scene = test::armatureRig(1.f, 30, 30.f);
    scene.animations.resize(1);
    auto& channels = scene.animations[0].channels;
    channels.erase(
        std::remove_if(channels.begin(), channels.end(), [](const test::GltfChannel& ch) { return ch.node >= 5; }),
        channels.end());
    for (auto& ch : channels)
      if (ch.node == 4)
        for (auto& v : ch.values) v = {0.f, 0.38268343f, 0.f, 0.92387953f};  // 45 degrees, every frame
    const ImportedAsset a = load(test::writeScene(scene, "constant.gltf"));
    const CompressedClip c = compress(a, 0);
    checkWithinPrecision(a, 0, c);
    auto view = runtime::ClipView::open(c.data, a.skeleton.restLocal);
    QVERIFY(view);
    const auto head = std::uint32_t(a.skeleton.find("Head")), leg = std::uint32_t(a.skeleton.find("LeftLeg"));
    QCOMPARE(view->kind(leg, runtime::Channel::Rotation), runtime::TrackKind::Default);
    QCOMPARE(view->kind(leg, runtime::Channel::Translation), runtime::TrackKind::Default);
    const auto headKind = view->kind(head, runtime::Channel::Rotation);
    QVERIFY(headKind == runtime::TrackKind::Constant || headKind == runtime::TrackKind::ConstantFloat);
    QVERIFY(c.stats.defaultTracks >= 10);
    QVERIFY(c.stats.constantTracks >= 1);
    QVERIFY(c.stats.uniformTracks + c.stats.keyedTracks >= 1);
  }

  void q32ConstantsWhereTheySaveBytes() {
    const ImportedAsset a = load(test::model("X/Testwuson.X"));
    CompressionSettings s;
    s.precisionCm = 0.5f;
    s.rotationFormat = RotationFormat::Q32;
    const CompressedClip c = compress(a, 2, s);  // the one-frame bind pose: every track constant or default
    auto view = runtime::ClipView::open(c.data, a.skeleton.restLocal);
    QVERIFY(view);
    int q32 = 0;
    for (std::uint32_t j = 0; j < view->jointCount(); ++j)
      q32 += view->kind(j, runtime::Channel::Rotation) == runtime::TrackKind::ConstantQ32;
    QVERIFY(q32 > 0 || c.stats.defaultTracks == a.skeleton.jointCount() * 3);
    checkWithinPrecision(a, 2, c);
  }

  void deterministicOutput() {
    const ImportedAsset a = load(test::model("X/BCN_Epileptic.X"));
    const CompressedClip first = compress(a, 0);
    QCOMPARE(compress(a, 0).data, first.data);
    CompressorContext context;
    QCOMPARE(compress(a, 0, {}, &context).data, first.data);
    QCOMPARE(compress(a, 0, {}, &context).data, first.data);  // a reused context changes nothing
    std::vector<std::uint8_t> other;
    std::thread t([&] { other = compress(a, 0).data; });
    const auto mine = compress(a, 0).data;
    t.join();
    QCOMPARE(other, mine);
  }

  void incrementalRecompressStaysWithinPrecision() {
    const ImportedAsset a = load(test::model("X/Testwuson.X"));
    CompressorContext context;
    CompressionSettings s;
    const CompressedClip before = compress(a, 1, s, &context);
    s.joints.emplace_back("Neck", JointOverride{0.002f, {}, {}});
    const CompressedClip after = compress(a, 1, s, &context);
    checkWithinPrecision(a, 1, after);
    QVERIFY(after.stats.joints[std::size_t(a.skeleton.find("Neck"))].maxErrorCm <= 0.002f);
    QVERIFY(after.settingsHash != before.settingsHash);
  }

  void pinningReducesDrift() {
    // Loose ancestors, a tight pinned foot: pinning cancels what the compressed chain above does.
    const ImportedAsset a = load(test::writeScene(test::armatureRig(100.f, 60, 30.f), "pinned.gltf"));
    CompressionSettings s;
    s.precisionCm = 0.5f;
    s.joints.emplace_back("LeftFoot", JointOverride{0.01f, {}, true});
    const CompressedClip c = compress(a, 0, s);
    checkWithinPrecision(a, 0, c);
    QCOMPARE(c.stats.pinned.size(), std::size_t(1));
    const PinnedReport& p = c.stats.pinned[0];
    QCOMPARE(p.joint, std::uint32_t(a.skeleton.find("LeftFoot")));
    QVERIFY(p.driftCm <= 0.01f);
    QVERIFY2(p.driftUnpinnedCm > p.driftCm * 2, qPrintable(QString("%1 vs %2").arg(p.driftUnpinnedCm).arg(p.driftCm)));
  }

  void invalidSettingsAreRejected_data() {
    QTest::addColumn<float>("precision");
    QTest::addColumn<float>("shell");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("negative precision") << -0.01f << 3.f << "precision_cm";
    QTest::newRow("NaN precision") << std::numeric_limits<float>::quiet_NaN() << 3.f << "precision_cm";
    QTest::newRow("zero shell") << 0.01f << 0.f << "shell_cm";
    QTest::newRow("infinite shell") << 0.01f << std::numeric_limits<float>::infinity() << "shell_cm";
  }
  void invalidSettingsAreRejected() {
    QFETCH(float, precision);
    QFETCH(float, shell);
    QFETCH(QString, fragment);
    const ImportedAsset a = load(test::model("glTF2/simple_skin/simple_skin.gltf"));
    EffectiveSettings e = resolve({}, a.skeleton, a.clips[0].name);
    e.joints[1].precisionCm = precision;
    e.joints[1].shellCm = shell;
    auto job = makeCompressJob(a, a.clips[0], e);
    const Status st = job.validate();
    QVERIFY(!st);
    QVERIFY2(QString::fromStdString(st.message()).contains(fragment), st.message().c_str());
    QVERIFY(QString::fromStdString(st.message()).contains(QString::fromStdString(a.skeleton.names[1])));
    QVERIFY(!job.run());
  }

  void unreachablePrecisionIsReportedNotLoopedOn() {
    const ImportedAsset a = load(test::writeScene(test::armatureRig(1.f, 40, 30.f), "unreachable.gltf"));
    CompressionSettings s;
    s.precisionCm = 1e-6f;  // below what float32 decoding can represent for a human-sized rig
    const CompressedClip c = compress(a, 0, s);
    QVERIFY(!c.stats.withinPrecision);
    QVERIFY(c.stats.iterations <= 64);
    const ClipReport r = makeClipReport(c, a.skeleton, "unreachable.gltf", 1);
    QVERIFY(!r.overPrecision.empty());
    QVERIFY(!r.withinPrecision);
  }

  void reportCarriesTheContractKeys() {
    const ImportedAsset a = load(test::model("X/Testwuson.X"));
    const CompressedClip c = compress(a, 0);
    ClipReport r = makeClipReport(c, a.skeleton, "Testwuson.X", c.data.size() + 56);
    QCOMPARE(r.rawBytes, std::uint64_t(40) * a.skeleton.jointCount() * a.clips[0].frameCount);
    const QJsonObject doc =
        QJsonDocument::fromJson(QByteArray::fromStdString(reportJson({r}, 12345, 13000, "0.1.0"))).object();
    for (const char* key : {"tool_version", "clips", "totals", "pack_bytes"}) QVERIFY2(doc.contains(key), key);
    const QJsonObject clip = doc["clips"].toArray()[0].toObject();
    for (const char* key : {"file", "clip", "clip_index", "joints", "frames", "sample_rate", "raw_bytes",
                            "compressed_bytes", "ratio", "max_error_cm", "p99_error_cm", "worst_joint", "worst_frame",
                            "keys", "tracks", "pinned", "compress_ms", "within_precision"})
      QVERIFY2(clip.contains(key), key);
    for (const char* key : {"default", "constant", "fitted", "uniform"})
      QVERIFY2(clip["tracks"].toObject().contains(key), key);
    QCOMPARE(clip["joints"].toInt(), int(a.skeleton.jointCount()));
    QCOMPARE(clip["worst_joint"].toString(), QString::fromStdString(a.skeleton.names[std::size_t(c.stats.worstJoint)]));
    QCOMPARE(doc["pack_bytes"].toInt(), 12345);
    const std::string csv = reportCsv({r});
    QVERIFY(csv.find("compressed_bytes") != std::string::npos);
    QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 2);
  }

  void loopFlagFollowsTheFirstAndLastFrame() {
    test::GltfScene scene = test::armatureRig(1.f, 31, 30.f);
    for (auto& ch : scene.animations[0].channels) ch.values.back() = ch.values.front();  // closes the loop
    const ImportedAsset a = load(test::writeScene(scene, "loop.gltf"));
    QVERIFY(compress(a, 0).loop);
    const ImportedAsset open = load(test::writeScene(test::armatureRig(1.f, 31, 30.f), "open.gltf"));
    QVERIFY(!compress(open, 0).loop);
  }
};

QTEST_GUILESS_MAIN(TestCompressor)
#include "tst_compressor.moc"
