// The generated face (tests/support/test_rigs.h faceRig): its curves have the shapes faceWeight
// promises, and importing the written file gives every target's name, displacement and rest weight
// and, at every key of both clips, the weights faceWeight and faceIdleWeight evaluate.
#include <QtTest>

#include <algorithm>
#include <set>

#include "core/io/asset_importer.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;
using test::FaceCurveKind;

namespace {

const RawClip* clipNamed(const ImportedAsset& asset, const std::string& name) {
  for (const RawClip& c : asset.clips)
    if (c.name == name) return &c;
  return nullptr;
}

/// The keys of `target` at frames 0..frames-1 of Talk, as faceWeight gives them.
std::vector<double> talkKeys(int target, int frames, float rate) {
  std::vector<double> w;
  for (int f = 0; f < frames; ++f) w.push_back(test::faceWeight(target, f / double(rate), frames, rate));
  return w;
}

/// The runs of keys other than 0: (first frame, length).
std::vector<std::pair<int, int>> nonZeroRuns(const std::vector<double>& w) {
  std::vector<std::pair<int, int>> runs;
  for (int f = 0; f < int(w.size()); ++f)
    if (w[std::size_t(f)] != 0) {
      if (runs.empty() || runs.back().first + runs.back().second != f) runs.push_back({f, 0});
      ++runs.back().second;
    }
  return runs;
}

}  // namespace

class TestFaceRig : public QObject {
  Q_OBJECT
 private slots:
  void targetsAndCurveShapes() {
    const int frames = 180;
    const float rate = 30.f;
    QCOMPARE(test::faceTargetCount(), 52);
    std::set<std::string> names;
    int count[5] = {};
    for (int t = 0; t < test::faceTargetCount(); ++t) {
      const test::FaceTarget target = test::faceTarget(t);
      const QString what = QString::fromStdString(target.name);
      names.insert(target.name);
      ++count[int(target.kind)];
      QVERIFY2(target.displacementCm >= 0.2 && target.displacementCm <= 3.0, qPrintable(what));
      const std::vector<double> w = talkKeys(t, frames, rate);
      const auto [lo, hi] = std::minmax_element(w.begin(), w.end());
      const auto runs = nonZeroRuns(w);
      const auto zeros = std::count(w.begin(), w.end(), 0.0);
      switch (target.kind) {
        case FaceCurveKind::Smooth:
          QVERIFY2(*lo > 0 && *hi < 1 && *hi - *lo > 0.1, qPrintable(what));
          for (int f = 1; f < frames; ++f)
            QVERIFY2(std::fabs(w[std::size_t(f)] - w[std::size_t(f - 1)]) < 0.1, qPrintable(what));
          break;
        case FaceCurveKind::Blink:
          QVERIFY2(std::all_of(w.begin(), w.end(), [](double x) { return x == 0 || x == 1; }), qPrintable(what));
          QVERIFY2(runs.size() >= 3 && zeros > frames * 8 / 10, qPrintable(what));
          for (const auto& r : runs) QVERIFY2(r.second == 3 || r.second == 4, qPrintable(what));
          break;
        case FaceCurveKind::Bump:
          QVERIFY2(zeros > frames / 2 && *lo == 0 && *hi >= 0.3 && *hi <= 1.0, qPrintable(what));
          QVERIFY2(runs.size() == 1 || runs.size() == 2, qPrintable(what));
          for (const auto& r : runs) QVERIFY2(r.second >= 9 && r.second <= 19, qPrintable(what));
          break;
        case FaceCurveKind::Constant:
          QVERIFY2(*lo == *hi && *lo > 0 && *lo != double(target.restWeight), qPrintable(what));
          break;
        case FaceCurveKind::Rest: QVERIFY2(*lo == *hi && float(*lo) == target.restWeight, qPrintable(what)); break;
      }
    }
    QCOMPARE(names.size(), std::size_t(52));
    for (const char* n :
         {"eyeBlinkLeft", "eyeBlinkRight", "jawOpen", "mouthSmileLeft", "browInnerUp", "cheekPuff", "tongueOut"})
      QVERIFY2(names.count(n), n);
    QCOMPARE(count[int(FaceCurveKind::Smooth)], 10);
    QCOMPARE(count[int(FaceCurveKind::Blink)], 2);
    QVERIFY(count[int(FaceCurveKind::Bump)] >= 28);
    QVERIFY(count[int(FaceCurveKind::Constant)] >= 1);
    QVERIFY(count[int(FaceCurveKind::Rest)] >= 1);
  }

  void weightsBetweenKeysAreTheirLerp() {
    const int frames = 180;
    const float rate = 30.f;
    for (int t = 0; t < test::faceTargetCount(); ++t) {
      const std::vector<double> w = talkKeys(t, frames, rate);
      for (int f = 0; f + 1 < frames; ++f)
        QVERIFY(std::fabs(test::faceWeight(t, (f + 0.25) / rate, frames, rate) -
                          (0.75 * w[std::size_t(f)] + 0.25 * w[std::size_t(f + 1)])) < 1e-12);
      QCOMPARE(test::faceWeight(t, -1.0, frames, rate), w.front());  // held outside the keys
      QCOMPARE(test::faceWeight(t, 100.0, frames, rate), w.back());
    }
  }

  /// The capture mode: every curve keyed at every frame as faceCaptureWeight gives it; each curve's
  /// frame-to-frame noise (from second differences, which the slow drift barely moves: for white
  /// noise of deviation s they have deviation s x sqrt(6)) is at least its weight tolerance; the
  /// blinks rise by over half the range within a frame.
  void captureModeHasNoiseDriftAndBlinks() {
    const int frames = 300;
    const auto path = test::writeScene(test::faceCaptureRig(frames, 30.f), "capture.gltf");
    auto asset = importAsset(path);
    QVERIFY2(asset, asset ? "" : asset.message().c_str());
    QCOMPARE(asset->clips.size(), std::size_t(1));
    const RawClip& clip = asset->clips[0];
    QCOMPARE(clip.name, std::string("Capture"));
    QCOMPARE(clip.curves.size(), std::size_t(test::faceTargetCount()));
    int blinks = 0;
    for (int t = 0; t < test::faceTargetCount(); ++t) {
      const CurveKeys& k = clip.curves[std::size_t(t)];
      QCOMPARE(k.times.size(), std::size_t(frames));
      double sum = 0;
      for (int f = 0; f < frames; ++f) {
        QVERIFY(std::fabs(k.weights[std::size_t(f)] - test::faceCaptureWeight(t, f / 30.0, frames, 30.f)) < 1e-6);
        QVERIFY(k.weights[std::size_t(f)] >= 0 && k.weights[std::size_t(f)] <= 1);
        if (f > 0 && f + 1 < frames) {
          const double d2 =
              k.weights[std::size_t(f - 1)] - 2 * k.weights[std::size_t(f)] + k.weights[std::size_t(f + 1)];
          sum += d2 * d2;
        }
        if (f > 0 && k.weights[std::size_t(f)] - k.weights[std::size_t(f - 1)] > 0.5) ++blinks;
      }
      const double noise = std::sqrt(sum / (frames - 2) / 6);
      const test::FaceTarget target = test::faceTarget(t);
      if (target.kind != FaceCurveKind::Blink)
        QVERIFY2(noise >= test::faceCaptureTolerance(t), qPrintable(QString("%1: noise %2, tolerance %3")
                                                                        .arg(target.name.c_str())
                                                                        .arg(noise)
                                                                        .arg(test::faceCaptureTolerance(t))));
    }
    QVERIFY2(blinks >= 2 * 3, qPrintable(QString::number(blinks)));  // both eyes, every 3.2 s of 10 s
    QCOMPARE(test::faceCaptureTolerance(0), 0.01 / test::faceTarget(0).displacementCm);
  }

  void importMatchesTheGenerator_data() {
    QTest::addColumn<int>("frames");
    QTest::addColumn<float>("rate");
    QTest::newRow("180 at 30 Hz") << 180 << 30.f;
    QTest::newRow("61 at 24 Hz") << 61 << 24.f;
  }
  void importMatchesTheGenerator() {
    QFETCH(int, frames);
    QFETCH(float, rate);
    const auto path = test::writeScene(test::faceRig(frames, rate), "face_" + std::to_string(frames) + ".gltf");
    auto asset = importAsset(path);
    QVERIFY2(asset, asset ? "" : asset.message().c_str());
    for (const char* joint : {"Neck", "Head", "Jaw"}) QVERIFY2(asset->skeleton.find(joint) >= 0, joint);
    for (const Diagnostic& d : asset->diagnostics)  // nothing refused or doubtful
      QVERIFY2(d.severity == Diagnostic::Severity::Info, d.message.c_str());

    const int n = test::faceTargetCount();
    QCOMPARE(asset->curves.size(), std::size_t(n));
    for (int t = 0; t < n; ++t) {
      const MorphCurve& c = asset->curves[std::size_t(t)];
      const test::FaceTarget expected = test::faceTarget(t);
      QCOMPARE(c.name, "Face/" + expected.name);
      QCOMPARE(c.targetIndex, std::uint32_t(t));
      QVERIFY2(std::fabs(c.displacementCm - expected.displacementCm) < 1e-3,
               qPrintable(QString("%1: %2 cm").arg(c.name.c_str()).arg(c.displacementCm)));
      QCOMPARE(c.restWeight, expected.restWeight);
    }

    // Every curve keyed at every frame of both clips; the keys are the generator's weights.
    std::set<std::string> idleMoving;
    for (const char* name : {"Talk", "Idle"}) {
      const RawClip* clip = clipNamed(*asset, name);
      QVERIFY2(clip, name);
      QCOMPARE(clip->curves.size(), std::size_t(n));
      for (int t = 0; t < n; ++t) {
        const CurveKeys& k = clip->curves[std::size_t(t)];
        QCOMPARE(k.curve, std::uint32_t(t));
        QCOMPARE(k.times.size(), std::size_t(frames));
        for (int f = 0; f < frames; ++f) {
          const double seconds = f / double(rate);
          const double expected = std::string(name) == "Talk" ? test::faceWeight(t, seconds, frames, rate)
                                                              : test::faceIdleWeight(t, seconds, frames, rate);
          QVERIFY(std::fabs(k.times[std::size_t(f)] - seconds) < 1e-6);
          QVERIFY2(std::fabs(k.weights[std::size_t(f)] - expected) < 1e-6,
                   qPrintable(QString("%1 %2 frame %3: %4, expected %5")
                                  .arg(name, asset->curves[std::size_t(t)].name.c_str())
                                  .arg(f)
                                  .arg(k.weights[std::size_t(f)], 0, 'g', 10)
                                  .arg(expected, 0, 'g', 10)));
        }
        const auto [lo, hi] = std::minmax_element(k.weights.begin(), k.weights.end());
        if (std::string(name) == "Idle" && *hi > *lo) idleMoving.insert(test::faceTarget(t).name);
      }
    }
    QCOMPARE(idleMoving, (std::set<std::string>{"eyeBlinkLeft", "eyeBlinkRight", "browInnerUp", "mouthSmileLeft",
                                                "mouthSmileRight"}));
  }
};

QTEST_MAIN(TestFaceRig)
#include "tst_face_rig.moc"
