#pragma once
// Clip names inside a pack (docs/CLIP_NAMES.md): the one rule every tool uses to turn the
// animations of many source files into unique, stable pack names, and the one way a `--clip`
// argument picks clips (pack name, source animation name or wildcard, `#N`).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/compress/settings.h"

namespace animpack::core {

/// The names exporters give every clip of a file (compared case-insensitively); a file whose only
/// clip carries one of them (or none) gives the pack its file stem instead.
std::span<const std::string_view> genericClipNames();
/// Whether `name` is empty, on the generic list, or the importer's name for an unnamed clip (`clip#N`).
bool isGenericClipName(std::string_view name);

/// One clip as the naming rule sees it.
struct ClipNameSource {
  std::string source;      ///< the source path as the pack's inputs list it (relative to the project, or as given)
  std::string sourceClip;  ///< the animation's own name, unique within its file
  std::uint32_t clipIndex = 0;
  std::uint32_t clipsInFile = 1;                  ///< every animation of the file, selected or not
  const CompressionSettings* settings = nullptr;  ///< its file's settings: `clips.NAME.name` overrides
};

/// The pack name of every clip, in input order: the animation's name; a single-clip file with a
/// generic name takes its file stem; names that still collide become `STEM/NAME` (the stem replaced
/// by the source's path without extension when two sources share a stem); a settings
/// `clips.KEY.name` (KEY the automatic pack name or the animation's name) overrides. Fails, naming
/// both clips, when two clips would still get the same name.
struct PackClipName {
  std::string name;
  std::string renamedBy;  ///< the `clips` key whose "name" gave it, empty for an automatic name
};
Expected<std::vector<PackClipName>> packClipNames(std::span<const ClipNameSource> clips);

/// The settings a clip is resolved with under its pack name: the `clips` entry that renamed it
/// applies to it as if keyed by the pack name.
CompressionSettings settingsForPackName(const CompressionSettings& settings, const PackClipName& name);

/// A clip as a `--clip` argument sees it.
struct ClipChoice {
  std::string packName;
  std::string sourceClip;  ///< empty when unknown (a pack's clip: only its pack name)
};

/// The clips `spec` selects: `#N` the N-th choice (from 0), else every clip whose pack name or
/// source name equals `spec` or matches it as a wildcard. Errors: nothing matches (listing the
/// names), `#N` out of range.
Expected<std::vector<std::size_t>> matchClips(std::string_view spec, std::span<const ClipChoice> choices);
/// As matchClips, for a place that needs exactly one clip: several matches are an error listing them.
Expected<std::size_t> matchOneClip(std::string_view spec, std::span<const ClipChoice> choices);

}  // namespace animpack::core
