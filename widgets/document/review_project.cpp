#include "widgets/document/review_project.h"

#include <QFileInfo>

namespace animpack::widgets {

std::filesystem::path reviewProjectPath(const ClipDocument& document, const QString& projectPath) {
  if (!projectPath.isEmpty()) return QFileInfo(projectPath).absoluteFilePath().toStdString();
  const QFileInfo source(document.sourcePath());
  return (source.absolutePath() + "/" + source.completeBaseName() + ".anproj").toStdString();
}

}  // namespace animpack::widgets
