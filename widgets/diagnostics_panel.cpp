#include "widgets/diagnostics_panel.h"

#include <QFileInfo>
#include <QStyle>

namespace animpack::widgets {

DiagnosticsPanel::DiagnosticsPanel(ClipDocument* document, QWidget* parent)
    : QListWidget(parent), m_document(document) {
  setWordWrap(true);
  setAlternatingRowColors(true);
  connect(document, &ClipDocument::assetChanged, this, &DiagnosticsPanel::refresh);
  connect(document, &ClipDocument::importFailed, this, [this](const QString& message) {
    addItem(new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxCritical), message));
  });
  refresh();
}

void DiagnosticsPanel::refresh() {
  clear();
  if (!m_document->hasAsset()) return;
  // Every file's diagnostics, prefixed by its name when the project has several; a file left out of
  // the pack says why first.
  const bool several = m_document->fileCount() > 1;
  for (int f = 0; f < m_document->fileCount(); ++f) {
    const SourceFile& file = m_document->file(f);
    const QString prefix = several ? QFileInfo(file.path()).fileName() + ": " : QString();
    if (const QString problem = m_document->fileProblem(f); !problem.isEmpty())
      addItem(new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxCritical), prefix + problem));
    if (!file.asset) continue;
    const core::ImportedAsset& asset = *file.asset;
    addItem(new QListWidgetItem(style()->standardIcon(QStyle::SP_MessageBoxInformation),
                                prefix + QString("1 unit = %1 cm (%2), scene scale x%3 (%4)")
                                             .arg(asset.unitToCm)
                                             .arg(QString::fromStdString(asset.unitSource))
                                             .arg(asset.sceneScale)
                                             .arg(QString::fromStdString(asset.sceneScaleSource))));
    for (const core::Diagnostic& d : asset.diagnostics) {
      const auto icon = d.severity == core::Diagnostic::Severity::Error     ? QStyle::SP_MessageBoxCritical
                        : d.severity == core::Diagnostic::Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                                            : QStyle::SP_MessageBoxInformation;
      addItem(new QListWidgetItem(style()->standardIcon(icon), prefix + QString::fromStdString(d.message)));
    }
  }
}

}  // namespace animpack::widgets
