#include "core/io/morph_import.h"

#include <assimp/anim.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace animpack::core {
namespace {

/// FBX names a morph channel "<node>*<geometry index>": the node's name.
std::string fbxNodeName(const std::string& channel) {
  const auto star = channel.rfind('*');
  if (star == std::string::npos || star + 1 == channel.size()) return channel;
  const bool digits = std::all_of(channel.begin() + std::ptrdiff_t(star) + 1, channel.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
  return digits ? channel.substr(0, star) : channel;
}

/// The largest distance (file units, object space) any vertex of `mesh` moves at full weight of target `t`.
double largestDisplacement(const aiMesh& mesh, unsigned t, const Mat34d& object) {
  const aiAnimMesh* anim = mesh.mAnimMeshes[t];
  if (!anim || !anim->mVertices || anim->mNumVertices != mesh.mNumVertices) return 0;
  double largest = 0;
  for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
    const aiVector3D d = anim->mVertices[v] - mesh.mVertices[v];  // Assimp's target vertices are absolute
    const double in[3] = {d.x, d.y, d.z};
    double out[3];
    object.transformVector(in, out);
    const double length = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    if (std::isfinite(length)) largest = std::max(largest, length);
  }
  return largest;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

}  // namespace

MorphReader::MorphReader(const aiScene& scene, std::vector<MorphNode> nodes, std::string format, double unitToCm,
                         std::vector<Diagnostic>& diagnostics)
    : m_scene(scene),
      m_nodes(std::move(nodes)),
      m_format(std::move(format)),
      m_unitToCm(unitToCm),
      m_diagnostics(diagnostics),
      m_firstCurve(m_nodes.size(), -1),
      m_refused(m_nodes.size(), 0) {
  for (std::size_t n = 0; n < m_nodes.size(); ++n) addNodeCurves(int(n));
}

void MorphReader::addNodeCurves(int n) {
  const MorphNode& node = m_nodes[std::size_t(n)];
  std::vector<const aiMesh*> primitives;
  for (unsigned m : node.meshes)
    if (m < m_scene.mNumMeshes && m_scene.mMeshes[m]->mNumAnimMeshes > 0) primitives.push_back(m_scene.mMeshes[m]);
  if (primitives.empty()) return;
  unsigned targets = primitives.front()->mNumAnimMeshes;
  for (const aiMesh* p : primitives) targets = std::min(targets, p->mNumAnimMeshes);
  if (std::any_of(primitives.begin(), primitives.end(), [&](const aiMesh* p) { return p->mNumAnimMeshes != targets; }))
    m_diagnostics.push_back({Diagnostic::Severity::Warning, "node '" + node.name +
                                                                "': its meshes have different numbers of morph "
                                                                "targets; the first " +
                                                                std::to_string(targets) + " are used"});
  // FBX in-between shapes come out as extra targets at partial weights whose keys cannot be told apart.
  if (m_format == "fbx")
    for (const aiMesh* p : primitives)
      for (unsigned t = 0; t < p->mNumAnimMeshes; ++t)
        if (std::fabs(p->mAnimMeshes[t]->mWeight - 1.f) > 1e-6f) {
          m_refused[std::size_t(n)] = 1;
          m_diagnostics.push_back({Diagnostic::Severity::Warning,
                                   "node '" + node.name + "': blend shapes with in-between shapes (target '" +
                                       std::string(p->mAnimMeshes[t]->mName.C_Str()) + "' at " +
                                       number(p->mAnimMeshes[t]->mWeight) +
                                       ") are not supported; its morph targets are left out"});
          return;
        }
  m_firstCurve[std::size_t(n)] = int(m_curves.size());
  std::map<std::string, int> seen;
  for (unsigned t = 0; t < targets; ++t) {
    MorphCurve c;
    c.node = node.name;
    c.targetIndex = t;
    double largest = 0;
    for (const aiMesh* p : primitives) {
      if (c.target.empty() && p->mAnimMeshes[t]->mName.length > 0) c.target = p->mAnimMeshes[t]->mName.C_Str();
      largest = std::max(largest, largestDisplacement(*p, t, node.object));
    }
    if (c.target.empty()) c.target = std::to_string(t);
    const int repeat = ++seen[c.target];
    c.name = node.name + "/" + c.target + (repeat > 1 ? "#" + std::to_string(repeat) : "");
    c.displacementCm = largest * m_unitToCm;
    c.restWeight = m_format == "fbx" ? 0.f : primitives.front()->mAnimMeshes[t]->mWeight;
    m_curves.push_back(std::move(c));
  }
}

int MorphReader::curveOf(int node, unsigned target) const {
  if (node < 0 || std::size_t(node) >= m_firstCurve.size() || m_firstCurve[std::size_t(node)] < 0) return -1;
  const std::size_t c = std::size_t(m_firstCurve[std::size_t(node)]) + target;
  return c < m_curves.size() && m_curves[c].node == m_nodes[std::size_t(node)].name && m_curves[c].targetIndex == target
             ? int(c)
             : -1;
}

int MorphReader::bind(const std::string& channel, const std::string& where) {
  const std::string name = m_format == "fbx" ? fbxNodeName(channel) : channel;
  std::vector<int> named, withTargets;
  for (std::size_t n = 0; n < m_nodes.size(); ++n) {
    if (m_nodes[n].name != name) continue;
    named.push_back(int(n));
    if (m_firstCurve[n] >= 0 || m_refused[n]) withTargets.push_back(int(n));
  }
  if (withTargets.size() == 1) {
    if (m_refused[std::size_t(withTargets.front())]) return -1;  // noted with the node
    if (named.size() > 1 && std::find(m_noted.begin(), m_noted.end(), channel) == m_noted.end()) {
      m_noted.push_back(channel);
      m_diagnostics.push_back({Diagnostic::Severity::Info, where + " matches " + std::to_string(named.size()) +
                                                               " nodes named '" + name +
                                                               "'; bound to the one with morph targets"});
    }
    return withTargets.front();
  }
  std::string why = withTargets.size() > 1 ? "matches " + std::to_string(withTargets.size()) + " nodes named '" + name +
                                                 "' with morph targets (ambiguous)"
                    : named.empty() ? "names no node"
                                    : "drives node '" + name +
                                          "', whose meshes have no morph targets (Assimp drops shapes it cannot read, "
                                          "such as FBX shapes without normals)";
  m_diagnostics.push_back({Diagnostic::Severity::Warning, where + " " + why + "; left out"});
  return -1;
}

std::vector<CurveKeys> MorphReader::keys(const aiAnimation& anim, double ticksPerSecond, double startSeconds,
                                         const std::string& label) {
  std::vector<CurveKeys> out;
  for (unsigned c = 0; c < anim.mNumMorphMeshChannels; ++c) {
    const aiMeshMorphAnim* channel = anim.mMorphMeshChannels[c];
    const std::string where = label + ": morph channel '" + std::string(channel->mName.C_Str()) + "'";
    const int node = bind(channel->mName.C_Str(), where);
    if (node < 0) continue;
    const auto first = std::uint32_t(m_firstCurve[std::size_t(node)]);
    std::uint32_t targets = 0;
    while (first + targets < m_curves.size() && m_curves[first + targets].node == m_nodes[std::size_t(node)].name &&
           m_curves[first + targets].targetIndex == targets)
      ++targets;
    std::vector<CurveKeys> read(targets);
    std::string why;
    for (unsigned k = 0; k < channel->mNumKeys && why.empty(); ++k) {
      const aiMeshMorphKey& key = channel->mKeys[k];
      const double seconds = key.mTime / ticksPerSecond - startSeconds;
      if (!std::isfinite(seconds)) why = "key " + std::to_string(k) + " has no finite time";
      for (unsigned j = 0; j < key.mNumValuesAndWeights && why.empty(); ++j) {
        const unsigned target = key.mValues[j];
        const double w = key.mWeights[j];
        if (target >= targets)
          why = "key " + std::to_string(k) + " names target " + std::to_string(target) + " of " +
                std::to_string(targets) + " (Assimp 5.2 misreads glTF CUBICSPLINE weights of several targets)";
        else if (!std::isfinite(w)) why = "key " + std::to_string(k) + " has a weight that is not a number";
        else if (w != 0 && std::fabs(w) < 1e-30)
          why = "its weights read as garbage (" + number(w) + "; Assimp 5.2 misreads normalized-integer glTF weights)";
        if (!why.empty()) break;
        CurveKeys& keys = read[target];
        if (!keys.times.empty() && seconds <= keys.times.back()) {
          if (seconds < keys.times.back()) why = "its key times go backwards at key " + std::to_string(k);
          else keys.weights.back() = w;  // the same time twice: the later value
          continue;
        }
        keys.times.push_back(seconds);
        keys.weights.push_back(w);
      }
    }
    if (!why.empty()) {
      m_diagnostics.push_back({Diagnostic::Severity::Warning, where + ": " + why + "; left out"});
      continue;
    }
    for (std::uint32_t t = 0; t < targets; ++t) {
      if (read[t].times.empty()) continue;
      read[t].curve = first + t;
      if (std::any_of(out.begin(), out.end(), [&](const CurveKeys& k) { return k.curve == first + t; })) {
        m_diagnostics.push_back({Diagnostic::Severity::Warning, where + " animates '" + m_curves[first + t].name +
                                                                    "' again; the first channel's keys are kept"});
        continue;
      }
      out.push_back(std::move(read[t]));
    }
  }
  std::sort(out.begin(), out.end(), [](const CurveKeys& a, const CurveKeys& b) { return a.curve < b.curve; });
  return out;
}

}  // namespace animpack::core
