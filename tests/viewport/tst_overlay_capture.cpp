// The review packet's pictures drawn by the viewport (viewport/overlay_capture.h), under Xvfb:
// packets of real and generated projects built on a worker thread, as the studio builds them, hold
// one PNG per worst clip (five at most), each showing both the original's and the compressed pose's
// colours, and say that the viewport drew them.
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>
#include <thread>

#include "core/project/project.h"
#include "core/review/review_build.h"
#include "tests/support/chromium_render.h"
#include "tests/support/test_rigs.h"
#include "viewport/overlay_capture.h"
#include "viewport/scene_style.h"

using namespace animpack;
using namespace animpack::viewport;

namespace {

QString writeProject(const QDir& dir, const QStringList& sources) {
  QStringList entries;
  for (const QString& s : sources) entries << QString("{\"path\":\"%1\"}").arg(s);
  const QString path = dir.filePath("pictures.anproj");
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(QString("{\"animpack_project\":2,\"sources\":[%1],\"settings\":{}}").arg(entries.join(',')).toUtf8());
  return path;
}

/// Builds the packet on a worker thread while this thread's event loop serves the renderer.
Expected<core::ReviewPacket> buildWithViewport(const QString& projectPath, OverlayCapture& capture) {
  auto project = core::readProject(projectPath.toStdString());
  if (!project) return Error{project.message()};
  core::ReviewOptions options;
  options.renderer = capture.renderer(120000);
  options.rendererName = OverlayCapture::rendererName();
  options.legend = OverlayCapture::legend();
  options.jobs = 2;
  std::optional<Expected<core::ReviewPacket>> packet;
  std::atomic<bool> done = false;
  std::thread worker([&] {
    packet.emplace(core::buildReviewPacket(*project, projectPath.toStdString(), options));
    done = true;
  });
  const bool finished = QTest::qWaitFor([&] { return done.load(); }, 600000);
  worker.join();
  if (!finished) return Error{"the packet took over 10 minutes"};
  return std::move(*packet);
}

struct Colours {
  int original = 0, compressed = 0;
};

/// Pixels of the original's grey (mesh and bones, lit) and of the compressed pose's blue.
Colours colours(const QImage& image) {
  Colours c;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      const int r = qRed(p), g = qGreen(p), b = qBlue(p);
      const int lo = std::min({r, g, b}), hi = std::max({r, g, b});
      c.original += lo > 135 && hi - lo < 25;
      c.compressed += b > 120 && b - r > 70;
    }
  return c;
}

/// Pixels in rows [y0, y1) that are not the viewport's background.
int drawnRows(const QImage& image, int y0, int y1) {
  const QColor bg = toQColor(SceneStyle::kBackground);
  int n = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      n += std::abs(qRed(p) - bg.red()) + std::abs(qGreen(p) - bg.green()) + std::abs(qBlue(p) - bg.blue()) > 30;
    }
  return n;
}

/// Checks every picture of `packet` and keeps them next to the test for a person to look at.
void checkPictures(const core::ReviewPacket& packet, std::size_t expected, const QString& name) {
  QVERIFY2(packet.picturesNote.empty(), packet.picturesNote.c_str());
  QCOMPARE(packet.pictures.size(), expected);
  QCOMPARE(QString::fromStdString(packet.picturesRenderer), QString(OverlayCapture::rendererName()));
  for (std::size_t i = 0; i < packet.pictures.size(); ++i) {
    const core::ReviewPicture& p = packet.pictures[i];
    const QImage image = QImage::fromData(p.png.data(), int(p.png.size()), "PNG");
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), p.width);
    image.save(QDir::current().filePath(QString("%1_picture_%2.png").arg(name).arg(i)));
    const Colours c = colours(image);
    const int area = image.width() * image.height();
    // Upright (each Qt 3D renderer reads back its own way): the ground grid fills the bottom, the
    // top above the figure is background.
    QVERIFY2(drawnRows(image, 0, image.height() / 5) < drawnRows(image, image.height() * 4 / 5, image.height()),
             qPrintable(QString("%1 picture %2 is upside down").arg(name).arg(i)));
    QVERIFY2(c.original > area / 500 && c.compressed > area / 500,
             qPrintable(QString("%1 picture %2: %3 original, %4 compressed pixels of %5")
                            .arg(name)
                            .arg(i)
                            .arg(c.original)
                            .arg(c.compressed)
                            .arg(area)));
  }
}

}  // namespace

class TstOverlayCapture : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!OverlayCapture::displayAvailable() || QGuiApplication::platformName() != "xcb")
      QSKIP("needs an X display (ctest runs it under xvfb-run)");
  }

  void fiveWorstOfManyClips() {
    // Three copies of a real skinned file: nine clips of one skeleton, pictures of the five worst.
    QTemporaryDir dir;
    QStringList sources;
    for (const char* copy : {"a.x", "b.x", "c.x"}) {
      QVERIFY(QFile::copy(QString::fromStdString(test::model("X/Testwuson.X").string()), dir.filePath(copy)));
      sources << copy;
    }
    OverlayCapture capture;
    auto packet = buildWithViewport(writeProject(QDir(dir.path()), sources), capture);
    QVERIFY2(packet, packet ? "" : packet.message().c_str());
    QCOMPARE(packet->clips.size(), std::size_t(9));
    checkPictures(*packet, 5, "five");
    const std::string html = core::reviewPacketHtml(*packet);
    QVERIFY(html.find("drawn by the studio's 3D viewport") != std::string::npos);
    QVERIFY(html.find(toQColor(SceneStyle::kCompressedMesh).name().toStdString()) != std::string::npos);

    // As a browser shows it: the pictures' blue wireframe comes only from the embedded PNGs.
    const QString page = dir.filePath("review.html");
    QVERIFY(core::writeReviewPacket(*packet, page.toStdString()));
    const QString shot = QDir::current().filePath("viewport_review_packet.png");  // kept for a person to look at
    const test::ChromiumShot rendered = test::renderWithChromium(page, shot);
    if (rendered.image.isNull()) QSKIP(qPrintable("cannot render with Chromium: " + rendered.problem));
    qInfo("screenshot: %s", qPrintable(shot));
    const Colours seen = colours(rendered.image.convertToFormat(QImage::Format_RGB32));
    QVERIFY2(seen.compressed > 5000, qPrintable(QString("%1 blue pixels").arg(seen.compressed)));
  }

  void everyClipOfARealFileWhenFewer() {
    QTemporaryDir dir;
    OverlayCapture capture;
    auto packet = buildWithViewport(
        writeProject(QDir(dir.path()), {QString::fromStdString(test::model("X/Testwuson.X").string())}), capture);
    QVERIFY2(packet, packet ? "" : packet.message().c_str());
    QCOMPARE(packet->clips.size(), std::size_t(3));
    checkPictures(*packet, 3, "wuson");
  }

  void neverWaitsOnItsOwnThread() {
    OverlayCapture capture;
    const auto image = capture.renderer(60000)(core::PoseOverlay{});
    QVERIFY(!image);
    QVERIFY2(image.message().find("worker thread") != std::string::npos, image.message().c_str());
  }

  void closedWhileWaiting() {
    // The renderer's owner gone: the worker gets an answer, not a hang.
    auto* capture = new OverlayCapture;
    const core::PictureRenderer renderer = capture->renderer(5000);
    delete capture;
    const auto image = renderer(core::PoseOverlay{});
    QVERIFY(!image);
    QVERIFY2(image.message().find("closed") != std::string::npos, image.message().c_str());
  }
};

QTEST_MAIN(TstOverlayCapture)
#include "tst_overlay_capture.moc"
