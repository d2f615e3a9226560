#include "widgets/additive_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>

namespace animpack::widgets {

AdditiveBar::AdditiveBar(ClipDocument* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_base(new QComboBox(this)),
      m_frame(new QSpinBox(this)),
      m_weight(new QSlider(Qt::Horizontal, this)),
      m_weightLabel(new QLabel(this)),
      m_problem(new QLabel(this)) {
  m_base->setToolTip(
      "Store the current clip as a delta from this pose (settings \"additive_base\"): joints it leaves as the base "
      "cost nothing");
  m_frame->setRange(-1, 0);
  m_frame->setSpecialValueText("same time");
  m_frame->setPrefix("frame ");
  m_frame->setKeyboardTracking(false);  // one edit when the number is entered, not per keystroke
  m_frame->setToolTip(
      "The base clip sampled at the same time as the clip, or one of its frames at every time (\"CLIP@FRAME\")");
  m_weight->setRange(0, 100);
  m_weight->setValue(100);
  m_weight->setToolTip("How much of the additive clip the viewport applies on its base");
  m_problem->setStyleSheet("color: #c8281e");
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(new QLabel("Additive on", this));
  row->addWidget(m_base, 1);
  row->addWidget(new QLabel("at", this));
  row->addWidget(m_frame);
  row->addWidget(new QLabel("Weight", this));
  row->addWidget(m_weight, 1);
  row->addWidget(m_weightLabel);
  row->addWidget(m_problem);
  connect(m_base, &QComboBox::activated, this, [this](int i) {
    if (!m_refreshing) m_document->setAdditiveBase(m_document->currentClip(), m_base->itemData(i).toString());
  });
  connect(m_frame, &QSpinBox::valueChanged, this, [this] {
    if (!m_refreshing) applyFrame();
  });
  connect(m_weight, &QSlider::valueChanged, this, [this] {
    m_weightLabel->setText(QString::number(double(weight()), 'f', 2));
    emit weightChanged(weight());
  });
  connect(document, &ClipDocument::assetChanged, this, &AdditiveBar::refresh);
  connect(document, &ClipDocument::settingsChanged, this, &AdditiveBar::refresh);
  connect(document, &ClipDocument::currentClipChanged, this, &AdditiveBar::refresh);
  m_weightLabel->setText("1.00");
  refresh();
}

void AdditiveBar::applyFrame() {
  const QString base = m_base->currentData().toString();
  if (base.isEmpty() || base == "rest") return;
  const int frame = m_frame->value();
  m_document->setAdditiveBase(m_document->currentClip(), frame >= 0 ? QString("%1@%2").arg(base).arg(frame) : base);
}

float AdditiveBar::weight() const { return float(m_weight->value()) / 100.f; }

void AdditiveBar::refresh() {
  m_refreshing = true;
  m_base->clear();
  const int clip = m_document->currentClip();
  m_base->addItem("nothing (absolute clip)", QString());
  m_base->addItem("the rest pose", QString("rest"));
  for (int c = 0; c < m_document->clipCount(); ++c)
    if (c != clip) m_base->addItem(m_document->clipName(c), m_document->clipName(c));
  const core::AdditiveLink link = m_document->additiveLink(clip);
  const bool onClip = link.ref.kind == core::AdditiveRef::Kind::Clip;
  const QString current = QString::fromStdString(onClip ? link.ref.clip : link.ref.spelling());
  int index = m_base->findData(current);
  if (index < 0 && !current.isEmpty()) {  // a base that is not a clip of the project: shown as set
    m_base->addItem(current, current);
    index = m_base->count() - 1;
  }
  m_base->setCurrentIndex(std::max(0, index));
  m_base->setEnabled(clip >= 0);
  const int baseClip = onClip ? m_document->additiveBaseClip(clip) : -1;
  m_frame->setRange(-1, baseClip >= 0 ? int(m_document->rawClip(baseClip).frameCount) - 1 : 0);
  m_frame->setValue(onClip ? link.ref.frame : -1);
  m_frame->setEnabled(baseClip >= 0);
  m_weight->setEnabled(link.ref.additive());
  m_problem->setText(QString::fromStdString(link.error));
  m_problem->setVisible(!link.error.empty());
  m_refreshing = false;
}

}  // namespace animpack::widgets
