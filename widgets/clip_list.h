#pragma once
// The Clips panel, the lead's view (docs/LEADS.md "For leads"): the project's files, each a row with its
// totals (clips, frames, raw and compressed size, ratio, max error, approvals, or why it is left out
// of the pack), and under each its clips with frames, raw and compressed size (morph curves apart
// when the project has morph targets), ratio, max error and approval; sortable by any column (clips within their file)
// and filtered by name, file and approval; the pack's totals against the budget (KiB, stored in the project) with a
// meter that turns red over budget; approve/reject the selection in one undo step; over budget, the BudgetAdvisor's
// suggestion, applied with one click.

#include <QAbstractItemModel>
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
class QTreeView;

namespace animpack::widgets {

/// The files (top-level rows) and their clips (child rows) of the document.
class ClipListModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  /// MorphBytes: the clip's morph-curve bytes, part of its compressed bytes (shown when the project has targets).
  enum Column {
    Name,
    Frames,
    Rate,
    RawBytes,
    CompressedBytes,
    MorphBytes,
    Ratio,
    MaxError,
    Status,
    File,
    Base,
    ColumnCount
  };
  /// The role of the approval (an core::ApprovalState as int) the filter reads; invalid on file rows.
  static constexpr int ApprovalRole = Qt::UserRole + 1;
  ClipListModel(ClipDocument* document, Recompressor* recompressor, QObject* parent = nullptr);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  /// The row of a file.
  QModelIndex fileIndex(int file, int column = 0) const;
  /// The row of a clip (its file's child).
  QModelIndex clipIndex(int clip, int column = 0) const;
  /// The clip of a clip row, -1 for a file row.
  int clipAt(const QModelIndex& index) const;
  /// The file of a row (a file row's own, a clip row's parent).
  int fileAt(const QModelIndex& index) const;

 private:
  void refreshClip(int clip);
  void rebuild();
  QVariant clipData(int clip, int column, int role) const;
  QVariant fileData(int file, int column, int role) const;
  ClipDocument* m_document;
  Recompressor* m_recompressor;
  std::vector<std::vector<int>> m_fileClips;  ///< per file, its clips
  std::vector<int> m_rowOfClip;               ///< per clip, its row under its file
};

/// Clip rows whose name or file contains the text filter and whose approval matches the approval
/// filter, under their files; with no filter every file, those without clips included.
class ClipFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;
  /// Only clips in this state; nullopt: every state.
  void setApprovalFilter(std::optional<core::ApprovalState> state);

 protected:
  bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

 private:
  std::optional<core::ApprovalState> m_approval;
};

class ClipListPanel : public QWidget {
  Q_OBJECT
 public:
  ClipListPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent = nullptr);
  ClipListModel* model() const { return m_model; }
  ClipFilterProxy* proxy() const { return m_proxy; }
  QTreeView* table() const { return m_table; }
  BudgetAdvisor* advisor() const { return m_advisor; }
  /// Clips selected in the table, a selected file row standing for its clips (every clip the filters
  /// show when none is).
  std::vector<int> selectedClips() const;
  /// Files of the selected rows (a clip row stands for its file).
  std::vector<int> selectedFiles() const;
  /// The totals line, the meter, the budget box and the suggestion (for tests and screenshots).
  QLabel* totalsLabel() const { return m_totals; }
  QProgressBar* meter() const { return m_meter; }
  QDoubleSpinBox* budgetBox() const { return m_budget; }
  QComboBox* budgetKindBox() const { return m_budgetKind; }
  QComboBox* approvalFilter() const { return m_approvalFilter; }
  QFrame* suggestionBox() const { return m_suggestionBox; }
  QPushButton* applySuggestionButton() const { return m_applySuggestion; }
  /// The current clip's additive base picker and preview weight.
  AdditiveBar* additiveBar() const { return m_additive; }

 public slots:
  void approveSelected();
  void rejectSelected();
  void reopenSelected();
  /// Removes the files of the selected rows from the project (one undo step).
  void removeSelectedFiles();

 private:
  void setSelectedApproval(core::ApprovalState state);
  QWidget* buildPackBar();
  void updateTotals();
  void updateSuggestion();
  void showContextMenu(const QPoint& pos);
  ClipDocument* m_document;
  Recompressor* m_recompressor;
  ClipListModel* m_model;
  ClipFilterProxy* m_proxy;
  QTreeView* m_table;
  QLineEdit* m_filter;
  QComboBox* m_approvalFilter;
  QLabel* m_totals;
  QProgressBar* m_meter;
  QDoubleSpinBox* m_budget;
  QComboBox* m_budgetKind;
  BudgetAdvisor* m_advisor;
  QFrame* m_suggestionBox;
  QLabel* m_suggestion;
  QPushButton* m_applySuggestion;
  AdditiveBar* m_additive;
};

}  // namespace animpack::widgets
