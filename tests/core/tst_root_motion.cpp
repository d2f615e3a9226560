// Root motion (docs/SETTINGS.md `root_motion`, core/runtime/FORMAT.md "Root motion"): the settings
// and their errors, extraction of a walker with a known straight path and turn, the pose with the
// motion folded back within precision of the source at and between frames (generated rig and BVH
// mocap), runtime::rootMotion across loop ends and backward, decode's fold, the report fields and
// the ten-cycle drift check.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstring>

#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/compress/report.h"
#include "core/io/decoded_json.h"
#include "core/io/pack_verify.h"
#include "core/io/pack_writer.h"
#include "core/runtime/clip_format.h"
#include "core/runtime/pack.h"
#include "core/runtime/player.h"
#include "core/runtime/root_motion.h"
#include "tests/support/source_check.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

CompressionSettings settingsOf(const char* json) {
  auto s = CompressionSettings::fromJson(json, "test.json");
  if (!s) qFatal("%s", s.message().c_str());
  return std::move(s.value());
}

Expected<CompressedClip> compress(const ImportedAsset& a, std::size_t clip, const char* json) {
  auto job = makeCompressJob(a, a.clips[clip], resolve(settingsOf(json), a.skeleton, a.clips[clip].name));
  return job.run();
}

CompressedClip compressOrFail(const ImportedAsset& a, std::size_t clip, const char* json) {
  auto r = compress(a, clip, json);
  if (!r) qFatal("%s", r.message().c_str());
  return std::move(r.value());
}

runtime::ClipView openView(const CompressedClip& c, const ImportedAsset& a) {
  auto v = runtime::ClipView::open(c.data, a.skeleton.restLocal);
  if (!v) qFatal("%s", v.message().c_str());
  return *v;
}

double sourceError(const std::filesystem::path& file, const ImportedAsset& a, const CompressedClip& c, int subSteps) {
  std::vector<float> shells;
  for (const EffectiveJoint& j : c.settings.joints) shells.push_back(j.shellCm);
  const test::SourceCheck check = test::checkAgainstSource(file, a, c.clipIndex, openView(c, a), shells, subSteps);
  if (!check.error.empty()) qFatal("%s", check.error.c_str());
  if (check.maxCm > 0.01)
    qWarning("worst %s at frame %f: %f cm", check.worstJoint.c_str(), check.worstFrame, check.maxCm);
  return check.maxCm;
}

QJsonObject jsonObject(const std::string& text) {
  return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

double yawOf(const runtime::Transform& t) { return 2 * std::atan2(double(t.rotation.y), double(t.rotation.w)); }
double distance(const runtime::Vec3& a, const runtime::Vec3& b) { return std::hypot(a.x - b.x, a.y - b.y, a.z - b.z); }

}  // namespace

class TestRootMotion : public QObject {
  Q_OBJECT

 private slots:
  void settingsRoundTrip() {
    const CompressionSettings s =
        settingsOf(R"({"root_motion":"extract","clips":{"Run*":{"root_motion":"keep","root_joint":"Pelvis"}}})");
    QCOMPARE(s.rootMotion, std::optional(RootMotionMode::Extract));
    auto again = CompressionSettings::fromJson(s.toJson(), "again.json");
    QVERIFY(again.hasValue());
    QVERIFY(*again == s);
    Skeleton sk;
    sk.names = {"Pelvis"};
    sk.parents = {-1};
    sk.restLocal = {Transform{}};
    const EffectiveSettings walk = resolve(s, sk, "Walk"), run = resolve(s, sk, "Run_Fast");
    QCOMPARE(walk.rootMotion, RootMotionMode::Extract);
    QVERIFY(walk.rootJoint.empty());
    QCOMPARE(run.rootMotion, RootMotionMode::Keep);
    QCOMPARE(run.rootJoint, std::string("Pelvis"));
    QVERIFY(walk.hash() != run.hash());
    // The default keeps the settings hash packs had before the setting existed.
    QCOMPARE(resolve(settingsOf(R"({"root_motion":"keep"})"), sk, "Walk").hash(), resolve({}, sk, "Walk").hash());
  }

  void badSettingsNameKeyAndValue_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("mode") << R"({"root_motion":"sideways"})"
                          << "key 'root_motion': expected \"keep\" or \"extract\", got \"sideways\"";
    QTest::newRow("mode type") << R"({"root_motion":true})"
                               << "key 'root_motion'";
    QTest::newRow("clip mode") << R"({"clips":{"Walk":{"root_motion":"on"}}})"
                               << "key 'clips.Walk.root_motion'";
    QTest::newRow("joint number") << R"({"root_joint":3})"
                                  << "key 'root_joint': expected a joint name or null, got 3";
    QTest::newRow("joint empty") << R"({"clips":{"Walk":{"root_joint":""}}})"
                                 << "key 'clips.Walk.root_joint'";
    QTest::newRow("typo") << R"({"root_motoin":"extract"})"
                          << "did you mean 'root_motion'";
  }
  void badSettingsNameKeyAndValue() {
    QFETCH(QString, json);
    QFETCH(QString, expected);
    auto s = CompressionSettings::fromJson(json.toStdString(), "bad.json");
    QVERIFY(!s.hasValue());
    QVERIFY2(QString::fromStdString(s.message()).contains(expected), s.message().c_str());
    QVERIFY(QString::fromStdString(s.message()).startsWith("bad.json: "));
  }

  void unknownRootJointIsAClearError() {
    const ImportedAsset a = test::importOrFail(test::writeScene(test::walkerRig(90), "walker_bad.gltf"));
    auto r = compress(a, 0, R"({"root_motion":"extract","root_joint":"Pelvis"})");
    QVERIFY(!r.hasValue());
    QVERIFY2(QString::fromStdString(r.message()).contains("key 'root_joint': the skeleton has no joint named 'Pelvis'"),
             r.message().c_str());
    // Kept, the name is not looked at.
    QVERIFY(compress(a, 0, R"({"root_joint":"Pelvis"})").hasValue());
  }

  void walkerKnownDistanceAndTurn() {
    const auto file = test::writeScene(test::walkerRig(90), "walker.gltf");
    const ImportedAsset a = test::importOrFail(file);
    const CompressedClip c = compressOrFail(a, 0, R"({"root_motion":"extract","loop":false})");
    const RootMotionReport& m = c.stats.rootMotion;
    QVERIFY(m.extracted);
    QCOMPARE(a.skeleton.names[m.joint], std::string("Hips"));  // the first joint that translates
    QVERIFY2(std::fabs(m.distanceCm - test::walkerStride() * 100) < 1e-3, std::to_string(m.distanceCm).c_str());
    QVERIFY2(std::fabs(m.turnDeg - 90) < 1e-3, std::to_string(m.turnDeg).c_str());
    QVERIFY(c.stats.withinPrecision);
    const runtime::ClipView view = openView(c, a);
    QVERIFY(view.rootMotion());
    QVERIFY(view.flags() & runtime::kClipFlagRootMotion);
    QCOMPARE(int(view.rootMotion()->upAxis), 1);
    // In place, the joint keeps its height and tilt: no ground motion, no turn, the bob stays.
    runtime::Player player;
    std::vector<runtime::Transform> first(view.jointCount()), pose(view.jointCount());
    player.sampleFrame(view, 0.f, first);
    float lowest = 1e9f, highest = -1e9f;
    for (std::uint32_t f = 0; f < view.frameCount(); ++f) {
      player.sampleFrame(view, float(f), pose);
      const runtime::Transform& hips = pose[m.joint];
      QVERIFY(std::fabs(hips.translation.x - first[m.joint].translation.x) < 1e-4f);
      QVERIFY(std::fabs(hips.translation.z - first[m.joint].translation.z) < 1e-4f);
      QVERIFY(std::fabs(yawOf(hips) - yawOf(first[m.joint])) < 1e-3);
      lowest = std::min(lowest, hips.translation.y);
      highest = std::max(highest, hips.translation.y);
    }
    QVERIFY(highest - lowest > 0.03f);
    // The motion of the whole clip is the stride along +X and the turn.
    const runtime::Transform whole = runtime::rootMotion(view, 0.f, view.duration());
    QVERIFY(std::fabs(whole.translation.x - test::walkerStride()) < 1e-5f);
    QVERIFY(std::fabs(whole.translation.z) < 1e-5f);
    QVERIFY(std::fabs(yawOf(whole) - 3.14159265358979 / 2) < 1e-5);
    // Folded back, within precision of the source at frames and at 8 instants per interval.
    const double error = sourceError(file, a, c, 8);
    QVERIFY2(error <= 0.01 * 1.001, std::to_string(error).c_str());
  }

  void loopsForwardBackwardAndFractions() {
    const ImportedAsset a = test::importOrFail(test::writeScene(test::walkerRig(0), "walker_straight.gltf"));
    const CompressedClip c = compressOrFail(a, 0, R"({"root_motion":"extract","loop":true})");
    const runtime::ClipView view = openView(c, a);
    QVERIFY(view.loops() && view.wraps());
    const float cycle = view.cycleFrames() / view.sampleRate();
    const runtime::Transform one = runtime::rootMotion(view, 0.f, cycle);
    QVERIFY(std::fabs(one.translation.x - test::walkerStride()) <
            1e-5f);  // a closed cycle in place: its last frame dropped
    for (int k = 1; k <= 12; ++k) {
      const runtime::Transform many = runtime::rootMotion(view, 0.f, float(k) * cycle);
      QVERIFY2(std::fabs(many.translation.x - float(k) * one.translation.x) < 1e-5f * float(k),
               std::to_string(k).c_str());
      QVERIFY(std::fabs(many.translation.z) < 1e-5f && std::fabs(many.rotation.y) < 1e-6f);
      // From any start, k cycles later: k cycles' motion.
      const runtime::Transform later = runtime::rootMotion(view, 0.37f * cycle, (0.37f + float(k)) * cycle);
      QVERIFY(std::fabs(later.translation.x - float(k) * one.translation.x) < 1e-4f * float(k));
    }
    // Backward: the inverse, also across loop ends.
    const runtime::Transform back = runtime::rootMotion(view, 2.5f * cycle, 0.5f * cycle);
    QVERIFY(std::fabs(back.translation.x + 2 * one.translation.x) < 1e-4f);
    const runtime::Transform negative = runtime::rootMotion(view, 0.f, -cycle);
    QVERIFY(std::fabs(negative.translation.x + one.translation.x) < 1e-5f);
    // Fractions: the constant-speed walker is halfway at half a cycle, and pieces add up.
    const runtime::Transform half = runtime::rootMotion(view, 0.f, 0.5f * cycle);
    QVERIFY(std::fabs(half.translation.x - 0.5f * one.translation.x) < 1e-4f);
    const float t0 = 0.3f, t1 = 1.9f, t2 = 3.05f;
    const float sum = runtime::rootMotion(view, t0, t1).translation.x + runtime::rootMotion(view, t1, t2).translation.x;
    QVERIFY(std::fabs(sum - runtime::rootMotion(view, t0, t2).translation.x) < 1e-4f);
  }

  void foldBetweenFramesReusesItsScratch() {
    // The fold between frames decodes both neighbouring frames into the caller's scratch: after the
    // first call it holds the skeleton and later calls reuse it (no reallocation), with the pose the
    // same as with a fresh scratch.
    const ImportedAsset a = test::importOrFail(test::writeScene(test::walkerRig(90), "walker_scratch.gltf"));
    const CompressedClip c = compressOrFail(a, 0, R"({"root_motion":"extract","loop":true})");
    const runtime::ClipView view = openView(c, a);
    runtime::Player player;
    runtime::RootMotionScratch scratch;
    std::vector<runtime::Transform> pose(view.jointCount()), fresh(view.jointCount());
    player.sample(view, 0.31f, pose);
    runtime::applyRootMotion(player, view, 0.31f, a.skeleton.parents, pose, scratch);
    QCOMPARE(scratch.a.size(), std::size_t(view.jointCount()));
    const runtime::Transform* kept[2] = {scratch.a.data(), scratch.b.data()};
    const std::size_t capacity = scratch.chain.capacity();
    for (float t = 0.05f; t < 3.f * view.duration(); t += 0.173f) {
      player.sample(view, t, pose);
      runtime::applyRootMotion(player, view, t, a.skeleton.parents, pose, scratch);
      QVERIFY(scratch.a.data() == kept[0] && scratch.b.data() == kept[1] && scratch.chain.capacity() == capacity);
      runtime::Player other;
      runtime::RootMotionScratch once;
      other.sample(view, t, fresh);
      runtime::applyRootMotion(other, view, t, a.skeleton.parents, fresh, once);
      QVERIFY(std::memcmp(pose.data(), fresh.data(), pose.size() * sizeof(runtime::Transform)) == 0);
    }
  }

  void turningCyclesCompose() {
    const ImportedAsset a = test::importOrFail(test::writeScene(test::walkerRig(30), "walker_turn.gltf"));
    const CompressedClip c = compressOrFail(a, 0, R"({"root_motion":"extract","loop":true})");
    const runtime::ClipView view = openView(c, a);
    const float cycle = view.cycleFrames() / view.sampleRate();
    const double turn = yawOf(runtime::rootMotion(view, 0.f, cycle));
    // Three cycles: three turns, and the cycle's motion applied three times over.
    const runtime::Transform three = runtime::rootMotion(view, 0.f, 3 * cycle);
    QVERIFY(std::fabs(yawOf(three) - 3 * turn) < 1e-5);
    runtime::GroundMotion m;
    const runtime::Transform one = runtime::rootMotion(view, 0.f, cycle);
    m.t[0] = one.translation.x;
    m.t[2] = one.translation.z;
    m.yaw = turn;
    const runtime::Transform expected = runtime::toTransform(runtime::power(m, 3));
    QVERIFY(distance(three.translation, expected.translation) < 1e-5);
    // A clip that does not loop clamps: nothing beyond its end.
    const CompressedClip once = compressOrFail(a, 0, R"({"root_motion":"extract","loop":false})");
    const runtime::ClipView onceView = openView(once, a);
    QVERIFY(distance(runtime::rootMotion(onceView, 0.f, 100.f).translation,
                     runtime::rootMotion(onceView, 0.f, onceView.duration()).translation) < 1e-6);
  }

  void bvhMocapWithinPrecision() {
    const auto file = test::model("BVH/01_01.bvh");
    const ImportedAsset a = test::importOrFail(file);
    const CompressedClip c = compressOrFail(a, 0, R"({"root_motion":"extract"})");
    QCOMPARE(a.skeleton.names[c.stats.rootMotion.joint], std::string("Hips"));
    QVERIFY2(c.stats.withinPrecision, std::to_string(c.stats.maxErrorCm).c_str());
    QVERIFY(c.stats.rootMotion.distanceCm > 10);  // the subject walks off
    QVERIFY(c.stats.rootMotion.withinPrecision);
    QVERIFY(std::fabs(c.stats.rootMotion.drift10CyclesCm - c.stats.rootMotion.sourceDrift10CyclesCm) <= 10 * 0.01f);
    const double error = sourceError(file, a, c, 2);
    QVERIFY2(error <= 0.01 * 1.001, std::to_string(error).c_str());
  }

  void decodeFoldsBackByDefault() {
    const ImportedAsset a = test::importOrFail(test::writeScene(test::walkerRig(90), "walker_decode.gltf"));
    const CompressedClip c = compressOrFail(a, 0, R"({"root_motion":"extract","loop":false})");
    const PackClipRecord record = clipRecord(c, "walker_decode.gltf", a.sourceHash);
    const std::vector<std::uint8_t> bytes = buildPack(skeletonRecord(a.skeleton, a.unitToCm), std::span(&record, 1));
    auto pack = runtime::Pack::open(bytes);
    QVERIFY2(pack.hasValue(), pack ? "" : pack.message().c_str());
    const runtime::PackClip& clip = pack->clips()[0];
    auto lastHipsX = [&](bool fold, qsizetype* joints) {
      const QJsonObject doc = jsonObject(decodedClipJson(*pack, clip, std::nullopt, fold));
      *joints = doc["joints"].toArray().size();
      const QJsonArray frames = doc["frames"].toArray();
      return frames.last().toArray()[qsizetype(c.stats.rootMotion.joint)].toArray()[0].toDouble();
    };
    qsizetype foldedJoints = 0, inPlaceJoints = 0;
    const double folded = lastHipsX(true, &foldedJoints), inPlace = lastHipsX(false, &inPlaceJoints);
    QCOMPARE(foldedJoints, qsizetype(a.skeleton.jointCount()));  // never an extra joint
    QCOMPARE(inPlaceJoints, qsizetype(a.skeleton.jointCount()));
    const runtime::Transform source = a.clips[0].at(c.stats.rootMotion.joint, a.clips[0].frameCount - 1);
    QVERIFY(std::fabs(folded - source.translation.x) < 1e-4);
    QVERIFY(std::fabs(folded - test::walkerStride()) < 1e-4);
    QVERIFY(std::fabs(inPlace) < 1e-4);
  }

  void verifyJudgesTheFoldedPose_data() {
    QTest::addColumn<QString>("settings");
    QTest::addColumn<bool>("openCycle");  // the in-place cycle does not close: the clip wraps
    QTest::newRow("once") << R"({"root_motion":"extract","loop":false})" << false;
    QTest::newRow("closed cycle") << R"({"root_motion":"extract"})" << false;
    QTest::newRow("wrap") << R"({"root_motion":"extract","loop":true,"clips":{"*":{"root_joint":"Hips"}}})" << true;
  }
  void verifyJudgesTheFoldedPose() {
    QFETCH(QString, settings);
    QFETCH(bool, openCycle);
    // Without its last key the walker's in-place cycle stops one frame short of closing.
    test::GltfScene scene = test::walkerRig(60, 31);
    if (openCycle)
      for (auto& ch : scene.animations[0].channels) {
        ch.values.pop_back();
        ch.times.pop_back();
      }
    const auto file = test::writeScene(scene, "walker_verify.gltf");
    const ImportedAsset a = test::importOrFail(file);
    const CompressedClip c = compressOrFail(a, 0, settings.toStdString().c_str());
    QVERIFY(c.stats.withinPrecision);
    QCOMPARE(c.wrap, openCycle || c.droppedLastFrame);
    const PackClipRecord record = clipRecord(c, "walker_verify.gltf", a.sourceHash);
    const std::vector<std::uint8_t> bytes = buildPack(skeletonRecord(a.skeleton, a.unitToCm), std::span(&record, 1));
    auto pack = runtime::Pack::open(bytes);
    QVERIFY(pack.hasValue());
    auto sources = matchSources(*pack, {file});
    QVERIFY2(sources, sources ? "" : sources.message().c_str());
    const auto verified = verifyPack(*pack, *sources);
    QVERIFY2(verified[0].withinPrecision(), std::to_string(verified[0].maxErrorCm).c_str());
    const double error = sourceError(file, a, c, 4);
    QVERIFY2(error <= 0.01 * 1.001, std::to_string(error).c_str());
  }

  void reportFieldsAndDriftGate() {
    const ImportedAsset a = test::importOrFail(test::writeScene(test::walkerRig(45), "walker_report.gltf"));
    const CompressedClip c = compressOrFail(a, 0, R"({"root_motion":"extract","loop":true})");
    const ClipReport row = makeClipReport(c, a.skeleton, "walker_report.gltf", 0);
    QVERIFY(row.rootMotion);
    const QJsonObject m = jsonObject(clipReportToJson(row))["root_motion"].toObject();
    QCOMPARE(m["joint"].toString(), QString("Hips"));
    for (const char* key : {"distance_cm", "turn_deg", "drift_10_cycles_cm", "source_drift_10_cycles_cm"})
      QVERIFY(m[key].isDouble());
    QVERIFY(std::fabs(m["turn_deg"].toDouble() - 45) < 1e-3);
    auto back = clipReportFromJson(clipReportToJson(row));
    QVERIFY(back.hasValue() && back->rootMotion && back->rootMotion->turnDeg == row.rootMotion->turnDeg);
    QVERIFY(reportCsv({row}).find(",\"Hips\",") != std::string::npos);
    const CompressedClip kept = compressOrFail(a, 0, R"({"loop":true})");
    QVERIFY(jsonObject(clipReportToJson(makeClipReport(kept, a.skeleton, "w", 0)))["root_motion"].isNull());
    // The gate: a cycle 2 mm off along x puts ten cycles well over 10 x 0.01 cm off.
    std::vector<std::uint8_t> tampered = c.data;
    const std::size_t cycleX = tampered.size() - runtime::rootMotionSectionSize(c.frameCount) + 20;
    const float x = runtime::loadLE<float>(tampered.data() + cycleX) + 0.002f;
    runtime::storeLE(tampered.data() + cycleX, x);
    auto view = runtime::ClipView::open(tampered, a.skeleton.restLocal);
    QVERIFY(view.hasValue());
    RawClip inPlace;
    const RootMotionTrack track = extractRootMotion(a.skeleton, a.clips[0], c.stats.rootMotion.joint, 1, inPlace);
    const GroundMotion cycle = cycleMotion(track, c.frameCount, c.wrap, c.droppedLastFrame);
    QVERIFY(measureRootMotion(track, cycle, openView(c, a), a.unitToCm, 0.01f).withinPrecision);
    const RootMotionReport bad = measureRootMotion(track, cycle, *view, a.unitToCm, 0.01f);
    QVERIFY(!bad.withinPrecision);
    QVERIFY(bad.driftErrorCm > 0.3f);  // 45 degrees a cycle: the ten 0.2 cm offsets turn with it (0.37 cm)
  }
};

QTEST_GUILESS_MAIN(TestRootMotion)
#include "tst_root_motion.moc"
