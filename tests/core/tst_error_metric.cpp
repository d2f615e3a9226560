// The one error metric (core/compress/error_metric.h) against hand-computed cases: virtual vertices on the shell,
// object space, unit conversion, and a x100 armature that must not turn 3 cm into 3 m.
#include <QtTest>

#include <cmath>

#include "core/compress/error_metric.h"

using namespace animpack;
using namespace animpack::core;

namespace {
Quat aroundZ(float angle) { return {0, 0, std::sin(angle / 2), std::cos(angle / 2)}; }
Skeleton chain(float rootScale) {
  Skeleton s;
  s.names = {"Armature", "Bone"};
  s.parents = {-1, 0};
  s.restLocal.resize(2);
  s.restLocal[0].scale = {rootScale, rootScale, rootScale};
  s.restLocal[1].translation = {1.f / rootScale, 0, 0};
  s.inverseBind.resize(2);
  return s;
}
RawClip stillClip(const Skeleton& s, std::uint32_t frames) {
  RawClip c;
  c.frameCount = frames;
  c.jointCount = static_cast<std::uint32_t>(s.jointCount());
  c.samples.resize(std::size_t(frames) * c.jointCount);
  for (std::uint32_t f = 0; f < frames; ++f)
    for (std::uint32_t j = 0; j < c.jointCount; ++j) c.at(j, f) = s.restLocal[j];
  c.keyedChannels.assign(c.jointCount, 0);
  return c;
}
}  // namespace

class TestErrorMetric : public QObject {
  Q_OBJECT
 private slots:
  void rotationMovesTheShellVertices() {
    const Skeleton s = chain(1.f);
    const RawClip clip = stillClip(s, 1);
    const std::vector<float> shell{3.f, 3.f};
    const ErrorMetric metric(s, clip, 1.0, shell);
    std::vector<Transform> decoded(clip.samples);
    const float theta = 0.01f;
    decoded[1].rotation = aroundZ(theta);
    const auto errors = metric.measure(decoded);
    QCOMPARE(errors[0], 0.f);
    QVERIFY(std::fabs(errors[1] - 6.f * std::sin(theta / 2)) < 1e-5f);  // 2 * 3 cm * sin(theta/2)
  }
  void translationErrorInCentimetres() {
    const Skeleton s = chain(1.f);
    const RawClip clip = stillClip(s, 1);
    const std::vector<float> shell{3.f, 3.f};
    const ErrorMetric metric(s, clip, 100.0, shell);  // metres
    std::vector<Transform> decoded(clip.samples);
    decoded[0].translation = {0.001f, 0, 0};  // 1 mm at the root moves both joints
    const auto errors = metric.measure(decoded);
    QVERIFY(std::fabs(errors[0] - 0.1f) < 1e-5f);
    QVERIFY(std::fabs(errors[1] - 0.1f) < 1e-5f);
  }
  void armatureScaleDoesNotScaleTheShell() {
    const Skeleton s = chain(100.f);
    const RawClip clip = stillClip(s, 1);
    const std::vector<float> shell{3.f, 3.f};
    const ErrorMetric metric(s, clip, 1.0, shell);
    std::vector<Transform> decoded(clip.samples);
    const float theta = 0.01f;
    decoded[1].rotation = aroundZ(theta);
    const auto errors = metric.measure(decoded);
    QVERIFY2(std::fabs(errors[1] - 6.f * std::sin(theta / 2)) < 1e-4f, qPrintable(QString::number(errors[1])));
    // The shell offset in the bone's local space is 3 / 100: 3 cm in object space.
    QVERIFY(std::fabs(metric.shellOffset(1, 0)[0] - 0.03) < 1e-9);
    // A root rotation turns the bone (1 cm out) and its shell about the origin: the farthest shell
    // vertex is 4 cm out, so it moves 2 * 4 cm * sin(theta / 2).
    decoded = clip.samples;
    decoded[0].rotation = aroundZ(theta);
    const auto rootErrors = metric.measure(decoded);
    QVERIFY2(std::fabs(rootErrors[1] - 8.f * std::sin(theta / 2)) < 1e-4f, qPrintable(QString::number(rootErrors[1])));
  }
  void summaryFindsMaxPercentileAndWorst() {
    std::vector<float> errors(2 * 100, 0.001f);
    errors[2 * 37 + 1] = 0.5f;  // joint 1, frame 37
    for (int f = 0; f < 3; ++f) errors[2 * f] = 0.2f;
    const ErrorSummary s = summarize(errors, 2);
    QCOMPARE(s.maxCm, 0.5f);
    QCOMPARE(s.worstJoint, 1);
    QCOMPARE(s.worstFrame, 37);
    QCOMPARE(s.jointMaxCm[0], 0.2f);
    QCOMPARE(s.p99Cm, 0.2f);  // 4 of 200 values are above 0.001: the 99th percentile is the 2nd largest
  }
};

QTEST_GUILESS_MAIN(TestErrorMetric)
#include "tst_error_metric.moc"
