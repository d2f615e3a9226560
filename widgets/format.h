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
/// `color` faded towards the background: how every panel draws a stale result (one being updated).
QColor dimmed(const QColor& color);

/// Text of inherited (not own) settings values.
inline const QColor kInheritedColor{140, 140, 140};
/// Text of values from a stale result.
inline const QColor kStaleColor{150, 150, 150};
/// The mark every panel puts on a stale result.
inline const QString kUpdatingText = QStringLiteral("updating…");
/// The tooltip of a value from a stale result.
inline const QString kUpdatingTip = QStringLiteral("From the previous settings: updating…");

}  // namespace animpack::widgets
