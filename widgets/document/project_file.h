#pragma once
// The studio's side of a project (.anproj, docs/PROJECT.md; the model and its reader and writer are
// core/project/project.h, shared with `animpack build`): a document's project, saving it, opening
// one into a document, and the autosave path. The document holds one source file, so the studio
// opens projects of one source (every version-1 project) and says so for larger ones. Saving is
// atomic; an autosave next to the project (or, for a project not saved yet, in the user's data
// folder) keeps at most a minute of work at risk.

#include <QString>

#include "core/base/status.h"
#include "core/project/project.h"
#include "core/project/project_build.h"
#include "widgets/document/clip_document.h"

namespace animpack::widgets {

/// What a project file holds for the studio: the core project and its one source.
struct ProjectData {
  core::Project project;
  QString sourcePath;  ///< absolute: the project's first source
  core::CompressionSettings settings;  ///< that source's settings (the project's with the file's own on top)
  UpAxis upAxis = UpAxis::AsImported;
};

/// The project of a document saved at `projectPath`: its source, settings, up axis and approvals by pack name.
core::Project documentProject(const ClipDocument& document);
/// The export of the document's project, as `animpack build` of its saved project does it (the
/// studio's export starts from this, so both write the same bytes).
core::ExportOptions documentExportOptions(const ClipDocument& document);
/// The project JSON of a document (the source path relative to `projectPath`'s folder).
QByteArray projectJson(const ClipDocument& document, const QString& projectPath);
/// Writes the document's project atomically (a temporary file renamed over the old one).
Status saveProject(const ClipDocument& document, const QString& path);
/// Reads a project file; errors name the file and the problem.
Expected<ProjectData> readProject(const QString& path);
/// Opens a project into the document: the source with the settings, then the approvals by clip name.
/// A project of several sources is refused with a message (build it with `animpack build`).
Status loadProject(ClipDocument& document, const QString& path);

/// Where the autosave of a project (or of an unsaved document for `sourcePath`) goes.
QString autosavePath(const QString& projectPath, const QString& sourcePath);

}  // namespace animpack::widgets
