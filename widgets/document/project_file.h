#pragma once
// The studio's side of a project (.anproj, docs/PROJECT.md; the model and its reader and writer are
// core/project/project.h, shared with `animpack build`): a document's project, saving it, opening
// one into a document (every source imported, the files whose skeleton differs left out of the pack as
// `animpack build` leaves them out), and the autosave path. Saving is atomic; an autosave next to the project (or, for
// a project not saved yet, in the user's data folder) keeps at most a minute of work at risk.

#include <QString>

#include "core/base/status.h"
#include "core/project/project.h"
#include "core/project/project_build.h"
#include "widgets/document/clip_document.h"

namespace animpack::widgets {

/// The document's project: its sources (each with its own settings), settings, up axis, budget and
/// approvals by pack name.
core::Project documentProject(const ClipDocument& document);
/// The export of the document's project, as `animpack build` of its saved project does it (the
/// studio's export starts from this, so both write the same bytes).
core::ExportOptions documentExportOptions(const ClipDocument& document);
/// The files that export reads, in the project's order (documentExportOptions' inputs).
std::vector<std::filesystem::path> documentFiles(const ClipDocument& document);
/// The project JSON of a document (the source path relative to `projectPath`'s folder).
QByteArray projectJson(const ClipDocument& document, const QString& projectPath);
/// Writes the document's project atomically (a temporary file renamed over the old one).
Status saveProject(const ClipDocument& document, const QString& path);
/// Opens a project into the document: every source with its settings, then the approvals by pack
/// name. Fails (document unchanged) when the project cannot be read or none of its sources imported;
/// a source that cannot be imported stays listed, with its error in fileProblem().
Status loadProject(ClipDocument& document, const QString& path);

/// Where the autosave of a project (or of an unsaved document for `sourcePath`) goes.
QString autosavePath(const QString& projectPath, const QString& sourcePath);

}  // namespace animpack::widgets
