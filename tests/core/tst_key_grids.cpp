// Clips whose keys sit off one clean grid (docs/IMPORT.md "What gets imported"): times drifting by an
// exporter's rounding are snapped to their grid, channels on grids of their own share the finest
// grid that holds them all, and keys no grid under 120 Hz holds keep their own times (timed tracks). Each case is
// compressed at the defaults and checked by the independent source check at four instants a frame; bytes are compared
// with the same motion keyed on one regular grid.
#include <QTest>

#include "core/compress/clip_sizes.h"
#include "core/compress/clip_writer.h"
#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/io/asset_json.h"
#include "core/anim/source_clip.h"
#include "core/runtime/player.h"
#include "core/runtime/timed.h"
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
  std::uint32_t timedTracks = 0;
  std::string inspect;
};

Measured measure(const test::GltfScene& scene, const std::string& name) {
  const auto path = test::writeScene(scene, name);
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
  m.timedTracks = view->timedCount();
  std::vector<float> shells;
  for (const auto& j : settings.joints) shells.push_back(j.shellCm);
  const test::SourceCheck check = test::checkAgainstSource(path, asset, 0, *view, shells, 4);
  if (!check.error.empty()) qFatal("%s", check.error.c_str());
  m.checkCm = check.maxCm;
  qInfo("%-9s grid %-9s %.4f Hz  %5llu B  source check %.5f cm (%s)  reported %s", name.c_str(), keyGridName(m.grid),
        m.rate, (unsigned long long)m.bytes, m.checkCm, check.worstJoint.c_str(), m.reportedWithin ? "within" : "over");
  return m;
}

Measured measure(test::KeyTiming timing, const std::string& name) { return measure(test::keyTimingRig(timing), name); }

std::size_t keyCount(const test::GltfScene& scene) {
  std::size_t keys = 0;
  for (const test::GltfAnimation& a : scene.animations)
    for (const test::GltfChannel& c : a.channels) keys += c.times.size();
  return keys;
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
  /// sampled at the most-keyed channel's 30 Hz with the 24 Hz channel timed (packed timed keys cost
  /// less than the 120 Hz grid: 955 bytes there), within precision and at most 1.5 x the bytes of
  /// the same motion on one grid.
  void mixedGridsShareTheirFinestCommonGrid() {
    const Measured m = measure(test::KeyTiming::Mixed, "mixed.gltf");
    QCOMPARE(m.grid, KeyGridKind::Mixed);
    QVERIFY(m.inspect.find("\"grid\": \"mixed\"") != std::string::npos);
    QVERIFY(std::fabs(m.rate - 30.0) < 1e-3);
    QVERIFY(m.timedTracks >= 1);
    QVERIFY2(m.checkCm <= 0.01 * 1.001, qPrintable(QString::number(m.checkCm)));
    QVERIFY(m.reportedWithin);
    QVERIFY2(double(m.bytes) <= 1.5 * double(m_regular.bytes),
             qPrintable(QString("%1 vs %2").arg(m.bytes).arg(m_regular.bytes)));
    qInfo("mixed: %.2f x the bytes of regular keys", double(m.bytes) / double(m_regular.bytes));
  }

  /// Channels on grids no one grid holds (30 and 10 Hz, and 24 Hz a third of a step later): the clip
  /// is sampled on its most-keyed channel's grid (30 Hz) and the channel keyed between its frames
  /// keeps its own key times (a timed track, format version 7), so the clip follows the source
  /// between its keys within precision, by the compressor's measure and the independent one.
  void mixedGridsApartKeepTheirKeyTimes() {
    const Measured m = measure(test::KeyTiming::MixedApart, "mixed_apart.gltf");
    QCOMPARE(m.grid, KeyGridKind::Mixed);
    QVERIFY(std::fabs(m.rate - 30.0) < 1e-3);
    QVERIFY2(m.checkCm <= 0.01 * 1.001, qPrintable(QString::number(m.checkCm)));
    QVERIFY(m.reportedWithin);
    QVERIFY2(m.timedTracks >= 1, qPrintable(QString::number(m.timedTracks)));
    // 15,073 bytes and over precision when it was resampled at 120 Hz (docs/PERFORMANCE.md "Key grids").
    QVERIFY2(double(m.bytes) <= 2.0 * double(m_regular.bytes),
             qPrintable(QString("%1 vs %2").arg(m.bytes).arg(m_regular.bytes)));
    qInfo("mixed apart: %.2f x the bytes of regular keys", double(m.bytes) / double(m_regular.bytes));
  }

  /// Every channel keyed at its own irregular times, the tip turning 170 degrees between two keys:
  /// every animated track keeps its keys' times.
  void irregularKeysKeepTheirTimes() {
    const Measured m = measure(test::KeyTiming::Irregular, "irregular.gltf");
    QCOMPARE(m.grid, KeyGridKind::Irregular);
    QVERIFY(m.inspect.find("\"grid\": \"irregular\"") != std::string::npos);
    QVERIFY2(m.checkCm <= 0.01 * 1.001, qPrintable(QString::number(m.checkCm)));
    QVERIFY(m.reportedWithin);
    QCOMPARE(m.timedTracks, 4u);
    // Packed timed keys (format version 10): at most 1.5 x the same motion on one grid (issue 46's target).
    QVERIFY2(double(m.bytes) <= 1.5 * double(m_regular.bytes),
             qPrintable(QString("%1 vs %2").arg(m.bytes).arg(m_regular.bytes)));
    qInfo("irregular: %.2f x the bytes of regular keys", double(m.bytes) / double(m_regular.bytes));
  }

  /// A walking biped (17 joints) keyed on one grid, with every channel at times of its own, and
  /// thinned by an exporter's key reduction: within precision by the independent source check; the
  /// own times keep their keys' times, the thinned keys stay on their 30 Hz grid (the bytes against
  /// the one-grid motion and ACL's are scripts/bench-key-grids's table, docs/PERFORMANCE.md "Key grids");
  /// the own times cost at most 1.5 x the one-grid motion.
  void aBipedOnItsOwnTimesAndThinned() {
    const test::GltfScene grid = test::bipedRig(test::BipedKeys::Grid);
    const Measured onGrid = measure(grid, "biped_grid.gltf");
    QCOMPARE(onGrid.grid, KeyGridKind::Regular);
    QCOMPARE(onGrid.rate, 30.0);
    QVERIFY2(onGrid.checkCm <= 0.01 * 1.001, qPrintable(QString::number(onGrid.checkCm)));

    const Measured own = measure(test::bipedRig(test::BipedKeys::OwnTimes), "biped_own_times.gltf");
    QCOMPARE(own.grid, KeyGridKind::Irregular);
    QVERIFY2(own.checkCm <= 0.01 * 1.001, qPrintable(QString::number(own.checkCm)));
    QVERIFY(own.reportedWithin);
    QVERIFY(own.timedTracks > 0);
    QVERIFY2(double(own.bytes) <= 1.5 * double(onGrid.bytes),
             qPrintable(QString("%1 vs %2").arg(own.bytes).arg(onGrid.bytes)));

    const test::GltfScene thinnedScene = test::bipedRig(test::BipedKeys::Thinned);
    QVERIFY(keyCount(thinnedScene) < keyCount(grid) / 2);
    QVERIFY(test::meanKeyRate(thinnedScene) < 15 && test::meanKeyRate(grid) == 30);
    const Measured thinned = measure(thinnedScene, "biped_thinned.gltf");
    QCOMPARE(thinned.grid, KeyGridKind::Regular);
    QVERIFY2(thinned.checkCm <= 0.01 * 1.001, qPrintable(QString::number(thinned.checkCm)));
    QVERIFY(thinned.reportedWithin);
    qInfo("biped: own times %.2f x, thinned %.2f x the bytes of one grid", double(own.bytes) / double(onGrid.bytes),
          double(thinned.bytes) / double(onGrid.bytes));
  }

  /// Root motion taken out of the root: the joints below it keep their timed tracks (the root's own
  /// tracks become the in-place clip, resampled on the grid).
  void rootMotionKeepsTheTimedTracksBelowTheRoot() {
    const auto path = test::writeScene(test::keyTimingRig(test::KeyTiming::Irregular), "irregular_motion.gltf");
    const ImportedAsset asset = test::importOrFail(path);
    const RawClip& raw = asset.clips.at(0);
    CompressionSettings settings;
    settings.rootMotion = RootMotionMode::Extract;
    auto compressed = makeCompressJob(asset, raw, resolve(settings, asset.skeleton, raw.name)).run();
    QVERIFY2(compressed, compressed ? "" : compressed.message().c_str());
    auto view = runtime::ClipView::open(compressed->data, asset.skeleton.restLocal);
    QVERIFY2(view, view ? "" : view.message().c_str());
    QVERIFY(view->rootMotion());
    QCOMPARE(view->timedCount(), 3u);
    QCOMPARE(view->kind(0, runtime::Channel::Translation) == runtime::TrackKind::Timed, false);
  }

  /// A timed track between frames is the source's line between its keys, through the pack's reader
  /// and a player's cache alike: sampled at every source key time and halfway between keys.
  void timedTracksDecodeAtTheirKeyTimes() {
    const auto path = test::writeScene(test::keyTimingRig(test::KeyTiming::Irregular), "irregular_keys.gltf");
    const ImportedAsset asset = test::importOrFail(path);
    const RawClip& raw = asset.clips.at(0);
    auto compressed = makeCompressJob(asset, raw, resolve({}, asset.skeleton, raw.name)).run();
    QVERIFY2(compressed, compressed ? "" : compressed.message().c_str());
    auto view = runtime::ClipView::open(compressed->data, asset.skeleton.restLocal);
    QVERIFY2(view, view ? "" : view.message().c_str());
    QVERIFY(view->timedCount() > 0);
    QVERIFY((view->flags() & runtime::kClipFlagTimed) != 0);
    const std::vector<double> keys = raw.source->keyFramePositions();
    const std::uint32_t joints = asset.skeleton.jointCount();
    runtime::Player player;
    std::vector<Transform> pose(joints);
    std::vector<Mat34d> source(joints), decoded(joints);
    // The shell metric by hand: points 3 cm (0.03 units) from each joint along its axes, in object space.
    const double shell = 3.0 / asset.unitToCm;
    double worstCm = 0;
    std::size_t instants = 0;
    for (std::size_t k = 0; k + 1 < keys.size(); ++k)
      for (const double at : {keys[k], 0.5 * (keys[k] + keys[k + 1])}) {
        if (at > double(raw.frameCount - 1)) continue;
        ++instants;
        player.sampleFrame(*view, float(at), pose);
        raw.source->objectMatrices(asset.skeleton.parents, at, source);
        for (std::uint32_t j = 0; j < joints; ++j) {
          const Mat34d local = Mat34d::fromTransform(pose[j]);
          const std::int32_t p = asset.skeleton.parents[j];
          decoded[j] = p < 0 ? local : decoded[std::size_t(p)] * local;
          for (int axis = -1; axis < 3; ++axis) {
            double d2 = 0;
            for (int r = 0; r < 3; ++r) {
              const double lin = axis < 0 ? 0 : (decoded[j].at(r, axis) - source[j].at(r, axis)) * shell;
              const double d = lin + decoded[j].at(r, 3) - source[j].at(r, 3);
              d2 += d * d;
            }
            worstCm = std::max(worstCm, std::sqrt(d2) * asset.unitToCm);
          }
        }
      }
    QVERIFY(instants > 100);
    QVERIFY2(worstCm <= 0.01 * 1.001, qPrintable(QString::number(worstCm)));
  }

  /// Packed timed keys (format version 10) decode, through a clip's bytes, to exactly what the
  /// compressor measured at every frame, and stay within the tolerance at every source key: a
  /// rotation spinning a full turn (through w = 0: four components), one of a small range (three
  /// components), a translation; keys 0.6-1.4 frames apart. A value range no 24-bit width holds at
  /// the tolerance falls back to 48-bit or float32 keys.
  void packedKeysDecodeAsTheCompressorMeasuredThem() {
    const std::uint32_t frames = 41;
    struct Case {
      Channel channel;
      double turn;  // radians over the clip (rotations) or units (translation)
      unsigned components;
    };
    for (const Case c :
         {Case{Channel::Rotation, 6.2, 4}, Case{Channel::Rotation, 0.7, 3}, Case{Channel::Translation, 3.0, 3}}) {
      TimedSource source;
      std::uint32_t step = 0;
      for (double at = 0;; at = std::min(at + 0.6 + 0.8 * ((step++ * 7919) % 100) / 100.0, double(frames - 1))) {
        const double x = c.turn * at / (frames - 1) + 0.05 * std::sin(at);
        source.frames.push_back(at);
        source.values.push_back(c.channel == Channel::Rotation
                                    ? Sample{0.f, float(std::sin(x / 2)), 0.f, float(std::cos(x / 2))}
                                    : Sample{float(x), float(0.5 * x), 0.f, 0.f});
        if (at == double(frames - 1)) break;
      }
      std::vector<Sample> samples(frames);
      for (std::uint32_t f = 0; f < frames; ++f) {
        std::size_t k = 0;
        while (k + 2 < source.frames.size() && source.frames[k + 1] <= f) ++k;
        const double u = (f - source.frames[k]) / (source.frames[k + 1] - source.frames[k]);
        samples[f] = timedValue(c.channel, source.values[k], source.values[k + 1], float(std::min(u, 1.0)));
      }
      const double tolerance = 1e-4;
      const auto e = encodeTimed({c.channel, samples, Sample{0, 0, 0, 1}, tolerance}, source);
      QVERIFY(e);
      QCOMPARE(e->keyed.timedFormat, runtime::kTimedPacked);
      QCOMPARE(unsigned(e->keyed.components), c.components);
      QVERIFY2(e->maxError <= tolerance, qPrintable(QString::number(e->maxError)));
      std::vector<TrackEncoding> tracks(3);
      tracks[std::size_t(c.channel)] = *e;
      const ClipLayout layout{frames, 30.f, false, false, false, 16, 30, tracks};
      const std::vector<std::uint8_t> bytes = writeClip(layout);
      const std::vector<Transform> rest(1);
      auto view = runtime::ClipView::open(bytes, rest);
      QVERIFY2(view, view ? "" : view.message().c_str());
      QVERIFY(view->timedPacked());
      runtime::TimedTracks timed(*view);
      runtime::TimedTrack t;
      QVERIFY(timed.next(t));
      QCOMPARE(t.keyCount, std::uint32_t(e->keyed.packed.size()));
      std::vector<Transform> pose(1);
      for (std::uint32_t f = 0; f < frames; ++f) {
        runtime::decodeTimed(*view, double(f), -1.f, 1, pose.data());
        const Sample got = sampleOf(pose[0], c.channel);
        for (int k = 0; k < (c.channel == Channel::Rotation ? 4 : 3); ++k) QCOMPARE(got[k], e->decoded[f][k]);
      }
      for (std::size_t k = 0; k < source.frames.size(); ++k) {
        runtime::decodeTimed(*view, source.frames[k], -1.f, 1, pose.data());
        const double d = sampleDistance(c.channel, sampleOf(pose[0], c.channel), source.values[k]);
        QVERIFY2(d <= tolerance, qPrintable(QString("key %1: %2").arg(k).arg(d)));
      }
    }
    // 100 units of range at a 1e-6 tolerance: more than 24 bits a component.
    TimedSource wide{{0.0, 0.5, 2.0}, {Sample{0, 0, 0, 0}, Sample{100, 0, 0, 0}, Sample{-3, 2, 1, 0}}};
    std::vector<Sample> samples{wide.values[0], Sample{-3, 2, 1, 0}, wide.values[2]};
    const auto e = encodeTimed({Channel::Translation, samples, Sample{}, 1e-6}, wide);
    QVERIFY(e);
    QVERIFY(e->keyed.timedFormat != runtime::kTimedPacked);
  }
};

QTEST_GUILESS_MAIN(TestKeyGrids)
#include "tst_key_grids.moc"
