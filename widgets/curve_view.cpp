#include "widgets/curve_view.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QWheelEvent>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "core/anim/curves.h"
#include "core/compress/error_table.h"
#include "widgets/format.h"

namespace animpack::widgets {
namespace {

const QColor kComponentColors[4] = {QColor(220, 50, 47), QColor(40, 160, 60), QColor(38, 110, 210),
                                    QColor(150, 90, 180)};
const Qt::PenStyle kJointStyles[4] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};

/// Diamonds on the frames a track keeps, at its decoded values `values` (one per frame).
void addKeptKeys(QCustomPlot* plot, const std::vector<int>& kept, const QVector<double>& values, const QColor& color) {
  QVector<double> kx, ky;
  for (int f : kept) {
    if (f < 0 || f >= values.size()) continue;
    kx.push_back(f);
    ky.push_back(values[f]);
  }
  QCPGraph* kg = plot->addGraph(plot->xAxis, plot->yAxis);
  kg->setData(kx, ky, true);
  kg->setLineStyle(QCPGraph::lsNone);
  kg->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(color.darker(160)), QBrush(Qt::white), 7));
  kg->removeFromLegend();
}

}  // namespace

CurveView::CurveView(ClipDocument* document, Recompressor* recompressor, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_recompressor(recompressor),
      m_plot(new QCustomPlot(this)),
      m_channel(new QComboBox(this)) {
  m_channel->addItems(
      {"Rotation (quaternion)", "Rotation (Euler degrees)", "Translation (cm)", "Scale", "Morph target weight"});
  connect(m_channel, &QComboBox::currentIndexChanged, this, [this](int i) { setChannelView(ChannelView(i)); });
  auto* bar = new QHBoxLayout;
  bar->addWidget(m_channel);
  static const char* names[4] = {"X", "Y", "Z", "W"};
  for (int c = 0; c < 4; ++c) {
    m_components[c] = new QCheckBox(names[c], this);
    m_components[c]->setChecked(true);
    QPalette p = m_components[c]->palette();
    p.setColor(QPalette::WindowText, kComponentColors[c]);
    m_components[c]->setPalette(p);
    connect(m_components[c], &QCheckBox::toggled, this, [this, c](bool on) { setComponentVisible(c, on); });
    bar->addWidget(m_components[c]);
  }
  auto* frameButton = new QPushButton("Frame all (F)", this);
  connect(frameButton, &QPushButton::clicked, this, &CurveView::frameAll);
  bar->addStretch();
  bar->addWidget(new QLabel("dots: original · line: compressed · ◆: kept keys", this));
  bar->addWidget(frameButton);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(bar);
  layout->addWidget(m_plot, 1);
  setFocusPolicy(Qt::StrongFocus);

  m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  m_errorRect = new QCPAxisRect(m_plot);
  m_plot->plotLayout()->addElement(1, 0, m_errorRect);
  m_plot->plotLayout()->setRowStretchFactor(0, 3);
  m_plot->plotLayout()->setRowStretchFactor(1, 1.2);
  m_errorRect->setRangeDrag(Qt::Horizontal);
  m_errorRect->setRangeZoom(Qt::Horizontal);
  m_plot->axisRect(0)->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  m_plot->axisRect(0)->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  // Both rects share the time axis.
  connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_errorRect->axis(QCPAxis::atBottom),
          qOverload<const QCPRange&>(&QCPAxis::setRange));
  connect(m_errorRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_plot->xAxis,
          qOverload<const QCPRange&>(&QCPAxis::setRange));
  m_errorRect->axis(QCPAxis::atBottom)->setLabel("frame");
  m_errorRect->axis(QCPAxis::atLeft)->setLabel("error (cm)");
  m_plot->legend->setVisible(true);
  m_plot->legend->setFont(QFont(font().family(), 8));
  m_plot->axisRect(0)->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

  // The wheel zooms time; with Ctrl it zooms values (decided before the axis rect handles the wheel).
  connect(m_plot, &QCustomPlot::mouseWheel, this, [this](QWheelEvent* e) {
    m_plot->axisRect(0)->setRangeZoom(e->modifiers() & Qt::ControlModifier ? Qt::Vertical : Qt::Horizontal);
  });

  // A click that does not drag moves the playhead.
  auto pressPos = std::make_shared<QPoint>();
  connect(m_plot, &QCustomPlot::mousePress, this, [pressPos](QMouseEvent* e) { *pressPos = e->pos(); });
  connect(m_plot, &QCustomPlot::mouseRelease, this, [this, pressPos](QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || (e->pos() - *pressPos).manhattanLength() > 3 || !m_document->hasAsset())
      return;
    const int clip = m_document->currentClip();
    if (clip < 0) return;
    const double frame = m_plot->xAxis->pixelToCoord(e->pos().x());
    const auto& raw = m_document->rawClip(clip);
    m_document->setCurrentTime(std::clamp(frame, 0.0, double(raw.frameCount - 1)) / raw.sampleRate);
  });

  // The recompressor's one change signal covers a new asset, clip, settings or result.
  connect(recompressor, &Recompressor::currentChanged, this, &CurveView::rebuild);
  // Whichever was selected last is drawn: joints in their channel, morph targets as weights.
  connect(document, &ClipDocument::selectedJointsChanged, this, [this] {
    if (m_view == ChannelView::MorphWeight && !m_document->selectedJoints().empty())
      setChannelView(ChannelView::Quaternion);
    else rebuild();
  });
  connect(document, &ClipDocument::selectedCurvesChanged, this, [this] {
    if (m_view != ChannelView::MorphWeight && !m_document->selectedCurves().empty())
      setChannelView(ChannelView::MorphWeight);
    else rebuild();
  });
  connect(document, &ClipDocument::currentTimeChanged, this, &CurveView::updatePlayhead);
  rebuild();
}

void CurveView::setChannelView(ChannelView view) {
  m_view = view;
  if (m_channel->currentIndex() != int(view)) m_channel->setCurrentIndex(int(view));
  rebuild();
  frameAll();
}

void CurveView::setComponentVisible(int component, bool visible) {
  if (component < 0 || component > 3) return;
  m_visible[component] = visible;
  if (m_components[component]->isChecked() != visible) m_components[component]->setChecked(visible);
  rebuild();
}

void CurveView::frameAll() {
  m_plot->rescaleAxes();
  for (QCPAxis* axis : {m_plot->yAxis, m_errorRect->axis(QCPAxis::atLeft)}) {
    QCPRange r = axis->range();
    const double pad = std::max(r.size() * 0.08, 1e-6);
    axis->setRange(r.lower - pad, r.upper + pad);
  }
  m_errorRect->axis(QCPAxis::atLeft)->setRangeLower(0);
  m_plot->replot();
}

void CurveView::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_F) frameAll();
  else QWidget::keyPressEvent(event);
}

int CurveView::originalPointCount() const { return m_originalPoints; }
std::vector<int> CurveView::markedKeyFrames() const { return m_markedKeys; }

void CurveView::rebuild() {
  m_plot->clearPlottables();
  m_plot->clearItems();
  m_playhead = nullptr;
  m_errorPlayhead = nullptr;
  m_originalPoints = 0;
  m_markedKeys.clear();
  const int clip = m_document->currentClip();
  if (!m_document->hasAsset() || clip < 0) {
    m_plot->replot();
    return;
  }
  const core::ImportedAsset& asset = *m_document->asset();
  const core::RawClip& raw = m_document->rawClip(clip);
  std::vector<int> joints = m_document->selectedJoints();
  if (joints.size() > 4) joints.resize(4);
  const bool weights = m_view == ChannelView::MorphWeight;
  for (int c = 0; c < 4; ++c) m_components[c]->setEnabled(!weights && (c < 3 || m_view == ChannelView::Quaternion));
  if (weights ? m_document->selectedCurves().empty() : joints.empty()) {
    auto* hint = new QCPItemText(m_plot);
    hint->position->setType(QCPItemPosition::ptAxisRectRatio);
    hint->position->setCoords(0.5, 0.5);
    hint->setText(weights ? (asset.curves.empty() ? "This file has no morph targets"
                                                  : "Select a morph target in the Morph targets panel or the error map")
                          : "Select a joint in the joint tree, the error map or the viewport");
    m_plot->replot();
    return;
  }

  const ShownResult shown = m_recompressor->current();
  const auto& result = shown.result;
  const bool stale = shown.stale;
  if (shown.compressed() && result != m_decodedFor) {
    m_decoded = std::make_shared<const core::DecodedClip>(result->asset, result->compressed);
    m_decodedFor = result;
  }
  const core::DecodedClip* decoded = shown.compressed() && m_decoded && m_decoded->valid() ? m_decoded.get() : nullptr;
  if (weights) {
    drawWeights(asset, raw, decoded, stale);
    return finish(raw);
  }

  const int channel = m_view == ChannelView::Translation ? 1 : m_view == ChannelView::Scale ? 2 : 0;
  const int components = m_view == ChannelView::Quaternion ? 4 : 3;
  const core::CurveChannel curve = m_view == ChannelView::Quaternion    ? core::CurveChannel::Quaternion
                                   : m_view == ChannelView::Euler       ? core::CurveChannel::Euler
                                   : m_view == ChannelView::Translation ? core::CurveChannel::Translation
                                                                        : core::CurveChannel::Scale;
  static const char* componentNames[4] = {"x", "y", "z", "w"};
  QVector<double> frames(int(raw.frameCount));
  for (int f = 0; f < int(raw.frameCount); ++f) frames[f] = f;

  std::vector<bool> legendShown(joints.size(), false);
  m_plot->legend->setVisible(joints.size() > 1);
  for (std::size_t ji = 0; ji < joints.size(); ++ji) {
    const int joint = joints[ji];
    const QString jointName = QString::fromStdString(asset.skeleton.names[std::size_t(joint)]);
    // The curves come from core (core/anim/curves.h): Euler angles unwrapped, the decoded
    // quaternion's sign following the original's so the two overlay.
    std::vector<core::Transform> source(raw.frameCount), decodedFrames(decoded ? raw.frameCount : 0);
    for (std::uint32_t f = 0; f < raw.frameCount; ++f) {
      source[f] = raw.at(std::uint32_t(joint), f);
      if (decoded) decodedFrames[f] = decoded->frame(f)[std::size_t(joint)];
    }
    // Translations in the scene's centimetres, as the viewport draws them.
    const auto original = core::jointCurve(curve, source, asset.lengthToCm());
    auto compressed = core::jointCurve(curve, decodedFrames, asset.lengthToCm(), source);
    compressed.resize(raw.frameCount);
    const std::vector<int> kept = decoded ? decoded->keptFrames(joint, channel) : std::vector<int>{};
    for (int c = 0; c < components; ++c) {
      if (!m_visible[c]) continue;
      QVector<double> o(int(raw.frameCount)), d(int(raw.frameCount));
      for (int f = 0; f < int(raw.frameCount); ++f) {
        o[f] = original[std::size_t(f)][std::size_t(c)];
        d[f] = compressed[std::size_t(f)][std::size_t(c)];
      }
      const QColor color = kComponentColors[c];
      QCPGraph* og = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
      og->setData(frames, o, true);
      og->setLineStyle(QCPGraph::lsNone);
      og->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color.lighter(140), 4));
      og->setName(QString("%1.%2 original").arg(jointName, componentNames[c]));
      og->removeFromLegend();  // the legend tells joints apart (line style); colours are the components
      if (ji == 0 && m_originalPoints == 0) m_originalPoints = og->dataCount();
      if (decoded) {
        QCPGraph* dg = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
        dg->setData(frames, d, true);
        dg->setPen(QPen(stale ? dimmed(color) : color, 1.6, kJointStyles[ji]));
        dg->setName(QString("%1.%2 compressed%3")
                        .arg(jointName, componentNames[c], stale ? " (" + kUpdatingText + ")" : QString()));
        if (legendShown[ji]) dg->removeFromLegend();
        legendShown[ji] = true;
        addKeptKeys(m_plot, kept, d, color);
        if (ji == 0 && m_markedKeys.empty()) m_markedKeys = kept;
      }
    }
    // Error over time against the precision line: at each frame, and between two frames the
    // largest error of that interval (drawn at its middle).
    if (decoded) {
      const core::CompressionStats& stats = decoded->compressed().stats;
      QVector<double> et, e;
      for (std::size_t f = 0; f < raw.frameCount; ++f) {
        et.push_back(double(f));
        e.push_back(core::errorAtCm(stats, raw.jointCount, double(f), std::size_t(joint)));
        const float between = core::betweenErrorCm(stats, raw.jointCount, f, std::size_t(joint));
        if (between < 0) continue;
        et.push_back(double(f) + 0.5);
        e.push_back(between);
      }
      QCPGraph* eg = m_plot->addGraph(m_errorRect->axis(QCPAxis::atBottom), m_errorRect->axis(QCPAxis::atLeft));
      eg->setData(et, e, true);
      eg->setPen(QPen(stale ? dimmed(QColor(60, 60, 60)) : QColor(60, 60, 60), 1.4, kJointStyles[ji]));
      eg->setName(jointName + " error");
      eg->removeFromLegend();
      const double precision = stats.joints[std::size_t(joint)].precisionCm;
      QCPGraph* pg = m_plot->addGraph(m_errorRect->axis(QCPAxis::atBottom), m_errorRect->axis(QCPAxis::atLeft));
      pg->setData(QVector<double>{0, double(raw.frameCount - 1)}, QVector<double>{precision, precision}, true);
      pg->setPen(QPen(QColor(200, 40, 30), 1.2, Qt::DashLine));
      pg->removeFromLegend();
    }
  }
  finish(raw);
}

void CurveView::drawWeights(const core::ImportedAsset& asset, const core::RawClip& raw,
                            const core::DecodedClip* decoded, bool stale) {
  std::vector<int> curves;
  for (int c : m_document->selectedCurves())
    if (c >= 0 && std::size_t(c) < asset.curves.size() && curves.size() < 4) curves.push_back(c);
  m_plot->legend->setVisible(!curves.empty());
  const int frames = int(raw.frameCount);
  if (frames == 0) return;
  QVector<double> x(frames);
  for (int f = 0; f < frames; ++f) x[f] = f;
  std::vector<float> decodedWeights(asset.curves.size());
  std::vector<std::vector<float>> decodedAt(curves.size(), std::vector<float>(std::size_t(frames)));
  for (int f = 0; decoded && f < frames; ++f) {
    decoded->weights(double(f), decodedWeights);
    for (std::size_t i = 0; i < curves.size(); ++i)
      decodedAt[i][std::size_t(f)] = decodedWeights[std::size_t(curves[i])];
  }
  // Errors at and between frames, from core (the weight error times the target's displacement).
  const std::vector<float> errors =
      decoded ? core::curveErrorsCm(decoded->compressed(), asset, raw) : std::vector<float>{};
  const std::size_t samples = 2 * std::size_t(frames) - 1;
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const auto curve = std::uint32_t(curves[i]);
    const core::MorphCurve& morph = asset.curves[curve];
    const QString name = QString::fromStdString(morph.name);
    const QColor color = kComponentColors[i];
    QVector<double> o(frames), d(frames);
    for (int f = 0; f < frames; ++f) {
      o[f] = core::sourceWeight(raw, curve, morph.restWeight, double(f) / raw.sampleRate);
      d[f] = decodedAt[i][std::size_t(f)];
    }
    QCPGraph* og = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    og->setData(x, o, true);
    og->setLineStyle(QCPGraph::lsNone);
    og->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color.lighter(140), 4));
    og->removeFromLegend();
    if (i == 0) m_originalPoints = og->dataCount();
    if (!decoded) continue;
    QCPGraph* dg = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    dg->setData(x, d, true);
    dg->setPen(QPen(stale ? dimmed(color) : color, 1.6));
    dg->setName(name + (stale ? " (" + kUpdatingText + ")" : QString()));
    const std::vector<int> kept = decoded->keptCurveFrames(curve);
    addKeptKeys(m_plot, kept, d, color);
    if (i == 0) m_markedKeys = kept;
    if (errors.size() != asset.curves.size() * samples) continue;
    QVector<double> et(static_cast<qsizetype>(samples)), e(static_cast<qsizetype>(samples));
    for (std::size_t k = 0; k < samples; ++k) {
      et[int(k)] = 0.5 * double(k);
      e[int(k)] = errors[curve * samples + k];
    }
    QCPGraph* eg = m_plot->addGraph(m_errorRect->axis(QCPAxis::atBottom), m_errorRect->axis(QCPAxis::atLeft));
    eg->setData(et, e, true);
    eg->setPen(QPen(stale ? dimmed(color) : color.darker(130), 1.4));
    eg->removeFromLegend();
    const core::CurveReport& report = decoded->compressed().stats.curves;
    if (curve >= report.curves.size()) continue;
    const double precision = report.curves[curve].precisionCm;
    QCPGraph* pg = m_plot->addGraph(m_errorRect->axis(QCPAxis::atBottom), m_errorRect->axis(QCPAxis::atLeft));
    pg->setData(QVector<double>{0, double(frames - 1)}, QVector<double>{precision, precision}, true);
    pg->setPen(QPen(QColor(200, 40, 30), 1.2, Qt::DashLine));
    pg->removeFromLegend();
  }
}

void CurveView::finish(const core::RawClip& raw) {
  m_plot->yAxis->setLabel(m_view == ChannelView::Euler         ? "degrees"
                          : m_view == ChannelView::Translation ? "cm"
                          : m_view == ChannelView::MorphWeight ? "weight"
                                                               : "value");
  m_plot->xAxis->setRange(0, std::max(1.0, double(raw.frameCount - 1)));
  frameAll();
  m_playhead = new QCPItemStraightLine(m_plot);
  m_errorPlayhead = new QCPItemStraightLine(m_plot);
  m_errorPlayhead->setClipAxisRect(m_errorRect);
  for (QCPItemPosition* p : {m_errorPlayhead->point1, m_errorPlayhead->point2})
    p->setAxes(m_errorRect->axis(QCPAxis::atBottom), m_errorRect->axis(QCPAxis::atLeft));
  for (QCPItemStraightLine* line : {m_playhead, m_errorPlayhead}) line->setPen(QPen(QColor(255, 140, 0), 1.5));
  updatePlayhead();
}

void CurveView::updatePlayhead() {
  if (!m_playhead || !m_document->hasAsset() || m_document->currentClip() < 0) return;
  const auto& raw = m_document->rawClip(m_document->currentClip());
  const double frame = m_document->currentTime() * raw.sampleRate;
  for (QCPItemStraightLine* line : {m_playhead, m_errorPlayhead}) {
    line->point1->setCoords(frame, 0);
    line->point2->setCoords(frame, 1);
  }
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace animpack::widgets
