#pragma once
// The studio's status bar: what is open (file, joints, clips, meshes, unit), what runs in the
// background (compression, export) with a progress bar and Cancel, and one-line messages.

#include <QObject>
#include <QString>

#include "widgets/document/clip_document.h"
#include "widgets/document/export_runner.h"
#include "widgets/document/recompressor.h"

class QLabel;
class QProgressBar;
class QStatusBar;
class QToolButton;

namespace animpack::widgets {

class StatusLine : public QObject {
  Q_OBJECT
 public:
  /// Fills `bar` and follows the document, the recompressor and the export runner.
  StatusLine(QStatusBar* bar, ClipDocument* document, Recompressor* recompressor, ExportRunner* exporter);
  /// Shows `message` until the next one.
  void showMessage(const QString& message);
  QString message() const;

 signals:
  /// The user pressed Cancel.
  void cancelRequested();

 private:
  void setBusy(const QString& what, bool busy);
  void setProgress(int done, int total, const QString& text);

  ClipDocument* m_document;
  ExportRunner* m_exporter;
  QLabel* m_status;
  QProgressBar* m_progress;
  QToolButton* m_cancel;
  QString m_readyText;  ///< the line when nothing runs
};

}  // namespace animpack::widgets
