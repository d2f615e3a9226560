#include "widgets/clip_list.h"

#include <QBrush>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/compress/clip_sizes.h"
#include "widgets/format.h"

namespace animpack::widgets {

ClipListModel::ClipListModel(ClipDocument* document, Recompressor* recompressor, QObject* parent)
    : QAbstractTableModel(parent), m_document(document), m_recompressor(recompressor) {
  connect(document, &ClipDocument::assetChanged, this, [this] {
    beginResetModel();
    endResetModel();
  });
  connect(document, &ClipDocument::settingsChanged, this, [this] {
    if (rowCount() > 0) emit dataChanged(index(0, CompressedBytes), index(rowCount() - 1, Status));
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
  static const char* names[] = {"Clip", "Frames", "Rate", "Raw", "Compressed", "Ratio", "Max error", "Status"};
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
  if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != Status)
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
      default: return data(index, Qt::DisplayRole);
    }
  }
  return {};
}

ClipListPanel::ClipListPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent)
    : QWidget(parent), m_document(document), m_model(new ClipListModel(document, recompressor, this)),
      m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this)), m_filter(new QLineEdit(this)) {
  m_proxy->setSourceModel(m_model);
  m_proxy->setSortRole(Qt::UserRole);
  m_proxy->setFilterKeyColumn(ClipListModel::Name);
  m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_filter->setPlaceholderText("Filter clips");
  m_filter->setClearButtonEnabled(true);
  connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
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
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(m_filter);
  layout->addWidget(m_table);
  layout->addLayout(buttons);
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (current.isValid()) m_document->setCurrentClip(m_proxy->mapToSource(current).row());
  });
  connect(document, &ClipDocument::currentClipChanged, this, [this](int clip) {
    if (clip < 0) return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(clip, 0));
    if (index.isValid() && m_table->currentIndex().row() != index.row()) m_table->selectRow(index.row());
  });
}

std::vector<int> ClipListPanel::selectedClips() const {
  std::vector<int> clips;
  for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) clips.push_back(m_proxy->mapToSource(index).row());
  if (clips.empty())
    for (int c = 0; c < m_document->clipCount(); ++c) clips.push_back(c);
  std::sort(clips.begin(), clips.end());
  return clips;
}

void ClipListPanel::setSelectedApproval(Approval state) { m_document->setApproval(selectedClips(), state); }

void ClipListPanel::approveSelected() { setSelectedApproval(Approval::Approved); }
void ClipListPanel::rejectSelected() { setSelectedApproval(Approval::Rejected); }
void ClipListPanel::reopenSelected() { setSelectedApproval(Approval::NeedsReview); }

}  // namespace animpack::widgets
