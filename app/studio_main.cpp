// animpack-studio: the desktop studio. `animpack-studio [FILE|PROJECT.anproj]` opens the file (the
// sample scripts/studio passes when given none); without one it starts empty.

#include <QApplication>
#include <QCommandLineParser>
#include <QPixmap>
#include <QSaveFile>
#include <QScreen>
#include <QTimer>

#include "app/main_window.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("animpack studio");
  QApplication::setOrganizationName("animpack");
  QApplication::setApplicationVersion(ANIMPACK_VERSION);

  QCommandLineParser parser;
  parser.setApplicationDescription("animpack studio: see, tune and approve skeletal-animation compression.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("file", "An animated rig (glTF, FBX, COLLADA, BVH, X, ...) or an .anproj project.");
  QCommandLineOption screenshot("screenshot", "Save a picture of the window to FILE after DELAY ms, then quit (docs, checks).",
                                "FILE");
  QCommandLineOption delay("screenshot-delay", "Milliseconds before the screenshot (default 4000).", "DELAY", "4000");
  QCommandLineOption joint("select", "Select the joint NAME (for screenshots).", "NAME");
  parser.addOptions({screenshot, delay, joint});
  parser.process(app);

  animpack::app::MainWindow window;
  window.show();
  const QStringList files = parser.positionalArguments();
  int status = 0;
  if (!files.isEmpty() && !window.openPath(files.front())) status = 1;
  if (status == 0 && parser.isSet(joint) && window.document()->hasAsset()) {
    const int j = window.document()->asset()->skeleton.find(parser.value(joint).toStdString());
    if (j >= 0) window.document()->setSelectedJoints({j});
  }
  if (parser.isSet(screenshot)) {
    const QString path = parser.value(screenshot);
    QTimer::singleShot(parser.value(delay).toInt(), &window, [&window, path, &status] {
      // Grab the screen, not the widget: QWidget::grab() leaves the Qt 3D area blank.
      const QRect r = window.frameGeometry();
      const QPixmap shot = QGuiApplication::primaryScreen()->grabWindow(0, r.x(), r.y(), r.width(), r.height());
      QSaveFile out(path);
      if (!out.open(QIODevice::WriteOnly) || !shot.save(&out, "PNG") || !out.commit()) status = 2;
      QApplication::quit();
    });
  } else if (status != 0 && files.size() == 1) {
    status = 0;  // the error was shown; the empty studio stays open
  }
  const int rc = app.exec();
  return status ? status : rc;
}
