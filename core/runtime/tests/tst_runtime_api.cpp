// The public API (animpack/*.h) refuses every invalid input at its edge and then writes nothing: a
// test per entry point and input. Runs in every build of the runtime, under ASan/UBSan in the
// sanitizer build, and on every target of scripts/test-runtime-targets.
#include <animpack/pack.h>
#include <animpack/player.h>
#include <animpack/skinning.h>

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "check.h"
#include "core/runtime/clip_format.h"
#include "core/runtime/hash.h"
#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"
#include "test_packs.h"

using namespace animpack;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

/// A pose filled with a value no decoder writes, to see that a refused call wrote nothing.
std::vector<Transform> sentinelPose(std::size_t joints) {
  Transform t;
  t.translation = {-12345.f, -12345.f, -12345.f};
  return std::vector<Transform>(joints, t);
}
bool untouched(const std::vector<Transform>& pose) {
  const Transform sentinel = sentinelPose(1)[0];
  for (const Transform& t : pose)
    if (std::memcmp(&t, &sentinel, sizeof(Transform)) != 0) return false;
  return true;
}

/// The golden pack of `version`, opened over its bytes (kept beside it).
Expected<Pack> openGolden(int version, std::vector<std::byte>& bytes) {
  bytes = test::readBytes(test::goldenPath(version));
  return Pack::open(bytes);
}

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

RUNTIME_TEST(opensTheVersionsItReadsInPlace) {
  for (int version = 5; version <= 8; ++version) {
    std::vector<std::byte> bytes;
    auto pack = openGolden(version, bytes);
    REQUIRE(pack);
    CHECK(pack->version() == std::uint32_t(version));
    CHECK(pack->fileBytes() == bytes.size());
    CHECK(pack->clipCount() >= 3);
    CHECK(pack->jointName(0) == "Armature");
    // Names are views into the caller's bytes: nothing was copied.
    const char* name = pack->jointName(0).data();
    CHECK(name >= reinterpret_cast<const char*>(bytes.data()) &&
          name < reinterpret_cast<const char*>(bytes.data() + bytes.size()));
  }
}

namespace {
/// A file mapped read-only into memory, as an engine maps its asset archives.
class ReadOnlyMapping {
 public:
  explicit ReadOnlyMapping(const std::string& path) {
#if defined(_WIN32)
    m_file = CreateFileA(path.c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING, 0, nullptr);
    if (m_file == INVALID_HANDLE_VALUE) return;
    LARGE_INTEGER size;
    GetFileSizeEx(m_file, &size);
    m_mapping = CreateFileMappingA(m_file, nullptr, PAGE_READONLY, 0, 0, nullptr);
    if (!m_mapping) return;
    m_data = MapViewOfFile(m_mapping, FILE_MAP_READ, 0, 0, 0);
    m_size = static_cast<std::size_t>(size.QuadPart);
#else
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* data = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (data != MAP_FAILED) {
        m_data = data;
        m_size = static_cast<std::size_t>(st.st_size);
      }
    }
    ::close(fd);
#endif
  }
  ~ReadOnlyMapping() {
#if defined(_WIN32)
    if (m_data) UnmapViewOfFile(m_data);
    if (m_mapping) CloseHandle(m_mapping);
    if (m_file != INVALID_HANDLE_VALUE) CloseHandle(m_file);
#else
    if (m_data) ::munmap(m_data, m_size);
#endif
  }
  ReadOnlyMapping(const ReadOnlyMapping&) = delete;
  ReadOnlyMapping& operator=(const ReadOnlyMapping&) = delete;
  std::span<const std::byte> bytes() const { return {static_cast<const std::byte*>(m_data), m_size}; }

 private:
  void* m_data = nullptr;
  std::size_t m_size = 0;
#if defined(_WIN32)
  HANDLE m_file = INVALID_HANDLE_VALUE, m_mapping = nullptr;
#endif
};
}  // namespace

RUNTIME_TEST(opensAReadOnlyMemoryMappedFile) {
  // Every page is read-only: a write into the pack's bytes would fault.
  ReadOnlyMapping mapped(test::goldenPath(8));
  REQUIRE(!mapped.bytes().empty());
  auto pack = Pack::open(mapped.bytes());
  REQUIRE(pack);
  CHECK(pack->fileBytes() == mapped.bytes().size());
  Player player;
  std::vector<Transform> pose(pack->jointCount());
  std::vector<float> weights(pack->curveCount());
  for (std::uint32_t c = 0; c < pack->clipCount(); ++c)
    for (float t = 0.f; t < pack->clip(c).duration(); t += 0.05f)
      CHECK(player.sample(pack->clip(c), t, pose, weights) == Result::Ok);
  // The same poses as from a copy of the file.
  const std::vector<std::byte> copy = test::readBytes(test::goldenPath(8));
  auto fromCopy = Pack::open(copy);
  REQUIRE(fromCopy);
  std::vector<Transform> other(pose.size());
  Player second;
  CHECK(player.sample(pack->clip(0), 0.3f, pose) == Result::Ok);
  CHECK(second.sample(fromCopy->clip(0), 0.3f, other) == Result::Ok);
  CHECK(std::memcmp(pose.data(), other.data(), pose.size() * sizeof(Transform)) == 0);
}

RUNTIME_TEST(refusesOlderVersionsNamingTheUpgrade) {
  for (int version = 1; version <= 4; ++version) {
    std::vector<std::byte> bytes;
    auto pack = openGolden(version, bytes);
    REQUIRE(!pack);
    CHECK(contains(pack.message(), ("format version " + std::to_string(version)).c_str()));
    CHECK(contains(pack.message(), "animpack upgrade OLD.anpk -o NEW.anpk"));
  }
}

RUNTIME_TEST(refusesTruncatedCorruptAndFutureBytes) {
  const std::vector<std::byte> good = test::readBytes(test::goldenPath(8));
  REQUIRE(!good.empty());
  for (std::size_t size : {std::size_t(0), std::size_t(10), std::size_t(64), good.size() / 2, good.size() - 1}) {
    auto pack = Pack::open(std::span(good).first(size));
    CHECK(!pack);
  }
  std::vector<std::byte> corrupt = good;
  corrupt[corrupt.size() / 2] ^= std::byte{0x5a};
  auto bad = Pack::open(corrupt);
  REQUIRE(!bad);
  CHECK(contains(bad.message(), "checksum"));
  std::vector<std::byte> future = good;
  future[8] = std::byte{99};  // the version field
  auto newer = Pack::open(future);
  REQUIRE(!newer);
  CHECK(contains(newer.message(), "format version 99 is newer"));
  auto missing = Pack::load("/nonexistent/animpack/missing.anpk");
  REQUIRE(!missing);
  CHECK(contains(missing.message(), "missing.anpk"));
  CHECK(!Pack::load(nullptr));
}

namespace {
/// Counts what a Pack or Player takes from its memory resource.
class CountingResource : public std::pmr::memory_resource {
 public:
  std::size_t live = 0, allocations = 0;

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    live += bytes;
    ++allocations;
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    live -= bytes;
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};
}  // namespace

RUNTIME_TEST(derivesFromTheCallersMemoryResource) {
  CountingResource memory;
  {
    const std::vector<std::byte> bytes = test::readBytes(test::goldenPath(8));
    auto pack = Pack::open(bytes, &memory);
    REQUIRE(pack);
    CHECK(memory.allocations > 0);
    if (memory.live != pack->derivedBytes())
      std::printf("  live %zu, derived %zu\n", memory.live, pack->derivedBytes());
    CHECK(memory.live == pack->derivedBytes());  // the Pack object itself, and its vectors
    Pack moved = std::move(pack.value());
    CHECK(moved.clipCount() >= 3);
    Player player(&memory);
    std::vector<Transform> pose(moved.jointCount());
    const std::size_t before = memory.live;
    CHECK(player.blend(moved.clip(0), 0.1f, moved.clip(1), 0.2f, 0.5f, BlendMode::Naive, pose) == Result::Ok);
    CHECK(memory.live > before);  // the player's second pose
  }
  CHECK(memory.live == 0);
}

RUNTIME_TEST(sampleRefusesBadInput) {
  std::vector<std::byte> bytes;
  auto pack = openGolden(8, bytes);
  REQUIRE(pack);
  const Clip clip = pack->clip(0);
  const std::uint32_t joints = clip.jointCount();
  REQUIRE(joints > 1);
  Player player;
  auto shortPose = sentinelPose(joints - 1);
  CHECK(player.sample(clip, 0.f, shortPose) == Result::PoseTooShort);
  CHECK(untouched(shortPose));
  std::vector<Transform> empty;
  CHECK(player.sample(clip, 0.f, empty) == Result::PoseTooShort);
  auto pose = sentinelPose(joints);
  for (float t : {kNaN, kInf, -kInf}) {
    CHECK(player.sample(clip, t, pose) == Result::TimeNotFinite);
    CHECK(player.sampleFrame(clip, t, pose) == Result::TimeNotFinite);
  }
  CHECK(player.sample(Clip(), 0.f, pose) == Result::NoClip);
  CHECK(player.sample(pack->findClip("no such clip"), 0.f, pose) == Result::NoClip);
  CHECK(player.sample(pack->clip(pack->clipCount()), 0.f, pose) == Result::NoClip);
  CHECK(player.sampleFrame(clip, 0.f, shortPose) == Result::PoseTooShort);
  CHECK(untouched(pose) && untouched(shortPose));
  CHECK(player.sample(clip, 1e5f, pose) == Result::Ok);  // long past the end: wraps or clamps
  CHECK(player.sample(clip, 0.25f, pose) == Result::Ok);
  CHECK(!untouched(pose));
  // A longer span is fine: the joints past the clip's are left as they were.
  auto longer = sentinelPose(joints + 3);
  CHECK(player.sample(clip, 0.25f, longer) == Result::Ok);
  CHECK(longer[joints].translation.x == -12345.f);
  CHECK(std::memcmp(longer.data(), pose.data(), joints * sizeof(Transform)) == 0);
}

RUNTIME_TEST(weightsAreChecked) {
  std::vector<std::byte> bytes;
  auto pack = openGolden(8, bytes);
  REQUIRE(pack);
  const Clip clip = pack->clip(0);
  REQUIRE(clip.curveCount() == 4);
  Player player;
  auto pose = sentinelPose(clip.jointCount());
  std::vector<float> shortWeights(clip.curveCount() - 1, -7.f), weights(clip.curveCount(), -7.f);
  CHECK(player.sample(clip, 0.f, pose, shortWeights) == Result::WeightsTooShort);
  CHECK(untouched(pose) && shortWeights[0] == -7.f);
  CHECK(player.sample(clip, kNaN, pose, weights) == Result::TimeNotFinite);
  CHECK(player.sample(Clip(), 0.f, pose, weights) == Result::NoClip);
  std::vector<Transform> shortPose = sentinelPose(1);
  CHECK(player.sample(clip, 0.f, shortPose, weights) == Result::PoseTooShort);
  CHECK(weights[0] == -7.f && untouched(shortPose));
  CHECK(player.sampleFrame(clip, 2.f, pose, shortWeights) == Result::WeightsTooShort);
  CHECK(player.sampleFrame(clip, kNaN, pose, weights) == Result::TimeNotFinite);
  CHECK(player.sampleFrame(clip, 2.f, shortPose, weights) == Result::PoseTooShort);
  CHECK(untouched(pose) && untouched(shortPose) && weights[0] == -7.f && shortWeights[0] == -7.f);
  CHECK(player.sample(clip, 0.3f, {}, weights) == Result::Ok);  // the weights alone
  CHECK(weights[0] != -7.f && untouched(pose));
  CHECK(player.sample(clip, 0.3f, pose, weights) == Result::Ok);
}

namespace {
/// Golden pack v8 with its first joint renamed and the checksum made good again: a pack of another
/// skeleton (same joint count) the runtime opens.
std::vector<std::byte> foreignPackBytes() {
  std::vector<std::byte> bytes = test::readBytes(test::goldenPath(8));
  auto* data = reinterpret_cast<std::uint8_t*>(bytes.data());
  // The skeleton hash the pack stores, replaced by the renamed skeleton's.
  auto original = runtime::Pack::open(std::span<const std::uint8_t>(data, bytes.size()), runtime::PackOpenOptions{});
  if (!original) return {};
  std::vector<std::string> names = original->skeleton().names();
  const std::vector<std::int32_t> parents(original->skeleton().parents().begin(), original->skeleton().parents().end());
  const std::uint64_t before = original->skeleton().hash();
  names[0][0] = 'B';
  const std::uint64_t after = runtime::skeletonHash(names, parents);
  for (std::size_t i = 0; i + 8 <= bytes.size(); ++i)
    if (runtime::loadLE<std::uint64_t>(data + i) == before) runtime::storeLE(data + i, after);
  const std::string from = "Armature";
  for (std::size_t i = 0; i + from.size() <= bytes.size(); ++i)
    if (std::memcmp(bytes.data() + i, from.data(), from.size()) == 0) {
      bytes[i] = std::byte{'B'};
      break;
    }
  const std::uint64_t checksum =
      runtime::fnv1a64(std::span(data + runtime::kPackChecksumStart, bytes.size() - runtime::kPackChecksumStart));
  runtime::storeLE(data + runtime::PackHeaderLayout::checksum, checksum);
  return bytes;
}
}  // namespace

RUNTIME_TEST(aBoundPlayerRefusesForeignClips) {
  std::vector<std::byte> bytes, other = foreignPackBytes();
  auto pack = openGolden(8, bytes);
  auto foreign = Pack::open(other);
  if (!foreign) std::printf("  %s\n", foreign.message().c_str());
  REQUIRE(pack && foreign);
  CHECK(foreign->jointName(0) == "Brmature");
  CHECK(foreign->skeletonHash() != pack->skeletonHash());
  CHECK(foreign->jointCount() == pack->jointCount());
  Player player;
  player.bindSkeleton(*pack);
  auto pose = sentinelPose(pack->jointCount());
  std::vector<float> weights(pack->curveCount(), -7.f);
  const Clip stranger = foreign->clip(0);
  CHECK(player.sample(stranger, 0.f, pose) == Result::ForeignClip);
  CHECK(player.sample(stranger, 0.f, pose, weights) == Result::ForeignClip);
  CHECK(player.sampleFrame(stranger, 0.f, pose) == Result::ForeignClip);
  CHECK(player.sampleFrame(stranger, 0.f, pose, weights) == Result::ForeignClip);
  Transform motion = sentinelPose(1)[0];
  CHECK(player.rootMotion(stranger, 0.f, 1.f, motion) == Result::ForeignClip);
  CHECK(std::memcmp(&motion, sentinelPose(1).data(), sizeof(Transform)) == 0);
  CHECK(player.blend(pack->clip(0), 0.f, stranger, 0.f, 0.5f, BlendMode::Naive, pose) == Result::ForeignClip);
  CHECK(untouched(pose) && weights[0] == -7.f);
  CHECK(player.sample(pack->clip(1), 0.f, pose) == Result::Ok);
  // Unbound, a player plays any clip, but never blends two skeletons.
  Player free;
  auto pose2 = sentinelPose(pack->jointCount());
  CHECK(free.blend(pack->clip(0), 0.f, stranger, 0.f, 0.5f, BlendMode::Naive, pose2) == Result::SkeletonMismatch);
  CHECK(untouched(pose2));
  CHECK(free.sample(stranger, 0.f, pose2) == Result::Ok);
}

RUNTIME_TEST(blendRefusesBadInput) {
  std::vector<std::byte> bytes;
  auto pack = openGolden(8, bytes);
  REQUIRE(pack);
  const Clip a = pack->clip(0), b = pack->clip(1);
  const std::uint32_t joints = a.jointCount();
  Player player;
  auto pose = sentinelPose(joints), shortPose = sentinelPose(joints - 1);
  CHECK(player.blend(a, 0.f, b, 0.f, 0.5f, BlendMode::Decomposed, shortPose) == Result::PoseTooShort);
  CHECK(player.blend(a, kNaN, b, 0.f, 0.5f, BlendMode::Naive, pose) == Result::TimeNotFinite);
  CHECK(player.blend(a, 0.f, b, kInf, 0.5f, BlendMode::Naive, pose) == Result::TimeNotFinite);
  CHECK(player.blend(a, 0.f, b, 0.f, kNaN, BlendMode::Naive, pose) == Result::WeightNotFinite);
  CHECK(player.blend(a, 0.f, b, 0.f, kInf, BlendMode::Naive, pose) == Result::WeightNotFinite);
  CHECK(player.blend(Clip(), 0.f, b, 0.f, 0.5f, BlendMode::Naive, pose) == Result::NoClip);
  CHECK(player.blend(a, 0.f, Clip(), 0.f, 0.5f, BlendMode::Naive, pose) == Result::NoClip);
  CHECK(untouched(pose) && untouched(shortPose));
  // Caller storage: misaligned, and too small for the second pose.
  alignas(16) std::byte storage[4096];
  CHECK(player.useStorage(std::span(storage + 1, 64)) == Result::StorageMisaligned);
  CHECK(player.useStorage(std::span(storage, 16)) == Result::Ok);
  CHECK(player.blend(a, 0.f, b, 0.f, 0.5f, BlendMode::Naive, pose) == Result::StorageTooSmall);
  CHECK(untouched(pose));
  CHECK(player.sample(a, 0.f, pose) == Result::Ok);  // decodes without its frame cache
  CHECK(player.useStorage(std::span(storage, sizeof(storage))) == Result::Ok);
  CHECK(sizeof(storage) >= Player::blendStorageBytes(a, b));
  CHECK(player.blend(a, 0.1f, b, 0.2f, 0.5f, BlendMode::Decomposed, pose) == Result::Ok);
}

RUNTIME_TEST(addClipAndRootMotionAreChecked) {
  auto pack = Pack::load(test::runtimePathsPack().c_str());
  REQUIRE(pack);
  const Clip walk = pack->findClip("WalkTurn"), additive = pack->findClip("WalkAdditive");
  REQUIRE(walk && additive && additive.additive() && walk.hasRootMotion() && walk.loops());
  const std::uint32_t joints = pack->jointCount();
  Player player;
  auto pose = sentinelPose(joints), scratch = sentinelPose(joints), shortScratch = sentinelPose(joints - 1);
  CHECK(player.addClip(walk, 0.f, 1.f, pose, scratch) == Result::NotAdditive);
  CHECK(player.addClip(additive, 0.f, 1.f, pose, shortScratch) == Result::ScratchTooShort);
  CHECK(player.addClip(additive, 0.f, kNaN, pose, scratch) == Result::WeightNotFinite);
  CHECK(player.addClip(additive, 0.f, kInf, pose, scratch) == Result::WeightNotFinite);
  CHECK(player.addClip(additive, kNaN, 1.f, pose, scratch) == Result::TimeNotFinite);
  CHECK(player.addClip(additive, 0.f, 1.f, std::span(pose).first(joints - 1), scratch) == Result::PoseTooShort);
  CHECK(player.addClip(additive, 0.f, 1.f, pose, std::span(pose).subspan(1)) == Result::ScratchTooShort);
  std::vector<Transform> both = sentinelPose(2 * joints);
  CHECK(player.addClip(additive, 0.f, 1.f, std::span(both).first(joints), std::span(both).subspan(joints / 2)) ==
        Result::ScratchOverlapsPose);
  CHECK(player.addClip(Clip(), 0.f, 1.f, pose, scratch) == Result::NoClip);
  CHECK(untouched(pose) && untouched(scratch) && untouched(shortScratch) && untouched(both));
  CHECK(player.sample(walk, 0.2f, pose) == Result::Ok);
  const std::vector<Transform> base = pose;
  CHECK(player.addClip(additive, 0.2f, 0.f, pose, scratch) == Result::Ok);  // weight 0: the base
  float apart = 0.f;
  for (std::uint32_t j = 0; j < joints; ++j)
    for (int k = 0; k < 10; ++k)
      apart = std::max(
          apart, std::fabs(reinterpret_cast<const float*>(&pose[j])[k] - reinterpret_cast<const float*>(&base[j])[k]));
  CHECK(apart < 1e-6f);
  CHECK(player.addClip(additive, 0.2f, 1.f, pose, scratch) == Result::Ok);
  CHECK(std::memcmp(pose.data(), base.data(), joints * sizeof(Transform)) != 0);

  Transform motion = sentinelPose(1)[0];
  CHECK(player.rootMotion(walk, kNaN, 1.f, motion) == Result::TimeNotFinite);
  CHECK(player.rootMotion(walk, 0.f, kInf, motion) == Result::TimeNotFinite);
  CHECK(player.rootMotion(walk, 0.f, 2e6f, motion) == Result::TimeOutOfRange);
  CHECK(player.rootMotion(walk, -2e6f, 0.f, motion) == Result::TimeOutOfRange);
  CHECK(player.rootMotion(Clip(), 0.f, 1.f, motion) == Result::NoClip);
  CHECK(std::memcmp(&motion, sentinelPose(1).data(), sizeof(Transform)) == 0);
  CHECK(player.rootMotion(walk, 0.f, 0.5f, motion) == Result::Ok);
  CHECK(std::fabs(motion.translation.x) + std::fabs(motion.translation.z) > 0.f);  // it walks
  // Many cycles (a day of looping) stay finite.
  CHECK(player.rootMotion(walk, 0.f, 86400.f, motion) == Result::Ok);
  CHECK(std::isfinite(motion.translation.x) && std::isfinite(motion.rotation.w));
}

RUNTIME_TEST(timesBeyondTheRangeAreRefused) {
  std::vector<std::byte> bytes;
  auto pack = openGolden(8, bytes);
  REQUIRE(pack);
  const Clip clip = pack->clip(0);
  Player player;
  auto pose = sentinelPose(clip.jointCount());
  CHECK(player.sample(clip, 2e6f, pose) == Result::TimeOutOfRange);
  CHECK(player.sample(clip, -2e6f, pose) == Result::TimeOutOfRange);
  CHECK(player.sampleFrame(clip, 2e8f, pose) == Result::TimeOutOfRange);
  CHECK(player.blend(clip, 0.f, pack->clip(1), 2e6f, 0.5f, BlendMode::Naive, pose) == Result::TimeOutOfRange);
  CHECK(untouched(pose));
  CHECK(player.sample(clip, Player::kMaxSeconds, pose) == Result::Ok);
  CHECK(player.sampleFrame(clip, -Player::kMaxFrame, pose) == Result::Ok);
}

RUNTIME_TEST(clipsOfDifferentJointCountsDoNotBlend) {
  std::vector<std::byte> bytes;
  auto golden = openGolden(8, bytes);
  auto walker = Pack::load(test::runtimePathsPack().c_str());
  REQUIRE(golden && walker);
  REQUIRE(golden->jointCount() != walker->jointCount());
  Player player;
  auto pose = sentinelPose(std::max(golden->jointCount(), walker->jointCount()));
  CHECK(player.blend(golden->clip(0), 0.f, walker->clip(0), 0.f, 0.5f, BlendMode::Decomposed, pose) ==
        Result::SkeletonMismatch);
  CHECK(player.blend(walker->clip(0), 0.f, golden->clip(0), 0.f, 0.5f, BlendMode::Naive, pose) ==
        Result::SkeletonMismatch);
  CHECK(untouched(pose));
  // A player bound to the golden skeleton refuses the walker's additive layer and root motion.
  player.bindSkeleton(*golden);
  auto scratch = sentinelPose(pose.size());
  CHECK(player.addClip(walker->findClip("WalkAdditive"), 0.f, 1.f, pose, scratch) == Result::ForeignClip);
  Transform motion = sentinelPose(1)[0];
  CHECK(player.rootMotion(walker->findClip("WalkTurn"), 0.f, 1.f, motion) == Result::ForeignClip);
  CHECK(untouched(pose) && untouched(scratch) && std::memcmp(&motion, sentinelPose(1).data(), sizeof(Transform)) == 0);
}

RUNTIME_TEST(poseHelpersAreChecked) {
  std::vector<std::byte> bytes;
  auto pack = openGolden(8, bytes);
  REQUIRE(pack);
  const std::uint32_t joints = pack->jointCount();
  std::vector<Transform> a(joints), b(joints), out = sentinelPose(joints);
  std::vector<Transform> shortRest(pack->restPose().begin(), pack->restPose().end() - 1);
  CHECK(blendPoses(a, std::span(b).first(joints - 1), 0.5f, BlendMode::Naive, pack->restPose(), out) ==
        Result::SkeletonMismatch);
  CHECK(blendPoses(a, b, kNaN, BlendMode::Naive, pack->restPose(), out) == Result::WeightNotFinite);
  CHECK(blendPoses(a, b, 0.5f, BlendMode::Decomposed, shortRest, out) == Result::PoseTooShort);
  CHECK(blendPoses(a, b, 0.5f, BlendMode::Naive, pack->restPose(), std::span(out).first(1)) == Result::PoseTooShort);
  CHECK(untouched(out));
  CHECK(blendPoses(a, b, 0.5f, BlendMode::Decomposed, pack->restPose(), out) == Result::Ok);
  std::vector<Matrix4> model(joints), palette(joints), inverseBind(joints);
  CHECK(modelMatrices(pack->parents(), std::span(a).first(joints - 1), model) == Result::PoseTooShort);
  std::vector<std::int32_t> badParents(pack->parents().begin(), pack->parents().end());
  badParents[1] = 3;
  CHECK(modelMatrices(badParents, a, model) == Result::ParentOrder);
  CHECK(modelMatrices(pack->parents(), pack->restPose(), model) == Result::Ok);
  CHECK(skinningPalette(model, std::span(inverseBind).first(1), palette) == Result::PoseTooShort);
  CHECK(skinningPalette(model, inverseBind, palette) == Result::Ok);
  CHECK(std::string(describe(Result::PoseTooShort)).find("pose") != std::string::npos);
}

namespace {
/// Every clip's first `joints` joints through sample(clip, t, N, pose) against the first joints of
/// a full pose: bit for bit, at and between frames, forward and back, on a player that switches
/// between full poses and the level of detail (its frame cache must not mix them) and on one that
/// keeps the level; the joints past N are left untouched.
void checkLevelOfDetail(const Pack& pack, std::uint32_t joints) {
  Player reference, switching, kept;
  const std::uint32_t all = pack.jointCount();
  std::vector<Transform> full(all), lod(all), alone(all);
  for (std::uint32_t c = 0; c < pack.clipCount(); ++c) {
    const Clip clip = pack.clip(c);
    std::vector<float> times;
    for (float t = -0.1f; t < clip.duration() + 0.2f; t += 1.f / 60.f) times.push_back(t);
    for (std::size_t i = times.size(); i-- > 0;) times.push_back(times[i] + 0.37f / 60.f);
    for (float t : times) {
      CHECK(reference.sample(clip, t, full) == Result::Ok);
      lod = alone = sentinelPose(all);
      // The level of detail first, then a full pose at the same frames, then the level again.
      CHECK(switching.sample(clip, t, joints, lod) == Result::Ok);
      std::vector<Transform> again(all);
      CHECK(switching.sample(clip, t, all, again) == Result::Ok);
      CHECK(std::memcmp(again.data(), full.data(), sizeof(Transform) * all) == 0);
      lod = sentinelPose(all);
      CHECK(switching.sample(clip, t, joints, lod) == Result::Ok);
      CHECK(kept.sample(clip, t, joints, alone) == Result::Ok);
      CHECK(std::memcmp(lod.data(), full.data(), sizeof(Transform) * joints) == 0);
      CHECK(std::memcmp(alone.data(), full.data(), sizeof(Transform) * joints) == 0);
      const std::vector<Transform> rest(alone.begin() + joints, alone.end());
      CHECK(untouched(rest));
    }
  }
}
}  // namespace

RUNTIME_TEST(levelsOfDetailDecodeTheFirstJointsBitForBit) {
  std::vector<std::string> paths = {test::runtimePathsPack()};
  for (int version = 5; version <= 8; ++version) paths.push_back(test::goldenPath(version));
  for (const std::string& path : paths) {
    const std::vector<std::byte> bytes = test::readBytes(path);
    auto pack = Pack::open(bytes);
    REQUIRE(pack);
    const std::uint32_t all = pack->jointCount();
    for (std::uint32_t joints : {1u, all / 3, all / 2, all - 1, all})
      if (joints >= 1 && joints <= all) checkLevelOfDetail(*pack, joints);
  }
}

RUNTIME_TEST(aLevelOfDetailRefusesMoreJointsThanTheClipHas) {
  std::vector<std::byte> bytes;
  auto pack = openGolden(8, bytes);
  REQUIRE(pack);
  const Clip clip = pack->clip(0);
  Player player;
  std::vector<Transform> pose = sentinelPose(pack->jointCount() + 1);
  CHECK(player.sample(clip, 0.5f, clip.jointCount() + 1, pose) == Result::JointCountOutOfRange);
  CHECK(player.sampleFrame(clip, 1.5f, clip.jointCount() + 1, pose) == Result::JointCountOutOfRange);
  CHECK(untouched(pose));
  std::vector<Transform> shorter = sentinelPose(2);
  CHECK(player.sample(clip, 0.5f, 3, shorter) == Result::PoseTooShort);
  CHECK(player.sample(clip, kNaN, 1, shorter) == Result::TimeNotFinite);
  CHECK(untouched(shorter));
  CHECK(player.sample(clip, 0.5f, 2, shorter) == Result::Ok);
  CHECK(player.sample(clip, 0.5f, 0, shorter) == Result::Ok);  // no joint: nothing to write
  CHECK(contains(describe(Result::JointCountOutOfRange), "joint count"));
}

int main(int argc, char** argv) { return animpack::test::runtimeTestMain(argc, argv); }
