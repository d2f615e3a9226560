#include "core/io/decoded_json.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/runtime/player.h"

namespace animpack::core {

std::string decodedClipJson(const runtime::Pack& pack, const runtime::PackClip& clip) {
  using nlohmann::json;
  const runtime::PackSkeleton& sk = pack.skeleton();
  json joints = json::array();
  for (std::size_t j = 0; j < sk.names.size(); ++j)
    joints.push_back({{"name", sk.names[j]}, {"parent", sk.parents[j]}, {"precision_cm", clip.tolerances[j].precisionCm},
                      {"shell_cm", clip.tolerances[j].shellCm}});
  std::string out = "{\"clip\":" + json(clip.name).dump() + ",\"clip_index\":" + std::to_string(clip.clipIndex) +
                    ",\"start_time\":" + json(clip.startTime).dump() + ",\"sample_rate\":" + json(clip.sampleRate).dump() +
                    ",\"frame_count\":" + std::to_string(clip.frameCount) + ",\"unit_to_cm\":" + json(sk.unitToCm).dump() +
                    ",\"joints\":" + joints.dump() + ",\"frames\":[";
  // Frames are written by hand: a mocap clip has millions of numbers.
  runtime::Player player;
  std::vector<runtime::Transform> pose(sk.names.size());
  char buf[32];
  auto number = [&](float v) {
    std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
    out += buf;
  };
  for (std::uint32_t f = 0; f < clip.frameCount; ++f) {
    player.sampleFrame(clip.view, static_cast<float>(f), pose);
    out += f ? ",[" : "[";
    for (std::size_t j = 0; j < pose.size(); ++j) {
      const runtime::Transform& t = pose[j];
      const float v[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                           t.rotation.z, t.rotation.w, t.scale.x, t.scale.y, t.scale.z};
      out += j ? ",[" : "[";
      for (int i = 0; i < 10; ++i) {
        if (i) out += ',';
        number(v[i]);
      }
      out += ']';
    }
    out += ']';
  }
  out += "]}\n";
  return out;
}

}  // namespace animpack::core
