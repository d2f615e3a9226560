// Quantization round trips prove the precision bounds of core/runtime/quantize.h, and the bit packing is exact.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/compress/bit_writer.h"
#include "core/runtime/bits.h"
#include "core/runtime/quantize.h"

using namespace animpack;
using runtime::Quat;

namespace {
Quat randomQuat(std::mt19937& rng) {
  std::normal_distribution<float> n(0.f, 1.f);
  return runtime::normalized({n(rng), n(rng), n(rng), n(rng)});
}
double componentError(Quat a, Quat b) {
  if (runtime::dot(a, b) < 0) b = runtime::negated(b);
  return std::max({std::fabs(a.x - b.x), std::fabs(a.y - b.y), std::fabs(a.z - b.z), std::fabs(a.w - b.w)});
}
double angle(Quat a, Quat b) {
  // 4 asin(|a - b| / 2): accurate for tiny angles, unlike acos of a float dot product.
  if (runtime::dot(a, b) < 0) b = runtime::negated(b);
  const double d = std::sqrt(double(a.x - b.x) * (a.x - b.x) + double(a.y - b.y) * (a.y - b.y) +
                             double(a.z - b.z) * (a.z - b.z) + double(a.w - b.w) * (a.w - b.w));
  return 4.0 * std::asin(d / 2.0);
}
}  // namespace

class TestQuantize : public QObject {
  Q_OBJECT
 private slots:
  void quat48WithinItsBound() {
    std::mt19937 rng(1);
    double worst = 0, worstAngle = 0;
    for (int i = 0; i < 200000; ++i) {
      const Quat q = randomQuat(rng);
      std::uint16_t packed[3];
      runtime::packQuat48(q, packed);
      const Quat d = runtime::unpackQuat48(packed);
      worst = std::max(worst, componentError(q, d));
      worstAngle = std::max(worstAngle, angle(q, d));
    }
    // A stored component is off by at most half a step h = (2/sqrt2)/32767/2 = 2.2e-5 (the step is
    // the ~4.3e-5 of core/compress/settings.h RotationFormat::Q48); the dropped one, rebuilt from the other three with
    // w >= 1/2, by at most sqrt(3) h sqrt(3/4) / (1/2) = 3h; so |dq| <= sqrt(12) h and the angle <= 2 |dq|.
    const double h = 0.70710678 / 32767.0;
    QVERIFY2(worst <= 3.0 * h * 1.01, qPrintable(QString::number(worst)));
    QVERIFY2(worstAngle <= 2.0 * std::sqrt(12.0) * h, qPrintable(QString::number(worstAngle)));
    QVERIFY(worstAngle > 2.0 * h);  // and the bound is not loose by orders of magnitude
  }
  void quat32WithinItsBound() {
    std::mt19937 rng(2);
    double worst = 0;
    for (int i = 0; i < 200000; ++i) {
      const Quat q = randomQuat(rng);
      worst = std::max(worst, componentError(q, runtime::unpackQuat32(runtime::packQuat32(q))));
    }
    const double h = 0.70710678 / 1023.0;
    QVERIFY2(worst <= 3.0 * h * 1.01, qPrintable(QString::number(worst)));
    QVERIFY(worst > 3e-4);  // coarser than 48 bits: the test can tell them apart
  }
  void quatEdgeCases() {
    for (const Quat q : {Quat{0, 0, 0, 1}, Quat{0, 0, 0, -1}, Quat{1, 0, 0, 0}, Quat{0.5f, 0.5f, 0.5f, 0.5f},
                         Quat{-0.5f, 0.5f, -0.5f, 0.5f}, runtime::normalized({1, 1, 0, 0})}) {
      std::uint16_t packed[3];
      runtime::packQuat48(q, packed);
      QVERIFY(componentError(q, runtime::unpackQuat48(packed)) <= 3.0 * 0.70710678 / 32767.0);
    }
  }
  void unorm16WithinHalfAStep() {
    const float lo = -123.5f, extent = 2000.f;  // a 20 m range in cm
    double worst = 0;
    for (int i = 0; i <= 100000; ++i) {
      const float v = lo + extent * float(i) / 100000.f;
      worst = std::max(worst,
                       double(std::fabs(runtime::unpackUnorm16(runtime::packUnorm16(v, lo, extent), lo, extent) - v)));
    }
    // 2000 cm / 65535 / 2 = 0.015 cm (the arithmetic of a 16-bit range), plus float rounding of
    // values near 2000 (an ulp is 1.2e-4).
    QVERIFY2(worst <= extent / 65535.f / 2.f + 2.5e-4f, qPrintable(QString::number(worst)));
    QCOMPARE(runtime::packUnorm16(5.f, 5.f, 0.f), std::uint16_t(0));  // a zero range stores zeros
  }
  void bitsRoundTrip() {
    std::mt19937 rng(3);
    std::vector<std::pair<std::int32_t, unsigned>> fields;
    core::BitWriter w;
    for (int i = 0; i < 5000; ++i) {
      const unsigned n = rng() % 32;
      std::int32_t v = 0;
      if (n > 0) {
        const std::int64_t lo = -(std::int64_t(1) << (n - 1)), hi = (std::int64_t(1) << (n - 1)) - 1;
        v = static_cast<std::int32_t>(lo + std::int64_t(rng() % std::uint64_t(hi - lo + 1)));
      }
      fields.emplace_back(v, n);
      w.writeSigned(v, n);
    }
    std::vector<std::uint8_t> bytes = w.bytes();
    bytes.resize(bytes.size() + 8, 0);
    std::uint64_t pos = 0;
    for (const auto& [v, n] : fields) {
      QCOMPARE(runtime::readSignedBits(bytes.data(), pos, n), v);
      pos += n;
    }
    QCOMPARE(core::bitsForSigned(0), 0u);
    QCOMPARE(core::bitsForSigned(-1), 1u);
    QCOMPARE(core::bitsForSigned(1), 2u);
    QCOMPARE(core::bitsForSigned(-4), 3u);
    QCOMPARE(core::bitsForUnsigned(255), 8u);
    // The buffered stream reads the same bits.
    core::BitWriter u;
    for (unsigned i = 0; i < 300; ++i) u.write(i * 2654435761u, i % 33);
    std::vector<std::uint8_t> ub = u.bytes();
    ub.resize(ub.size() + 8, 0);
    runtime::BitStream stream(ub.data(), 0);
    for (unsigned i = 0; i < 300; ++i) {
      const unsigned n = i % 33;
      const std::uint32_t expected = n == 32 ? i * 2654435761u : (i * 2654435761u) & ((1u << n) - 1u);
      QCOMPARE(stream.read(n), n == 0 ? 0u : expected);
    }
  }
};

QTEST_GUILESS_MAIN(TestQuantize)
#include "tst_quantize.moc"
