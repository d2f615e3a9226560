#include "core/io/asset_json.h"

#include <nlohmann/json.hpp>

namespace animpack::core {

std::string inspectJson(const ImportedAsset& asset) {
  using nlohmann::json;
  json j;
  j["file"] = asset.file;
  j["unit_to_cm"] = asset.unitToCm;
  j["scene_scale"] = asset.sceneScale;
  j["scene_root_transform"] = asset.sceneRootTransform;
  json joints = json::array();
  for (std::size_t i = 0; i < asset.skeleton.jointCount(); ++i)
    joints.push_back({{"name", asset.skeleton.names[i]}, {"parent", asset.skeleton.parents[i]}});
  j["joints"] = joints;
  j["lod_levels"] = depthLevels(asset.skeleton.parents);
  json clips = json::array();
  for (const RawClip& c : asset.clips) {
    json animated = json::array();
    for (const CurveKeys& k : c.curves)
      if (k.curve < asset.curves.size()) animated.push_back(asset.curves[k.curve].name);
    clips.push_back({{"name", c.name},
                     {"clip_index", c.clipIndex},
                     {"duration", c.duration()},
                     {"start_time", c.startTime},
                     {"sample_rate", c.sampleRate},
                     {"grid", keyGridName(c.grid)},
                     {"frames", c.frameCount},
                     {"animated_curves", animated}});
  }
  j["clips"] = clips;
  json curves = json::array();
  for (const MorphCurve& m : asset.curves)
    curves.push_back({{"name", m.name},
                      {"node", m.node},
                      {"target", m.target},
                      {"target_index", m.targetIndex},
                      {"displacement_cm", m.displacementCm}});
  j["curves"] = curves;
  json meshes = json::array();
  for (const SkinnedMesh& m : asset.meshes)
    meshes.push_back({{"name", m.name}, {"vertices", m.vertexCount()}, {"skinned", m.skinned}});
  j["meshes"] = meshes;
  json diags = json::array();
  for (const Diagnostic& d : asset.diagnostics)
    diags.push_back({{"severity", severityName(d.severity)}, {"message", d.message}});
  j["diagnostics"] = diags;
  return j.dump(2);
}

}  // namespace animpack::core

#include <cmath>
#include <cstdio>
#include <sstream>

namespace animpack::core {
namespace {
std::string fixed(double v, int digits) {
  if (std::fabs(v) < 0.5 * std::pow(10.0, -digits)) v = 0.0;  // no "-0.0000"
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}
}  // namespace

std::string inspectText(const ImportedAsset& asset) {
  std::ostringstream o;
  const Skeleton& sk = asset.skeleton;
  o << "file:      " << asset.file << " (" << asset.format << ")\n";
  o << "unit:      1 unit = " << asset.unitToCm << " cm (" << asset.unitSource << ")\n";
  o << "scene:     scale x" << asset.sceneScale << " (" << asset.sceneScaleSource
    << "): lengths below are in the scene's cm\n";
  o << "scene root transform (rows):\n";
  for (int r = 0; r < 4; ++r) {
    o << "           ";
    for (int c = 0; c < 4; ++c) o << (c ? " " : "") << fixed(asset.sceneRootTransform[c * 4 + r], 4);
    o << "\n";
  }
  o << "skeleton:  " << sk.jointCount() << " joints\n";
  for (std::size_t j = 0; j < sk.jointCount(); ++j)
    o << "  " << std::string(std::size_t(2 * sk.depth(j)), ' ') << sk.names[j] << "\n";
  o << levelsText(depthLevels(sk.parents), sk.jointCount());
  o << "clips:     " << asset.clips.size() << "\n";
  for (const RawClip& c : asset.clips)
    o << "  [" << c.clipIndex << "] " << c.name << ": " << fixed(c.duration(), 3) << " s, " << fixed(c.sampleRate, 3)
      << " Hz (" << keyGridName(c.grid) << " keys), " << c.frameCount << " frames, start " << fixed(c.startTime, 4)
      << " s, " << c.animatedJointCount() << " animated joints"
      << (c.curves.empty() ? "" : ", " + std::to_string(c.curves.size()) + " animated morph curves") << "\n";
  o << "meshes:    " << asset.meshes.size() << "\n";
  for (const SkinnedMesh& m : asset.meshes) {
    int maxInfluences = 0;
    for (const auto& inf : m.influences) {
      int n = 0;
      for (float w : inf.weights) n += w > 0.f;
      maxInfluences = std::max(maxInfluences, n);
    }
    o << "  " << m.name << ": " << m.vertexCount() << " vertices, " << m.indices.size() / 3 << " triangles, "
      << (m.skinned           ? "skinned, up to " + std::to_string(maxInfluences) + " influences per vertex"
          : m.rigidJoint >= 0 ? "rigid on joint '" + sk.names[std::size_t(m.rigidJoint)] + "'"
                              : "static")
      << "\n";
  }
  if (!asset.curves.empty()) {
    o << "morph targets: " << asset.curves.size() << "\n";
    for (const MorphCurve& m : asset.curves)
      o << "  " << m.name << ": moves a vertex up to " << fixed(m.displacementCm, 4) << " cm at weight 1, rest weight "
        << fixed(m.restWeight, 3) << "\n";
  }
  o << "diagnostics: " << asset.diagnostics.size() << "\n";
  for (const Diagnostic& d : asset.diagnostics) o << "  " << severityName(d.severity) << ": " << d.message << "\n";
  return o.str();
}

}  // namespace animpack::core
