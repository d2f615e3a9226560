#pragma once
// The strip under the 3D view that explains its colours: which figure is which, the joint error
// ramp (error / precision) and the vertex error ramp with its scale in cm. A strip rather than an
// overlay because nothing can be painted over the native window that hosts Qt 3D.

#include <QWidget>

#include "viewport/view_options.h"

namespace animpack::viewport {

/// What the legend describes.
struct LegendState {
  ViewOptions options;
  bool hasMesh = false;         ///< the asset has meshes to show
  bool hasJointErrors = false;  ///< joint error ratios were given
  bool blendPreview = false;    ///< the naive and decomposed blends are shown instead
  float vertexScaleCm = 0;      ///< the vertex colouring's red value, cm
  float maxVertexErrorCm = 0;   ///< at the current pose
  bool updating = false;        ///< the compressed pose and its error colours are of settings the user has moved past
};

class LegendBar : public QWidget {
  Q_OBJECT
 public:
  explicit LegendBar(QWidget* parent = nullptr);
  /// Shows `state` (repaints only if its text changed).
  void setState(const LegendState& state);
  const LegendState& state() const { return m_state; }
  /// The legend as plain text (for tests and tool tips).
  QString text() const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  LegendState m_state;
};

}  // namespace animpack::viewport
