#include "widgets/document/review_project.h"

#include <QFileInfo>

namespace animpack::widgets {

core::ReviewProject reviewProjectOf(const ClipDocument& document, const QString& projectPath) {
  core::ReviewProject project;
  project.title = QFileInfo(projectPath.isEmpty() ? document.sourcePath() : projectPath).completeBaseName().toStdString();
  project.sources = {QFileInfo(document.sourcePath()).absoluteFilePath().toStdString()};
  project.settings = document.settings();
  project.budgetKib = document.budgetKib();
  for (int c = 0; c < document.clipCount(); ++c) {
    const ClipApproval a = document.storedApproval(c);
    core::StoredApproval stored;
    stored.state = approvalName(a.state);
    stored.settingsHash = a.settingsHash;
    stored.sourceHash = a.sourceHash;
    project.approvals[document.clipName(c).toStdString()] = stored;
  }
  return project;
}

}  // namespace animpack::widgets
