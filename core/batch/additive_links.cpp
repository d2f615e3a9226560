#include "core/batch/additive_links.h"

#include "core/batch/clip_names.h"

namespace animpack::core {
namespace {

/// The base `setting` names among `choices`: the whole text as a clip first, then CLIP@FRAME.
Expected<std::pair<std::size_t, std::int32_t>> findBase(const std::string& setting,
                                                        const std::vector<ClipChoice>& choices) {
  auto whole = matchOneClip(setting, choices);
  if (whole) return std::make_pair(*whole, std::int32_t(-1));
  const auto [name, frame] = splitBaseFrame(setting);
  if (frame >= 0)
    if (auto part = matchOneClip(name, choices)) return std::make_pair(*part, frame);
  return Error{whole.message()};
}

}  // namespace

std::vector<AdditiveLink> linkAdditiveBases(const std::vector<AdditiveCandidate>& clips) {
  std::vector<ClipChoice> choices;
  for (const AdditiveCandidate& c : clips) choices.push_back({c.packName, c.sourceClip});
  std::vector<AdditiveLink> links(clips.size());
  for (std::size_t i = 0; i < clips.size(); ++i) {
    const AdditiveCandidate& c = clips[i];
    AdditiveLink& link = links[i];
    // The batch's messages name the file and the clip already.
    const std::string label = "additive_base '" + c.setting + "'";
    if (c.setting.empty()) continue;
    if (c.setting == "rest") {
      link.ref.kind = AdditiveRef::Kind::Rest;
      continue;
    }
    auto found = findBase(c.setting, choices);
    if (!found) {
      link.error = label + " is not a clip of this file or project: " + found.message();
      continue;
    }
    const auto [b, frame] = *found;
    const AdditiveCandidate& base = clips[b];
    if (b == i) link.error = label + " is the clip itself: a clip cannot be additive on itself";
    else if (!base.setting.empty())
      link.error = label + ": '" + base.packName + "' is additive itself (additive_base '" + base.setting +
                   "'); a base must be an absolute clip";
    else if (frame >= 0 && std::uint32_t(frame) >= base.frameCount)
      link.error = label + ": frame " + std::to_string(frame) + " is out of range, '" + base.packName + "' has " +
                   std::to_string(base.frameCount) + " frames (0 to " + std::to_string(base.frameCount - 1) + ")";
    else link.ref = AdditiveRef{AdditiveRef::Kind::Clip, base.packName, frame};
  }
  return links;
}

}  // namespace animpack::core
