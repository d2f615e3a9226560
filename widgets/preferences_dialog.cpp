#include "widgets/preferences_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace animpack::widgets {
namespace {

const char* const kTimeoutKey = "import/timeout_s";
const char* const kMemoryKey = "import/memory_mb";

}  // namespace

core::ImportLimits loadImportLimits() {
  const QSettings settings;
  const core::ImportLimits defaults;
  core::ImportLimits stored;
  stored.timeoutS = settings.value(kTimeoutKey, defaults.timeoutS).toDouble();
  if (!core::ImportLimits{stored.timeoutS, defaults.memoryMb}.validate()) stored.timeoutS = defaults.timeoutS;
  stored.memoryMb = settings.value(kMemoryKey, qulonglong(defaults.memoryMb)).toULongLong();
  if (!core::ImportLimits{defaults.timeoutS, stored.memoryMb}.validate()) stored.memoryMb = defaults.memoryMb;
  return stored;
}

void saveImportLimits(const core::ImportLimits& limits) {
  QSettings settings;
  settings.setValue(kTimeoutKey, limits.timeoutS);
  settings.setValue(kMemoryKey, qulonglong(limits.memoryMb));
}

PreferencesDialog::PreferencesDialog(const core::ImportLimits& limits, QWidget* parent) : QDialog(parent) {
  setWindowTitle("Preferences");
  m_timeout = new QDoubleSpinBox(this);
  m_timeout->setObjectName("importTimeout");
  m_timeout->setDecimals(1);
  m_timeout->setRange(0.1, core::ImportLimits::kMaxTimeoutS);
  m_timeout->setSuffix(" s");
  m_timeout->setValue(limits.timeoutS);
  m_memory = new QSpinBox(this);
  m_memory->setObjectName("importMemory");
  m_memory->setRange(int(core::ImportLimits::kMinMemoryMb), int(core::ImportLimits::kMaxMemoryMb));
  m_memory->setSingleStep(256);
  m_memory->setSuffix(" MiB");
  m_memory->setValue(int(limits.memoryMb));

  auto* form = new QFormLayout;
  form->addRow("Import &timeout:", m_timeout);
  form->addRow("Import &memory cap:", m_memory);
  QString about =
      "Files are imported by Assimp in a separate process, so a file that crashes it cannot take your unsaved work "
      "down. An import that takes longer than the timeout or needs more memory than the cap is stopped and the file "
      "fails to open with a message saying so. These limits apply from the next file you open or export; they are "
      "not compression settings (the CLI's --import-timeout and --import-memory).";
  if (!core::importMemoryCapAvailable()) {
    m_memory->setEnabled(false);
    about += "\n\nThis is a sanitizer build: the memory cap is not applied.";
  }
  auto* note = new QLabel(about, this);
  note->setWordWrap(true);
  auto* buttons =
      new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, [this] {
    const core::ImportLimits defaults;
    m_timeout->setValue(defaults.timeoutS);
    m_memory->setValue(int(defaults.memoryMb));
  });
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note);
  layout->addWidget(buttons);
  setMinimumWidth(460);
}

core::ImportLimits PreferencesDialog::importLimits() const {
  return {m_timeout->value(), std::uint64_t(m_memory->value())};
}

std::optional<core::ImportLimits> askPreferences(QWidget* parent) {
  PreferencesDialog dialog(loadImportLimits(), parent);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;
  saveImportLimits(dialog.importLimits());
  return dialog.importLimits();
}

}  // namespace animpack::widgets
