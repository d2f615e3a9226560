// The 3D viewport (viewport/viewport_widget.h), rendered for real under Xvfb and grabbed from the screen: a skinned
// sample is visible, lit and framed, and the up axis turns it; the original and the compressed pose at the worst frame
// differ visibly at 5 cm and agree within antialiasing noise at 0.001 cm; a BVH shows its skeleton alone; vertex error
// colours render; morph targets deform the mesh; clicking a joint selects it; bad input never crashes.
// Set ANIMPACK_VIEWPORT_SHOTS=DIR to keep the screenshots.
#include <QApplication>
#include <QDir>
#include <QScreen>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>

#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/runtime/player.h"
#include "tests/support/test_rigs.h"
#include "viewport/legend_bar.h"
#include "viewport/scene_style.h"
#include "viewport/viewport_widget.h"

using namespace animpack;
using namespace animpack::viewport;

namespace {

std::shared_ptr<const core::ImportedAsset> load(const std::string& file) {
  auto a = core::importAsset(test::model(file));
  if (!a) qFatal("%s", a.message().c_str());
  return std::make_shared<const core::ImportedAsset>(std::move(a.value()));
}

core::CompressedClip compress(const core::ImportedAsset& a, std::size_t clip, float precisionCm) {
  core::CompressionSettings settings;
  settings.precisionCm = precisionCm;
  auto job = core::makeCompressJob(a, a.clips[clip], core::resolve(settings, a.skeleton, a.clips[clip].name));
  auto r = job.run();
  if (!r) qFatal("%s", r.message().c_str());
  return std::move(r.value());
}

/// The decoded pose of `clip` at `frame`, through the runtime as the studio does it.
std::vector<core::Transform> decode(const core::ImportedAsset& a, const core::CompressedClip& clip,
                                    std::uint32_t frame) {
  auto view = runtime::ClipView::open(clip.data, a.skeleton.restLocal);
  if (!view) qFatal("%s", view.message().c_str());
  std::vector<core::Transform> pose(a.skeleton.jointCount());
  runtime::Player player;
  player.sampleFrame(*view, float(frame), pose);
  return pose;
}

/// Frame with the largest error of any joint in the compressor's table.
std::uint32_t worstFrame(const core::CompressedClip& c, std::size_t joints) {
  const auto it = std::max_element(c.stats.errors.begin(), c.stats.errors.end());
  return static_cast<std::uint32_t>(std::size_t(it - c.stats.errors.begin()) / joints);
}

QImage grabOnce(ViewportWidget& w) {
  QWindow* window = w.renderWindow();
  const QPoint origin = window->mapToGlobal(QPoint(0, 0));
  return window->screen()
      ->grabWindow(0, origin.x(), origin.y(), window->width(), window->height())
      .toImage()
      .convertToFormat(QImage::Format_RGB32);
}

/// The screen once Qt 3D has caught up: two grabs in a row agree (rendering is on demand).
QImage settledGrab(ViewportWidget& w) {
  QTest::qWait(300);
  QImage previous = grabOnce(w);
  for (int i = 0; i < 40; ++i) {
    QTest::qWait(200);
    QImage next = grabOnce(w);
    if (next == previous) return next;
    previous = next;
  }
  qWarning("the view did not settle");
  return previous;
}

void keep(const QImage& image, const QString& name) {
  const QString dir = qEnvironmentVariable("ANIMPACK_VIEWPORT_SHOTS");
  if (dir.isEmpty()) return;
  QDir().mkpath(dir);
  const QString renderer = qEnvironmentVariable("QT3D_RENDERER", "rhi");
  image.save(dir + "/" + renderer + "-" + name + ".png");
}

QRgb background() {
  const Rgba c = SceneStyle::kBackground;
  return QColor::fromRgbF(c[0], c[1], c[2]).rgb();
}

bool isBackground(QRgb p) {
  const QRgb b = background();
  return std::abs(qRed(p) - qRed(b)) <= 2 && std::abs(qGreen(p) - qGreen(b)) <= 2 && std::abs(qBlue(p) - qBlue(b)) <= 2;
}

int countForeground(const QImage& image) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) n += !isBackground(image.pixel(x, y));
  return n;
}

/// Pixels covered in one image but not in the other (the silhouettes' symmetric difference).
int silhouetteDifference(const QImage& a, const QImage& b) {
  int n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) n += isBackground(a.pixel(x, y)) != isBackground(b.pixel(x, y));
  return n;
}

QRect foregroundBounds(const QImage& image) {
  QRect r;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (!isBackground(image.pixel(x, y))) r |= QRect(x, y, 1, 1);
  return r;
}

}  // namespace

class TestViewport : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (QGuiApplication::platformName() != "xcb") QSKIP("Qt 3D needs an X display: run under xvfb-run");
    m_wuson = load("X/Testwuson.X");
  }

  void init() {
    m_view = std::make_unique<ViewportWidget>();
    m_view->resize(800, 600);
    m_view->move(20, 20);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
  }
  void cleanup() { m_view.reset(); }

  void skinnedSampleIsVisibleAndStandsUp() {
    // Testwuson.X imports Y-up (Assimp's X loader converts the file's axes): the bison stands on
    // its four legs as imported, longer than tall; Z up stands it on its tail.
    m_view->setAsset(m_wuson);
    const core::RawClip& walk = m_wuson->clips[1];
    m_view->setPoses(walk.frame(10), walk.frame(10));
    m_view->setShowGrid(false);
    m_view->setShowSkeleton(false);
    m_view->frameAll();
    const QImage shot = settledGrab(*m_view);
    keep(shot, "wuson-walk10");
    const int covered = countForeground(shot);
    QVERIFY2(covered > shot.width() * shot.height() / 20, qPrintable(QString("%1 mesh pixels").arg(covered)));
    // Framed: the figure fills the view without being clipped at its edges.
    const QRect bounds = foregroundBounds(shot);
    QVERIFY2(bounds.width() > shot.width() / 2 || bounds.height() > shot.height() / 2,
             qPrintable(QString("%1x%2").arg(bounds.width()).arg(bounds.height())));
    QVERIFY(bounds.left() > 0 && bounds.top() > 0 && bounds.right() < shot.width() - 1 &&
            bounds.bottom() < shot.height() - 1);
    // Lit: the mesh shows a range of shades, not one flat (or black) colour.
    int darkest = 255, brightest = 0;
    for (int y = bounds.top(); y <= bounds.bottom(); ++y)
      for (int x = bounds.left(); x <= bounds.right(); ++x) {
        const QRgb p = shot.pixel(x, y);
        if (isBackground(p)) continue;
        darkest = std::min(darkest, qGray(p));
        brightest = std::max(brightest, qGray(p));
      }
    QVERIFY2(brightest > 150 && brightest - darkest > 60,
             qPrintable(QString("gray %1..%2").arg(darkest).arg(brightest)));
    // Every joint projects into the view, and the legend names what is shown.
    for (int j = 0; j < int(m_wuson->skeleton.jointCount()); ++j) {
      const auto p = m_view->jointWindowPosition(j);
      QVERIFY(p && p->x() >= 0 && p->y() >= 0 && p->x() <= shot.width() && p->y() <= shot.height());
    }
    QVERIFY(m_view->legend()->text().contains("original"));

    // On its legs, the spine (pelvis to neck) runs across the screen (the default view looks from
    // 25 degrees right and 15 above); Z up stands the bison on its tail, the spine upright.
    const int pelvis = m_wuson->skeleton.find("Pelvis"), neck = m_wuson->skeleton.find("Neck");
    QVERIFY(pelvis >= 0 && neck >= 0);
    const auto spine = [&] { return *m_view->jointWindowPosition(neck) - *m_view->jointWindowPosition(pelvis); };
    QVERIFY2(std::abs(spine().y()) < std::abs(spine().x()),
             qPrintable(QString("%1 %2").arg(spine().x()).arg(spine().y())));
    m_view->setUpAxis(UpAxis::ZUp);  // re-frames
    keep(settledGrab(*m_view), "wuson-walk10-zup");
    QVERIFY2(std::abs(spine().y()) > 2 * std::abs(spine().x()),
             qPrintable(QString("%1 %2").arg(spine().x()).arg(spine().y())));
  }

  void compressedPoseDiffersAtCoarsePrecisionOnly_data() {
    QTest::addColumn<float>("precisionCm");
    QTest::addColumn<bool>("visible");
    QTest::newRow("5 cm") << 5.f << true;
    QTest::newRow("0.001 cm") << 0.001f << false;
  }
  void compressedPoseDiffersAtCoarsePrecisionOnly() {
    QFETCH(float, precisionCm);
    QFETCH(bool, visible);
    const std::size_t clip = 1;  // Wuson_Walk
    const core::CompressedClip coarse = compress(*m_wuson, clip, 5.f);
    const std::uint32_t frame = worstFrame(coarse, m_wuson->skeleton.jointCount());
    const core::CompressedClip c = precisionCm == 5.f ? coarse : compress(*m_wuson, clip, precisionCm);
    const std::vector<core::Transform> decoded = decode(*m_wuson, c, frame);

    m_view->setAsset(m_wuson);
    m_view->setShowGrid(false);
    m_view->setShowSkeleton(false);
    m_view->setPoses(m_wuson->clips[clip].frame(frame), decoded);
    m_view->frameAll();
    const float vertexError = m_view->maxVertexErrorCm();
    m_view->setShowCompressed(false);
    const QImage original = settledGrab(*m_view);
    m_view->setShowCompressed(true);
    m_view->setShowOriginal(false);
    const QImage compressed = settledGrab(*m_view);
    m_view->setShowOriginal(true);
    const QImage overlay = settledGrab(*m_view);
    const QString tag = QString("precision-%1cm-frame%2").arg(double(precisionCm)).arg(frame);
    keep(original, tag + "-original");
    keep(compressed, tag + "-compressed");
    keep(overlay, tag + "-overlay");

    const int meshPixels = countForeground(original);
    const int differing = silhouetteDifference(original, compressed);
    const QString what = QString("%1 of %2 mesh pixels differ; max vertex error %3 cm, clip max error %4 cm")
                             .arg(differing)
                             .arg(meshPixels)
                             .arg(double(vertexError))
                             .arg(double(c.stats.maxErrorCm));
    qInfo("%s: %s", qPrintable(tag), qPrintable(what));
    QVERIFY(meshPixels > 10000);
    if (visible) {
      QVERIFY2(vertexError > 0.2f, qPrintable(what));
      QVERIFY2(differing > meshPixels / 50, qPrintable(what));  // > 2 %
    } else {
      QVERIFY2(vertexError < 0.05f, qPrintable(what));
      QVERIFY2(differing < meshPixels / 200, qPrintable(what));  // < 0.5 %: antialiasing noise only
    }
  }

  void bvhShowsTheSkeletonAlone() {
    const auto bvh = load("BVH/01_01.bvh");
    m_view->setAsset(bvh);
    m_view->setShowGrid(false);
    const core::RawClip& motion = bvh->clips[0];
    m_view->setPoses(motion.frame(600), motion.frame(600));
    m_view->frameAll();
    QCOMPARE(m_view->maxVertexErrorCm(), 0.f);
    const QImage shot = settledGrab(*m_view);
    keep(shot, "bvh-skeleton");
    const int covered = countForeground(shot);
    QVERIFY2(covered > 500, qPrintable(QString("%1 skeleton pixels").arg(covered)));
    // Framed: the skeleton spans a good part of the view (no placeholder mesh, no tiny figure).
    const QRect bounds = foregroundBounds(shot);
    QVERIFY2(bounds.height() > shot.height() / 2, qPrintable(QString("%1 px tall").arg(bounds.height())));
    m_view->setShowSkeleton(false);
    QCOMPARE(countForeground(settledGrab(*m_view)), 0);
  }

  void morphTargetsDeformTheMesh() {
    // AnimatedMorphCube: no joint, two targets; the viewport shows its mesh and morphs it by the
    // weights it is given, original and compressed apart, and the vertex error includes the morphs.
    const auto cube = load("glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf");
    QCOMPARE(cube->skeleton.jointCount(), std::size_t(0));
    QCOMPARE(cube->curves.size(), std::size_t(2));
    m_view->setAsset(cube);
    m_view->setShowGrid(false);
    const std::vector<float> rest(2, 0.f), first{1.f, 0.f}, half{0.5f, 0.f};
    m_view->setPoses({}, {}, rest, rest);
    m_view->frameAll();
    QCOMPARE(m_view->maxVertexErrorCm(), 0.f);
    m_view->setShowCompressed(false);
    const QImage atRest = settledGrab(*m_view);
    keep(atRest, "morph-cube-rest");
    QVERIFY2(countForeground(atRest) > 5000, qPrintable(QString("%1 pixels").arg(countForeground(atRest))));
    // The compressed figure at weight 1: its vertices move the target's largest displacement.
    m_view->setPoses({}, {}, rest, first);
    const double displacement = cube->curves[0].displacementCm;
    QVERIFY(displacement > 0);
    QVERIFY2(std::abs(m_view->maxVertexErrorCm() - displacement) <= 1e-3 * displacement,
             qPrintable(QString("%1 cm against %2 cm").arg(double(m_view->maxVertexErrorCm())).arg(displacement)));
    m_view->setPoses({}, {}, half, first);
    QVERIFY(std::abs(m_view->maxVertexErrorCm() - 0.5 * displacement) <= 1e-3 * displacement);
    // The original morphed to weight 1 draws another silhouette than at rest.
    m_view->setPoses({}, {}, first, first);
    const QImage morphed = settledGrab(*m_view);
    keep(morphed, "morph-cube-target0");
    QVERIFY2(silhouetteDifference(atRest, morphed) > 200,
             qPrintable(QString("%1 pixels differ").arg(silhouetteDifference(atRest, morphed))));
    // No weights: the rest shapes.
    m_view->setPoses({}, {}, std::vector<float>{}, std::vector<float>{});
    QCOMPARE(m_view->maxVertexErrorCm(), 0.f);
  }

  void vertexErrorColoursRender() {
    const core::CompressedClip coarse = compress(*m_wuson, 1, 5.f);
    const std::uint32_t frame = worstFrame(coarse, m_wuson->skeleton.jointCount());
    m_view->setAsset(m_wuson);
    m_view->setShowSkeleton(false);
    m_view->setShowGrid(false);
    m_view->setShowOriginal(false);
    m_view->setPoses(m_wuson->clips[1].frame(frame), decode(*m_wuson, coarse, frame));
    m_view->setVertexErrorColoring(true);
    m_view->frameAll();
    // The automatic scale covers the largest displacement; half of it makes the worst vertices red.
    QVERIFY(m_view->vertexErrorScaleCm() >= m_view->maxVertexErrorCm());
    m_view->setVertexErrorScaleCm(0.5f * m_view->maxVertexErrorCm());
    QVERIFY(m_view->legend()->text().contains("vertex error"));
    const QImage shot = settledGrab(*m_view);
    keep(shot, "vertex-error");
    int red = 0, green = 0, blue = 0;
    for (int y = 0; y < shot.height(); ++y)
      for (int x = 0; x < shot.width(); ++x) {
        const QRgb p = shot.pixel(x, y);
        red += qRed(p) > 150 && qGreen(p) < 140 && qBlue(p) < 100;
        green += qGreen(p) > 150 && qRed(p) < 140 && qBlue(p) < 100;
        blue += qBlue(p) > 150 && qRed(p) < 140;
      }
    QVERIFY2(red > 200 && green > 200, qPrintable(QString("red %1 green %2").arg(red).arg(green)));
    QCOMPARE(blue, 0);  // no ghost blue left
    m_view->setGhostStyle(GhostStyle::Wireframe);
    keep(settledGrab(*m_view), "vertex-error-wireframe");
  }

  void sideBySideAndBlendPreviewShowTwoFigures() {
    m_view->setAsset(m_wuson);
    m_view->setShowGrid(false);
    const core::RawClip& run = m_wuson->clips[0];
    const core::RawClip& walk = m_wuson->clips[1];
    m_view->setPoses(walk.frame(20), walk.frame(20));
    m_view->frameAll();
    const QRect overlay = foregroundBounds(settledGrab(*m_view));
    m_view->setCompareMode(CompareMode::SideBySide);
    const QImage split = settledGrab(*m_view);
    keep(split, "side-by-side");
    // Two figures side by side, re-framed: each half of the drawing holds a good share of it.
    const QRect both = foregroundBounds(split);
    QVERIFY(both.width() > overlay.width());
    int left = 0, right = 0;
    for (int y = 0; y < split.height(); ++y)
      for (int x = 0; x < split.width(); ++x)
        if (!isBackground(split.pixel(x, y))) (x < both.center().x() ? left : right) += 1;
    QVERIFY2(left > (left + right) / 4 && right > (left + right) / 4,
             qPrintable(QString("%1 | %2").arg(left).arg(right)));

    std::vector<core::Transform> naive(walk.jointCount), decomposed(walk.jointCount);
    runtime::blendPoses(run.frame(15), walk.frame(40), 0.5f, runtime::BlendMode::Naive, m_wuson->skeleton.restLocal,
                        naive);
    runtime::blendPoses(run.frame(15), walk.frame(40), 0.5f, runtime::BlendMode::Decomposed,
                        m_wuson->skeleton.restLocal, decomposed);
    m_view->setBlendPreview(naive, decomposed);
    QVERIFY(m_view->blendPreviewActive());
    QVERIFY(m_view->legend()->text().contains("naive"));
    const QImage blend = settledGrab(*m_view);
    keep(blend, "blend-preview");
    QVERIFY(countForeground(blend) > 10000);
    m_view->setBlendPreview({}, {});
    QVERIFY(!m_view->blendPreviewActive());
    m_view->setCompareMode(CompareMode::Overlay);
    m_view->setGhostStyle(GhostStyle::Wireframe);
    keep(settledGrab(*m_view), "overlay-wireframe");
  }

  void clickingAJointSelectsIt() {
    m_view->setAsset(m_wuson);
    m_view->setShowMesh(false);
    m_view->frameAll();
    // A joint whose projection has no neighbour within the pick radius.
    const int joints = int(m_wuson->skeleton.jointCount());
    int target = -1;
    for (int j = 0; j < joints && target < 0; ++j) {
      const QPointF p = *m_view->jointWindowPosition(j);
      bool alone = true;
      for (int k = 0; k < joints; ++k)
        if (k != j && QLineF(p, *m_view->jointWindowPosition(k)).length() < 12) alone = false;
      if (alone) target = j;
    }
    QVERIFY(target >= 0);
    QSignalSpy spy(m_view.get(), &ViewportWidget::jointClicked);
    const QPoint at = m_view->jointWindowPosition(target)->toPoint() + QPoint(3, -2);
    QTest::mouseClick(m_view->renderWindow(), Qt::LeftButton, Qt::NoModifier, at);
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), target);
    QCOMPARE(m_view->selectedJoint(), target);
    std::vector<float> ratios(static_cast<std::size_t>(joints));
    for (int j = 0; j < joints; ++j) ratios[std::size_t(j)] = float(j) / float(joints - 1) * 1.2f;
    m_view->setJointErrorRatios(ratios);
    keep(settledGrab(*m_view), "skeleton-selected");
    // A drag orbits instead of picking; a click far from every joint picks nothing.
    QTest::mousePress(m_view->renderWindow(), Qt::LeftButton, Qt::NoModifier, at);
    QTest::mouseMove(m_view->renderWindow(), at + QPoint(60, 10));
    QTest::mouseRelease(m_view->renderWindow(), Qt::LeftButton, Qt::NoModifier, at + QPoint(60, 10));
    QTest::mouseClick(m_view->renderWindow(), Qt::LeftButton, Qt::NoModifier, QPoint(2, 2));
    QTest::qWait(50);
    QCOMPARE(spy.count(), 1);
  }

  void keysReachTheStudio() {
    // Keys typed into the 3D window go up the widget tree (the studio's Space toggles playback);
    // F frames the view.
    struct Recorder : QObject {
      QList<int> keys;
      bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::KeyPress) keys << static_cast<QKeyEvent*>(e)->key();
        return false;
      }
    } recorder;
    QWidget studio;
    studio.installEventFilter(&recorder);
    auto* view = new ViewportWidget(&studio);
    studio.resize(640, 480);
    view->resize(640, 480);
    studio.show();
    QVERIFY(QTest::qWaitForWindowExposed(&studio));
    view->setAsset(m_wuson);
    const QPointF framed = *view->jointWindowPosition(0);
    QTest::mousePress(view->renderWindow(), Qt::LeftButton, Qt::NoModifier, QPoint(300, 200));
    QTest::mouseMove(view->renderWindow(), QPoint(420, 260));
    QTest::mouseRelease(view->renderWindow(), Qt::LeftButton, Qt::NoModifier, QPoint(420, 260));
    QVERIFY(QLineF(*view->jointWindowPosition(0), framed).length() > 5);  // orbited
    QTest::keyClick(view->renderWindow(), Qt::Key_Space);
    QCOMPARE(recorder.keys, QList<int>{Qt::Key_Space});
    const auto jointsInView = [&] {
      int n = 0;
      for (int j = 0; j < int(m_wuson->skeleton.jointCount()); ++j) {
        const auto p = view->jointWindowPosition(j);
        n += p && p->x() >= 0 && p->y() >= 0 && p->x() <= view->renderWindow()->width() &&
             p->y() <= view->renderWindow()->height();
      }
      return n;
    };
    QCOMPARE(jointsInView(), int(m_wuson->skeleton.jointCount()));
    QWheelEvent zoomIn(QPointF(320, 240), view->renderWindow()->mapToGlobal(QPointF(320, 240)), QPoint(),
                       QPoint(0, 8 * 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view->renderWindow(), &zoomIn);
    QVERIFY(jointsInView() < int(m_wuson->skeleton.jointCount()));
    QTest::keyClick(view->renderWindow(), Qt::Key_F);  // re-frames, keeping the orbit
    QCOMPARE(recorder.keys.size(), 1);
    QCOMPARE(jointsInView(), int(m_wuson->skeleton.jointCount()));
  }

  void badInputIsIgnored() {
    const std::vector<core::Transform> empty, wrong(3);
    m_view->setPoses(empty, empty);  // no asset yet
    m_view->setJointErrorRatios({});
    m_view->setSelectedJoint(5);
    QCOMPARE(m_view->selectedJoint(), -1);
    m_view->frameAll();
    m_view->setAsset(m_wuson);
    const core::RawClip& walk = m_wuson->clips[1];
    m_view->setPoses(walk.frame(3), wrong);  // compressed keeps its rest pose
    const float restError = m_view->maxVertexErrorCm();
    m_view->setPoses(wrong, empty);
    QCOMPARE(m_view->maxVertexErrorCm(), restError);
    const std::vector<float> ratios(2, 1.f);
    m_view->setJointErrorRatios(ratios);
    m_view->setSelectedJoint(1000);
    QCOMPARE(m_view->selectedJoint(), -1);
    m_view->setBlendPreview(walk.frame(1), wrong);
    QVERIFY(!m_view->blendPreviewActive());
    m_view->setVertexErrorColoring(true);
    m_view->setVertexErrorScaleCm(-1.f);
    m_view->setVertexErrorScaleCm(std::nanf(""));
    QCOMPARE(m_view->options().vertexErrorScaleCm, 0.f);
    // An asset with nothing to show, then none at all.
    auto noSkeleton = std::make_shared<core::ImportedAsset>();
    m_view->setAsset(noSkeleton);
    QVERIFY(!m_view->asset());
    m_view->setPoses(walk.frame(3), walk.frame(3));
    m_view->setAsset(nullptr);
    m_view->frameAll();
    QVERIFY(countForeground(settledGrab(*m_view)) > 0);  // the grid is still drawn
  }

 private:
  std::shared_ptr<const core::ImportedAsset> m_wuson;
  std::unique_ptr<ViewportWidget> m_view;
};

int main(int argc, char** argv) {
  // Without an X display the xcb platform aborts in QApplication's constructor: fall back to
  // offscreen so initTestCase can skip instead.
  if (qEnvironmentVariableIsEmpty("DISPLAY")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  TestViewport test;
  return QTest::qExec(&test, argc, argv);
}

#include "tst_viewport.moc"
