#include "viewport/legend_bar.h"

#include <QLinearGradient>
#include <QPainter>
#include <vector>

#include "viewport/error_ramp.h"
#include "viewport/scene_style.h"

namespace animpack::viewport {

namespace {

/// One legend item: a swatch or a ramp, with a caption and optional end labels.
struct Item {
  QString caption;
  QColor swatch;      // valid: a swatch
  bool ramp = false;  // a green-yellow-red ramp
  QString low, high;  // ramp end labels
};

QString formatCm(float cm) { return QString::number(double(cm), 'g', 3) + " cm"; }

std::vector<Item> items(const LegendState& s) {
  std::vector<Item> out;
  const ViewOptions& o = s.options;
  if (s.blendPreview) {
    out.push_back({"left: naive blend", toQColor(SceneStyle::kBlendMesh), false, {}, {}});
    out.push_back({"right: decomposed blend", toQColor(SceneStyle::kBlendMesh), false, {}, {}});
  } else {
    // Without meshes the figures are told apart by their bone colours.
    const bool meshes = s.hasMesh && o.showMesh;
    if (o.showOriginal)
      out.push_back(
          {"original", toQColor(meshes ? SceneStyle::kOriginalMesh : SceneStyle::kOriginalBones), false, {}, {}});
    if (o.showCompressed) {
      const QString how = o.compareMode == CompareMode::SideBySide ? "compressed (right)"
                          : !meshes                                ? "compressed"
                          : o.ghostStyle == GhostStyle::Wireframe  ? "compressed (wireframe)"
                                                                   : "compressed (ghost)";
      out.push_back(
          {how, toQColor(meshes ? SceneStyle::kCompressedMesh : SceneStyle::kCompressedBones), false, {}, {}});
    }
  }
  if (o.showSkeleton && s.hasJointErrors && !s.blendPreview)
    out.push_back({"joint error / precision", {}, true, "0", "\u22651"});
  if (o.vertexErrorColoring && o.showCompressed && o.showMesh && s.hasMesh && !s.blendPreview)
    out.push_back({"vertex error", {}, true, "0", formatCm(s.vertexScaleCm)});
  return out;
}

bool showsMaxError(const LegendState& s) {
  return !s.blendPreview && s.hasMesh && s.options.showMesh && s.options.showCompressed && s.options.showOriginal;
}

/// Said first while the compressed side is of older settings (the other panels' "updating"); the
/// tool tip says what it means.
constexpr const char* kUpdating = "updating\u2026";
constexpr const char* kUpdatingTip =
    "The compressed pose and the error colours are those of the previous settings until the new result arrives.";

QString legendText(const LegendState& s) {
  QStringList parts;
  if (s.updating) parts << kUpdating;
  for (const Item& item : items(s))
    parts << (item.ramp ? QString("%1: %2 .. %3").arg(item.caption, item.low, item.high) : item.caption);
  if (showsMaxError(s)) parts << QString("max vertex error %1").arg(formatCm(s.maxVertexErrorCm));
  return parts.join(" | ");
}

constexpr int kSwatch = 12, kRampWidth = 70, kGap = 14, kPad = 4;

}  // namespace

LegendBar::LegendBar(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  setAutoFillBackground(true);
}

QSize LegendBar::sizeHint() const { return {400, fontMetrics().height() + 2 * kPad + 2}; }

QSize LegendBar::minimumSizeHint() const { return {50, sizeHint().height()}; }

void LegendBar::setState(const LegendState& state) {
  const bool same = legendText(state) == legendText(m_state);
  m_state = state;
  setToolTip(state.updating ? kUpdatingTip : "");
  if (!same) update();
}

QString LegendBar::text() const { return legendText(m_state); }

void LegendBar::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QFontMetrics fm = fontMetrics();
  const int mid = height() / 2;
  int x = kPad;
  if (m_state.updating) {
    QFont italic = p.font();
    italic.setItalic(true);
    p.save();
    p.setFont(italic);
    p.setPen(QColor(150, 110, 20));
    const QString t = kUpdating;
    p.drawText(x, mid + fm.ascent() / 2 - 1, t);
    x += QFontMetrics(italic).horizontalAdvance(t) + kGap;
    p.restore();
  }
  for (const Item& item : items(m_state)) {
    if (item.swatch.isValid()) {
      p.fillRect(QRect(x, mid - kSwatch / 2, kSwatch, kSwatch), item.swatch);
      x += kSwatch + 4;
      p.drawText(x, mid + fm.ascent() / 2 - 1, item.caption);
      x += fm.horizontalAdvance(item.caption) + kGap;
      continue;
    }
    const QString caption = item.caption + ": " + item.low;
    p.drawText(x, mid + fm.ascent() / 2 - 1, caption);
    x += fm.horizontalAdvance(caption) + 4;
    QLinearGradient g(x, 0, x + kRampWidth, 0);
    for (const float t : {0.f, 0.5f, 1.f}) g.setColorAt(t, toQColor(errorRampColor(t)));
    p.fillRect(QRect(x, mid - kSwatch / 2, kRampWidth, kSwatch), g);
    x += kRampWidth + 4;
    p.drawText(x, mid + fm.ascent() / 2 - 1, item.high);
    x += fm.horizontalAdvance(item.high) + kGap;
  }
  if (showsMaxError(m_state)) {
    const QString t = QString("max vertex error %1").arg(formatCm(m_state.maxVertexErrorCm));
    p.drawText(std::max(x, width() - kPad - fm.horizontalAdvance(t)), mid + fm.ascent() / 2 - 1, t);
  }
}

}  // namespace animpack::viewport
