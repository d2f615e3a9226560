#include "widgets/error_map.h"

#include <qcustomplot.h>

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/compress/decoded_clip.h"  // curveErrorsCm
#include "core/compress/error_table.h"
#include "widgets/format.h"

namespace animpack::widgets {

ErrorMap::ErrorMap(ClipDocument* document, Recompressor* recompressor, QWidget* parent)
    : QWidget(parent), m_document(document), m_recompressor(recompressor), m_plot(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(m_plot);
  m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  m_plot->xAxis->setLabel("frame");
  m_plot->yAxis->setRangeReversed(true);
  connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) clickAt(e->pos());
  });
  connect(recompressor, &Recompressor::currentChanged, this, &ErrorMap::rebuild);
  connect(document, &ClipDocument::currentTimeChanged, this, &ErrorMap::updatePlayhead);
  rebuild();
}

void ErrorMap::rebuild() {
  m_plot->clearPlottables();
  m_plot->clearItems();
  for (int i = m_plot->plotLayout()->elementCount() - 1; i > 0; --i)
    if (qobject_cast<QCPColorScale*>(m_plot->plotLayout()->elementAt(i))) m_plot->plotLayout()->removeAt(i);
  m_plot->plotLayout()->simplify();
  m_map = nullptr;
  m_playhead = nullptr;
  m_curveRows.clear();
  const int clip = m_document->currentClip();
  const ShownResult shown = m_recompressor->current();
  if (!m_document->hasAsset() || clip < 0 || !shown.compressed()) {
    m_plot->replot();
    return;
  }
  const core::CompressedClip& compressed = *shown.compressed();
  const core::CompressionStats& stats = compressed.stats;
  const core::Skeleton& sk = m_document->asset()->skeleton;
  const int joints = int(sk.jointCount());
  const int frames = int(compressed.frameCount);
  // Below the joints, a row for each morph target this clip animates.
  const core::ImportedAsset& asset = *m_document->asset();
  const core::RawClip& raw = m_document->rawClip(clip);
  std::vector<float> curveErrors;
  if (!asset.curves.empty() && raw.frameCount > 0) {
    for (const core::CurveKeys& k : raw.curves)
      if (k.curve < asset.curves.size() && k.curve < stats.curves.curves.size()) m_curveRows.push_back(int(k.curve));
    std::sort(m_curveRows.begin(), m_curveRows.end());
    m_curveRows.erase(std::unique(m_curveRows.begin(), m_curveRows.end()), m_curveRows.end());
    if (!m_curveRows.empty()) curveErrors = core::curveErrorsCm(compressed, asset, raw);
    if (curveErrors.empty()) m_curveRows.clear();
  }
  const int rows = joints + int(m_curveRows.size());
  m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
  m_map->data()->setSize(frames, rows);
  m_map->data()->setRange(QCPRange(0, std::max(1, frames - 1)), QCPRange(0, std::max(1, rows - 1)));
  for (int f = 0; f < frames; ++f)
    for (int j = 0; j < joints; ++j)
      m_map->data()->setCell(f, j,
                             core::intervalErrorCm(stats, std::size_t(joints), std::size_t(f), std::size_t(j)) /
                                 stats.joints[std::size_t(j)].precisionCm);
  // Curve errors run over the source's frames (a loop may have dropped its repeated last frame).
  const std::size_t samples = 2 * std::size_t(raw.frameCount) - 1;
  for (std::size_t r = 0; r < m_curveRows.size(); ++r) {
    const auto c = std::size_t(m_curveRows[r]);
    const float* e = curveErrors.data() + c * samples;
    for (std::size_t f = 0; f < std::min(std::size_t(frames), std::size_t(raw.frameCount)); ++f) {
      const float worst = 2 * f + 1 < samples ? std::max(e[2 * f], e[2 * f + 1]) : e[2 * f];
      m_map->data()->setCell(int(f), joints + int(r), worst / stats.curves.curves[c].precisionCm);
    }
  }
  QCPColorGradient gradient;
  for (int i = 0; i <= 10; ++i) {
    const QColor c = errorColor(float(i) / 10.f * 1.25f);
    gradient.setColorStopAt(i / 10.0, shown.stale ? dimmed(c) : c);
  }
  m_map->setInterpolate(false);
  auto* scale = new QCPColorScale(m_plot);
  m_plot->plotLayout()->addElement(0, 1, scale);
  scale->setType(QCPAxis::atRight);
  scale->axis()->setLabel(shown.stale ? "error / precision (" + kUpdatingText + ")" : QString("error / precision"));
  m_map->setColorScale(scale);  // the map takes the scale's gradient and range: set them on the scale
  scale->setGradient(gradient);
  scale->setDataRange(QCPRange(0, 1.25));
  // Joint and target names on the left, as many as fit.
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  const int step = std::max(1, (rows + 15) / 16);
  for (int j = 0; j < rows; j += step)
    ticker->addTick(
        j, QString::fromStdString(j < joints ? sk.names[std::size_t(j)]
                                             : asset.curves[std::size_t(m_curveRows[std::size_t(j - joints)])].name));
  m_plot->yAxis->setTicker(ticker);
  m_plot->yAxis->setTickLabelFont(QFont(font().family(), 7));
  m_plot->xAxis->setRange(-0.5, frames - 0.5);
  m_plot->yAxis->setRange(-0.5, rows - 0.5);
  m_playhead = new QCPItemStraightLine(m_plot);
  m_playhead->setPen(QPen(QColor(255, 140, 0), 1.5));
  updatePlayhead();
}

void ErrorMap::updatePlayhead() {
  if (!m_playhead || m_document->currentClip() < 0) return;
  const auto& raw = m_document->rawClip(m_document->currentClip());
  const double frame = m_document->currentTime() * raw.sampleRate;
  m_playhead->point1->setCoords(frame, 0);
  m_playhead->point2->setCoords(frame, 1);
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

double ErrorMap::ratioAt(int joint, int frame) const {
  if (!m_map) return std::nan("");
  return m_map->data()->cell(frame, joint);
}

double ErrorMap::curveRatioAt(int curve, int frame) const {
  const auto row = std::find(m_curveRows.begin(), m_curveRows.end(), curve);
  if (!m_map || row == m_curveRows.end()) return std::nan("");
  return m_map->data()->cell(frame, m_document->asset()->skeleton.jointCount() + int(row - m_curveRows.begin()));
}

void ErrorMap::clickAt(const QPoint& position) {
  if (!m_map || !m_plot->axisRect()->rect().contains(position)) return;
  const int frame = int(std::lround(m_plot->xAxis->pixelToCoord(position.x())));
  const int row = int(std::lround(m_plot->yAxis->pixelToCoord(position.y())));
  const auto& raw = m_document->rawClip(m_document->currentClip());
  const int joints = int(raw.jointCount);
  if (frame < 0 || row < 0 || frame >= int(raw.frameCount) || row >= joints + int(m_curveRows.size())) return;
  if (row < joints) m_document->setSelectedJoints({row});
  else m_document->setSelectedCurves({m_curveRows[std::size_t(row - joints)]});
  m_document->setCurrentTime(double(frame) / raw.sampleRate);
}

}  // namespace animpack::widgets
