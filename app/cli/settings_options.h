#pragma once
// The compression-settings options shared by the commands that resolve per-joint settings
// (compress, sample): --preset, --settings, --precision, --shell, --pin, stacked in that order.

#include <optional>
#include <string>
#include <vector>

#include "app/cli/args.h"
#include "core/compress/settings.h"

namespace animpack::cli {

/// The options, with help naming the built-in presets.
std::vector<Option> settingsOptions();

/// Stacks the preset, the settings file and the flags into `out` and validates the result. Returns
/// an exit code (a usage error or a failure already printed) or nullopt to go on.
std::optional<int> readSettings(const Args& args, const std::string& command, core::CompressionSettings& out);

}  // namespace animpack::cli
