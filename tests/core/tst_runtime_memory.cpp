// What the runtime keeps in memory (core/runtime/FORMAT.md "What the runtime keeps"), counted with a
// replaced operator new (app/cli/alloc_count.h): what opening a pack derives equals
// Pack::derivedBytes and stays within the memory targets; sampling and blending allocate nothing
// after a player's first call on a clip; a player grows to its largest clip and no further; a player
// on caller-owned storage never allocates and gives the same poses; several threads sample one pack
// with a player each and get the poses one thread gets.
#include <QtTest>

#include <cstring>
#include <thread>

#include "app/cli/alloc_count.h"
#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/io/pack_writer.h"
#include "core/runtime/pack.h"
#include "core/runtime/player.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;
using cli::AllocationCount;

namespace {

std::vector<std::uint8_t> packOf(const std::filesystem::path& path) {
  const ImportedAsset asset = test::importOrFail(path);
  std::vector<CompressedClip> clips;
  std::vector<PackClipRecord> records;
  for (const RawClip& clip : asset.clips) {
    auto c = makeCompressJob(asset, clip, resolve({}, asset.skeleton, clip.name)).run();
    if (!c) qFatal("%s", c.message().c_str());
    clips.push_back(std::move(c.value()));
  }
  for (const CompressedClip& c : clips) records.push_back(clipRecord(c, path.filename().string(), asset.sourceHash));
  return buildPack(skeletonRecord(asset.skeleton, asset.unitToCm), records);
}

/// Every pose of every clip at 60 Hz, forward, then backward.
std::vector<runtime::Transform> playAll(const runtime::Pack& pack, runtime::Player& player) {
  std::vector<runtime::Transform> poses;
  for (const runtime::PackClip& c : pack.clips()) {
    std::vector<runtime::Transform> out(c.view.jointCount());
    for (int pass = 0; pass < 2; ++pass)
      for (int k = 0; k <= int(c.view.duration() * 60.f); ++k) {
        const float t = float(pass == 0 ? k : int(c.view.duration() * 60.f) - k) / 60.f;
        player.sample(c.view, t, out);
        poses.insert(poses.end(), out.begin(), out.end());
      }
  }
  return poses;
}

bool samePoses(const std::vector<runtime::Transform>& a, const std::vector<runtime::Transform>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(runtime::Transform)) == 0;
}

}  // namespace

class TestRuntimeMemory : public QObject {
  Q_OBJECT
 private:
  std::vector<std::uint8_t> m_wuson, m_rig;

 private slots:
  void initTestCase() {
    m_wuson = packOf(test::model("X/Testwuson.X"));  // three clips, uniform and keyed tracks
    m_rig = packOf(test::writeScene(test::armatureRig(100.f, 25, 25.f), "memory_rig.gltf"));
  }

  void openingDerivesWhatItSays() {
    for (const auto* bytes : {&m_wuson, &m_rig}) {
      std::vector<std::uint8_t> copy = *bytes;
      AllocationCount::start();
      auto pack = runtime::Pack::open(std::move(copy));
      const std::int64_t counted = AllocationCount::stop();
      QVERIFY2(pack, pack ? "" : pack.message().c_str());
      // Everything Pack::open keeps, counted, is what it reports (its object beside the heap).
      QCOMPARE(std::size_t(counted) + sizeof(runtime::Pack), pack->derivedBytes());
      QCOMPARE(pack->derivedBytes(), runtime::Pack::sharedDerivedBytes(pack->skeleton().jointCount()) +
                                         pack->clips().size() * runtime::Pack::clipDerivedBytes());
      // The memory target: at most 10 % of the clips' bytes, plus 1 KiB and 64 bytes a joint.
      std::size_t clipBytes = 0;
      for (const runtime::PackClip& c : pack->clips()) clipBytes += c.ownBytes();
      QVERIFY2(double(pack->derivedBytes()) <= 0.1 * double(clipBytes) + 1024 + 64.0 * pack->skeleton().jointCount(),
               qPrintable(QString("%1 derived for %2 clip bytes").arg(pack->derivedBytes()).arg(clipBytes)));
    }
  }

  void samplingAndBlendingAllocateNothingAfterTheFirstCall() {
    auto pack = runtime::Pack::open(m_wuson);
    QVERIFY(pack);
    runtime::Player player;
    const auto clips = pack->clips();
    std::vector<runtime::Transform> out(pack->skeleton().jointCount());
    // First calls: the player takes the state its clips need.
    for (const runtime::PackClip& c : clips) player.sample(c.view, 0.f, out);
    player.blend(clips[0].view, 0.f, clips[1].view, 0.f, 0.5f, runtime::BlendMode::Decomposed, out);
    player.blend(clips[1].view, 0.f, clips[2].view, 0.f, 0.5f, runtime::BlendMode::Naive, out);
    player.blend(clips[2].view, 0.f, clips[0].view, 0.f, 0.5f, runtime::BlendMode::Naive, out);
    AllocationCount::start();
    for (int round = 0; round < 3; ++round)
      for (std::size_t i = 0; i < clips.size(); ++i) {
        const runtime::ClipView& a = clips[i].view;
        const runtime::ClipView& b = clips[(i + 1) % clips.size()].view;
        for (float t = -0.5f; t < a.duration() + 0.5f; t += 0.013f) {
          player.sample(a, t, out);
          player.sampleFrame(a, t * a.sampleRate(), out);
          player.blend(a, t, b, t * 0.7f, 0.3f, runtime::BlendMode::Decomposed, out);
        }
      }
    QCOMPARE(AllocationCount::stop(), std::int64_t(0));
    QCOMPARE(AllocationCount::allocations(), std::uint64_t(0));
  }

  void aPlayerHoldsWhatItsLargestClipNeeds() {
    auto pack = runtime::Pack::open(m_wuson);
    QVERIFY(pack);
    runtime::Player player;
    std::size_t largest = 0;
    for (const runtime::PackClip& c : pack->clips()) largest = std::max(largest, runtime::Player::storageBytes(c.view));
    playAll(*pack, player);
    QCOMPARE(player.stateBytes(), sizeof(runtime::Player) + largest);
    // Within the per-joint budget, which decides whether a clip keeps a frame cache at all.
    QVERIFY(player.stateBytes() <= runtime::Player::kStateBytesPerJoint * pack->skeleton().jointCount());
    // The frame cache pays: forward playback at 60 Hz decodes fewer frames than poses between frames.
    QVERIFY(player.framesDecoded() > 0);
  }

  void callerOwnedStorageGivesTheSamePosesWithoutAllocating() {
    auto pack = runtime::Pack::open(m_wuson);
    QVERIFY(pack);
    runtime::Player heap;
    const std::vector<runtime::Transform> expected = playAll(*pack, heap);
    std::size_t need = 0;
    for (const runtime::PackClip& c : pack->clips()) need = std::max(need, runtime::Player::storageBytes(c.view));
    alignas(16) std::byte storage[8192];
    QVERIFY(need <= sizeof(storage));
    runtime::Player pooled(std::span<std::byte>(storage, need));
    // The output and the poses collected are allocated first: only what the player allocates counts.
    std::vector<runtime::Transform> poses, out(pack->skeleton().jointCount());
    poses.reserve(expected.size());
    AllocationCount::start();
    for (const runtime::PackClip& c : pack->clips())
      for (int pass = 0; pass < 2; ++pass)
        for (int k = 0; k <= int(c.view.duration() * 60.f); ++k) {
          const float t = float(pass == 0 ? k : int(c.view.duration() * 60.f) - k) / 60.f;
          pooled.sample(c.view, t, out);
          poses.insert(poses.end(), out.begin(), out.end());
        }
    QCOMPARE(AllocationCount::stop(), std::int64_t(0));
    QVERIFY(samePoses(poses, expected));
    // Too little storage: no frame cache, the same poses.
    runtime::Player small(std::span<std::byte>(storage, 16));
    QVERIFY(samePoses(playAll(*pack, small), expected));
    QCOMPARE(small.framesDecoded() > heap.framesDecoded(), true);
  }

  void levelsOfDetailKeepTheFrameCacheApart() {
    // A player whose frame cache holds a level of detail's frames (partial batches) and then plays
    // the full pose, or another level, at the same frames: every pose equals a fresh player's.
    // (The runtime's own tests check the bits on packs too small for a frame cache.)
    int cached = 0;
    for (const auto* bytes : {&m_wuson, &m_rig}) {
      auto pack = runtime::Pack::open(*bytes);
      QVERIFY(pack);
      const std::uint32_t all = pack->skeleton().jointCount();
      for (const runtime::PackClip& c : pack->clips()) {
        cached += runtime::Player::storageBytes(c.view) + sizeof(runtime::Player) <=
                  runtime::Player::kStateBytesPerJoint * all;
        runtime::Player reference, player;
        std::vector<runtime::Transform> full(all), out(all);
        const std::uint32_t levels[] = {1, all / 4, all / 2, all - 1};
        for (int k = 0; k <= int(c.view.duration() * 60.f); ++k) {
          const float t = float(k) / 60.f + (k % 3 == 0 ? 0.f : 0.004f);
          reference.sample(c.view, t, full);
          const std::uint32_t n = levels[k % 4];
          player.sampleJoints(c.view, t, n, out);
          QVERIFY(std::memcmp(out.data(), full.data(), n * sizeof(runtime::Transform)) == 0);
          player.sample(c.view, t, out);
          QVERIFY(samePoses(out, full));
          player.sampleFrameJoints(c.view, t * c.view.sampleRate(), levels[(k + 1) % 4], out);
          player.sampleFrame(c.view, t * c.view.sampleRate(), out);
          reference.sampleFrame(c.view, t * c.view.sampleRate(), full);
          QVERIFY(samePoses(out, full));
        }
      }
    }
    QVERIFY(cached > 0);  // the frame cache was in play
    // A player moved into another keeps the level its cache holds.
    auto pack = runtime::Pack::open(m_wuson);
    QVERIFY(pack);
    const runtime::ClipView& view = pack->clips()[0].view;
    const std::uint32_t all = pack->skeleton().jointCount(), quarter = all / 4;
    std::vector<runtime::Transform> full(all), out(all);
    const float t = view.duration() / 3.f + 0.004f;
    runtime::Player reference, a, b;
    reference.sample(view, t, full);
    a.sampleJoints(view, t, 1, out);
    b.sampleJoints(view, t, quarter, out);
    b = std::move(a);
    b.sampleJoints(view, t, quarter, out);
    QVERIFY(std::memcmp(out.data(), full.data(), quarter * sizeof(runtime::Transform)) == 0);
    runtime::Player c(std::move(b));
    c.sampleJoints(view, t, quarter, out);
    QVERIFY(std::memcmp(out.data(), full.data(), quarter * sizeof(runtime::Transform)) == 0);
  }

  void aReusedPlayerNeverReturnsAStalePose() {
    // Samples and blends of clips of different sizes in turn, so the caches move in the storage
    // and overwrite each other: every pose equals a fresh player's.
    auto pack = runtime::Pack::open(m_wuson);
    QVERIFY(pack);
    const auto clips = pack->clips();
    const std::size_t joints = pack->skeleton().jointCount();
    runtime::Player reused;
    alignas(16) std::byte storage[4096];
    // Room for a blend's second pose and one clip's cache: some calls keep caches, others cannot.
    const std::size_t room =
        (joints * sizeof(runtime::Transform) + 15) / 16 * 16 + runtime::Player::storageBytes(clips[0].view);
    QVERIFY(room <= sizeof(storage));
    runtime::Player pooled(std::span<std::byte>(storage, room));
    std::vector<runtime::Transform> got(joints), expected(joints);
    int calls = 0;
    for (int step = 0; step < 240; ++step) {
      const runtime::ClipView& a = clips[std::size_t(step / 7) % clips.size()].view;
      const runtime::ClipView& b = clips[std::size_t(step / 5 + 1) % clips.size()].view;
      const float t = 0.031f * float(step % 40);
      for (runtime::Player* player : {&reused, &pooled}) {
        runtime::Player fresh;
        if (step % 3 == 0) {
          player->sample(b, t, got);
          fresh.sample(b, t, expected);
        } else if (player == &reused || step % 3 == 1) {
          player->blend(a, t, b, t * 0.8f, 0.4f, runtime::BlendMode::Decomposed, got);
          fresh.blend(a, t, b, t * 0.8f, 0.4f, runtime::BlendMode::Decomposed, expected);
        } else {
          player->sample(a, t, got);
          fresh.sample(a, t, expected);
        }
        ++calls;
        QVERIFY2(std::memcmp(got.data(), expected.data(), joints * sizeof(runtime::Transform)) == 0,
                 qPrintable(QString("step %1").arg(step)));
      }
    }
    QVERIFY(calls > 0);
  }

  void severalThreadsSampleOnePack() {
    auto pack = runtime::Pack::open(m_wuson);
    QVERIFY(pack);
    runtime::Player one;
    const std::vector<runtime::Transform> expected = playAll(*pack, one);
    std::vector<std::vector<runtime::Transform>> results(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < results.size(); ++i)
      threads.emplace_back([&, i] {
        runtime::Player player(i % 2 ? runtime::DecodePath::Simd : runtime::DecodePath::Scalar);
        for (int round = 0; round < 3; ++round) results[i] = playAll(*pack, player);
      });
    for (std::thread& t : threads) t.join();
    for (const auto& r : results) QVERIFY(samePoses(r, expected));
  }
};

QTEST_GUILESS_MAIN(TestRuntimeMemory)
#include "tst_runtime_memory.moc"
