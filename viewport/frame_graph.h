#pragma once
// The viewport's frame graph: clear, an opaque pass (pushed back slightly so anything drawn later at
// the same depth wins), a ghost pass (blended, back to front, drawn where it is at least as near as
// the opaque surface), then two overlay passes that ignore depth so the skeleton stays visible
// inside the meshes: lines first, then solids (back faces culled) over them. No pass clears the
// depth buffer: the RHI renderer records all passes into one render pass and takes the clear values
// of the last view that clears.

#include <QColor>
#include <Qt3DRender/QRenderSurfaceSelector>

namespace Qt3DRender {
class QCamera;
class QClearBuffers;
class QLayer;
}  // namespace Qt3DRender

namespace animpack::viewport {

class ViewportFrameGraph : public Qt3DRender::QRenderSurfaceSelector {
  Q_OBJECT
 public:
  /// Renders the scene seen by `camera` into `surface` (a QWindow or QOffscreenSurface).
  ViewportFrameGraph(QObject* surface, Qt3DRender::QCamera* camera, Qt3DCore::QNode* parent = nullptr);

  /// Entities with this layer are drawn in the ghost pass.
  Qt3DRender::QLayer* ghostLayer() const { return m_ghostLayer; }
  /// Entities with this layer are drawn after the ghosts, over everything (lines).
  Qt3DRender::QLayer* overlayLinesLayer() const { return m_overlayLines; }
  /// Entities with this layer are drawn last, over everything including the overlay lines (solids).
  Qt3DRender::QLayer* overlaySolidsLayer() const { return m_overlaySolids; }
  /// Background colour.
  void setClearColor(const QColor& color);
  QColor clearColor() const;

 private:
  Qt3DRender::QClearBuffers* m_clear;
  Qt3DRender::QLayer* m_ghostLayer;
  Qt3DRender::QLayer* m_overlayLines;
  Qt3DRender::QLayer* m_overlaySolids;
};

}  // namespace animpack::viewport
