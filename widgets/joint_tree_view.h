#pragma once
// The Joints panel: the joint tree with name search, an edit scope (every clip or this clip), a
// bar to set precision, shell distance and pinning on every selected joint at once, and a context
// menu: apply to subtree, reset to inherited, derive the shell distance from the mesh.

#include <QWidget>

#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"
#include "widgets/joint_tree_model.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace animpack::widgets {

class JointTreeView : public QWidget {
  Q_OBJECT
 public:
  JointTreeView(ClipDocument* document, Recompressor* recompressor, QWidget* parent = nullptr);
  JointTreeModel* model() const { return m_model; }
  QTreeView* tree() const { return m_tree; }

 public slots:
  /// Sets the bar's precision on every selected joint.
  void applyPrecisionToSelection();
  void applyShellToSelection();
  void setPinnedOnSelection(bool pinned);
  /// Gives every descendant of the selected joints the selected joint's precision, shell and pin.
  void applyToSubtree();
  /// Removes the selected joints' own values (they inherit again).
  void resetSelection();
  /// Sets each selected joint's shell distance to its farthest influenced vertex (bind pose).
  void deriveShellFromMesh();

 private:
  std::vector<int> selection() const;
  void syncSelectionFromDocument();
  ClipDocument* m_document;
  JointTreeModel* m_model;
  QSortFilterProxyModel* m_proxy;
  QTreeView* m_tree;
  QLineEdit* m_search;
  QComboBox* m_scope;
  QDoubleSpinBox* m_precision;
  QDoubleSpinBox* m_shell;
  bool m_syncing = false;
};

}  // namespace animpack::widgets
