// The between-frame bound on the long mocap files (labelled slow: skipped under the sanitizers):
// 8 sub-steps per frame, checked by an independent double-precision composition from the file.
#include <QtTest>

#include "tests/support/source_check.h"
#include "tests/support/test_rigs.h"

using namespace animpack;

class TestFidelityCorpus : public QObject {
  Q_OBJECT
 private slots:
  void mocapBetweenFrames_data() {
    QTest::addColumn<QString>("file");
    for (const char* f :
         {"BVH/01_01.bvh", "BVH/01_03.bvh", "BVH/Boxing_Toes.bvh", "CSM/ThomasFechten.csm", "ASE/MotionCaptureROM.ase"})
      QTest::newRow(f) << QString(f);
  }
  void mocapBetweenFrames() {
    QFETCH(QString, file);
    double worst = 0;
    const std::string problems = test::compressAndCheck(test::model(file.toStdString()), 8, &worst);
    QVERIFY2(problems.empty(), problems.c_str());
    qInfo("%s: %.5f cm at 8 sub-steps per frame", qPrintable(file), worst);
  }
};

QTEST_GUILESS_MAIN(TestFidelityCorpus)
#include "tst_fidelity_corpus.moc"
