#include "tests/support/gltf_writer.h"

#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

namespace animpack::test {
namespace {

std::string base64(const std::vector<std::uint8_t>& data) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < data.size(); i += 3) {
    const std::uint32_t b = (std::uint32_t(data[i]) << 16) |
                            (i + 1 < data.size() ? std::uint32_t(data[i + 1]) << 8 : 0) |
                            (i + 2 < data.size() ? data[i + 2] : 0);
    out += table[(b >> 18) & 63];
    out += table[(b >> 12) & 63];
    out += i + 1 < data.size() ? table[(b >> 6) & 63] : '=';
    out += i + 2 < data.size() ? table[b & 63] : '=';
  }
  return out;
}

class Builder {
 public:
  nlohmann::json accessors = nlohmann::json::array();
  nlohmann::json views = nlohmann::json::array();
  std::vector<std::uint8_t> buffer;

  int add(const void* data, std::size_t bytes, std::size_t count, int componentType, const char* type,
          const std::vector<float>& mins = {}, const std::vector<float>& maxs = {}) {
    while (buffer.size() % 4) buffer.push_back(0);
    const std::size_t offset = buffer.size();
    buffer.resize(offset + bytes);
    std::memcpy(buffer.data() + offset, data, bytes);
    views.push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}});
    nlohmann::json a = {
        {"bufferView", views.size() - 1}, {"componentType", componentType}, {"count", count}, {"type", type}};
    if (!mins.empty()) {
      a["min"] = mins;
      a["max"] = maxs;
    }
    accessors.push_back(a);
    return static_cast<int>(accessors.size() - 1);
  }
};

/// The per-axis minimum and maximum of `points` (glTF wants them on POSITION accessors).
std::pair<std::vector<float>, std::vector<float>> bounds(const std::vector<core::Vec3>& points) {
  std::vector<float> lo(3, std::numeric_limits<float>::max()), hi(3, std::numeric_limits<float>::lowest());
  for (const core::Vec3& p : points) {
    const float v[3] = {p.x, p.y, p.z};
    for (int c = 0; c < 3; ++c) {
      lo[c] = std::min(lo[c], v[c]);
      hi[c] = std::max(hi[c], v[c]);
    }
  }
  return {lo, hi};
}

}  // namespace

bool writeGltf(const GltfScene& scene, const std::filesystem::path& path) {
  using nlohmann::json;
  Builder b;
  json nodes = json::array();
  json roots = json::array();
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    const GltfNode& n = scene.nodes[i];
    const core::Transform& t = n.rest;
    json node = {{"name", n.name},
                 {"translation", {t.translation.x, t.translation.y, t.translation.z}},
                 {"rotation", {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w}},
                 {"scale", {t.scale.x, t.scale.y, t.scale.z}}};
    nodes.push_back(node);
    if (n.parent < 0) roots.push_back(i);
  }
  for (std::size_t i = 0; i < scene.nodes.size(); ++i)
    if (scene.nodes[i].parent >= 0) nodes[std::size_t(scene.nodes[i].parent)]["children"].push_back(i);

  json meshes = json::array(), skins = json::array();
  for (const GltfSkinnedMesh& m : scene.meshes) {
    const auto [mins, maxs] = bounds(m.positions);
    const int pos = b.add(m.positions.data(), m.positions.size() * 12, m.positions.size(), 5126, "VEC3", mins, maxs);
    const int nrm = b.add(m.normals.data(), m.normals.size() * 12, m.normals.size(), 5126, "VEC3");
    const int idx = b.add(m.indices.data(), m.indices.size() * 4, m.indices.size(), 5125, "SCALAR");
    json attributes = {{"POSITION", pos}, {"NORMAL", nrm}};
    if (!m.skinJoints.empty()) {
      attributes["JOINTS_0"] = b.add(m.joints.data(), m.joints.size() * 8, m.joints.size(), 5123, "VEC4");
      attributes["WEIGHTS_0"] = b.add(m.weights.data(), m.weights.size() * 16, m.weights.size(), 5126, "VEC4");
      std::vector<float> ibm;
      for (const core::Mat34& a : m.inverseBinds) {
        float m16[16];
        a.toMatrix4(m16);
        ibm.insert(ibm.end(), m16, m16 + 16);
      }
      const int ibmAccessor = b.add(ibm.data(), ibm.size() * 4, m.inverseBinds.size(), 5126, "MAT4");
      skins.push_back({{"joints", m.skinJoints}, {"inverseBindMatrices", ibmAccessor}});
      nodes[std::size_t(m.node)]["skin"] = skins.size() - 1;
    }
    json primitive = {{"attributes", attributes}, {"indices", idx}, {"mode", 4}};
    json mesh = json::object();
    if (!m.targets.empty()) {
      json targets = json::array(), names = json::array();
      bool named = false;
      for (const GltfSkinnedMesh::Target& t : m.targets) {
        const auto [lo, hi] = bounds(t.deltas);
        targets.push_back(
            {{"POSITION", b.add(t.deltas.data(), t.deltas.size() * 12, t.deltas.size(), 5126, "VEC3", lo, hi)}});
        names.push_back(t.name);
        named = named || !t.name.empty();
      }
      primitive["targets"] = targets;
      if (named) mesh["extras"] = {{"targetNames", names}};
      if (!m.defaultWeights.empty()) mesh["weights"] = m.defaultWeights;
    }
    mesh["primitives"] = json::array({primitive});
    meshes.push_back(mesh);
    nodes[std::size_t(m.node)]["mesh"] = meshes.size() - 1;
  }

  json animations = json::array();
  for (const GltfAnimation& a : scene.animations) {
    json samplers = json::array(), channels = json::array();
    for (const GltfChannel& c : a.channels) {
      float tmin = std::numeric_limits<float>::max(), tmax = std::numeric_limits<float>::lowest();
      for (float t : c.times) {
        tmin = std::min(tmin, t);
        tmax = std::max(tmax, t);
      }
      const int input = b.add(c.times.data(), c.times.size() * 4, c.times.size(), 5126, "SCALAR", {tmin}, {tmax});
      const int width = c.path == 0 ? 4 : 3;
      std::vector<float> values;
      for (const auto& v : c.values) values.insert(values.end(), v.begin(), v.begin() + width);
      const int output =
          c.path == 3 ? b.add(c.weights.data(), c.weights.size() * 4, c.weights.size(), 5126, "SCALAR")
                      : b.add(values.data(), values.size() * 4, c.values.size(), 5126, width == 4 ? "VEC4" : "VEC3");
      samplers.push_back({{"input", input}, {"output", output}, {"interpolation", c.step ? "STEP" : "LINEAR"}});
      static const char* paths[4] = {"rotation", "translation", "scale", "weights"};
      channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", c.node}, {"path", paths[c.path]}}}});
    }
    animations.push_back({{"name", a.name}, {"samplers", samplers}, {"channels", channels}});
  }

  json doc = {{"asset", {{"version", "2.0"}, {"generator", "animpack tests"}}},
              {"scene", 0},
              {"scenes", json::array({{{"nodes", roots}}})},
              {"nodes", nodes},
              {"accessors", b.accessors},
              {"bufferViews", b.views},
              {"buffers", json::array({{{"byteLength", b.buffer.size()},
                                        {"uri", "data:application/octet-stream;base64," + base64(b.buffer)}}})}};
  if (!meshes.empty()) doc["meshes"] = meshes;
  if (!skins.empty()) doc["skins"] = skins;
  if (!animations.empty()) doc["animations"] = animations;
  std::ofstream out(path);
  out << doc.dump();
  return static_cast<bool>(out);
}

}  // namespace animpack::test
