// Clips whose keys sit off one clean grid (docs/IMPORT.md "What gets imported"): times drifting by an
// exporter's rounding are snapped to their grid, channels on grids of their own and irregular keys
// are sampled on a grid chosen from them. Each case is compressed at the defaults and checked by the
// independent source check at four instants a frame; bytes are compared with the same motion keyed
// on one regular grid.
#include <QTest>

#include "core/compress/clip_sizes.h"
#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/io/asset_json.h"
#include "tests/support/source_check.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

struct Measured {
  KeyGridKind grid = KeyGridKind::Regular;
  double rate = 0, checkCm = 0;
  std::uint64_t bytes = 0;
  bool reportedWithin = false;
  std::string inspect;
};

Measured measure(test::KeyTiming timing, const std::string& name) {
  const auto path = test::writeScene(test::keyTimingRig(timing), name);
  // ANIMPACK_KEY_GRID_RIGS=DIR keeps the rigs for the CLI (docs/PERFORMANCE.md "Key grids").
  if (const QString keep = qEnvironmentVariable("ANIMPACK_KEY_GRID_RIGS"); !keep.isEmpty())
    std::filesystem::copy_file(path, std::filesystem::path(keep.toStdString()) / name,
                               std::filesystem::copy_options::overwrite_existing);
  const ImportedAsset asset = test::importOrFail(path);
  Measured m;
  const RawClip& raw = asset.clips.at(0);
  m.grid = raw.grid;
  m.rate = raw.sampleRate;
  m.inspect = inspectJson(asset);
  const EffectiveSettings settings = resolve({}, asset.skeleton, raw.name);
  auto compressed = makeCompressJob(asset, raw, settings).run();
  if (!compressed) qFatal("%s", compressed.message().c_str());
  m.bytes = packedClipBytes(*compressed);
  m.reportedWithin = compressed->stats.withinPrecision;
  auto view = runtime::ClipView::open(compressed->data, asset.skeleton.restLocal);
  if (!view) qFatal("%s", view.message().c_str());
  std::vector<float> shells;
  for (const auto& j : settings.joints) shells.push_back(j.shellCm);
  const test::SourceCheck check = test::checkAgainstSource(path, asset, 0, *view, shells, 4);
  if (!check.error.empty()) qFatal("%s", check.error.c_str());
  m.checkCm = check.maxCm;
  qInfo("%-9s grid %-9s %.4f Hz  %5llu B  source check %.5f cm (%s)  reported %s", name.c_str(), keyGridName(m.grid),
        m.rate, (unsigned long long)m.bytes, m.checkCm, check.worstJoint.c_str(), m.reportedWithin ? "within" : "over");
  return m;
}

}  // namespace

class TestKeyGrids : public QObject {
  Q_OBJECT
  Measured m_regular;

 private slots:
  void initTestCase() { m_regular = measure(test::KeyTiming::Regular, "regular.gltf"); }

  void regularKeysAreRegular() {
    QCOMPARE(m_regular.grid, KeyGridKind::Regular);
    QVERIFY(std::fabs(m_regular.rate - 30.0) < 1e-3);
    QVERIFY2(m_regular.checkCm <= 0.01 * 1.001, qPrintable(QString::number(m_regular.checkCm)));
    QVERIFY(m_regular.inspect.find("\"grid\": \"regular\"") != std::string::npos);
  }

  /// Drifting times are their grid's: within precision between the keys, no dearer than regular keys.
  void driftingKeysAreSnapped() {
    const Measured m = measure(test::KeyTiming::Drifting, "drifting.gltf");
    QCOMPARE(m.grid, KeyGridKind::Snapped);
    QVERIFY(m.inspect.find("\"grid\": \"snapped\"") != std::string::npos);
    QVERIFY(std::fabs(m.rate - 30.0) < 0.01);
    QVERIFY2(m.checkCm <= 0.01 * 1.001, qPrintable(QString::number(m.checkCm)));
    QVERIFY(m.reportedWithin);
    QVERIFY2(double(m.bytes) <= 1.2 * double(m_regular.bytes),
             qPrintable(QString("%1 vs %2").arg(m.bytes).arg(m_regular.bytes)));
  }

  /// Channels on grids of their own that one grid under 120 Hz holds (30, 10 and 24 Hz: 120 Hz):
  /// every key on a frame, so within precision; the finer grid costs bytes.
  void mixedGridsShareTheirFinestCommonGrid() {
    const Measured m = measure(test::KeyTiming::Mixed, "mixed.gltf");
    QCOMPARE(m.grid, KeyGridKind::Mixed);
    QVERIFY(m.inspect.find("\"grid\": \"mixed\"") != std::string::npos);
    QVERIFY(std::fabs(m.rate - 120.0) < 1e-3);
    QVERIFY2(m.checkCm <= 0.01 * 1.001, qPrintable(QString::number(m.checkCm)));
    QVERIFY(m.reportedWithin);
    qInfo("mixed: %.2f x the bytes of regular keys", double(m.bytes) / double(m_regular.bytes));
  }

  /// Channels on grids no one grid holds (30 and 10 Hz, and 24 Hz a third of a step later): each
  /// channel is regular, the clip is resampled at 120 Hz. The compressor measures against the
  /// source's own keys, so its report never claims a precision the independent check does not find.
  void mixedGridsApartAreResampled() {
    const Measured m = measure(test::KeyTiming::MixedApart, "mixed_apart.gltf");
    QCOMPARE(m.grid, KeyGridKind::Mixed);
    QVERIFY(std::fabs(m.rate - 120.0) < 1e-3);
    if (m.reportedWithin) QVERIFY2(m.checkCm <= 0.01 * 1.01, qPrintable(QString::number(m.checkCm)));
    qInfo("mixed apart: %.2f x the bytes of regular keys", double(m.bytes) / double(m_regular.bytes));
  }

  void irregularKeysAreResampled() {
    const Measured m = measure(test::KeyTiming::Irregular, "irregular.gltf");
    QCOMPARE(m.grid, KeyGridKind::Irregular);
    QVERIFY(m.inspect.find("\"grid\": \"irregular\"") != std::string::npos);
    if (m.reportedWithin) QVERIFY2(m.checkCm <= 0.01 * 1.01, qPrintable(QString::number(m.checkCm)));
    qInfo("irregular: %.2f x the bytes of regular keys", double(m.bytes) / double(m_regular.bytes));
  }
};

QTEST_GUILESS_MAIN(TestKeyGrids)
#include "tst_key_grids.moc"
