// The studio document and its undo commands: every command is done, checked, undone and checked;
// drags merge into one step; approvals hold only for the settings and source they were made for.

#include <QSignalSpy>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "tests/widgets/fixture.h"
#include "widgets/format.h"

using namespace animpack;
using namespace animpack::widgets;

class TstClipDocument : public QObject {
  Q_OBJECT
 private slots:
  void opensARigAndResetsState() {
    ClipDocument doc;
    QSignalSpy assets(&doc, &ClipDocument::assetChanged);
    QSignalSpy clips(&doc, &ClipDocument::currentClipChanged);
    QVERIFY(doc.open(test::rigPath()));
    QCOMPARE(assets.count(), 1);
    QCOMPARE(clips.count(), 1);
    QCOMPARE(doc.clipCount(), 2);
    QCOMPARE(doc.clipName(0), QString("Walk"));
    QCOMPARE(doc.clipName(1), QString("Wave"));
    QCOMPARE(doc.currentClip(), 0);
    QVERIFY(!doc.isModified());
    QCOMPARE(doc.approval(0), core::ApprovalState::NeedsReview);
  }

  void aFailedOpenLeavesTheDocumentAlone() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    const auto before = doc.asset();
    QSignalSpy assets(&doc, &ClipDocument::assetChanged);
    const Status st = doc.open("/nonexistent/walk.fbx");
    QVERIFY(!st);
    QVERIFY2(QString::fromStdString(st.message()).contains("/nonexistent/walk.fbx"), st.message().c_str());
    QCOMPARE(assets.count(), 0);
    QCOMPARE(doc.asset(), before);
    QCOMPARE(doc.clipCount(), 2);
  }

  void invalidSettingsAreRefusedOnOpen() {
    ClipDocument doc;
    core::CompressionSettings bad;
    bad.precisionCm = -1.f;
    const Status st = doc.open(test::rigPath(), bad);
    QVERIFY(!st);
    QVERIFY2(QString::fromStdString(st.message()).contains("precision"), st.message().c_str());
    QVERIFY(!doc.hasAsset());
  }

  void jointPrecisionDoUndoRedo() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    const int spine = test::joint(doc, "Spine"), head = test::joint(doc, "Head"), leg = test::joint(doc, "LeftLeg");
    QVERIFY(spine >= 0 && head >= 0 && leg >= 0);
    QSignalSpy changed(&doc, &ClipDocument::settingsChanged);

    doc.setJointValue(EditScope::AllClips, {spine}, JointField::Precision, 0.05f);
    QCOMPARE(changed.count(), 1);
    QVERIFY(doc.isModified());
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(spine)].precisionCm, 0.05f);
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(head)].precisionCm, 0.05f);  // inherited by the child
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(leg)].precisionCm, core::kDefaultPrecisionCm);
    QCOMPARE(doc.effectiveSettings(1).joints[std::size_t(spine)].precisionCm, 0.05f);  // every clip
    QCOMPARE(doc.undoStack()->undoText(), QString("Set precision of 'Spine'"));

    doc.undoStack()->undo();
    QCOMPARE(changed.count(), 2);
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(spine)].precisionCm, core::kDefaultPrecisionCm);
    QVERIFY(doc.settings().joints.empty());
    QVERIFY(!doc.isModified());

    doc.undoStack()->redo();
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(head)].precisionCm, 0.05f);

    doc.resetJointValue(EditScope::AllClips, {spine}, JointField::Precision);
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(spine)].precisionCm, core::kDefaultPrecisionCm);
    doc.undoStack()->undo();
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(spine)].precisionCm, 0.05f);
  }

  void currentClipScopeTouchesOneClip() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    const int head = test::joint(doc, "Head");
    doc.setCurrentClip(1);
    const float skinShell = doc.effectiveSettings(1).joints[std::size_t(head)].shellCm;  // the default follows the skin
    QVERIFY(skinShell != 12.f);
    doc.setJointValue(EditScope::CurrentClip, {head}, JointField::Shell, 12.f);
    QCOMPARE(doc.effectiveSettings(1).joints[std::size_t(head)].shellCm, 12.f);
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(head)].shellCm, skinShell);
    QVERIFY(hasOverride(doc.settings(), EditScope::CurrentClip, "Wave", "Head", JointField::Shell));
    QVERIFY(!hasOverride(doc.settings(), EditScope::AllClips, "Wave", "Head", JointField::Shell));
    doc.undoStack()->undo();
    QCOMPARE(doc.effectiveSettings(1).joints[std::size_t(head)].shellCm, skinShell);
  }

  void pinningIsNotInherited() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    const int leg = test::joint(doc, "LeftLeg"), foot = test::joint(doc, "LeftFoot");
    doc.setJointValue(EditScope::AllClips, {foot}, JointField::Pinned, 1.f);
    QVERIFY(doc.effectiveSettings(0).joints[std::size_t(foot)].pinned);
    QVERIFY(!doc.effectiveSettings(0).joints[std::size_t(leg)].pinned);
    QCOMPARE(doc.undoStack()->undoText(), QString("Pin 'LeftFoot'"));
    doc.undoStack()->undo();
    QVERIFY(!doc.effectiveSettings(0).joints[std::size_t(foot)].pinned);
  }

  void aDragMergesIntoOneUndoStep() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    const std::vector<int> joints{test::joint(doc, "Spine"), test::joint(doc, "Head")};
    const quint64 key = jointMergeKey(joints, JointField::Precision, EditScope::AllClips);
    for (float v : {0.02f, 0.03f, 0.04f, 0.05f})
      doc.setJointValue(EditScope::AllClips, joints, JointField::Precision, v, key);
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.undoStack()->undoText(), QString("Set precision of 2 joints"));
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(joints[1])].precisionCm, 0.05f);
    // A different field does not merge.
    doc.setJointValue(EditScope::AllClips, joints, JointField::Shell, 5.f,
                      jointMergeKey(joints, JointField::Shell, EditScope::AllClips));
    QCOMPARE(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(joints[1])].precisionCm, core::kDefaultPrecisionCm);
    QVERIFY(doc.settings().joints.empty());
    // Without a merge key every edit is its own step.
    doc.setJointValue(EditScope::AllClips, joints, JointField::Precision, 0.02f);
    doc.setJointValue(EditScope::AllClips, joints, JointField::Precision, 0.03f);
    QCOMPARE(doc.undoStack()->count(), 2);
    // A drag that ends where it started leaves no step that changes nothing.
    for (float v : {0.04f, 0.05f, 0.03f}) doc.setJointValue(EditScope::AllClips, joints, JointField::Precision, v, key);
    QCOMPARE(doc.undoStack()->count(), 2);
    QCOMPARE(doc.undoStack()->index(), 2);
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(joints[1])].precisionCm, 0.03f);
    doc.undoStack()->undo();  // the step before the drag
    QCOMPARE(doc.effectiveSettings(0).joints[std::size_t(joints[1])].precisionCm, 0.02f);
  }

  void approvalFollowsSettings() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    QSignalSpy approvals(&doc, &ClipDocument::approvalChanged);
    doc.setApproval({0}, core::ApprovalState::Approved);
    QCOMPARE(approvals.count(), 1);
    QCOMPARE(approvals.first().first().toInt(), 0);
    QCOMPARE(doc.approval(0), core::ApprovalState::Approved);
    QCOMPARE(doc.approval(1), core::ApprovalState::NeedsReview);

    // An edit that changes clip 0's settings sends it back to review; undoing the edit restores it.
    doc.setJointValue(EditScope::AllClips, {test::joint(doc, "Hips")}, JointField::Precision, 0.5f);
    QCOMPARE(doc.approval(0), core::ApprovalState::NeedsReview);
    QCOMPARE(doc.storedApproval(0).state, core::ApprovalState::Approved);
    doc.undoStack()->undo();
    QCOMPARE(doc.approval(0), core::ApprovalState::Approved);

    // An edit scoped to the other clip leaves this approval alone.
    doc.setCurrentClip(1);
    doc.setJointValue(EditScope::CurrentClip, {test::joint(doc, "Head")}, JointField::Precision, 0.5f);
    QCOMPARE(doc.approval(0), core::ApprovalState::Approved);

    doc.setApproval({1}, core::ApprovalState::Rejected);
    QCOMPARE(doc.approval(1), core::ApprovalState::Rejected);
    QCOMPARE(doc.undoStack()->undoText(), QString("Reject 'Wave'"));
    doc.undoStack()->undo();
    QCOMPARE(doc.approval(1), core::ApprovalState::NeedsReview);
  }

  void upAxisCommand() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    QSignalSpy axis(&doc, &ClipDocument::upAxisChanged);
    doc.setUpAxis(UpAxis::ZUp);
    QCOMPARE(doc.upAxis(), UpAxis::ZUp);
    QCOMPARE(axis.count(), 1);
    doc.undoStack()->undo();
    QCOMPARE(doc.upAxis(), UpAxis::AsImported);
    QCOMPARE(axis.count(), 2);
  }

  void unitOverrideImportsAgain() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    QCOMPARE(doc.asset()->unitToCm, 100.0);  // glTF is in metres
    const auto before = doc.asset();
    QSignalSpy assets(&doc, &ClipDocument::assetChanged);
    doc.setUnitToCm(2.54);
    QCOMPARE(assets.count(), 1);
    QCOMPARE(doc.asset()->unitToCm, 2.54);
    QVERIFY(doc.asset() != before);
    QCOMPARE(doc.clipCount(), 2);
    doc.undoStack()->undo();
    QCOMPARE(assets.count(), 2);
    QCOMPARE(doc.asset()->unitToCm, 100.0);
  }

  void undoAndRedoOfAUnitChangeNeverImport() {
    // The files are imported once, before the step is pushed; undo and redo swap the two imports,
    // so they work with the source gone and never drop a step.
    QTemporaryDir dir;
    const QString source = test::rigCopy(dir, "gone.gltf");
    QVERIFY(!source.isEmpty());
    ClipDocument doc;
    QVERIFY(doc.open(source));
    const auto metres = doc.asset();
    doc.setUnitToCm(2.54);
    const auto inches = doc.asset();
    QCOMPARE(inches->unitToCm, 2.54);
    QVERIFY(QFile::remove(source));
    QSignalSpy failed(&doc, &ClipDocument::importFailed);
    QSignalSpy assets(&doc, &ClipDocument::assetChanged);
    for (int round = 0; round < 2; ++round) {
      doc.undoStack()->undo();
      QCOMPARE(doc.asset(), metres);  // the very asset shown before the step
      QVERIFY(!doc.settings().unitToCm);
      doc.undoStack()->redo();
      QCOMPARE(doc.asset(), inches);
      QCOMPARE(*doc.settings().unitToCm, 2.54);
    }
    QCOMPARE(failed.count(), 0);
    QCOMPARE(assets.count(), 4);
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.clipCount(), 2);
  }

  void aUnitChangeThatCannotImportIsNoStep() {
    // The file went away before the change: it cannot be imported again, so the change is refused
    // with the file named, and the settings keep describing the asset on screen.
    QTemporaryDir dir;
    const QString source = test::rigCopy(dir, "gone.gltf");
    QVERIFY(!source.isEmpty());
    ClipDocument doc;
    QVERIFY(doc.open(source));
    QVERIFY(QFile::remove(source));
    QSignalSpy failed(&doc, &ClipDocument::importFailed);
    QSignalSpy settings(&doc, &ClipDocument::settingsChanged);
    doc.setUnitToCm(2.54);
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.first().first().toString().contains("gone.gltf"), qPrintable(failed.first().first().toString()));
    QCOMPARE(settings.count(), 0);
    QVERIFY(!doc.settings().unitToCm);
    QCOMPARE(doc.asset()->unitToCm, 100.0);
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(!doc.isModified());
  }

  void settingsChangedSaysWhatChanged() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    const int head = test::joint(doc, "Head");
    std::vector<SettingsChange> changes;
    connect(&doc, &ClipDocument::settingsChanged, this, [&](const SettingsChange& c) { changes.push_back(c); });
    auto last = [&] { return changes.empty() ? SettingsChange{} : changes.back(); };

    doc.setJointValue(EditScope::AllClips, {head}, JointField::Precision, 0.3f);
    QCOMPARE(changes.size(), std::size_t(1));
    QCOMPARE(last().joints, std::vector<int>{head});
    QCOMPARE(last().clips, (std::vector<int>{0, 1}));
    QVERIFY(!last().all && !last().renamed && !last().reimported);
    // This clip only: the other clip's compression is untouched.
    doc.setJointValue(EditScope::CurrentClip, {head}, JointField::Shell, 5.f);
    QCOMPARE(last().joints, std::vector<int>{head});
    QCOMPARE(last().clips, std::vector<int>{0});
    QVERIFY(!last().touches(1));
    doc.undoStack()->undo();
    QCOMPARE(last().joints, std::vector<int>{head});
    QCOMPARE(last().clips, std::vector<int>{0});
    // A rule of the other clip: no joint of the current clip, only that clip.
    doc.importSettings(
        core::withJointValue(doc.settings(), EditScope::CurrentClip, "Wave", {"Head"}, JointField::Precision, 0.2f),
        "wave.json");
    QVERIFY(last().joints.empty());
    QCOMPARE(last().clips, std::vector<int>{1});
    // A unit change imports again: everything.
    doc.setUnitToCm(2.54);
    QVERIFY(last().reimported && last().all);
    QCOMPARE(changes.size(), std::size_t(5));
  }

  void everyEditIsOneUndoStep() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    const int hips = test::joint(doc, "Hips"), head = test::joint(doc, "Head");
    int steps = 0;
    const auto oneStep = [&](const char* what) {
      QVERIFY2(doc.undoStack()->count() == ++steps, what);
      QVERIFY2(doc.undoStack()->command(steps - 1)->childCount() == 0, what);  // not a macro
    };
    doc.setJointValue(EditScope::AllClips, {hips}, JointField::Precision, 0.3f);
    oneStep("set");
    doc.applyToSubtree(EditScope::AllClips, {hips});
    oneStep("subtree");
    doc.resetJoints(EditScope::AllClips, {head});
    oneStep("reset");
    doc.setPrecision(EditScope::AllClips, 0.02f);
    oneStep("sweep point");
    QCOMPARE(doc.undoStack()->undoText(), QString("Set precision to %1").arg(formatCm(0.02f)));
    QVERIFY(doc.applyPreset("npc"));
    oneStep("preset");
    QVERIFY(doc.settings().precisionCm.has_value());
    QCOMPARE(*doc.settings().precisionCm, 0.05f);
    QVERIFY(!doc.applyPreset("no-such-preset"));
    doc.setApproval({0, 1}, core::ApprovalState::Approved);
    oneStep("approve two clips");
    QCOMPARE(doc.undoStack()->undoText(), QString("Approve 2 clips"));
    QCOMPARE(doc.approval(1), core::ApprovalState::Approved);
    doc.setUpAxis(UpAxis::XUp);
    oneStep("up axis");
    doc.importSettings(core::CompressionSettings{}, "empty.json");
    oneStep("import");
    QCOMPARE(doc.undoStack()->undoText(), QString("Import settings empty.json"));
    // An edit that changes nothing is no step.
    doc.importSettings(core::CompressionSettings{}, "empty.json");
    doc.setUpAxis(UpAxis::XUp);
    QCOMPARE(doc.undoStack()->count(), steps);
    while (doc.undoStack()->canUndo()) doc.undoStack()->undo();
    QVERIFY(doc.settings().joints.empty());
    QCOMPARE(doc.upAxis(), UpAxis::AsImported);
    QCOMPARE(doc.approval(1), core::ApprovalState::NeedsReview);
  }

  void selectionAndTimeAreViewState() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    QSignalSpy sel(&doc, &ClipDocument::selectedJointsChanged);
    QSignalSpy time(&doc, &ClipDocument::currentTimeChanged);
    doc.setSelectedJoints({3, 1, 3});
    QCOMPARE(doc.selectedJoints(), (std::vector<int>{1, 3}));
    doc.setSelectedJoints({1, 3});
    QCOMPARE(sel.count(), 1);
    doc.setCurrentTime(0.5);
    QCOMPARE(time.count(), 1);
    doc.setCurrentClip(1);  // a new clip starts at its first frame
    QCOMPARE(doc.currentTime(), 0.0);
    QCOMPARE(doc.undoStack()->count(), 0);
    QVERIFY(!doc.isModified());
    doc.setCurrentClip(7);  // out of range: ignored
    QCOMPARE(doc.currentClip(), 1);
  }
};

QTEST_MAIN(TstClipDocument)
#include "tst_clip_document.moc"
