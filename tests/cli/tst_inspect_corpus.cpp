// `animpack inspect` on every file of assimp-testmodels ends with exit 0, or exit 1 and a one-line
// message: none by a signal or a hang (the import runs in a child process under a timeout).
#include <QtTest>

#include "tests/cli/cli_runner.h"

using namespace animpack;

class TestInspectCorpus : public QObject {
  Q_OBJECT
 private slots:
  void everyFileEndsCleanly() {
    QDirIterator it(QString(ANIMPACK_ASSIMP_MODELS), QDir::Files, QDirIterator::Subdirectories);
    QStringList files;
    while (it.hasNext()) files.push_back(it.next());
    files.sort();
    QVERIFY(files.size() > 400);
    int loaded = 0, refused = 0;
    for (const QString& file : files) {
      const test::CliRun r = test::runCli({"inspect", file, "--import-timeout", "60"});
      QVERIFY2(r.code == 0 || r.code == 1, qPrintable(file + ": exit " + QString::number(r.code)));
      if (r.code == 1) {
        QVERIFY2(r.err.startsWith("animpack: ") && r.err.count('\n') == 1, qPrintable(file + ": " + r.err));
        ++refused;
      } else {
        ++loaded;
      }
    }
    qInfo("%lld files: %d imported, %d refused with a message", qlonglong(files.size()), loaded, refused);
  }
};

QTEST_GUILESS_MAIN(TestInspectCorpus)
#include "tst_inspect_corpus.moc"
