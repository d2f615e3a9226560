#include "widgets/format.h"

#include <algorithm>
#include <cmath>

namespace animpack::widgets {

QString formatBytes(std::uint64_t bytes) {
  if (bytes >= 10ull * 1024 * 1024) return QString("%1 MB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
  if (bytes >= 10ull * 1024) return QString("%1 KB").arg(double(bytes) / 1024.0, 0, 'f', 1);
  return QString("%1 B").arg(bytes);
}

QString formatCm(float cm) {
  if (cm == 0.f) return "0 cm";
  const int digits = std::clamp(3 - int(std::floor(std::log10(std::fabs(cm)))), 1, 7);
  return QString("%1 cm").arg(double(cm), 0, 'f', digits);
}

QColor errorColor(float ratio) {
  const float r = std::clamp(ratio, 0.f, 1.f);
  // green (40,170,60) -> yellow (230,200,40) -> red (215,45,35)
  auto mix = [](int a, int b, float t) { return int(std::lround(float(a) + float(b - a) * t)); };
  if (r < 0.5f) {
    const float t = r / 0.5f;
    return QColor(mix(40, 230, t), mix(170, 200, t), mix(60, 40, t));
  }
  const float t = (r - 0.5f) / 0.5f;
  return QColor(mix(230, 215, t), mix(200, 45, t), mix(40, 35, t));
}

QColor dimmed(const QColor& color) {
  // Halfway to a light grey: still readable, clearly not the newest value.
  const QColor grey(225, 225, 225);
  return QColor((color.red() + grey.red()) / 2, (color.green() + grey.green()) / 2, (color.blue() + grey.blue()) / 2,
                color.alpha());
}

}  // namespace animpack::widgets
