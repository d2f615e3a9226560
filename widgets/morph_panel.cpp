#include "widgets/morph_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

#include "core/compress/settings_edit.h"
#include "widgets/format.h"
#include "widgets/joint_tree_model.h"

namespace animpack::widgets {
namespace {

/// The curve report of a shown result, or null when it has none for the file's curves.
const core::CurveReport* curveReport(const ShownResult& shown, std::size_t curves) {
  const core::CompressedClip* c = shown.compressed();
  return c && c->stats.curves.curves.size() == curves ? &c->stats.curves : nullptr;
}

QString summaryText(const core::ImportedAsset& asset, std::size_t animated, const core::CurveReport* report,
                    bool stale) {
  QString text = QString("%1 morph target(s), %2 keyed in this clip").arg(asset.curves.size()).arg(animated);
  if (!report) return text + " · compressing…";
  text += QString(
              " · %1 (%2 constant, %3 keyed with %4 keys, %5 uniform, %6 segmented, %7 raw; the rest at their "
              "rest weight)")
              .arg(formatBytes(report->bytes))
              .arg(report->constantCurves)
              .arg(report->keyedCurves)
              .arg(report->keys)
              .arg(report->uniformCurves)
              .arg(report->segmentedCurves)
              .arg(report->rawCurves);
  if (report->worstCurve >= 0 && std::size_t(report->worstCurve) < asset.curves.size())
    text += QString("<br>max error %1 (%2 at %3 s) · %4")
                .arg(formatCm(report->maxMorphErrorCm),
                     QString::fromStdString(asset.curves[std::size_t(report->worstCurve)].name).toHtmlEscaped())
                .arg(report->worstTimeS, 0, 'f', 3)
                .arg(report->withinPrecision ? "<span style='color:#1e8232'>every target within precision</span>"
                                             : "<span style='color:#c8281e'>some targets over precision</span>");
  return stale ? text + " · <i>" + kUpdatingText + "</i>" : text;
}

}  // namespace

MorphPanel::MorphPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_recompressor(recompressor),
      m_summary(new QLabel(this)),
      m_search(new QLineEdit(this)),
      m_scope(new QComboBox(this)),
      m_list(new QTreeWidget(this)),
      m_precision(new QDoubleSpinBox(this)),
      m_set(new QPushButton("Set", this)),
      m_reset(new QPushButton("Reset to inherited", this)) {
  m_summary->setWordWrap(true);
  m_summary->setTextFormat(Qt::RichText);
  m_search->setPlaceholderText("Search morph targets");
  m_search->setClearButtonEnabled(true);
  connect(m_search, &QLineEdit::textChanged, this, &MorphPanel::refresh);
  m_scope->addItem("Edit: every clip");
  m_scope->addItem("Edit: this clip only");
  m_scope->setToolTip("Where edits go: the morph rules of every clip, or the current clip's override");
  connect(m_scope, &QComboBox::currentIndexChanged, this, &MorphPanel::refresh);

  m_list->setColumnCount(ColumnCount);
  m_list->setHeaderLabels({"Morph target", "Max error", "Precision", "Largest displacement", "Storage"});
  m_list->setRootIsDecorated(false);
  m_list->setUniformRowHeights(true);
  m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_list->headerItem()->setToolTip(Precision,
                                   "The most a vertex may move through the target's weight error; "
                                   "the weight's tolerance is precision / largest displacement");
  m_list->headerItem()->setToolTip(Displacement, "How far the target moves its farthest vertex at weight 1");

  m_precision->setDecimals(4);
  m_precision->setSuffix(" cm");
  m_precision->setRange(std::max<double>(core::kMinPrecisionCm, 1e-4), core::kMaxPrecisionCm);
  m_precision->setSingleStep(0.001);
  m_precision->setValue(core::kDefaultPrecisionCm);
  m_precision->setToolTip("Precision to set on the selected morph targets");
  connect(m_set, &QPushButton::clicked, this, &MorphPanel::applyPrecisionToSelection);
  connect(m_reset, &QPushButton::clicked, this, &MorphPanel::resetSelection);

  auto* top = new QHBoxLayout;
  top->addWidget(m_search, 1);
  top->addWidget(m_scope);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel("Precision", this));
  bar->addWidget(m_precision);
  bar->addWidget(m_set);
  bar->addWidget(m_reset);
  bar->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(m_summary);
  layout->addLayout(top);
  layout->addWidget(m_list, 1);
  layout->addLayout(bar);

  // The recompressor's one change signal covers a new asset, clip, settings or result.
  connect(recompressor, &Recompressor::currentChanged, this, &MorphPanel::refresh);
  connect(document, &ClipDocument::settingsChanged, this, &MorphPanel::refresh);
  connect(document, &ClipDocument::selectedCurvesChanged, this, &MorphPanel::syncSelection);
  connect(m_list, &QTreeWidget::itemSelectionChanged, this, [this] {
    if (!m_syncing) m_document->setSelectedCurves(selection());
  });
  refresh();
}

EditScope MorphPanel::scope() const {
  return m_scope->currentIndex() == 0 ? EditScope::AllClips : EditScope::CurrentClip;
}

void MorphPanel::setScope(EditScope scope) { m_scope->setCurrentIndex(scope == EditScope::AllClips ? 0 : 1); }

QString MorphPanel::summary() const { return m_summary->text(); }

std::vector<int> MorphPanel::selection() const {
  std::vector<int> out;
  for (QTreeWidgetItem* item : m_list->selectedItems()) out.push_back(item->data(Name, CurveRole).toInt());
  std::sort(out.begin(), out.end());
  return out;
}

void MorphPanel::applyPrecisionToSelection() {
  m_document->setMorphPrecision(scope(), selection(), float(m_precision->value()));
}

void MorphPanel::resetSelection() { m_document->setMorphPrecision(scope(), selection(), std::nullopt); }

void MorphPanel::syncSelection() {
  const std::vector<int>& selected = m_document->selectedCurves();
  m_syncing = true;
  for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = m_list->topLevelItem(i);
    const bool on = std::binary_search(selected.begin(), selected.end(), item->data(Name, CurveRole).toInt());
    if (item->isSelected() != on) item->setSelected(on);
    if (on && selected.size() == 1) m_list->scrollToItem(item);
  }
  m_syncing = false;
}

void MorphPanel::refresh() {
  const int clip = m_document->currentClip();
  const auto asset = clip >= 0 ? m_document->assetOf(clip) : nullptr;
  m_syncing = true;
  m_list->clear();
  m_syncing = false;
  const bool any = asset && !asset->curves.empty();
  for (QWidget* w : std::initializer_list<QWidget*>{m_search, m_scope, m_list, m_precision, m_set, m_reset})
    w->setEnabled(any);
  if (!any) {
    m_summary->setText(asset ? "This file has no morph targets." : "No clip.");
    return;
  }
  const ShownResult shown = m_recompressor->current();
  const core::CurveReport* report = curveReport(shown, asset->curves.size());
  const core::EffectiveSettings effective = m_document->effectiveSettings(clip);
  std::set<std::uint32_t> animated;
  for (const core::CurveKeys& k : m_document->rawClip(clip).curves) animated.insert(k.curve);
  m_summary->setText(summaryText(*asset, animated.size(), report, shown.stale));
  const std::string clipName = m_document->clipName(clip).toStdString();
  for (std::size_t i = 0; i < asset->curves.size(); ++i) {
    const core::MorphCurve& curve = asset->curves[i];
    const QString name = QString::fromStdString(curve.name);
    if (!name.contains(m_search->text(), Qt::CaseInsensitive)) continue;
    auto* item = new QTreeWidgetItem(m_list);
    item->setData(Name, CurveRole, int(i));
    item->setText(Name, name);
    const float precision = i < effective.curves.size() ? effective.curves[i].precisionCm : core::kDefaultPrecisionCm;
    item->setText(Precision, formatCm(precision));
    if (core::hasMorphOverride(m_document->settings(), scope(), clipName, curve.name)) {
      QFont f = item->font(Precision);
      f.setBold(true);
      item->setFont(Precision, f);
    } else {
      item->setForeground(Precision, kInheritedColor);
    }
    item->setText(Displacement, formatCm(float(curve.displacementCm)));
    const bool moves = animated.count(std::uint32_t(i)) > 0;
    if (!report) {
      item->setText(MaxError, "…");
      item->setText(Storage, moves ? "animated" : "not animated");
    } else {
      const core::CurveReport::Curve& r = report->curves[i];
      item->setText(MaxError, formatCm(r.maxErrorCm));
      QString storage = trackKindName(r.kind);
      if (r.keys) storage += QString(" (%1 keys)").arg(r.keys);
      item->setText(Storage, moves ? storage : storage + ", not animated");
      for (int column : {int(MaxError), int(Storage)})
        if (shown.stale) item->setForeground(column, kStaleColor);
      if (!shown.stale) {
        QColor c = errorColor(r.maxErrorCm / r.precisionCm);
        c.setAlpha(70);
        item->setBackground(MaxError, c);
      }
    }
    if (!moves) item->setForeground(Name, kInheritedColor);
  }
  syncSelection();
}

}  // namespace animpack::widgets
