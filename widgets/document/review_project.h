#pragma once
// Where File > Export review packet treats the document's project (documentProject(), in
// project_file.h) as saved: it names the packet and anchors the sources' relative names.

#include <QString>
#include <filesystem>

#include "widgets/document/clip_document.h"

namespace animpack::widgets {

/// `projectPath`, or beside the source with its stem when the document is not saved as a project.
std::filesystem::path reviewProjectPath(const ClipDocument& document, const QString& projectPath);

}  // namespace animpack::widgets
