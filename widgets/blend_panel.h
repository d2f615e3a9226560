#pragma once
// The blend preview controls: clip A, clip B and a weight, or a crossfade that ramps the weight from
// 0 to 1 over a time at the playhead; the viewport shows the naive and the decomposed blend side by
// side (the decomposed blend is runtime::BlendMode::Decomposed, core/runtime/player.h).

#include <QWidget>

#include "widgets/document/clip_document.h"
#include "widgets/document/pose_preview.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QRadioButton;
class QSlider;

namespace animpack::widgets {

class BlendPanel : public QWidget {
  Q_OBJECT
 public:
  explicit BlendPanel(ClipDocument* document, QWidget* parent = nullptr);
  /// What the controls ask the preview to show.
  BlendSetup setup() const;

 signals:
  void changed();

 private:
  void refillClips();
  ClipDocument* m_document;
  QCheckBox* m_enabled;
  QComboBox* m_a;
  QComboBox* m_b;
  QRadioButton* m_fixed;
  QRadioButton* m_crossfade;
  QSlider* m_weight;
  QDoubleSpinBox* m_duration;
};

}  // namespace animpack::widgets
