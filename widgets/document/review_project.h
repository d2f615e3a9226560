#pragma once
// What File > Export review packet hands to core/review: the document's source, settings,
// approvals and budget as they are now (saved or not).

#include <QString>

#include "core/review/review_build.h"
#include "widgets/document/clip_document.h"

namespace animpack::widgets {

/// The review input of `document`; the title is the project's name (or the source's, unsaved).
core::ReviewProject reviewProjectOf(const ClipDocument& document, const QString& projectPath);

}  // namespace animpack::widgets
