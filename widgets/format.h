#pragma once
// Number formatting shared by the studio's panels.

#include <QColor>
#include <QString>
#include <cstdint>

namespace animpack::widgets {

/// "812 B", "14.2 KB", "3.1 MB".
QString formatBytes(std::uint64_t bytes);
/// "0.0071 cm" with enough digits for the precisions artists use.
QString formatCm(float cm);
/// Error colour from green (0) through yellow (0.5) to red (>= 1) for error / precision.
QColor errorColor(float ratio);

}  // namespace animpack::widgets
