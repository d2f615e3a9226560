// The visual error figure (viewport/vertex_error, viewport/error_ramp): displacements in cm on real
// skinned meshes posed by core's skinning code, tight vs loose, size mismatches, and the colour ramp
// and legend scale steps. No GL.
#include <QtTest>
#include <cmath>

#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/runtime/player.h"
#include "core/runtime/pose_ops.h"
#include "tests/support/test_rigs.h"
#include "viewport/error_ramp.h"
#include "viewport/vertex_error.h"

using namespace animpack;
using namespace animpack::viewport;

namespace {

/// Skinned positions of mesh 0 of `a` at local pose `local`, through core's pose operations.
std::vector<core::Vec3> skin(const core::ImportedAsset& a, std::span<const core::Transform> local) {
  const core::Skeleton& s = a.skeleton;
  std::vector<core::Mat34> object(s.jointCount()), palette(s.jointCount());
  runtime::localToObject<float>(s.parents, local, object);
  runtime::skinMatrices(object, s.inverseBind, palette);
  const core::SkinnedMesh& mesh = a.meshes[0];
  std::vector<core::Vec3> out(mesh.vertexCount());
  runtime::skinVertices(palette, mesh.positions, {}, mesh.influences, out, {});
  return out;
}

float maxDisplacementAtWorstFrame(const core::ImportedAsset& a, std::size_t clip, float precisionCm) {
  core::CompressionSettings settings;
  settings.precisionCm = precisionCm;
  auto job = core::makeCompressJob(a, a.clips[clip], core::resolve(settings, a.skeleton, a.clips[clip].name));
  auto c = job.run();
  if (!c) qFatal("%s", c.message().c_str());
  const auto worst = std::max_element(c->stats.errors.begin(), c->stats.errors.end()) - c->stats.errors.begin();
  const auto frame = static_cast<std::uint32_t>(std::size_t(worst) / a.skeleton.jointCount());
  auto view = runtime::ClipView::open(c->data, a.skeleton.restLocal);
  if (!view) qFatal("%s", view.message().c_str());
  std::vector<core::Transform> decoded(a.skeleton.jointCount());
  runtime::Player().sampleFrame(*view, float(frame), decoded);
  const std::vector<core::Vec3> original = skin(a, a.clips[clip].frame(frame)), compressed = skin(a, decoded);
  std::vector<float> cm(original.size());
  return vertexDisplacementsCm(original, compressed, a.unitToCm, cm);
}

}  // namespace

class TestVertexError : public QObject {
  Q_OBJECT
 private slots:
  void displacementIsTheDistanceInCentimetres() {
    const std::vector<core::Vec3> a{{0, 0, 0}, {1, 2, 3}, {5, 5, 5}};
    const std::vector<core::Vec3> b{{0, 0, 0}, {1, 2, 3.5f}, {8, 9, 5}};
    std::vector<float> cm(3, -1.f);
    QCOMPARE(vertexDisplacementsCm(a, b, 100.0, cm), 500.f);  // metres -> cm
    QCOMPARE(cm[0], 0.f);
    QCOMPARE(cm[1], 50.f);
    QCOMPARE(cm[2], 500.f);
  }

  void sizeMismatchMeasuresTheCommonPrefix() {
    const std::vector<core::Vec3> a{{0, 0, 0}, {1, 0, 0}}, b{{0, 0, 1}};
    std::vector<float> cm(4, -1.f);
    QCOMPARE(vertexDisplacementsCm(a, b, 1.0, cm), 1.f);
    QCOMPARE(cm[1], -1.f);  // untouched
    QCOMPARE(vertexDisplacementsCm({}, b, 1.0, cm), 0.f);
    std::vector<Rgba> colors(1);
    displacementColors(cm, 1.f, colors);  // shorter output: no overrun
    QCOMPARE(colors[0], errorRampColor(1.f));
  }

  void identicalPosesHaveNoDisplacement() {
    const auto a = core::importAsset(test::model("X/Testwuson.X"));
    QVERIFY2(a, a ? "" : a.message().c_str());
    const std::vector<core::Vec3> p = skin(*a, a->clips[1].frame(7));
    std::vector<float> cm(p.size());
    QCOMPARE(vertexDisplacementsCm(p, p, a->unitToCm, cm), 0.f);
  }

  void realMeshTightVsLoose() {
    // The compressed pose at its worst frame: vertices move by a fraction of a centimetre at 5 cm
    // precision (the metric measures 3 cm shells, vertices sit elsewhere) and hardly at all at 0.001 cm.
    const auto a = core::importAsset(test::model("X/Testwuson.X"));
    QVERIFY(a);
    const float loose = maxDisplacementAtWorstFrame(*a, 1, 5.f);
    const float tight = maxDisplacementAtWorstFrame(*a, 1, 0.001f);
    qInfo("Testwuson walk, worst frame: %.4f cm at 5 cm precision, %.6f cm at 0.001 cm", double(loose), double(tight));
    QVERIFY2(loose > 0.2f, qPrintable(QString::number(double(loose))));
    QVERIFY2(tight < 0.01f, qPrintable(QString::number(double(tight))));
    QVERIFY(loose > 100.f * tight);
  }

  void rampRunsGreenYellowRed() {
    QCOMPARE(errorRampColor(0.f), (Rgba{0, 1, 0, 1}));
    QCOMPARE(errorRampColor(0.5f), (Rgba{1, 1, 0, 1}));
    QCOMPARE(errorRampColor(1.f), (Rgba{1, 0, 0, 1}));
    QCOMPARE(errorRampColor(7.f), (Rgba{1, 0, 0, 1}));  // beyond the limit stays red
    QCOMPARE(errorRampColor(-1.f), (Rgba{0, 1, 0, 1}));
    QCOMPARE(errorRampColor(std::nanf("")), (Rgba{0, 1, 0, 1}));
    const Rgba quarter = errorRampColor(0.25f);
    QCOMPARE(quarter[0], 0.5f);
    QCOMPARE(quarter[1], 1.f);
  }

  void coloursFollowTheScale() {
    const std::vector<float> cm{0.f, 0.5f, 1.f, 3.f};
    std::vector<Rgba> c(cm.size());
    displacementColors(cm, 1.f, c);
    QCOMPARE(c[1], errorRampColor(0.5f));
    QCOMPARE(c[2], errorRampColor(1.f));
    QCOMPARE(c[3], errorRampColor(1.f));
    displacementColors(cm, 0.f, c);  // no scale yet: everything green
    for (const Rgba& x : c) QCOMPARE(x, errorRampColor(0.f));
  }

  void legendScaleSteps_data() {
    QTest::addColumn<float>("value");
    QTest::addColumn<float>("nice");
    QTest::newRow("0.53") << 0.53f << 1.f;
    QTest::newRow("1") << 1.f << 1.f;
    QTest::newRow("1.2") << 1.2f << 2.f;
    QTest::newRow("3") << 3.f << 5.f;
    QTest::newRow("7") << 7.f << 10.f;
    QTest::newRow("0.2") << 0.2f << 0.2f;
    QTest::newRow("0.00018") << 0.00018f << 0.0002f;
    QTest::newRow("0") << 0.f << 0.f;
    QTest::newRow("negative") << -3.f << 0.f;
    QTest::newRow("inf") << std::numeric_limits<float>::infinity() << 0.f;
  }
  void legendScaleSteps() {
    QFETCH(float, value);
    QFETCH(float, nice);
    QVERIFY2(std::abs(niceCeiling(value) - nice) <= 1e-6f * std::max(1.f, nice),
             qPrintable(QString("%1 -> %2").arg(double(value)).arg(double(niceCeiling(value)))));
  }
};

QTEST_GUILESS_MAIN(TestVertexError)
#include "tst_vertex_error.moc"
