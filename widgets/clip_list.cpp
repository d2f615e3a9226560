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
#include <QTreeView>
#include <QDir>
#include <QMenu>
#include <QVBoxLayout>

#include "core/compress/clip_sizes.h"
#include "widgets/format.h"

namespace animpack::widgets {
namespace {

/// What the Rate column's tooltip says of the clip's key grid (docs/IMPORT.md "What gets imported").
QString keyGridText(core::KeyGridKind grid) {
  switch (grid) {
    case core::KeyGridKind::Regular: return "Keys on one regular grid: sampled at its rate.";
    case core::KeyGridKind::Snapped:
      return "Keys within 1 % of a step of one regular grid (an exporter's rounding): snapped to it, sampled at its "
             "rate.";
    case core::KeyGridKind::Mixed:
      return "Channels keyed on grids of their own: sampled on the finest grid under 120 Hz that holds every key, or "
             "else on the grid of the channel with the most keys; channels keyed between its frames keep their own "
             "key times (timed keys).";
    case core::KeyGridKind::Irregular:
      return "Keys on no regular grid: sampled at the mean key spacing of the channel with the most keys; channels "
             "keep their own key times (timed keys).";
  }
  return {};
}

/// The Base column: where an additive clip's deltas are taken from.
QString additiveText(const core::AdditiveLink& link) {
  if (!link.error.empty()) return "invalid base";
  if (link.ref.kind == core::AdditiveRef::Kind::Rest) return "+ rest pose";
  return link.ref.additive() ? "+ " + QString::fromStdString(link.ref.spelling()) : QString();
}

}  // namespace

ClipListModel::ClipListModel(ClipDocument* document, Recompressor* recompressor, QObject* parent)
    : QAbstractItemModel(parent), m_document(document), m_recompressor(recompressor) {
  connect(document, &ClipDocument::assetChanged, this, [this] {
    beginResetModel();
    rebuild();
    endResetModel();
  });
  connect(document, &ClipDocument::settingsChanged, this, [this](const SettingsChange& change) {
    // Sizes, errors and approvals change with a clip's compression key; names with a rename.
    if (!change.all && !change.renamed) {
      for (int clip : change.clips) refreshClip(clip);
      return;
    }
    for (int f = 0; f < rowCount(); ++f) {
      emit dataChanged(fileIndex(f, 0), fileIndex(f, ColumnCount - 1));
      const int clips = rowCount(fileIndex(f));
      if (clips > 0) emit dataChanged(index(0, 0, fileIndex(f)), index(clips - 1, ColumnCount - 1, fileIndex(f)));
    }
  });
  connect(document, &ClipDocument::approvalChanged, this, &ClipListModel::refreshClip);
  connect(recompressor, &Recompressor::resultReady, this, &ClipListModel::refreshClip);
  connect(recompressor, &Recompressor::jobStarted, this, &ClipListModel::refreshClip);
  connect(recompressor, &Recompressor::failed, this, [this](int clip, const QString&) { refreshClip(clip); });
  rebuild();
}

void ClipListModel::rebuild() {
  m_fileClips.assign(std::size_t(m_document->fileCount()), {});
  m_rowOfClip.assign(std::size_t(m_document->clipCount()), 0);
  for (int c = 0; c < m_document->clipCount(); ++c) {
    auto& clips = m_fileClips[std::size_t(m_document->fileOfClip(c))];
    m_rowOfClip[std::size_t(c)] = int(clips.size());
    clips.push_back(c);
  }
}

void ClipListModel::refreshClip(int clip) {
  if (clip < 0 || std::size_t(clip) >= m_rowOfClip.size()) return;
  emit dataChanged(clipIndex(clip, 0), clipIndex(clip, ColumnCount - 1));
  const int file = m_document->fileOfClip(clip);
  emit dataChanged(fileIndex(file, 0), fileIndex(file, ColumnCount - 1));  // its file's totals
}

// Internal ids: 0 for a file row; a clip row carries its file + 1.
QModelIndex ClipListModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent)) return {};
  return createIndex(row, column, parent.isValid() ? quintptr(parent.row() + 1) : quintptr(0));
}

QModelIndex ClipListModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == 0) return {};
  return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int ClipListModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return int(m_fileClips.size());
  if (parent.internalId() != 0 || parent.column() != 0 || std::size_t(parent.row()) >= m_fileClips.size()) return 0;
  return int(m_fileClips[std::size_t(parent.row())].size());
}

int ClipListModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QModelIndex ClipListModel::fileIndex(int file, int column) const {
  return file >= 0 && std::size_t(file) < m_fileClips.size() ? createIndex(file, column, quintptr(0)) : QModelIndex();
}

QModelIndex ClipListModel::clipIndex(int clip, int column) const {
  if (clip < 0 || std::size_t(clip) >= m_rowOfClip.size()) return {};
  return createIndex(m_rowOfClip[std::size_t(clip)], column, quintptr(m_document->fileOfClip(clip) + 1));
}

int ClipListModel::clipAt(const QModelIndex& index) const {
  if (!index.isValid() || index.internalId() == 0) return -1;
  const auto& clips = m_fileClips[std::size_t(index.internalId() - 1)];
  return std::size_t(index.row()) < clips.size() ? clips[std::size_t(index.row())] : -1;
}

int ClipListModel::fileAt(const QModelIndex& index) const {
  if (!index.isValid()) return -1;
  return index.internalId() == 0 ? index.row() : int(index.internalId() - 1);
}

QVariant ClipListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* names[] = {"Clip",  "Frames",    "Rate",   "Raw",  "Compressed", "Morph bytes",
                                "Ratio", "Max error", "Status", "File", "Additive on"};
  static_assert(std::size(names) == ColumnCount);
  return section >= 0 && section < ColumnCount ? QString(names[section]) : QVariant();
}

QVariant ClipListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !m_document->hasAsset()) return {};
  const int clip = clipAt(index);
  if (clip >= 0) return clipData(clip, index.column(), role);
  return index.internalId() == 0 && index.row() < m_document->fileCount() ? fileData(index.row(), index.column(), role)
                                                                          : QVariant();
}

namespace {

QString ratioText(std::uint64_t raw, std::uint64_t packed) {
  return QString("%1:1").arg(double(raw) / double(packed), 0, 'f', 1);
}

}  // namespace

QVariant ClipListModel::fileData(int file, int column, int role) const {
  const PackTotals t = fileTotals(*m_document, *m_recompressor, file);
  const QString problem = m_document->fileProblem(file);
  const bool measured = t.complete();
  if (role == Qt::DisplayRole) {
    switch (column) {
      case Name: return QFileInfo(m_document->file(file).path()).fileName();
      case Frames: {
        int frames = 0;
        for (int c : m_fileClips[std::size_t(file)]) frames += m_document->rawClip(c).frameCount;
        return t.clips ? QVariant(frames) : QVariant();
      }
      case RawBytes: return t.measured ? formatBytes(t.rawBytes) : QString();
      case CompressedBytes: return t.clips == 0 ? QString() : measured ? formatBytes(t.compressedBytes) : QString("…");
      case MorphBytes: return measured && t.morphClips ? formatBytes(t.curveBytes) : QString();
      case Ratio: return measured ? ratioText(t.rawBytes, t.compressedBytes) : QString();
      case MaxError: return measured ? formatCm(t.maxErrorCm) : QString();
      case Status:
        if (!problem.isEmpty())
          return m_document->file(file).asset ? QString("left out: skeleton differs") : QString("not imported");
        return QString("%1 of %2 approved").arg(t.approved).arg(t.clips);
      case File: {
        const QString relative = QDir(m_document->projectFolder()).relativeFilePath(m_document->file(file).path());
        return relative;
      }
      default: return {};
    }
  }
  if (role == Qt::FontRole) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role == Qt::ToolTipRole) return problem.isEmpty() ? m_document->file(file).path() : problem;
  if (role == Qt::ForegroundRole && !problem.isEmpty()) return QBrush(QColor(200, 40, 30));
  if (role == Qt::ForegroundRole && t.stale && column >= CompressedBytes && column <= MaxError)
    return QBrush(kStaleColor);
  if (role == Qt::TextAlignmentRole && column != Name && column != Status && column != File)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::UserRole) {  // sort keys: files sort by their totals
    switch (column) {
      case Frames: return t.clips;
      case RawBytes: return qulonglong(t.rawBytes);
      case CompressedBytes: return qulonglong(t.compressedBytes);
      case MorphBytes: return qulonglong(t.curveBytes);
      case Ratio: return t.ratio();
      case MaxError: return t.measured ? double(t.maxErrorCm) : -1.0;
      case Status: return t.approved;
      default: return fileData(file, column, Qt::DisplayRole);
    }
  }
  return {};
}

QVariant ClipListModel::clipData(int clip, int column, int role) const {
  const core::RawClip& raw = m_document->rawClip(clip);
  const ShownResult shown = m_recompressor->shown(clip);
  const core::CompressedClip* c = shown.compressed();
  const std::uint64_t rawBytes = core::rawClipBytes(raw);
  const std::uint64_t packed = c ? core::packedClipBytes(*c) : 0;
  const bool resultColumn = column >= CompressedBytes && column <= MaxError;
  const core::ApprovalState approval = m_document->approval(clip);
  if (role == Qt::DisplayRole) {
    switch (column) {
      case Name: return m_document->clipName(clip);
      case Frames: return raw.frameCount;
      case Rate: return QString("%1 Hz").arg(raw.sampleRate, 0, 'g', 4);
      case RawBytes: return formatBytes(rawBytes);
      case CompressedBytes: return c ? formatBytes(packed) : QString("…");
      case MorphBytes: return c && !c->stats.curves.curves.empty() ? formatBytes(c->stats.curves.bytes) : QString();
      case Ratio: return c ? ratioText(rawBytes, packed) : QString();
      case MaxError: return c ? formatCm(c->stats.maxErrorCm) : QString();
      case File: return QFileInfo(m_document->file(m_document->fileOfClip(clip)).path()).fileName();
      case Base: return additiveText(m_document->additiveLink(clip));
      case Status: {
        QString s = approval == core::ApprovalState::Approved   ? "approved"
                    : approval == core::ApprovalState::Rejected ? "rejected"
                                                                : "needs review";
        if (const QString why = m_document->approvalResetReason(clip); why.startsWith("the default shells"))
          s += " · shells now follow the skin";
        if (c && !c->stats.withinPrecision) s += " · over precision";
        return s;
      }
      default: return {};
    }
  }
  if (role == Qt::ForegroundRole && resultColumn && c && shown.stale) return QBrush(kStaleColor);
  if (role == Qt::ToolTipRole && resultColumn && c && shown.stale) return kUpdatingTip;
  if (role == Qt::ToolTipRole && column == Name && m_document->clipName(clip) != m_document->sourceClipName(clip))
    return QString("'%1' in its file").arg(m_document->sourceClipName(clip));
  if (role == Qt::ForegroundRole && column == MaxError && c)
    return QBrush(c->stats.withinPrecision ? QColor(30, 130, 50) : QColor(200, 40, 30));
  if (role == Qt::ForegroundRole && column == Status)
    return QBrush(approval == core::ApprovalState::Approved   ? QColor(30, 130, 50)
                  : approval == core::ApprovalState::Rejected ? QColor(200, 40, 30)
                                                              : QColor(150, 110, 0));
  if (role == ApprovalRole) return int(approval);
  if ((role == Qt::ForegroundRole || role == Qt::ToolTipRole) && column == Base &&
      !m_document->additiveLink(clip).error.empty())
    return role == Qt::ForegroundRole ? QVariant(QBrush(QColor(200, 40, 30)))
                                      : QVariant(QString::fromStdString(m_document->additiveLink(clip).error));
  if (role == Qt::FontRole && column == Name && m_document->additiveLink(clip).ref.additive()) {
    QFont italic;
    italic.setItalic(true);  // additive clips read as layers at a glance
    return italic;
  }
  if (role == Qt::TextAlignmentRole && column != Name && column != Status && column != File && column != Base)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && column == Status)
    if (const QString why = m_document->approvalResetReason(clip); !why.isEmpty())
      return "core::ApprovalState reset: " + why + ".";
  if (role == Qt::ToolTipRole && column == Rate) return keyGridText(raw.grid);
  if (role == Qt::UserRole) {  // sort keys
    switch (column) {
      case Frames: return raw.frameCount;
      case RawBytes: return qulonglong(rawBytes);
      case CompressedBytes: return qulonglong(packed);
      case MorphBytes: return qulonglong(c ? c->stats.curves.bytes : 0);
      case Ratio: return packed ? double(rawBytes) / double(packed) : 0.0;
      case MaxError: return c ? double(c->stats.maxErrorCm) : -1.0;
      case Status: return int(approval);
      default: return clipData(clip, column, Qt::DisplayRole);
    }
  }
  return {};
}

void ClipFilterProxy::setApprovalFilter(std::optional<core::ApprovalState> state) {
  m_approval = state;
  invalidateFilter();
}

bool ClipFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
  const QString text = filterRegularExpression().pattern();
  // A file row shows by itself only without a filter; with one, it shows for the clips that match
  // (recursive filtering).
  if (!parent.isValid()) return !m_approval && text.isEmpty();
  if (m_approval && sourceModel()->index(row, 0, parent).data(ClipListModel::ApprovalRole).toInt() != int(*m_approval))
    return false;
  // The text matches the clip's name or its file.
  if (text.isEmpty()) return true;
  for (int column : {int(ClipListModel::Name), int(ClipListModel::File)})
    if (sourceModel()->index(row, column, parent).data().toString().contains(text, Qt::CaseInsensitive)) return true;
  return false;
}

ClipListPanel::ClipListPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_recompressor(recompressor),
      m_model(new ClipListModel(document, recompressor, this)),
      m_proxy(new ClipFilterProxy(this)),
      m_table(new QTreeView(this)),
      m_filter(new QLineEdit(this)),
      m_approvalFilter(new QComboBox(this)),
      m_advisor(new BudgetAdvisor(document, recompressor, this)) {
  m_proxy->setSourceModel(m_model);
  m_proxy->setRecursiveFilteringEnabled(true);
  m_proxy->setSortRole(Qt::UserRole);
  m_filter->setPlaceholderText("Filter clips or files");
  m_filter->setClearButtonEnabled(true);
  // The text is matched literally (filterAcceptsRow reads it back as the pattern).
  connect(m_filter, &QLineEdit::textChanged, m_proxy,
          [this](const QString& text) { m_proxy->setFilterRegularExpression(QRegularExpression(text)); });
  m_approvalFilter->addItem("All clips");
  m_approvalFilter->addItem("Needs review", int(core::ApprovalState::NeedsReview));
  m_approvalFilter->addItem("Approved", int(core::ApprovalState::Approved));
  m_approvalFilter->addItem("Rejected", int(core::ApprovalState::Rejected));
  connect(m_approvalFilter, &QComboBox::currentIndexChanged, this, [this](int i) {
    const QVariant v = m_approvalFilter->itemData(i);
    m_proxy->setApprovalFilter(v.isValid() ? std::optional<core::ApprovalState>(core::ApprovalState(v.toInt()))
                                           : std::nullopt);
  });
  m_table->setModel(m_proxy);
  m_table->setSortingEnabled(true);
  // File order until the user clicks a column (Qt's default indicator would sort by name, descending).
  m_table->header()->setSortIndicator(-1, Qt::AscendingOrder);
  m_proxy->sort(-1);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_table->setUniformRowHeights(true);
  m_table->setAlternatingRowColors(true);
  m_table->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->header()->setStretchLastSection(true);
  m_table->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_table, &QWidget::customContextMenuRequested, this, &ClipListPanel::showContextMenu);
  // Every file open: a new model (files added or removed) shows every clip.
  connect(m_proxy, &QAbstractItemModel::modelReset, m_table, &QTreeView::expandAll);
  connect(m_proxy, &QAbstractItemModel::rowsInserted, m_table, &QTreeView::expandAll);
  // Morph bytes only for a project with morph targets.
  auto showMorphColumn = [this] {
    bool morphs = false;
    for (int f = 0; f < m_document->fileCount() && !morphs; ++f)
      morphs = m_document->file(f).asset && !m_document->file(f).asset->curves.empty();
    m_table->setColumnHidden(ClipListModel::MorphBytes, !morphs);
  };
  connect(m_proxy, &QAbstractItemModel::modelReset, this, showMorphColumn);
  connect(m_proxy, &QAbstractItemModel::rowsInserted, this, showMorphColumn);
  showMorphColumn();
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
    const int clip = m_model->clipAt(m_proxy->mapToSource(current));
    if (clip >= 0) m_document->setCurrentClip(clip);
  });
  connect(document, &ClipDocument::currentClipChanged, this, [this](int clip) {
    if (clip < 0) return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->clipIndex(clip, 0));
    if (index.isValid() && m_table->currentIndex().siblingAtColumn(0) != index)
      m_table->selectionModel()->setCurrentIndex(index,
                                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
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
  m_budgetKind = new QComboBox(bar);
  m_budgetKind->addItems({"resident", "pack file"});
  m_budgetKind->setToolTip(
      "What the budget counts: resident = the pack and what opening it derives (what a game keeps in memory); "
      "pack file = the file alone (saved in the project as budget_kind)");
  connect(m_budgetKind, &QComboBox::currentIndexChanged, this,
          [this](int i) { m_document->setBudgetKind(i == 0 ? core::BudgetKind::Resident : core::BudgetKind::Pack); });
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel("Budget", bar));
  row->addWidget(m_budget);
  row->addWidget(m_budgetKind);
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
  QString text =
      QString("<b>%1 clips</b>: raw %2 → %3 (%4:1), max error %5, pack %6 (%9 resident once opened)%7 · %8 approved")
          .arg(t.clips)
          .arg(formatBytes(t.rawBytes), formatBytes(t.compressedBytes))
          .arg(t.ratio(), 0, 'f', 1)
          .arg(formatCm(t.maxErrorCm), formatBytes(t.packBytes))
          .arg(t.complete() ? QString() : QString(" (%1 of %2 measured)").arg(t.measured).arg(t.clips))
          .arg(t.approved)
          .arg(formatBytes(t.residentBytes));
  if (t.morphClips) text += QString(" · morph curves %1").arg(formatBytes(t.curveBytes));
  if (t.stale) text += " · " + kUpdatingText;
  m_totals->setText(text);
  {
    const QSignalBlocker block(m_budget), blockKind(m_budgetKind);
    m_budget->setValue(t.budgetKib.value_or(0));
    m_budgetKind->setCurrentIndex(t.budgetKind == core::BudgetKind::Resident ? 0 : 1);
  }
  m_meter->setEnabled(t.budgetKib.has_value());
  if (!t.budgetKib) {
    m_meter->setValue(0);
    m_meter->setFormat("no budget");
    m_meter->setStyleSheet({});
  } else {
    const double used = double(t.budgetedBytes()) / 1024.0;
    m_meter->setValue(int(std::min(used / *t.budgetKib, 1.0) * 1000));
    m_meter->setFormat(QString("%1 of %2 KiB %4 (%3 %)")
                           .arg(used, 0, 'f', 1)
                           .arg(*t.budgetKib, 0, 'f', 1)
                           .arg(used / *t.budgetKib * 100, 0, 'f', 0)
                           .arg(t.budgetKind == core::BudgetKind::Resident ? "resident" : "pack file"));
    m_meter->setStyleSheet(t.overBudget() ? "QProgressBar::chunk{background:#c8281e}"
                                          : "QProgressBar::chunk{background:#3a8f4e}");
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
  const double overBy = double(t.budgetedBytes()) - *t.budgetKib * 1024.0;
  QString text = QString("Over budget by %1. At twice their precision these clips would save %2%3:<br>")
                     .arg(formatBytes(std::uint64_t(overBy)), formatBytes(m_advisor->totalSaving()))
                     .arg(double(m_advisor->totalSaving()) >= overBy ? " (within budget)" : " (still over)");
  for (const BudgetSuggestion& s : list)
    text += QString("&nbsp;• <b>%1</b> saves %2 (%3 → %4), max error %5 → %6<br>")
                .arg(s.name.toHtmlEscaped(), formatBytes(std::uint64_t(s.saves())), formatBytes(s.bytesNow),
                     formatBytes(s.bytesThen), formatCm(s.errorNowCm), formatCm(s.errorThenCm));
  m_suggestion->setText(text);
}

std::vector<int> ClipListPanel::selectedClips() const {
  std::vector<int> clips;
  // Every clip row the proxy shows under `parent` (a file row stands for its clips).
  const auto shownUnder = [&](const QModelIndex& parent) {
    for (int row = 0; row < m_proxy->rowCount(parent); ++row)
      if (const int c = m_model->clipAt(m_proxy->mapToSource(m_proxy->index(row, 0, parent))); c >= 0)
        clips.push_back(c);
  };
  for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
    const int clip = m_model->clipAt(m_proxy->mapToSource(index));
    if (clip >= 0) clips.push_back(clip);
    else shownUnder(index);
  }
  if (m_table->selectionModel()->selectedRows().isEmpty())
    for (int row = 0; row < m_proxy->rowCount(); ++row) shownUnder(m_proxy->index(row, 0));
  std::sort(clips.begin(), clips.end());
  clips.erase(std::unique(clips.begin(), clips.end()), clips.end());
  return clips;
}

std::vector<int> ClipListPanel::selectedFiles() const {
  std::vector<int> files;
  for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
    files.push_back(m_model->fileAt(m_proxy->mapToSource(index)));
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

void ClipListPanel::removeSelectedFiles() { m_document->removeFiles(selectedFiles()); }

void ClipListPanel::showContextMenu(const QPoint& pos) {
  if (!m_document->hasAsset()) return;
  QMenu menu(this);
  menu.addAction("Approve", this, &ClipListPanel::approveSelected);
  menu.addAction("Reject", this, &ClipListPanel::rejectSelected);
  menu.addAction("Needs review", this, &ClipListPanel::reopenSelected);
  menu.addSeparator();
  const std::vector<int> files = selectedFiles();
  QAction* remove = menu.addAction(
      files.size() == 1
          ? QString("Remove %1 from the project").arg(QFileInfo(m_document->file(files.front()).path()).fileName())
          : QString("Remove %1 files from the project").arg(files.size()),
      this, &ClipListPanel::removeSelectedFiles);
  // The project keeps at least one file.
  remove->setEnabled(!files.empty() && int(files.size()) < m_document->fileCount());
  menu.exec(m_table->viewport()->mapToGlobal(pos));
}

void ClipListPanel::setSelectedApproval(core::ApprovalState state) { m_document->setApproval(selectedClips(), state); }

void ClipListPanel::approveSelected() { setSelectedApproval(core::ApprovalState::Approved); }
void ClipListPanel::rejectSelected() { setSelectedApproval(core::ApprovalState::Rejected); }
void ClipListPanel::reopenSelected() { setSelectedApproval(core::ApprovalState::NeedsReview); }

}  // namespace animpack::widgets
