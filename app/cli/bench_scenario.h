#pragma once
// `animpack bench --scenario`: a game-sized run of many characters over many resident packs.

#include <string>
#include <vector>

namespace animpack::cli {

/// Opens every pack of `paths`, plays `characters` characters (a blend of two clips each) at 60 Hz
/// for `seconds`, prints resident memory and ns per character-frame (one JSON object with `json`).
int benchScenario(const std::vector<std::string>& paths, unsigned characters, double seconds, bool json);

}  // namespace animpack::cli
