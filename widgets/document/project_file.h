#pragma once
// The studio project (.anproj, JSON): the source file (relative to the project when possible), the
// settings (docs/SETTINGS.md) with their per-clip overrides, the display up axis, and each clip's approval
// with the settings hash and source hash it was approved for. Saving is atomic; an autosave next to
// the project (or, for a project not saved yet, in the user's data folder) keeps at most a minute
// of work at risk.

#include <QString>

#include "core/base/status.h"
#include "widgets/document/clip_document.h"

namespace animpack::widgets {

struct ProjectData {
  QString sourcePath;  ///< absolute
  core::CompressionSettings settings;
  UpAxis upAxis = UpAxis::AsImported;
  std::optional<double> budgetKib;  ///< the pack budget in KiB
  struct Clip {
    QString name;
    ClipApproval approval;
  };
  std::vector<Clip> clips;
};

/// The project JSON of a document (the source path relative to `projectPath`'s folder).
QByteArray projectJson(const ClipDocument& document, const QString& projectPath);
/// Writes the document's project atomically (a temporary file renamed over the old one).
Status saveProject(const ClipDocument& document, const QString& path);
/// Reads a project file; errors name the file and the problem.
Expected<ProjectData> readProject(const QString& path);
/// Opens a project into the document: the source with the settings, then the approvals by clip name.
Status loadProject(ClipDocument& document, const QString& path);

/// Where the autosave of a project (or of an unsaved document for `sourcePath`) goes.
QString autosavePath(const QString& projectPath, const QString& sourcePath);

}  // namespace animpack::widgets
