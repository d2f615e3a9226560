// Packs: round trip compress -> write -> read -> sample; every damaged variant of a real pack
// (truncations at every section boundary, flipped bytes, wrong counts, wrong version) is rejected
// with a message and never read out of bounds (this test also runs under ASan); atomic writes;
// the golden version-1 pack still reads bit-exactly.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>

#include "core/base/assert.h"
#include "core/batch/export.h"
#include "core/io/legacy.h"
#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/io/pack_writer.h"
#include "core/runtime/hash.h"
#include "core/runtime/curves.h"
#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"
#include "core/runtime/player.h"
#include "core/runtime/timed.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

struct Built {
  ImportedAsset asset;
  std::vector<CompressedClip> clips;
  std::vector<std::uint8_t> bytes;
};

Built buildPack(const std::filesystem::path& path) {
  Built b;
  auto a = importAsset(path);
  if (!a) qFatal("%s", a.message().c_str());
  b.asset = std::move(a.value());
  std::vector<PackClipRecord> records;
  for (const RawClip& clip : b.asset.clips) {
    auto c = makeCompressJob(b.asset, clip, resolve({}, b.asset.skeleton, clip.name)).run();
    if (!c) qFatal("%s", c.message().c_str());
    b.clips.push_back(std::move(c.value()));
  }
  for (const CompressedClip& c : b.clips)
    records.push_back(clipRecord(c, path.filename().string(), b.asset.sourceHash));
  b.bytes = core::buildPack(skeletonRecord(b.asset.skeleton, b.asset.unitToCm), records);
  return b;
}

template <typename T>
void patch(std::vector<std::uint8_t>& b, std::size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof(T));
}
template <typename T>
T read(const std::vector<std::uint8_t>& b, std::size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}
void fixChecksum(std::vector<std::uint8_t>& b) {
  patch(b, runtime::PackHeaderLayout::checksum, runtime::fnv1a64(std::span(b.data() + 32, b.size() - 32)));
}

/// Opening must fail with a message containing `fragment`.
void expectRejected(std::vector<std::uint8_t> bytes, const char* fragment, const char* what) {
  auto pack = runtime::Pack::open(std::move(bytes), runtime::anyVersion());
  QVERIFY2(!pack, what);
  QVERIFY2(QString::fromStdString(pack.message()).contains(fragment),
           qPrintable(QString("%1: %2").arg(what, pack.message().c_str())));
}

/// Whatever a damaged file opens to must be safe to play everywhere.
void playEverything(const runtime::Pack& pack) {
  runtime::Player player;
  for (const runtime::PackClip& c : pack.clips()) {
    std::vector<runtime::Transform> out(c.view.jointCount());
    // Half-frame steps, at most ~2000 samples: a damaged frame count can claim millions of frames.
    const float step = std::max(0.5f, float(c.frameCount()) / 2000.f);
    for (float f = 0; f <= float(c.frameCount()); f += step) player.sampleFrame(c.view, f, out);
    player.sampleFrame(c.view, 0.f, out);
  }
}

std::uint64_t hashDecoded(const runtime::Pack& pack, bool midpoints = false) {
  std::uint64_t h = runtime::kFnvOffset;
  runtime::Player player;
  auto add = [&](const std::vector<runtime::Transform>& out) {
    h = runtime::fnv1a64(
        std::span(reinterpret_cast<const std::uint8_t*>(out.data()), out.size() * sizeof(runtime::Transform)), h);
  };
  // Version 6: each pose is followed by the clip's morph weights (packs before it have none).
  auto addCurves = [&](const runtime::ClipView& view, float frame) {
    if (view.curveCount() == 0) return;
    std::vector<float> weights(view.curveCount());
    runtime::sampleCurvesAtFrame(view, frame, weights);
    h = runtime::fnv1a64(std::span(reinterpret_cast<const std::uint8_t*>(weights.data()), weights.size() * 4), h);
  };
  for (const runtime::PackClip& c : pack.clips()) {
    std::vector<runtime::Transform> out(c.view.jointCount());
    for (std::uint32_t f = 0; f < c.frameCount(); ++f) {
      player.sampleFrame(c.view, float(f), out);
      add(out);
      addCurves(c.view, float(f));
      if (!midpoints || (f + 1 == c.frameCount() && !c.view.wraps())) continue;  // version 3: the wrap interval too
      player.sampleFrame(c.view, float(f) + 0.5f, out);
      add(out);
      addCurves(c.view, float(f) + 0.5f);
    }
  }
  return h;
}

}  // namespace

class TestPack : public QObject {
  Q_OBJECT
 private:
  Built m_built;

 private slots:
  void initTestCase() {
    setAssertThrows(true);
    m_built = buildPack(test::model("X/Testwuson.X"));
  }

  void roundTripEqualsTheCompressorsReconstruction() {
    auto pack = runtime::Pack::open(m_built.bytes, runtime::anyVersion());
    QVERIFY2(pack, pack ? "" : pack.message().c_str());
    QCOMPARE(pack->version(), runtime::kPackVersion);
    QCOMPARE(pack->clips().size(), m_built.clips.size());
    QCOMPARE(pack->skeleton().names(), m_built.asset.skeleton.names);
    QCOMPARE(pack->skeleton().hash(),
             runtime::skeletonHash(m_built.asset.skeleton.names, m_built.asset.skeleton.parents));
    QCOMPARE(double(pack->skeleton().unitToCm()), m_built.asset.unitToCm);
    for (std::size_t i = 0; i < m_built.clips.size(); ++i) {
      const runtime::PackClip& pc = pack->clips()[i];
      const CompressedClip& cc = m_built.clips[i];
      QCOMPARE(pc.name(), cc.name);
      QCOMPARE(pc.sourceFile(), std::string("Testwuson.X"));
      QCOMPARE(pc.sourceClip(), cc.name);  // version 4 records the animation's own name
      QCOMPARE(pc.clipIndex(), cc.clipIndex);
      QCOMPARE(pc.frameCount(), cc.frameCount);
      QCOMPARE(pc.sampleRate(), cc.sampleRate);
      QCOMPARE(pc.settingsHash(), cc.settingsHash);
      QCOMPARE(pc.sourceHash(), m_built.asset.sourceHash);
      QCOMPARE(pc.tolerance(3).precisionCm, cc.settings.joints[3].precisionCm);
      QCOMPARE(pc.ownBytes(), std::uint32_t(runtime::clipEntrySize(runtime::kPackVersion) + cc.data.size()));
      // Sampling from the pack equals sampling the compressor's own clip block.
      auto view = runtime::ClipView::open(cc.data, m_built.asset.skeleton.restLocal);
      QVERIFY(view);
      runtime::Player a, b;
      std::vector<runtime::Transform> pa(pc.view.jointCount()), pb(pc.view.jointCount());
      for (float f = 0; f < float(pc.frameCount()); f += 0.25f) {
        a.sampleFrame(pc.view, f, pa);
        b.sampleFrame(*view, f, pb);
        QVERIFY(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(runtime::Transform)) == 0);
      }
    }
  }

  void truncatedAtEverySectionBoundary() {
    const auto& bytes = m_built.bytes;
    using H = runtime::PackHeaderLayout;
    std::set<std::size_t> cuts{0, 1, 7, 8, 63, 64, bytes.size() - 1};
    for (std::uint32_t field : {H::skeletonOffset, H::clipTableOffset, H::stringsOffset}) {
      const std::uint32_t at = read<std::uint32_t>(bytes, field);
      cuts.insert({at - 1, at, at + 1});
    }
    const std::uint32_t table = read<std::uint32_t>(bytes, H::clipTableOffset);
    for (std::uint32_t c = 0; c < read<std::uint32_t>(bytes, H::clipCount); ++c) {
      const std::size_t e = table + std::size_t(c) * runtime::clipEntrySize(runtime::kPackVersion);
      const std::uint32_t data = read<std::uint32_t>(bytes, e + runtime::ClipEntryLayout::dataOffset);
      const std::uint32_t size = read<std::uint32_t>(bytes, e + runtime::ClipEntryLayout::dataSize);
      const std::uint32_t tol = read<std::uint32_t>(bytes, e + runtime::ClipEntryLayout::tolerancesOffset);
      cuts.insert({e, data, data + 31, data + 32, data + size / 2, data + size - 1, tol});
    }
    for (std::size_t cut = 0; cut < bytes.size(); cut += 97) cuts.insert(cut);
    for (std::size_t cut : cuts) {
      if (cut >= bytes.size()) continue;
      std::vector<std::uint8_t> truncated(bytes.begin(), bytes.begin() + std::ptrdiff_t(cut));
      auto pack = runtime::Pack::open(truncated, runtime::anyVersion());
      QVERIFY2(!pack, qPrintable(QString("cut at %1").arg(cut)));
      if (cut >= 64) QVERIFY2(QString::fromStdString(pack.message()).contains("truncated"), pack.message().c_str());
    }
  }

  void flippedBytesAreRejected() {
    std::vector<std::uint8_t> bytes = m_built.bytes;
    for (std::size_t i = 0; i < bytes.size(); i += 7) {
      bytes[i] ^= 0x5a;
      auto pack = runtime::Pack::open(bytes, runtime::anyVersion());
      QVERIFY2(!pack, qPrintable(QString("flip at %1").arg(i)));
      bytes[i] ^= 0x5a;
    }
  }

  void flippedBytesWithAValidChecksumAreSafe() {
    // The structural checks alone: whatever they let through must play without reading out of
    // bounds (ASan checks that in the sanitizer run).
    std::vector<std::uint8_t> bytes = m_built.bytes;
    int rejected = 0, accepted = 0;
    for (std::size_t i = 32; i < bytes.size(); i += 3) {
      const std::uint8_t old = bytes[i];
      bytes[i] ^= 0xff;
      fixChecksum(bytes);
      auto pack = runtime::Pack::open(bytes, runtime::anyVersion());
      if (pack) {
        ++accepted;
        playEverything(*pack);
      } else {
        ++rejected;
        QVERIFY(!pack.message().empty());
      }
      bytes[i] = old;
    }
    // Bit-packed samples and floats have no redundancy: many flips only change values (the
    // checksum is what catches those); the structural checks must still catch some.
    QVERIFY(rejected > 0 && accepted > 0);
  }

  void wrongCountsAndVersionsAreRejected() {
    using H = runtime::PackHeaderLayout;
    using C = runtime::ClipEntryLayout;
    const auto& good = m_built.bytes;
    auto variant = [&](auto mutate) {
      std::vector<std::uint8_t> b = good;
      mutate(b);
      fixChecksum(b);
      return b;
    };
    expectRejected(variant([](auto& b) { patch<std::uint32_t>(b, H::version, runtime::kPackVersion + 1); }),
                   "newer than this reader", "future version");
    // The refusal names the file's version and the remedy.
    expectRejected(variant([](auto& b) { patch<std::uint32_t>(b, H::version, runtime::kPackVersion + 1); }),
                   ("format version " + std::to_string(runtime::kPackVersion + 1)).c_str(), "future version number");
    expectRejected(variant([](auto& b) { patch<std::uint32_t>(b, H::version, runtime::kPackVersion + 1); }),
                   "update animpack", "future version remedy");
    expectRejected(
        variant([](auto& b) { patch<std::uint32_t>(b, H::sourceClipsOffset, static_cast<std::uint32_t>(b.size())); }),
        "source clip name table", "source clip table offset");
    expectRejected(variant([](auto& b) {
                     patch<std::uint32_t>(b, H::sourceClipsOffset, read<std::uint32_t>(b, H::sourceClipsOffset) + 2);
                   }),
                   "source clip name table", "source clip table alignment");
    expectRejected(variant([](auto& b) { patch<std::uint32_t>(b, H::version, 0); }), "version 0", "version 0");
    expectRejected(variant([](auto& b) { b[0] = 'X'; }), "bad magic", "magic");
    expectRejected(variant([](auto& b) { patch<std::uint32_t>(b, H::flags, 4); }), "flags", "flags");
    expectRejected(variant([](auto& b) { patch<std::uint32_t>(b, H::clipCount, 1000); }), "clip table", "clip count");
    const std::uint32_t sk = read<std::uint32_t>(good, H::skeletonOffset);
    expectRejected(variant([&](auto& b) { patch<std::uint32_t>(b, sk, read<std::uint32_t>(b, sk) + 1); }), "skeleton",
                   "joint count");
    expectRejected(variant([&](auto& b) { patch<std::int32_t>(b, sk + 16 + 52 * 5, 7); }), "parents must come first",
                   "parent order");
    expectRejected(variant([&](auto& b) { patch<float>(b, sk + 4, -1.f); }), "unit", "unit");
    const std::uint32_t table = read<std::uint32_t>(good, H::clipTableOffset);
    const std::uint32_t data = read<std::uint32_t>(good, table + C::dataOffset);
    using L = runtime::ClipHeaderLayout;
    expectRejected(variant([&](auto& b) {
                     patch<std::uint32_t>(b, data + L::keyCount, read<std::uint32_t>(b, data + L::keyCount) + 5);
                   }),
                   "corrupt clip data", "key count");
    expectRejected(variant([&](auto& b) { patch<std::uint16_t>(b, data + L::uniformTrackCount, 0); }),
                   "corrupt clip data", "uniform count");
    expectRejected(variant([&](auto& b) { patch<std::uint32_t>(b, data + L::frameCount, 0); }), "frame count",
                   "frame count");
    expectRejected(variant([&](auto& b) { patch<std::uint16_t>(b, data + L::jointCount, 3); }), "joints",
                   "clip joint count");
    expectRejected(
        variant([&](auto& b) { patch<float>(b, data + L::sampleRate, std::numeric_limits<float>::quiet_NaN()); }),
        "sample rate", "sample rate");
    expectRejected(variant([&](auto& b) {
                     patch<std::uint32_t>(b, table + C::dataSize, read<std::uint32_t>(b, table + C::dataSize) - 4);
                   }),
                   "corrupt clip data", "data size");
    expectRejected(variant([&](auto& b) { patch<std::uint32_t>(b, table + C::tolerancesSize, 3); }), "tolerance",
                   "tolerances");
    expectRejected(variant([&](auto& b) {
                     b.resize(b.size() + 8, 0);
                     patch<std::uint64_t>(b, H::fileSize, b.size());
                   }),
                   "trailing", "trailing bytes");
  }

  void readingAFileNamesIt() {
    const auto dir = test::scratchDir();
    const auto path = dir / "wuson.anpk";
    QVERIFY(writeFileAtomic(path, m_built.bytes).isOk());
    auto pack = runtime::Pack::load(path, runtime::anyVersion());
    QVERIFY(pack);
    // Atomic writes leave no temporary files behind, and a failed write leaves the old file intact.
    for (const auto& e : std::filesystem::directory_iterator(dir))
      QVERIFY(e.path().filename().string().find(".tmp") == std::string::npos);
    QVERIFY(!writeFileAtomic(dir / "missing-dir" / "x.anpk", m_built.bytes));
    QVERIFY(runtime::Pack::load(path, runtime::anyVersion()));
    auto missing = runtime::Pack::load(dir / "nope.anpk", runtime::anyVersion());
    QVERIFY(!missing);
    QVERIFY(QString::fromStdString(missing.message()).contains("nope.anpk"));
    QVERIFY(!runtime::Pack::load(dir, runtime::anyVersion()));
  }

  /// Timed tracks (format version 7): key times that do not start at 0, do not increase or do not
  /// end at the last frame, a timed flag that disagrees with the kinds, and timed tracks in a pack of
  /// an older version are refused with a message that names them.
  void damagedTimedTracksAreRejected() {
    std::ifstream in(std::filesystem::path(ANIMPACK_SOURCE_DIR) / "tests/data/golden_v7.anpk", std::ios::binary);
    const std::vector<std::uint8_t> good{std::istreambuf_iterator<char>(in), {}};
    auto pack = runtime::Pack::open(good, runtime::anyVersion());
    QVERIFY2(pack, pack ? "" : pack.message().c_str());
    const runtime::ClipView& view = pack->clips()[3].view;
    QVERIFY(view.timedCount() > 0 && view.timedKeyCount() > 2);
    const std::size_t block = static_cast<std::size_t>(view.bytes().data() - pack->bytes().data());
    const std::size_t keys = static_cast<std::size_t>(view.timedKeys() - pack->bytes().data());
    const std::size_t param = static_cast<std::size_t>(view.timedParams() - pack->bytes().data());
    const std::uint32_t firstCount = read<std::uint32_t>(good, param + 4);
    const std::uint32_t stride = runtime::timedKeySize(runtime::Channel(good[param + 2]), good[param + 3]);
    auto variant = [&](auto mutate) {
      std::vector<std::uint8_t> b = good;
      mutate(b);
      fixChecksum(b);
      return b;
    };
    expectRejected(variant([&](auto& b) { patch<std::uint32_t>(b, keys, 7); }), "do not increase from time 0",
                   "first key not at time 0");
    expectRejected(variant([&](auto& b) { patch<std::uint32_t>(b, keys + stride, 0); }), "do not increase",
                   "key times not increasing");
    expectRejected(variant([&](auto& b) {
                     const std::size_t last = keys + std::size_t(firstCount - 1) * stride;
                     patch<std::uint32_t>(b, last, read<std::uint32_t>(b, last) - 1);
                   }),
                   "does not end at the last frame", "last key before the last frame");
    expectRejected(variant([&](auto& b) {
                     const std::size_t flags = block + runtime::ClipHeaderLayout::flags;
                     patch<std::uint16_t>(b, flags,
                                          std::uint16_t(read<std::uint16_t>(b, flags) & ~runtime::kClipFlagTimed));
                   }),
                   "timed flag and timed tracks disagree", "timed tracks without the timed flag");
    expectRejected(variant([&](auto& b) { patch<std::uint32_t>(b, runtime::PackHeaderLayout::version, 6); }),
                   "timed tracks, which version 6 does not define", "timed tracks in a version-6 pack");
  }

  /// Segmented curves (format version 9): a segment length out of range, a residual width over 25,
  /// a segment table that disagrees with the widths, a flag without segmented curves, and segmented
  /// curves in a pack of an older version are refused with a message that names them.
  void damagedSegmentedCurvesAreRejected() {
    std::ifstream in(std::filesystem::path(ANIMPACK_SOURCE_DIR) / "tests/data/golden_v9.anpk", std::ios::binary);
    const std::vector<std::uint8_t> good{std::istreambuf_iterator<char>(in), {}};
    auto pack = runtime::Pack::open(good, runtime::anyVersion());
    QVERIFY2(pack, pack ? "" : pack.message().c_str());
    const runtime::ClipView& view = pack->clips()[3].view;
    QCOMPARE(view.curveSegmentedCount(), std::uint32_t(2));
    const std::size_t block = static_cast<std::size_t>(view.bytes().data() - pack->bytes().data());
    const std::uint8_t* partAt = view.curveSection().segmented;
    const std::size_t part = static_cast<std::size_t>(partAt - pack->bytes().data());
    const runtime::SegmentedCurvesView g = runtime::SegmentedCurvesView::at(partAt, view.frameCount());
    const std::size_t table = static_cast<std::size_t>(g.table - pack->bytes().data());
    const std::size_t data = static_cast<std::size_t>(g.data - pack->bytes().data());
    auto variant = [&](auto mutate) {
      std::vector<std::uint8_t> b = good;
      mutate(b);
      fixChecksum(b);
      return b;
    };
    expectRejected(variant([&](auto& b) { b[part + runtime::SegmentedCurvesLayout::segmentShift] = 1; }),
                   "segment length out of range", "segments of 2 frames");
    expectRejected(variant([&](auto& b) { b[data] = std::uint8_t(b[data] | 0x1f); }), "residual width out of range",
                   "a residual width of 31");
    expectRejected(variant([&](auto& b) { patch<std::uint32_t>(b, table + 4, read<std::uint32_t>(b, table + 4) + 1); }),
                   "is not where the table says", "a segment table entry one byte off");
    expectRejected(variant([&](auto& b) {
                     const std::size_t flags = block + runtime::ClipHeaderLayout::flags;
                     patch<std::uint16_t>(
                         b, flags, std::uint16_t(read<std::uint16_t>(b, flags) & ~runtime::kClipFlagSegmentedCurves));
                   }),
                   "segmented curves flag and segmented curves disagree", "segmented curves without their flag");
    expectRejected(variant([&](auto& b) { patch<std::uint32_t>(b, runtime::PackHeaderLayout::version, 8); }),
                   "segmented curves, which version 8 does not define", "segmented curves in a version-8 pack");
  }

  /// Packed timed keys (format version 10): a time shift, time width, component count or value
  /// width out of range, a step that is not positive, times outside the clip or that do not end at its
  /// last frame, padding that is not zero, and packed keys in a pack of an older version are refused with a message
  /// that names them.
  void damagedPackedTimedKeysAreRejected() {
    std::ifstream in(std::filesystem::path(ANIMPACK_SOURCE_DIR) / "tests/data/golden_v10.anpk", std::ios::binary);
    const std::vector<std::uint8_t> good{std::istreambuf_iterator<char>(in), {}};
    auto pack = runtime::Pack::open(good, runtime::anyVersion());
    QVERIFY2(pack, pack ? "" : pack.message().c_str());
    const runtime::ClipView& view = pack->clips()[3].view;
    QVERIFY(view.timedPacked());
    // The first packed track's parameters and keys.
    runtime::TimedTracks tracks(view);
    runtime::TimedTrack t;
    std::size_t param = static_cast<std::size_t>(view.timedParams() - pack->bytes().data());
    while (tracks.next(t) && t.format != runtime::kTimedPacked) param += runtime::timedParamSize(t.channel, t.format);
    QCOMPARE(t.format, runtime::kTimedPacked);
    QVERIFY(t.keyCount > 2 && t.timeWidth > 0);
    const std::size_t keys = static_cast<std::size_t>(t.keys - pack->bytes().data());
    // Where the last track's keys end: the 8 zero bytes of padding follow.
    const std::uint8_t* runEnd = t.keys + (std::uint64_t(t.keyCount) * t.keyBits + 7) / 8;
    for (runtime::TimedTrack rest; tracks.next(rest);)
      runEnd = rest.keys + (rest.format == runtime::kTimedPacked ? (std::uint64_t(rest.keyCount) * rest.keyBits + 7) / 8
                                                                 : std::uint64_t(rest.keyCount) * rest.stride);
    const std::size_t end = static_cast<std::size_t>(runEnd - pack->bytes().data()) + 1;
    namespace P = runtime::PackedTimedParam;
    auto variant = [&](auto mutate) {
      std::vector<std::uint8_t> b = good;
      mutate(b);
      fixChecksum(b);
      return b;
    };
    expectRejected(variant([&](auto& b) { b[param + P::kShift] = 17; }), "packed timed track parameters out of range",
                   "a time shift of 17");
    expectRejected(variant([&](auto& b) { b[param + P::kTimeWidth] = 32; }),
                   "packed timed track parameters out of range", "a time width of 32");
    expectRejected(variant([&](auto& b) { patch<std::int32_t>(b, param + P::kBase, -1000000); }), "is not in the clip",
                   "key times before the clip");
    expectRejected(variant([&](auto& b) { b[param + P::kComponents] = 5; }),
                   "packed timed track parameters out of range", "five components");
    expectRejected(variant([&](auto& b) { b[param + P::kWidths] = 25; }), "component 0 out of range",
                   "a value width of 25");
    expectRejected(variant([&](auto& b) { patch<float>(b, param + P::kStep, 0.f); }), "step is not finite and positive",
                   "a step of 0");
    expectRejected(variant([&](auto& b) { patch<float>(b, param + P::kMin, std::numeric_limits<float>::infinity()); }),
                   "component 0 out of range", "an infinite minimum");
    // The first key's time offset one unit off: the first key is no longer at time 0.
    expectRejected(variant([&](auto& b) { b[keys] = std::uint8_t(b[keys] ^ 1u); }), "timed track",
                   "the first key off time 0");
    expectRejected(variant([&](auto& b) { b[end - 1] = 1; }), "timed section padding is not zero",
                   "padding that is not zero");
    expectRejected(variant([&](auto& b) { patch<std::uint32_t>(b, runtime::PackHeaderLayout::version, 9); }),
                   "packed timed keys, which version 9 does not define", "packed keys in a version-9 pack");
  }

  void goldenPacksStillReadBitExactly_data() {
    QTest::addColumn<int>("version");
    QTest::newRow("v1") << 1;  // written by animpack 0.1: frames only (its between-frame curve is gone)
    QTest::newRow("v2") << 2;  // between-frame interpolation, raw tracks
    QTest::newRow("v3") << 3;  // a clip that wraps from its last frame to its first, 64-byte clip table entries
    QTest::newRow("v4") << 4;  // source clip names; residual offsets derived when a clip is opened
    QTest::newRow("v5")
        << 5;  // keys track by track, uniform tracks by group, no snapshots: decoded from the pack's bytes
    QTest::newRow("v6") << 6;    // morph curves: the curve table, curve precisions and curve sections
    QTest::newRow("v7") << 7;    // timed tracks: keys at their own times between frames
    QTest::newRow("v8") << 8;    // the scene scale each clip was measured at
    QTest::newRow("v9") << 9;    // segmented curves: lines between boundaries plus residuals
    QTest::newRow("v10") << 10;  // packed timed keys: times and values in bit fields of the tracks' widths
  }
  void goldenPacksStillReadBitExactly() {
    // tests/data/golden_vN.anpk were written by tests/data/make_golden.cpp from the generated x100
    // armature rig; their decoded frames (and, from version 2, frame midpoints) hash to the value
    // recorded then.
    QFETCH(int, version);
    const std::string stem = "tests/data/golden_v" + std::to_string(version);
    auto pack =
        runtime::Pack::load(std::filesystem::path(ANIMPACK_SOURCE_DIR) / (stem + ".anpk"), runtime::anyVersion());
    QVERIFY2(pack, pack ? "" : pack.message().c_str());
    QCOMPARE(pack->version(), std::uint32_t(version));
    QCOMPARE(pack->clips().size(), std::size_t(version >= 7 ? 4 : version >= 5 ? 3 : 2));
    if (version >= 7) {
      // Every key format: quantized and float32, and from version 10 packed.
      std::set<std::uint8_t> formats;
      runtime::TimedTracks tracks(pack->clips()[3].view);
      for (runtime::TimedTrack t; tracks.next(t);) formats.insert(t.format);
      QCOMPARE(formats.size(), std::size_t(version >= 10 ? 3 : 2));
      QCOMPARE(formats.count(runtime::kTimedPacked), std::size_t(version >= 10 ? 1 : 0));
    }
    QCOMPARE(std::string(pack->clips()[0].name()), std::string("Walk"));
    if (version >= 5) QVERIFY(pack->clips()[2].view.keyedCount() > 0);
    QCOMPARE(std::string(pack->skeleton().name(0)), std::string("Armature"));
    if (version >= 2) QVERIFY(pack->clips()[1].view.rawCount() > 0);
    QCOMPARE(pack->skeleton().curveCount(), std::uint32_t(version >= 6 ? 4 : 0));
    if (version >= 6) QVERIFY(pack->clips()[0].view.curveKeyedCount() + pack->clips()[0].view.curveUniformCount() > 0);
    QCOMPARE(pack->clips().back().view.curveSegmentedCount(), std::uint32_t(version >= 9 ? 2 : 0));
    QCOMPARE(pack->clips()[0].view.wraps(), version >= 3);
    QCOMPARE(pack->clips()[0].sceneScale(), 1.f);
    QCOMPARE(pack->clips()[1].sceneScale(), version >= 8 ? 10.f : 1.f);
    QCOMPARE(std::string(pack->clips()[0].sourceClip()), version >= 4 ? std::string("Walk") : std::string());
    std::ifstream in(std::filesystem::path(ANIMPACK_SOURCE_DIR) / (stem + ".hash"));
    std::string expected;
    in >> expected;
    char actual[32];
    std::snprintf(actual, sizeof(actual), "%016llx", static_cast<unsigned long long>(hashDecoded(*pack, version >= 2)));
    QCOMPARE(QString(actual), QString::fromStdString(expected));
  }

  void upgradeRewritesEveryOldVersionBitExactly_data() {
    QTest::addColumn<int>("version");
    for (int v = 1; v < int(runtime::kPackVersion); ++v) QTest::newRow(("v" + std::to_string(v)).c_str()) << v;
  }
  void upgradeRewritesEveryOldVersionBitExactly() {
    // `animpack upgrade` (core::upgradePack): the current version, the same poses.
    QFETCH(int, version);
    const std::filesystem::path source =
        std::filesystem::path(ANIMPACK_SOURCE_DIR) / ("tests/data/golden_v" + std::to_string(version) + ".anpk");
    std::ifstream in(source, std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto direct = runtime::Pack::open(bytes);
    if (version < int(runtime::kPackOldestDirectVersion)) {
      // The runtime alone refuses it, naming the command.
      QVERIFY(!direct);
      QVERIFY2(direct.message().find("animpack upgrade OLD.anpk -o NEW.anpk") != std::string::npos,
               direct.message().c_str());
      QVERIFY(direct.message().find("format version " + std::to_string(version)) != std::string::npos);
    } else {
      QVERIFY(direct);
    }
    auto old = runtime::Pack::open(bytes, runtime::anyVersion());
    QVERIFY(old);
    const QTemporaryDir dir;
    const std::filesystem::path output = dir.filePath("upgraded.anpk").toStdString();
    auto written = core::upgradePack(source, output);
    QVERIFY2(written, written ? "" : written.message().c_str());
    QCOMPARE(written->fromVersion, std::uint32_t(version));
    auto upgraded = runtime::Pack::load(output);  // no upgrader: the current version
    QVERIFY2(upgraded, upgraded ? "" : upgraded.message().c_str());
    QCOMPARE(upgraded->version(), runtime::kPackVersion);
    QCOMPARE(upgraded->clips().size(), old->clips().size());
    QCOMPARE(hashDecoded(*upgraded, true), hashDecoded(*old, true));
    for (std::size_t i = 0; i < old->clips().size(); ++i) {
      QCOMPARE(upgraded->clips()[i].name(), old->clips()[i].name());
      QCOMPARE(upgraded->clips()[i].additiveBase(), old->clips()[i].additiveBase());
    }
  }
};

QTEST_GUILESS_MAIN(TestPack)
#include "tst_pack.moc"
