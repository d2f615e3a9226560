#include "widgets/status_line.h"

#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

namespace animpack::widgets {

StatusLine::StatusLine(QStatusBar* bar, ClipDocument* document, Recompressor* recompressor, ExportRunner* exporter)
    : QObject(bar),
      m_document(document),
      m_exporter(exporter),
      m_status(new QLabel("Open an animated rig (File > Open, or drop a file here).", bar)),
      m_progress(new QProgressBar(bar)),
      m_cancel(new QToolButton(bar)) {
  m_progress->setMaximumWidth(220);
  m_progress->setVisible(false);
  m_cancel->setText("Cancel");
  m_cancel->setVisible(false);
  bar->addWidget(m_status, 1);
  bar->addPermanentWidget(m_progress);
  bar->addPermanentWidget(m_cancel);
  connect(m_cancel, &QToolButton::clicked, this, &StatusLine::cancelRequested);

  connect(document, &ClipDocument::assetChanged, this, [this] {
    if (!m_document->hasAsset()) return;
    const auto& asset = *m_document->packAsset();
    const QString files = m_document->fileCount() == 1 ? QFileInfo(m_document->sourcePath()).fileName()
                                                       : QString("%1 files").arg(m_document->fileCount());
    m_readyText = QString("%1: %2 joints, %3 clips, %4 meshes, 1 unit = %5 cm (%6), scene scale x%7")
                      .arg(files)
                      .arg(asset.skeleton.jointCount())
                      .arg(m_document->clipCount())
                      .arg(asset.meshes.size())
                      .arg(asset.unitToCm)
                      .arg(QString::fromStdString(asset.unitSource))
                      .arg(asset.sceneScale);
    showMessage(m_readyText);
  });
  // An export owns the bar while it runs; compression shows only when no export does.
  connect(recompressor, &Recompressor::failed, this, [this](int clip, const QString& message) {
    showMessage(QString("%1: %2").arg(m_document->clipName(clip), message));
  });
  connect(recompressor, &Recompressor::busyChanged, this, [this](bool busy) {
    if (m_exporter->running()) return;
    setBusy("Compressing...", busy);
    if (!busy) showMessage(m_readyText);
  });
  connect(recompressor, &Recompressor::progress, this, [this](int done, int total) {
    if (!m_exporter->running()) setProgress(done, total, QString("Compressed %1 of %2 clips").arg(done).arg(total));
  });
  connect(exporter, &ExportRunner::progress, this, [this](int done, int total, const QString& what) {
    setProgress(done, total, QString("Exporting %1 (%2 of %3)").arg(what).arg(done).arg(total));
  });
  connect(exporter, &ExportRunner::started, this, [this] { setBusy("Exporting...", true); });
  connect(exporter, &ExportRunner::finished, this, [this](bool ok, const QString& summary) {
    setBusy({}, false);
    showMessage(ok ? "Exported " + summary.section('\n', 0, 0) : QString("Export failed"));
  });
}

void StatusLine::showMessage(const QString& message) { m_status->setText(message); }

QString StatusLine::message() const { return m_status->text(); }

void StatusLine::setProgress(int done, int total, const QString& text) {
  m_progress->setRange(0, total);
  m_progress->setValue(done);
  showMessage(text);
}

void StatusLine::setBusy(const QString& what, bool busy) {
  m_progress->setVisible(busy);
  m_cancel->setVisible(busy);
  if (busy) {
    m_progress->setRange(0, 0);
    if (!what.isEmpty()) showMessage(what);
  }
}

}  // namespace animpack::widgets
