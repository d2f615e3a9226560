#pragma once
// Rendering an HTML file with headless Chromium (Debian `chromium`) into a screenshot, for the tests
// that look at the review packet as a browser shows it. Header-only: its users link Qt6::Gui.

#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>

#include <unistd.h>

namespace animpack::test {

struct ChromiumShot {
  QImage image;
  QString problem;  ///< why Chromium could not render (the test then skips)
};

/// Renders `html` with headless Chromium into a screenshot.
inline ChromiumShot renderWithChromium(const QString& html, const QString& png) {
  const QString chromium = QStandardPaths::findExecutable("chromium");
  if (chromium.isEmpty())
    return {{}, "chromium is not installed (apt-get install chromium; scripts/setup-lib.sh lists it)"};
  QTemporaryDir profile;
  QStringList args = {"--headless",
                      "--disable-gpu",
                      "--hide-scrollbars",
                      "--no-first-run",
                      "--window-size=1200,1500",
                      "--user-data-dir=" + profile.path(),
                      "--screenshot=" + png,
                      QUrl::fromLocalFile(html).toString()};
  if (geteuid() == 0) args.prepend("--no-sandbox");  // Chromium refuses to run as root with its sandbox
  QFile::remove(png);
  QProcess p;
  p.start(chromium, args);
  if (!p.waitForStarted(30000)) return {{}, "chromium did not start: " + p.errorString()};
  if (!p.waitForFinished(180000)) {
    p.kill();
    p.waitForFinished();
    return {{}, "chromium did not finish within 180 s"};
  }
  QImage image(png);
  if (image.isNull())
    return {{},
            QString("chromium wrote no screenshot (exit %1): %2")
                .arg(p.exitCode())
                .arg(QString(p.readAllStandardError().right(400)))};
  return {image, {}};
}

}  // namespace animpack::test
