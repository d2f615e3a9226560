// Corpus run over long real clips (mocap): every joint and frame within precision, verified by an
// independent decode. Labelled slow: skipped in the sanitizer pass.
#include <QtTest>

#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/compress/error_metric.h"
#include "core/io/asset_importer.h"
#include "core/runtime/player.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

class TestCompressorCorpus : public QObject {
  Q_OBJECT
 private slots:
  void mocapWithinPrecision_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("01_01") << "BVH/01_01.bvh";
    QTest::newRow("Boxing_Toes") << "BVH/Boxing_Toes.bvh";
    QTest::newRow("CSM") << "CSM/ThomasFechten.csm";
    QTest::newRow("MotionCaptureROM") << "ASE/MotionCaptureROM.ase";
  }
  void mocapWithinPrecision() {
    QFETCH(QString, file);
    const auto a = importAsset(test::model(file.toStdString()));
    QVERIFY(a);
    const RawClip& raw = a->clips[0];
    const EffectiveSettings e = resolve({}, a->skeleton, raw.name);
    auto c = makeCompressJob(*a, raw, e).run();
    QVERIFY(c);
    auto view = runtime::ClipView::open(c->data, a->skeleton.restLocal);
    QVERIFY(view);
    std::vector<Transform> decoded(raw.samples.size());
    runtime::Player player;
    for (std::uint32_t f = 0; f < raw.frameCount; ++f)
      player.sampleFrame(*view, float(f), std::span(decoded.data() + std::size_t(f) * raw.jointCount, raw.jointCount));
    std::vector<float> shells(raw.jointCount, kDefaultShellCm);
    const auto errors = ErrorMetric(a->skeleton, raw, a->unitToCm, shells).measure(decoded);
    float worst = 0;
    for (float x : errors) worst = std::max(worst, x);
    QVERIFY2(worst <= kDefaultPrecisionCm, qPrintable(QString::number(worst)));
    QVERIFY(c->stats.withinPrecision);
    // Mocap keeps nearly every sample: the ratio lands near the peer's, not at key-reduction levels.
    QVERIFY(double(c->stats.rawBytes) / double(c->data.size()) > 8.0);
  }
};

QTEST_GUILESS_MAIN(TestCompressorCorpus)
#include "tst_compressor_corpus.moc"
