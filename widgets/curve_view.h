#pragma once
// The curve view (QCustomPlot): for the selected joints and a channel (rotation as quaternion
// components or Euler degrees, translation, scale) the original samples, the decoded compressed
// curve and markers on the frames kept as keys; below, each joint's error over time against its
// precision line. The playhead follows the document's time; drag to pan, wheel to zoom, F frames all,
// a click moves the playhead. A stale result is drawn dimmed and its legend says "updating".
// "Morph target weight" draws the selected morph targets the same way (source weights, decoded
// weights, kept keys; below, each target's error in cm against its precision); selecting targets
// shows it, selecting joints goes back to their channels.

#include <QWidget>
#include <memory>

#include "core/compress/decoded_clip.h"
#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

class QCustomPlot;
class QCPAxisRect;
class QCPItemStraightLine;
class QCheckBox;
class QComboBox;

namespace animpack::widgets {

class CurveView : public QWidget {
  Q_OBJECT
 public:
  enum class ChannelView { Quaternion, Euler, Translation, Scale, MorphWeight };
  CurveView(ClipDocument* document, Recompressor* recompressor, QWidget* parent = nullptr);

  void setChannelView(ChannelView view);
  ChannelView channelView() const { return m_view; }
  void setComponentVisible(int component, bool visible);
  /// Rescales both plots to show everything.
  void frameAll();
  QCustomPlot* plot() const { return m_plot; }

  /// For tests: points of the original curve of the first selected joint's first component (or the
  /// first selected morph target), and the frames marked as kept keys for it.
  int originalPointCount() const;
  std::vector<int> markedKeyFrames() const;

 protected:
  void keyPressEvent(QKeyEvent* event) override;

 private:
  void rebuild();
  /// The selected morph targets' weights and errors (ChannelView::MorphWeight).
  void drawWeights(const core::ImportedAsset& asset, const core::RawClip& raw, const core::DecodedClip* decoded,
                   bool stale);
  /// Axis labels, framing and the playhead after the graphs are drawn.
  void finish(const core::RawClip& raw);
  void updatePlayhead();
  ClipDocument* m_document;
  Recompressor* m_recompressor;
  ChannelView m_view = ChannelView::Quaternion;
  bool m_visible[4] = {true, true, true, true};
  QCustomPlot* m_plot;
  QCPAxisRect* m_errorRect = nullptr;
  QCPItemStraightLine* m_playhead = nullptr;
  QCPItemStraightLine* m_errorPlayhead = nullptr;
  QComboBox* m_channel;
  QCheckBox* m_components[4];
  std::shared_ptr<const core::DecodedClip> m_decoded;
  std::shared_ptr<const CompressionResult> m_decodedFor;
  int m_originalPoints = 0;
  std::vector<int> m_markedKeys;
};

}  // namespace animpack::widgets
