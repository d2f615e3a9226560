#include "widgets/stats_panel.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>
#include <limits>
#include <numeric>

#include "core/compress/clip_sizes.h"
#include "core/compress/settings.h"
#include "widgets/document/clip_job.h"
#include "widgets/format.h"

namespace animpack::widgets {

StatsPanel::StatsPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_recompressor(recompressor),
      m_text(new QLabel(this)),
      m_worst(new QLabel(this)),
      m_skin(new QLabel(this)),
      m_plot(new QCustomPlot(this)),
      m_sweepButton(new QPushButton("Size vs error sweep", this)) {
  m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_text->setWordWrap(true);
  m_worst->setWordWrap(true);
  m_worst->setTextFormat(Qt::RichText);
  connect(m_worst, &QLabel::linkActivated, this, [this](const QString& link) {
    const QStringList parts = link.split(':');  // joint:frame
    if (parts.size() != 2 || m_document->currentClip() < 0) return;
    m_document->setSelectedJoints({parts[0].toInt()});
    m_document->setCurrentTime(parts[1].toDouble() / m_document->rawClip(m_document->currentClip()).sampleRate);
  });
  m_skin->setWordWrap(true);
  m_skin->setTextFormat(Qt::RichText);
  m_skin->setVisible(false);
  connect(m_skin, &QLabel::linkActivated, this, &StatsPanel::deriveShellsFromMesh);
  m_sweepButton->setToolTip("Compress this clip at precisions around the current one and plot size against error");
  connect(m_sweepButton, &QPushButton::clicked, this, &StatsPanel::startSweep);
  m_plot->setMinimumHeight(160);
  m_plot->xAxis->setLabel("precision (cm)");
  m_plot->yAxis->setLabel("bytes");
  m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
  m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
  m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
  m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
  connect(m_plot, &QCustomPlot::plottableClick, this,
          [this](QCPAbstractPlottable*, int index, QMouseEvent*) { applySweepPoint(index); });
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(m_text);
  layout->addWidget(m_worst);
  layout->addWidget(m_skin);
  layout->addWidget(m_sweepButton);
  layout->addWidget(m_plot, 1);
  connect(&m_watcher, &QFutureWatcher<std::vector<SweepPoint>>::finished, this, [this] {
    m_sweepButton->setEnabled(true);
    if (m_cancel && m_cancel->load()) return;
    m_sweep = m_watcher.result();
    plotSweep();
    emit sweepFinished();
  });
  // A sweep belongs to one clip; the text follows the current result (which covers new clips too).
  auto clearSweep = [this] {
    if (m_cancel) m_cancel->store(true);
    m_sweep.clear();
    plotSweep();
  };
  connect(document, &ClipDocument::assetChanged, this, clearSweep);
  connect(document, &ClipDocument::currentClipChanged, this, clearSweep);
  connect(recompressor, &Recompressor::currentChanged, this, &StatsPanel::refresh);
  refresh();
}

namespace {

/// ", loops" and the seam: the jump from the last frame to the first, and whether the repeated
/// last frame was dropped (the timeline then wraps through the interpolation to frame 0).
QString loopText(const core::CompressedClip& c) {
  if (!c.loop) return {};
  QString t = QString(", loops (seam %1%2)").arg(formatCm(c.stats.seamErrorCm));
  return t.arg(c.droppedLastFrame ? ", repeated last frame dropped" : c.wrap ? ", wraps to frame 0" : "");
}

/// Dims a label's text while its result is stale.
void setStale(QLabel* label, bool stale) {
  QPalette p = label->palette();
  p.setColor(QPalette::WindowText, stale ? dimmed(label->parentWidget()->palette().color(QPalette::WindowText))
                                         : label->parentWidget()->palette().color(QPalette::WindowText));
  label->setPalette(p);
}

}  // namespace

StatsPanel::~StatsPanel() {
  if (m_cancel) m_cancel->store(true);
  m_watcher.waitForFinished();
}

void StatsPanel::refresh() {
  const int clip = m_document->currentClip();
  const ShownResult shown = m_recompressor->current();
  if (!m_document->hasAsset() || clip < 0) {
    m_text->setText("No clip.");
    m_worst->clear();
    m_skin->hide();
    return;
  }
  if (!shown.compressed()) {
    m_text->setText(QString("<b>%1</b><br>compressing…").arg(m_document->clipName(clip).toHtmlEscaped()));
    m_worst->clear();
    m_skin->hide();
    return;
  }
  const core::CompressedClip& c = *shown.compressed();
  const core::CompressionStats& s = c.stats;
  const std::uint64_t packed = core::packedClipBytes(c);
  QString text = QString("<b>%1</b> — %2 frames at %3 Hz%4%5<br>")
                     .arg(m_document->clipName(clip).toHtmlEscaped())
                     .arg(c.frameCount)
                     .arg(c.sampleRate, 0, 'g', 4)
                     .arg(loopText(c))
                     .arg(shown.stale ? " · <i>" + kUpdatingText + "</i>" : QString());
  text += QString("raw %1 → compressed %2 (<b>%3:1</b>), %4 resident once its pack is opened<br>")
              .arg(formatBytes(s.rawBytes), formatBytes(packed))
              .arg(double(s.rawBytes) / double(packed), 0, 'f', 2)
              .arg(formatBytes(core::residentClipBytes(c)));
  text += QString("tracks: %1 default, %2 constant, %3 keyed (%4 keys), %5 uniform<br>")
              .arg(s.defaultTracks)
              .arg(s.constantTracks)
              .arg(s.keyedTracks)
              .arg(s.keys)
              .arg(s.uniformTracks);
  text += QString("max error %1 · p99 %2 · %3<br>")
              .arg(formatCm(s.maxErrorCm), formatCm(s.p99ErrorCm),
                   s.withinPrecision ? "<span style='color:#1e8232'>every joint within precision</span>"
                                     : "<span style='color:#c8281e'>some joints over precision</span>");
  if (const core::CurveReport& m = s.curves; !m.curves.empty())
    text += QString("morph targets: %1 curves (%2 stored, the rest at their rest weight) in %3 · max error %4 · %5<br>")
                .arg(m.curves.size())
                .arg(m.curves.size() - m.defaultCurves)
                .arg(formatBytes(m.bytes), formatCm(m.maxMorphErrorCm),
                     m.withinPrecision ? "<span style='color:#1e8232'>every target within precision</span>"
                                       : "<span style='color:#c8281e'>some targets over precision</span>");
  if (!s.floorReason.empty())
    text += QString("<span style='color:#c8281e'>no storage reaches it: %1</span><br>")
                .arg(QString::fromStdString(s.floorReason).toHtmlEscaped());
  text += QString("compressed in %1 ms (%2 verification passes)").arg(s.compressMs, 0, 'f', 1).arg(s.iterations);
  for (const core::PinnedReport& p : s.pinned)
    text += QString("<br>pinned %1: drift %2 (unpinned %3)")
                .arg(QString::fromStdString(m_document->asset()->skeleton.names[p.joint]).toHtmlEscaped(),
                     formatCm(p.driftCm), formatCm(p.driftUnpinnedCm));
  if (s.wideTracks > 0) text += QString("<br>%1 sub-track(s) needed more than 16 bits per component").arg(s.wideTracks);
  if (s.maxVertexErrorCm >= 0 && !s.joints.empty()) {
    // Which bound decides the clip's size: the joints' precision or the skin's (as a fraction of each).
    float strictest = s.joints.front().precisionCm, jointShare = 0;
    for (const core::JointReport& j : s.joints) {
      strictest = std::min(strictest, j.precisionCm);
      jointShare = std::max(jointShare, j.maxErrorCm / j.precisionCm);
    }
    const float bound = core::kSkinBoundFactor * strictest;
    text += QString("<br>skinned vertices move up to %1 of %2 allowed (at and between frames) · limited by the %3")
                .arg(formatCm(s.maxVertexErrorCm), formatCm(bound),
                     s.maxVertexErrorCm / bound > jointShare ? "skin" : "joints");
  }
  m_text->setText(text);
  setStale(m_text, shown.stale);
  setStale(m_worst, shown.stale);
  if (s.worstJoint >= 0)
    m_worst->setText(QString("worst: <a href='%1:%2'>%3 at frame %2</a>")
                         .arg(s.worstJoint)
                         .arg(s.worstFrame)
                         .arg(QString::fromStdString(m_document->asset()->skeleton.names[std::size_t(s.worstJoint)])
                                  .toHtmlEscaped()));
  // Joints can all pass while the skin they carry far from them does not: say so, and where the
  // shells are not the skin's yet, offer them.
  float strictest = std::numeric_limits<float>::infinity();
  for (const core::JointReport& j : s.joints) strictest = std::min(strictest, j.precisionCm);
  const float bound = core::kSkinBoundFactor * strictest;
  const bool skinOver = s.maxVertexErrorCm > bound && !m_document->asset()->meshes.empty();
  const bool meshShells = m_document->effectiveSettings(clip).verifySkin;
  const QString fix =
      meshShells
          ? QString(" The shells already follow the skin: tighten the precision of the joints near the worst vertex.")
          : QString(" <a href='derive'>Derive shells from the mesh</a>");
  m_skin->setText(skinOver ? QString("<span style='color:#c8281e'>The skin moves %1, more than its bound of %2 (%3 x "
                                     "the strictest precision).</span>%4")
                                 .arg(formatCm(s.maxVertexErrorCm), formatCm(bound))
                                 .arg(double(core::kSkinBoundFactor), 0, 'g', 2)
                                 .arg(fix)
                           : QString());
  m_skin->setVisible(skinOver);
}

bool StatsPanel::skinWarningShown() const { return !m_skin->isHidden(); }

void StatsPanel::deriveShellsFromMesh() {
  if (!m_document->hasAsset()) return;
  std::vector<int> all(m_document->asset()->skeleton.jointCount());
  std::iota(all.begin(), all.end(), 0);
  m_document->deriveShellsFromMesh(EditScope::AllClips, all);
}

void StatsPanel::startSweep() {
  const int clip = m_document->currentClip();
  if (!m_document->hasAsset() || clip < 0) return;
  if (m_cancel) m_cancel->store(true);
  m_watcher.waitForFinished();
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  m_sweepButton->setEnabled(false);
  const ClipJob job = clipJob(*m_document, clip);
  auto cancel = m_cancel;
  m_watcher.setFuture(QtConcurrent::run([job, cancel] {
    return core::precisionSweep(*job.asset, job.raw(), job.name, job.settings, job.additive(cancel.get()),
                                cancel.get());
  }));
}

void StatsPanel::plotSweep() {
  m_plot->clearGraphs();
  m_plot->clearItems();
  if (m_sweep.empty()) {
    auto* hint = new QCPItemText(m_plot);
    hint->position->setType(QCPItemPosition::ptAxisRectRatio);
    hint->position->setCoords(0.5, 0.5);
    hint->setText("Run the sweep to plot size\nagainst precision; click a\npoint to use its precision.");
    hint->setColor(QColor(110, 110, 110));
  } else {
    QCPGraph* g = m_plot->addGraph();
    QVector<double> x, y;
    for (const SweepPoint& p : m_sweep) {
      x.push_back(p.precisionCm);
      y.push_back(double(p.bytes));
    }
    g->setData(x, y, true);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 8));
    g->setSelectable(QCP::stSingleData);
    m_plot->rescaleAxes();
    m_plot->xAxis->scaleRange(1.3);
    m_plot->yAxis->scaleRange(1.3);
  }
  m_plot->replot();
}

void StatsPanel::applySweepPoint(int index, EditScope scope) {
  if (index < 0 || std::size_t(index) >= m_sweep.size()) return;
  m_document->setPrecision(scope, float(m_sweep[std::size_t(index)].precisionCm));
}

}  // namespace animpack::widgets
