#pragma once
// What File > Export review packet hands to core/review: the document as a core project (its
// source, settings, approvals and budget as they are now, saved or not).

#include <QString>
#include <filesystem>

#include "core/project/project.h"
#include "widgets/document/clip_document.h"

namespace animpack::widgets {

/// The document as a project; approvals are keyed by the clips' own names, as the studio keeps them.
core::Project projectOf(const ClipDocument& document);
/// Where the review treats the project as saved: `projectPath`, or beside the source when unsaved
/// (it names the packet and anchors the sources' relative names).
std::filesystem::path reviewProjectPath(const ClipDocument& document, const QString& projectPath);

}  // namespace animpack::widgets
