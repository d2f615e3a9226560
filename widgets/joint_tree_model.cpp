#include "widgets/joint_tree_model.h"

#include <QBrush>
#include <QFont>

#include "widgets/format.h"

namespace animpack::widgets {

const char* trackKindName(runtime::TrackKind k) {
  switch (k) {
    case runtime::TrackKind::Default: return "rest";
    case runtime::TrackKind::Constant:
    case runtime::TrackKind::ConstantQ32:
    case runtime::TrackKind::ConstantFloat: return "constant";
    case runtime::TrackKind::Keyed: return "keys";
    case runtime::TrackKind::Uniform: return "uniform";
    case runtime::TrackKind::Raw: return "raw";
    case runtime::TrackKind::Timed: return "timed keys";
    case runtime::TrackKind::Segmented: return "segmented";
  }
  return "?";
}

JointTreeModel::JointTreeModel(ClipDocument* document, Recompressor* recompressor, QObject* parent)
    : QAbstractItemModel(parent), m_document(document), m_recompressor(recompressor) {
  // The recompressor's one change signal covers a new asset, clip, settings or result; the settings
  // columns follow the document's typed change, row by row.
  connect(recompressor, &Recompressor::currentChanged, this, &JointTreeModel::currentChanged);
  connect(document, &ClipDocument::settingsChanged, this, &JointTreeModel::settingsChanged);
  rebuild();
}

void JointTreeModel::currentChanged() {
  if (m_document->asset().get() != m_builtFor) {
    rebuild();
  } else if (m_document->currentClip() != m_builtClip) {
    refreshAll();
  } else {
    // The same clip's result (fresh, stale or new): only the result columns.
    emitColumns(MaxError, Storage, nullptr);
  }
}

void JointTreeModel::settingsChanged(const SettingsChange& change) {
  if (m_document->asset().get() != m_builtFor || m_document->currentClip() != m_builtClip)
    return;  // currentChanged rebuilds
  m_effective = m_document->effectiveSettings(m_builtClip);
  emitColumns(Precision, Pinned, &change);
}

void JointTreeModel::emitColumns(int first, int last, const SettingsChange* change) {
  if (m_row.empty()) return;
  if (change && !change->all) {
    for (int joint : change->joints) {
      const QModelIndex i = indexOfJoint(joint);
      if (i.isValid()) emit dataChanged(i.siblingAtColumn(first), i.siblingAtColumn(last));
    }
    return;
  }
  // Every row: one range per parent, so views and testers get valid ranges.
  std::vector<QModelIndex> parents{QModelIndex()};
  for (std::size_t j = 0; j < m_row.size(); ++j)
    if (!m_children[j].empty()) parents.push_back(indexOfJoint(int(j)));
  for (const QModelIndex& p : parents) {
    const int rows = rowCount(p);
    if (rows > 0) emit dataChanged(index(0, first, p), index(rows - 1, last, p));
  }
}

void JointTreeModel::setScope(EditScope scope) {
  m_scope = scope;
  refreshAll();
}

void JointTreeModel::rebuild() {
  beginResetModel();
  m_children.clear();
  m_roots.clear();
  m_row.clear();
  if (m_document->hasAsset()) {
    const core::Skeleton& sk = m_document->asset()->skeleton;
    m_children = sk.children();
    m_row.assign(sk.jointCount(), 0);
    for (std::size_t j = 0; j < sk.jointCount(); ++j)
      if (sk.parents[j] < 0) {
        m_row[j] = int(m_roots.size());
        m_roots.push_back(std::int32_t(j));
      }
    for (const auto& kids : m_children)
      for (std::size_t i = 0; i < kids.size(); ++i) m_row[std::size_t(kids[i])] = int(i);
  }
  m_builtClip = m_document->currentClip();
  m_effective = m_document->effectiveSettings(m_builtClip);
  m_builtFor = m_document->asset().get();
  endResetModel();
}

void JointTreeModel::refreshAll() {
  m_builtClip = m_document->currentClip();
  m_effective = m_document->effectiveSettings(m_builtClip);
  emitColumns(0, ColumnCount - 1, nullptr);  // every row may change (inheritance)
}

QModelIndex JointTreeModel::indexOfJoint(int joint) const {
  if (joint < 0 || std::size_t(joint) >= m_row.size()) return {};
  return createIndex(m_row[std::size_t(joint)], 0, quintptr(joint) + 1);
}

QModelIndex JointTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= ColumnCount) return {};
  if (!parent.isValid()) {
    if (std::size_t(row) >= m_roots.size()) return {};
    return createIndex(row, column, quintptr(m_roots[std::size_t(row)]) + 1);
  }
  if (parent.column() != 0) return {};
  const auto& kids = m_children[std::size_t(parent.internalId() - 1)];
  if (std::size_t(row) >= kids.size()) return {};
  return createIndex(row, column, quintptr(kids[std::size_t(row)]) + 1);
}

QModelIndex JointTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  const int joint = int(child.internalId() - 1);
  const int p = m_document->asset()->skeleton.parents[std::size_t(joint)];
  return p < 0 ? QModelIndex() : indexOfJoint(p);
}

int JointTreeModel::rowCount(const QModelIndex& parent) const {
  if (!parent.isValid()) return int(m_roots.size());
  if (parent.column() != 0) return 0;
  return int(m_children[std::size_t(parent.internalId() - 1)].size());
}

int JointTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant JointTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* names[] = {"Joint",     "Precision (cm)",  "Shell (cm)", "Pin",
                                "Max error", "Storage (R/T/S)", "LOD #"};
  static const char* tips[] = {"",
                               "Largest allowed object-space error on the shell (inherited values are dimmed)",
                               "Distance of the virtual vertices the error is measured at",
                               "Recompute against compressed ancestors",
                               "Largest error over the clip, against the precision",
                               "How rotation, translation and scale are stored",
                               "The joint's place in the pack's joint order: a level of detail of N joints keeps the "
                               "joints numbered below N (Edit > Joint order; docs/RUNTIME.md \"Levels of detail\")"};
  if (role == Qt::DisplayRole && section >= 0 && section < ColumnCount) return QString(names[section]);
  if (role == Qt::ToolTipRole && section >= 0 && section < ColumnCount) return QString(tips[section]);
  return {};
}

Qt::ItemFlags JointTreeModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (index.column() == Precision || index.column() == Shell) f |= Qt::ItemIsEditable;
  if (index.column() == Pinned) f |= Qt::ItemIsUserCheckable;
  return f;
}

QVariant JointTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !m_document->hasAsset()) return {};
  const int joint = int(index.internalId() - 1);
  const std::string& name = m_document->asset()->skeleton.names[std::size_t(joint)];
  if (role == JointRole) return joint;
  if (std::size_t(joint) >= m_effective.joints.size()) return {};
  const core::EffectiveJoint& e = m_effective.joints[std::size_t(joint)];
  const std::string clip = m_document->clipName(m_document->currentClip()).toStdString();
  const ShownResult shown = m_recompressor->current();
  const core::CompressedClip* compressed = shown.compressed();
  const core::JointReport* report = compressed && std::size_t(joint) < compressed->stats.joints.size()
                                        ? &compressed->stats.joints[std::size_t(joint)]
                                        : nullptr;
  const bool resultColumn = index.column() == MaxError || index.column() == Storage;
  const JointField field = index.column() == Shell    ? JointField::Shell
                           : index.column() == Pinned ? JointField::Pinned
                                                      : JointField::Precision;
  const bool own = (index.column() == Precision || index.column() == Shell || index.column() == Pinned) &&
                   core::hasOverride(m_document->settings(), m_scope, clip, name, field);

  switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
      switch (index.column()) {
        case Name: return QString::fromStdString(name);
        case Precision:
          return role == Qt::EditRole ? QVariant(double(e.precisionCm))
                                      : QVariant(QString::number(e.precisionCm, 'g', 4));
        case Shell:
          return role == Qt::EditRole ? QVariant(double(e.shellCm)) : QVariant(QString::number(e.shellCm, 'g', 4));
        case MaxError: return report ? formatCm(report->maxErrorCm) : QString("…");
        case Storage:
          if (!report) return {};
          return QString("%1 / %2 / %3%4")
              .arg(trackKindName(report->kinds[0]), trackKindName(report->kinds[1]), trackKindName(report->kinds[2]),
                   report->keys ? QString(" (%1 keys)").arg(report->keys) : QString());
        case Order: return joint;
        default: return {};
      }
    case Qt::CheckStateRole:
      return index.column() == Pinned ? QVariant(e.pinned ? Qt::Checked : Qt::Unchecked) : QVariant();
    case Qt::FontRole:
      if (own) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::ForegroundRole:
      if ((index.column() == Precision || index.column() == Shell) && !own) return QBrush(kInheritedColor);
      if (resultColumn && report && shown.stale) return QBrush(kStaleColor);
      if (index.column() == MaxError && report)
        return QBrush(errorColor(report->maxErrorCm / report->precisionCm).darker(130));
      return {};
    case Qt::BackgroundRole:
      if (index.column() == MaxError && report && !shown.stale) {
        QColor c = errorColor(report->maxErrorCm / report->precisionCm);
        c.setAlpha(70);
        return QBrush(c);
      }
      return {};
    case Qt::ToolTipRole:
      if (index.column() == Precision || index.column() == Shell)
        return own ? QString(m_scope == EditScope::AllClips ? "Set for this joint in every clip"
                                                            : "Set for this joint in this clip")
                   : QString("Inherited (from the parent joint, a wildcard rule, the clip or the defaults)");
      if (resultColumn && report && shown.stale) return kUpdatingTip;
      if (index.column() == MaxError && report)
        return QString("%1 of %2%3")
            .arg(formatCm(report->maxErrorCm), formatCm(report->precisionCm),
                 report->withinPrecision
                     ? QString()
                     : QString(" — the storage formats cannot reach this precision (float32 samples of every track "
                               "reach %1)")
                           .arg(formatCm(report->floorCm)));
      return {};
    case Qt::TextAlignmentRole:
      return index.column() == Name || index.column() == Storage ? QVariant()
                                                                 : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    default: return {};
  }
}

bool JointTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid()) return false;
  const int joint = int(index.internalId() - 1);
  if (index.column() == Pinned && role == Qt::CheckStateRole) {
    const bool pin = value.toInt() == Qt::Checked;
    m_document->setJointValue(m_scope, {joint}, JointField::Pinned, pin ? 1.f : 0.f);
    return true;
  }
  if ((index.column() == Precision || index.column() == Shell) && role == Qt::EditRole) {
    bool ok = false;
    const double v = value.toDouble(&ok);
    if (!ok || !(v > 0) || !std::isfinite(v)) return false;
    const JointField field = index.column() == Precision ? JointField::Precision : JointField::Shell;
    if (field == JointField::Precision && (v < core::kMinPrecisionCm || v > core::kMaxPrecisionCm)) return false;
    if (field == JointField::Shell && (v < core::kMinShellCm || v > core::kMaxShellCm)) return false;
    m_document->setJointValue(m_scope, {joint}, field, float(v), jointMergeKey({joint}, field, m_scope));
    return true;
  }
  return false;
}

}  // namespace animpack::widgets
