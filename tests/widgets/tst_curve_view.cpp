// The curve view: one original point per frame of the clip, and the fitted keys it marks are exactly
// the frames the compressed clip stores for that track; the error curve and the error map include
// the error between frames.

#include <QTest>
#include <qcustomplot.h>

#include "tests/widgets/fixture.h"
#include "widgets/curve_view.h"
#include "core/compress/decoded_clip.h"
#include "widgets/error_map.h"

using namespace animpack;
using namespace animpack::widgets;

class TstCurveView : public QObject {
  Q_OBJECT
 private slots:
  void pointsAndKeysMatchTheClip() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    CurveView view(&doc, &rc);
    view.resize(900, 400);
    QVERIFY(doc.open(test::rigPath("curves.gltf", 90)));
    QCOMPARE(view.originalPointCount(), 0);  // nothing selected: a hint, no curves
    const int spine = test::joint(doc, "Spine");
    doc.setSelectedJoints({spine});
    QCOMPARE(view.originalPointCount(), 90);
    QVERIFY(test::waitForResult(rc, 0));
    QVERIFY(QTest::qWaitFor([&] { return !view.markedKeyFrames().empty(); }, 5000));
    QCOMPARE(view.originalPointCount(), 90);

    const auto result = rc.result(0);
    const core::DecodedClip decoded(result->asset, result->compressed);
    QVERIFY(decoded.valid());
    const std::vector<int> kept = decoded.keptFrames(spine, 0);
    QCOMPARE(view.markedKeyFrames(), kept);
    QVERIFY(kept.size() < 90u);  // a smooth curve keeps fewer keys than frames
    QCOMPARE(kept.front(), 0);
    QCOMPARE(kept.back(), 89);
    QVERIFY(std::is_sorted(kept.begin(), kept.end()));

    // The marked keys sit on the compressed curve.
    QCPGraph* compressed = nullptr;
    for (int g = 0; g < view.plot()->graphCount(); ++g)
      if (view.plot()->graph(g)->name() == "Spine.x compressed") compressed = view.plot()->graph(g);
    QVERIFY(compressed);
    QCOMPARE(compressed->dataCount(), 90);
    for (int f : kept) {
      const core::Transform& t = decoded.frame(std::uint32_t(f))[std::size_t(spine)];
      const float sign =
          runtime::dot(t.rotation, doc.asset()->clips[0].at(std::uint32_t(spine), std::uint32_t(f)).rotation) < 0 ? -1.f
                                                                                                                  : 1.f;
      QCOMPARE(float(compressed->data()->at(f)->value), sign * t.rotation.x);
    }
    QVERIFY(!view.grab().isNull());
  }

  void channelsFollowTheView() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    CurveView view(&doc, &rc);
    QVERIFY(doc.open(test::rigPath("curves.gltf", 90)));
    const int hips = test::joint(doc, "Hips");
    doc.setSelectedJoints({hips});
    QVERIFY(test::waitForResult(rc, 0));
    QVERIFY(QTest::qWaitFor([&] { return !view.markedKeyFrames().empty(); }, 5000));
    view.setChannelView(CurveView::ChannelView::Translation);
    const auto result = rc.result(0);
    const core::DecodedClip decoded(result->asset, result->compressed);
    QCOMPARE(view.markedKeyFrames(), decoded.keptFrames(hips, 1));
    QCOMPARE(view.originalPointCount(), 90);
    view.setChannelView(CurveView::ChannelView::Euler);
    QCOMPARE(view.markedKeyFrames(), decoded.keptFrames(hips, 0));
  }

  void errorMapHoldsEveryJointAndFrame() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    ErrorMap map(&doc, &rc);
    QVERIFY(doc.open(test::rigPath("curves.gltf", 90)));
    QVERIFY(test::waitForResult(rc, 0));
    const auto& stats = rc.result(0)->compressed->stats;
    const std::size_t joints = doc.asset()->skeleton.jointCount();
    QVERIFY(QTest::qWaitFor([&] { return map.ratioAt(0, 0) >= 0; }, 5000));
    // A cell holds the largest error at its frame and up to the next frame.
    QCOMPARE(stats.betweenErrors.size(), joints * 89);
    for (std::size_t j = 0; j < joints; ++j)
      for (std::size_t f = 0; f < 90; f += 7) {
        const float between = f < 89 ? stats.betweenErrors[f * joints + j] : 0.f;
        QCOMPARE(float(map.ratioAt(int(j), int(f))),
                 std::max(stats.errors[f * joints + j], between) / stats.joints[j].precisionCm);
      }
  }

  void theErrorCurveIncludesBetweenFrames() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    CurveView view(&doc, &rc);
    QVERIFY(doc.open(test::rigPath("curves.gltf", 90)));
    const int spine = test::joint(doc, "Spine");
    doc.setSelectedJoints({spine});
    QVERIFY(test::waitForResult(rc, 0));
    QCPGraph* error = nullptr;
    QVERIFY(QTest::qWaitFor(
        [&] {
          for (int g = 0; g < view.plot()->graphCount(); ++g)
            if (view.plot()->graph(g)->name() == "Spine error") error = view.plot()->graph(g);
          return error != nullptr;
        },
        5000));
    const auto& stats = rc.result(0)->compressed->stats;
    const std::size_t joints = doc.asset()->skeleton.jointCount();
    QCOMPARE(error->dataCount(), 2 * 90 - 1);  // every frame and every interval between two
    for (int f = 0; f < 89; ++f) {
      QCOMPARE(error->data()->at(2 * f)->key, double(f));
      QCOMPARE(float(error->data()->at(2 * f)->value), stats.errors[std::size_t(f) * joints + std::size_t(spine)]);
      QCOMPARE(error->data()->at(2 * f + 1)->key, f + 0.5);
      QCOMPARE(float(error->data()->at(2 * f + 1)->value),
               stats.betweenErrors[std::size_t(f) * joints + std::size_t(spine)]);
    }
  }
};

QTEST_MAIN(TstCurveView)
#include "tst_curve_view.moc"
