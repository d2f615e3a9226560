// animpack-studio: the desktop studio. `animpack-studio [FILE|PROJECT.anproj]` opens the file (the
// sample scripts/studio passes when given none); without one it starts empty.

#include <QApplication>
#include <QBuffer>
#include <QDockWidget>
#include <QCommandLineParser>
#include <QFile>
#include <QPixmap>
#include <QScreen>
#include <QTimer>

#include "app/main_window.h"
#include "core/io/atomic_file.h"
#include "viewport/viewport_widget.h"
#include "widgets/timeline.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("animpack studio");
  QApplication::setOrganizationName("animpack");
  QApplication::setApplicationVersion(ANIMPACK_VERSION);

  QCommandLineParser parser;
  parser.setApplicationDescription("animpack studio: see, tune and approve skeletal-animation compression.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("file",
                               "An animated rig (glTF, FBX, COLLADA, BVH, X, ...) or an .anproj project; more files or "
                               "folders join its project.",
                               "[file...]");
  QCommandLineOption screenshot(
      "screenshot",
      "Save a picture of the window to FILE after DELAY ms, then quit (docs, checks); the exit "
      "code is 1 when the file given did not open (the picture shows why).",
      "FILE");
  QCommandLineOption delay("screenshot-delay", "Milliseconds before the screenshot (default 4000).", "DELAY", "4000");
  QCommandLineOption joint("select", "Select the joint or morph target NAME (for screenshots).", "NAME");
  QCommandLineOption compressAll("compress-all",
                                 "Compress every clip once the files are open (Clip > Compress all clips).");
  QCommandLineOption time("time", "Pause the first clip at SECONDS (for screenshots).", "SECONDS");
  QCommandLineOption panel(
      "panel", "Bring the panel TITLE (\"Morph targets\", \"Blend\", ...) to the front (for screenshots).", "TITLE");
  parser.addOptions({screenshot, delay, joint, compressAll, time, panel});
  parser.process(app);

  animpack::app::MainWindow window;
  window.show();
  const QStringList files = parser.positionalArguments();
  int status = 0;
  bool shotTaken = false;
  QTimer shot;
  if (parser.isSet(screenshot)) {
    shot.setSingleShot(true);
    const QString path = parser.value(screenshot);
    QObject::connect(&shot, &QTimer::timeout, &window, [&window, path, &status, &shotTaken] {
      // Grab the screen, not the widget: QWidget::grab() leaves the Qt 3D area blank (and the
      // screen holds a dialog open over the window, such as the error of a file that failed).
      const QRect r = window.frameGeometry();
      const QPixmap pixels = QGuiApplication::primaryScreen()->grabWindow(0, r.x(), r.y(), r.width(), r.height());
      QByteArray png;
      QBuffer buffer(&png);
      if (!buffer.open(QIODevice::WriteOnly) || !pixels.save(&buffer, "PNG") ||
          !animpack::core::writeFileAtomic(QFile::encodeName(path).toStdString(),
                                           std::string_view(png.constData(), png.size())))
        status = 2;
      shotTaken = true;
      QCoreApplication::exit(0);  // ends every event loop, a dialog's too (quit() does nothing before exec())
    });
    // Started before the file opens: if opening shows a dialog (an error, a recovery question),
    // its event loop takes the picture instead of waiting for someone to close it.
    shot.start(parser.value(delay).toInt());
  }
  if (!files.isEmpty() && !window.openPath(files.front())) status = 1;
  // More files (or folders) on the command line join the first one's project.
  if (status == 0 && files.size() > 1) window.addPaths(files.mid(1));
  if (status == 0 && parser.isSet(compressAll)) window.recompressor()->compressAll();
  if (status == 0 && parser.isSet(time)) {
    window.timeline()->pause();
    window.document()->setCurrentTime(parser.value(time).toDouble());
    window.viewport()->frameAll();  // around the pose at that time
  }
  if (status == 0 && parser.isSet(joint) && window.document()->hasAsset()) {
    const animpack::core::ImportedAsset& asset = *window.document()->asset();
    const std::string name = parser.value(joint).toStdString();
    const int j = asset.skeleton.find(name);
    if (j >= 0) window.document()->setSelectedJoints({j});
    for (std::size_t c = 0; j < 0 && c < asset.curves.size(); ++c)
      if (asset.curves[c].name == name) window.document()->setSelectedCurves({int(c)});
  }
  if (parser.isSet(panel)) {
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
      if (dock->windowTitle() == parser.value(panel)) dock->raise();
  }
  if (shotTaken) return status;
  if (shot.isActive()) shot.start();  // the full delay after the file opened, for the viewport to draw
  else if (status != 0 && files.size() == 1) status = 0;  // the error was shown; the empty studio stays open
  const int rc = app.exec();
  return status ? status : rc;
}
