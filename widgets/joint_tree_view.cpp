#include "widgets/joint_tree_view.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace animpack::widgets {

JointTreeView::JointTreeView(ClipDocument* document, Recompressor* recompressor, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_model(new JointTreeModel(document, recompressor, this)),
      m_proxy(new QSortFilterProxyModel(this)),
      m_tree(new QTreeView(this)),
      m_search(new QLineEdit(this)),
      m_scope(new QComboBox(this)),
      m_precision(new QDoubleSpinBox(this)),
      m_shell(new QDoubleSpinBox(this)) {
  m_proxy->setSourceModel(m_model);
  m_proxy->setRecursiveFilteringEnabled(true);
  m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  m_search->setPlaceholderText("Search joints");
  m_search->setClearButtonEnabled(true);
  connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
    m_proxy->setFilterFixedString(text);
    if (!text.isEmpty()) m_tree->expandAll();
  });
  m_scope->addItem("Edit: every clip");
  m_scope->addItem("Edit: this clip only");
  m_scope->setToolTip("Where edits go: the joint rules of every clip, or the current clip's override");
  connect(m_scope, &QComboBox::currentIndexChanged, this,
          [this](int i) { m_model->setScope(i == 0 ? EditScope::AllClips : EditScope::CurrentClip); });

  m_tree->setModel(m_proxy);
  m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                          QAbstractItemView::SelectedClicked);
  m_tree->setUniformRowHeights(true);
  m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  // Deep rigs make the name column wide: indent less, and show the error right after the name so it
  // stays in view in a narrow dock.
  m_tree->setIndentation(12);
  m_tree->header()->moveSection(JointTreeModel::MaxError, 1);
  m_tree->setContextMenuPolicy(Qt::CustomContextMenu);

  constexpr int kDecimals = 4;
  constexpr double kSmallestShown = 1e-4;  // the smallest value four decimals display
  for (QDoubleSpinBox* box : {m_precision, m_shell}) {
    box->setDecimals(kDecimals);
    box->setSuffix(" cm");
  }
  // The ranges the settings accept (core/compress/settings.h), within what the boxes can show. Each
  // box keeps the width of its everyday values (`wideAs`) so the dock stays narrow; the largest
  // values still fit while typed.
  const auto setRange = [](QDoubleSpinBox* box, double min, double max, double wideAs) {
    box->setRange(min, wideAs);
    const int width = box->sizeHint().width();
    box->setRange(min, max);
    box->setFixedWidth(width);
  };
  setRange(m_precision, std::max<double>(core::kMinPrecisionCm, kSmallestShown), core::kMaxPrecisionCm, 100);
  m_precision->setSingleStep(0.001);
  m_precision->setValue(0.01);
  m_precision->setToolTip("Precision to set on the selected joints");
  setRange(m_shell, std::max<double>(core::kMinShellCm, kSmallestShown), core::kMaxShellCm, 10000);
  m_shell->setSingleStep(0.5);
  m_shell->setValue(3);
  m_shell->setToolTip("Shell distance to set on the selected joints");
  auto* setPrecision = new QPushButton("Set", this);
  auto* setShell = new QPushButton("Set", this);
  auto* pin = new QPushButton("Pin", this);
  auto* unpin = new QPushButton("Unpin", this);
  connect(setPrecision, &QPushButton::clicked, this, &JointTreeView::applyPrecisionToSelection);
  connect(setShell, &QPushButton::clicked, this, &JointTreeView::applyShellToSelection);
  connect(pin, &QPushButton::clicked, this, [this] { setPinnedOnSelection(true); });
  connect(unpin, &QPushButton::clicked, this, [this] { setPinnedOnSelection(false); });

  auto* top = new QHBoxLayout;
  top->addWidget(m_search, 1);
  top->addWidget(m_scope);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel("Precision", this));
  bar->addWidget(m_precision);
  bar->addWidget(setPrecision);
  bar->addSpacing(8);
  bar->addWidget(new QLabel("Shell", this));
  bar->addWidget(m_shell);
  bar->addWidget(setShell);
  bar->addStretch();
  auto* pins = new QHBoxLayout;
  pins->addWidget(pin);
  pins->addWidget(unpin);
  pins->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(top);
  layout->addWidget(m_tree);
  layout->addLayout(bar);  // two rows so the dock can stay narrow
  layout->addLayout(pins);

  connect(m_tree, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
    if (selection().empty()) return;
    QMenu menu(this);
    menu.addAction("Apply to subtree", this, &JointTreeView::applyToSubtree);
    menu.addAction("Reset to inherited", this, &JointTreeView::resetSelection);
    QAction* derive = menu.addAction("Derive shell distance from the mesh", this, &JointTreeView::deriveShellFromMesh);
    derive->setEnabled(m_document->hasAsset() && !m_document->asset()->meshes.empty());
    // The root-motion joint of the current clip (settings root_joint), for rigs whose travel is not
    // on the first translating joint (a ground bone, a hips joint below an IK helper).
    const std::vector<int> joints = selection();
    QAction* root = menu.addAction("Extract root motion from this joint", this, [this, joints] {
      m_document->setRootMotionJoint(
          QString::fromStdString(m_document->asset()->skeleton.names[std::size_t(joints.front())]));
    });
    root->setEnabled(joints.size() == 1 && m_document->currentClip() >= 0);
    menu.exec(m_tree->viewport()->mapToGlobal(pos));
  });
  connect(m_tree->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    if (m_syncing) return;
    m_syncing = true;
    m_document->setSelectedJoints(selection());
    m_syncing = false;
  });
  connect(document, &ClipDocument::selectedJointsChanged, this, &JointTreeView::syncSelectionFromDocument);
  connect(document, &ClipDocument::assetChanged, this, [this] { m_tree->expandToDepth(2); });
  connect(m_model, &QAbstractItemModel::modelReset, this, [this] { m_tree->expandToDepth(2); });
}

std::vector<int> JointTreeView::selection() const {
  std::vector<int> joints;
  for (const QModelIndex& index : m_tree->selectionModel()->selectedRows(0))
    joints.push_back(m_proxy->mapToSource(index).data(JointTreeModel::JointRole).toInt());
  std::sort(joints.begin(), joints.end());
  return joints;
}

void JointTreeView::syncSelectionFromDocument() {
  if (m_syncing) return;
  m_syncing = true;
  QItemSelection sel;
  for (int joint : m_document->selectedJoints()) {
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexOfJoint(joint));
    if (!index.isValid()) continue;
    sel.select(index, index.siblingAtColumn(JointTreeModel::ColumnCount - 1));
    m_tree->scrollTo(index);
  }
  m_tree->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  m_syncing = false;
}

void JointTreeView::applyPrecisionToSelection() {
  m_document->setJointValue(m_model->scope(), selection(), JointField::Precision, float(m_precision->value()));
}

void JointTreeView::applyShellToSelection() {
  m_document->setJointValue(m_model->scope(), selection(), JointField::Shell, float(m_shell->value()));
}

void JointTreeView::setPinnedOnSelection(bool pinned) {
  m_document->setJointValue(m_model->scope(), selection(), JointField::Pinned, pinned ? 1.f : 0.f);
}

void JointTreeView::applyToSubtree() { m_document->applyToSubtree(m_model->scope(), selection()); }

void JointTreeView::resetSelection() { m_document->resetJoints(m_model->scope(), selection()); }

void JointTreeView::deriveShellFromMesh() { m_document->deriveShellsFromMesh(m_model->scope(), selection()); }

}  // namespace animpack::widgets
