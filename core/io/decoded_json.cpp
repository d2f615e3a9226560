#include "core/io/decoded_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/runtime/player.h"

namespace animpack::core {

std::string decodedClipJson(const runtime::Pack& pack, const runtime::PackClip& clip, std::optional<double> rateHz) {
  using nlohmann::json;
  const runtime::PackSkeleton& sk = pack.skeleton();
  const double rate = rateHz ? *rateHz : double(clip.sampleRate);
  const double duration = clip.frameCount > 1 ? double(clip.frameCount - 1) / double(clip.sampleRate) : 0.0;
  const std::uint64_t count = rateHz ? static_cast<std::uint64_t>(std::floor(duration * rate + 1e-9)) + 1 : clip.frameCount;
  json joints = json::array();
  for (std::size_t j = 0; j < sk.names.size(); ++j)
    joints.push_back({{"name", sk.names[j]}, {"parent", sk.parents[j]}, {"precision_cm", clip.tolerances[j].precisionCm},
                      {"shell_cm", clip.tolerances[j].shellCm}});
  std::string out = "{\"clip\":" + json(clip.name).dump() + ",\"clip_index\":" + std::to_string(clip.clipIndex) +
                    ",\"start_time\":" + json(clip.startTime).dump() + ",\"sample_rate\":" + (rateHz ? json(rate) : json(clip.sampleRate)).dump() +
                    ",\"frame_count\":" + std::to_string(count) + ",\"unit_to_cm\":" + json(sk.unitToCm).dump() +
                    ",\"joints\":" + joints.dump() + ",\"frames\":[";
  // Frames are written by hand: a mocap clip has millions of numbers.
  runtime::Player player;
  std::vector<runtime::Transform> pose(sk.names.size());
  char buf[32];
  auto number = [&](float v) {
    std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
    out += buf;
  };
  for (std::uint64_t f = 0; f < count; ++f) {
    // The clip's own frames exactly; with a rate, the frame position of start_time + f / rate.
    const double frame = rateHz ? std::min(double(f) / rate * double(clip.sampleRate), double(clip.frameCount - 1)) : double(f);
    player.sampleFrame(clip.view, static_cast<float>(frame), pose);
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
