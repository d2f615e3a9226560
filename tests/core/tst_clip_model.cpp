// What the studio reads of a compressed clip without knowing the pack layout: its sizes, its
// decoded frames and kept keys (core/compress/decoded_clip.h), and the precision sweep.
#include <QtTest>

#include "core/compress/clip_sizes.h"
#include "core/compress/compress_setup.h"
#include "core/compress/decoded_clip.h"
#include "core/compress/error_table.h"
#include "core/compress/sweep.h"
#include "core/io/asset_importer.h"
#include "core/runtime/pack_format.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

std::shared_ptr<const ImportedAsset> wuson() {
  static std::shared_ptr<const ImportedAsset> asset = [] {
    auto a = importAsset(test::model("X/Testwuson.X"));
    if (!a) qFatal("%s", a.message().c_str());
    return std::make_shared<const ImportedAsset>(std::move(a.value()));
  }();
  return asset;
}

std::shared_ptr<const CompressedClip> compressed(const CompressionSettings& settings = {}) {
  const auto asset = wuson();
  const RawClip& raw = asset->clips[0];
  // As export sets it up: shells and the skin check from the file's skinned mesh.
  auto job = makeCompressJob(*asset, raw, resolve(settings, asset->skeleton, raw.name, asset->meshes, asset->unitToCm));
  auto c = job.run();
  if (!c) qFatal("%s", c.message().c_str());
  return std::make_shared<const CompressedClip>(std::move(c.value()));
}

}  // namespace

class TestClipModel : public QObject {
  Q_OBJECT
 private slots:
  void sizesAreTheStatsAndThePackEntry() {
    const auto c = compressed();
    const RawClip& raw = wuson()->clips[0];
    QCOMPARE(rawClipBytes(raw), std::uint64_t(c->stats.rawBytes));
    QCOMPARE(rawClipBytes(raw), std::uint64_t(40) * raw.jointCount * raw.frameCount);
    QCOMPARE(packedClipBytes(*c), std::uint64_t(c->data.size() + runtime::clipEntrySize(runtime::kPackVersion)));
  }

  void keptFramesAreSortedFramesOfTheClip() {
    const auto c = compressed();
    const DecodedClip decoded(wuson(), c);
    QVERIFY(decoded.valid());
    QCOMPARE(decoded.frameCount(), c->frameCount);
    int keyed = 0;
    for (int j = 0; j < int(decoded.jointCount()); ++j)
      for (int channel = 0; channel < 3; ++channel) {
        const std::vector<int> kept = decoded.keptFrames(j, channel);
        QVERIFY(std::is_sorted(kept.begin(), kept.end()));
        for (int f : kept) QVERIFY(f >= 0 && f < int(c->frameCount));
        if (!kept.empty()) {
          ++keyed;
          QCOMPARE(kept.front(), 0);                      // a kept track starts at the first frame...
          QCOMPARE(kept.back(), int(c->frameCount) - 1);  // ...and ends at the last
        }
      }
    QVERIFY(keyed > 0);
    QVERIFY(decoded.keptFrames(-1, 0).empty());
    QVERIFY(decoded.keptFrames(0, 3).empty());
    QCOMPARE(keyFrames(decoded.view(), 1, 0), decoded.keptFrames(1, 0));
  }

  void errorTablesAtFramesAndBetween() {
    CompressionStats s;  // 2 joints, 3 frames
    s.errors = {0.1f, 0.2f, /**/ 0.3f, 0.4f, /**/ 0.5f, 0.6f};
    s.betweenErrors = {0.7f, 0.1f, /**/ 0.2f, 0.9f};
    QCOMPARE(betweenErrorCm(s, 2, 0, 0), 0.7f);
    QCOMPARE(betweenErrorCm(s, 2, 1, 1), 0.9f);
    QCOMPARE(betweenErrorCm(s, 2, 2, 0), -1.f);   // no interval after the last frame
    QCOMPARE(intervalErrorCm(s, 2, 0, 0), 0.7f);  // the interval beats the frame
    QCOMPARE(intervalErrorCm(s, 2, 0, 1), 0.2f);  // the frame beats the interval
    QCOMPARE(intervalErrorCm(s, 2, 2, 1), 0.6f);
    QCOMPARE(errorAtCm(s, 2, 1.0, 0), 0.3f);
    QCOMPARE(errorAtCm(s, 2, 1.0004, 0), 0.3f);  // a frame, to rounding
    QCOMPARE(errorAtCm(s, 2, 1.5, 1), 0.9f);
    QCOMPARE(errorAtCm(s, 2, 7.0, 1), 0.6f);  // past the end: the last frame
    s.betweenErrors.clear();                  // without between-frame errors: the larger neighbour
    QCOMPARE(errorAtCm(s, 2, 0.5, 0), 0.3f);
  }

  void theSweepCostsMoreBytesForTighterPrecision() {
    CompressionSettings base;
    base.precisionCm = 0.02f;
    const auto precisions = sweepPrecisions(0.02f);
    QCOMPARE(precisions.size(), std::size_t(7));
    QCOMPARE(precisions[2], 0.02f);
    QVERIFY(std::is_sorted(precisions.begin(), precisions.end()));
    const std::vector<SweepPoint> points = precisionSweep(*wuson(), wuson()->clips[0], wuson()->clips[0].name, base);
    QCOMPARE(points.size(), precisions.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      QCOMPARE(points[i].precisionCm, double(precisions[i]));
      QVERIFY(points[i].maxErrorCm <= points[i].precisionCm * 1.001);
    }
    QVERIFY(points.back().bytes < points.front().bytes);  // 64 times looser costs fewer bytes
    QCOMPARE(points[2].bytes, packedClipBytes(*compressed(base)));
    std::atomic<bool> cancel{true};
    QVERIFY(precisionSweep(*wuson(), wuson()->clips[0], wuson()->clips[0].name, base, {}, &cancel).empty());
  }
};

QTEST_MAIN(TestClipModel)
#include "tst_clip_model.moc"
