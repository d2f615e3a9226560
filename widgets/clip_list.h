#pragma once
// The Clips panel, the lead's view (README "For leads"): every clip with its file, frames, raw and
// compressed size, ratio, max error and approval, sortable by any column and filtered by name, file
// and approval; the pack's totals against the budget (KiB, stored in the project) with a meter
// that turns red over budget; approve/reject the selection in one undo step; over budget, the
// BudgetAdvisor's suggestion, applied with one click.

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QWidget>

#include "widgets/additive_bar.h"
#include "widgets/document/clip_document.h"
#include "widgets/document/lead_view.h"
#include "widgets/document/recompressor.h"

class QComboBox;
class QDoubleSpinBox;
class QFrame;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace animpack::widgets {

class ClipListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Name, Frames, Rate, RawBytes, CompressedBytes, Ratio, MaxError, Status, File, Base, ColumnCount };
  /// The role of the approval (an Approval as int) the filter reads.
  static constexpr int ApprovalRole = Qt::UserRole + 1;
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

/// Rows whose name contains the text filter and whose approval matches the approval filter.
class ClipFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  /// Only clips in this state; nullopt: every state.
  void setApprovalFilter(std::optional<Approval> state);

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

 private:
  std::optional<Approval> m_approval;
};

class ClipListPanel : public QWidget {
  Q_OBJECT
 public:
  ClipListPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent = nullptr);
  ClipListModel* model() const { return m_model; }
  ClipFilterProxy* proxy() const { return m_proxy; }
  QTableView* table() const { return m_table; }
  BudgetAdvisor* advisor() const { return m_advisor; }
  /// Clips selected in the table (every clip the filters show when none is).
  std::vector<int> selectedClips() const;
  /// The totals line, the meter, the budget box and the suggestion (for tests and screenshots).
  QLabel* totalsLabel() const { return m_totals; }
  QProgressBar* meter() const { return m_meter; }
  QDoubleSpinBox* budgetBox() const { return m_budget; }
  QComboBox* approvalFilter() const { return m_approvalFilter; }
  QFrame* suggestionBox() const { return m_suggestionBox; }
  QPushButton* applySuggestionButton() const { return m_applySuggestion; }
  /// The current clip's additive base picker and preview weight.
  AdditiveBar* additiveBar() const { return m_additive; }

 public slots:
  void approveSelected();
  void rejectSelected();
  void reopenSelected();

 private:
  void setSelectedApproval(Approval state);
  QWidget* buildPackBar();
  void updateTotals();
  void updateSuggestion();
  ClipDocument* m_document;
  Recompressor* m_recompressor;
  ClipListModel* m_model;
  ClipFilterProxy* m_proxy;
  QTableView* m_table;
  QLineEdit* m_filter;
  QComboBox* m_approvalFilter;
  QLabel* m_totals;
  QProgressBar* m_meter;
  QDoubleSpinBox* m_budget;
  BudgetAdvisor* m_advisor;
  QFrame* m_suggestionBox;
  QLabel* m_suggestion;
  QPushButton* m_applySuggestion;
  AdditiveBar* m_additive;
};

}  // namespace animpack::widgets
