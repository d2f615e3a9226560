#include "core/io/import_stream.h"

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include "core/anim/source_clip.h"
#include "core/runtime/hash.h"

namespace animpack::core {
namespace {

constexpr char kMagic[8] = {'A', 'P', 'I', 'M', 'P', 'R', 'T', '\0'};
constexpr std::uint32_t kKindAsset = 0, kKindError = 1;

class Writer {
 public:
  std::vector<std::uint8_t> bytes;

  template <typename T>
  void pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  template <typename T>
  void array(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    pod(std::uint64_t(v.size()));
    const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
    bytes.insert(bytes.end(), p, p + v.size() * sizeof(T));
  }
  void string(const std::string& s) {
    pod(std::uint64_t(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  void flag(bool b) { pod(std::uint8_t(b ? 1 : 0)); }
};

/// Reads the payload; the first problem sticks and every later read returns zeros.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : m_bytes(bytes) {}
  std::string problem;

  template <typename T>
  T pod(const char* what) {
    static_assert(std::is_trivially_copyable_v<T>);
    T v{};
    if (take(sizeof(T), what)) std::memcpy(&v, m_bytes.data() + m_pos - sizeof(T), sizeof(T));
    return v;
  }
  template <typename T>
  void array(std::vector<T>& out, const char* what) {
    const std::uint64_t n = count(sizeof(T), what);
    out.resize(n);
    if (n && take(n * sizeof(T), what)) std::memcpy(out.data(), m_bytes.data() + m_pos - n * sizeof(T), n * sizeof(T));
  }
  std::string string(const char* what) {
    const std::uint64_t n = count(1, what);
    if (!n || !take(n, what)) return {};
    return std::string(reinterpret_cast<const char*>(m_bytes.data() + m_pos - n), n);
  }
  bool flag(const char* what) {
    const auto b = pod<std::uint8_t>(what);
    if (b > 1) fail(std::string(what) + " is " + std::to_string(b) + ", not 0 or 1");
    return b == 1;
  }
  /// An element count, checked against the bytes left before anything is allocated for it.
  std::uint64_t count(std::size_t elementBytes, const char* what) {
    const auto n = pod<std::uint64_t>(what);
    if (problem.empty() && n > (m_bytes.size() - m_pos) / elementBytes) {
      fail(std::string(what) + ": " + std::to_string(n) + " elements do not fit in the " +
           std::to_string(m_bytes.size() - m_pos) + " bytes left");
      return 0;
    }
    return problem.empty() ? n : 0;
  }
  bool atEnd() const { return m_pos == m_bytes.size(); }
  void fail(const std::string& message) {
    if (problem.empty()) problem = message;
  }

 private:
  bool take(std::size_t n, const char* what) {
    if (!problem.empty()) return false;
    if (n > m_bytes.size() - m_pos) {
      fail(std::string("truncated in ") + what);
      return false;
    }
    m_pos += n;
    return true;
  }
  std::span<const std::uint8_t> m_bytes;
  std::size_t m_pos = 0;
};

/// A clip's source keys (core/anim/source_clip.h): the reference of every error measurement.
void writeSource(Writer& w, const SourceClip* source) {
  w.flag(source != nullptr);
  if (!source) return;
  w.pod(std::uint64_t(source->nodes().size()));
  for (const SourceNode& n : source->nodes()) {
    w.flag(n.animated);
    w.pod(n.staticMatrix);
    w.pod(n.rest);
    for (const auto& t : n.times) w.array(t);
    w.array(n.rotations);
    w.array(n.positions);
    w.array(n.scales);
  }
  w.pod(std::uint64_t(source->chains().size()));
  for (const auto& chain : source->chains()) w.array(chain);
  w.pod(source->startTicks());
  w.pod(source->ticksPerFrame());
  w.pod(source->endTicks());
}

std::shared_ptr<const SourceClip> readSource(Reader& r) {
  if (!r.flag("source flag")) return nullptr;
  std::vector<SourceNode> nodes(r.count(sizeof(Mat34d) + sizeof(TransformD), "source nodes"));
  for (SourceNode& n : nodes) {
    n.animated = r.flag("source node flag");
    n.staticMatrix = r.pod<Mat34d>("source node matrix");
    n.rest = r.pod<TransformD>("source node rest");
    for (auto& t : n.times) r.array(t, "source key times");
    r.array(n.rotations, "source rotations");
    r.array(n.positions, "source positions");
    r.array(n.scales, "source scales");
  }
  std::vector<std::vector<std::uint32_t>> chains(r.count(8, "source chains"));
  for (auto& chain : chains) r.array(chain, "source chain");
  const auto start = r.pod<double>("source start");
  const auto step = r.pod<double>("source step");
  const auto end = r.pod<double>("source end");
  return std::make_shared<const SourceClip>(std::move(nodes), std::move(chains), start, step, end);
}

void writeAsset(Writer& w, const ImportedAsset& a) {
  w.string(a.file);
  w.string(a.format);
  w.pod(std::uint64_t(a.skeleton.names.size()));
  for (const std::string& n : a.skeleton.names) w.string(n);
  w.array(a.skeleton.parents);
  w.array(a.skeleton.restLocal);
  w.array(a.skeleton.inverseBind);
  w.pod(std::uint64_t(a.clips.size()));
  for (const RawClip& c : a.clips) {
    w.string(c.name);
    w.pod(c.clipIndex);
    w.pod(c.startTime);
    w.pod(c.sampleRate);
    w.pod(c.frameCount);
    w.pod(c.jointCount);
    w.array(c.samples);
    w.array(c.keyedChannels);
    w.pod(std::uint8_t(c.grid));
    writeSource(w, c.source.get());
    w.pod(std::uint64_t(c.curves.size()));
    for (const CurveKeys& k : c.curves) {
      w.pod(k.curve);
      w.array(k.times);
      w.array(k.weights);
    }
  }
  w.pod(std::uint64_t(a.meshes.size()));
  for (const SkinnedMesh& m : a.meshes) {
    w.string(m.name);
    w.array(m.positions);
    w.array(m.normals);
    w.array(m.indices);
    w.array(m.influences);
    w.flag(m.skinned);
    w.pod(m.rigidJoint);
    w.pod(std::uint64_t(m.morphs.size()));
    for (const SkinnedMesh::Morph& t : m.morphs) {
      w.pod(t.curve);
      w.array(t.deltas);
    }
  }
  w.pod(std::uint64_t(a.curves.size()));
  for (const MorphCurve& m : a.curves) {
    w.string(m.name);
    w.string(m.node);
    w.string(m.target);
    w.pod(m.targetIndex);
    w.pod(m.displacementCm);
    w.pod(m.restWeight);
  }
  w.pod(a.unitToCm);
  w.string(a.unitSource);
  w.pod(a.sceneScale);
  w.string(a.sceneScaleSource);
  w.pod(a.sceneRootTransform);
  w.pod(a.sourceHash);
  w.pod(std::uint64_t(a.diagnostics.size()));
  for (const Diagnostic& d : a.diagnostics) {
    w.pod(std::uint8_t(d.severity));
    w.string(d.message);
  }
}

ImportedAsset readAsset(Reader& r) {
  ImportedAsset a;
  a.file = r.string("file");
  a.format = r.string("format");
  a.skeleton.names.resize(r.count(8, "joint names"));
  for (std::string& n : a.skeleton.names) n = r.string("joint name");
  r.array(a.skeleton.parents, "parents");
  r.array(a.skeleton.restLocal, "rest pose");
  r.array(a.skeleton.inverseBind, "inverse bind matrices");
  a.clips.resize(r.count(48, "clips"));
  for (RawClip& c : a.clips) {
    c.name = r.string("clip name");
    c.clipIndex = r.pod<std::uint32_t>("clip index");
    c.startTime = r.pod<double>("start time");
    c.sampleRate = r.pod<double>("sample rate");
    c.frameCount = r.pod<std::uint32_t>("frame count");
    c.jointCount = r.pod<std::uint32_t>("joint count");
    r.array(c.samples, "samples");
    r.array(c.keyedChannels, "keyed channels");
    const auto grid = r.pod<std::uint8_t>("key grid");
    if (grid > std::uint8_t(KeyGridKind::Irregular)) r.fail("key grid " + std::to_string(grid));
    c.grid = static_cast<KeyGridKind>(grid);
    c.source = readSource(r);
    c.curves.resize(r.count(20, "curve keys"));
    for (CurveKeys& k : c.curves) {
      k.curve = r.pod<std::uint32_t>("curve index");
      r.array(k.times, "curve key times");
      r.array(k.weights, "curve key weights");
    }
  }
  a.meshes.resize(r.count(41, "meshes"));
  for (SkinnedMesh& m : a.meshes) {
    m.name = r.string("mesh name");
    r.array(m.positions, "positions");
    r.array(m.normals, "normals");
    r.array(m.indices, "indices");
    r.array(m.influences, "influences");
    m.skinned = r.flag("skinned flag");
    m.rigidJoint = r.pod<std::int32_t>("rigid joint");
    m.morphs.resize(r.count(12, "mesh morph targets"));
    for (SkinnedMesh::Morph& t : m.morphs) {
      t.curve = r.pod<std::uint32_t>("mesh morph curve");
      r.array(t.deltas, "mesh morph displacements");
    }
  }
  a.curves.resize(r.count(44, "morph curves"));
  for (MorphCurve& m : a.curves) {
    m.name = r.string("curve name");
    m.node = r.string("curve node");
    m.target = r.string("curve target");
    m.targetIndex = r.pod<std::uint32_t>("curve target index");
    m.displacementCm = r.pod<double>("curve displacement");
    m.restWeight = r.pod<float>("curve rest weight");
  }
  a.unitToCm = r.pod<double>("unit");
  a.unitSource = r.string("unit source");
  a.sceneScale = r.pod<double>("scene scale");
  a.sceneScaleSource = r.string("scene scale source");
  a.sceneRootTransform = r.pod<std::array<float, 16>>("scene root transform");
  a.sourceHash = r.pod<std::uint64_t>("source hash");
  a.diagnostics.resize(r.count(9, "diagnostics"));
  for (Diagnostic& d : a.diagnostics) {
    const auto severity = r.pod<std::uint8_t>("diagnostic severity");
    if (severity > std::uint8_t(Diagnostic::Severity::Error)) r.fail("diagnostic severity " + std::to_string(severity));
    d.severity = static_cast<Diagnostic::Severity>(severity);
    d.message = r.string("diagnostic");
  }
  return a;
}

/// A clip's curve keys: curves that exist, in increasing order, finite keys at increasing times.
Status validateCurveKeys(const RawClip& c, std::size_t curves) {
  const std::string label = "clip " + std::to_string(c.clipIndex) + ": morph curve keys ";
  for (std::size_t i = 0; i < c.curves.size(); ++i) {
    const CurveKeys& k = c.curves[i];
    if (k.curve >= curves || (i > 0 && k.curve <= c.curves[i - 1].curve))
      return Error{label + "name curve " + std::to_string(k.curve) + " out of order or of " + std::to_string(curves)};
    if (k.times.empty() || k.times.size() != k.weights.size())
      return Error{label + "have mismatched times and weights"};
    for (std::size_t j = 0; j < k.times.size(); ++j)
      if (!std::isfinite(k.times[j]) || !std::isfinite(k.weights[j]) || (j > 0 && !(k.times[j] > k.times[j - 1])))
        return Error{label + "are not finite and increasing"};
  }
  return Status::ok();
}

/// The rules an asset from importAsset() always meets.
Status validateAsset(const ImportedAsset& a) {
  if (auto st = a.skeleton.validate(); !st) return st;
  if (a.skeleton.restLocal.size() != a.skeleton.jointCount() ||
      a.skeleton.inverseBind.size() != a.skeleton.jointCount())
    return Error{"rest pose or bind matrices do not match the joints"};
  for (std::size_t i = 0; i < a.clips.size(); ++i) {
    const RawClip& c = a.clips[i];
    if (c.clipIndex != i) return Error{"clip " + std::to_string(i) + " has index " + std::to_string(c.clipIndex)};
    if (!std::isfinite(c.startTime)) return Error{"clip " + std::to_string(i) + " starts at a non-finite time"};
    if (c.keyedChannels.size() != c.jointCount)
      return Error{"clip " + std::to_string(i) + ": keyed channels do not match the joints"};
    if (auto st = c.validate(a.skeleton); !st) return st;
    if (c.source && !c.source->valid(c.jointCount))
      return Error{"clip " + std::to_string(i) + ": its source keys are inconsistent"};
    if (auto st = validateCurveKeys(c, a.curves.size()); !st) return st;
  }
  for (const MorphCurve& m : a.curves)
    if (!(m.displacementCm >= 0) || !std::isfinite(m.displacementCm) || !std::isfinite(m.restWeight))
      return Error{"morph curve '" + m.name + "' has a displacement or rest weight that is not a number"};
  for (const SkinnedMesh& m : a.meshes) {
    if (auto st = m.validate(a.skeleton.jointCount()); !st) return st;
    for (const SkinnedMesh::Morph& t : m.morphs)
      if (t.curve >= a.curves.size()) return Error{"mesh '" + m.name + "' has a morph target of no curve"};
  }
  if (!(a.unitToCm > 0) || !std::isfinite(a.unitToCm)) return Error{"unit_to_cm is not a positive number"};
  if (!(a.sceneScale > 0) || !std::isfinite(a.sceneScale)) return Error{"scene_scale is not a positive number"};
  for (float v : a.sceneRootTransform)
    if (!std::isfinite(v)) return Error{"the scene-root transform is not finite"};
  return Status::ok();
}

}  // namespace

std::vector<std::uint8_t> writeImportStream(const Expected<ImportedAsset>& result) {
  Writer payload;
  if (result) writeAsset(payload, *result);
  else payload.string(result.message());
  Writer w;
  w.bytes.assign(kMagic, kMagic + sizeof(kMagic));
  w.pod(kImportStreamVersion);
  w.pod(result ? kKindAsset : kKindError);
  w.pod(std::uint64_t(payload.bytes.size()));
  w.pod(runtime::fnv1a64(payload.bytes));
  w.bytes.insert(w.bytes.end(), payload.bytes.begin(), payload.bytes.end());
  return std::move(w.bytes);
}

Expected<ImportedAsset> readImportStream(std::span<const std::uint8_t> bytes, std::string_view source) {
  const std::string prefix = std::string(source) + ": the import result stream ";
  if (bytes.size() < kImportStreamHeaderBytes)
    return Error{prefix + "is truncated (" + std::to_string(bytes.size()) + " bytes, the header alone is " +
                 std::to_string(kImportStreamHeaderBytes) + ")"};
  if (std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return Error{prefix + "does not start with its magic tag"};
  Reader header(bytes.subspan(sizeof(kMagic), kImportStreamHeaderBytes - sizeof(kMagic)));
  const auto version = header.pod<std::uint32_t>("version");
  const auto kind = header.pod<std::uint32_t>("kind");
  const auto size = header.pod<std::uint64_t>("size");
  const auto checksum = header.pod<std::uint64_t>("checksum");
  if (version != kImportStreamVersion)
    return Error{prefix + "has version " + std::to_string(version) + ", this build reads " +
                 std::to_string(kImportStreamVersion)};
  if (kind != kKindAsset && kind != kKindError) return Error{prefix + "has unknown kind " + std::to_string(kind)};
  const auto payload = bytes.subspan(kImportStreamHeaderBytes);
  if (size != payload.size())
    return Error{prefix + "says " + std::to_string(size) + " payload bytes but holds " +
                 std::to_string(payload.size())};
  if (runtime::fnv1a64(payload) != checksum) return Error{prefix + "fails its checksum"};
  Reader r(payload);
  if (kind == kKindError) {
    std::string message = r.string("error message");
    if (!r.problem.empty() || !r.atEnd()) return Error{prefix + "holds a malformed error message"};
    return Error{std::move(message)};
  }
  ImportedAsset asset = readAsset(r);
  if (!r.problem.empty()) return Error{prefix + "is malformed: " + r.problem};
  if (!r.atEnd()) return Error{prefix + "has bytes after the asset"};
  if (auto st = validateAsset(asset); !st) return Error{prefix + "holds an invalid asset: " + st.message()};
  return asset;
}

}  // namespace animpack::core
