#include "core/runtime/pack.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "core/runtime/hash.h"
#include "core/runtime/pack_format.h"

namespace animpack::runtime {
namespace {

Error fail(const std::string& what) { return Error{"invalid pack: " + what}; }

bool inBounds(std::size_t size, std::uint64_t offset, std::uint64_t length) {
  return offset <= size && length <= size - offset;
}

}  // namespace

std::uint64_t skeletonHash(std::span<const std::string> names, std::span<const std::int32_t> parents) {
  std::uint64_t h = fnv1a64Value(static_cast<std::uint32_t>(names.size()), kFnvOffset);
  for (std::size_t j = 0; j < names.size(); ++j) {
    h = fnv1a64Value(parents[j], h);
    h = fnv1a64Value(static_cast<std::uint32_t>(names[j].size()), h);
    h = fnv1a64(names[j], h);
  }
  return h;
}

const PackClip* Pack::findClip(std::string_view name) const {
  for (const PackClip& c : m_clips)
    if (c.name == name) return &c;
  return nullptr;
}

Expected<Pack> Pack::load(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{"'" + path.string() + "' is a directory, not a pack"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open '" + path.string() + "': no such file or not readable"};
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{"cannot read '" + path.string() + "'"};
  auto pack = open(std::move(bytes));
  if (!pack) return Error{"'" + path.string() + "': " + pack.message()};
  return pack;
}

Expected<Pack> Pack::open(std::vector<std::uint8_t> bytes) {
  using H = PackHeaderLayout;
  const std::size_t size = bytes.size();
  const std::uint8_t* d = bytes.data();
  if (size < kPackHeaderSize) {
    if (size >= 8 && std::memcmp(d, kPackMagic, 8) != 0) return fail("not an animpack pack (bad magic)");
    return fail("file is " + std::to_string(size) + " bytes, shorter than the 64-byte header (truncated?)");
  }
  if (std::memcmp(d, kPackMagic, 8) != 0) return fail("not an animpack pack (bad magic)");
  const std::uint32_t version = loadLE<std::uint32_t>(d + H::version);
  if (version == 0) return fail("format version 0 does not exist");
  if (version > kPackVersion)
    return fail("format version " + std::to_string(version) + " is newer than this reader (version " +
                std::to_string(kPackVersion) + "); update animpack to read it");
  if (loadLE<std::uint32_t>(d + H::flags) != 0) return fail("unknown header flags");
  const std::uint64_t fileSize = loadLE<std::uint64_t>(d + H::fileSize);
  if (fileSize != size)
    return fail("header says " + std::to_string(fileSize) + " bytes but the file has " + std::to_string(size) +
                (size < fileSize ? " (truncated)" : " (trailing data)"));
  const std::uint64_t checksum = loadLE<std::uint64_t>(d + H::checksum);
  if (checksum != fnv1a64(std::span(d + kPackChecksumStart, size - kPackChecksumStart)))
    return fail("checksum mismatch: the file is corrupt");
  if (loadLE<std::uint32_t>(d + H::headerSize) != kPackHeaderSize || loadLE<std::uint32_t>(d + H::reserved) != 0)
    return fail("unexpected header size");

  Pack pack;
  pack.m_version = version;
  const std::uint64_t stringsOffset = loadLE<std::uint32_t>(d + H::stringsOffset);
  const std::uint64_t stringsSize = loadLE<std::uint32_t>(d + H::stringsSize);
  if (!inBounds(size, stringsOffset, stringsSize)) return fail("string table out of bounds");
  auto readString = [&](std::uint32_t offset, std::uint32_t length, std::string& out) {
    if (!inBounds(stringsSize, offset, length)) return false;
    out.assign(reinterpret_cast<const char*>(d + stringsOffset + offset), length);
    return true;
  };

  // Skeleton.
  const std::uint64_t skOffset = loadLE<std::uint32_t>(d + H::skeletonOffset);
  const std::uint64_t skSize = loadLE<std::uint32_t>(d + H::skeletonSize);
  if (!inBounds(size, skOffset, skSize) || skSize < kSkeletonHeaderSize) return fail("skeleton block out of bounds");
  const std::uint8_t* sk = d + skOffset;
  const std::uint32_t jointCount = loadLE<std::uint32_t>(sk);
  if (jointCount == 0 || jointCount > kMaxJoints) return fail("joint count " + std::to_string(jointCount) + " out of range");
  if (skSize != kSkeletonHeaderSize + std::uint64_t(jointCount) * kSkeletonJointSize) return fail("skeleton block size disagrees with its joint count");
  PackSkeleton& skel = pack.m_skeleton;
  skel.unitToCm = loadLE<float>(sk + 4);
  if (!(skel.unitToCm > 0.f) || !std::isfinite(skel.unitToCm)) return fail("unit scale is not a positive number");
  skel.hash = loadLE<std::uint64_t>(sk + 8);
  skel.names.resize(jointCount);
  skel.parents.resize(jointCount);
  skel.restPose.resize(jointCount);
  std::size_t nameBytes = 0;
  for (std::uint32_t j = 0; j < jointCount; ++j) {
    const std::uint8_t* p = sk + kSkeletonHeaderSize + std::size_t(j) * kSkeletonJointSize;
    const std::int32_t parent = loadLE<std::int32_t>(p);
    if (parent < -1 || parent >= static_cast<std::int32_t>(j))
      return fail("joint " + std::to_string(j) + " has parent " + std::to_string(parent) + "; parents must come first");
    skel.parents[j] = parent;
    if (!readString(loadLE<std::uint32_t>(p + 4), loadLE<std::uint32_t>(p + 8), skel.names[j]))
      return fail("name of joint " + std::to_string(j) + " out of bounds");
    nameBytes += skel.names[j].size();
    float v[10];
    std::memcpy(v, p + 12, sizeof(v));
    for (float f : v)
      if (!std::isfinite(f)) return fail("rest pose of joint " + std::to_string(j) + " is not finite");
    Transform& t = skel.restPose[j];
    t.translation = {v[0], v[1], v[2]};
    t.rotation = {v[3], v[4], v[5], v[6]};
    t.scale = {v[7], v[8], v[9]};
    if (std::fabs(dot(t.rotation, t.rotation) - 1.f) > 1e-3f) return fail("rest rotation of joint " + std::to_string(j) + " is not a unit quaternion");
  }
  if (skeletonHash(skel.names, skel.parents) != skel.hash) return fail("skeleton hash does not match its joints");
  pack.m_skeletonBytes = skSize + nameBytes;

  // Clips.
  const std::uint64_t tableOffset = loadLE<std::uint32_t>(d + H::clipTableOffset);
  const std::uint64_t clipCount = loadLE<std::uint32_t>(d + H::clipCount);
  if (!inBounds(size, tableOffset, clipCount * kClipEntrySize)) return fail("clip table out of bounds");
  pack.m_clips.resize(clipCount);
  for (std::uint64_t i = 0; i < clipCount; ++i) {
    using C = ClipEntryLayout;
    const std::uint8_t* e = d + tableOffset + i * kClipEntrySize;
    PackClip& clip = pack.m_clips[i];
    const std::string which = "clip " + std::to_string(i);
    if (!readString(loadLE<std::uint32_t>(e + C::nameOffset), loadLE<std::uint16_t>(e + C::nameLength), clip.name) ||
        !readString(loadLE<std::uint32_t>(e + C::sourceOffset), loadLE<std::uint16_t>(e + C::sourceLength), clip.sourceFile))
      return fail(which + " names out of bounds");
    clip.clipIndex = loadLE<std::uint32_t>(e + C::clipIndex);
    clip.startTime = loadLE<double>(e + C::startTime);
    clip.dataOffset = loadLE<std::uint32_t>(e + C::dataOffset);
    clip.dataSize = loadLE<std::uint32_t>(e + C::dataSize);
    clip.settingsHash = loadLE<std::uint64_t>(e + C::settingsHash);
    clip.sourceHash = loadLE<std::uint64_t>(e + C::sourceHash);
    if (!std::isfinite(clip.startTime)) return fail(which + " start time is not finite");
    if (!inBounds(size, clip.dataOffset, clip.dataSize)) return fail(which + " data out of bounds");

    // Tolerances: u16 unique count, u8 index width (1 or 2), u8 zero; unique (precision, shell,
    // pinned) entries; then an index per joint. Clips with equal tables share one.
    const std::uint64_t tolOffset = loadLE<std::uint32_t>(e + C::tolerancesOffset);
    const std::uint64_t tolSize = loadLE<std::uint32_t>(e + C::tolerancesSize);
    if (!inBounds(size, tolOffset, tolSize) || tolSize < kToleranceHeaderSize) return fail(which + " tolerances out of bounds");
    const std::uint32_t unique = loadLE<std::uint16_t>(d + tolOffset);
    const std::uint32_t indexWidth = d[tolOffset + 2];
    if (unique == 0 || unique > jointCount || (indexWidth != 1 && indexWidth != 2) || d[tolOffset + 3] != 0 ||
        (indexWidth == 1 && unique > 256) ||
        tolSize != kToleranceHeaderSize + std::uint64_t(unique) * kToleranceEntrySize + std::uint64_t(indexWidth) * jointCount)
      return fail(which + " tolerance table size is wrong");
    std::vector<JointTolerance> table(unique);
    for (std::uint32_t u = 0; u < unique; ++u) {
      const std::uint8_t* p = d + tolOffset + kToleranceHeaderSize + std::size_t(u) * kToleranceEntrySize;
      table[u] = {loadLE<float>(p), loadLE<float>(p + 4), p[8] != 0};
      if (!(table[u].precisionCm > 0.f) || !(table[u].shellCm > 0.f) || !std::isfinite(table[u].precisionCm) ||
          !std::isfinite(table[u].shellCm) || p[8] > 1)
        return fail(which + " has an invalid precision or shell distance");
    }
    clip.tolerances.resize(jointCount);
    const std::uint8_t* indices = d + tolOffset + kToleranceHeaderSize + std::size_t(unique) * kToleranceEntrySize;
    for (std::uint32_t j = 0; j < jointCount; ++j) {
      const std::uint32_t index = indexWidth == 1 ? indices[j] : loadLE<std::uint16_t>(indices + 2 * j);
      if (index >= unique) return fail(which + " tolerance index out of range");
      clip.tolerances[j] = table[index];
    }

    auto view = ClipView::open(std::span(d + clip.dataOffset, clip.dataSize), skel.restPose);
    if (!view) return fail(which + " ('" + clip.name + "'): " + view.message());
    clip.view = std::move(view.value());
    clip.frameCount = clip.view.frameCount();
    clip.sampleRate = clip.view.sampleRate();
    clip.loop = clip.view.loops();
    // The clip's own bytes (DESIGN §9): its table entry and its data block. Names and tolerance
    // tables are metadata, counted in the pack's size like the shared skeleton block.
    clip.ownBytes = kClipEntrySize + clip.dataSize;
  }
  // Every byte belongs to a section (up to the 8-byte alignment of the end).
  std::uint64_t end = std::max<std::uint64_t>({kPackHeaderSize, skOffset + skSize, tableOffset + clipCount * kClipEntrySize,
                                               stringsOffset + stringsSize});
  for (std::uint64_t i = 0; i < clipCount; ++i) {
    const std::uint8_t* e = d + tableOffset + i * kClipEntrySize;
    end = std::max<std::uint64_t>(end, std::uint64_t(loadLE<std::uint32_t>(e + ClipEntryLayout::dataOffset)) +
                                           loadLE<std::uint32_t>(e + ClipEntryLayout::dataSize));
    end = std::max<std::uint64_t>(end, std::uint64_t(loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesOffset)) +
                                           loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesSize));
  }
  if ((end + kPackAlignment - 1) / kPackAlignment * kPackAlignment != size)
    return fail(std::to_string(size - std::min<std::uint64_t>(end, size)) + " trailing bytes after the last section");
  pack.m_bytes = std::move(bytes);
  return pack;
}

}  // namespace animpack::runtime
