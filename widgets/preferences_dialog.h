#pragma once
// Edit > Preferences: the limits of the child process that imports files (its timeout and memory
// cap, core/io/isolated_import.h). Stored per user with QSettings, apart from the compression
// settings: they never enter a project, a settings file or a settings hash.

#include <QDialog>
#include <optional>

#include "core/io/isolated_import.h"

class QDoubleSpinBox;
class QSpinBox;

namespace animpack::widgets {

/// The stored import limits (QSettings keys import/timeout_s and import/memory_mb); the default
/// of any limit that is missing or out of range.
core::ImportLimits loadImportLimits();
void saveImportLimits(const core::ImportLimits& limits);

class PreferencesDialog : public QDialog {
  Q_OBJECT
 public:
  PreferencesDialog(const core::ImportLimits& limits, QWidget* parent = nullptr);
  core::ImportLimits importLimits() const;

 private:
  QDoubleSpinBox* m_timeout;
  QSpinBox* m_memory;
};

/// Runs the dialog over `parent` with the stored limits; the limits chosen (already saved), or
/// nullopt when the user cancels.
std::optional<core::ImportLimits> askPreferences(QWidget* parent);

}  // namespace animpack::widgets
