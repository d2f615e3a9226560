#include "widgets/clip_list.h"

#include <QBrush>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFont>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/compress/clip_sizes.h"
#include "widgets/format.h"

namespace animpack::widgets {
namespace {

/// The Base column: where an additive clip's deltas are taken from.
QString additiveText(const core::AdditiveLink& link) {
  if (!link.error.empty()) return "invalid base";
  if (link.ref.kind == core::AdditiveRef::Kind::Rest) return "+ rest pose";
  return link.ref.additive() ? "+ " + QString::fromStdString(link.ref.spelling()) : QString();
}

}  // namespace

ClipListModel::ClipListModel(ClipDocument* document, Recompressor* recompressor, QObject* parent)
    : QAbstractTableModel(parent), m_document(document), m_recompressor(recompressor) {
  connect(document, &ClipDocument::assetChanged, this, [this] {
    beginResetModel();
    endResetModel();
  });
  connect(document, &ClipDocument::settingsChanged, this, [this] {
    if (rowCount() > 0) emit dataChanged(index(0, CompressedBytes), index(rowCount() - 1, ColumnCount - 1));
  });
  connect(document, &ClipDocument::approvalChanged, this, &ClipListModel::refreshRow);
  connect(recompressor, &Recompressor::resultReady, this, &ClipListModel::refreshRow);
  connect(recompressor, &Recompressor::jobStarted, this, &ClipListModel::refreshRow);
  connect(recompressor, &Recompressor::failed, this, [this](int clip, const QString&) { refreshRow(clip); });
}

void ClipListModel::refreshRow(int clip) {
  if (clip >= 0 && clip < rowCount()) emit dataChanged(index(clip, 0), index(clip, ColumnCount - 1));
}

int ClipListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_document->clipCount(); }
int ClipListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ClipListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* names[] = {"Clip", "Frames", "Rate", "Raw", "Compressed", "Ratio", "Max error", "Status", "File", "Additive on"};
  return section >= 0 && section < ColumnCount ? QString(names[section]) : QVariant();
}

QVariant ClipListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || !m_document->hasAsset()) return {};
  const int clip = index.row();
  const core::RawClip& raw = m_document->asset()->clips[std::size_t(clip)];
  const ShownResult shown = m_recompressor->shown(clip);
  const core::CompressedClip* c = shown.compressed();
  const std::uint64_t rawBytes = core::rawClipBytes(raw);
  const std::uint64_t packed = c ? core::packedClipBytes(*c) : 0;
  const bool resultColumn = index.column() >= CompressedBytes && index.column() <= MaxError;
  const Approval approval = m_document->approval(clip);
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Name: return QString::fromStdString(raw.name);
      case Frames: return raw.frameCount;
      case Rate: return QString("%1 Hz").arg(raw.sampleRate, 0, 'g', 4);
      case RawBytes: return formatBytes(rawBytes);
      case CompressedBytes: return c ? formatBytes(packed) : QString("…");
      case Ratio: return c ? QString("%1:1").arg(double(rawBytes) / double(packed), 0, 'f', 1) : QString();
      case MaxError: return c ? formatCm(c->stats.maxErrorCm) : QString();
      case File: return QFileInfo(m_document->sourcePath()).fileName();
      case Base: return additiveText(m_document->additiveLink(clip));
      case Status: {
        QString s = approval == Approval::Approved ? "approved" : approval == Approval::Rejected ? "rejected" : "needs review";
        if (c && !c->stats.withinPrecision) s += " · over precision";
        return s;
      }
      default: return {};
    }
  }
  if (role == Qt::ForegroundRole && resultColumn && c && shown.stale) return QBrush(kStaleColor);
  if (role == Qt::ToolTipRole && resultColumn && c && shown.stale) return kUpdatingTip;
  if (role == Qt::ForegroundRole && index.column() == MaxError && c)
    return QBrush(c->stats.withinPrecision ? QColor(30, 130, 50) : QColor(200, 40, 30));
  if (role == Qt::ForegroundRole && index.column() == Status)
    return QBrush(approval == Approval::Approved ? QColor(30, 130, 50) : approval == Approval::Rejected ? QColor(200, 40, 30) : QColor(150, 110, 0));
  if (role == ApprovalRole) return int(approval);
  if ((role == Qt::ForegroundRole || role == Qt::ToolTipRole) && index.column() == Base && !m_document->additiveLink(clip).error.empty())
    return role == Qt::ForegroundRole ? QVariant(QBrush(QColor(200, 40, 30))) : QVariant(QString::fromStdString(m_document->additiveLink(clip).error));
  if (role == Qt::FontRole && index.column() == Name && m_document->additiveLink(clip).ref.additive()) {
    QFont italic;
    italic.setItalic(true);  // additive clips read as layers at a glance
    return italic;
  }
  if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != Status && index.column() != File && index.column() != Base)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == Status && m_document->storedApproval(clip).state != Approval::NeedsReview &&
      approval == Approval::NeedsReview)
    return QString("Approval reset: the settings or the source changed since it was given.");
  if (role == Qt::UserRole) {  // sort keys
    switch (index.column()) {
      case Frames: return raw.frameCount;
      case RawBytes: return qulonglong(rawBytes);
      case CompressedBytes: return qulonglong(packed);
      case Ratio: return packed ? double(rawBytes) / double(packed) : 0.0;
      case MaxError: return c ? double(c->stats.maxErrorCm) : -1.0;
      case Status: return int(approval);
      default: return data(index, Qt::DisplayRole);
    }
  }
  return {};
}

void ClipFilterProxy::setApprovalFilter(std::optional<Approval> state) {
  m_approval = state;
  invalidateFilter();
}

bool ClipFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
  if (m_approval && sourceModel()->index(row, 0, parent).data(ClipListModel::ApprovalRole).toInt() != int(*m_approval)) return false;
  // The text matches the clip's name or its file.
  const QString text = filterRegularExpression().pattern();
  if (text.isEmpty()) return true;
  for (int column : {int(ClipListModel::Name), int(ClipListModel::File)})
    if (sourceModel()->index(row, column, parent).data().toString().contains(text, Qt::CaseInsensitive)) return true;
  return false;
}

ClipListPanel::ClipListPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent)
    : QWidget(parent), m_document(document), m_recompressor(recompressor), m_model(new ClipListModel(document, recompressor, this)),
      m_proxy(new ClipFilterProxy(this)), m_table(new QTableView(this)), m_filter(new QLineEdit(this)),
      m_approvalFilter(new QComboBox(this)), m_advisor(new BudgetAdvisor(document, recompressor, this)) {
  m_proxy->setSourceModel(m_model);
  m_proxy->setSortRole(Qt::UserRole);
  m_filter->setPlaceholderText("Filter clips or files");
  m_filter->setClearButtonEnabled(true);
  // The text is matched literally (filterAcceptsRow reads it back as the pattern).
  connect(m_filter, &QLineEdit::textChanged, m_proxy,
          [this](const QString& text) { m_proxy->setFilterRegularExpression(QRegularExpression(text)); });
  m_approvalFilter->addItem("All clips");
  m_approvalFilter->addItem("Needs review", int(Approval::NeedsReview));
  m_approvalFilter->addItem("Approved", int(Approval::Approved));
  m_approvalFilter->addItem("Rejected", int(Approval::Rejected));
  connect(m_approvalFilter, &QComboBox::currentIndexChanged, this, [this](int i) {
    const QVariant v = m_approvalFilter->itemData(i);
    m_proxy->setApprovalFilter(v.isValid() ? std::optional<Approval>(Approval(v.toInt())) : std::nullopt);
  });
  m_table->setModel(m_proxy);
  m_table->setSortingEnabled(true);
  // File order until the user clicks a column (Qt's default indicator would sort by name, descending).
  m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  m_proxy->sort(-1);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setStretchLastSection(true);
  auto* compressAll = new QPushButton("Compress all", this);
  auto* approve = new QPushButton("Approve", this);
  auto* reject = new QPushButton("Reject", this);
  auto* reopen = new QPushButton("Needs review", this);
  compressAll->setToolTip("Compress every clip now (the current one is always kept up to date)");
  approve->setToolTip("Approve the selected clips (with none selected: every clip shown) in one undo step");
  connect(compressAll, &QPushButton::clicked, recompressor, &Recompressor::compressAll);
  connect(approve, &QPushButton::clicked, this, &ClipListPanel::approveSelected);
  connect(reject, &QPushButton::clicked, this, &ClipListPanel::rejectSelected);
  connect(reopen, &QPushButton::clicked, this, &ClipListPanel::reopenSelected);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(compressAll);
  buttons->addStretch();
  buttons->addWidget(approve);
  buttons->addWidget(reject);
  buttons->addWidget(reopen);
  auto* filters = new QHBoxLayout;
  filters->addWidget(m_filter, 1);
  filters->addWidget(m_approvalFilter);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(buildPackBar());
  layout->addLayout(filters);
  layout->addWidget(m_table, 1);
  m_additive = new AdditiveBar(document, this);
  layout->addWidget(m_additive);
  layout->addWidget(m_suggestionBox);
  layout->addLayout(buttons);
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (current.isValid()) m_document->setCurrentClip(m_proxy->mapToSource(current).row());
  });
  connect(document, &ClipDocument::currentClipChanged, this, [this](int clip) {
    if (clip < 0) return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(clip, 0));
    if (index.isValid() && m_table->currentIndex().row() != index.row()) m_table->selectRow(index.row());
  });
  // The totals follow every result and every approval; dataChanged covers both.
  connect(m_model, &QAbstractItemModel::dataChanged, this, &ClipListPanel::updateTotals);
  connect(m_model, &QAbstractItemModel::modelReset, this, &ClipListPanel::updateTotals);
  connect(document, &ClipDocument::budgetChanged, this, &ClipListPanel::updateTotals);
  connect(m_advisor, &BudgetAdvisor::changed, this, &ClipListPanel::updateSuggestion);
  updateTotals();
  updateSuggestion();
}

QWidget* ClipListPanel::buildPackBar() {
  auto* bar = new QWidget(this);
  m_totals = new QLabel(bar);
  m_totals->setTextFormat(Qt::RichText);
  m_meter = new QProgressBar(bar);
  m_meter->setRange(0, 1000);
  m_meter->setTextVisible(true);
  m_meter->setMaximumHeight(18);
  m_budget = new QDoubleSpinBox(bar);
  m_budget->setRange(0, 1e7);
  m_budget->setDecimals(1);
  m_budget->setSuffix(" KiB");
  m_budget->setSpecialValueText("no budget");
  m_budget->setKeyboardTracking(false);
  m_budget->setToolTip("The pack's size budget in KiB (saved in the project; 0 removes it)");
  // One undo step per spin-box session: every step of a drag merges.
  connect(m_budget, &QDoubleSpinBox::valueChanged, this, [this](double kib) {
    m_document->setBudgetKib(kib > 0 ? std::optional<double>(kib) : std::nullopt, 0xb0d6);
  });
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel("Budget", bar));
  row->addWidget(m_budget);
  row->addWidget(m_meter, 1);
  auto* layout = new QVBoxLayout(bar);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_totals);
  layout->addLayout(row);

  m_suggestionBox = new QFrame(this);
  m_suggestionBox->setFrameShape(QFrame::StyledPanel);
  m_suggestion = new QLabel(m_suggestionBox);
  m_suggestion->setTextFormat(Qt::RichText);
  m_suggestion->setWordWrap(true);
  // Word-wrapped rich text: the box takes the height its lines need, the table gives way.
  m_suggestion->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  m_suggestionBox->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  m_applySuggestion = new QPushButton("Apply", m_suggestionBox);
  m_applySuggestion->setToolTip("Give these clips twice their precision (one undo step), then compress every clip");
  connect(m_applySuggestion, &QPushButton::clicked, this, [this] {
    m_advisor->apply();
    m_recompressor->compressAll();
  });
  auto* box = new QHBoxLayout(m_suggestionBox);
  box->setContentsMargins(6, 4, 6, 4);
  box->addWidget(m_suggestion, 1);
  box->addWidget(m_applySuggestion, 0, Qt::AlignTop);
  return bar;
}

void ClipListPanel::updateTotals() {
  const PackTotals t = packTotals(*m_document, *m_recompressor);
  QString text = QString("<b>%1 clips</b>: raw %2 → %3 (%4:1), max error %5, pack %6%7 · %8 approved")
                     .arg(t.clips)
                     .arg(formatBytes(t.rawBytes), formatBytes(t.compressedBytes))
                     .arg(t.ratio(), 0, 'f', 1)
                     .arg(formatCm(t.maxErrorCm), formatBytes(t.packBytes))
                     .arg(t.complete() ? QString() : QString(" (%1 of %2 measured)").arg(t.measured).arg(t.clips))
                     .arg(t.approved);
  if (t.stale) text += " · " + kUpdatingText;
  m_totals->setText(text);
  {
    const QSignalBlocker block(m_budget);
    m_budget->setValue(t.budgetKib.value_or(0));
  }
  m_meter->setEnabled(t.budgetKib.has_value());
  if (!t.budgetKib) {
    m_meter->setValue(0);
    m_meter->setFormat("no budget");
    m_meter->setStyleSheet({});
  } else {
    const double used = double(t.packBytes) / 1024.0;
    m_meter->setValue(int(std::min(used / *t.budgetKib, 1.0) * 1000));
    m_meter->setFormat(QString("%1 of %2 KiB (%3 %)").arg(used, 0, 'f', 1).arg(*t.budgetKib, 0, 'f', 1).arg(used / *t.budgetKib * 100, 0, 'f', 0));
    m_meter->setStyleSheet(t.overBudget() ? "QProgressBar::chunk{background:#c8281e}" : "QProgressBar::chunk{background:#3a8f4e}");
  }
  m_meter->setProperty("overBudget", t.overBudget());
  updateSuggestion();
}

void ClipListPanel::updateSuggestion() {
  const PackTotals t = packTotals(*m_document, *m_recompressor);
  const bool over = t.overBudget();
  m_suggestionBox->setVisible(over);
  if (!over) return;
  const auto& list = m_advisor->suggestions();
  m_applySuggestion->setEnabled(!list.empty() && !m_advisor->busy());
  if (m_advisor->busy()) {
    m_suggestion->setText("Over budget: measuring which clips would save most at twice their precision…");
    return;
  }
  if (list.empty()) {
    m_suggestion->setText(t.complete() ? "Over budget. No clip gets smaller at twice its precision."
                                       : "Over budget. Compress all clips to get a suggestion.");
    return;
  }
  const double overBy = double(t.packBytes) - *t.budgetKib * 1024.0;
  QString text = QString("Over budget by %1. At twice their precision these clips would save %2%3:<br>")
                     .arg(formatBytes(std::uint64_t(overBy)), formatBytes(m_advisor->totalSaving()))
                     .arg(double(m_advisor->totalSaving()) >= overBy ? " (within budget)" : " (still over)");
  for (const BudgetSuggestion& s : list)
    text += QString("&nbsp;• <b>%1</b> saves %2 (%3 → %4), max error %5 → %6<br>")
                .arg(s.name.toHtmlEscaped(), formatBytes(std::uint64_t(s.saves())), formatBytes(s.bytesNow), formatBytes(s.bytesThen),
                     formatCm(s.errorNowCm), formatCm(s.errorThenCm));
  m_suggestion->setText(text);
}

std::vector<int> ClipListPanel::selectedClips() const {
  std::vector<int> clips;
  for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) clips.push_back(m_proxy->mapToSource(index).row());
  if (clips.empty())
    for (int row = 0; row < m_proxy->rowCount(); ++row) clips.push_back(m_proxy->mapToSource(m_proxy->index(row, 0)).row());
  std::sort(clips.begin(), clips.end());
  return clips;
}

void ClipListPanel::setSelectedApproval(Approval state) { m_document->setApproval(selectedClips(), state); }

void ClipListPanel::approveSelected() { setSelectedApproval(Approval::Approved); }
void ClipListPanel::rejectSelected() { setSelectedApproval(Approval::Rejected); }
void ClipListPanel::reopenSelected() { setSelectedApproval(Approval::NeedsReview); }

}  // namespace animpack::widgets
