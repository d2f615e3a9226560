#include "viewport/overlay_capture.h"

#include <QApplication>
#include <QMetaObject>
#include <QThread>
#include <QTimer>
#include <Qt3DCore/QEntity>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QRenderCapture>
#include <Qt3DRender/QRenderSettings>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

#include "core/anim/imported_asset.h"
#include "viewport/scene_style.h"
#include "viewport/viewport_widget.h"

namespace animpack::viewport {

namespace {

constexpr int kMaxCapturesPerPicture = 20;
constexpr int kFrameTimeoutMs = 20000;
constexpr int kHideAfterMs = 3000;

/// Pixels that differ clearly from the viewport's background.
bool drewSomething(const QImage& image) {
  const QColor bg = toQColor(SceneStyle::kBackground);
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      if (std::abs(qRed(p) - bg.red()) + std::abs(qGreen(p) - bg.green()) + std::abs(qBlue(p) - bg.blue()) > 60)
        return true;
    }
  return false;
}

}  // namespace

/// A request from another thread: the answer, once it comes.
struct OverlayCapture::Pending {
  std::mutex mutex;
  std::condition_variable ready;
  std::optional<Expected<core::Image>> result;

  void answer(Expected<core::Image> r) {
    {
      const std::lock_guard lock(mutex);
      if (result) return;
      result.emplace(std::move(r));
    }
    ready.notify_all();
  }
};

/// Who answers the renderers handed out, and the requests they are waiting on.
struct OverlayCapture::Owner {
  std::mutex mutex;
  OverlayCapture* capture = nullptr;
  std::vector<std::shared_ptr<Pending>> waiting;
};

OverlayCapture::OverlayCapture(QSize size, QObject* parent)
    : QObject(parent), m_size(size), m_owner(std::make_shared<Owner>()) {
  m_owner->capture = this;
}

OverlayCapture::~OverlayCapture() {
  {
    const std::lock_guard lock(m_owner->mutex);
    m_owner->capture = nullptr;
    for (const auto& p : m_owner->waiting) p->answer(Error{"the viewport was closed"});
    m_owner->waiting.clear();
  }
  delete m_view;
}

bool OverlayCapture::displayAvailable() {
  const QString platform = QGuiApplication::platformName();
  return qobject_cast<QApplication*>(QCoreApplication::instance()) && platform != "offscreen" &&
         platform != "minimal" && platform != "vnc";
}

core::PictureLegend OverlayCapture::legend() {
  return {
      toQColor(SceneStyle::kOriginalMesh).name().toStdString(),
      toQColor(SceneStyle::kCompressedMesh).name().toStdString(),
      "the compressed pose drawn as a wireframe over the original, both skeletons shown, the worst joint highlighted "
      "in white"};
}

void OverlayCapture::render(const core::PoseOverlay& overlay, std::function<void(Expected<QImage>)> done) {
  if (m_done) return done(Error{"the viewport is still drawing another picture"});
  if (!m_broken.empty()) return done(Error{m_broken});
  if (!overlay.asset || overlay.originalLocal.size() != overlay.asset->skeleton.jointCount() ||
      overlay.compressedLocal.size() != overlay.originalLocal.size())
    return done(Error{"no poses to draw"});
  // Another file gets a view of its own: a view whose asset was replaced sometimes leaves the
  // new ghost's wireframe undrawn. The clips of one file share its view.
  const auto& shown = m_view ? m_view->asset() : nullptr;
  const bool sameFile = shown && shown->file == overlay.asset->file &&
                        shown->skeleton.jointCount() == overlay.asset->skeleton.jointCount() &&
                        shown->meshes.size() == overlay.asset->meshes.size();
  if (m_view && !sameFile) {
    delete m_view;
    m_view = nullptr;
    m_capture = nullptr;
  }
  if (!m_view) {
    m_view = new ViewportWidget;
    m_view->setWindowTitle("Rendering review pictures");
    m_view->setWindowFlags(Qt::Tool | Qt::FramelessWindowHint | Qt::WindowDoesNotAcceptFocus);
    m_view->setAttribute(Qt::WA_ShowWithoutActivating);
    m_view->setAttribute(Qt::WA_QuitOnClose, false);  // never what keeps the studio open
    m_view->resize(m_size);
    m_view->setCompareMode(CompareMode::Overlay);
    m_view->setGhostStyle(GhostStyle::Wireframe);
    // The capture wraps the viewport's last pass, so it reads the frame once every pass has drawn
    // (the OpenGL renderer reads back where the capture sits; the RHI one at the frame's end).
    auto* window = static_cast<Qt3DExtras::Qt3DWindow*>(m_view->renderWindow());
    auto* camera = window->activeFrameGraph()->findChild<Qt3DRender::QCameraSelector*>();
    const auto passes = camera->findChildren<Qt3DRender::QFrameGraphNode*>(QString(), Qt::FindDirectChildrenOnly);
    m_capture = new Qt3DRender::QRenderCapture(camera);
    passes.back()->setParent(m_capture);
  }
  m_done = std::move(done);
  if (!m_view->asset()) m_view->setAsset(overlay.asset);
  m_view->setPoses(overlay.originalLocal, overlay.compressedLocal);
  m_view->setSelectedJoint(overlay.worstJoint);
  m_view->frameAll();
  m_view->setContinuousRendering(true);
  m_view->show();
  // No frame at all (a display Qt 3D cannot draw on) must still answer.
  const int request = ++m_requests;
  QTimer::singleShot(kFrameTimeoutMs, this, [this, request] {
    if (!m_done || request != m_requests) return;
    // Later pictures would wait as long for nothing.
    m_broken = "the viewport drew no frame within " + std::to_string(kFrameTimeoutMs / 1000) + " s";
    finish(Error{m_broken});
  });
  capture(kMaxCapturesPerPicture);
}

void OverlayCapture::capture(int remaining) {
  Qt3DRender::QRenderCaptureReply* reply = m_capture->requestCapture();
  connect(reply, &Qt3DRender::QRenderCaptureReply::completed, this, [this, reply, remaining] {
    reply->deleteLater();
    if (!m_done) return;  // timed out meanwhile
    QImage image = reply->image().convertToFormat(QImage::Format_RGB32);
    // New geometry reaches the GPU a few frames after it is set (the first ones may show only the
    // background): the picture is the first frame with something in it that the next one repeats.
    const bool settled = !image.isNull() && image == m_previous && drewSomething(image);
    m_previous = image;
    if (!settled && remaining > 1) return capture(remaining - 1);
    m_previous = QImage();
    // The RHI renderer (Qt 3D's default) reads the frame back bottom row first; the OpenGL one does not.
    if (qgetenv("QT3D_RENDERER") != "opengl") image = image.mirrored();
    if (image.isNull() || !drewSomething(image)) finish(Error{"the viewport drew an empty picture"});
    else finish(std::move(image));
  });
}

void OverlayCapture::finish(Expected<QImage> result) {
  auto done = std::move(m_done);
  m_done = nullptr;
  m_view->setContinuousRendering(false);
  // Hidden once a packet's pictures are done: a window shown again renders stale frames at first.
  const int request = m_requests;
  QTimer::singleShot(kHideAfterMs, this, [this, request] {
    if (!m_done && request == m_requests && m_view) m_view->hide();
  });
  done(std::move(result));
}

core::PictureRenderer OverlayCapture::renderer(int timeoutMs) {
  return [owner = m_owner, timeoutMs](const core::PoseOverlay& overlay) -> Expected<core::Image> {
    auto pending = std::make_shared<Pending>();
    {
      // Under the owner's lock the capture cannot be destroyed before the request is queued and
      // listed; its destructor answers every listed request.
      const std::lock_guard lock(owner->mutex);
      OverlayCapture* capture = owner->capture;
      if (!capture) return Error{"the viewport was closed"};
      // On the viewport's own thread the wait below would block the very loop that renders.
      if (QThread::currentThread() == capture->thread())
        return Error{"the viewport's pictures are asked for from a worker thread only"};
      owner->waiting.push_back(pending);
      QMetaObject::invokeMethod(
          capture,
          [capture, owner, pending, overlay] {
            capture->render(overlay, [owner, pending](Expected<QImage> image) {
              if (image) pending->answer(toCoreImage(*image));
              else pending->answer(Error{image.message()});
              const std::lock_guard done(owner->mutex);
              std::erase(owner->waiting, pending);
            });
          },
          Qt::QueuedConnection);
    }
    std::unique_lock lock(pending->mutex);
    if (!pending->ready.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                                 [&] { return pending->result.has_value(); }))
      return Error{"the viewport did not answer within " + std::to_string(timeoutMs / 1000) + " s"};
    return std::move(*pending->result);
  };
}

core::Image toCoreImage(const QImage& image) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
  core::Image out(rgb.width(), rgb.height(), core::Rgb{});
  for (int y = 0; y < rgb.height(); ++y) {
    const uchar* row = rgb.constScanLine(y);
    std::copy(row, row + std::size_t(rgb.width()) * 3,
              out.rgb.begin() + std::ptrdiff_t(std::size_t(y) * std::size_t(rgb.width()) * 3));
  }
  return out;
}

}  // namespace animpack::viewport
