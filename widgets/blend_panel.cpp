#include "widgets/blend_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSlider>

namespace animpack::widgets {

BlendPanel::BlendPanel(ClipDocument* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_enabled(new QCheckBox("Show the blend preview", this)),
      m_a(new QComboBox(this)),
      m_b(new QComboBox(this)),
      m_fixed(new QRadioButton("Weight", this)),
      m_crossfade(new QRadioButton("Crossfade over", this)),
      m_weight(new QSlider(Qt::Horizontal, this)),
      m_duration(new QDoubleSpinBox(this)) {
  m_weight->setRange(0, 100);
  m_weight->setValue(50);
  m_fixed->setChecked(true);
  m_duration->setRange(0.05, 10);
  m_duration->setValue(0.5);
  m_duration->setSuffix(" s");
  auto* form = new QFormLayout(this);
  form->addRow(m_enabled);
  form->addRow("Clip A", m_a);
  form->addRow("Clip B", m_b);
  form->addRow(m_fixed, m_weight);
  form->addRow(m_crossfade, m_duration);
  auto* note = new QLabel(
      "Left: naive (lerp/nlerp of each transform). Right: decomposed into revolution, stretch and spin: "
      "bones keep their length mid-blend.",
      this);
  note->setWordWrap(true);
  form->addRow(note);
  for (QObject* o : {static_cast<QObject*>(m_a), static_cast<QObject*>(m_b)})
    connect(qobject_cast<QComboBox*>(o), &QComboBox::currentIndexChanged, this, &BlendPanel::changed);
  connect(m_enabled, &QCheckBox::toggled, this, &BlendPanel::changed);
  connect(m_fixed, &QRadioButton::toggled, this, &BlendPanel::changed);
  connect(m_weight, &QSlider::valueChanged, this, &BlendPanel::changed);
  connect(m_duration, &QDoubleSpinBox::valueChanged, this, &BlendPanel::changed);
  connect(document, &ClipDocument::assetChanged, this, &BlendPanel::refillClips);
  refillClips();
}

void BlendPanel::refillClips() {
  for (QComboBox* box : {m_a, m_b}) {
    box->blockSignals(true);
    box->clear();
    for (int c = 0; c < m_document->clipCount(); ++c) box->addItem(m_document->clipName(c));
    box->blockSignals(false);
  }
  if (m_document->clipCount() > 1) m_b->setCurrentIndex(1);
  emit changed();
}

BlendSetup BlendPanel::setup() const {
  BlendSetup b;
  b.enabled = m_enabled->isChecked() && m_a->currentIndex() >= 0 && m_b->currentIndex() >= 0;
  b.clipA = m_a->currentIndex();
  b.clipB = m_b->currentIndex();
  b.crossfade = !m_fixed->isChecked();
  b.weight = float(m_weight->value()) / 100.f;
  b.crossfadeS = m_duration->value();
  return b;
}

}  // namespace animpack::widgets
