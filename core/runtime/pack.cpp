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

/// Reads and validates a pack section by section (FORMAT.md "File layout"); the writer
/// (core/io/pack_writer.cpp) builds the same sections in the same order.
class PackReader {
 public:
  PackReader(const std::vector<std::uint8_t>& bytes, Pack& pack) : m_data(bytes.data()), m_size(bytes.size()), m_pack(pack) {}

  Status header();
  Status strings();
  Status skeleton();
  Status clips();
  Status trailing() const;

 private:
  bool readString(std::uint32_t offset, std::uint32_t length, std::string& out) const {
    if (!inBounds(m_stringsSize, offset, length)) return false;
    out.assign(reinterpret_cast<const char*>(m_data + m_stringsOffset + offset), length);
    return true;
  }
  Status tolerances(const std::uint8_t* entry, const std::string& which, PackClip& clip) const;
  Status sourceClip(std::uint64_t index, const std::string& which, PackClip& clip) const;

  const std::uint8_t* m_data;
  std::size_t m_size;
  Pack& m_pack;
  std::uint64_t m_stringsOffset = 0, m_stringsSize = 0;
};

Status PackReader::header() {
  using H = PackHeaderLayout;
  if (m_size < kPackHeaderSize) {
    if (m_size >= 8 && std::memcmp(m_data, kPackMagic, 8) != 0) return fail("not an animpack pack (bad magic)");
    return fail("file is " + std::to_string(m_size) + " bytes, shorter than the 64-byte header (truncated?)");
  }
  if (std::memcmp(m_data, kPackMagic, 8) != 0) return fail("not an animpack pack (bad magic)");
  const std::uint32_t version = loadLE<std::uint32_t>(m_data + H::version);
  if (version == 0) return fail("format version 0 does not exist");
  if (version > kPackVersion)
    return fail("format version " + std::to_string(version) + " is newer than this reader (version " + std::to_string(kPackVersion) +
                "); update animpack to read it");
  if (loadLE<std::uint32_t>(m_data + H::flags) != 0) return fail("unknown header flags");
  const std::uint64_t fileSize = loadLE<std::uint64_t>(m_data + H::fileSize);
  if (fileSize != m_size)
    return fail("header says " + std::to_string(fileSize) + " bytes but the file has " + std::to_string(m_size) +
                (m_size < fileSize ? " (truncated)" : " (trailing data)"));
  const std::uint64_t checksum = loadLE<std::uint64_t>(m_data + H::checksum);
  if (checksum != fnv1a64(std::span(m_data + kPackChecksumStart, m_size - kPackChecksumStart))) return fail("checksum mismatch: the file is corrupt");
  if (loadLE<std::uint32_t>(m_data + H::headerSize) != kPackHeaderSize) return fail("unexpected header size");
  if (version < 4 && loadLE<std::uint32_t>(m_data + H::reserved) != 0) return fail("reserved header field is not 0");
  m_pack.m_version = version;
  return Status::ok();
}

Status PackReader::strings() {
  m_stringsOffset = loadLE<std::uint32_t>(m_data + PackHeaderLayout::stringsOffset);
  m_stringsSize = loadLE<std::uint32_t>(m_data + PackHeaderLayout::stringsSize);
  if (!inBounds(m_size, m_stringsOffset, m_stringsSize)) return fail("string table out of bounds");
  return Status::ok();
}

Status PackReader::skeleton() {
  const std::uint64_t skOffset = loadLE<std::uint32_t>(m_data + PackHeaderLayout::skeletonOffset);
  const std::uint64_t skSize = loadLE<std::uint32_t>(m_data + PackHeaderLayout::skeletonSize);
  if (!inBounds(m_size, skOffset, skSize) || skSize < kSkeletonHeaderSize) return fail("skeleton block out of bounds");
  const std::uint8_t* sk = m_data + skOffset;
  const std::uint32_t jointCount = loadLE<std::uint32_t>(sk);
  if (jointCount == 0 || jointCount > kMaxJoints) return fail("joint count " + std::to_string(jointCount) + " out of range");
  if (skSize != kSkeletonHeaderSize + std::uint64_t(jointCount) * kSkeletonJointSize) return fail("skeleton block m_size disagrees with its joint count");
  PackSkeleton& skel = m_pack.m_skeleton;
  skel.unitToCm = loadLE<float>(sk + 4);
  if (!(skel.unitToCm > 0.f) || !std::isfinite(skel.unitToCm)) return fail("unit scale is not a positive number");
  skel.hash = loadLE<std::uint64_t>(sk + 8);
  skel.names.resize(jointCount);
  skel.parents.resize(jointCount);
  skel.restPose.resize(jointCount);
  std::size_t nameBytes = 0;
  for (std::uint32_t j = 0; j < jointCount; ++j) {
    const std::uint8_t* q = sk + kSkeletonHeaderSize + std::size_t(j) * kSkeletonJointSize;
    const std::int32_t parent = loadLE<std::int32_t>(q);
    if (parent < -1 || parent >= static_cast<std::int32_t>(j))
      return fail("joint " + std::to_string(j) + " has parent " + std::to_string(parent) + "; parents must come first");
    skel.parents[j] = parent;
    if (!readString(loadLE<std::uint32_t>(q + 4), loadLE<std::uint32_t>(q + 8), skel.names[j]))
      return fail("name of joint " + std::to_string(j) + " out of bounds");
    nameBytes += skel.names[j].size();
    float v[10];
    std::memcpy(v, q + 12, sizeof(v));
    for (float f : v)
      if (!std::isfinite(f)) return fail("rest pose of joint " + std::to_string(j) + " is not finite");
    Transform& t = skel.restPose[j];
    t.translation = {v[0], v[1], v[2]};
    t.rotation = {v[3], v[4], v[5], v[6]};
    t.scale = {v[7], v[8], v[9]};
    if (std::fabs(dot(t.rotation, t.rotation) - 1.f) > 1e-3f) return fail("rest rotation of joint " + std::to_string(j) + " is not a unit quaternion");
  }
  if (skeletonHash(skel.names, skel.parents) != skel.hash) return fail("skeleton hash does not match its joints");
  m_pack.m_skeletonBytes = skSize + nameBytes;
  return Status::ok();
}

/// Tolerances: u16 unique count, u8 index width (1 or 2), u8 zero; unique (precision, shell,
/// pinned) entries; then an index per joint. Clips with equal tables share one.
/// Version 4: the clip's source animation name, from the source clip name table.
Status PackReader::sourceClip(std::uint64_t index, const std::string& which, PackClip& clip) const {
  if (m_pack.m_version < 4) return Status::ok();
  const std::uint64_t tableOffset = loadLE<std::uint32_t>(m_data + PackHeaderLayout::sourceClipsOffset);
  const std::uint64_t clipCount = loadLE<std::uint32_t>(m_data + PackHeaderLayout::clipCount);
  if (tableOffset % 4 != 0 || !inBounds(m_size, tableOffset, clipCount * kSourceClipEntrySize)) return fail("source clip name table out of bounds");
  const std::uint8_t* e = m_data + tableOffset + index * kSourceClipEntrySize;
  if (!readString(loadLE<std::uint32_t>(e), loadLE<std::uint32_t>(e + 4), clip.sourceClip)) return fail(which + " source clip name out of bounds");
  return Status::ok();
}

Status PackReader::tolerances(const std::uint8_t* e, const std::string& which, PackClip& clip) const {
  const std::uint32_t jointCount = static_cast<std::uint32_t>(m_pack.m_skeleton.names.size());
  const std::uint64_t tolOffset = loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesOffset);
  const std::uint64_t tolSize = loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesSize);
  if (!inBounds(m_size, tolOffset, tolSize) || tolSize < kToleranceHeaderSize) return fail(which + " tolerances out of bounds");
  const std::uint32_t unique = loadLE<std::uint16_t>(m_data + tolOffset);
  const std::uint32_t indexWidth = m_data[tolOffset + 2];
  if (unique == 0 || unique > jointCount || (indexWidth != 1 && indexWidth != 2) || m_data[tolOffset + 3] != 0 || (indexWidth == 1 && unique > 256) ||
      tolSize != kToleranceHeaderSize + std::uint64_t(unique) * kToleranceEntrySize + std::uint64_t(indexWidth) * jointCount)
    return fail(which + " tolerance table m_size is wrong");
  std::vector<JointTolerance> table(unique);
  for (std::uint32_t u = 0; u < unique; ++u) {
    const std::uint8_t* q = m_data + tolOffset + kToleranceHeaderSize + std::size_t(u) * kToleranceEntrySize;
    table[u] = {loadLE<float>(q), loadLE<float>(q + 4), q[8] != 0};
    if (!(table[u].precisionCm > 0.f) || !(table[u].shellCm > 0.f) || !std::isfinite(table[u].precisionCm) ||
        !std::isfinite(table[u].shellCm) || q[8] > 1)
      return fail(which + " has an invalid precision or shell distance");
  }
  clip.tolerances.resize(jointCount);
  const std::uint8_t* indices = m_data + tolOffset + kToleranceHeaderSize + std::size_t(unique) * kToleranceEntrySize;
  for (std::uint32_t j = 0; j < jointCount; ++j) {
    const std::uint32_t index = indexWidth == 1 ? indices[j] : loadLE<std::uint16_t>(indices + 2 * j);
    if (index >= unique) return fail(which + " tolerance index out of range");
    clip.tolerances[j] = table[index];
  }
  return Status::ok();
}

Status PackReader::clips() {
  using C = ClipEntryLayout;
  const std::uint64_t tableOffset = loadLE<std::uint32_t>(m_data + PackHeaderLayout::clipTableOffset);
  const std::uint64_t clipCount = loadLE<std::uint32_t>(m_data + PackHeaderLayout::clipCount);
  const std::uint64_t entrySize = clipEntrySize(m_pack.m_version);
  if (!inBounds(m_size, tableOffset, clipCount * entrySize)) return fail("clip table out of bounds");
  m_pack.m_clips.resize(clipCount);
  for (std::uint64_t i = 0; i < clipCount; ++i) {
    const std::uint8_t* e = m_data + tableOffset + i * entrySize;
    PackClip& clip = m_pack.m_clips[i];
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
    if (!inBounds(m_size, clip.dataOffset, clip.dataSize)) return fail(which + " data out of bounds");
    if (auto st = tolerances(e, which, clip); !st) return st;
    if (auto st = sourceClip(i, which, clip); !st) return st;

    auto view = ClipView::open(std::span(m_data + clip.dataOffset, clip.dataSize), m_pack.m_skeleton.restPose);
    if (!view) return fail(which + " ('" + clip.name + "'): " + view.message());
    if (m_pack.m_version < 2 && !view->rawTracks().empty()) return fail(which + " ('" + clip.name + "') has raw tracks, which version 1 does not define");
    if (m_pack.m_version < 3 && (view->flags() & ~kClipFlagsV2) != 0)
      return fail(which + " ('" + clip.name + "') has clip flags that version " + std::to_string(m_pack.m_version) + " does not define");
    if (m_pack.m_version >= 3) {
      clip.additiveBase = loadLE<std::uint32_t>(e + C::additiveBase);
      clip.additiveFrame = loadLE<std::int32_t>(e + C::additiveFrame);
    }
    if ((clip.additiveBase != kAdditiveNone) != view->additive()) return fail(which + " ('" + clip.name + "'): additive flag and additive base disagree");
    if (clip.additiveBase == kAdditiveNone || clip.additiveBase == kAdditiveRest ? clip.additiveFrame != -1
                                                                                 : clip.additiveBase >= clipCount || clip.additiveBase == i || clip.additiveFrame < -1)
      return fail(which + " ('" + clip.name + "'): additive base out of range");
    clip.view = std::move(view.value());
    clip.frameCount = clip.view.frameCount();
    clip.sampleRate = clip.view.sampleRate();
    clip.loop = clip.view.loops();
    // The clip's own bytes (FORMAT.md "Compressed m_size"): its table entry and its data block. Names
    // and tolerance tables are metadata, counted in the pack's m_size like the shared skeleton block.
    clip.ownBytes = static_cast<std::uint32_t>(entrySize) + clip.dataSize;
  }
  // A base clip must not itself be additive, and a base frame must exist.
  for (const PackClip& clip : m_pack.m_clips) {
    if (clip.additiveBase == kAdditiveNone || clip.additiveBase == kAdditiveRest) continue;
    const PackClip& base = m_pack.m_clips[clip.additiveBase];
    if (base.view.additive()) return fail("clip '" + clip.name + "' is additive on '" + base.name + "', which is additive itself");
    if (clip.additiveFrame >= 0 && std::uint32_t(clip.additiveFrame) >= base.frameCount)
      return fail("clip '" + clip.name + "': base frame " + std::to_string(clip.additiveFrame) + " is past the end of '" + base.name + "'");
  }
  return Status::ok();
}

/// Every byte belongs to a section (up to the 8-byte alignment of the end).
Status PackReader::trailing() const {
  using H = PackHeaderLayout;
  const std::uint64_t tableOffset = loadLE<std::uint32_t>(m_data + H::clipTableOffset);
  const std::uint64_t clipCount = loadLE<std::uint32_t>(m_data + H::clipCount);
  std::uint64_t end = std::max<std::uint64_t>({kPackHeaderSize,
                                               std::uint64_t(loadLE<std::uint32_t>(m_data + H::skeletonOffset)) + loadLE<std::uint32_t>(m_data + H::skeletonSize),
                                               tableOffset + clipCount * clipEntrySize(m_pack.m_version), m_stringsOffset + m_stringsSize});
  if (m_pack.m_version >= 4) end = std::max<std::uint64_t>(end, loadLE<std::uint32_t>(m_data + H::sourceClipsOffset) + clipCount * kSourceClipEntrySize);
  for (std::uint64_t i = 0; i < clipCount; ++i) {
    const std::uint8_t* e = m_data + tableOffset + i * clipEntrySize(m_pack.m_version);
    end = std::max<std::uint64_t>(end, std::uint64_t(loadLE<std::uint32_t>(e + ClipEntryLayout::dataOffset)) +
                                           loadLE<std::uint32_t>(e + ClipEntryLayout::dataSize));
    end = std::max<std::uint64_t>(end, std::uint64_t(loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesOffset)) +
                                           loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesSize));
  }
  if ((end + kPackAlignment - 1) / kPackAlignment * kPackAlignment != m_size)
    return fail(std::to_string(m_size - std::min<std::uint64_t>(end, m_size)) + " trailing bytes after the last section");
  return Status::ok();
}

Expected<Pack> Pack::open(std::vector<std::uint8_t> bytes) {
  Pack pack;
  PackReader reader(bytes, pack);
  for (auto stage : {&PackReader::header, &PackReader::strings, &PackReader::skeleton, &PackReader::clips})
    if (auto st = (reader.*stage)(); !st) return Error{st.message()};
  if (auto st = reader.trailing(); !st) return Error{st.message()};
  pack.m_bytes = std::move(bytes);
  return pack;
}

}  // namespace animpack::runtime
