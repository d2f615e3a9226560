#pragma once
// The File > Export pack dialog: the pack path, which clips (all, the approved ones, those selected
// in the Clips panel), a JSON or CSV report beside the pack, and a size budget.

#include <QWidget>
#include <optional>
#include <vector>

#include "core/batch/export.h"
#include "widgets/document/clip_document.h"

namespace animpack::widgets {

/// Asks how to export the document's project (every source with its settings); nullopt when the user
/// cancels. `selectedClips` are the clips selected in the Clips panel; the pack is named after
/// `projectPath` when the project is saved, else after its first source.
std::optional<core::ExportOptions> askExportOptions(QWidget* parent, const ClipDocument& document,
                                                    const std::vector<int>& selectedClips,
                                                    const QString& projectPath = {});

}  // namespace animpack::widgets
