#pragma once
// The Morph targets panel: every morph curve of the current clip's file ("NODE/TARGET", docs/IMPORT.md
// "Morph targets") with its largest vertex displacement, its precision (own values bold, inherited
// ones dimmed), whether this clip animates it, how it is stored and its max error coloured against
// its precision (dimmed while a newer result is computed); a summary of the clip's curve bytes and
// worst target; and a bar that sets or resets the precision of the selected targets, for every clip
// or this clip only (each edit one undo step, docs/SETTINGS.md "Morph targets"). Its selection is the
// document's selected curves, which the curve view draws.

#include <QWidget>
#include <vector>

#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace animpack::widgets {

class MorphPanel : public QWidget {
  Q_OBJECT
 public:
  enum Column { Name, MaxError, Precision, Displacement, Storage, ColumnCount };
  static constexpr int CurveRole = Qt::UserRole + 1;  ///< the curve index of a row

  MorphPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent = nullptr);
  QTreeWidget* list() const { return m_list; }
  /// The summary line above the list.
  QString summary() const;
  EditScope scope() const;
  void setScope(EditScope scope);

 public slots:
  /// Sets the bar's precision on every selected target.
  void applyPrecisionToSelection();
  /// Removes the selected targets' own precision (they inherit again).
  void resetSelection();

 private:
  std::vector<int> selection() const;
  void refresh();
  /// Selects the rows of the document's selected curves (the error map may have chosen them).
  void syncSelection();
  bool m_syncing = false;  ///< rows being selected from the document: not a user's selection
  ClipDocument* m_document;
  Recompressor* m_recompressor;
  QLabel* m_summary;
  QLineEdit* m_search;
  QComboBox* m_scope;
  QTreeWidget* m_list;
  QDoubleSpinBox* m_precision;
  QPushButton* m_set;
  QPushButton* m_reset;
};

}  // namespace animpack::widgets
