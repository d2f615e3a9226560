#include "core/runtime/pack.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "core/runtime/curves.h"
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

std::uint64_t curveHash(std::span<const std::string> names) {
  std::uint64_t h = fnv1a64Value(static_cast<std::uint32_t>(names.size()), kFnvOffset);
  for (const std::string& name : names) h = fnv1a64(name, fnv1a64Value(static_cast<std::uint32_t>(name.size()), h));
  return h;
}

const std::uint8_t* PackSkeleton::curveRecord(std::uint32_t i) const {
  return m_file + m_curveTable + kCurveTableHeaderSize + std::size_t(i) * kCurveRecordSize;
}

std::string_view PackSkeleton::curveName(std::uint32_t i) const {
  const std::uint8_t* q = curveRecord(i);
  return {reinterpret_cast<const char*>(m_file + m_strings + loadLE<std::uint32_t>(q)), loadLE<std::uint16_t>(q + 4)};
}

std::string_view PackSkeleton::curveNode(std::uint32_t i) const {
  return curveName(i).substr(0, loadLE<std::uint16_t>(curveRecord(i) + 6));
}

std::string_view PackSkeleton::curveTarget(std::uint32_t i) const {
  const std::uint8_t* q = curveRecord(i);
  return {reinterpret_cast<const char*>(m_file + m_strings + loadLE<std::uint32_t>(q + 8)),
          loadLE<std::uint32_t>(q + 12)};
}

std::uint32_t PackSkeleton::curveTargetIndex(std::uint32_t i) const {
  return loadLE<std::uint32_t>(curveRecord(i) + 16);
}
float PackSkeleton::curveDisplacementCm(std::uint32_t i) const { return loadLE<float>(curveRecord(i) + 20); }

std::int32_t PackSkeleton::findCurve(std::string_view wanted) const {
  for (std::uint32_t i = 0; i < curveCount(); ++i)
    if (curveName(i) == wanted) return static_cast<std::int32_t>(i);
  return -1;
}

std::string_view PackSkeleton::name(std::uint32_t j) const {
  const std::uint8_t* q = m_file + m_block + kSkeletonHeaderSize + std::size_t(j) * kSkeletonJointSize;
  return {reinterpret_cast<const char*>(m_file + m_strings + loadLE<std::uint32_t>(q + 4)),
          loadLE<std::uint32_t>(q + 8)};
}

std::vector<std::string> PackSkeleton::names() const {
  std::vector<std::string> out;
  out.reserve(jointCount());
  for (std::uint32_t j = 0; j < jointCount(); ++j) out.emplace_back(name(j));
  return out;
}

std::int32_t PackSkeleton::find(std::string_view wanted) const {
  for (std::uint32_t j = 0; j < jointCount(); ++j)
    if (name(j) == wanted) return static_cast<std::int32_t>(j);
  return -1;
}

const std::uint8_t* PackClip::entry() const {
  const std::uint32_t version = loadLE<std::uint32_t>(m_file + PackHeaderLayout::version);
  return m_file + loadLE<std::uint32_t>(m_file + PackHeaderLayout::clipTableOffset) +
         std::size_t(m_index) * clipEntrySize(version);
}

std::string_view PackClip::string(std::uint32_t offset, std::uint32_t length) const {
  return {
      reinterpret_cast<const char*>(m_file + loadLE<std::uint32_t>(m_file + PackHeaderLayout::stringsOffset) + offset),
      length};
}

std::string_view PackClip::name() const {
  const std::uint8_t* e = entry();
  return string(loadLE<std::uint32_t>(e + ClipEntryLayout::nameOffset),
                loadLE<std::uint16_t>(e + ClipEntryLayout::nameLength));
}

std::string_view PackClip::sourceFile() const {
  const std::uint8_t* e = entry();
  return string(loadLE<std::uint32_t>(e + ClipEntryLayout::sourceOffset),
                loadLE<std::uint16_t>(e + ClipEntryLayout::sourceLength));
}

std::string_view PackClip::sourceClip() const {
  if (loadLE<std::uint32_t>(m_file + PackHeaderLayout::version) < 4) return {};
  const std::uint8_t* e = m_file + loadLE<std::uint32_t>(m_file + PackHeaderLayout::sourceClipsOffset) +
                          std::size_t(m_index) * kSourceClipEntrySize;
  return string(loadLE<std::uint32_t>(e), loadLE<std::uint32_t>(e + 4));
}

std::uint32_t PackClip::clipIndex() const { return loadLE<std::uint32_t>(entry() + ClipEntryLayout::clipIndex); }
double PackClip::startTime() const { return loadLE<double>(entry() + ClipEntryLayout::startTime); }
std::uint64_t PackClip::settingsHash() const { return loadLE<std::uint64_t>(entry() + ClipEntryLayout::settingsHash); }
std::uint64_t PackClip::sourceHash() const { return loadLE<std::uint64_t>(entry() + ClipEntryLayout::sourceHash); }

std::uint32_t PackClip::ownBytes() const {
  const std::uint32_t version = loadLE<std::uint32_t>(m_file + PackHeaderLayout::version);
  return clipEntrySize(version) + loadLE<std::uint32_t>(entry() + ClipEntryLayout::dataSize);
}

std::uint32_t PackClip::additiveBase() const {
  if (loadLE<std::uint32_t>(m_file + PackHeaderLayout::version) < 3) return kAdditiveNone;
  return loadLE<std::uint32_t>(entry() + ClipEntryLayout::additiveBase);
}

std::int32_t PackClip::additiveFrame() const {
  if (loadLE<std::uint32_t>(m_file + PackHeaderLayout::version) < 3) return -1;
  return loadLE<std::int32_t>(entry() + ClipEntryLayout::additiveFrame);
}

JointTolerance PackClip::tolerance(std::uint32_t joint) const {
  const std::uint8_t* table = m_file + loadLE<std::uint32_t>(entry() + ClipEntryLayout::tolerancesOffset);
  const std::uint32_t unique = loadLE<std::uint16_t>(table), width = table[2];
  const std::uint8_t* indices = table + kToleranceHeaderSize + std::size_t(unique) * kToleranceEntrySize;
  const std::uint32_t index = width == 1 ? indices[joint] : loadLE<std::uint16_t>(indices + 2 * std::size_t(joint));
  const std::uint8_t* q = table + kToleranceHeaderSize + std::size_t(index) * kToleranceEntrySize;
  return {loadLE<float>(q), loadLE<float>(q + 4), q[8] != 0};
}

float PackClip::curvePrecisionCm(std::uint32_t curve) const {
  const std::uint8_t* table = m_file + loadLE<std::uint32_t>(entry() + ClipEntryLayout::tolerancesOffset);
  const std::uint32_t size = loadLE<std::uint32_t>(entry() + ClipEntryLayout::tolerancesSize);
  // The curve precisions end the table (f32 per curve), before the version-8 scene scale.
  const std::uint32_t count = view.curveCount();
  const std::size_t scale = loadLE<std::uint32_t>(m_file + PackHeaderLayout::version) >= 8 ? 4 : 0;
  return loadLE<float>(table + size - scale - 4 * std::size_t(count) + 4 * std::size_t(curve));
}

float PackClip::sceneScale() const {
  if (loadLE<std::uint32_t>(m_file + PackHeaderLayout::version) < 8) return 1.f;
  const std::uint8_t* table = m_file + loadLE<std::uint32_t>(entry() + ClipEntryLayout::tolerancesOffset);
  return loadLE<float>(table + loadLE<std::uint32_t>(entry() + ClipEntryLayout::tolerancesSize) - 4);
}

std::vector<JointTolerance> PackClip::tolerances() const {
  std::vector<JointTolerance> out(view.jointCount());
  for (std::uint32_t j = 0; j < out.size(); ++j) out[j] = tolerance(j);
  return out;
}

const PackClip* Pack::findClip(std::string_view name) const {
  for (const PackClip& c : m_clips)
    if (c.name() == name) return &c;
  return nullptr;
}

std::size_t Pack::sharedDerivedBytes(std::uint32_t joints, std::uint32_t curves) {
  return sizeof(Pack) + std::size_t(joints) * (sizeof(std::int32_t) + sizeof(Transform)) +
         std::size_t(curves) * sizeof(float);
}

std::size_t Pack::clipDerivedBytes() { return sizeof(PackClip); }

std::size_t Pack::derivedBytes() const {
  return sizeof(*this) + m_skeleton.m_parents.capacity() * sizeof(std::int32_t) +
         m_skeleton.m_restPose.capacity() * sizeof(Transform) + m_skeleton.m_restWeights.capacity() * sizeof(float) +
         m_clips.capacity() * sizeof(PackClip) + m_upgraded.capacity();
}

Expected<Pack> Pack::load(const std::filesystem::path& path, const OpenOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{"'" + path.string() + "' is a directory, not a pack"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open '" + path.string() + "': no such file or not readable"};
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{"cannot read '" + path.string() + "'"};
  auto pack = open(std::move(bytes), options);
  if (!pack) return Error{"'" + path.string() + "': " + pack.message()};
  return pack;
}

/// Reads and validates a pack section by section (FORMAT.md "File layout"); the writer
/// (core/io/pack_writer.cpp) builds the same sections in the same order.
class PackReader {
 public:
  PackReader(std::span<const std::uint8_t> bytes, Pack& pack, Pack::ClipUpgrader upgrader)
      : m_data(bytes.data()), m_size(bytes.size()), m_pack(pack), m_upgrader(upgrader) {}

  Status header();
  Status strings();
  Status skeleton();
  Status clips();
  Status trailing() const;

 private:
  bool validString(std::uint32_t offset, std::uint32_t length) const { return inBounds(m_stringsSize, offset, length); }
  Status tolerances(const std::uint8_t* entry, const std::string& which) const;
  Status curveTable(std::uint64_t offset, std::uint64_t size, std::size_t& nameBytes);
  Status sourceClip(std::uint64_t index, const std::string& which) const;
  Status upgrade(std::vector<std::span<const std::uint8_t>>& blocks);

  const std::uint8_t* m_data;
  std::size_t m_size;
  Pack& m_pack;
  Pack::ClipUpgrader m_upgrader;
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
    return fail("format version " + std::to_string(version) + " is newer than this reader (version " +
                std::to_string(kPackVersion) + "); update animpack to read it");
  if (loadLE<std::uint32_t>(m_data + H::flags) != 0) return fail("unknown header flags");
  const std::uint64_t fileSize = loadLE<std::uint64_t>(m_data + H::fileSize);
  if (fileSize != m_size)
    return fail("header says " + std::to_string(fileSize) + " bytes but the file has " + std::to_string(m_size) +
                (m_size < fileSize ? " (truncated)" : " (trailing data)"));
  const std::uint64_t checksum = loadLE<std::uint64_t>(m_data + H::checksum);
  if (checksum != fnv1a64(std::span(m_data + kPackChecksumStart, m_size - kPackChecksumStart)))
    return fail("checksum mismatch: the file is corrupt");
  if (loadLE<std::uint32_t>(m_data + H::headerSize) != kPackHeaderSize) return fail("unexpected header size");
  if (version < 4 && loadLE<std::uint32_t>(m_data + H::reserved) != 0) return fail("reserved header field is not 0");
  if (version < kPackOldestDirectVersion && m_upgrader == nullptr)
    return Error{"format version " + std::to_string(version) + " is older than the runtime reads (versions " +
                 std::to_string(kPackOldestDirectVersion) + " to " + std::to_string(kPackVersion) +
                 "); rewrite it with `animpack upgrade OLD.anpk -o NEW.anpk`"};
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
  const std::uint64_t jointsEnd = kSkeletonHeaderSize + std::uint64_t(jointCount) * kSkeletonJointSize;
  // Version 6: a curve table may follow the joints (and a pack of curves alone has no joint).
  const bool curves = m_pack.m_version >= 6 && skSize > jointsEnd;
  if ((jointCount == 0 && !curves) || jointCount > kMaxJoints)
    return fail("joint count " + std::to_string(jointCount) + " out of range");
  if (curves ? skSize < jointsEnd : skSize != jointsEnd)
    return fail("skeleton block size disagrees with its joint count");
  PackSkeleton& skel = m_pack.m_skeleton;
  skel.m_file = m_data;
  skel.m_block = static_cast<std::uint32_t>(skOffset);
  skel.m_strings = static_cast<std::uint32_t>(m_stringsOffset);
  skel.m_unitToCm = loadLE<float>(sk + 4);
  if (!(skel.m_unitToCm > 0.f) || !std::isfinite(skel.m_unitToCm)) return fail("unit scale is not a positive number");
  skel.m_hash = loadLE<std::uint64_t>(sk + 8);
  skel.m_parents.resize(jointCount);
  skel.m_restPose.resize(jointCount);
  std::size_t nameBytes = 0;
  std::uint64_t hash = fnv1a64Value(jointCount, kFnvOffset);
  for (std::uint32_t j = 0; j < jointCount; ++j) {
    const std::uint8_t* q = sk + kSkeletonHeaderSize + std::size_t(j) * kSkeletonJointSize;
    const std::int32_t parent = loadLE<std::int32_t>(q);
    if (parent < -1 || parent >= static_cast<std::int32_t>(j))
      return fail("joint " + std::to_string(j) + " has parent " + std::to_string(parent) + "; parents must come first");
    skel.m_parents[j] = parent;
    const std::uint32_t nameLength = loadLE<std::uint32_t>(q + 8);
    if (!validString(loadLE<std::uint32_t>(q + 4), nameLength))
      return fail("name of joint " + std::to_string(j) + " out of bounds");
    nameBytes += nameLength;
    hash = fnv1a64(skel.name(j), fnv1a64Value(nameLength, fnv1a64Value(parent, hash)));
    float v[10];
    std::memcpy(v, q + 12, sizeof(v));
    for (float f : v)
      if (!std::isfinite(f)) return fail("rest pose of joint " + std::to_string(j) + " is not finite");
    Transform& t = skel.m_restPose[j];
    t.translation = {v[0], v[1], v[2]};
    t.rotation = {v[3], v[4], v[5], v[6]};
    t.scale = {v[7], v[8], v[9]};
    if (std::fabs(dot(t.rotation, t.rotation) - 1.f) > 1e-3f)
      return fail("rest rotation of joint " + std::to_string(j) + " is not a unit quaternion");
  }
  if (hash != skel.m_hash) return fail("skeleton hash does not match its joints");
  if (curves)
    if (auto st = curveTable(skOffset + jointsEnd, skSize - jointsEnd, nameBytes); !st) return st;
  m_pack.m_skeletonBytes = skSize + nameBytes;
  return Status::ok();
}

/// Version 6: the curve table (u32 count, u32 0, u64 hash, records), names in the string table,
/// finite non-negative displacements and finite rest weights, names unique.
Status PackReader::curveTable(std::uint64_t offset, std::uint64_t size, std::size_t& nameBytes) {
  PackSkeleton& skel = m_pack.m_skeleton;
  const std::uint8_t* t = m_data + offset;
  if (size < kCurveTableHeaderSize) return fail("curve table out of bounds");
  const std::uint32_t count = loadLE<std::uint32_t>(t);
  if (count == 0 || count > kMaxCurves || loadLE<std::uint32_t>(t + 4) != 0 ||
      size != kCurveTableHeaderSize + std::uint64_t(count) * kCurveRecordSize)
    return fail("curve table size disagrees with its curve count");
  skel.m_curveTable = static_cast<std::uint32_t>(offset);
  skel.m_curveHash = loadLE<std::uint64_t>(t + 8);
  skel.m_restWeights.resize(count);
  std::uint64_t hash = fnv1a64Value(count, kFnvOffset);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint8_t* q = skel.curveRecord(i);
    const std::uint32_t nameLength = loadLE<std::uint16_t>(q + 4), nodeLength = loadLE<std::uint16_t>(q + 6);
    if (!validString(loadLE<std::uint32_t>(q), nameLength) || nodeLength > nameLength ||
        !validString(loadLE<std::uint32_t>(q + 8), loadLE<std::uint32_t>(q + 12)))
      return fail("name of curve " + std::to_string(i) + " out of bounds");
    const float displacement = loadLE<float>(q + 20), rest = loadLE<float>(q + 24);
    if (!(displacement >= 0.f) || !std::isfinite(displacement) || !std::isfinite(rest))
      return fail("curve " + std::to_string(i) + " has a displacement or rest weight that is not a finite number");
    skel.m_restWeights[i] = rest;
    nameBytes += nameLength;
    hash = fnv1a64(skel.curveName(i), fnv1a64Value(nameLength, hash));
  }
  if (hash != skel.m_curveHash) return fail("curve hash does not match its curves");
  return Status::ok();
}

/// Version 4: the clip's source animation name, from the source clip name table.
Status PackReader::sourceClip(std::uint64_t index, const std::string& which) const {
  if (m_pack.m_version < 4) return Status::ok();
  const std::uint64_t tableOffset = loadLE<std::uint32_t>(m_data + PackHeaderLayout::sourceClipsOffset);
  const std::uint64_t clipCount = loadLE<std::uint32_t>(m_data + PackHeaderLayout::clipCount);
  if (tableOffset % 4 != 0 || !inBounds(m_size, tableOffset, clipCount * kSourceClipEntrySize))
    return fail("source clip name table out of bounds");
  const std::uint8_t* e = m_data + tableOffset + index * kSourceClipEntrySize;
  if (!validString(loadLE<std::uint32_t>(e), loadLE<std::uint32_t>(e + 4)))
    return fail(which + " source clip name out of bounds");
  return Status::ok();
}

/// Tolerances: u16 unique count, u8 index width (1 or 2), u8 zero; unique (precision, shell,
/// pinned) entries; then an index per joint. Clips with equal tables share one.
Status PackReader::tolerances(const std::uint8_t* e, const std::string& which) const {
  const std::uint32_t jointCount = m_pack.m_skeleton.jointCount();
  const std::uint64_t tolOffset = loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesOffset);
  const std::uint64_t tolSize = loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesSize);
  if (!inBounds(m_size, tolOffset, tolSize) || tolSize < kToleranceHeaderSize)
    return fail(which + " tolerances out of bounds");
  const std::uint32_t unique = loadLE<std::uint16_t>(m_data + tolOffset);
  const std::uint32_t indexWidth = m_data[tolOffset + 2];
  // Version 6: the curves' precisions follow the joints (4-byte aligned, f32 each); version 8: the
  // scene scale ends the table (4-byte aligned, f32).
  const std::uint32_t curves = m_pack.m_skeleton.curveCount();
  const std::uint64_t scale = m_pack.m_version >= 8 ? 4 : 0;
  const std::uint64_t jointPart =
      kToleranceHeaderSize + std::uint64_t(unique) * kToleranceEntrySize + std::uint64_t(indexWidth) * jointCount;
  const std::uint64_t expected =
      curves || scale ? ((jointPart + 3) & ~std::uint64_t(3)) + 4ull * curves + scale : jointPart;
  if ((jointCount > 0 ? unique == 0 || unique > jointCount : unique != 0) || (indexWidth != 1 && indexWidth != 2) ||
      m_data[tolOffset + 3] != 0 || (indexWidth == 1 && unique > 256) || tolSize != expected)
    return fail(which + " tolerance table size is wrong");
  if (scale) {
    const float sceneScale = loadLE<float>(m_data + tolOffset + tolSize - 4);
    if (!(sceneScale > 0.f) || !std::isfinite(sceneScale))
      return fail(which + " has a scene scale that is not a positive number (" + std::to_string(sceneScale) + ")");
  }
  for (std::uint32_t c = 0; c < curves; ++c) {
    const float precision = loadLE<float>(m_data + tolOffset + tolSize - scale - 4ull * (curves - c));
    if (!(precision > 0.f) || !std::isfinite(precision)) return fail(which + " has an invalid curve precision");
  }
  for (std::uint32_t u = 0; u < unique; ++u) {
    const std::uint8_t* q = m_data + tolOffset + kToleranceHeaderSize + std::size_t(u) * kToleranceEntrySize;
    const float precision = loadLE<float>(q), shell = loadLE<float>(q + 4);
    if (!(precision > 0.f) || !(shell > 0.f) || !std::isfinite(precision) || !std::isfinite(shell) || q[8] > 1)
      return fail(which + " has an invalid precision or shell distance");
  }
  const std::uint8_t* indices = m_data + tolOffset + kToleranceHeaderSize + std::size_t(unique) * kToleranceEntrySize;
  for (std::uint32_t j = 0; j < jointCount; ++j) {
    const std::uint32_t index = indexWidth == 1 ? indices[j] : loadLE<std::uint16_t>(indices + 2 * j);
    if (index >= unique) return fail(which + " tolerance index out of range");
  }
  return Status::ok();
}

/// A version 1-4 pack: every clip block rewritten into the current layout, one after the other
/// (8-byte aligned) in the pack's m_upgraded; `blocks` then names them.
Status PackReader::upgrade(std::vector<std::span<const std::uint8_t>>& blocks) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    auto block = m_upgrader(blocks[i], m_pack.m_skeleton.jointCount());
    if (!block) return fail("clip " + std::to_string(i) + ": " + block.message());
    m_pack.m_upgraded.resize((m_pack.m_upgraded.size() + 7) & ~std::size_t(7));
    starts.push_back(m_pack.m_upgraded.size());
    m_pack.m_upgraded.insert(m_pack.m_upgraded.end(), block->begin(), block->end());
  }
  m_pack.m_upgraded.shrink_to_fit();
  for (std::size_t i = 0; i < blocks.size(); ++i)
    blocks[i] = std::span<const std::uint8_t>(m_pack.m_upgraded)
                    .subspan(starts[i],
                             loadLE<std::uint32_t>(m_pack.m_upgraded.data() + starts[i] + ClipHeaderLayout::totalSize));
  return Status::ok();
}

Status PackReader::clips() {
  using C = ClipEntryLayout;
  const std::uint64_t tableOffset = loadLE<std::uint32_t>(m_data + PackHeaderLayout::clipTableOffset);
  const std::uint64_t clipCount = loadLE<std::uint32_t>(m_data + PackHeaderLayout::clipCount);
  const std::uint64_t entrySize = clipEntrySize(m_pack.m_version);
  if (!inBounds(m_size, tableOffset, clipCount * entrySize)) return fail("clip table out of bounds");
  std::vector<std::span<const std::uint8_t>> blocks;
  for (std::uint64_t i = 0; i < clipCount; ++i) {
    const std::uint8_t* e = m_data + tableOffset + i * entrySize;
    const std::string which = "clip " + std::to_string(i);
    if (!validString(loadLE<std::uint32_t>(e + C::nameOffset), loadLE<std::uint16_t>(e + C::nameLength)) ||
        !validString(loadLE<std::uint32_t>(e + C::sourceOffset), loadLE<std::uint16_t>(e + C::sourceLength)))
      return fail(which + " names out of bounds");
    if (!std::isfinite(loadLE<double>(e + C::startTime))) return fail(which + " start time is not finite");
    const std::uint32_t dataOffset = loadLE<std::uint32_t>(e + C::dataOffset),
                        dataSize = loadLE<std::uint32_t>(e + C::dataSize);
    if (!inBounds(m_size, dataOffset, dataSize)) return fail(which + " data out of bounds");
    if (auto st = tolerances(e, which); !st) return st;
    if (auto st = sourceClip(i, which); !st) return st;
    blocks.push_back(std::span(m_data + dataOffset, dataSize));
  }
  if (m_pack.m_version < 5)
    if (auto st = upgrade(blocks); !st) return st;
  m_pack.m_clips.resize(clipCount);
  for (std::uint64_t i = 0; i < clipCount; ++i) {
    PackClip& clip = m_pack.m_clips[i];
    clip.m_file = m_data;
    clip.m_index = static_cast<std::uint32_t>(i);
    const std::string which = "clip " + std::to_string(i) + " ('" + std::string(clip.name()) + "')";
    auto view = ClipView::open(blocks[i], m_pack.m_skeleton.restPose(), m_pack.m_skeleton.restWeights());
    if (!view) return fail(which + ": " + view.message());
    if (m_pack.m_version < 6 && (view->flags() & kClipFlagCurves) != 0)
      return fail(which + " has curves, which version " + std::to_string(m_pack.m_version) + " does not define");
    if (m_pack.m_version < 7 && (view->flags() & kClipFlagTimed) != 0)
      return fail(which + " has timed tracks, which version " + std::to_string(m_pack.m_version) + " does not define");
    if (m_pack.m_version < 10 && view->timedPacked())
      return fail(which + " has packed timed keys, which version " + std::to_string(m_pack.m_version) +
                  " does not define");
    if (m_pack.m_version < 9 && (view->flags() & kClipFlagSegmentedCurves) != 0)
      return fail(which + " has segmented curves, which version " + std::to_string(m_pack.m_version) +
                  " does not define");
    if (view->curveCount() != m_pack.m_skeleton.curveCount())
      return fail(which + " has no curve section, but the pack has curves");
    if (m_pack.m_version < 2 && view->rawCount() > 0)
      return fail(which + " has raw tracks, which version 1 does not define");
    if (m_pack.m_version < 3 && (view->flags() & ~kClipFlagsV2) != 0)
      return fail(which + " has clip flags that version " + std::to_string(m_pack.m_version) + " does not define");
    clip.view = view.value();
    const std::uint32_t base = clip.additiveBase();
    const std::int32_t frame = clip.additiveFrame();
    if ((base != kAdditiveNone) != view->additive()) return fail(which + ": additive flag and additive base disagree");
    if (base == kAdditiveNone || base == kAdditiveRest ? frame != -1 : base >= clipCount || base == i || frame < -1)
      return fail(which + ": additive base out of range");
  }
  // A base clip must not itself be additive, and a base frame must exist.
  for (const PackClip& clip : m_pack.m_clips) {
    const std::uint32_t base = clip.additiveBase();
    if (base == kAdditiveNone || base == kAdditiveRest) continue;
    const PackClip& b = m_pack.m_clips[base];
    if (b.view.additive())
      return fail("clip '" + std::string(clip.name()) + "' is additive on '" + std::string(b.name()) +
                  "', which is additive itself");
    if (clip.additiveFrame() >= 0 && std::uint32_t(clip.additiveFrame()) >= b.frameCount())
      return fail("clip '" + std::string(clip.name()) + "': base frame " + std::to_string(clip.additiveFrame()) +
                  " is past the end of '" + std::string(b.name()) + "'");
  }
  return Status::ok();
}

/// Every byte belongs to a section (up to the 8-byte alignment of the end).
Status PackReader::trailing() const {
  using H = PackHeaderLayout;
  const std::uint64_t tableOffset = loadLE<std::uint32_t>(m_data + H::clipTableOffset);
  const std::uint64_t clipCount = loadLE<std::uint32_t>(m_data + H::clipCount);
  std::uint64_t end = std::max<std::uint64_t>({kPackHeaderSize,
                                               std::uint64_t(loadLE<std::uint32_t>(m_data + H::skeletonOffset)) +
                                                   loadLE<std::uint32_t>(m_data + H::skeletonSize),
                                               tableOffset + clipCount * clipEntrySize(m_pack.m_version),
                                               m_stringsOffset + m_stringsSize});
  if (m_pack.m_version >= 4)
    end = std::max<std::uint64_t>(
        end, loadLE<std::uint32_t>(m_data + H::sourceClipsOffset) + clipCount * kSourceClipEntrySize);
  for (std::uint64_t i = 0; i < clipCount; ++i) {
    const std::uint8_t* e = m_data + tableOffset + i * clipEntrySize(m_pack.m_version);
    end = std::max<std::uint64_t>(end, std::uint64_t(loadLE<std::uint32_t>(e + ClipEntryLayout::dataOffset)) +
                                           loadLE<std::uint32_t>(e + ClipEntryLayout::dataSize));
    end = std::max<std::uint64_t>(end, std::uint64_t(loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesOffset)) +
                                           loadLE<std::uint32_t>(e + ClipEntryLayout::tolerancesSize));
  }
  if ((end + kPackAlignment - 1) / kPackAlignment * kPackAlignment != m_size)
    return fail(std::to_string(m_size - std::min<std::uint64_t>(end, m_size)) +
                " trailing bytes after the last section");
  return Status::ok();
}

Pack::Pack(std::pmr::memory_resource* memory) : m_upgraded(memory), m_skeleton(memory), m_clips(memory) {}

Expected<Pack> Pack::open(std::span<const std::uint8_t> bytes, const OpenOptions& options) {
  Pack pack(options.memory ? options.memory : std::pmr::get_default_resource());
  PackReader reader(bytes, pack, options.upgrade);
  for (auto stage : {&PackReader::header, &PackReader::strings, &PackReader::skeleton, &PackReader::clips})
    if (auto st = (reader.*stage)(); !st) return Error{st.message()};
  if (auto st = reader.trailing(); !st) return Error{st.message()};
  pack.m_bytes = bytes;
  return pack;
}

Expected<Pack> Pack::open(std::vector<std::uint8_t> bytes, const OpenOptions& options) {
  // The vector's buffer moves with it, so the views opened over it stay valid.
  const std::span<const std::uint8_t> view(bytes);
  auto pack = open(view, options);
  if (pack) pack->m_owned = std::move(bytes);
  return pack;
}

}  // namespace animpack::runtime
