#include "core/io/legacy.h"
#include "core/project/project_build.h"

#include <cstdio>
#include <map>

#include "core/runtime/pack.h"

namespace animpack::core {

ExportOptions projectExportOptions(const Project& project, const std::filesystem::path& projectPath) {
  ExportOptions o;
  const auto dir = std::filesystem::absolute(projectPath).parent_path();
  o.batch.settings = project.settings;
  for (std::size_t i = 0; i < project.sources.size(); ++i) {
    o.batch.fileSettings.push_back(project.settingsFor(i));
    const auto relative = project.sources[i].path.lexically_relative(dir);
    o.batch.sourceNames.push_back(relative.empty() ? project.sources[i].path.generic_string()
                                                   : relative.generic_string());
  }
  o.budgetKb = project.budgetKib;
  o.budgetKind = project.budgetKind;
  o.leaveOutOtherSkeletons = true;
  return o;
}

std::vector<std::filesystem::path> projectFiles(const Project& project) {
  std::vector<std::filesystem::path> files;
  for (const ProjectSource& s : project.sources) files.push_back(s.path);
  return files;
}

Expected<std::vector<BuiltClip>> builtClips(const ExportResult& result, const std::filesystem::path& packPath) {
  auto pack = runtime::Pack::load(packPath, runtime::anyVersion());
  if (!pack) return Error{pack.message()};
  std::map<std::string, const ClipReport*> rows;
  for (const ClipReport& r : result.rows)
    if (r.error.empty()) rows[r.clip] = &r;
  std::vector<BuiltClip> clips;
  for (const runtime::PackClip& c : pack->clips()) {
    BuiltClip b{std::string(c.name()), "", std::string(c.sourceFile()), c.settingsHash(), c.sourceHash(), 0,
                c.sceneScale()};
    if (const auto it = rows.find(std::string(c.name())); it != rows.end()) {
      b.sourceClip = it->second->sourceClip;
      b.file = it->second->file;
      b.maxErrorCm = it->second->maxErrorCm;
    }
    clips.push_back(b);
  }
  return clips;
}

namespace {

std::string scaleText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

}  // namespace

std::vector<std::string> unapprovedClips(const Project& project, const std::vector<BuiltClip>& clips) {
  std::vector<std::string> out;
  for (const BuiltClip& c : clips) {
    const ClipApprovalRecord* a = project.approval(c.name, c.sourceClip);
    std::string why = a ? approvalMismatch(*a, c.settingsHash, c.sourceHash, c.maxErrorCm) : "not approved";
    // The settings hash covers the scene scale where it is not 1: say so.
    if (c.sceneScale != 1 && why.rfind("its settings changed", 0) == 0)
      why += " (the clip is measured at scene scale x" + scaleText(c.sceneScale) +
             "; an approval given before lengths were in the scene's centimetres does not cover that)";
    if (!why.empty()) out.push_back(c.name + ": " + why);
  }
  return out;
}

namespace {

/// A path as Make and Ninja read it in a depfile: spaces, '#' and '$' escaped.
std::string escaped(const std::filesystem::path& path) {
  std::string out;
  for (char c : path.generic_string()) {
    if (c == ' ' || c == '#' || c == '\\') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

}  // namespace

std::string depfileText(const std::filesystem::path& target, const std::filesystem::path& projectPath,
                        const Project& project) {
  std::string out = escaped(target) + ":";
  out += " \\\n  " + escaped(std::filesystem::absolute(projectPath).lexically_normal());
  for (const ProjectSource& s : project.sources) out += " \\\n  " + escaped(s.path);
  return out + "\n";
}

}  // namespace animpack::core
