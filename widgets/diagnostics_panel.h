#pragma once
// Import diagnostics of every file of the project, never silently dropped, and why a file is left
// out of the pack (its import error, or the joints its skeleton differs in).

#include <QListWidget>

#include "widgets/document/clip_document.h"

namespace animpack::widgets {

class DiagnosticsPanel : public QListWidget {
  Q_OBJECT
 public:
  explicit DiagnosticsPanel(ClipDocument* document, QWidget* parent = nullptr);

 private:
  void refresh();
  ClipDocument* m_document;
};

}  // namespace animpack::widgets
