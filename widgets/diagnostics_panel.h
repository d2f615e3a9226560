#pragma once
// Import diagnostics of the open asset, never silently dropped.

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
