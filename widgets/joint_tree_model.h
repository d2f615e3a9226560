#pragma once
// The joint hierarchy of the current clip as an item model: precision and shell distance (own
// values bold, inherited ones dimmed), pin checkbox, max error coloured against the precision, and
// how each joint is stored (dimmed while a newer result is computed). Edits go to the document's
// edit API, in the model's scope (every clip, or the current clip only).

#include <QAbstractItemModel>

#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

namespace animpack::widgets {

/// How a track is stored, in the words the panels use: "rest", "constant", "keys", "uniform", "raw".
const char* trackKindName(runtime::TrackKind kind);

class JointTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { Name, Precision, Shell, Pinned, MaxError, Storage, Order, ColumnCount };
  static constexpr int JointRole = Qt::UserRole + 1;  ///< the joint index of a row

  JointTreeModel(ClipDocument* document, Recompressor* recompressor, QObject* parent = nullptr);

  EditScope scope() const { return m_scope; }
  void setScope(EditScope scope);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  /// The index of a joint's row (column 0).
  QModelIndex indexOfJoint(int joint) const;

 private:
  void rebuild();
  void refreshAll();
  /// Follows the recompressor's current result: refreshAll(), or rebuild() for a new asset.
  void currentChanged();
  /// Updates the settings columns of the joints the change touched.
  void settingsChanged(const SettingsChange& change);
  /// dataChanged over columns first..last of the joints `change` names, or of every row (null or all).
  void emitColumns(int first, int last, const SettingsChange* change);
  ClipDocument* m_document;
  Recompressor* m_recompressor;
  EditScope m_scope = EditScope::AllClips;
  std::vector<std::vector<std::int32_t>> m_children;
  std::vector<std::int32_t> m_roots;
  std::vector<int> m_row;  ///< row of each joint under its parent
  core::EffectiveSettings m_effective;
  const core::ImportedAsset* m_builtFor = nullptr;  ///< the asset the rows were built for
  int m_builtClip = -1;                             ///< the clip m_effective was resolved for
};

}  // namespace animpack::widgets
