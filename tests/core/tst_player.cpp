// The runtime Player: any access order (forward, backward, random, looping) gives bit-identical
// poses (keyed and uniform tracks reuse their last two decoded frames, whatever window a keyed value
// came from); keyed and uniform tracks; switching clips; blending (core/runtime/player.h).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/runtime/player.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

struct Fixture {
  ImportedAsset asset;
  std::vector<std::uint8_t> bytes;
  runtime::ClipView view;
};

/// A clip whose animated tracks are all keyed (or all uniform), written directly so the test
/// controls the storage kind; its head spins a turn and a half (test::spinningArmature).
Fixture makeClip(TrackKind kind, std::uint32_t snapshotFrames) {
  Fixture fx;
  fx.asset = test::spinningArmature();
  fx.bytes = test::clipOfOneKind(fx.asset, kind, snapshotFrames);
  auto view = runtime::ClipView::open(fx.bytes, fx.asset.skeleton.restLocal);
  if (!view) qFatal("%s", view.message().c_str());
  fx.view = std::move(view.value());
  return fx;
}

std::vector<Transform> fresh(const runtime::ClipView& view, float frame) {
  std::vector<Transform> out(view.jointCount());
  runtime::Player p;
  p.sampleFrame(view, frame, out);
  return out;
}

bool identical(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Transform)) == 0;
}

}  // namespace

class TestPlayer : public QObject {
  Q_OBJECT
 private slots:
  void aDefaultViewIsAnEmptyClip() {
    // The view reads its counts from the clip's bytes; one that views nothing reads a header of zeros.
    const runtime::ClipView view;
    QCOMPARE(view.frameCount(), 0u);
    QCOMPARE(view.jointCount(), 0u);
    QCOMPARE(view.byteSize(), std::size_t(0));
    QVERIFY(view.bytes().empty());
    QCOMPARE(view.curveCount(), 0u);
    QCOMPARE(view.curveBytes(), 0u);
    QCOMPARE(view.timedKeyCount(), 0u);
    QCOMPARE(view.sections().timed, 0u);
    QCOMPARE(view.duration(), 0.f);
    QVERIFY(!view.rootMotion());
    QVERIFY(sizeof(runtime::ClipView) <= 80);  // a pack of many small clips derives little (FORMAT.md)
  }

  void anyAccessOrderGivesTheSamePoses_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("keyed") << int(TrackKind::Keyed);
    QTest::newRow("uniform") << int(TrackKind::Uniform);
  }
  void anyAccessOrderGivesTheSamePoses() {
    QFETCH(int, kind);
    const Fixture fx = makeClip(TrackKind(kind), 20);
    if (TrackKind(kind) == TrackKind::Keyed) QVERIFY(fx.view.keyCount() > 0);
    else QVERIFY(fx.view.uniformCount() > 0);
    const float last = float(fx.view.frameCount() - 1);
    std::vector<float> times;
    for (float f = 0; f <= last; f += 0.37f) times.push_back(f);
    // Frames themselves too: there no interpolation hides the sign a window gives a rotation.
    for (float f = 0; f <= last; f += 4.f) times.push_back(f);
    std::sort(times.begin(), times.end());
    std::vector<std::vector<Transform>> reference;
    for (float f : times) reference.push_back(fresh(fx.view, f));

    runtime::Player player;
    std::vector<Transform> out(fx.view.jointCount());
    for (std::size_t i = 0; i < times.size(); ++i) {  // forward
      player.sampleFrame(fx.view, times[i], out);
      QVERIFY2(identical(out, reference[i]), qPrintable(QString("forward at %1").arg(times[i])));
    }
    for (std::size_t i = times.size(); i-- > 0;) {  // backward
      player.sampleFrame(fx.view, times[i], out);
      QVERIFY2(identical(out, reference[i]), qPrintable(QString("backward at %1").arg(times[i])));
    }
    std::mt19937 rng(5);
    for (int n = 0; n < 400; ++n) {  // random
      const std::size_t i = rng() % times.size();
      player.sampleFrame(fx.view, times[i], out);
      QVERIFY2(identical(out, reference[i]), qPrintable(QString("random at %1").arg(times[i])));
    }
  }

  void decodedValuesMatchTheEncoder() {
    // Integer frames decode to what the encoder predicted (its `decoded` track).
    const Fixture fx = makeClip(TrackKind::Keyed, 30);
    const RawClip& clip = fx.asset.clips[0];
    runtime::Player player;
    std::vector<Transform> out(fx.view.jointCount());
    double worst = 0;
    for (std::uint32_t f = 0; f < clip.frameCount; ++f) {
      player.sampleFrame(fx.view, float(f), out);
      for (std::uint32_t j = 0; j < clip.jointCount; ++j)
        worst = std::max(worst, sampleDistance(Channel::Rotation, sampleOf(out[j], Channel::Rotation),
                                               sampleOf(clip.at(j, f), Channel::Rotation)));
    }
    QVERIFY2(worst <= 1e-4 * 1.01, qPrintable(QString::number(worst)));  // the encoding tolerance
  }

  void loopingClipsWrapSeamlessly() {
    const Fixture fx = makeClip(TrackKind::Uniform, 30);
    QVERIFY(fx.view.loops());
    runtime::Player player;
    std::vector<Transform> a(fx.view.jointCount()), b(fx.view.jointCount());
    const float duration = fx.view.duration();
    player.sample(fx.view, 0.25f, a);
    player.sample(fx.view, 0.25f + duration, b);
    QVERIFY(identical(a, b));
    player.sample(fx.view, 0.25f - duration, b);
    QVERIFY(identical(a, b));
    player.sample(fx.view, std::numeric_limits<float>::quiet_NaN(), b);  // no crash, clamps to frame 0
  }

  void switchingClipsAtTheSameAddress() {
    // A player must notice a different clip even when the new view lives where the old one did.
    runtime::Player player;
    std::vector<Transform> out(6);
    std::optional<Fixture> fx = makeClip(TrackKind::Uniform, 30);
    player.sampleFrame(fx->view, 10.f, out);
    fx.reset();
    fx = makeClip(TrackKind::Keyed, 15);
    player.sampleFrame(fx->view, 10.f, out);
    QVERIFY(identical(out, fresh(fx->view, 10.f)));
  }

  void decomposedBlendKeepsBoneLength() {
    // One bone whose offset points +x in pose A and -x in pose B.
    std::vector<Transform> a(1), b(1), rest(1), out(1);
    rest[0].translation = {0, 1, 0};
    a[0].translation = {1, 0, 0};
    b[0].translation = {-1, 0, 0};
    runtime::blendPoses(a, b, 0.5f, runtime::BlendMode::Naive, rest, out);
    QVERIFY(runtime::length(out[0].translation) < 1e-6f);  // naive: the bone collapses
    runtime::blendPoses(a, b, 0.5f, runtime::BlendMode::Decomposed, rest, out);
    QVERIFY2(std::fabs(runtime::length(out[0].translation) - 1.f) < 1e-5f,
             qPrintable(QString::number(runtime::length(out[0].translation))));
    for (float w : {0.f, 0.1f, 0.3f, 0.7f, 1.f}) {
      runtime::blendPoses(a, b, w, runtime::BlendMode::Decomposed, rest, out);
      QVERIFY(std::fabs(runtime::length(out[0].translation) - 1.f) < 1e-5f);
    }
    runtime::blendPoses(a, b, 0.f, runtime::BlendMode::Decomposed, rest, out);
    QVERIFY(runtime::length(out[0].translation - a[0].translation) < 1e-5f);
    runtime::blendPoses(a, b, 1.f, runtime::BlendMode::Decomposed, rest, out);
    QVERIFY(runtime::length(out[0].translation - b[0].translation) < 1e-5f);
  }

  void playerBlendsTwoClips() {
    const Fixture fx = makeClip(TrackKind::Uniform, 30);
    runtime::Player player;
    std::vector<Transform> a(fx.view.jointCount()), b(fx.view.jointCount()), blended(fx.view.jointCount());
    player.sample(fx.view, 0.1f, a);
    player.sample(fx.view, 0.9f, b);
    player.blend(fx.view, 0.1f, fx.view, 0.9f, 0.f, runtime::BlendMode::Decomposed, blended);
    for (std::size_t j = 0; j < a.size(); ++j)
      QVERIFY(runtime::length(blended[j].translation - a[j].translation) < 1e-5f);
    player.blend(fx.view, 0.1f, fx.view, 0.9f, 1.f, runtime::BlendMode::Naive, blended);
    for (std::size_t j = 0; j < a.size(); ++j)
      QVERIFY(runtime::length(blended[j].translation - b[j].translation) < 1e-5f);
    QVERIFY(player.stateBytes() >= sizeof(runtime::Player) + fx.view.jointCount() * sizeof(Transform));
  }
};

QTEST_GUILESS_MAIN(TestPlayer)
#include "tst_player.moc"
