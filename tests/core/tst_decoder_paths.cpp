// The runtime's lane implementations (core/runtime/lanes.h: AVX2 and SSE2 on x86-64, portable C++
// everywhere) decode every pose bit-identically, at frames and between them, in any access order,
// on real packs from assimp-testmodels and on generated rigs (partial batches, spins stored as four
// components, float-floor precision): a pack does not depend on the target that plays it.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>

#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/runtime/lanes.h"
#include "core/runtime/player.h"
#include "core/runtime/track_math.h"
#include "core/runtime/uniform_kernels.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

struct Case {
  std::string name;
  std::vector<std::uint8_t> bytes;
  std::vector<runtime::Transform> rest;  // the view reads default tracks from it
  runtime::ClipView view;
};

Case compressCase(const std::string& name, const ImportedAsset& a, const RawClip& clip, float precisionCm) {
  CompressionSettings s;
  s.precisionCm = precisionCm;
  auto c = makeCompressJob(a, clip, resolve(s, a.skeleton, clip.name)).run();
  if (!c) qFatal("%s: %s", name.c_str(), c.message().c_str());
  Case r{name, std::move(c.value().data), a.skeleton.restLocal, {}};
  auto view = runtime::ClipView::open(r.bytes, r.rest);
  if (!view) qFatal("%s: %s", name.c_str(), view.message().c_str());
  r.view = std::move(view.value());
  return r;
}

constexpr runtime::DecodePath kPaths[] = {runtime::DecodePath::Simd, runtime::DecodePath::Sse2,
                                          runtime::DecodePath::Scalar};

QString pathName(runtime::DecodePath path) {
  return path == runtime::DecodePath::Simd ? QString("SIMD (%1)").arg(runtime::decodePathName(path))
                                           : runtime::decodePathName(path);
}

#if defined(ANIMPACK_HAVE_AVX2)
/// How many of `rounds` random frames' words (every offset 0..63) the AVX2 lanes unpack unlike the
/// scalar definition: compiled for AVX2 itself, so the vectors never cross a call.
[[gnu::target("avx2")]] int avx2WordMismatches(const std::vector<std::uint8_t>& data, int rounds) {
  using Avx2 = runtime::Avx2Lanes;
  using Scalar = runtime::ScalarWords<runtime::PortableLanes>;
  std::mt19937 rng(5);
  int mismatches = 0;
  for (int round = 0; round < rounds; ++round) {
    std::uint32_t base[4];
    std::uint8_t stride[4], offset[4];
    for (unsigned l = 0; l < 4; ++l) {
      stride[l] = static_cast<std::uint8_t>(rng() % 58);
      base[l] = static_cast<std::uint32_t>(rng() % 4096);
      offset[l] = static_cast<std::uint8_t>((round + 17 * l) % 64);
    }
    const std::uint32_t frame = rng() % 256;  // up to 4096 + 255 x 57 bits: inside the 4 KiB buffer
    const Avx2::I v = Avx2::shiftWords(Avx2::words(data.data(), base, stride, frame), Avx2::shifts(offset));
    const runtime::PortableLanes::I r =
        Scalar::shiftWords(Scalar::words(data.data(), base, stride, frame), Scalar::shifts(offset));
    std::uint32_t lanes[4];
    _mm_storeu_si128(reinterpret_cast<__m128i*>(lanes), v.v);
    mismatches += std::memcmp(lanes, r.v, sizeof(lanes)) != 0;
  }
  return mismatches;
}
#endif

/// The residual of lane `l`'s component `c` in frame `frame`, in steps, by FORMAT.md "Uniform tracks": the
/// component's width in bits at base + frame x stride + the widths before it, two's complement,
/// times 2^-shift.
float residualByDefinition(const std::uint8_t* data, std::uint32_t header, std::uint32_t base, std::uint32_t frame,
                           unsigned c) {
  const unsigned widths[4] = {header & 31u, (header >> 5) & 31u, (header >> 10) & 31u, (header >> 19) & 31u};
  unsigned stride = 0, offset = 0;
  for (unsigned i = 0; i < 4; ++i) {
    stride += widths[i];
    if (i < c) offset += widths[i];
  }
  const std::uint64_t raw =
      runtime::bitsAt(data, base + std::uint64_t(frame) * stride + offset) & ((std::uint64_t(1) << widths[c]) - 1u);
  const bool negative = widths[c] > 0 && (raw >> (widths[c] - 1u)) != 0;
  const std::int64_t value = negative ? std::int64_t(raw) - (std::int64_t(1) << widths[c]) : std::int64_t(raw);
  return float(value) * runtime::residualScale((header >> 15) & 15u);
}

/// How many residuals of `rounds` random layouts the kernel `Uniform<L>::residuals` gives unlike
/// residualByDefinition, for one and two frames at a time; every other round's lanes span more than
/// 57 bits a frame (the kernel's `wide` reading), the others fewer. `wideRounds` counts the layouts
/// that were wide.
template <class L>
int residualMismatches(const std::vector<std::uint8_t>& data, int rounds, int& wideRounds) {
  using Kernel = runtime::kernels::Uniform<L>;
  std::mt19937 rng(7);
  int mismatches = 0;
  wideRounds = 0;
  for (int round = 0; round < rounds; ++round) {
    std::uint32_t header[4], base[4];
    for (unsigned l = 0; l < 4; ++l) {
      // Odd rounds four widths of 15..31 (60 bits or more), even rounds 0..14 (56 bits at most).
      const unsigned least = round % 2 ? 15u : 0u, count = round % 2 ? 17u : 15u;
      unsigned w[4];
      for (unsigned& x : w) x = least + unsigned(rng() % count);
      header[l] = w[0] | (w[1] << 5) | (w[2] << 10) | (unsigned(rng() % 16) << 15) | (w[3] << 19);
      base[l] = static_cast<std::uint32_t>(rng() % 8192);
    }
    runtime::BatchLayout layout{};
    Kernel::layout(header, base, layout);
    wideRounds += layout.wide;
    const std::uint32_t local = rng() % 64;  // up to 8192 + 65 x 124 bits: inside the buffer
    typename L::F one[1][4], two[2][4];
    Kernel::template residuals<4, 1>(layout, data.data(), local, one);
    Kernel::template residuals<4, 2>(layout, data.data(), local, two);
    for (unsigned c = 0; c < 4; ++c) {
      float got[3][4];
      L::store(got[0], one[0][c]);
      L::store(got[1], two[0][c]);
      L::store(got[2], two[1][c]);
      for (unsigned l = 0; l < 4; ++l) {
        const float first = residualByDefinition(data.data(), header[l], base[l], local, c);
        const float second = residualByDefinition(data.data(), header[l], base[l], local + 1, c);
        mismatches += std::memcmp(&got[0][l], &first, sizeof(float)) != 0;
        mismatches += std::memcmp(&got[1][l], &first, sizeof(float)) != 0;
        mismatches += std::memcmp(&got[2][l], &second, sizeof(float)) != 0;
      }
    }
  }
  return mismatches;
}

#if defined(ANIMPACK_HAVE_AVX2)
/// residualMismatches on the AVX2 lanes, compiled for AVX2 with everything inlined, as the Player's.
[[gnu::target("avx2,bmi2"), gnu::flatten]] int avx2ResidualMismatches(const std::vector<std::uint8_t>& data, int rounds,
                                                                      int& wideRounds) {
  return residualMismatches<runtime::Avx2Lanes>(data, rounds, wideRounds);
}
#endif

/// Times in frames: every frame, every midpoint and an off-grid step that crosses segment ends.
std::vector<float> timesOf(const runtime::ClipView& view) {
  std::vector<float> t;
  const float last = float(view.frameCount() - 1);
  const float step = view.frameCount() > 400 ? 0.73f : 0.37f;
  for (float f = 0; f <= last; f += step) t.push_back(f);
  for (std::uint32_t f = 0; f < view.frameCount(); ++f) {
    t.push_back(float(f));
    if (f + 1 < view.frameCount()) t.push_back(float(f) + 0.5f);
  }
  return t;
}

}  // namespace

class TestDecoderPaths : public QObject {
  Q_OBJECT
 private:
  std::vector<Case> m_cases;

 private slots:
  void initTestCase() {
    for (const char* file : {"X/Testwuson.X", "X/BCN_Epileptic.X", "BVH/01_01.bvh"}) {
      const ImportedAsset a = test::importOrFail(test::model(file));
      for (const RawClip& clip : a.clips)
        m_cases.push_back(compressCase(std::string(file) + " " + clip.name, a, clip, 0.01f));
    }
    // Generated: an armature whose head spins one and a half turns (a rotation range no three
    // components hold), at the default precision and at the float32 floor; 45 joints (partial batches).
    const ImportedAsset rig = test::spinningArmature();
    m_cases.push_back(compressCase("spinning armature", rig, rig.clips[0], 0.01f));
    m_cases.push_back(compressCase("spinning armature at 1e-6 cm", rig, rig.clips[0], 1e-6f));
    // Every animated track keyed (five rotations, one translation): full and partial keyed batches.
    Case keyed{"spinning armature, every track keyed",
               test::clipOfOneKind(rig, TrackKind::Keyed, 20),
               rig.skeleton.restLocal,
               {}};
    auto view = runtime::ClipView::open(keyed.bytes, keyed.rest);
    if (!view) qFatal("%s", view.message().c_str());
    keyed.view = std::move(view.value());
    m_cases.push_back(std::move(keyed));
    const ImportedAsset many = test::importOrFail(test::writeScene(test::manyJointsRig(45), "paths_many.gltf"));
    m_cases.push_back(compressCase("45 joints", many, many.clips[0], 0.01f));
  }

  void casesCoverEveryBatchShape() {
    // Checked so the comparison below cannot pass by decoding nothing: every uniform group (FORMAT.md
    // "Uniform tracks"), full and partial batches of four, keyed rotations and vectors.
    std::size_t groups[runtime::kUniformGroupCount] = {}, partial = 0, full = 0, keyedRotations = 0, keyedVectors = 0;
    for (const Case& c : m_cases) {
      const auto counts = c.view.uniformGroups();
      for (unsigned g = 0; g < runtime::kUniformGroupCount; ++g) {
        groups[g] += counts[g];
        partial += counts[g] % 4 != 0;
        full += counts[g] / 4;
      }
      keyedRotations += c.view.keyedRotationCount();
      keyedVectors += c.view.keyedCount() - c.view.keyedRotationCount();
      // Each track's output is where its joint and channel are.
      for (std::uint32_t t = 0; t < c.view.uniformCount(); ++t) {
        const runtime::UniformTrackInfo u = c.view.uniformTrack(t);
        QCOMPARE(c.view.kind(u.joint, u.channel), runtime::TrackKind::Uniform);
      }
      for (std::uint32_t t = 0; t < c.view.keyedCount(); ++t) {
        const runtime::KeyedTrackInfo k = c.view.keyedTrack(t);
        QCOMPARE(c.view.kind(k.joint, k.channel), runtime::TrackKind::Keyed);
        QCOMPARE(k.channel == Channel::Rotation, t < c.view.keyedRotationCount());
      }
    }
    for (unsigned g = 0; g < runtime::kUniformGroupCount; ++g) QVERIFY2(groups[g] > 0, std::to_string(g).c_str());
    QVERIFY(partial > 0 && full > 0);
    QVERIFY(keyedRotations > 0 && keyedVectors > 0);
    if (!runtime::simdAvailable()) qWarning("this build has no SIMD lanes: every path is the portable one");
    else if (!runtime::avx2Available()) qWarning("this CPU has no AVX2: the SIMD path is the SSE2 one");
  }

  void everyPathGivesIdenticalPoses() {
    for (const Case& c : m_cases) {
      const std::vector<float> times = timesOf(c.view);
      const std::size_t joints = c.view.jointCount();
      // Reference: the portable lanes, forward.
      std::vector<runtime::Transform> reference(times.size() * joints);
      runtime::Player scalar(runtime::DecodePath::Scalar);
      for (std::size_t i = 0; i < times.size(); ++i)
        scalar.sampleFrame(c.view, times[i], std::span(reference.data() + i * joints, joints));

      std::vector<std::size_t> order(times.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::vector<std::size_t> backward(order.rbegin(), order.rend()), random = order;
      std::shuffle(random.begin(), random.end(), std::mt19937(7));
      std::vector<runtime::Transform> out(joints);
      for (runtime::DecodePath path : kPaths) {
        for (const auto* sequence : {&order, &backward, &random}) {
          runtime::Player player(path);
          for (std::size_t i : *sequence) {
            player.sampleFrame(c.view, times[i], out);
            if (std::memcmp(out.data(), reference.data() + i * joints, joints * sizeof(runtime::Transform)) != 0)
              QFAIL(qPrintable(QString("%1: %2 path, %3 order, frame %4 differs")
                                   .arg(QString::fromStdString(c.name), pathName(path),
                                        sequence == &order      ? "forward"
                                        : sequence == &backward ? "backward"
                                                                : "random")
                                   .arg(double(times[i]))));
          }
        }
      }
    }
  }

  void avx2WordsAgreeWithTheirDefinition() {
    // The AVX2 lanes' bit unpacking (four 64-bit words shifted at once) against the scalar
    // definition, at random positions and every shift count a frame's components can have.
#if defined(ANIMPACK_HAVE_AVX2)
    if (!runtime::avx2Available()) QSKIP("this CPU has no AVX2");
    std::vector<std::uint8_t> data(4096 + 2048);
    std::mt19937 rng(3);
    for (std::uint8_t& b : data) b = static_cast<std::uint8_t>(rng());
    QCOMPARE(avx2WordMismatches(data, 5000), 0);
#else
    QSKIP("this build has no AVX2 path");
#endif
  }

  void residualsAgreeWithTheirDefinition() {
    // Every lane implementation's residual unpacking (whole frames in one read, and frames past 57
    // bits read a component at a time) against FORMAT.md's definition, one and two frames at once.
    std::vector<std::uint8_t> data(8192);
    std::mt19937 rng(13);
    for (std::uint8_t& b : data) b = static_cast<std::uint8_t>(rng());
    int wide = 0;
    QCOMPARE(residualMismatches<runtime::PortableLanes>(data, 400, wide), 0);
    QCOMPARE(wide, 200);
#if defined(ANIMPACK_HAVE_SSE2)
    QCOMPARE(residualMismatches<runtime::Sse2Lanes>(data, 400, wide), 0);
#endif
#if defined(ANIMPACK_HAVE_AVX2)
    if (runtime::avx2Available()) QCOMPARE(avx2ResidualMismatches(data, 400, wide), 0);
#endif
  }

  void segmentLayoutsAgreeWithTheirDefinition() {
    // Every width 0..31 and every shift 0..15 of the 3-byte residual header (FORMAT.md "Uniform tracks"),
    // built by both lane implementations: masks 2^w - 1 (2^31 - 1 is the SSE2 path's edge case),
    // offsets the running sums, scale 2^-shift, wide past 57 bits a frame.
    std::mt19937 rng(11);
    for (int round = 0; round < 200; ++round) {
      std::uint32_t header[4], base[4];
      for (unsigned l = 0; l < 4; ++l) {
        const unsigned w[4] = {unsigned((round + l) % 32), unsigned(rng() % 32), unsigned(rng() % 32),
                               unsigned(rng() % 32)};
        const unsigned shift = (round + 3 * l) % 16;
        header[l] = w[0] | (w[1] << 5) | (w[2] << 10) | (shift << 15) | (w[3] << 19);
        base[l] = rng();
      }
      runtime::BatchLayout portable{}, simd{};
      runtime::kernels::Uniform<runtime::PortableLanes>::layout(header, base, portable);
#if defined(ANIMPACK_HAVE_SSE2)
      runtime::kernels::Uniform<runtime::Sse2Lanes>::layout(header, base, simd);
#else
      simd = portable;
#endif
      // Member by member (the struct's padding is not part of the layout).
      QVERIFY(std::memcmp(portable.mask, simd.mask, sizeof(portable.mask)) == 0);
      QVERIFY(std::memcmp(portable.scale, simd.scale, sizeof(portable.scale)) == 0);
      QVERIFY(std::memcmp(portable.base, simd.base, sizeof(portable.base)) == 0);
      QVERIFY(std::memcmp(portable.offset, simd.offset, sizeof(portable.offset)) == 0);
      QVERIFY(std::memcmp(portable.stride, simd.stride, sizeof(portable.stride)) == 0);
      QCOMPARE(portable.wide, simd.wide);
      for (unsigned l = 0; l < 4; ++l) {
        unsigned offset = 0;
        const unsigned widths[4] = {header[l] & 31u, (header[l] >> 5) & 31u, (header[l] >> 10) & 31u,
                                    (header[l] >> 19) & 31u};
        for (unsigned c = 0; c < 4; ++c) {
          QCOMPARE(portable.mask[c][l], (1u << widths[c]) - 1u);
          QCOMPARE(unsigned(portable.offset[c][l]), offset);
          offset += widths[c];
        }
        QCOMPARE(unsigned(portable.stride[l]), offset);
        QCOMPARE(portable.scale[l], runtime::residualScale((header[l] >> 15) & 15u));
        QCOMPARE(portable.base[l], base[l]);
      }
      const unsigned widest = *std::max_element(std::begin(portable.stride), std::end(portable.stride));
      QCOMPARE(portable.wide, widest > 57);
    }
  }

  void blendKeepsJointsTheSameInBothPoses() {
    // A pose blended with itself is that pose, bit for bit, in both modes and on every path; with one
    // joint changed (each in turn: every place in a group of four and in a block of eight (AVX2), in
    // the last partial ones, and a rotation or the last bytes of its 40 only), every other joint
    // still comes through unchanged, also when `out` is one of the poses.
    const runtime::ClipView& run = m_cases[0].view;
    const std::size_t joints = run.jointCount();
    QVERIFY(joints % 4 != 0 && joints % 8 != 0);
    std::vector<runtime::Transform> pose(joints), other(joints), out(joints);
    runtime::Player player;
    player.sample(run, 0.3f, pose);
    for (auto path : kPaths)
      for (auto mode : {runtime::BlendMode::Naive, runtime::BlendMode::Decomposed})
        for (float w : {0.f, 0.37f, 1.f}) {
          runtime::blendPoses(pose, pose, w, mode, run.restPose(), out, path);
          QVERIFY(std::memcmp(out.data(), pose.data(), joints * sizeof(runtime::Transform)) == 0);
          for (std::size_t changed = 0; changed < joints; ++changed) {
            other = pose;
            if (changed % 2 == 0) other[changed].rotation = runtime::normalized({0.1f, 0.2f, 0.3f, 0.9f});
            else other[changed].scale.z += 0.5f;  // the joint's last bytes
            runtime::blendPoses(pose, other, w, mode, run.restPose(), out, path);
            for (std::size_t j = 0; j < joints; ++j)
              if (j != changed) QVERIFY(std::memcmp(&out[j], &pose[j], sizeof(runtime::Transform)) == 0);
            if (w > 0.f)
              QVERIFY2(std::memcmp(&out[changed], &pose[changed], sizeof(runtime::Transform)) != 0,
                       qPrintable(pathName(path)));
            // In place (what Player::blend does): the same pose.
            std::vector<runtime::Transform> inPlace = pose;
            runtime::blendPoses(inPlace, other, w, mode, run.restPose(), inPlace, path);
            QVERIFY(std::memcmp(inPlace.data(), out.data(), joints * sizeof(runtime::Transform)) == 0);
          }
        }
  }

  void blendsAreIdenticalOnEveryPath() {
    // Two real clips of one skeleton (Testwuson's run and walk), both blend modes, and a pose whose
    // bones point against their rest direction (the decomposed blend's half-turn special case).
    const runtime::ClipView& run = m_cases[0].view;
    const runtime::ClipView& walk = m_cases[1].view;
    const std::size_t joints = run.jointCount();
    std::vector<runtime::Transform> simd(joints), scalar(joints), flipped(run.restPose().begin(), run.restPose().end());
    for (runtime::Transform& t : flipped) t.translation = t.translation * -1.f;
    for (auto path : {runtime::DecodePath::Simd, runtime::DecodePath::Sse2}) {
      runtime::Player a(path), b(runtime::DecodePath::Scalar);
      for (auto mode : {runtime::BlendMode::Naive, runtime::BlendMode::Decomposed}) {
        for (float w : {0.f, 0.25f, 0.5f, 1.f}) {
          for (float t = 0; t < run.duration(); t += 0.05f) {
            a.blend(run, t, walk, t * 1.7f, w, mode, simd);
            b.blend(run, t, walk, t * 1.7f, w, mode, scalar);
            QVERIFY2(std::memcmp(simd.data(), scalar.data(), joints * sizeof(runtime::Transform)) == 0,
                     qPrintable(QString("%1: blend at %2 s").arg(pathName(path)).arg(double(t))));
          }
          runtime::blendPoses(flipped, run.restPose(), w, mode, run.restPose(), simd, path);
          runtime::blendPoses(flipped, run.restPose(), w, mode, run.restPose(), scalar, runtime::DecodePath::Scalar);
          QVERIFY(std::memcmp(simd.data(), scalar.data(), joints * sizeof(runtime::Transform)) == 0);
          for (std::size_t j = 0; j < joints; ++j)  // the decomposed blend keeps every bone's length
            if (mode == runtime::BlendMode::Decomposed)
              QVERIFY(
                  std::fabs(runtime::length(simd[j].translation) - runtime::length(run.restPose()[j].translation)) <=
                  1e-4f * std::max(1.f, runtime::length(run.restPose()[j].translation)));
        }
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestDecoderPaths)
#include "tst_decoder_paths.moc"
