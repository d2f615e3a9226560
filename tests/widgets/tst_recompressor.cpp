// The studio's background recompression: edits are debounced into one job, results of settings the
// user has moved past are dropped, and undo back to compressed settings is served from the cache.

#include <QSignalSpy>
#include <QTest>

#include "tests/widgets/fixture.h"

using namespace animpack;
using namespace animpack::widgets;

class TstRecompressor : public QObject {
  Q_OBJECT
 private slots:
  void burstsOfRequestsRunOneJob() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(80);
    QVERIFY(doc.open(test::rigPath()));
    const int started0 = rc.jobsStarted();
    for (int i = 0; i < 5; ++i) rc.request(0);
    QVERIFY(test::waitForResult(rc, 0));
    QCOMPARE(rc.jobsStarted() - started0, 1);
    const auto result = rc.result(0);
    QVERIFY(result && result->compressed);
    QCOMPARE(result->key, doc.compressionKey(0));
    QCOMPARE(result->compressed->name, std::string("Walk"));
    QVERIFY(result->compressed->stats.withinPrecision);
    QCOMPARE(rc.latestResult(0), result);
  }

  void settingEditsDebounceIntoOneJob() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(200);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(test::waitForResult(rc, 0));
    const int started = rc.jobsStarted();
    const int spine = test::joint(doc, "Spine");
    const quint64 key = jointMergeKey({spine}, JointField::Precision, EditScope::AllClips);
    for (float v : {0.02f, 0.03f, 0.04f, 0.06f})
      doc.setJointValue(EditScope::AllClips, {spine}, JointField::Precision, v, key);
    QVERIFY(!rc.result(0));       // the new settings are not compressed yet...
    QVERIFY(rc.latestResult(0));  // ...but the previous result is still there to show
    QVERIFY(test::waitForResult(rc, 0));
    QCOMPARE(rc.jobsStarted() - started, 1);
    QCOMPARE(rc.result(0)->compressed->settings.joints[std::size_t(spine)].precisionCm, 0.06f);
  }

  void staleResultsAreDropped() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(test::waitForResult(rc, 0));
    const int spine = test::joint(doc, "Spine");
    // The moment the first job starts, the user edits again: that job's result is stale.
    bool edited = false;
    connect(&rc, &Recompressor::jobStarted, this, [&](int) {
      if (edited) return;
      edited = true;
      doc.setJointValue(EditScope::AllClips, {spine}, JointField::Precision, 0.08f);
    });
    QSignalSpy ready(&rc, &Recompressor::resultReady);
    const int dropped = rc.staleDropped();
    doc.setJointValue(EditScope::AllClips, {spine}, JointField::Precision, 0.04f);
    QVERIFY(QTest::qWaitFor(
        [&] {
          return rc.result(0) && rc.result(0)->compressed->settings.joints[std::size_t(spine)].precisionCm == 0.08f &&
                 !rc.busy();
        },
        20000));
    QCOMPARE(rc.staleDropped() - dropped, 1);
    // Every resultReady was for the newest settings.
    QCOMPARE(rc.latestResult(0)->key, doc.compressionKey(0));
    QCOMPARE(ready.count(), 1);
  }

  void undoIsServedFromTheCache() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(test::waitForResult(rc, 0));
    const auto first = rc.result(0);
    doc.setJointValue(EditScope::AllClips, {test::joint(doc, "Hips")}, JointField::Precision, 0.2f);
    QVERIFY(test::waitForResult(rc, 0));
    const auto second = rc.result(0);
    QVERIFY(second != first);
    const int started = rc.jobsStarted();
    QSignalSpy ready(&rc, &Recompressor::resultReady);
    doc.undoStack()->undo();
    QCOMPARE(rc.result(0), first);  // at once, no event loop needed
    QCOMPARE(ready.count(), 1);
    doc.undoStack()->redo();
    QCOMPARE(rc.result(0), second);
    QCOMPARE(rc.jobsStarted(), started);
  }

  void oneChangeSignalPerChangeOfTheCurrentResult() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(test::waitForResult(rc, 0));
    QVERIFY(rc.current().compressed());
    QVERIFY(!rc.current().stale);
    const auto first = rc.current().result;
    QSignalSpy changed(&rc, &Recompressor::currentChanged);
    doc.setJointValue(EditScope::AllClips, {test::joint(doc, "Spine")}, JointField::Precision, 0.2f);
    QCOMPARE(changed.count(), 1);  // the edit: what is shown is now stale...
    QVERIFY(rc.current().stale);
    QCOMPARE(rc.current().result, first);  // ...and still the previous result
    QVERIFY(test::waitForResult(rc, 0));
    QCOMPARE(changed.count(), 2);  // the new result
    QVERIFY(!rc.current().stale);
    QVERIFY(rc.current().result != first);
    doc.undoStack()->undo();  // served from the cache: one change, current at once
    QCOMPARE(changed.count(), 3);
    QVERIFY(!rc.current().stale);
    QCOMPARE(rc.current().result, first);
    doc.setCurrentClip(1);  // another clip: nothing to show until it is compressed
    QCOMPARE(changed.count(), 4);
    QVERIFY(!rc.current().result);
    QCOMPARE(rc.shown(0).result, first);
  }

  void compressAllReportsProgress() {
    ClipDocument doc;
    Recompressor rc(&doc);
    QVERIFY(doc.open(test::rigPath()));
    QSignalSpy progress(&rc, &Recompressor::progress);
    rc.compressAll();
    QVERIFY(QTest::qWaitFor([&] { return rc.result(0) && rc.result(1) && !rc.busy(); }, 20000));
    QVERIFY(!progress.isEmpty());
    const auto last = progress.last();
    QCOMPARE(last.at(0).toInt(), last.at(1).toInt());
    QCOMPARE(rc.result(1)->compressed->name, std::string("Wave"));
  }

  void aNewAssetDropsEverything() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(test::waitForResult(rc, 0));
    QVERIFY(doc.open(test::rigPath("other.gltf", 40)));
    QVERIFY(!rc.latestResult(0));
    QVERIFY(test::waitForResult(rc, 0));
    QCOMPARE(rc.result(0)->compressed->frameCount, 40u);
    QCOMPARE(rc.result(0)->asset, doc.asset());
  }

  void cancelStopsRunningJobs() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    // Cancel the moment the job starts: whatever it computes must be thrown away.
    bool cancelled = false;
    connect(&rc, &Recompressor::jobStarted, this, [&](int) {
      if (!cancelled) rc.cancel();
      cancelled = true;
    });
    QVERIFY(doc.open(test::rigPath("long.gltf", 600)));
    QVERIFY(QTest::qWaitFor([&] { return cancelled && !rc.busy(); }, 20000));
    QVERIFY(!rc.result(0));
    QVERIFY(!rc.latestResult(0));
    rc.request(0);  // asking again works
    QVERIFY(test::waitForResult(rc, 0, 60000));
  }

  void anEditOfAnotherClipLeavesTheResultCurrent() {
    // The document's typed change names the clips whose compression key changed; the current clip's
    // result stays current (not stale, no new job) when it is not among them.
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(test::waitForResult(rc, 0));
    QSignalSpy current(&rc, &Recompressor::currentChanged);
    const int jobs = rc.jobsStarted();
    doc.importSettings(
        core::withJointValue(doc.settings(), EditScope::CurrentClip, "Wave", {"Head"}, JointField::Precision, 0.2f),
        "wave.json");
    QCOMPARE(current.count(), 0);
    QVERIFY(!rc.current().stale);
    QTest::qWait(50);
    QCOMPARE(rc.jobsStarted(), jobs);
    // An edit of every clip does make it stale.
    doc.setJointValue(EditScope::AllClips, {test::joint(doc, "Head")}, JointField::Precision, 0.3f);
    QVERIFY(current.count() >= 1);
    QVERIFY(rc.current().stale);
  }
};

QTEST_MAIN(TstRecompressor)
#include "tst_recompressor.moc"
