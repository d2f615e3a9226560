// The poses the viewport shows: the original sampled at the document's time, the compressed clip
// played at the same (fractional) time through the runtime, error ratios, and the blend preview.

#include <QSignalSpy>
#include <QTest>

#include "core/anim/raw_sampler.h"
#include "core/compress/decoded_clip.h"
#include "core/runtime/loop.h"
#include "core/runtime/player.h"
#include "tests/support/test_rigs.h"
#include "tests/widgets/fixture.h"
#include "widgets/document/pose_preview.h"

using namespace animpack;
using namespace animpack::widgets;

class TstPosePreview : public QObject {
  Q_OBJECT
 private slots:
  void posesFollowTimeAndResult() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    PosePreview preview(&doc, &rc);
    QVERIFY(preview.original().empty());
    QVERIFY(doc.open(test::rigPath()));
    const std::size_t n = doc.asset()->skeleton.jointCount();
    QCOMPARE(preview.original().size(), n);
    QVERIFY(preview.compressed().empty());  // nothing compressed yet
    QVERIFY(test::waitForResult(rc, 0));
    QCOMPARE(preview.compressed().size(), n);
    QCOMPARE(preview.errorRatios().size(), n);

    // Halfway between frames 3 and 4: both poses at that very time, not at a frame.
    QSignalSpy changed(&preview, &PosePreview::changed);
    const auto& raw = doc.asset()->clips[0];
    const double t = 3.5 / raw.sampleRate;
    doc.setCurrentTime(t);
    QCOMPARE(changed.count(), 1);
    std::vector<core::Transform> original(n), compressed(n), atFrame(n);
    core::RawSampler::sample(raw, t, original);
    auto view = runtime::ClipView::open(rc.result(0)->compressed->data, doc.asset()->skeleton.restLocal);
    QVERIFY(view);
    runtime::Player player;
    player.sample(*view, float(t), compressed);
    player.sampleFrame(*view, 3.f, atFrame);
    bool between = false;
    for (std::size_t j = 0; j < n; ++j) {
      QCOMPARE(preview.original()[j].rotation.x, original[j].rotation.x);
      QCOMPARE(preview.compressed()[j].rotation.x, compressed[j].rotation.x);
      QCOMPARE(preview.compressed()[j].translation.y, compressed[j].translation.y);
      if (std::fabs(compressed[j].rotation.x - atFrame[j].rotation.x) > 1e-5f) between = true;
    }
    QVERIFY2(between, "the ghost moves between frames instead of holding frame 3");
  }

  void aClipWithMorphCurvesShowsItsGhost() {
    // A clip block with curves opens only with the curves' rest weights: without them the ghost
    // stayed in the rest pose (the viewport read hundreds of cm of "vertex error").
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    PosePreview preview(&doc, &rc);
    QVERIFY(doc.open(QString::fromStdString(test::writeScene(test::faceRig(), "face_preview.gltf").string())));
    QVERIFY(!doc.asset()->curves.empty());
    QVERIFY(test::waitForResult(rc, 0));
    const std::size_t n = doc.asset()->skeleton.jointCount();
    QCOMPARE(preview.compressed().size(), n);
    const auto& raw = doc.asset()->clips[0];
    doc.setCurrentTime(2.5 / raw.sampleRate);
    std::vector<core::Transform> original(n);
    core::RawSampler::sample(raw, 2.5 / raw.sampleRate, original);
    for (std::size_t j = 0; j < n; ++j)
      QVERIFY2(std::fabs(preview.compressed()[j].rotation.x - original[j].rotation.x) < 1e-3f,
               qPrintable(QString::number(j)));
    const core::DecodedClip decoded(doc.asset(), rc.result(0)->compressed);
    QVERIFY(decoded.valid());
    // The weights the viewport morphs the meshes by: the source's, and the compressed clip's within
    // each target's precision (its weight error times its largest displacement).
    const auto& curves = doc.asset()->curves;
    QCOMPARE(preview.originalWeights().size(), curves.size());
    QCOMPARE(preview.compressedWeights().size(), curves.size());
    std::vector<float> weights(curves.size());
    decoded.weights(2.5, weights);
    bool moving = false;
    for (std::size_t c = 0; c < curves.size(); ++c) {
      const double source = core::sourceWeight(raw, std::uint32_t(c), curves[c].restWeight, 2.5 / raw.sampleRate);
      QCOMPARE(preview.originalWeights()[c], float(source));
      QVERIFY(std::fabs(preview.compressedWeights()[c] - weights[c]) < 1e-6f);
      QVERIFY(std::fabs(weights[c] - source) * curves[c].displacementCm <= 0.01 * 1.0001);
      moving = moving || source != curves[c].restWeight;
    }
    QVERIFY(moving);
  }

  void rootMotionFoldedOrInPlace() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    PosePreview preview(&doc, &rc);
    QVERIFY(doc.open(QString::fromStdString(test::writeScene(test::walkerRig(90), "walker_preview.gltf").string())));
    QVERIFY(test::waitForResult(rc, 0));
    QVERIFY(preview.rootTrajectory().empty());  // kept: no root-motion track
    const int undoBefore = doc.undoStack()->count();
    doc.setRootMotion(core::RootMotionMode::Extract);
    QCOMPARE(doc.undoStack()->count(), undoBefore + 1);
    QCOMPARE(doc.effectiveSettings(0).rootMotion, core::RootMotionMode::Extract);
    QVERIFY(test::waitForResult(rc, 0));
    const int hips = test::joint(doc, "Hips");
    const auto& raw = doc.asset()->clips[0];
    doc.setCurrentTime(raw.duration());
    // Folded back, the ghost walks with the original; in place, both stay at the start.
    QVERIFY(std::fabs(preview.compressed()[std::size_t(hips)].translation.x - test::walkerStride()) < 1e-3f);
    QVERIFY(std::fabs(preview.original()[std::size_t(hips)].translation.x - test::walkerStride()) < 1e-3f);
    QVERIFY(preview.rootTrajectory().size() > 2);
    QVERIFY(std::fabs(preview.rootTrajectory().back().x - test::walkerStride()) < 1e-3f);
    preview.setInPlace(true);
    QVERIFY(std::fabs(preview.compressed()[std::size_t(hips)].translation.x) < 1e-3f);
    QVERIFY(std::fabs(preview.original()[std::size_t(hips)].translation.x) < 1e-3f);
    // The setting is an undo step like any other.
    doc.undoStack()->undo();
    QCOMPARE(doc.effectiveSettings(0).rootMotion, core::RootMotionMode::Keep);
    QVERIFY(test::waitForResult(rc, 0));
    QVERIFY(QTest::qWaitFor([&] { return preview.rootTrajectory().empty(); }, 5000));
  }

  void wrapIntervalAgreesWithTheRuntime() {
    // A clip whose last frame does not repeat its first, made to loop: it wraps, and between its
    // last frame and the next cycle's first both poses interpolate to frame 0.
    auto settings = core::CompressionSettings::fromJson(R"({"loop": true})", "loop.json");
    QVERIFY(settings);
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    PosePreview preview(&doc, &rc);
    QVERIFY(doc.open(test::rigPath("open_loop.gltf", 31), *settings));
    QVERIFY(test::waitForResult(rc, 0));
    const core::CompressedClip& c = *rc.result(0)->compressed;
    QVERIFY(c.wrap && !c.droppedLastFrame);
    const auto& raw = doc.asset()->clips[0];
    const std::uint32_t last = raw.frameCount - 1;
    doc.setCurrentTime((last + 0.5) / raw.sampleRate);
    const std::size_t n = doc.asset()->skeleton.jointCount();
    QCOMPARE(preview.original().size(), n);
    QCOMPARE(preview.compressed().size(), n);
    std::vector<core::Transform> expected(n);
    runtime::interpolatePoses(raw.frame(last), raw.frame(0), 0.5f, expected);
    float fromLast = 0, fromCompressed = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const auto& o = preview.original()[j];
      QVERIFY(std::fabs(o.rotation.x - expected[j].rotation.x) < 1e-6f &&
              std::fabs(o.translation.y - expected[j].translation.y) < 1e-5f);
      fromLast = std::max(fromLast, std::fabs(o.rotation.x - raw.frame(last)[j].rotation.x) +
                                        std::fabs(o.rotation.w - raw.frame(last)[j].rotation.w));
      fromCompressed = std::max(fromCompressed, std::fabs(o.rotation.x - preview.compressed()[j].rotation.x) +
                                                    std::fabs(o.rotation.w - preview.compressed()[j].rotation.w));
    }
    QVERIFY2(fromLast > 1e-3f, "the original holds its last frame in the wrap interval");
    QVERIFY2(fromCompressed < fromLast / 10,
             qPrintable(QString("original vs compressed %1, vs last frame %2").arg(fromCompressed).arg(fromLast)));
  }

  void blendPreviewOnlyWhenAsked() {
    ClipDocument doc;
    Recompressor rc(&doc);
    PosePreview preview(&doc, &rc);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(preview.blendNaive().empty());
    BlendSetup blend;
    blend.enabled = true;
    blend.clipA = 0;
    blend.clipB = 1;
    blend.crossfade = true;
    blend.crossfadeS = 0.5;
    QCOMPARE(blend.weightAt(0.25), 0.5f);
    QCOMPARE(blend.weightAt(2.0), 1.f);
    preview.setBlend(blend);
    QCOMPARE(preview.blendNaive().size(), doc.asset()->skeleton.jointCount());
    QCOMPARE(preview.blendDecomposed().size(), doc.asset()->skeleton.jointCount());
    blend.clipB = 7;  // no such clip: nothing to blend
    preview.setBlend(blend);
    QVERIFY(preview.blendNaive().empty());
  }
};

QTEST_MAIN(TstPosePreview)
#include "tst_pose_preview.moc"
