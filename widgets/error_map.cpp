#include "widgets/error_map.h"

#include <qcustomplot.h>

#include <QVBoxLayout>
#include <cmath>

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
  m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
  m_map->data()->setSize(frames, joints);
  m_map->data()->setRange(QCPRange(0, std::max(1, frames - 1)), QCPRange(0, std::max(1, joints - 1)));
  for (int f = 0; f < frames; ++f)
    for (int j = 0; j < joints; ++j)
      m_map->data()->setCell(f, j,
                             core::intervalErrorCm(stats, std::size_t(joints), std::size_t(f), std::size_t(j)) /
                                 stats.joints[std::size_t(j)].precisionCm);
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
  // Joint names on the left, as many as fit.
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  const int step = std::max(1, (joints + 15) / 16);
  for (int j = 0; j < joints; j += step) ticker->addTick(j, QString::fromStdString(sk.names[std::size_t(j)]));
  m_plot->yAxis->setTicker(ticker);
  m_plot->yAxis->setTickLabelFont(QFont(font().family(), 7));
  m_plot->xAxis->setRange(-0.5, frames - 0.5);
  m_plot->yAxis->setRange(-0.5, joints - 0.5);
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

void ErrorMap::clickAt(const QPoint& position) {
  if (!m_map || !m_plot->axisRect()->rect().contains(position)) return;
  const int frame = int(std::lround(m_plot->xAxis->pixelToCoord(position.x())));
  const int joint = int(std::lround(m_plot->yAxis->pixelToCoord(position.y())));
  const auto& raw = m_document->rawClip(m_document->currentClip());
  if (frame < 0 || joint < 0 || frame >= int(raw.frameCount) || joint >= int(raw.jointCount)) return;
  m_document->setSelectedJoints({joint});
  m_document->setCurrentTime(double(frame) / raw.sampleRate);
}

}  // namespace animpack::widgets
