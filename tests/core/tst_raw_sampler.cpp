// O(1) lookup over non-uniform key times and sampling of uniform raw clips.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/anim/raw_sampler.h"

using namespace animpack;
using namespace animpack::core;

class TestRawSampler : public QObject {
  Q_OBJECT
 private slots:
  void lookupTableFindsTheInterval() {
    const std::vector<double> times{0.0, 0.1, 0.15, 0.9, 1.0, 2.5, 2.51, 4.0};
    const KeyLookupTable table(times, 10.0);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> dist(-0.5, 4.5);
    for (int i = 0; i < 2000; ++i) {
      const double t = dist(rng);
      std::size_t expected = 0;
      while (expected + 2 < times.size() && times[expected + 1] <= t) ++expected;
      QCOMPARE(table.interval(t), expected);
    }
    QCOMPARE(table.interval(0.1), std::size_t(1));  // exactly on a key: the interval it starts
    QCOMPARE(table.interval(4.0), times.size() - 2);
    const std::vector<double> one{3.0};
    QCOMPARE(KeyLookupTable(one, 30.0).interval(5.0), std::size_t(0));
  }

  void sampleInterpolatesFramesAndWraps() {
    RawClip c;
    c.frameCount = 3;
    c.jointCount = 1;
    c.sampleRate = 10;
    c.samples.resize(3);
    c.keyedChannels = {kKeyedTranslation};
    c.samples[0].translation = {0, 0, 0};
    c.samples[1].translation = {10, 0, 0};
    c.samples[2].translation = {10, 20, 0};
    const float a = float(M_PI / 2);
    c.samples[1].rotation = {0, 0, std::sin(a / 2), std::cos(a / 2)};
    std::vector<Transform> out(1);
    RawSampler::sample(c, 0.05, out);  // frame 0.5
    QCOMPARE(out[0].translation.x, 5.f);
    QVERIFY(std::fabs(out[0].rotation.z - std::sin(a / 4)) < 1e-6f);  // slerp: a quarter turn halves
    RawSampler::sample(c, 0.15, out);                                 // frame 1.5
    QCOMPARE(out[0].translation.y, 10.f);
    RawSampler::sample(c, 10.0, out);  // clamped to the last frame
    QCOMPARE(out[0].translation.y, 20.f);
    RawSampler::sample(c, 0.25, out, true);  // looping: 2.5 frames wraps to 0.5
    QCOMPARE(out[0].translation.x, 5.f);
    RawSampler::sample(c, -1.0, out);
    QCOMPARE(out[0].translation.x, 0.f);

    // A clip that wraps: a cycle of 3 frames, the last interpolated to the first after frame 2.
    RawSampler::sampleWrapping(c, 0.15, out);  // frame 1.5: between frames as before
    QCOMPARE(out[0].translation.y, 10.f);
    RawSampler::sampleWrapping(c, 0.25, out);  // frame 2.5: halfway from the last frame to frame 0
    QCOMPARE(out[0].translation.x, 5.f);
    QCOMPARE(out[0].translation.y, 10.f);
    RawSampler::sampleWrapping(c, 0.3, out);  // frame 3: the next cycle's frame 0
    QVERIFY(std::fabs(out[0].translation.x) < 1e-5f && std::fabs(out[0].translation.y) < 1e-5f);
    RawSampler::sampleWrapping(c, -0.05, out);  // before the start: the previous cycle's wrap interval
    QCOMPARE(out[0].translation.x, 5.f);
    QCOMPARE(out[0].translation.y, 10.f);
  }
};

QTEST_GUILESS_MAIN(TestRawSampler)
#include "tst_raw_sampler.moc"
