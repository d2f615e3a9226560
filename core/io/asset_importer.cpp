#include "core/io/asset_importer.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <optional>
#include <sstream>
#include <type_traits>
#include <unordered_map>

#include "core/anim/raw_sampler.h"
#include "core/anim/source_clip.h"
#include "core/io/morph_import.h"
#include "core/runtime/clip_format.h"
#include "core/runtime/hash.h"

namespace animpack::core {
namespace {

constexpr const char* kFbxHelperTag = "_$AssimpFbx$_";
constexpr double kFallbackTicksPerSecond = 30.0;
constexpr double kMaxIrregularRate = 120.0;
/// How the import notes a clip sampled on its most-keyed channel's grid (Importer::coarserGrid).
constexpr const char* kOwnKeyTimes = " Hz, its most-keyed channel's grid; keys between its frames keep their own times";
constexpr double kMinOwnGridRate = 10.0;  // Hz: mixed grids sample at the most-keyed channel's grid from this rate
constexpr double kMergeSeconds = 1e-5;    // key times closer than this are one grid point
constexpr std::uint64_t kMaxSamples = 400'000'000ull;  // joints x frames; ~16 GB of floats

struct NodeInfo {
  const aiNode* node = nullptr;
  int parent = -1;
  bool helper = false;
  int joint = -1;
  std::vector<int> children;
  std::vector<int> chain;  // for joints: helper nodes above (outermost first), then the node itself
};

Mat34d toAffine(const aiMatrix4x4& m) {
  Mat34d a;
  const double rows[3][4] = {{m.a1, m.a2, m.a3, m.a4}, {m.b1, m.b2, m.b3, m.b4}, {m.c1, m.c2, m.c3, m.c4}};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) a.at(r, c) = rows[r][c];
  return a;
}

bool finiteMatrix(const aiMatrix4x4& m) {
  const float* p = &m.a1;
  for (int i = 0; i < 16; ++i)
    if (!std::isfinite(p[i])) return false;
  return true;
}

std::string lowerExtension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

std::optional<double> metadataNumber(const aiScene* scene, const char* key) {
  if (!scene->mMetaData) return std::nullopt;
  for (unsigned i = 0; i < scene->mMetaData->mNumProperties; ++i) {
    if (scene->mMetaData->mKeys[i] != aiString(key)) continue;
    const aiMetadataEntry& e = scene->mMetaData->mValues[i];
    switch (e.mType) {
      case AI_DOUBLE: return *static_cast<const double*>(e.mData);
      case AI_FLOAT: return *static_cast<const float*>(e.mData);
      case AI_INT32: return *static_cast<const std::int32_t*>(e.mData);
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

/// COLLADA's <unit meter="..."/> from the file's asset block (Assimp folds it into the scene root).
std::optional<double> colladaMeter(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(65536, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  // <unit name="meter" meter="0.0254"/>: find the element, then its meter attribute.
  const std::size_t unit = head.find("<unit");
  if (unit == std::string::npos) return std::nullopt;
  const std::size_t close = head.find('>', unit);
  const std::string element = head.substr(unit, close == std::string::npos ? std::string::npos : close - unit);
  std::size_t attr = element.find(" meter");
  while (attr != std::string::npos) {
    std::size_t p = attr + 6;
    while (p < element.size() && element[p] == ' ') ++p;
    if (p < element.size() && element[p] == '=') {
      ++p;
      while (p < element.size() && element[p] == ' ') ++p;
      if (p < element.size() && (element[p] == '"' || element[p] == '\'')) {
        const std::size_t end = element.find(element[p], p + 1);
        try {
          const double v = std::stod(element.substr(p + 1, end - p - 1));
          if (v > 0 && std::isfinite(v)) return v;
        } catch (...) {
        }
      }
      break;
    }
    attr = element.find(" meter", attr + 1);
  }
  return std::nullopt;
}

Vec3 toVec3(const aiVector3D& v) { return {v.x, v.y, v.z}; }
Quat toQuat(const aiQuaternion& q) { return runtime::normalized({q.x, q.y, q.z, q.w}); }

/// One channel's keys, sorted by time, with a lookup table per component (the "fast track" idea).
struct ChannelSampler {
  std::vector<double> times[3];  // rotation, translation (position), scale
  std::vector<Quat> rotations;
  std::vector<Vec3> positions;
  std::vector<Vec3> scales;
  std::vector<std::array<double, 4>> exactRotations;  // the file's values, normalised in double
  KeyLookupTable tables[3];
};

/// True when key k of a component holds the value of key k - 1.
bool sameKeyValue(const ChannelSampler& s, int component, std::size_t k) {
  if (component == 0) return std::fabs(runtime::dot(s.rotations[k], s.rotations[k - 1])) >= 1.f - 1e-7f;
  const std::vector<Vec3>& v = component == 1 ? s.positions : s.scales;
  return runtime::length(v[k] - v[k - 1]) <= 1e-6f * std::max(1.f, runtime::length(v[k]));
}

/// The largest step g (at most the smallest spacing) such that every key offset from the first is
/// a whole multiple of g within 1 % of g; 0 when only a step under 1 % of the spacing would do.
double keyGridStep(const std::vector<double>& times, double smallest) {
  double g = smallest;
  for (double t : times) {
    const double offset = t - times.front();
    for (;;) {
      const double r = std::fabs(offset - std::round(offset / g) * g);
      if (r <= 0.01 * g) break;
      // Euclid: the grid must divide both g and the remainder.
      double a = g, b = r;
      while (b > 0.01 * g) {
        double m = std::fmod(a, b);
        if (b - m <= 0.01 * g) m = 0;
        a = b;
        b = m;
      }
      if (a >= g || a < 0.01 * smallest) return 0;
      g = a;
    }
  }
  return g;
}

float bracket(const ChannelSampler& s, int component, double t, std::size_t& i) {
  const std::vector<double>& times = s.times[component];
  i = s.tables[component].interval(t);
  if (times.size() < 2) return 0.f;
  const double t0 = times[i], t1 = times[i + 1];
  // Frame times computed as start + f * step may miss a key time by rounding: snap to the key.
  const double eps = 1e-6 * std::max(1.0, std::fabs(t));
  return t <= t0 + eps ? 0.f : t >= t1 - eps ? 1.f : static_cast<float>((t - t0) / (t1 - t0));
}

Transform evaluate(const Transform& fallback, const ChannelSampler* s, double t) {
  Transform out = fallback;
  if (!s) return out;
  std::size_t i = 0;
  if (!s->rotations.empty()) {
    const float a = bracket(*s, 0, t, i);
    out.rotation = a == 0.f   ? s->rotations[i]
                   : a == 1.f ? s->rotations[i + 1]
                              : runtime::slerp(s->rotations[i], s->rotations[i + 1], a);
  }
  if (!s->positions.empty()) {
    const float a = bracket(*s, 1, t, i);
    out.translation = a == 0.f ? s->positions[i] : runtime::lerp(s->positions[i], s->positions[i + 1], a);
  }
  if (!s->scales.empty()) {
    const float a = bracket(*s, 2, t, i);
    out.scale = a == 0.f ? s->scales[i] : runtime::lerp(s->scales[i], s->scales[i + 1], a);
  }
  return out;
}

std::string formatSeconds(double s) {
  std::ostringstream o;
  o << s << " s";
  return o.str();
}

/// Makes names unique: empty or repeated names become `name#index` (the first keeps its name).
void uniquify(std::vector<std::string>& names, const std::string& emptyStem, std::vector<Diagnostic>& diags,
              const char* what) {
  std::set<std::string> taken(names.begin(), names.end());
  std::set<std::string> used;
  int renamed = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!names[i].empty() && used.insert(names[i]).second) continue;
    const std::string stem = names[i].empty() ? emptyStem : names[i];
    std::string candidate = stem + "#" + std::to_string(i);
    for (int extra = 2; taken.count(candidate) || used.count(candidate); ++extra)
      candidate = stem + "#" + std::to_string(i) + "_" + std::to_string(extra);
    names[i] = candidate;
    used.insert(candidate);
    ++renamed;
  }
  if (renamed > 0)
    diags.push_back({Diagnostic::Severity::Info,
                     std::to_string(renamed) + " " + what + " with an empty or duplicate name renamed to name#index"});
}

Vec3 transformNormal(const Mat34d& m, Vec3 n) {
  const Mat34d inv = m.inverse();
  // Inverse-transpose of the linear part.
  const double r[3] = {inv.at(0, 0) * n.x + inv.at(1, 0) * n.y + inv.at(2, 0) * n.z,
                       inv.at(0, 1) * n.x + inv.at(1, 1) * n.y + inv.at(2, 1) * n.z,
                       inv.at(0, 2) * n.x + inv.at(1, 2) * n.y + inv.at(2, 2) * n.z};
  const double len = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  return len > 0 ? Vec3{float(r[0] / len), float(r[1] / len), float(r[2] / len)} : n;
}

Vec3 transformPoint(const Mat34d& m, Vec3 p) {
  const double in[3] = {p.x, p.y, p.z};
  double out[3];
  m.transformPoint(in, out);
  return {float(out[0]), float(out[1]), float(out[2])};
}

bool nearlyEqual(const Mat34d& a, const Mat34d& b, double tol) {
  for (int i = 0; i < 12; ++i)
    if (std::fabs(a.m[i] - b.m[i]) > tol * std::max(1.0, std::fabs(a.m[i]))) return false;
  return true;
}

bool isIdentity(const Mat34d& a, double tol) { return nearlyEqual(a, Mat34d::identity(), tol); }

/// One animation's channels, ready to sample.
struct ClipChannels {
  std::vector<ChannelSampler> samplers;  // sized once: byNode and the lookup tables point into it
  std::unordered_map<int, const ChannelSampler*> byNode;
  std::vector<double> times;  // every key time, in ticks
};

/// The frame grid of one clip, in ticks.
struct KeyGrid {
  double start = 0, end = 0;
  double rate = 0;       // frames per second
  double stepTicks = 0;  // ticks between frames
  std::uint64_t frames = 1;
  KeyGridKind kind = KeyGridKind::Regular;
};

/// The step of one regular grid that holds every key within 1 % of a step when the spacing
/// jitters (a capture clock, an exporter's float rounding): the median spacing fitted to the span;
/// 0 when a key lies further off or two keys fall on one grid time.
double jitteredStep(const std::vector<double>& t) {
  if (t.size() < 3) return 0;
  std::vector<double> d(t.size() - 1);
  for (std::size_t i = 0; i + 1 < t.size(); ++i) d[i] = t[i + 1] - t[i];
  std::nth_element(d.begin(), d.begin() + std::ptrdiff_t(d.size() / 2), d.end());
  const double steps = d[d.size() / 2] > 0 ? std::round((t.back() - t.front()) / d[d.size() / 2]) : 0;
  if (steps < 1) return 0;
  const double step = (t.back() - t.front()) / steps;
  double previous = -1;
  for (double x : t) {
    const double k = std::round((x - t.front()) / step);
    if (std::fabs((x - t.front()) / step - k) > 0.01 || k == previous) return 0;
    previous = k;
  }
  return step;
}

/// How far `t` lies from the nearest time of the grid (start, step), in steps.
double gridResidual(double t, double start, double step) {
  return std::fabs((t - start) / step - std::round((t - start) / step));
}

/// The grid time nearest `t`, computed as the frames are (start + f x step).
double gridTime(double t, double start, double step) { return start + std::round((t - start) / step) * step; }

/// One key list of a channel: a component's times.
struct KeyList {
  const std::vector<double>* times;
  double ownStep = 0;  // the list's own regular step (keyGridStep), 0 when its keys are on none
};

/// Copies one component's keys (sorted by time) into `times` and `values`, adding their times to
/// `allTimes`. Returns what is wrong with a key, or an empty string.
template <typename Key, typename Value>
std::string collectKeys(const Key* keys, unsigned count, std::vector<double>& times, std::vector<Value>& values,
                        std::vector<double>& allTimes, bool& unsorted, const char* what,
                        std::vector<std::array<double, 4>>* exactRotations = nullptr) {
  constexpr bool kRotation = std::is_same_v<Value, Quat>;
  std::vector<unsigned> order(count);
  for (unsigned k = 0; k < count; ++k) {
    order[k] = k;
    const double t = keys[k].mTime;
    const auto& v = keys[k].mValue;
    bool finite = std::isfinite(t) && std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
    if constexpr (kRotation) {
      finite = finite && std::isfinite(v.w);
      if (finite && v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w < 1e-12f)
        return " has a zero-length rotation key (key " + std::to_string(k) + ")";
    }
    if (!finite) return std::string(" has a NaN or infinite ") + what + " key (key " + std::to_string(k) + ")";
    if (k > 0 && t < keys[k - 1].mTime) unsorted = true;
    allTimes.push_back(t);
  }
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return keys[a].mTime < keys[b].mTime; });
  times.resize(count);
  values.resize(count);
  for (unsigned k = 0; k < count; ++k) {
    times[k] = keys[order[k]].mTime;
    const auto& v = keys[order[k]].mValue;
    if constexpr (kRotation) {
      values[k] = toQuat(v);
      const double n = std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z + double(v.w) * v.w);
      if (exactRotations) exactRotations->push_back({v.x / n, v.y / n, v.z / n, v.w / n});
    } else {
      values[k] = toVec3(v);
    }
  }
  return {};
}

/// Adds one weight to a vertex's influences, keeping the four largest.
void addInfluence(VertexInfluences& inf, int& count, int joint, float weight) {
  int slot = count < 4 ? count++ : -1;
  if (slot < 0) {
    slot = static_cast<int>(std::min_element(inf.weights.begin(), inf.weights.end()) - inf.weights.begin());
    if (inf.weights[std::size_t(slot)] >= weight) return;
  }
  inf.joints[std::size_t(slot)] = static_cast<std::uint16_t>(joint);
  inf.weights[std::size_t(slot)] = weight;
}

void transformMesh(const Mat34d& m, SkinnedMesh& mesh) {
  for (auto& p : mesh.positions) p = transformPoint(m, p);
  for (auto& n : mesh.normals) n = transformNormal(m, n);
  for (SkinnedMesh::Morph& t : mesh.morphs)
    for (Vec3& d : t.deltas) {
      const double in[3] = {d.x, d.y, d.z};
      double out[3];
      m.transformVector(in, out);
      d = {float(out[0]), float(out[1]), float(out[2])};
    }
}

class Importer {
 public:
  Importer(std::filesystem::path path, const ImportOptions& options) : m_path(std::move(path)), m_options(options) {}

  Expected<ImportedAsset> run();

 private:
  Error fail(const std::string& what) const { return Error{"cannot import '" + m_path.string() + "': " + what}; }
  void note(Diagnostic::Severity severity, std::string message) {
    m_asset.diagnostics.push_back({severity, std::move(message)});
  }
  void flatten(const aiNode* node, int parent);
  int findNode(const aiString& name, const std::string& what);
  std::string nodePath(int node) const;
  int realNode(int node) const;

  Status buildSkeleton();
  std::vector<bool> markBonesAndChannels();
  std::vector<std::string> selectJoints(const std::vector<bool>& marked);
  Status computeNodeObjects();
  void fillSkeleton(const std::vector<std::string>& names);

  Status importClip(unsigned index);
  double ticksPerSecond(const aiAnimation* anim, const std::string& label);
  Status readChannels(const aiAnimation* anim, const std::string& label, ClipChannels& out);
  KeyGrid keyGrid(ClipChannels& channels, double tps, const std::string& label);
  /// For keys no grid under the cap holds: the grid of the channel with the most keys (or their
  /// mean spacing) when every channel keyed off it belongs to a joint of one node, whose keys then
  /// keep their own times (timed tracks). False: `g` unchanged.
  bool coarserGrid(const ClipChannels& channels, const std::vector<KeyList>& lists, double tps, KeyGrid& g) const;

  /// Moves every key list whose keys all lie within 1 % of a step of `g` onto its times: the
  /// snapped times are the keys' times (docs/IMPORT.md "What gets imported"). Returns the largest move, in
  /// steps, and whether every list was moved.
  static std::pair<double, bool> snapKeys(ClipChannels& channels, const KeyGrid& g);
  void sampleFrames(ClipChannels& channels, const KeyGrid& grid, double tps, RawClip& clip) const;
  void noteJumps(const ChannelSampler& s, const std::string& where, double tps);
  /// The clip's source keys in double precision: the reference of every error measurement.
  std::shared_ptr<const SourceClip> sourceClip(const std::unordered_map<int, const ChannelSampler*>& byNode,
                                               const KeyGrid& grid) const;

  void importMeshes();
  /// Every node's morph targets (m_morphs), read once the nodes' object transforms are known.
  void readMorphTargets();
  void readMorphDeltas(unsigned meshIndex, int node, SkinnedMesh& out) const;
  std::vector<int> meshInstanceNodes() const;
  void readInverseBinds();
  std::optional<SkinnedMesh> readGeometry(unsigned meshIndex);
  int bindWeights(const aiMesh* mesh, int rigid, SkinnedMesh& out);
  void detectUnit();
  void detectSceneScale();

  std::filesystem::path m_path;
  ImportOptions m_options;
  const aiScene* m_scene = nullptr;
  ImportedAsset m_asset;
  std::vector<NodeInfo> m_nodes;
  std::unordered_map<std::string, std::vector<int>> m_nodesByName;  // depth-first order
  std::set<std::string> m_reportedNames;                            // ambiguous names already diagnosed
  std::vector<int> m_jointNode;                                     // joint -> node
  std::vector<Mat34d> m_nodeObject;                                 // node rest transform in object space
  bool m_rootIsJoint = false;
  double m_unitInRoot = 1;  // the file unit Assimp folded into the root (COLLADA <unit meter>), else 1
  std::optional<MorphReader> m_morphs;
};

void Importer::flatten(const aiNode* node, int parent) {
  const int index = static_cast<int>(m_nodes.size());
  NodeInfo info;
  info.node = node;
  info.parent = parent;
  info.helper = std::string_view(node->mName.C_Str()).find(kFbxHelperTag) != std::string_view::npos;
  m_nodes.push_back(info);
  if (parent >= 0) m_nodes[parent].children.push_back(index);
  m_nodesByName[node->mName.C_Str()].push_back(index);
  // Some loaders (Half-Life MDL) list nodes under one parent while their parent pointer names
  // another; the child lists are the scene graph Assimp's users traverse, so they win.
  const aiNode* listedParent = parent >= 0 ? m_nodes[parent].node : nullptr;
  if (node->mParent != listedParent)
    note(Diagnostic::Severity::Warning,
         "node '" + std::string(node->mName.C_Str()) + "' is listed under '" +
             (listedParent ? listedParent->mName.C_Str() : "(none)") + "' but its parent pointer names '" +
             (node->mParent ? node->mParent->mName.C_Str() : "(none)") + "'; the listed hierarchy is used");
  for (unsigned i = 0; i < node->mNumChildren; ++i) flatten(node->mChildren[i], index);
}

std::string Importer::nodePath(int node) const {
  std::string path = m_nodes[node].node->mName.C_Str();
  for (int p = m_nodes[node].parent; p >= 0; p = m_nodes[p].parent)
    path = std::string(m_nodes[p].node->mName.C_Str()) + "/" + path;
  return path;
}

int Importer::findNode(const aiString& name, const std::string& what) {
  const auto it = m_nodesByName.find(name.C_Str());
  if (it == m_nodesByName.end()) return -1;
  const std::vector<int>& nodes = it->second;
  if (nodes.size() == 1) return nodes.front();
  // Assimp binds bones and channels by name. When a mesh node shares its name with a bone (a glTF
  // skinned-mesh node named after the root bone), the skeleton node is the one that holds no mesh.
  const auto bare = std::find_if(nodes.begin(), nodes.end(), [&](int n) { return m_nodes[n].node->mNumMeshes == 0; });
  const int chosen = bare != nodes.end() ? *bare : nodes.front();
  if (m_reportedNames.insert(what).second) {
    std::string list;
    for (int n : nodes)
      list += (list.empty() ? "" : ", ") + nodePath(n) + (m_nodes[n].node->mNumMeshes ? " (mesh)" : "");
    note(Diagnostic::Severity::Warning, what + " matches " + std::to_string(nodes.size()) + " nodes (" + list +
                                            "); bound to " + nodePath(chosen) +
                                            (bare != nodes.end() ? ", the one without a mesh" : ", the first"));
  }
  return chosen;
}

int Importer::realNode(int n) const {
  // A helper chain hangs above its real node: follow single children down to the first non-helper.
  while (n >= 0 && m_nodes[n].helper) n = m_nodes[n].children.empty() ? -1 : m_nodes[n].children.front();
  return n;
}

std::vector<bool> Importer::markBonesAndChannels() {
  // Marked: mesh bones and animated nodes. An animated helper marks the node it belongs to.
  std::vector<bool> marked(m_nodes.size(), false);
  auto mark = [&](const aiString& name, const std::string& what) {
    const int n = realNode(findNode(name, what));
    if (n >= 0) marked[n] = true;
    return n >= 0;
  };
  for (unsigned m = 0; m < m_scene->mNumMeshes; ++m)
    for (unsigned b = 0; b < m_scene->mMeshes[m]->mNumBones; ++b) {
      const std::string bone = m_scene->mMeshes[m]->mBones[b]->mName.C_Str();
      if (!mark(m_scene->mMeshes[m]->mBones[b]->mName, "bone '" + bone + "'"))
        note(Diagnostic::Severity::Warning,
             "bone '" + bone + "' of mesh '" + m_scene->mMeshes[m]->mName.C_Str() + "' names no node; ignored");
    }
  std::set<std::string> missingChannels;
  for (unsigned a = 0; a < m_scene->mNumAnimations; ++a)
    for (unsigned c = 0; c < m_scene->mAnimations[a]->mNumChannels; ++c) {
      const aiString& name = m_scene->mAnimations[a]->mChannels[c]->mNodeName;
      if (!mark(name, "animation channel '" + std::string(name.C_Str()) + "'")) missingChannels.insert(name.C_Str());
    }
  for (const std::string& name : missingChannels)
    note(Diagnostic::Severity::Warning, "animation channel '" + name + "' targets no node; ignored");
  return marked;
}

std::vector<std::string> Importer::selectJoints(const std::vector<bool>& marked) {
  // Joints: marked nodes and all their non-helper ancestors up to (excluding) the scene root,
  // unless the root is itself a bone or animated.
  std::vector<bool> isJoint(m_nodes.size(), false);
  for (std::size_t n = 0; n < m_nodes.size(); ++n) {
    if (!marked[n]) continue;
    for (int p = static_cast<int>(n); p >= 0; p = m_nodes[p].parent) {
      if (p == 0 && !marked[0]) break;
      if (!m_nodes[p].helper) isJoint[p] = true;
    }
  }
  m_rootIsJoint = isJoint[0];
  int helpers = 0;
  std::vector<std::string> names;
  for (std::size_t n = 0; n < m_nodes.size(); ++n) {
    if (!isJoint[n]) continue;
    m_nodes[n].joint = static_cast<int>(m_jointNode.size());
    m_jointNode.push_back(static_cast<int>(n));
    // Chain: helpers between the parent joint (or the scene root) and this node, outermost first.
    std::vector<int> chain{static_cast<int>(n)};
    for (int p = m_nodes[n].parent; p > 0 && m_nodes[p].helper; p = m_nodes[p].parent) chain.push_back(p);
    std::reverse(chain.begin(), chain.end());
    helpers += static_cast<int>(chain.size()) - 1;
    m_nodes[n].chain = chain;
    names.emplace_back(m_nodes[n].node->mName.C_Str());
  }
  if (helpers > 0)
    note(Diagnostic::Severity::Info,
         "folded " + std::to_string(helpers) + " FBX pivot helper nodes ($AssimpFbx$) into their joints");
  return names;
}

Status Importer::computeNodeObjects() {
  // Object-space rest transforms of every node (exact matrices, helpers included).
  m_nodeObject.assign(m_nodes.size(), Mat34d::identity());
  for (std::size_t n = 0; n < m_nodes.size(); ++n) {
    if (!finiteMatrix(m_nodes[n].node->mTransformation))
      return fail("node '" + std::string(m_nodes[n].node->mName.C_Str()) + "' has a non-finite transform");
    const Mat34d local = toAffine(m_nodes[n].node->mTransformation);
    if (n == 0) m_nodeObject[0] = m_rootIsJoint ? local : Mat34d::identity();
    else m_nodeObject[n] = m_nodeObject[m_nodes[n].parent] * local;
  }
  return Status::ok();
}

void Importer::fillSkeleton(const std::vector<std::string>& names) {
  Skeleton& sk = m_asset.skeleton;
  sk.names = names;
  double worstShear = 0;
  for (std::size_t j = 0; j < m_jointNode.size(); ++j) {
    const NodeInfo& info = m_nodes[m_jointNode[j]];
    int parentNode = info.parent;
    while (parentNode >= 0 && m_nodes[parentNode].joint < 0) parentNode = m_nodes[parentNode].parent;
    sk.parents.push_back(parentNode >= 0 ? m_nodes[parentNode].joint : -1);
    Mat34d local = Mat34d::identity();
    for (int c : info.chain) local = local * toAffine(m_nodes[c].node->mTransformation);
    double residual = 0;
    sk.restLocal.push_back(decompose(local, &residual));
    worstShear = std::max(worstShear, residual);
    sk.inverseBind.push_back(m_nodeObject[m_jointNode[j]].inverse().cast<float>());
  }
  if (worstShear > 1e-3)
    note(Diagnostic::Severity::Warning,
         "some rest transforms have shear, which a TRS transform cannot hold (largest element error " +
             std::to_string(worstShear) + ")");
}

Status Importer::buildSkeleton() {
  std::vector<std::string> names = selectJoints(markBonesAndChannels());
  if (m_jointNode.empty()) {
    bool morphs = false;
    for (unsigned a = 0; a < m_scene->mNumAnimations; ++a)
      morphs = morphs || m_scene->mAnimations[a]->mNumMorphMeshChannels > 0;
    // A file that animates only morph-target weights has an empty skeleton and curves (docs/IMPORT.md).
    if (!morphs)
      return fail("nothing to compress: the file has no animated node, no bone and no morph-target animation");
  }
  if (m_jointNode.size() > runtime::kMaxJoints)
    return fail(std::to_string(m_jointNode.size()) + " joints; animpack supports at most " +
                std::to_string(runtime::kMaxJoints));
  uniquify(names, "joint", m_asset.diagnostics, "joints");
  if (auto st = computeNodeObjects(); !st) return st;
  fillSkeleton(names);
  return Status::ok();
}

double Importer::ticksPerSecond(const aiAnimation* anim, const std::string& label) {
  const double tps = anim->mTicksPerSecond;
  if (tps > 0 && std::isfinite(tps)) return tps;
  note(Diagnostic::Severity::Warning, label + ": the file gives no ticks per second; assuming " +
                                          std::to_string(int(kFallbackTicksPerSecond)) +
                                          " (override with sample_rate)");
  return kFallbackTicksPerSecond;
}

Status Importer::readChannels(const aiAnimation* anim, const std::string& label, ClipChannels& out) {
  // Channels by node, with NaN checks; the lookup tables come once the frame rate is known.
  out.samplers.resize(anim->mNumChannels);
  for (unsigned c = 0; c < anim->mNumChannels; ++c) {
    const aiNodeAnim* ch = anim->mChannels[c];
    const int node = findNode(ch->mNodeName, "animation channel '" + std::string(ch->mNodeName.C_Str()) + "'");
    if (node < 0) continue;
    ChannelSampler& s = out.samplers[c];
    const std::string where = label + ", node '" + std::string(ch->mNodeName.C_Str()) + "'";
    bool unsorted = false;
    std::string bad = collectKeys(ch->mRotationKeys, ch->mNumRotationKeys, s.times[0], s.rotations, out.times, unsorted,
                                  "rotation", &s.exactRotations);
    if (bad.empty())
      bad = collectKeys(ch->mPositionKeys, ch->mNumPositionKeys, s.times[1], s.positions, out.times, unsorted,
                        "position");
    if (bad.empty())
      bad = collectKeys(ch->mScalingKeys, ch->mNumScalingKeys, s.times[2], s.scales, out.times, unsorted, "scale");
    if (!bad.empty()) return fail(where + bad);
    if (unsorted) note(Diagnostic::Severity::Warning, where + " lists keys out of time order; they were sorted");
    noteJumps(s, where, anim->mTicksPerSecond > 0 ? anim->mTicksPerSecond : kFallbackTicksPerSecond);
    out.byNode.emplace(node, &s);
  }
  // The clip spans its morph-weight keys too (a clip may animate only weights).
  for (unsigned c = 0; c < anim->mNumMorphMeshChannels; ++c)
    for (unsigned k = 0; k < anim->mMorphMeshChannels[c]->mNumKeys; ++k)
      if (const double t = anim->mMorphMeshChannels[c]->mKeys[k].mTime; std::isfinite(t)) out.times.push_back(t);
  if (out.times.empty()) {
    note(Diagnostic::Severity::Warning, label + " has no key for any joint; imported as a one-frame rest pose");
    out.times.push_back(0);
  }
  return Status::ok();
}

void Importer::noteJumps(const ChannelSampler& s, const std::string& where, double tps) {
  // Two keys at one time are a jump: no interpolation between frames follows it, so the clip
  // cannot stay within precision next to it (the report shows how far it is off).
  for (int c = 0; c < 3; ++c)
    for (std::size_t k = 1; k < s.times[c].size(); ++k)
      if (s.times[c][k] - s.times[c][k - 1] <= kMergeSeconds * tps && !sameKeyValue(s, c, k)) {
        note(Diagnostic::Severity::Warning,
             where + " jumps at " + formatSeconds(s.times[c][k] / tps) +
                 " (two keys at one time): between frames next to it no interpolation follows the source");
        return;
      }
}

bool Importer::coarserGrid(const ClipChannels& channels, const std::vector<KeyList>& lists, double tps,
                           KeyGrid& g) const {
  const KeyList* densest = nullptr;
  for (const KeyList& l : lists)
    if (!densest || l.times->size() > densest->times->size()) densest = &l;
  if (!densest || densest->times->size() < 3) return false;
  const std::vector<double>& t = *densest->times;
  // Its own grid when its keys start on the clip's first key, else its mean spacing.
  double step = densest->ownStep > 0 && gridResidual(t.front(), g.start, densest->ownStep) < 0.01
                    ? densest->ownStep
                    : (t.back() - t.front()) / double(t.size() - 1);
  if (g.end > g.start) step = (g.end - g.start) / std::max(1.0, std::round((g.end - g.start) / step));
  if (!(step > 1.01 * g.stepTicks) || tps / step < 1.0) return false;
  for (const auto& [node, sampler] : channels.byNode) {
    const std::vector<int>& chain = m_nodes[std::size_t(node)].chain;
    if (chain.size() == 1 && chain[0] == node) continue;
    for (const std::vector<double>& times : sampler->times)
      for (const double x : times)
        if (gridResidual(x, g.start, step) > 1e-3) return false;  // a helper chain keyed off the grid
  }
  g.stepTicks = step;
  g.rate = tps / step;
  g.frames = g.end > g.start ? static_cast<std::uint64_t>(std::llround((g.end - g.start) / step)) + 1 : 1;
  return true;
}

KeyGrid Importer::keyGrid(ClipChannels& channels, double tps, const std::string& label) {
  // The key grid (docs/IMPORT.md, "What gets imported"), in ticks: unique times on one regular grid
  // within 1 % of a step -> its rate, the keys snapped to it; otherwise the smallest spacing,
  // capped at 120 Hz.
  std::vector<double> times = channels.times;
  std::sort(times.begin(), times.end());
  std::vector<double> unique;
  const double mergeTicks = kMergeSeconds * tps;
  for (double t : times)
    if (unique.empty() || t - unique.back() > mergeTicks) unique.push_back(t);
  std::vector<KeyList> lists;
  for (ChannelSampler& s : channels.samplers)
    for (const std::vector<double>& t : s.times)
      if (t.size() >= 2) {
        double smallest = t[1] - t[0];
        for (std::size_t i = 2; i < t.size(); ++i) smallest = std::min(smallest, t[i] - t[i - 1]);
        const double own = smallest > mergeTicks ? keyGridStep(t, smallest) : 0.0;
        lists.push_back({&t, own > 0 ? own : jitteredStep(t)});
      }
  KeyGrid g;
  g.start = unique.front();
  g.end = unique.back();
  if (m_options.sampleRate) {
    g.rate = *m_options.sampleRate;
    g.stepTicks = tps / g.rate;
    g.frames =
        unique.size() > 1 ? static_cast<std::uint64_t>(std::ceil((g.end - g.start) / g.stepTicks - 1e-6)) + 1 : 1;
    const auto [moved, all] = snapKeys(channels, g);
    g.kind = !all ? KeyGridKind::Irregular : moved > 1e-3 ? KeyGridKind::Snapped : KeyGridKind::Regular;
    return g;
  }
  if (unique.size() == 1) {
    g.rate = tps <= kMaxIrregularRate ? tps : kFallbackTicksPerSecond;
    g.stepTicks = tps / g.rate;
    note(Diagnostic::Severity::Info, label + " has a single key: imported as a one-frame clip (a pose)");
    return g;
  }
  double step = unique[1] - unique[0];
  for (std::size_t i = 2; i < unique.size(); ++i) step = std::min(step, unique[i] - unique[i - 1]);
  // The coarsest regular grid that holds every key: the smallest spacing, or a common divisor of
  // the key offsets when keys sit on a finer grid than their spacing (LightWave's keys every 20
  // ticks at odd offsets lie on one grid of single ticks), as long as it stays under the cap.
  double grid = keyGridStep(unique, step);
  bool regular = grid == step || (grid > 0 && tps / grid <= kMaxIrregularRate * (1 + 1e-9));
  if (const double j = regular ? 0.0 : jitteredStep(unique); j > 0 && tps / j <= kMaxIrregularRate * (1 + 1e-9)) {
    grid = j;
    regular = true;
  }
  if (regular) {
    step = grid;
    // Fit the step to the whole span so rounding in single key times does not skew the rate.
    const double steps = std::round((g.end - g.start) / step);
    g.stepTicks = (g.end - g.start) / steps;
    g.rate = tps / g.stepTicks;
    g.frames = static_cast<std::uint64_t>(steps) + 1;
    const double moved = snapKeys(channels, g).first;
    // Mixed: no channel is keyed this finely (channels on different grids that only this one holds).
    const bool finer = !lists.empty() && std::all_of(lists.begin(), lists.end(), [&](const KeyList& l) {
      return l.ownStep <= 0 || l.ownStep > 1.01 * g.stepTicks;
    });
    g.kind = finer ? KeyGridKind::Mixed : moved > 1e-3 ? KeyGridKind::Snapped : KeyGridKind::Regular;
    // Mixed: the most-keyed channel's grid, the other channels timed, costs less than the finer
    // common grid (packed timed keys, docs/PERFORMANCE.md "Key grids"), where that grid is at
    // least kMinOwnGridRate (LightWave's few keys on a 10 Hz grid stay on it).
    if (KeyGrid own = g; finer && coarserGrid(channels, lists, tps, own) && own.rate >= kMinOwnGridRate) {
      g = own;
      note(Diagnostic::Severity::Info, label + ": its channels are keyed on grids of their own; sampled at " +
                                           std::to_string(g.rate) + kOwnKeyTimes);
    } else if (finer) {
      note(Diagnostic::Severity::Info, label + ": its channels are keyed on grids of their own; sampled at " +
                                           std::to_string(g.rate) + " Hz, the finest grid that holds every key");
    }
    if (g.kind == KeyGridKind::Snapped)
      note(Diagnostic::Severity::Info, label + ": keys sit up to " + std::to_string(100 * moved) +
                                           " % of a step off the " + std::to_string(g.rate) +
                                           " Hz grid; the grid's times are taken as theirs");
  } else {
    // Channels each on a regular grid of their own (mixed) or not (irregular): the finest sampling
    // under the cap follows the keys off its grid closest (docs/PERFORMANCE.md "Key grids").
    const bool ownGrids =
        !lists.empty() && std::all_of(lists.begin(), lists.end(), [](const KeyList& l) { return l.ownStep > 0; });
    g.kind = ownGrids ? KeyGridKind::Mixed : KeyGridKind::Irregular;
    g.rate = std::min(tps / step, kMaxIrregularRate);
    g.stepTicks = tps / g.rate;
    g.frames = static_cast<std::uint64_t>(std::ceil((g.end - g.start) / g.stepTicks - 1e-6)) + 1;
    const bool coarser = coarserGrid(channels, lists, tps, g);
    snapKeys(channels, g);
    note(Diagnostic::Severity::Info,
         label +
             (ownGrids ? ": its channels are keyed on regular grids of their own that no one grid holds"
                       : ": keys are not on one regular grid") +
             (coarser ? "; sampled at " + std::to_string(g.rate) + kOwnKeyTimes
                      : "; resampled at " + std::to_string(g.rate) + " Hz"));
  }
  if (g.rate < 10.0)
    note(Diagnostic::Severity::Info, label + ": its keys are " + formatSeconds(g.stepTicks / tps) +
                                         " apart, so it is sampled at only " + std::to_string(g.rate) +
                                         " Hz (set sample_rate to sample it finer)");
  return g;
}

std::pair<double, bool> Importer::snapKeys(ClipChannels& channels, const KeyGrid& g) {
  double moved = 0;
  bool all = true;
  for (ChannelSampler& s : channels.samplers)
    for (std::vector<double>& t : s.times) {
      const bool onGrid =
          std::all_of(t.begin(), t.end(), [&](double x) { return gridResidual(x, g.start, g.stepTicks) <= 0.01; });
      all = all && onGrid;
      if (!onGrid) continue;
      for (double& x : t) {
        moved = std::max(moved, gridResidual(x, g.start, g.stepTicks));
        x = std::min(gridTime(x, g.start, g.stepTicks), g.end);
      }
    }
  return {moved, all};
}

void Importer::sampleFrames(ClipChannels& channels, const KeyGrid& grid, double tps, RawClip& clip) const {
  // Lookup tables at the frame rate, in ticks.
  for (ChannelSampler& s : channels.samplers)
    for (int c = 0; c < 3; ++c) s.tables[c] = KeyLookupTable(s.times[c], grid.rate / tps);

  // Static fallbacks and channel pointers per chain node.
  struct ChainNode {
    Transform rest;
    const ChannelSampler* sampler;
  };
  std::vector<std::vector<ChainNode>> chains(m_jointNode.size());
  for (std::size_t j = 0; j < m_jointNode.size(); ++j) {
    for (int n : m_nodes[m_jointNode[j]].chain) {
      const auto it = channels.byNode.find(n);
      const ChannelSampler* s = it == channels.byNode.end() ? nullptr : it->second;
      chains[j].push_back({decompose(toAffine(m_nodes[n].node->mTransformation)), s});
      if (s) {
        clip.keyedChannels[j] |= (s->rotations.empty() ? 0 : kKeyedRotation) |
                                 (s->positions.empty() ? 0 : kKeyedTranslation) | (s->scales.empty() ? 0 : kKeyedScale);
      }
    }
  }
  for (std::uint64_t f = 0; f < grid.frames; ++f) {
    const double ticks = std::min(grid.start + double(f) * grid.stepTicks, grid.end);
    for (std::size_t j = 0; j < m_jointNode.size(); ++j) {
      const auto& chain = chains[j];
      Transform& out = clip.at(static_cast<std::uint32_t>(j), static_cast<std::uint32_t>(f));
      if (chain.size() == 1) {
        out = evaluate(chain[0].rest, chain[0].sampler, ticks);
      } else {
        Mat34d m = Mat34d::identity();
        for (const ChainNode& c : chain) m = m * Mat34d::fromTransform(evaluate(c.rest, c.sampler, ticks));
        out = decompose(m);
      }
    }
  }
}

Status Importer::importClip(unsigned index) {
  const aiAnimation* anim = m_scene->mAnimations[index];
  RawClip clip;
  clip.name = anim->mName.C_Str();
  clip.clipIndex = index;
  const std::string label = "clip " + std::to_string(index) + " '" + clip.name + "'";
  const double tps = ticksPerSecond(anim, label);
  ClipChannels channels;
  if (auto st = readChannels(anim, label, channels); !st) return st;
  const KeyGrid grid = keyGrid(channels, tps, label);
  if (grid.frames * m_jointNode.size() > kMaxSamples)
    return fail(label + " would need " + std::to_string(grid.frames) + " frames; it is too long to import");
  clip.startTime = grid.start / tps;
  clip.sampleRate = grid.rate;
  clip.frameCount = static_cast<std::uint32_t>(grid.frames);
  clip.jointCount = static_cast<std::uint32_t>(m_jointNode.size());
  clip.samples.resize(grid.frames * m_jointNode.size());
  clip.keyedChannels.assign(m_jointNode.size(), 0);
  sampleFrames(channels, grid, tps, clip);
  clip.source = sourceClip(channels.byNode, grid);
  clip.grid = grid.kind;
  clip.curves = m_morphs->keys(*anim, tps, clip.startTime, label);
  makeRotationsContinuous(clip);
  if (auto st = clip.validate(m_asset.skeleton); !st) return fail(st.message());
  m_asset.clips.push_back(std::move(clip));
  return Status::ok();
}

std::shared_ptr<const SourceClip> Importer::sourceClip(const std::unordered_map<int, const ChannelSampler*>& byNode,
                                                       const KeyGrid& grid) const {
  std::vector<SourceNode> nodes;
  std::vector<std::vector<std::uint32_t>> chains(m_jointNode.size());
  std::unordered_map<int, std::uint32_t> index;
  for (std::size_t j = 0; j < m_jointNode.size(); ++j)
    for (int n : m_nodes[m_jointNode[j]].chain) {
      auto [it, added] = index.emplace(n, static_cast<std::uint32_t>(nodes.size()));
      chains[j].push_back(it->second);
      if (!added) continue;
      SourceNode node;
      node.staticMatrix = toAffine(m_nodes[n].node->mTransformation);
      const auto found = byNode.find(n);
      if (found != byNode.end()) {
        const ChannelSampler& s = *found->second;
        const Transform rest = decompose(node.staticMatrix);
        node.animated = true;
        node.rest.rotation = {rest.rotation.x, rest.rotation.y, rest.rotation.z, rest.rotation.w};
        node.rest.translation = {rest.translation.x, rest.translation.y, rest.translation.z};
        node.rest.scale = {rest.scale.x, rest.scale.y, rest.scale.z};
        for (int c = 0; c < 3; ++c) node.times[std::size_t(c)] = s.times[c];
        node.rotations = s.exactRotations;
        for (const Vec3& p : s.positions) node.positions.push_back({p.x, p.y, p.z});
        for (const Vec3& p : s.scales) node.scales.push_back({p.x, p.y, p.z});
      }
      nodes.push_back(std::move(node));
    }
  return std::make_shared<const SourceClip>(std::move(nodes), std::move(chains), grid.start, grid.stepTicks, grid.end);
}

std::vector<int> Importer::meshInstanceNodes() const {
  // The first node that instances each mesh.
  std::vector<int> meshNode(m_scene->mNumMeshes, -1);
  for (std::size_t n = 0; n < m_nodes.size(); ++n)
    for (unsigned i = 0; i < m_nodes[n].node->mNumMeshes; ++i) {
      const unsigned m = m_nodes[n].node->mMeshes[i];
      if (m < m_scene->mNumMeshes && meshNode[m] < 0) meshNode[m] = static_cast<int>(n);
    }
  return meshNode;
}

void Importer::readInverseBinds() {
  // Inverse bind matrices: the offset matrix of the first mesh that binds each bone.
  Skeleton& sk = m_asset.skeleton;
  std::vector<bool> bound(sk.jointCount(), false);
  for (unsigned mi = 0; mi < m_scene->mNumMeshes; ++mi)
    for (unsigned b = 0; b < m_scene->mMeshes[mi]->mNumBones; ++b) {
      const aiBone* bone = m_scene->mMeshes[mi]->mBones[b];
      const int node = findNode(bone->mName, "bone '" + std::string(bone->mName.C_Str()) + "'");
      if (node < 0 || m_nodes[node].joint < 0 || !finiteMatrix(bone->mOffsetMatrix)) continue;
      const int joint = m_nodes[node].joint;
      if (bound[joint]) continue;
      bound[joint] = true;
      sk.inverseBind[joint] = toAffine(bone->mOffsetMatrix).cast<float>();
    }
}

std::optional<SkinnedMesh> Importer::readGeometry(unsigned meshIndex) {
  const aiMesh* mesh = m_scene->mMeshes[meshIndex];
  if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || mesh->mNumVertices == 0) return std::nullopt;
  SkinnedMesh out;
  out.name = mesh->mName.length > 0 ? mesh->mName.C_Str() : "mesh#" + std::to_string(meshIndex);
  out.positions.resize(mesh->mNumVertices);
  out.normals.resize(mesh->mNumVertices);
  bool finite = true;
  for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
    out.positions[v] = toVec3(mesh->mVertices[v]);
    out.normals[v] = mesh->mNormals ? toVec3(mesh->mNormals[v]) : Vec3{0, 0, 1};
    const Vec3& p = out.positions[v];
    finite = finite && std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
    if (!std::isfinite(out.normals[v].x) || !std::isfinite(out.normals[v].y) || !std::isfinite(out.normals[v].z))
      out.normals[v] = {0, 0, 1};
  }
  if (!finite) {
    note(Diagnostic::Severity::Warning, "mesh '" + out.name + "' has non-finite vertices; skipped");
    return std::nullopt;
  }
  for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
    const aiFace& face = mesh->mFaces[f];
    if (face.mNumIndices != 3) continue;
    out.indices.insert(out.indices.end(), face.mIndices, face.mIndices + 3);
  }
  return out;
}

int Importer::bindWeights(const aiMesh* mesh, int rigid, SkinnedMesh& out) {
  const Skeleton& sk = m_asset.skeleton;
  out.skinned = true;
  out.influences.assign(mesh->mNumVertices, VertexInfluences{});
  std::vector<int> counts(mesh->mNumVertices, 0);
  std::optional<Mat34d> difference;
  bool consistent = true;
  for (unsigned b = 0; b < mesh->mNumBones; ++b) {
    const aiBone* bone = mesh->mBones[b];
    const int node = findNode(bone->mName, "bone '" + std::string(bone->mName.C_Str()) + "'");
    if (node < 0 || m_nodes[node].joint < 0) continue;
    const int joint = m_nodes[node].joint;
    // This mesh may be bound in another space than the first mesh that used the bone: bring
    // its vertices into that space, which works when one matrix relates all its bones.
    const Mat34d d = sk.inverseBind[joint].cast<double>().inverse() * toAffine(bone->mOffsetMatrix);
    if (!difference) difference = d;
    else if (!nearlyEqual(*difference, d, 1e-4)) consistent = false;
    for (unsigned w = 0; w < bone->mNumWeights; ++w) {
      const aiVertexWeight& vw = bone->mWeights[w];
      if (vw.mVertexId >= mesh->mNumVertices || !(vw.mWeight > 0.f)) continue;
      addInfluence(out.influences[vw.mVertexId], counts[vw.mVertexId], joint, vw.mWeight);
    }
  }
  if (!consistent)
    note(Diagnostic::Severity::Warning,
         "mesh '" + out.name + "' binds shared bones in a different pose from another mesh; it may deform wrongly");
  else if (difference && !isIdentity(*difference, 1e-5)) transformMesh(*difference, out);
  int unweighted = 0;
  for (VertexInfluences& inf : out.influences) {
    const float sum = inf.weights[0] + inf.weights[1] + inf.weights[2] + inf.weights[3];
    if (sum <= 0.f) {
      ++unweighted;
      inf = VertexInfluences{};
      inf.joints[0] = static_cast<std::uint16_t>(std::max(rigid, 0));
      inf.weights[0] = 1.f;
      continue;
    }
    for (float& w : inf.weights) w /= sum;
  }
  return unweighted;
}

void Importer::readMorphDeltas(unsigned meshIndex, int node, SkinnedMesh& out) const {
  const aiMesh* mesh = m_scene->mMeshes[meshIndex];
  for (unsigned t = 0; t < mesh->mNumAnimMeshes && m_morphs; ++t) {
    const aiAnimMesh* target = mesh->mAnimMeshes[t];
    const int curve = m_morphs->curveOf(node, t);
    if (curve < 0 || !target->mVertices || target->mNumVertices != mesh->mNumVertices) continue;
    SkinnedMesh::Morph morph{std::uint32_t(curve), std::vector<Vec3>(out.positions.size())};
    bool moves = false, finite = true;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const Vec3 d = toVec3(target->mVertices[v] - mesh->mVertices[v]);  // Assimp's target vertices are absolute
      finite = finite && std::isfinite(d.x) && std::isfinite(d.y) && std::isfinite(d.z);
      moves = moves || d.x != 0.f || d.y != 0.f || d.z != 0.f;
      morph.deltas[v] = d;
    }
    if (finite && moves) out.morphs.push_back(std::move(morph));
  }
}

void Importer::readMorphTargets() {
  std::vector<MorphNode> nodes;
  for (std::size_t n = 0; n < m_nodes.size(); ++n) {
    const aiNode* node = m_nodes[n].node;
    nodes.push_back({node->mName.C_Str(), {node->mMeshes, node->mMeshes + node->mNumMeshes}, m_nodeObject[n]});
  }
  m_morphs.emplace(*m_scene, std::move(nodes), m_asset.format, m_asset.lengthToCm(), m_asset.diagnostics);
}

void Importer::importMeshes() {
  const std::vector<int> meshNode = meshInstanceNodes();
  readInverseBinds();
  const Skeleton& sk = m_asset.skeleton;
  int unweighted = 0;
  for (unsigned mi = 0; mi < m_scene->mNumMeshes; ++mi) {
    std::optional<SkinnedMesh> out = readGeometry(mi);
    if (!out) continue;
    const int node = meshNode[mi];
    readMorphDeltas(mi, node, *out);
    // Nearest joint at or above the mesh's node, for rigid attachment and unweighted vertices.
    int rigid = -1;
    for (int n = node; n >= 0 && rigid < 0; n = m_nodes[n].parent) rigid = m_nodes[n].joint;
    if (m_scene->mMeshes[mi]->mNumBones > 0) {
      unweighted += bindWeights(m_scene->mMeshes[mi], rigid, *out);
    } else if (rigid >= 0) {
      // A bone-less mesh under a joint follows that joint rigidly.
      out->rigidJoint = rigid;
      transformMesh(sk.inverseBind[rigid].cast<double>().inverse() * m_nodeObject[m_jointNode[rigid]].inverse() *
                        m_nodeObject[node],
                    *out);
      VertexInfluences inf;
      inf.joints[0] = static_cast<std::uint16_t>(rigid);
      inf.weights[0] = 1.f;
      out->influences.assign(out->positions.size(), inf);
    } else {
      // Static: placed in object space once.
      transformMesh(node >= 0 ? m_nodeObject[node] : Mat34d::identity(), *out);
    }
    if (auto st = out->validate(sk.jointCount()); !st) {
      note(Diagnostic::Severity::Warning, st.message() + "; mesh skipped");
      continue;
    }
    m_asset.meshes.push_back(std::move(*out));
  }
  if (unweighted > 0)
    note(Diagnostic::Severity::Warning,
         std::to_string(unweighted) + " skinned vertices have no bone weight; they follow their mesh's node");
}

void Importer::detectUnit() {
  const std::string& ext = m_asset.format;
  if (ext == "dae") {
    const auto meter = colladaMeter(m_path);
    // Assimp multiplies the root's transform by the unit (AI_CONFIG_IMPORT_COLLADA_IGNORE_UNIT_SIZE
    // is left off), whether or not the unit is overridden here.
    m_unitInRoot = meter ? *meter : 1.0;
  }
  if (m_options.unitToCm) {
    m_asset.unitToCm = *m_options.unitToCm;
    m_asset.unitSource = "settings override";
  } else if (ext == "gltf" || ext == "glb") {
    m_asset.unitToCm = 100;
    m_asset.unitSource = "glTF (metres)";
  } else if (ext == "fbx") {
    const auto factor = metadataNumber(m_scene, "UnitScaleFactor");
    m_asset.unitToCm = factor && *factor > 0 ? *factor : 1.0;
    m_asset.unitSource = "FBX UnitScaleFactor=" + std::to_string(m_asset.unitToCm);
  } else if (ext == "dae") {
    m_asset.unitToCm = m_unitInRoot * 100.0;
    m_asset.unitSource = "COLLADA <unit meter=" + std::to_string(m_unitInRoot) + ">";
  } else {
    m_asset.unitToCm = 1;
    m_asset.unitSource = "assumed centimetres (the format carries no unit)";
  }
}

void Importer::detectSceneScale() {
  // Joints, meshes and morph targets are in the skeleton's root space: only the scene root lies
  // above it, and nothing does when the root is joint 0. The unit Assimp folded into the root is
  // already in unitToCm, so it counts once.
  const aiMatrix4x4& r = m_scene->mRootNode->mTransformation;
  double largest = 1;
  if (!m_rootIsJoint) {
    largest = 0;
    for (int c = 0; c < 3; ++c)
      largest = std::max(largest,
                         std::sqrt(double(r[0][c]) * r[0][c] + double(r[1][c]) * r[1][c] + double(r[2][c]) * r[2][c]));
  }
  m_asset.sceneScale = largest / m_unitInRoot;
  m_asset.sceneScaleSource = m_rootIsJoint ? "the scene root is joint 0"
                                           : "scene root '" + std::string(m_scene->mRootNode->mName.C_Str()) + "'";
  if (m_unitInRoot != 1) m_asset.sceneScaleSource += ", without the COLLADA unit Assimp folds into it";
  if (!(m_asset.sceneScale > 0) || !std::isfinite(m_asset.sceneScale)) {
    note(Diagnostic::Severity::Warning,
         "the scene root's scale is " + std::to_string(m_asset.sceneScale) + "; lengths are measured at scene scale 1");
    m_asset.sceneScale = 1;
  }
}

Expected<ImportedAsset> Importer::run() {
  std::error_code ec;
  if (!std::filesystem::exists(m_path, ec)) return fail("no such file");
  if (std::filesystem::is_directory(m_path, ec)) return fail("it is a directory, not a file");
  const auto size = std::filesystem::file_size(m_path, ec);
  if (ec) return fail("cannot read its size (" + ec.message() + ")");
  if (size == 0) return fail("the file is empty");
  {
    std::ifstream probe(m_path, std::ios::binary);
    if (!probe) return fail("cannot open it for reading");
  }

  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  importer.SetPropertyInteger(AI_CONFIG_PP_LBW_MAX_WEIGHTS, 4);
  m_scene = importer.ReadFile(m_path.string(), aiProcess_Triangulate | aiProcess_LimitBoneWeights |
                                                   aiProcess_GenSmoothNormals | aiProcess_SortByPType);
  if (!m_scene || !m_scene->mRootNode) {
    std::string why = importer.GetErrorString();
    if (why.empty()) why = "Assimp could not read it";
    return fail(why);
  }
  m_asset.file = m_path.string();
  m_asset.format = lowerExtension(m_path);
  m_asset.sourceHash = hashFile(m_path);
  detectUnit();

  flatten(m_scene->mRootNode, -1);
  if (auto st = buildSkeleton(); !st) return Error{st.message()};
  if (!m_rootIsJoint) {
    const aiMatrix4x4& r = m_scene->mRootNode->mTransformation;
    m_asset.sceneRootTransform = {r.a1, r.b1, r.c1, r.d1, r.a2, r.b2, r.c2, r.d2,
                                  r.a3, r.b3, r.c3, r.d3, r.a4, r.b4, r.c4, r.d4};
  } else {
    note(Diagnostic::Severity::Info, "the scene root '" + std::string(m_scene->mRootNode->mName.C_Str()) +
                                         "' is itself a bone or animated, so it is joint 0");
  }
  detectSceneScale();
  readMorphTargets();
  for (unsigned a = 0; a < m_scene->mNumAnimations; ++a)
    if (auto st = importClip(a); !st) return Error{st.message()};
  std::vector<std::string> clipNames;
  for (const RawClip& c : m_asset.clips) clipNames.push_back(c.name);
  uniquify(clipNames, "clip", m_asset.diagnostics, "clips");
  for (std::size_t i = 0; i < clipNames.size(); ++i) m_asset.clips[i].name = clipNames[i];
  if (m_asset.clips.empty())
    note(Diagnostic::Severity::Info, "the file has bones but no animation: nothing to compress until clips are added");
  m_asset.curves = m_morphs->curves();
  if (m_jointNode.empty() &&
      std::none_of(m_asset.clips.begin(), m_asset.clips.end(), [](const RawClip& c) { return !c.curves.empty(); })) {
    // Weights were the file's only animation, and none of them could be read.
    std::string why;
    for (const Diagnostic& d : m_asset.diagnostics)
      if (d.severity == Diagnostic::Severity::Warning && d.message.find("morph") != std::string::npos) {
        why = ": " + d.message;
        break;
      }
    return fail(
        "nothing to compress: the file has no animated node and no bone, and no morph-target weight it animates "
        "could be read" +
        why);
  }
  if (!m_asset.curves.empty()) {
    std::set<std::uint32_t> animated;
    for (const RawClip& c : m_asset.clips)
      for (const CurveKeys& k : c.curves) animated.insert(k.curve);
    note(Diagnostic::Severity::Info, std::to_string(m_asset.curves.size()) + " morph target(s), " +
                                         std::to_string(animated.size()) +
                                         " animated by some clip: `animpack inspect` lists them; packs carry their "
                                         "weights (docs/IMPORT.md \"Morph targets\")");
  }
  importMeshes();
  if (auto st = m_asset.skeleton.validate(); !st) return fail(st.message());
  return std::move(m_asset);
}

}  // namespace

const char* severityName(Diagnostic::Severity severity) {
  switch (severity) {
    case Diagnostic::Severity::Info: return "info";
    case Diagnostic::Severity::Warning: return "warning";
    case Diagnostic::Severity::Error: return "error";
  }
  return "info";
}

std::uint64_t hashFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return 0;
  std::uint64_t h = runtime::kFnvOffset;
  std::vector<std::uint8_t> buffer(1 << 16);
  while (in) {
    in.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    h = runtime::fnv1a64(std::span(buffer.data(), got), h);
  }
  return h;
}

ImportOptions importOptionsOf(const CompressionSettings& settings) {
  ImportOptions options;
  options.unitToCm = settings.unitToCm;
  options.sampleRate = settings.sampleRate;
  if (settings.lod) options.jointOrder = *settings.lod;
  return options;
}

Expected<ImportedAsset> importAsset(const std::filesystem::path& path, const ImportOptions& options) {
  if (options.sampleRate &&
      (!(*options.sampleRate > 0) || !std::isfinite(*options.sampleRate) || *options.sampleRate > 10000))
    return Error{"sample_rate must be a positive number of frames per second up to 10000"};
  if (options.unitToCm && (!(*options.unitToCm > 0) || !std::isfinite(*options.unitToCm)))
    return Error{"unit_to_cm must be a positive number"};
  Importer importer(path, options);
  auto asset = importer.run();
  if (asset)
    if (auto st = applyJointOrder(*asset, options.jointOrder); !st) return Error{st.message()};
  return asset;
}

}  // namespace animpack::core
