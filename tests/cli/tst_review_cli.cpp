// `animpack report` as a user runs it: a project of real BVH files into one review packet, the
// exit codes, no file left behind on failure; and (label "report") the packet rendered by headless
// Chromium, its screenshot checked for the over-budget meter and the embedded pictures.
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/cli/cli_runner.h"
#include "tests/support/chromium_render.h"

using namespace animpack;

namespace {

QString writeProject(const QDir& dir, const QString& extra) {
  const QString path = dir.filePath("walks.anproj");
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  f.write(QString("{\"animpack_project\":2,\"sources\":[{\"path\":\"%1\"},{\"path\":\"%2\"}],\"settings\":{}%3}")
              .arg(test::modelPath("BVH/01_01.bvh"), test::modelPath("BVH/01_03.bvh"), extra)
              .toUtf8());
  return path;
}

int countNear(const QImage& image, QRgb colour, int tolerance = 30) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      n += std::abs(qRed(p) - qRed(colour)) + std::abs(qGreen(p) - qGreen(colour)) +
               std::abs(qBlue(p) - qBlue(colour)) <=
           tolerance;
    }
  return n;
}

}  // namespace

class TestReviewCli : public QObject {
  Q_OBJECT
 private slots:
  void writesThePacket() {
    QTemporaryDir dir;
    const QString project = writeProject(QDir(dir.path()), ",\"budget_kib\":100");
    const QString out = dir.filePath("review.html");
    const test::CliRun run = test::runCli({"report", project, "-o", out, "-q", "--jobs", "2"});
    QVERIFY2(run.code == 0, run.err.constData());
    QVERIFY2(run.out.contains("2 clip(s)") && run.out.contains("over budget") && run.out.contains("2 picture(s)"),
             run.out.constData());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(f.readAll());
    QCOMPARE(html.count("<tr class=\"clip\">"), 2);
    QVERIFY(html.contains("01_01.bvh") && html.contains("01_03.bvh"));
    QCOMPARE(html.count("src=\"data:image/png;base64,"), 2);
    QVERIFY(!html.contains("http://") && !html.contains("https://"));
  }

  void badUsageAndFailures() {
    QTemporaryDir dir;
    const QString out = dir.filePath("review.html");
    QCOMPARE(test::runCli({"report"}).code, 2);
    QCOMPARE(test::runCli({"report", writeProject(QDir(dir.path()), "")}).code, 2);  // no -o
    QCOMPARE(test::runCli({"report", "a.anproj", "b.anproj", "-o", out}).code, 2);
    QVERIFY(test::runCli({"report", "--help"}).out.contains("self-contained HTML"));
    const test::CliRun missing = test::runCli({"report", dir.filePath("missing.anproj"), "-o", out});
    QCOMPARE(missing.code, 1);
    QVERIFY2(missing.err.contains("missing.anproj"), missing.err.constData());
    const test::CliRun budget =
        test::runCli({"report", writeProject(QDir(dir.path()), ",\"budget_kib\":\"lots\""), "-o", out});
    QCOMPARE(budget.code, 1);
    QVERIFY2(budget.err.contains("budget_kib"), budget.err.constData());
    QVERIFY(!QFile::exists(out));
    // An output folder that does not exist: a clear error, nothing written.
    const test::CliRun unwritable =
        test::runCli({"report", writeProject(QDir(dir.path()), ""), "-o", dir.filePath("no/such/dir/r.html"), "-q"});
    QCOMPARE(unwritable.code, 1);
    QVERIFY(!QDir(dir.filePath("no")).exists());
  }

  void rendersInChromium() {
    QTemporaryDir dir;
    const QString project = writeProject(QDir(dir.path()), ",\"budget_kib\":100");
    const QString full = dir.filePath("review.html"), bare = dir.filePath("bare.html");
    QCOMPARE(test::runCli({"report", project, "-o", full, "-q"}).code, 0);
    QCOMPARE(test::runCli({"report", project, "-o", bare, "-q", "--no-pictures"}).code, 0);
    // Kept next to the test for a person to look at.
    const QString shot = QDir::current().filePath("review_packet.png");
    const test::ChromiumShot withPictures = test::renderWithChromium(full, shot);
    if (withPictures.image.isNull()) QSKIP(qPrintable("cannot render with Chromium: " + withPictures.problem));
    qInfo("screenshot: %s", qPrintable(shot));
    const test::ChromiumShot without = test::renderWithChromium(bare, dir.filePath("bare.png"));
    QVERIFY2(!without.image.isNull(), qPrintable(without.problem));
    QCOMPARE(withPictures.image.width(), 1200);
    // Over budget: the meter is red (#c8281e), in both.
    QVERIFY(countNear(withPictures.image, qRgb(200, 40, 30)) > 1000);
    QVERIFY(countNear(without.image, qRgb(200, 40, 30)) > 1000);
    // The compressed figure (#eb7814) is drawn only by the embedded PNGs (and their small legend).
    const int orangeWith = countNear(withPictures.image, qRgb(235, 120, 20));
    const int orangeWithout = countNear(without.image, qRgb(235, 120, 20));
    QVERIFY2(orangeWith > 400 && orangeWithout < 20,
             qPrintable(QString("%1 vs %2").arg(orangeWith).arg(orangeWithout)));
    // The chart's points (needs review, #d49a00) render from the inline SVG.
    QVERIFY(countNear(withPictures.image, qRgb(212, 154, 0)) > 30);
  }
};

QTEST_GUILESS_MAIN(TestReviewCli)
#include "tst_review_cli.moc"
