#include "widgets/document/review_project.h"

#include <QFileInfo>

namespace animpack::widgets {

core::Project projectOf(const ClipDocument& document) {
  core::Project project;
  project.sources.push_back({QFileInfo(document.sourcePath()).absoluteFilePath().toStdString(), std::nullopt});
  project.settings = document.settings();
  project.upAxis = core::upAxisName(document.upAxis());
  project.budgetKib = document.budgetKib();
  project.approvalsBySourceName = true;
  for (int c = 0; c < document.clipCount(); ++c) {
    const ClipApproval a = document.storedApproval(c);
    core::ClipApprovalRecord record;
    record.state = core::approvalStateFromName(approvalName(a.state)).value_or(core::ApprovalState::NeedsReview);
    record.settingsHash = a.settingsHash;
    record.sourceHash = a.sourceHash;
    project.approvals[document.clipName(c).toStdString()] = record;
  }
  return project;
}

std::filesystem::path reviewProjectPath(const ClipDocument& document, const QString& projectPath) {
  if (!projectPath.isEmpty()) return QFileInfo(projectPath).absoluteFilePath().toStdString();
  const QFileInfo source(document.sourcePath());
  return (source.absolutePath() + "/" + source.completeBaseName() + ".anproj").toStdString();
}

}  // namespace animpack::widgets
