#pragma once
// The Clips panel's additive row (docs/SETTINGS.md `additive_base`): a base picker for the current
// clip (absolute, the rest pose, or another clip of the project, at the same time or at one of its
// frames), an undoable settings edit; and the
// weight (0..1) at which the viewport previews the additive clip on its base.

#include <QWidget>

#include "widgets/document/clip_document.h"

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace animpack::widgets {

class AdditiveBar : public QWidget {
  Q_OBJECT
 public:
  AdditiveBar(ClipDocument* document, QWidget* parent = nullptr);
  QComboBox* basePicker() const { return m_base; }
  QSlider* weightSlider() const { return m_weight; }
  /// The base clip's frame (-1: sampled at the same time, "CLIP"; otherwise "CLIP@FRAME").
  QSpinBox* frameBox() const { return m_frame; }
  /// The preview weight, 0..1.
  float weight() const;

 signals:
  /// The preview weight moved (0..1).
  void weightChanged(float weight);

 private:
  void refresh();
  void applyFrame();
  ClipDocument* m_document;
  QComboBox* m_base;
  QSpinBox* m_frame;
  QSlider* m_weight;
  QLabel* m_weightLabel;
  QLabel* m_problem;
  bool m_refreshing = false;
};

}  // namespace animpack::widgets
