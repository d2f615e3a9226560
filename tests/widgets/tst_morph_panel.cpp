// The Morph targets panel (widgets/morph_panel.h): one row per morph curve of the file with its
// precision, displacement, storage and error from the recompressor's result; precision edits of the
// selected targets as one undo step each, in either scope; a file without morph targets; its
// selection shared with the document, which the curve view draws as weights.

#include <qcustomplot.h>

#include <QDoubleSpinBox>
#include <algorithm>
#include <cmath>
#include <QFont>
#include <QLineEdit>
#include <QTest>
#include <QTreeWidget>

#include "core/compress/settings_edit.h"
#include "tests/widgets/fixture.h"
#include "widgets/curve_view.h"
#include "widgets/error_map.h"
#include "widgets/format.h"
#include "widgets/morph_panel.h"

using namespace animpack;
using namespace animpack::widgets;

namespace {

QString morphRigPath() {
  static const std::filesystem::path path = test::writeScene(test::morphRig(), "morph_rig.gltf");
  return QString::fromStdString(path.string());
}

QTreeWidgetItem* row(const MorphPanel& panel, const QString& name) {
  const auto items = panel.list()->findItems(name, Qt::MatchExactly, MorphPanel::Name);
  return items.size() == 1 ? items[0] : nullptr;
}

int curveIndex(const ClipDocument& doc, const std::string& name) {
  const auto& curves = doc.asset()->curves;
  for (std::size_t i = 0; i < curves.size(); ++i)
    if (curves[i].name == name) return int(i);
  return -1;
}

/// morphRig opened in a document with its recompressor (no debounce) and a panel, on "Walk".
struct Opened {
  ClipDocument doc;
  Recompressor rc{&doc};
  MorphPanel panel{&doc, &rc};
  int walk = -1, wave = -1;
  Opened() {
    rc.setDebounceMs(0);
    if (!doc.open(morphRigPath())) return;
    walk = test::clipNamed(doc, "Walk");
    wave = test::clipNamed(doc, "Wave");
    doc.setCurrentClip(walk);
  }
};

}  // namespace

class TstMorphPanel : public QObject {
  Q_OBJECT
 private slots:
  void aFileWithoutTargetsSaysSo() {
    ClipDocument doc;
    Recompressor rc(&doc);
    MorphPanel panel(&doc, &rc);
    QCOMPARE(panel.summary(), QString("No clip."));
    QVERIFY(doc.open(test::rigPath()));
    QCOMPARE(panel.summary(), QString("This file has no morph targets."));
    QCOMPARE(panel.list()->topLevelItemCount(), 0);
    QVERIFY(!panel.list()->isEnabled());
  }

  void everyTargetHasARowWithItsResult() {
    Opened o;
    auto& [doc, rc, panel, walk, wave] = o;
    QVERIFY(doc.hasAsset());
    QVERIFY(walk >= 0 && wave >= 0);
    const auto& curves = doc.asset()->curves;
    QCOMPARE(curves.size(), std::size_t(4));
    QCOMPARE(panel.list()->topLevelItemCount(), 4);
    QVERIFY(test::waitForResult(rc, walk));
    QVERIFY2(panel.summary().contains("4 keyed in this clip"), qPrintable(panel.summary()));
    QVERIFY2(panel.summary().contains("every target within precision"), qPrintable(panel.summary()));
    for (const core::MorphCurve& c : curves) {
      QTreeWidgetItem* item = row(panel, QString::fromStdString(c.name));
      QVERIFY2(item, c.name.c_str());
      QCOMPARE(item->text(MorphPanel::Displacement), formatCm(float(c.displacementCm)));
      QCOMPARE(item->text(MorphPanel::Precision), formatCm(core::kDefaultPrecisionCm));
      QVERIFY2(item->text(MorphPanel::MaxError) != "…", c.name.c_str());
      QVERIFY2(!item->text(MorphPanel::Storage).contains("not animated"), c.name.c_str());
    }
    // Wave animates none: every target rests, and says so.
    doc.setCurrentClip(wave);
    QVERIFY(test::waitForResult(rc, wave));
    QVERIFY2(panel.summary().contains("0 keyed in this clip"), qPrintable(panel.summary()));
    for (const core::MorphCurve& c : curves)
      QVERIFY2(row(panel, QString::fromStdString(c.name))->text(MorphPanel::Storage) == "rest, not animated",
               c.name.c_str());
    // The search narrows the list.
    panel.findChild<QLineEdit*>()->setText("smile");
    QCOMPARE(panel.list()->topLevelItemCount(), 2);
  }

  void precisionEditsAreUndoStepsInTheirScope() {
    Opened o;
    auto& [doc, rc, panel, walk, wave] = o;
    QVERIFY(doc.hasAsset());
    const std::string blinkName = "Body/Blink";
    const int blink = curveIndex(doc, blinkName);
    QVERIFY(blink >= 0);
    const std::uint64_t keyBefore = doc.compressionKey(walk);
    const int steps = doc.undoStack()->count();

    row(panel, QString::fromStdString(blinkName))->setSelected(true);
    auto* box = panel.findChild<QDoubleSpinBox*>();
    box->setValue(0.05);
    panel.applyPrecisionToSelection();
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.effectiveSettings(walk).curves[std::size_t(blink)].precisionCm, 0.05f);
    QCOMPARE(doc.effectiveSettings(wave).curves[std::size_t(blink)].precisionCm, 0.05f);
    QVERIFY(doc.compressionKey(walk) != keyBefore);  // the clip compresses again
    QTreeWidgetItem* item = row(panel, QString::fromStdString(blinkName));
    QCOMPARE(item->text(MorphPanel::Precision), formatCm(0.05f));
    QVERIFY(item->font(MorphPanel::Precision).bold());  // its own value
    QVERIFY(item->isSelected());                        // the selection survives the refresh
    QVERIFY(test::waitForResult(rc, walk));
    QVERIFY2(row(panel, QString::fromStdString(blinkName))->text(MorphPanel::MaxError) != "…", blinkName.c_str());

    doc.undoStack()->undo();
    QCOMPARE(doc.effectiveSettings(walk).curves[std::size_t(blink)].precisionCm, core::kDefaultPrecisionCm);
    QCOMPARE(doc.compressionKey(walk), keyBefore);
    QVERIFY(!row(panel, QString::fromStdString(blinkName))->font(MorphPanel::Precision).bold());

    // This clip only: Wave keeps the default; reset takes the value away again.
    panel.setScope(core::EditScope::CurrentClip);
    row(panel, QString::fromStdString(blinkName))->setSelected(true);
    box->setValue(0.002);
    panel.applyPrecisionToSelection();
    QCOMPARE(doc.effectiveSettings(walk).curves[std::size_t(blink)].precisionCm, 0.002f);
    QCOMPARE(doc.effectiveSettings(wave).curves[std::size_t(blink)].precisionCm, core::kDefaultPrecisionCm);
    QVERIFY(core::hasMorphOverride(doc.settings(), core::EditScope::CurrentClip, "Walk", blinkName));
    panel.setScope(core::EditScope::AllClips);  // the other scope has no own value: shown inherited
    QVERIFY(!row(panel, QString::fromStdString(blinkName))->font(MorphPanel::Precision).bold());
    panel.setScope(core::EditScope::CurrentClip);
    row(panel, QString::fromStdString(blinkName))->setSelected(true);
    const int before = doc.undoStack()->count();
    panel.resetSelection();
    QCOMPARE(doc.undoStack()->count(), before + 1);
    QCOMPARE(doc.effectiveSettings(walk).curves[std::size_t(blink)].precisionCm, core::kDefaultPrecisionCm);
    QVERIFY(doc.settings().clips.empty());
    // Nothing selected: no step.
    panel.list()->clearSelection();
    panel.applyPrecisionToSelection();
    QCOMPARE(doc.undoStack()->count(), before + 1);
  }

  void selectedTargetsAreDrawnAsWeightsInTheCurveView() {
    Opened o;
    auto& [doc, rc, panel, walk, wave] = o;
    QVERIFY(doc.hasAsset());
    CurveView view(&doc, &rc);
    QVERIFY(test::waitForResult(rc, walk));
    QCOMPARE(view.channelView(), CurveView::ChannelView::Quaternion);
    // A target Walk stores as keys (the ramp: two).
    const auto& report = rc.result(walk)->compressed->stats.curves;
    int keyed = -1;
    for (std::size_t c = 0; c < report.curves.size(); ++c)
      if (report.curves[c].kind == runtime::TrackKind::Keyed && keyed < 0) keyed = int(c);
    QVERIFY(keyed >= 0);
    const QString name = QString::fromStdString(doc.asset()->curves[std::size_t(keyed)].name);

    row(panel, name)->setSelected(true);
    QCOMPARE(doc.selectedCurves(), std::vector<int>{keyed});  // the panel's selection is the document's
    QCOMPARE(view.channelView(), CurveView::ChannelView::MorphWeight);
    const int frames = int(doc.rawClip(walk).frameCount);
    QCOMPARE(view.originalPointCount(), frames);  // a source weight a frame
    const std::vector<int> keys = view.markedKeyFrames();
    QCOMPARE(keys.size(), std::size_t(report.curves[std::size_t(keyed)].keys));
    QVERIFY(keys.size() < std::size_t(frames));  // fewer keys than frames
    QVERIFY(std::is_sorted(keys.begin(), keys.end()));
    QVERIFY(keys.back() < frames);

    // The document's selection (as the error map sets it) selects the panel's rows.
    const int other = keyed == 0 ? 1 : 0;
    doc.setSelectedCurves({other, keyed});
    QVERIFY(row(panel, QString::fromStdString(doc.asset()->curves[std::size_t(other)].name))->isSelected());
    QCOMPARE(panel.list()->selectedItems().size(), 2);
    // Selecting a joint goes back to the joint channels; selecting a target again shows weights.
    doc.setSelectedJoints({0});
    QCOMPARE(view.channelView(), CurveView::ChannelView::Quaternion);
    panel.list()->clearSelection();
    QVERIFY(doc.selectedCurves().empty());
    row(panel, name)->setSelected(true);
    QCOMPARE(view.channelView(), CurveView::ChannelView::MorphWeight);
    // The error map has a row for each animated target, within its precision, and a click on it
    // selects the target.
    ErrorMap map(&doc, &rc);
    map.resize(600, 400);
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    double worst = 0;
    for (int f = 0; f < frames; ++f) {
      const double r = map.curveRatioAt(keyed, f);
      QVERIFY2(r >= 0 && r <= 1.0001, qPrintable(QString("frame %1: %2").arg(f).arg(r)));
      worst = std::max(worst, r);
    }
    QVERIFY(worst > 0);
    QVERIFY(std::isnan(map.curveRatioAt(int(doc.asset()->curves.size()), 0)));
    map.plot()->replot();
    const int joints = int(doc.asset()->skeleton.jointCount());
    doc.setSelectedJoints({0});
    for (int r = joints; r < joints + 4; ++r) {  // the target rows follow the joints
      map.clickAt(QPoint(int(map.plot()->xAxis->coordToPixel(3)), int(map.plot()->yAxis->coordToPixel(r))));
      if (doc.selectedCurves() == std::vector<int>{keyed}) break;
    }
    QCOMPARE(doc.selectedCurves(), std::vector<int>{keyed});
    QCOMPARE(view.channelView(), CurveView::ChannelView::MorphWeight);
    QCOMPARE(doc.currentTime(), 3 / doc.rawClip(walk).sampleRate);

    // A new file clears the selection.
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(doc.selectedCurves().empty());
    QCOMPARE(panel.list()->topLevelItemCount(), 0);
  }
};

QTEST_MAIN(TstMorphPanel)
#include "tst_morph_panel.moc"
