// The timeline: looping at the clip's end, and one frame later for a clip that wraps from its last
// frame to its first (widgets/timeline.h), so the wrap interval plays instead of a jump.
#include <QTest>

#include "tests/widgets/fixture.h"
#include "widgets/timeline.h"

using namespace animpack;
using namespace animpack::widgets;

class TstTimeline : public QObject {
  Q_OBJECT
 private slots:
  void loopsAtTheCycleEnd() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    Timeline timeline(&doc);
    const auto& raw = doc.asset()->clips[std::size_t(doc.currentClip())];
    const double duration = raw.duration(), step = 1.0 / raw.sampleRate;
    timeline.setLooping(true);
    // The clip's duration: past the end the time starts again.
    doc.setCurrentTime(duration - 0.25 * step);
    timeline.advance(0.5 * step);
    QVERIFY2(std::abs(doc.currentTime() - 0.25 * step) < 1e-9, qPrintable(QString::number(doc.currentTime())));
    // A wrapping clip: the time runs through the wrap interval and starts again one step later.
    timeline.setCycleDuration(duration + step);
    doc.setCurrentTime(duration - 0.25 * step);
    timeline.advance(0.5 * step);
    QVERIFY2(std::abs(doc.currentTime() - (duration + 0.25 * step)) < 1e-9,
             qPrintable(QString::number(doc.currentTime())));
    timeline.advance(step);
    QVERIFY2(std::abs(doc.currentTime() - 0.25 * step) < 1e-9, qPrintable(QString::number(doc.currentTime())));
    // Without looping the end of the clip is where it stops.
    timeline.setLooping(false);
    doc.setCurrentTime(duration - 0.25 * step);
    timeline.advance(0.5 * step);
    QCOMPARE(doc.currentTime(), duration);
  }
};

QTEST_MAIN(TstTimeline)
#include "tst_timeline.moc"
