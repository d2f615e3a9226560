#include "core/batch/clip_names.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

namespace animpack::core {
namespace {

// Names seen on files exported one clip each: Blender and FBX SDK takes, Mixamo, BVH, Maya, 3ds Max,
// glTF exporters. Keep docs/CLIP_NAMES.md in step.
constexpr std::array<std::string_view, 16> kGeneric = {
    "Motion",       "Take 001",    "Take 01",        "Take001", "mixamo.com", "Armature|mixamo.com",
    "Default Take", "Unreal Take", "Animation",      "Action",  "anim",       "Scene",
    "AnimStack",    "Take",        "ArmatureAction", "default"};

bool equalNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string stemOf(const std::string& source) { return std::filesystem::path(source).stem().string(); }

/// What replaces a stem that several sources share: each one's path without extension, relative to
/// the deepest folder they all sit in ('/'-separated).
std::string distinctPath(const std::string& source, const std::set<std::string>& sharing) {
  std::filesystem::path common = std::filesystem::path(*sharing.begin()).parent_path();
  for (const std::string& other : sharing) {
    const std::filesystem::path dir = std::filesystem::path(other).parent_path();
    std::filesystem::path prefix;
    for (auto a = common.begin(), b = dir.begin(); a != common.end() && b != dir.end() && *a == *b; ++a, ++b)
      prefix /= *a;
    common = prefix;
  }
  std::filesystem::path p(source);
  p.replace_extension();
  return (common.empty() ? p : p.lexically_relative(common)).generic_string();
}

/// The override `clips.KEY.name` for a clip whose automatic name is `automatic`, if any.
const std::pair<std::string, ClipOverride>* renamingEntry(const ClipNameSource& clip, const std::string& automatic) {
  if (!clip.settings) return nullptr;
  for (const auto& entry : clip.settings->clips)
    if (entry.second.name && entry.first == automatic) return &entry;
  for (const auto& entry : clip.settings->clips)
    if (entry.second.name && entry.first == clip.sourceClip) return &entry;
  return nullptr;
}

/// The automatic names (without overrides).
std::vector<std::string> automaticNames(std::span<const ClipNameSource> clips) {
  std::vector<std::string> names(clips.size());
  std::vector<bool> fromStem(clips.size());
  std::map<std::string, std::set<std::string>> sourcesOfStem;
  std::map<std::string, int> uses;
  for (std::size_t i = 0; i < clips.size(); ++i) {
    sourcesOfStem[stemOf(clips[i].source)].insert(clips[i].source);
    fromStem[i] = clips[i].clipsInFile == 1 && isGenericClipName(clips[i].sourceClip);
    names[i] = fromStem[i] ? stemOf(clips[i].source) : clips[i].sourceClip;
    ++uses[names[i]];
  }
  for (std::size_t i = 0; i < clips.size(); ++i) {
    if (uses[names[i]] < 2) continue;
    const std::string stem = stemOf(clips[i].source);
    const auto& sharing = sourcesOfStem[stem];
    const std::string qualifier = sharing.size() > 1 ? distinctPath(clips[i].source, sharing) : stem;
    // A stem name that collides only with clips of other files keeps it when its own qualifier is the stem.
    names[i] = fromStem[i] ? qualifier : qualifier + "/" + clips[i].sourceClip;
  }
  return names;
}

std::string describe(const ClipNameSource& clip) { return clip.source + " clip '" + clip.sourceClip + "'"; }

}  // namespace

std::span<const std::string_view> genericClipNames() { return kGeneric; }

bool isGenericClipName(std::string_view name) {
  if (name.empty()) return true;
  if (name.size() > 5 && name.substr(0, 5) == "clip#" &&
      std::all_of(name.begin() + 5, name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return true;
  return std::any_of(kGeneric.begin(), kGeneric.end(), [&](std::string_view g) { return equalNoCase(g, name); });
}

Expected<std::vector<PackClipName>> packClipNames(std::span<const ClipNameSource> clips) {
  const std::vector<std::string> automatic = automaticNames(clips);
  std::vector<PackClipName> names(clips.size());
  std::map<std::string, std::size_t> owner;
  for (std::size_t i = 0; i < clips.size(); ++i) {
    names[i].name = automatic[i];
    if (const auto* entry = renamingEntry(clips[i], automatic[i])) names[i] = {*entry->second.name, entry->first};
    const auto [it, added] = owner.emplace(names[i].name, i);
    if (!added)
      return Error{"two clips would be named '" + names[i].name + "' in the pack: " + describe(clips[it->second]) +
                   " and " + describe(clips[i]) + " (give one a name with \"clips\": {\"" + automatic[i] +
                   "\": {\"name\": \"...\"}} in its settings)"};
  }
  return names;
}

CompressionSettings settingsForPackName(const CompressionSettings& settings, const PackClipName& name) {
  CompressionSettings out = settings;
  if (name.renamedBy.empty()) return out;
  for (auto& entry : out.clips)
    if (entry.first == name.renamedBy) entry.first = name.name;
  return out;
}

Expected<std::vector<std::size_t>> matchClips(std::string_view spec, std::span<const ClipChoice> choices) {
  std::vector<std::size_t> found;
  if (spec.size() > 1 && spec[0] == '#' &&
      std::all_of(spec.begin() + 1, spec.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    const std::size_t n = spec.size() > 10 ? choices.size() : std::stoul(std::string(spec.substr(1)));
    if (n >= choices.size())
      return Error{"'" + std::string(spec) + "': there are " + std::to_string(choices.size()) + " clips (#0 to #" +
                   std::to_string(choices.size() ? choices.size() - 1 : 0) + ")"};
    return std::vector<std::size_t>{n};
  }
  auto matches = [&](const std::string& name) {
    return !name.empty() && (isWildcard(spec) ? wildcardMatch(spec, name) : spec == name);
  };
  for (std::size_t i = 0; i < choices.size(); ++i)
    if (matches(choices[i].packName)) found.push_back(i);
  // A pack name is the stronger match: a source name is looked at only when no pack name matches.
  if (found.empty())
    for (std::size_t i = 0; i < choices.size(); ++i)
      if (matches(choices[i].sourceClip)) found.push_back(i);
  if (found.empty()) {
    std::string list;
    for (std::size_t i = 0; i < choices.size() && i < 20; ++i) list += (i ? ", " : "") + choices[i].packName;
    if (choices.size() > 20) list += ", ...";
    return Error{"no clip '" + std::string(spec) + "' (clips: " + (list.empty() ? "none" : list) + ")"};
  }
  return found;
}

Expected<std::size_t> matchOneClip(std::string_view spec, std::span<const ClipChoice> choices) {
  auto found = matchClips(spec, choices);
  if (!found) return Error{found.message()};
  if (found->size() > 1) {
    std::string list;
    for (std::size_t i : *found) list += (list.empty() ? "" : ", ") + choices[i].packName;
    return Error{"'" + std::string(spec) + "' matches " + std::to_string(found->size()) + " clips (" + list +
                 "); name one, or use #N"};
  }
  return found->front();
}

}  // namespace animpack::core
