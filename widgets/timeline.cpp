#include "widgets/timeline.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <cmath>

namespace animpack::widgets {

Timeline::Timeline(ClipDocument* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_play(new QToolButton(this)),
      m_slider(new QSlider(Qt::Horizontal, this)),
      m_label(new QLabel(this)),
      m_loop(new QCheckBox("Loop", this)),
      m_speedBox(new QComboBox(this)) {
  m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  m_play->setToolTip("Play / pause (Space)");
  m_loop->setChecked(true);
  for (double s : {0.1, 0.25, 0.5, 1.0, 1.5, 2.0}) m_speedBox->addItem(QString("%1x").arg(s), s);
  m_speedBox->setCurrentIndex(3);
  m_speedBox->setToolTip("Playback speed");
  m_label->setMinimumWidth(170);
  m_label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->addWidget(m_play);
  layout->addWidget(m_slider, 1);
  layout->addWidget(m_label);
  layout->addWidget(m_loop);
  layout->addWidget(m_speedBox);
  connect(m_play, &QToolButton::clicked, this, &Timeline::togglePlay);
  connect(m_speedBox, &QComboBox::currentIndexChanged, this,
          [this](int i) { m_speed = m_speedBox->itemData(i).toDouble(); });
  connect(m_slider, &QSlider::valueChanged, this, [this](int frame) {
    if (m_updating || m_document->currentClip() < 0) return;
    const auto& raw = m_document->rawClip(m_document->currentClip());
    m_document->setCurrentTime(double(frame) / raw.sampleRate);
  });
  m_timer.setInterval(16);
  connect(&m_timer, &QTimer::timeout, this, [this] {
    const double dt = double(m_clock.restart()) / 1000.0;
    advance(dt);
  });
  connect(document, &ClipDocument::currentTimeChanged, this, &Timeline::syncFromDocument);
  connect(document, &ClipDocument::currentClipChanged, this, &Timeline::syncFromDocument);
  connect(document, &ClipDocument::assetChanged, this, &Timeline::syncFromDocument);
  syncFromDocument();
}

bool Timeline::looping() const { return m_loop->isChecked(); }
void Timeline::setLooping(bool loop) { m_loop->setChecked(loop); }

void Timeline::setSpeed(double speed) {
  int best = 0;
  for (int i = 0; i < m_speedBox->count(); ++i)
    if (std::fabs(m_speedBox->itemData(i).toDouble() - speed) <
        std::fabs(m_speedBox->itemData(best).toDouble() - speed))
      best = i;
  m_speedBox->setCurrentIndex(best);
  m_speed = std::clamp(speed, 0.1, 2.0);
}

void Timeline::play() {
  if (m_document->currentClip() < 0) return;
  m_clock.start();
  m_timer.start();
  m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void Timeline::pause() {
  m_timer.stop();
  m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
}

void Timeline::togglePlay() { isPlaying() ? pause() : play(); }

void Timeline::advance(double seconds) {
  const int clip = m_document->currentClip();
  if (clip < 0) return;
  const auto& raw = m_document->rawClip(clip);
  const double duration = raw.duration();
  double t = m_document->currentTime() + seconds * m_speed;
  const double cycle = m_cycle > 0 ? m_cycle : duration;
  if (duration <= 0) t = 0;
  else if (looping() && t > cycle) t = std::fmod(t, cycle);
  else if (!looping() && t > duration) {
    t = duration;
    pause();
  }
  m_document->setCurrentTime(t);
}

void Timeline::syncFromDocument() {
  m_updating = true;
  const int clip = m_document->currentClip();
  if (clip < 0 || !m_document->hasAsset()) {
    m_slider->setRange(0, 0);
    m_label->setText("no clip");
  } else {
    const auto& raw = m_document->rawClip(clip);
    m_slider->setRange(0, int(raw.frameCount) - 1);
    const double frame = m_document->currentTime() * raw.sampleRate;
    m_slider->setValue(int(std::lround(frame)));
    m_label->setText(QString("%1 s / %2 s  frame %3")
                         .arg(m_document->currentTime(), 0, 'f', 2)
                         .arg(raw.duration(), 0, 'f', 2)
                         .arg(frame, 0, 'f', 1));
  }
  m_updating = false;
}

}  // namespace animpack::widgets
