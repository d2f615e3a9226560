#pragma once
// The Clips panel: every clip of the asset with frames, raw and compressed size, ratio, max error
// and approval; compress all, approve/reject/reopen, filter by name.

#include <QAbstractTableModel>
#include <QWidget>

#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

class QLineEdit;
class QTableView;
class QSortFilterProxyModel;

namespace animpack::widgets {

class ClipListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Name, Frames, Rate, RawBytes, CompressedBytes, Ratio, MaxError, Status, ColumnCount };
  ClipListModel(ClipDocument* document, Recompressor* recompressor, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  void refreshRow(int clip);
  ClipDocument* m_document;
  Recompressor* m_recompressor;
};

class ClipListPanel : public QWidget {
  Q_OBJECT
 public:
  ClipListPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent = nullptr);
  ClipListModel* model() const { return m_model; }
  /// Clips selected in the table (all when none is).
  std::vector<int> selectedClips() const;

 public slots:
  void approveSelected();
  void rejectSelected();
  void reopenSelected();

 private:
  void setSelectedApproval(Approval state);
  ClipDocument* m_document;
  ClipListModel* m_model;
  QSortFilterProxyModel* m_proxy;
  QTableView* m_table;
  QLineEdit* m_filter;
};

}  // namespace animpack::widgets
