#include "app/cli/settings_options.h"

#include "core/compress/presets.h"

namespace animpack::cli {

std::vector<Option> settingsOptions() {
  std::string presetNames;
  for (const core::Preset& p : core::builtinPresets()) presetNames += (presetNames.empty() ? "" : ", ") + p.name;
  return {{"preset", "NAME", "start from a shipped preset (" + presetNames + ")"},
          {"settings", "S.json", "settings file (the README's 'Settings' schema), applied on top of the preset"},
          {"precision", "CM", "default precision: max object-space error on the shell, cm (0.01)"},
          {"shell", "CM|mesh",
           "default shell distance of the virtual vertices, cm (3); mesh: each joint's farthest skinned vertex"},
          {"pin", "JOINT", "pin a joint (name or wildcard): recompute it against compressed ancestors", true}};
}

std::optional<int> readSettings(const Args& args, const std::string& command, core::CompressionSettings& out) {
  if (const auto preset = args.value("preset")) {
    auto p = core::findPreset(*preset);
    if (!p) return usageError(command, p.message());
    out = *p;
  }
  if (const auto s = args.value("settings")) {
    auto loaded = core::CompressionSettings::load(*s);
    if (!loaded) return failure(loaded.message());
    out.merge(*loaded);
  }
  std::optional<double> precision, shell;
  std::string error;
  if (!args.number("precision", precision, error)) return usageError(command, error);
  const bool meshShell = args.value("shell") == "mesh";
  // Only positive numbers are shells (a negative one would read as the "mesh" sentinel).
  if (!meshShell && (!args.number("shell", shell, error) || (shell && !(*shell > 0))))
    return usageError(
        command, "--shell expects a positive number of cm or 'mesh', got '" + args.value("shell").value_or("") + "'");
  core::CompressionSettings flags;
  if (precision) flags.precisionCm = static_cast<float>(*precision);
  if (shell) flags.shellCm = static_cast<float>(*shell);
  if (meshShell) flags.shellCm = core::kShellFromMesh;
  for (const std::string& joint : args.values("pin"))
    flags.joints.emplace_back(joint, core::JointOverride{{}, {}, true});
  out.merge(flags);
  if (auto st = out.validate(); !st) return usageError(command, st.message());
  return std::nullopt;
}

}  // namespace animpack::cli
