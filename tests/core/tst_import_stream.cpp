// The import stream an import child sends its parent: a round trip keeps every field, and a
// damaged or hostile stream (truncated, flipped, oversized counts, an invalid asset) is an error
// naming the source, never a crash or an out-of-bounds read (this test also runs under ASan).
#include <QtTest>

#include <cstring>

#include "core/io/asset_importer.h"
#include "core/io/import_stream.h"
#include "core/runtime/hash.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

ImportedAsset load(const std::filesystem::path& path) {
  auto asset = importAsset(path);
  if (!asset) qFatal("%s", asset.message().c_str());
  return std::move(asset.value());
}

/// Rewrites the header's size and checksum so a payload edit reaches the structural checks.
void reseal(std::vector<std::uint8_t>& bytes) {
  const std::uint64_t size = bytes.size() - kImportStreamHeaderBytes;
  const std::uint64_t sum = runtime::fnv1a64(std::span(bytes).subspan(kImportStreamHeaderBytes));
  std::memcpy(bytes.data() + 16, &size, 8);
  std::memcpy(bytes.data() + 24, &sum, 8);
}

QString readError(const std::vector<std::uint8_t>& bytes) {
  const auto r = readImportStream(bytes, "rig.gltf");
  return r ? QString() : QString::fromStdString(r.message());
}

}  // namespace

class TestImportStream : public QObject {
  Q_OBJECT
 private slots:
  void roundTripKeepsEveryField() {
    for (const char* file : {"X/Testwuson.X", "BVH/01_01.bvh"}) {
      const ImportedAsset a = load(test::model(file));
      const std::vector<std::uint8_t> bytes = writeImportStream(a);
      const auto b = readImportStream(bytes, file);
      QVERIFY2(b, b ? "" : b.message().c_str());
      QCOMPARE(writeImportStream(*b), bytes);  // every serialised field came back
      QCOMPARE(b->skeleton.names, a.skeleton.names);
      QCOMPARE(b->clips.size(), a.clips.size());
      QCOMPARE(b->clips.back().samples.size(), a.clips.back().samples.size());
      QCOMPARE(std::memcmp(b->clips.back().samples.data(), a.clips.back().samples.data(),
                           a.clips.back().samples.size() * sizeof(Transform)),
               0);
      QCOMPARE(b->meshes.size(), a.meshes.size());
      QCOMPARE(b->unitSource, a.unitSource);
      QCOMPARE(b->sourceHash, a.sourceHash);
      QCOMPARE(b->diagnostics.size(), a.diagnostics.size());
    }
  }

  void anImportErrorTravelsAsItself() {
    const auto r = readImportStream(writeImportStream(Error{"walk.fbx: nothing to compress"}), "walk.fbx");
    QVERIFY(!r);
    QCOMPARE(r.message(), std::string("walk.fbx: nothing to compress"));
  }

  void headerDamageIsNamed() {
    const std::vector<std::uint8_t> good =
        writeImportStream(load(test::writeScene(test::armatureRig(1.f), "stream.gltf")));
    QVERIFY(readImportStream(good, "rig.gltf"));
    auto bytes = good;
    bytes[0] = 'X';
    QVERIFY(readError(bytes).contains("magic"));
    bytes = good;
    bytes[8] = std::uint8_t(kImportStreamVersion + 1);
    QVERIFY(readError(bytes).contains("version " + QString::number(kImportStreamVersion + 1)));
    bytes = good;
    bytes[12] = 7;
    QVERIFY(readError(bytes).contains("kind 7"));
    bytes = good;
    bytes.push_back(0);
    QVERIFY(readError(bytes).contains("payload bytes"));
    bytes = good;
    bytes.back() ^= 1;
    QVERIFY(readError(bytes).contains("checksum"));
    bytes = good;
    bytes.push_back(0);
    reseal(bytes);
    QVERIFY(readError(bytes).contains("bytes after the asset"));
    QVERIFY(readError({}).contains("rig.gltf"));
  }

  void everyTruncationAndEveryFlippedByteIsAnErrorOrValid() {
    const std::vector<std::uint8_t> good =
        writeImportStream(load(test::writeScene(test::armatureRig(1.f), "stream.gltf")));
    int errors = 0;
    for (std::size_t n = 0; n < good.size(); ++n) {
      std::vector<std::uint8_t> cut(good.begin(), good.begin() + std::ptrdiff_t(n));
      if (n >= kImportStreamHeaderBytes) reseal(cut);
      errors += !readImportStream(cut, "rig.gltf");
    }
    QCOMPARE(errors, int(good.size()));
    // A flipped payload byte with a resealed checksum reaches the bounds and validity checks.
    for (std::size_t i = kImportStreamHeaderBytes; i < good.size(); ++i) {
      for (std::uint8_t v : {std::uint8_t(0xff), std::uint8_t(0x7f)}) {
        auto bytes = good;
        bytes[i] = v;
        reseal(bytes);
        (void)readImportStream(bytes, "rig.gltf");
      }
    }
  }

  void countsAreCheckedBeforeAllocating() {
    auto bytes = writeImportStream(load(test::writeScene(test::armatureRig(1.f), "stream.gltf")));
    const std::uint64_t huge = ~std::uint64_t(0) / 2;
    std::memcpy(bytes.data() + kImportStreamHeaderBytes, &huge, 8);  // the file name's length
    reseal(bytes);
    QVERIFY(readError(bytes).contains("do not fit"));
  }

  void anInvalidAssetIsRejected() {
    ImportedAsset a = load(test::writeScene(test::armatureRig(1.f), "stream.gltf"));
    a.skeleton.parents[0] = 3;  // parents must come first
    QVERIFY(readError(writeImportStream(a)).contains("invalid asset"));
    a = load(test::writeScene(test::armatureRig(1.f), "stream.gltf"));
    a.clips[0].samples[7].translation.x = std::numeric_limits<float>::quiet_NaN();
    QVERIFY(readError(writeImportStream(a)).contains("invalid asset"));
    a = load(test::writeScene(test::armatureRig(1.f), "stream.gltf"));
    a.meshes.at(0).indices.push_back(1u << 30);
    QVERIFY(readError(writeImportStream(a)).contains("invalid asset"));
  }
};

QTEST_GUILESS_MAIN(TestImportStream)
#include "tst_import_stream.moc"
