#include "widgets/export_dialog.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardItemModel>

#include "widgets/document/project_file.h"

namespace animpack::widgets {

std::optional<core::ExportOptions> askExportOptions(QWidget* parent, const ClipDocument& document,
                                                    const std::vector<int>& selectedClips, const QString& projectPath) {
  QDialog dialog(parent);
  dialog.setWindowTitle("Export pack");
  auto* form = new QFormLayout(&dialog);
  const QFileInfo source(projectPath.isEmpty() ? document.sourcePath() : projectPath);
  auto* output = new QLineEdit(source.dir().filePath(source.completeBaseName() + ".anpk"));
  auto* browse = new QPushButton("Browse...");
  auto* row = new QHBoxLayout;
  row->addWidget(output, 1);
  row->addWidget(browse);
  form->addRow("Pack", row);
  // Which clips: all, the approved ones, or those selected in the Clips panel.
  std::vector<std::string> all, approved, selected;
  for (int c = 0; c < document.clipCount(); ++c) {
    all.push_back(document.clipName(c).toStdString());
    if (document.approval(c) == core::ApprovalState::Approved) approved.push_back(all.back());
  }
  for (int c : selectedClips) selected.push_back(document.clipName(c).toStdString());
  auto* which = new QComboBox;
  which->addItem(QString("All clips (%1)").arg(all.size()));
  which->addItem(QString("Approved clips (%1)").arg(approved.size()));
  which->addItem(QString("Clips selected in the Clips panel (%1)").arg(selected.size()));
  auto* items = qobject_cast<QStandardItemModel*>(which->model());
  items->item(1)->setEnabled(!approved.empty());
  items->item(2)->setEnabled(!selected.empty());
  which->setCurrentIndex(approved.empty() ? 0 : 1);
  form->addRow("Clips", which);
  auto* report = new QComboBox;
  report->addItems({"None", "JSON beside the pack", "CSV beside the pack"});
  report->setCurrentIndex(1);
  form->addRow("Report", report);
  auto* budget = new QDoubleSpinBox;
  budget->setRange(0, 1e7);
  budget->setSuffix(" KiB");
  budget->setSpecialValueText("no budget");
  budget->setToolTip("Flag the pack when it is larger than this");
  budget->setValue(document.budgetKib().value_or(0));
  auto* budgetKind = new QComboBox;
  budgetKind->addItems({"resident (the pack and what opening it derives)", "pack file"});
  budgetKind->setCurrentIndex(document.budgetKind() == core::BudgetKind::Resident ? 0 : 1);
  form->addRow("Size budget", budget);
  form->addRow("Budget counts", budgetKind);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText("Export");
  form->addRow(buttons);
  QObject::connect(browse, &QPushButton::clicked, &dialog, [&] {
    const QString p = QFileDialog::getSaveFileName(&dialog, "Pack file", output->text(), "animpack packs (*.anpk)",
                                                   nullptr, QFileDialog::DontConfirmOverwrite);
    if (!p.isEmpty()) output->setText(p);
  });
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
    const QString path = output->text().trimmed();
    if (path.isEmpty()) return;
    if (QFileInfo::exists(path) &&
        QMessageBox::question(&dialog, "Export pack", QString("%1 exists. Replace it?").arg(path)) != QMessageBox::Yes)
      return;
    dialog.accept();
  });
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;

  core::ExportOptions options = documentExportOptions(document);
  options.batch.clips = which->currentIndex() == 1   ? approved
                        : which->currentIndex() == 2 ? selected
                                                     : std::vector<std::string>{};
  options.output = output->text().trimmed().toStdString();
  if (budget->value() > 0) options.budgetKb = budget->value();
  options.budgetKind = budgetKind->currentIndex() == 0 ? core::BudgetKind::Resident : core::BudgetKind::Pack;
  if (report->currentIndex() > 0) {
    std::filesystem::path r = options.output;
    r.replace_extension(report->currentIndex() == 1 ? ".report.json" : ".report.csv");
    options.report = r;
  }
  return options;
}

}  // namespace animpack::widgets
