// Additive clips in the studio: the base picker edits `additive_base` as one undo step, the Clips
// panel marks additive clips, the recompressor compresses the clip as deltas from its decoded base,
// and the viewport's poses show the layer on its base at the preview weight.
#include <QComboBox>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

#include "core/anim/raw_sampler.h"
#include "core/runtime/additive.h"
#include "tests/widgets/fixture.h"
#include "widgets/clip_list.h"
#include "widgets/document/pose_preview.h"

using namespace animpack;
using namespace animpack::widgets;

namespace {
QString layeredRig() {
  static const std::filesystem::path path = test::writeScene(test::layeredRig(25, 25.f), "studio_layered.gltf");
  return QString::fromStdString(path.string());
}
using test::clipNamed;
}  // namespace

class TstAdditiveBar : public QObject {
  Q_OBJECT
 private slots:
  void basePickerIsUndoable() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    ClipListPanel panel(&doc, &rc);
    QVERIFY(doc.open(layeredRig()));
    const int upper = clipNamed(doc, "Upper"), idle = clipNamed(doc, "Idle");
    QVERIFY(upper >= 0 && idle >= 0);
    doc.setCurrentClip(upper);
    QComboBox* picker = panel.additiveBar()->basePicker();
    QCOMPARE(picker->currentData().toString(), QString());  // absolute
    QVERIFY(!panel.additiveBar()->weightSlider()->isEnabled());
    QSignalSpy settings(&doc, &ClipDocument::settingsChanged);
    const int item = picker->findData(QString("Idle"));
    QVERIFY(item >= 0);
    picker->setCurrentIndex(item);
    emit picker->activated(item);
    QCOMPARE(settings.count(), 1);
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.additiveBaseClip(upper), idle);
    QCOMPARE(core::additiveBaseSetting(doc.settings(), "Upper"), std::string("Idle"));
    QVERIFY(panel.additiveBar()->weightSlider()->isEnabled());
    const QModelIndex base = panel.model()->clipIndex(upper, ClipListModel::Base);
    QCOMPARE(base.data().toString(), QString("+ Idle"));
    QVERIFY(base.siblingAtColumn(ClipListModel::Name).data(Qt::FontRole).value<QFont>().italic());
    QVERIFY(panel.model()->clipIndex(idle, ClipListModel::Base).data().toString().isEmpty());
    doc.undoStack()->undo();
    QCOMPARE(doc.additiveBaseClip(upper), -1);
    QCOMPARE(picker->currentData().toString(), QString());
    QVERIFY(panel.model()->clipIndex(upper, ClipListModel::Base).data().toString().isEmpty());
    doc.undoStack()->redo();
    QCOMPARE(picker->currentData().toString(), QString("Idle"));
    // One frame of the base at every time ("CLIP@FRAME"), one more undo step; the box follows undo.
    QSpinBox* frame = panel.additiveBar()->frameBox();
    QVERIFY(frame->isEnabled());
    QCOMPARE(frame->value(), -1);  // the same time
    QCOMPARE(frame->maximum(), int(doc.rawClip(idle).frameCount) - 1);
    frame->setValue(4);
    QCOMPARE(doc.undoStack()->count(), 2);
    QCOMPARE(core::additiveBaseSetting(doc.settings(), "Upper"), std::string("Idle@4"));
    QCOMPARE(doc.additiveLink(upper).ref.frame, 4);
    QCOMPARE(picker->currentData().toString(), QString("Idle"));
    QCOMPARE(panel.model()->clipIndex(upper, ClipListModel::Base).data().toString(), QString("+ Idle@4"));
    doc.undoStack()->undo();
    QCOMPARE(frame->value(), -1);
    QCOMPARE(core::additiveBaseSetting(doc.settings(), "Upper"), std::string("Idle"));
    // No frame for the rest pose.
    picker->setCurrentIndex(picker->findData(QString("rest")));
    emit picker->activated(picker->currentIndex());
    QVERIFY(!frame->isEnabled());
  }

  void rootMotionJointIsOneUndoStep() {
    ClipDocument doc;
    QVERIFY(doc.open(layeredRig()));
    doc.setCurrentClip(clipNamed(doc, "Upper"));
    const int before = doc.undoStack()->count();
    doc.setRootMotionJoint("Spine");
    QCOMPARE(doc.undoStack()->count(), before + 1);  // both keys in one step
    QCOMPARE(doc.effectiveSettings(doc.currentClip()).rootMotion, core::RootMotionMode::Extract);
    QCOMPARE(doc.effectiveSettings(doc.currentClip()).rootJoint, std::string("Spine"));
    doc.undoStack()->undo();
    QCOMPARE(doc.effectiveSettings(doc.currentClip()).rootMotion, core::RootMotionMode::Keep);
    QVERIFY(doc.effectiveSettings(doc.currentClip()).rootJoint.empty());
  }

  void previewShowsTheLayerOnItsBase() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    PosePreview preview(&doc, &rc);
    QVERIFY(doc.open(layeredRig()));
    // 3 cm shells: on the shells of this rig's 1.5 m skin the layer meets a floor between frames
    // (tst_additive, additiveFloorWithTheSkinsShells).
    core::CompressionSettings fixed;
    fixed.shellCm = 3.f;
    doc.importSettings(fixed, "fixed.json");
    const int upper = clipNamed(doc, "Upper"), idle = clipNamed(doc, "Idle");
    doc.setAdditiveBase(upper, "Idle");
    doc.setCurrentClip(upper);
    QVERIFY(test::waitForResult(rc, upper));
    QVERIFY(rc.result(upper)->compressed->additive.additive());
    QVERIFY(rc.result(upper)->compressed->stats.withinPrecision);
    QVERIFY(QTest::qWaitFor([&] { return !preview.compressed().empty(); }, 20000));
    doc.setCurrentTime(7.5 / 25.0);
    // Weight 1: the ghost is the layer applied on the decoded idle, close to the source clip.
    const int spine = test::joint(doc, "Spine");
    auto angle = [](runtime::Quat a, runtime::Quat b) {
      return 2.f * std::acos(std::min(1.f, std::fabs(runtime::dot(a, b))));
    };
    QVERIFY(angle(preview.compressed()[std::size_t(spine)].rotation, preview.original()[std::size_t(spine)].rotation) <
            1e-3f);
    // Weight 0: both show the idle.
    preview.setAdditiveWeight(0.f);
    std::vector<core::Transform> idlePose(doc.asset()->skeleton.jointCount());
    core::RawSampler::sample(doc.asset()->clips[std::size_t(idle)], 7.5 / 25.0, idlePose);
    QVERIFY(angle(preview.original()[std::size_t(spine)].rotation, idlePose[std::size_t(spine)].rotation) < 1e-5f);
    QVERIFY(angle(preview.compressed()[std::size_t(spine)].rotation, idlePose[std::size_t(spine)].rotation) < 1e-3f);
  }
};

QTEST_MAIN(TstAdditiveBar)
#include "tst_additive_bar.moc"
