// Looping clips (docs/SETTINGS.md `loop`, core/runtime/FORMAT.md "Loops"): the loop policy, the wrap
// interval from the last frame to the first, the repeated last frame dropped only when verification
// (wrap interval included) stays within precision, the seam in the report, and the clip flags.
#include <QtTest>

#include <cstring>

#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/compress/report.h"
#include "core/io/asset_importer.h"
#include "core/io/decoded_json.h"
#include "core/io/pack_verify.h"
#include "core/io/pack_writer.h"
#include "core/runtime/loop.h"
#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"
#include "core/runtime/player.h"
#include "tests/support/source_check.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

ImportedAsset load(const std::filesystem::path& path) { return test::importOrFail(path); }

CompressionSettings loopSettings(const char* json) {
  auto s = CompressionSettings::fromJson(json, "test.json");
  if (!s) qFatal("%s", s.message().c_str());
  return std::move(s.value());
}

CompressedClip compress(const ImportedAsset& a, std::size_t clip, const CompressionSettings& settings) {
  auto r = makeCompressJob(a, a.clips[clip], resolve(settings, a.skeleton, a.clips[clip].name)).run();
  if (!r) qFatal("%s", r.message().c_str());
  return std::move(r.value());
}

/// The armature rig whose last frame repeats its first (a closed cycle), as a file.
std::filesystem::path closedRigFile() {
  test::GltfScene scene = test::armatureRig(100.f, 31, 30.f);
  for (auto& ch : scene.animations[0].channels) ch.values.back() = ch.values.front();
  return test::writeScene(scene, "closed_loop.gltf");
}
ImportedAsset closedRig() { return load(closedRigFile()); }

bool identical(const std::vector<runtime::Transform>& a, const std::vector<runtime::Transform>& b) {
  return std::memcmp(a.data(), b.data(), a.size() * sizeof(runtime::Transform)) == 0;
}

/// The independent double-precision check at `subSteps` instants per frame interval (cm).
double sourceError(const std::filesystem::path& file, const ImportedAsset& a, std::size_t clip,
                   const CompressedClip& c) {
  auto view = runtime::ClipView::open(c.data, a.skeleton.restLocal);
  if (!view) qFatal("%s", view.message().c_str());
  std::vector<float> shells;
  for (const EffectiveJoint& j : c.settings.joints) shells.push_back(j.shellCm);
  const test::SourceCheck check = test::checkAgainstSource(file, a, std::uint32_t(clip), *view, shells, 4);
  if (!check.error.empty()) qFatal("%s", check.error.c_str());
  return check.maxCm;
}

}  // namespace

class TestLoops : public QObject {
  Q_OBJECT

 private slots:
  void settingsParseAndResolve() {
    const ImportedAsset a = closedRig();
    const auto s = loopSettings(R"({"loop": false, "clips": {"Walk": {"loop": true}, "Idle*": {"loop": "auto"}}})");
    QCOMPARE(resolve(s, a.skeleton, "Walk").loop, LoopPolicy::On);
    QCOMPARE(resolve(s, a.skeleton, "Idle_2").loop, LoopPolicy::Auto);
    QCOMPARE(resolve(s, a.skeleton, "Run").loop, LoopPolicy::Off);
    QCOMPARE(resolve({}, a.skeleton, "Run").loop, LoopPolicy::Auto);
    QVERIFY(resolve(s, a.skeleton, "Walk").hash() != resolve({}, a.skeleton, "Walk").hash());
    // Round trip through JSON.
    QCOMPARE(CompressionSettings::fromJson(s.toJson(), "again.json").value(), s);
    auto bad = CompressionSettings::fromJson(R"({"clips": {"Walk": {"loop": "yes"}}})", "bad.json");
    QVERIFY(!bad);
    QVERIFY2(QString::fromStdString(bad.message())
                 .contains("bad.json: key 'clips.Walk.loop': expected \"auto\", true or false"),
             bad.message().c_str());
  }

  void closedClipDropsItsRepeatedLastFrame() {
    const auto file = closedRigFile();
    const ImportedAsset a = load(file);
    const CompressedClip c = compress(a, 0, {});  // auto
    QVERIFY(c.loop);
    QVERIFY(c.wrap);
    QVERIFY(c.droppedLastFrame);
    QCOMPARE(c.frameCount, a.clips[0].frameCount - 1);
    QVERIFY2(c.stats.withinPrecision, qPrintable(QString::number(c.stats.maxErrorCm)));
    QVERIFY(c.stats.seamErrorCm >= 0.f && c.stats.seamErrorCm <= 0.01f);
    // The tables stay on the source's frames.
    QCOMPARE(c.stats.errors.size(), std::size_t(a.clips[0].frameCount) * a.skeleton.jointCount());
    // Independent of the metric: the source read again, at and between frames (the wrap interval
    // is the source's last interval), against the decoded clip.
    const double independent = sourceError(file, a, 0, c);
    QVERIFY2(independent <= 0.01 * 1.001, qPrintable(QString::number(independent)));
    // Wrapping: the dropped frame decodes as frame 0, sampling one cycle later gives the same pose.
    auto view = runtime::ClipView::open(c.data, a.skeleton.restLocal);
    QVERIFY(view);
    QVERIFY(view->wraps());
    QCOMPARE(view->cycleFrames(), float(c.frameCount));
    runtime::Player player;
    std::vector<runtime::Transform> x(a.skeleton.jointCount()), y(x.size());
    player.sampleFrame(*view, 0.f, x);
    player.sampleFrame(*view, float(c.frameCount), y);
    QVERIFY(identical(x, y));
    player.sample(*view, 0.3f, x);
    player.sample(*view, 0.3f + view->cycleFrames() / view->sampleRate(), y);
    float worst = 0;
    for (std::size_t j = 0; j < x.size(); ++j)
      worst = std::max(worst, runtime::length(x[j].translation - y[j].translation));
    QVERIFY2(worst < 1e-4f, qPrintable(QString::number(worst)));
  }

  void openClipWithLoopTrueWrapsThroughTheInterval() {
    const ImportedAsset a = load(test::writeScene(test::armatureRig(100.f, 31, 30.f), "open_loop.gltf"));
    QVERIFY(!compress(a, 0, {}).loop);  // auto: the last frame does not repeat the first
    const CompressedClip c = compress(a, 0, loopSettings(R"({"loop": true})"));
    QVERIFY(c.loop && c.wrap && !c.droppedLastFrame);
    QCOMPARE(c.frameCount, a.clips[0].frameCount);
    QVERIFY2(c.stats.withinPrecision, qPrintable(QString::number(c.stats.maxErrorCm)));
    QVERIFY(c.stats.seamErrorCm > 0.01f);  // the step the wrap interval interpolates across
    auto view = runtime::ClipView::open(c.data, a.skeleton.restLocal);
    QVERIFY(view);
    QCOMPARE(view->cycleFrames(), float(c.frameCount));
    // Between the last frame and the first: their interpolation, as between any two frames.
    runtime::Player player;
    const std::size_t n = a.skeleton.jointCount();
    std::vector<runtime::Transform> last(n), first(n), mid(n), expected(n);
    const float lastFrame = float(c.frameCount - 1);
    player.sampleFrame(*view, lastFrame, last);
    player.sampleFrame(*view, 0.f, first);
    player.sampleFrame(*view, lastFrame + 0.25f, mid);
    runtime::interpolatePoses(last, first, 0.25f, expected);
    QVERIFY(identical(mid, expected));
    // The report carries the seam; a clip that does not loop has null.
    const ClipReport r = makeClipReport(c, a.skeleton, "open_loop.gltf", c.data.size());
    QVERIFY(clipReportToJson(r).find("\"seam_error_cm\":") != std::string::npos);
    QVERIFY(clipReportToJson(makeClipReport(compress(a, 0, {}), a.skeleton, "open_loop.gltf", 1))
                .find("\"seam_error_cm\":null") != std::string::npos);
    const auto back = clipReportFromJson(clipReportToJson(r));
    QVERIFY(back);
    QCOMPARE(back->seamErrorCm, c.stats.seamErrorCm);
  }

  void loopFalseNeverLoops() {
    const ImportedAsset a = closedRig();
    const CompressedClip c = compress(a, 0, loopSettings(R"({"loop": false})"));
    QVERIFY(!c.loop && !c.wrap && !c.droppedLastFrame);
    QCOMPARE(c.frameCount, a.clips[0].frameCount);
    QCOMPARE(c.stats.seamErrorCm, -1.f);
  }

  void testwusonClipsLoop() {
    // Real clips: every clip of Testwuson.X with loop true stays within precision against the
    // source read independently, wherever it wraps or drops its last frame.
    const auto file = test::model("X/Testwuson.X");
    const ImportedAsset a = load(file);
    QVERIFY(!a.clips.empty());
    for (std::size_t i = 0; i < a.clips.size(); ++i) {
      const CompressedClip c = compress(a, i, loopSettings(R"({"loop": true})"));
      QCOMPARE(c.loop, a.clips[i].frameCount >= 2);  // a one-frame clip (a pose) has nothing to loop
      QVERIFY2(c.stats.withinPrecision,
               qPrintable(QString("%1: %2 cm").arg(QString::fromStdString(c.name)).arg(c.stats.maxErrorCm)));
      const double independent = sourceError(file, a, i, c);
      QVERIFY2(independent <= 0.01 * 1.001,
               qPrintable(QString("%1: %2 cm").arg(QString::fromStdString(c.name)).arg(independent)));
      qInfo("%s: %u frames, seam %.4f cm, %s", c.name.c_str(), c.frameCount, double(c.stats.seamErrorCm),
            !c.loop              ? "does not loop"
            : c.droppedLastFrame ? "last frame dropped"
            : c.wrap             ? "wraps"
                                 : "repeats its first frame");
    }
  }

  void packKeepsTheLoopLayoutAndRefusesBadFlags() {
    const auto file = closedRigFile();
    const ImportedAsset a = load(file);
    const CompressedClip c = compress(a, 0, {});
    const std::vector<PackClipRecord> records{clipRecord(c, "closed_loop.gltf", 0)};
    const auto bytes = buildPack(skeletonRecord(a.skeleton, a.unitToCm), records);
    auto pack = runtime::Pack::open(bytes);
    QVERIFY2(pack, pack ? "" : pack.message().c_str());
    QCOMPARE(pack->version(), runtime::kPackVersion);  // packs are written in the newest version
    const runtime::PackClip& pc = pack->clips()[0];
    QVERIFY(pc.view.wraps() && pc.view.droppedLastFrame());
    QCOMPARE(pc.view.sourceFrameCount(), a.clips[0].frameCount);
    // decode writes the source's frames (the dropped one through the wrap); verify judges the pack
    // against the source with the wrap interval.
    QVERIFY(decodedClipJson(*pack, pc).find("\"frame_count\":" + std::to_string(a.clips[0].frameCount) + ",") !=
            std::string::npos);
    auto sources = matchSources(*pack, {file});
    QVERIFY2(sources, sources ? "" : sources.message().c_str());
    const auto verified = verifyPack(*pack, *sources);
    QVERIFY2(verified[0].withinPrecision(),
             qPrintable(QString::fromStdString(verified[0].problem) + " " + QString::number(verified[0].maxErrorCm)));
    QCOMPARE(pack->clips()[0].additiveBase(), runtime::kAdditiveNone);
    // A wrap flag without the loop flag, a timed flag without timed tracks and unknown flags are
    // refused (bit 5 means curves since format version 6, bit 6 timed tracks since 7: bit 7 is unknown).
    for (std::uint16_t flags :
         {std::uint16_t(runtime::kClipFlagWrap), std::uint16_t(runtime::kClipFlagLoop | runtime::kClipFlagDroppedLast),
          std::uint16_t(64), std::uint16_t(128)}) {
      std::vector<std::uint8_t> blob = c.data;
      runtime::storeLE(blob.data() + runtime::ClipHeaderLayout::flags, flags);
      auto view = runtime::ClipView::open(blob, a.skeleton.restLocal);
      QVERIFY(!view);
      QVERIFY2(QString::fromStdString(view.message()).contains("flag"), view.message().c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestLoops)
#include "tst_loops.moc"
