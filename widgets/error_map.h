#pragma once
// The error map: a joints x frames heat map of error / precision (green to red, 1 = at the
// precision); a cell is the largest error at its frame and up to the next frame. Below the joints, a
// row for each morph target the clip animates (its weight error in cm over its precision). A click
// selects that joint or target and moves the playhead to that frame.

#include <QWidget>
#include <vector>

#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

class QCustomPlot;
class QCPColorMap;
class QCPItemStraightLine;

namespace animpack::widgets {

class ErrorMap : public QWidget {
  Q_OBJECT
 public:
  ErrorMap(ClipDocument* document, Recompressor* recompressor, QWidget* parent = nullptr);
  /// The cell value (error / precision) at a joint and frame, NaN when there is no result.
  double ratioAt(int joint, int frame) const;
  /// The same for morph curve `curve`'s row, NaN when the clip does not animate it.
  double curveRatioAt(int curve, int frame) const;
  QCustomPlot* plot() const { return m_plot; }
  /// Selects the joint and frame under a widget position (what a click does).
  void clickAt(const QPoint& plotPosition);

 private:
  void rebuild();
  void updatePlayhead();
  ClipDocument* m_document;
  Recompressor* m_recompressor;
  QCustomPlot* m_plot;
  QCPColorMap* m_map = nullptr;
  QCPItemStraightLine* m_playhead = nullptr;
  std::vector<int> m_curveRows;  ///< the morph curve of each row after the joints
};

}  // namespace animpack::widgets
