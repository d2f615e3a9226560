#pragma once
// The review packet's pictures (core/review/pose_picture.h) drawn by the viewport itself: a
// ViewportWidget of its own, in a small frameless window shown while it renders, poses the worst
// frame's original and compressed pose overlaid as the studio shows them (the original opaque, the
// compressed as a wireframe ghost, the worst joint highlighted) and reads the frame back with a
// Qt 3D render capture.

#include <QImage>
#include <QObject>
#include <QSize>
#include <functional>
#include <memory>
#include <string>

#include "core/base/status.h"
#include "core/review/pose_picture.h"

namespace Qt3DRender {
class QRenderCapture;
}

namespace animpack::viewport {

class ViewportWidget;

class OverlayCapture : public QObject {
  Q_OBJECT
 public:
  /// Renders pictures of `size` device-independent pixels (the 3D view's size).
  explicit OverlayCapture(QSize size = {480, 360}, QObject* parent = nullptr);
  /// Fails every request still waiting with "the viewport was closed".
  ~OverlayCapture() override;

  /// Whether this process can draw with it: a QApplication on a display Qt 3D can draw on (not the
  /// offscreen or minimal platform).
  static bool displayAvailable();
  /// What the packet says drew the pictures.
  static const char* rendererName() { return "studio's 3D viewport (Qt 3D)"; }
  /// The packet's legend for these pictures (colours as CSS).
  static core::PictureLegend legend();

  /// Renders `overlay` on this object's thread, then calls `done` there with the picture or why not.
  void render(const core::PoseOverlay& overlay, std::function<void(Expected<QImage>)> done);

  /// A renderer for core::ReviewOptions that any thread other than this object's may call: it asks
  /// this object to render and waits up to `timeoutMs` for the picture.
  core::PictureRenderer renderer(int timeoutMs = 60000);

 private:
  struct Pending;
  struct Owner;
  void capture(int remaining);
  void finish(Expected<QImage> result);

  QSize m_size;
  ViewportWidget* m_view = nullptr;  // a window of its own, made on first use
  Qt3DRender::QRenderCapture* m_capture = nullptr;
  std::function<void(Expected<QImage>)> m_done;  // the request being rendered
  QImage m_previous;                             // the last capture of the picture being rendered
  int m_requests = 0;                            // render() calls so far
  std::string m_broken;                          // why no frame ever came; then every request fails at once
  std::shared_ptr<Owner> m_owner;                // shared with the renderers handed out
};

/// `image` as the packet's RGB picture.
core::Image toCoreImage(const QImage& image);

}  // namespace animpack::viewport
