#include "core/io/pack_writer.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <map>

#include "core/base/assert.h"
#include "core/runtime/hash.h"
#include "core/runtime/pack_format.h"

namespace animpack::core {
namespace {

using runtime::storeLE;

/// A clip's tolerance table: u16 unique count, u8 index width, u8 zero, unique entries
/// (f32 precision, f32 shell, u8 pinned), then one index per joint.
std::vector<std::uint8_t> toleranceTable(const std::vector<runtime::JointTolerance>& tolerances,
                                         const std::vector<float>& curvePrecisions, float sceneScale) {
  std::vector<runtime::JointTolerance> unique;
  std::vector<std::uint16_t> index;
  for (const auto& tol : tolerances) {
    std::size_t i = 0;
    while (i < unique.size() && !(unique[i].precisionCm == tol.precisionCm && unique[i].shellCm == tol.shellCm &&
                                  unique[i].pinned == tol.pinned))
      ++i;
    if (i == unique.size()) unique.push_back(tol);
    index.push_back(static_cast<std::uint16_t>(i));
  }
  const std::uint8_t width = unique.size() <= 256 ? 1 : 2;
  std::vector<std::uint8_t> t(
      runtime::kToleranceHeaderSize + unique.size() * runtime::kToleranceEntrySize + width * index.size(), 0);
  storeLE(t.data(), static_cast<std::uint16_t>(unique.size()));
  t[2] = width;
  for (std::size_t u = 0; u < unique.size(); ++u) {
    std::uint8_t* p = t.data() + runtime::kToleranceHeaderSize + u * runtime::kToleranceEntrySize;
    storeLE(p, unique[u].precisionCm);
    storeLE(p + 4, unique[u].shellCm);
    p[8] = unique[u].pinned ? 1 : 0;
  }
  std::uint8_t* indices = t.data() + runtime::kToleranceHeaderSize + unique.size() * runtime::kToleranceEntrySize;
  for (std::size_t j = 0; j < index.size(); ++j) {
    if (width == 1) indices[j] = static_cast<std::uint8_t>(index[j]);
    else storeLE(indices + 2 * j, index[j]);
  }
  // Version 6: the curves' precisions follow, 4-byte aligned; version 8: the scene scale ends it.
  t.resize((t.size() + 3) & ~std::size_t(3), 0);
  for (float precision : curvePrecisions) {
    t.resize(t.size() + 4);
    storeLE(t.data() + t.size() - 4, precision);
  }
  t.resize(t.size() + 4);
  storeLE(t.data() + t.size() - 4, sceneScale);
  return t;
}

void align(std::vector<std::uint8_t>& b, std::size_t a) {
  while (b.size() % a) b.push_back(0);
}

void appendBytes(std::vector<std::uint8_t>& b, const void* data, std::size_t n) {
  if (n == 0) return;
  const std::size_t at = b.size();
  b.resize(at + n);
  std::memcpy(b.data() + at, data, n);
}

template <typename T>
void put(std::vector<std::uint8_t>& b, std::size_t at, T v) {
  storeLE(b.data() + at, v);
}

}  // namespace

PackSkeletonRecord skeletonRecord(const Skeleton& skeleton, double unitToCm, std::span<const MorphCurve> curves,
                                  double sceneScale) {
  PackSkeletonRecord r{skeleton.names, skeleton.parents, skeleton.restLocal, static_cast<float>(unitToCm), {}};
  // The curve table holds object-space displacements; each clip records its scene scale.
  for (const MorphCurve& c : curves)
    r.curves.push_back(
        {c.name, c.node, c.target, c.targetIndex, static_cast<float>(c.displacementCm / sceneScale), c.restWeight});
  return r;
}

PackSkeletonRecord skeletonRecord(const runtime::PackSkeleton& skeleton) {
  PackSkeletonRecord r{skeleton.names(),
                       {skeleton.parents().begin(), skeleton.parents().end()},
                       {skeleton.restPose().begin(), skeleton.restPose().end()},
                       skeleton.unitToCm(),
                       {}};
  for (std::uint32_t i = 0; i < skeleton.curveCount(); ++i)
    r.curves.push_back({std::string(skeleton.curveName(i)), std::string(skeleton.curveNode(i)),
                        std::string(skeleton.curveTarget(i)), skeleton.curveTargetIndex(i),
                        skeleton.curveDisplacementCm(i), skeleton.restWeights()[i]});
  return r;
}

PackClipRecord clipRecord(const CompressedClip& clip, const std::string& sourceFile, std::uint64_t sourceHash) {
  PackClipRecord r;
  r.name = clip.name;
  r.sourceFile = sourceFile;
  r.sourceClip = clip.name;  // the animation's name until a pack name replaces `name`
  r.clipIndex = clip.clipIndex;
  r.startTime = clip.startTime;
  r.sampleRate = clip.sampleRate;
  r.frameCount = clip.frameCount;
  r.loop = clip.loop;
  r.settingsHash = clip.settingsHash;
  r.sourceHash = sourceHash;
  for (const EffectiveJoint& j : clip.settings.joints) r.tolerances.push_back({j.precisionCm, j.shellCm, j.pinned});
  for (const EffectiveCurve& c : clip.settings.curves) r.curvePrecisions.push_back(c.precisionCm);
  r.sceneScale = static_cast<float>(clip.settings.sceneScale);
  r.data = clip.data;
  r.additive = clip.additive;
  return r;
}

PackClipRecord clipRecord(const runtime::PackClip& clip) {
  PackClipRecord r;
  r.name = clip.name();
  r.sourceFile = clip.sourceFile();
  r.sourceClip = clip.sourceClip();
  r.clipIndex = clip.clipIndex();
  r.startTime = clip.startTime();
  r.sampleRate = clip.sampleRate();
  r.frameCount = clip.frameCount();
  r.loop = clip.loop();
  r.settingsHash = clip.settingsHash();
  r.sourceHash = clip.sourceHash();
  r.tolerances = clip.tolerances();
  for (std::uint32_t i = 0; i < clip.view.curveCount(); ++i) r.curvePrecisions.push_back(clip.curvePrecisionCm(i));
  r.sceneScale = clip.sceneScale();
  r.data = clip.view.bytes();  // the current layout, also for a clip of an older pack
  return r;
}

AdditiveRef additiveRef(const runtime::Pack& pack, const runtime::PackClip& clip) {
  AdditiveRef r;
  if (clip.additiveBase() == runtime::kAdditiveNone) return r;
  if (clip.additiveBase() == runtime::kAdditiveRest) {
    r.kind = AdditiveRef::Kind::Rest;
    return r;
  }
  r.kind = AdditiveRef::Kind::Clip;
  r.clip = pack.clips()[clip.additiveBase()].name();  // the reader checked the index
  r.frame = clip.additiveFrame();
  return r;
}

Status sameSkeleton(const PackSkeletonRecord& a, const PackSkeletonRecord& b) {
  if (a.names.size() != b.names.size())
    return Error{"skeletons differ: " + std::to_string(a.names.size()) + " joints vs " +
                 std::to_string(b.names.size())};
  for (std::size_t j = 0; j < a.names.size(); ++j) {
    if (a.names[j] != b.names[j])
      return Error{"skeletons differ at joint " + std::to_string(j) + ": '" + a.names[j] + "' vs '" + b.names[j] + "'"};
    if (a.parents[j] != b.parents[j]) return Error{"skeletons differ: joint '" + a.names[j] + "' has another parent"};
    const Transform& x = a.restPose[j];
    const Transform& y = b.restPose[j];
    const float va[10] = {x.translation.x, x.translation.y, x.translation.z, x.rotation.x, x.rotation.y,
                          x.rotation.z,    x.rotation.w,    x.scale.x,       x.scale.y,    x.scale.z};
    float vb[10] = {y.translation.x, y.translation.y, y.translation.z, y.rotation.x, y.rotation.y,
                    y.rotation.z,    y.rotation.w,    y.scale.x,       y.scale.y,    y.scale.z};
    if (va[3] * vb[3] + va[4] * vb[4] + va[5] * vb[5] + va[6] * vb[6] < 0)
      for (int i = 3; i < 7; ++i) vb[i] = -vb[i];
    for (int i = 0; i < 10; ++i)
      if (std::fabs(va[i] - vb[i]) > 1e-5f * std::max(1.f, std::fabs(va[i])))
        return Error{"skeletons differ: joint '" + a.names[j] + "' has another rest pose"};
  }
  if (a.curves.size() != b.curves.size())
    return Error{"morph targets differ: " + std::to_string(a.curves.size()) + " curves vs " +
                 std::to_string(b.curves.size())};
  for (std::size_t i = 0; i < a.curves.size(); ++i)
    if (a.curves[i].name != b.curves[i].name || a.curves[i].restWeight != b.curves[i].restWeight ||
        std::fabs(a.curves[i].displacementCm - b.curves[i].displacementCm) > 1e-5f * a.curves[i].displacementCm)
      return Error{"morph targets differ at curve " + std::to_string(i) + ": '" + a.curves[i].name + "' vs '" +
                   b.curves[i].name + "'"};
  if (std::fabs(a.unitToCm - b.unitToCm) > 1e-6f * a.unitToCm)
    return Error{"skeletons differ: unit " + std::to_string(a.unitToCm) + " cm vs " + std::to_string(b.unitToCm) +
                 " cm"};
  return Status::ok();
}

/// Packs are written in the newest version; its clip table entries.
constexpr std::uint32_t kEntrySize = runtime::clipEntrySize(runtime::kPackVersion);

std::size_t packClipBytes(const PackClipRecord& clip) { return kEntrySize + clip.data.size(); }

namespace {

/// Identical strings (a source file shared by its clips) are stored once.
struct StringTable {
  std::string bytes;
  std::map<std::string, std::uint32_t> offsets;
  std::uint32_t add(const std::string& s) {
    const auto [it, added] = offsets.emplace(s, static_cast<std::uint32_t>(bytes.size()));
    if (added) bytes += s;
    return it->second;
  }
};

/// Version 6: the curve table after the joints (nothing without curves); returns its size.
std::uint32_t writeCurveTable(std::vector<std::uint8_t>& b, std::span<const PackCurveRecord> curves,
                              StringTable& strings) {
  if (curves.empty()) return 0;
  const std::size_t at = b.size();
  const std::uint32_t size = runtime::kCurveTableHeaderSize + std::uint32_t(curves.size()) * runtime::kCurveRecordSize;
  b.resize(at + size, 0);
  std::vector<std::string> names;
  for (const PackCurveRecord& c : curves) names.push_back(c.name);
  put(b, at, static_cast<std::uint32_t>(curves.size()));
  put(b, at + 8, runtime::curveHash(names));
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const PackCurveRecord& c = curves[i];
    const std::size_t p = at + runtime::kCurveTableHeaderSize + i * runtime::kCurveRecordSize;
    put(b, p, strings.add(c.name));
    put(b, p + 4, static_cast<std::uint16_t>(c.name.size()));
    put(b, p + 6, static_cast<std::uint16_t>(std::min(c.node.size(), c.name.size())));
    put(b, p + 8, strings.add(c.target));
    put(b, p + 12, static_cast<std::uint32_t>(c.target.size()));
    put(b, p + 16, c.targetIndex);
    put(b, p + 20, c.displacementCm);
    put(b, p + 24, c.restWeight);
  }
  return size;
}

/// The skeleton block at the end of `b`; returns its size.
std::uint32_t writeSkeleton(std::vector<std::uint8_t>& b, const PackSkeletonRecord& skeleton, StringTable& strings) {
  const std::uint32_t joints = static_cast<std::uint32_t>(skeleton.names.size());
  const std::size_t at = b.size();
  const std::uint32_t size = runtime::kSkeletonHeaderSize + joints * runtime::kSkeletonJointSize;
  b.resize(b.size() + size, 0);
  put(b, at, joints);
  put(b, at + 4, skeleton.unitToCm);
  put(b, at + 8, runtime::skeletonHash(skeleton.names, skeleton.parents));
  for (std::uint32_t j = 0; j < joints; ++j) {
    const std::size_t p = at + runtime::kSkeletonHeaderSize + std::size_t(j) * runtime::kSkeletonJointSize;
    put(b, p, skeleton.parents[j]);
    put(b, p + 4, strings.add(skeleton.names[j]));
    put(b, p + 8, static_cast<std::uint32_t>(skeleton.names[j].size()));
    const Transform& t = skeleton.restPose[j];
    const float v[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                         t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
    for (int i = 0; i < 10; ++i) put(b, p + 12 + 4 * std::size_t(i), v[i]);
  }
  return size + writeCurveTable(b, skeleton.curves, strings);
}

/// Each clip's tolerance table at the end of `b`, identical tables once: their offsets and sizes.
void writeToleranceTables(std::vector<std::uint8_t>& b, std::span<const PackClipRecord> clips, std::uint32_t joints,
                          std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& sizes) {
  std::vector<std::pair<std::vector<std::uint8_t>, std::uint32_t>> written;
  for (const PackClipRecord& clip : clips) {
    ANIMPACK_ASSERT(clip.tolerances.size() == joints, "one tolerance per joint");
    std::vector<std::uint8_t> table = toleranceTable(clip.tolerances, clip.curvePrecisions, clip.sceneScale);
    sizes.push_back(static_cast<std::uint32_t>(table.size()));
    const auto same = std::find_if(written.begin(), written.end(), [&](const auto& w) { return w.first == table; });
    if (same != written.end()) {
      offsets.push_back(same->second);
      continue;
    }
    align(b, 4);
    offsets.push_back(static_cast<std::uint32_t>(b.size()));
    appendBytes(b, table.data(), table.size());
    written.emplace_back(std::move(table), offsets.back());
  }
}

/// The clip table's additive base and frame fields for `ref`.
std::pair<std::uint32_t, std::int32_t> additiveEntry(std::span<const PackClipRecord> clips, const AdditiveRef& ref) {
  if (ref.kind == AdditiveRef::Kind::None) return {runtime::kAdditiveNone, -1};
  if (ref.kind == AdditiveRef::Kind::Rest) return {runtime::kAdditiveRest, -1};
  const auto it = std::find_if(clips.begin(), clips.end(), [&](const PackClipRecord& c) { return c.name == ref.clip; });
  ANIMPACK_ASSERT(it != clips.end(), "an additive clip's base is in its pack");
  return {static_cast<std::uint32_t>(it - clips.begin()), ref.frame};
}

}  // namespace

std::vector<std::uint8_t> buildPack(const PackSkeletonRecord& skeleton, std::span<const PackClipRecord> clips) {
  using H = runtime::PackHeaderLayout;
  using C = runtime::ClipEntryLayout;
  const std::uint32_t joints = static_cast<std::uint32_t>(skeleton.names.size());
  std::vector<std::uint8_t> b;
  std::size_t estimate = runtime::kPackHeaderSize + runtime::kSkeletonHeaderSize + std::size_t(joints) * 80;
  for (const PackClipRecord& clip : clips) estimate += kEntrySize + 64 + clip.tolerances.size() * 2 + clip.data.size();
  b.reserve(estimate);
  b.resize(runtime::kPackHeaderSize, 0);
  StringTable strings;
  const std::uint32_t skeletonOffset = static_cast<std::uint32_t>(b.size());
  const std::uint32_t skeletonSize = writeSkeleton(b, skeleton, strings);

  // Clip table, then tolerance tables (identical tables are written once).
  align(b, runtime::kPackAlignment);
  const std::uint32_t tableOffset = static_cast<std::uint32_t>(b.size());
  b.resize(b.size() + clips.size() * kEntrySize, 0);
  std::vector<std::uint32_t> tolOffsets, tolSizes;
  writeToleranceTables(b, clips, joints, tolOffsets, tolSizes);
  std::vector<std::uint32_t> nameOffsets, sourceOffsets;
  for (const PackClipRecord& clip : clips) {
    nameOffsets.push_back(strings.add(clip.name));
    sourceOffsets.push_back(strings.add(clip.sourceFile));
  }
  // The source clip name table (version 4): most source names equal the pack name, stored once.
  align(b, 4);
  const std::uint32_t sourceClipsOffset = static_cast<std::uint32_t>(b.size());
  for (const PackClipRecord& clip : clips) {
    const std::size_t e = b.size();
    b.resize(e + runtime::kSourceClipEntrySize, 0);
    put(b, e, strings.add(clip.sourceClip));
    put(b, e + 4, static_cast<std::uint32_t>(clip.sourceClip.size()));
  }
  const std::uint32_t stringsOffset = static_cast<std::uint32_t>(b.size());
  appendBytes(b, strings.bytes.data(), strings.bytes.size());

  // Clip data.
  for (std::size_t i = 0; i < clips.size(); ++i) {
    const PackClipRecord& clip = clips[i];
    align(b, runtime::kPackAlignment);
    const std::uint32_t dataOffset = static_cast<std::uint32_t>(b.size());
    appendBytes(b, clip.data.data(), clip.data.size());
    const std::size_t e = tableOffset + i * kEntrySize;
    ANIMPACK_ASSERT(clip.name.size() <= 0xffff && clip.sourceFile.size() <= 0xffff, "names fit in 16 bits");
    put(b, e + C::nameOffset, nameOffsets[i]);
    put(b, e + C::nameLength, static_cast<std::uint16_t>(clip.name.size()));
    put(b, e + C::sourceOffset, sourceOffsets[i]);
    put(b, e + C::sourceLength, static_cast<std::uint16_t>(clip.sourceFile.size()));
    put(b, e + C::clipIndex, clip.clipIndex);
    put(b, e + C::startTime, clip.startTime);
    put(b, e + C::dataOffset, dataOffset);
    put(b, e + C::dataSize, static_cast<std::uint32_t>(clip.data.size()));
    put(b, e + C::tolerancesOffset, tolOffsets[i]);
    put(b, e + C::tolerancesSize, tolSizes[i]);
    put(b, e + C::settingsHash, clip.settingsHash);
    put(b, e + C::sourceHash, clip.sourceHash);
    const auto [base, frame] = additiveEntry(clips, clip.additive);
    put(b, e + C::additiveBase, base);
    put(b, e + C::additiveFrame, frame);
  }
  align(b, runtime::kPackAlignment);

  std::copy(std::begin(runtime::kPackMagic), std::end(runtime::kPackMagic), b.begin());
  put(b, H::version, runtime::kPackVersion);
  put(b, H::flags, 0u);
  put(b, H::fileSize, static_cast<std::uint64_t>(b.size()));
  put(b, H::headerSize, runtime::kPackHeaderSize);
  put(b, H::skeletonOffset, skeletonOffset);
  put(b, H::skeletonSize, skeletonSize);
  put(b, H::clipTableOffset, tableOffset);
  put(b, H::clipCount, static_cast<std::uint32_t>(clips.size()));
  put(b, H::stringsOffset, stringsOffset);
  put(b, H::stringsSize, static_cast<std::uint32_t>(strings.bytes.size()));
  put(b, H::sourceClipsOffset, sourceClipsOffset);
  put(b, H::checksum,
      runtime::fnv1a64(std::span(b.data() + runtime::kPackChecksumStart, b.size() - runtime::kPackChecksumStart)));
  return b;
}

}  // namespace animpack::core
