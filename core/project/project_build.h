#pragma once
// Building a project's pack (`animpack build`, the studio's export of a project): the export
// options a project stands for, approval checks, and the Make-style depfile a build engine reads.

#include <filesystem>
#include <string>
#include <vector>

#include "core/batch/export.h"
#include "core/project/project.h"

namespace animpack::core {

/// The export of a project saved at `projectPath`: every source, its settings (the project's with the
/// file's own on top), source names relative to the project for the clip-name rule, the budget, one
/// pack; a source whose skeleton differs from the first is left out and reported.
ExportOptions projectExportOptions(const Project& project, const std::filesystem::path& projectPath);
/// The project's source paths in order.
std::vector<std::filesystem::path> projectFiles(const Project& project);

/// One clip of a built pack, with what its approval is checked against.
struct BuiltClip {
  std::string name;  ///< pack name
  std::string sourceClip;
  std::string file;
  std::uint64_t settingsHash = 0;
  std::uint64_t sourceHash = 0;
  float maxErrorCm = 0;
  double sceneScale = 1;  ///< the scene scale the clip was measured at (docs/IMPORT.md "Scene scale")
};
/// The clips of an export written to `pack`, with their rows' measured errors.
Expected<std::vector<BuiltClip>> builtClips(const ExportResult& result, const std::filesystem::path& pack);

/// "NAME: why" for every clip whose approval does not hold (unapproved, rejected, settings or source
/// changed, or an error above the approved one); empty when every clip is approved as it is.
std::vector<std::string> unapprovedClips(const Project& project, const std::vector<BuiltClip>& clips);

/// A Make-style depfile: `target` depends on the project and every source, one per line joined with ` \`.
std::string depfileText(const std::filesystem::path& target, const std::filesystem::path& projectPath,
                        const Project& project);

}  // namespace animpack::core
