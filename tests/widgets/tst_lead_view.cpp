// The lead's view (widgets/clip_list.h, widgets/document/lead_view.h): the budget (undoable, merged
// per spin-box session, saved in the project), pack totals that match the pack `compress` writes,
// the meter over and within budget, sorting and filtering by approval, name and file, approving a
// selection in one undo step, the over-budget suggestion applied and undone, and morph bytes apart.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFrame>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeView>
#include <QtTest>

#include "core/batch/export.h"
#include "core/compress/clip_sizes.h"
#include "tests/widgets/fixture.h"
#include "widgets/clip_list.h"
#include "widgets/document/project_file.h"
#include "widgets/format.h"
#include "widgets/stats_panel.h"

using namespace animpack;
using namespace animpack::widgets;

namespace {

bool waitForAll(Recompressor& rc, const ClipDocument& doc) { return test::waitForAllResults(rc, doc, 30000); }

/// A document, its recompressor and the panel, with every clip of a file compressed.
struct Measured {
  ClipDocument doc;
  Recompressor rc{&doc};
  ClipListPanel panel{&doc, &rc};
  bool open(const QString& path) {
    rc.setDebounceMs(0);
    if (!doc.open(path).isOk()) return false;
    rc.compressAll();
    return waitForAll(rc, doc);
  }
};

/// The clip rows the panel shows, in order, under every file shown.
QStringList shownNames(const ClipListPanel& panel) {
  QStringList names;
  for (int file = 0; file < panel.proxy()->rowCount(); ++file) {
    const QModelIndex parent = panel.proxy()->index(file, 0);
    for (int row = 0; row < panel.proxy()->rowCount(parent); ++row)
      names << panel.proxy()->index(row, ClipListModel::Name, parent).data().toString();
  }
  return names;
}

using test::clipNamed;

/// What `animpack compress FILE --settings` writes for the document's file and `settings`, per clip.
std::map<std::string, core::ClipReport> exported(const QString& path, const core::CompressionSettings& settings) {
  QTemporaryDir dir;
  core::ExportOptions options;
  options.batch.settings = settings;
  options.output = dir.filePath("out.anpk").toStdString();
  auto written = core::exportPacks({path.toStdString()}, options);
  std::map<std::string, core::ClipReport> out;
  if (!written) qWarning("%s", written.status().message().c_str());
  else
    for (const core::ClipReport& r : written->rows) out[r.clip] = r;
  return out;
}

}  // namespace

class TestLeadView : public QObject {
  Q_OBJECT
 private slots:
  void budgetIsUndoableMergedAndSaved() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    QSignalSpy changed(&doc, &ClipDocument::budgetChanged);
    doc.setBudgetKib(10.0, 7);
    doc.setBudgetKib(12.0, 7);  // the same spin-box session: one step
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(*doc.budgetKib(), 12.0);
    QCOMPARE(changed.count(), 2);
    doc.setBudgetKib(-3.0);  // refused: not a budget
    doc.setBudgetKib(12.0);  // no change: no command
    QCOMPARE(doc.undoStack()->count(), 1);
    doc.undoStack()->undo();
    QVERIFY(!doc.budgetKib());
    doc.undoStack()->redo();
    QCOMPARE(*doc.budgetKib(), 12.0);

    QTemporaryDir dir;
    const QString project = dir.filePath("p.anproj");
    QVERIFY(saveProject(doc, project).isOk());
    ClipDocument loaded;
    QVERIFY(loadProject(loaded, project).isOk());
    QCOMPARE(*loaded.budgetKib(), 12.0);
    QVERIFY(!loaded.isModified());
    // A bad budget in a project file is an error naming the key.
    QFile f(project);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray text = f.readAll().replace("\"budget_kib\": 12", "\"budget_kib\": -1");
    f.close();
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
    f.close();
    const Status bad = loadProject(loaded, project);
    QVERIFY(!bad.isOk());
    QVERIFY2(QString::fromStdString(bad.message()).contains("budget_kib"), bad.message().c_str());
  }

  void totalsMatchThePackAndTheMeterTurnsRed() {
    Measured m;
    QVERIFY(m.open(test::rigPath()));
    auto& [doc, rc, panel] = m;
    const PackTotals totals = packTotals(doc, rc);
    QVERIFY(totals.complete());
    // The same bytes `animpack compress` writes for this file and these settings.
    QTemporaryDir dir;
    core::ExportOptions options;
    options.batch.settings = doc.settings();
    options.output = dir.filePath("rig.anpk").toStdString();
    auto written = core::exportPacks({test::rigPath().toStdString()}, options);
    QVERIFY2(written, written.status().message().c_str());
    QCOMPARE(totals.packBytes, written->packs.at(0).bytes);
    QCOMPARE(totals.residentBytes, written->packs.at(0).residentBytes);  // the file and what opening it derives
    std::uint64_t sum = 0;
    for (const core::ClipReport& r : written->rows) sum += r.compressedBytes;
    QCOMPARE(totals.compressedBytes, sum);
    QVERIFY(panel.totalsLabel()->text().contains("2 clips"));

    // A budget between the file and its resident bytes: over when it counts resident bytes (the
    // default), within when it counts the file; the kind is one undo step and saved in the project.
    QCOMPARE(doc.budgetKind(), core::BudgetKind::Resident);
    doc.setBudgetKib(double(totals.packBytes + totals.residentBytes) / 2.0 / 1024.0);
    QVERIFY(panel.meter()->property("overBudget").toBool());
    QVERIFY(panel.meter()->text().contains("resident"));
    const int before = doc.undoStack()->count();
    panel.budgetKindBox()->setCurrentIndex(1);
    QCOMPARE(doc.budgetKind(), core::BudgetKind::Pack);
    QCOMPARE(doc.undoStack()->count(), before + 1);
    QVERIFY(!panel.meter()->property("overBudget").toBool());
    doc.undoStack()->undo();
    QCOMPARE(panel.budgetKindBox()->currentIndex(), 0);
    QVERIFY(panel.meter()->property("overBudget").toBool());
    doc.undoStack()->undo();
    QVERIFY(!doc.budgetKib());

    QVERIFY(!panel.meter()->isEnabled());
    const double packKib = double(totals.residentBytes) / 1024.0;
    doc.setBudgetKib(packKib * 2);
    QVERIFY(!panel.meter()->property("overBudget").toBool());
    QVERIFY(!panel.meter()->styleSheet().contains("#c8281e"));
    QCOMPARE(panel.budgetBox()->value(), std::round(packKib * 2 * 10) / 10);
    doc.setBudgetKib(packKib / 2);
    QVERIFY(panel.meter()->property("overBudget").toBool());
    QVERIFY(panel.meter()->styleSheet().contains("#c8281e"));
    QVERIFY(panel.meter()->text().contains("KiB"));
    // The spin box is an edit like any other: one undo step, undone.
    const int steps = doc.undoStack()->count();
    panel.budgetBox()->setValue(500);
    QCOMPARE(*doc.budgetKib(), 500.0);
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    doc.undoStack()->undo();
    QCOMPARE(panel.budgetBox()->value(), std::round(packKib / 2 * 10) / 10);
  }

  void morphBytesAreShownApart() {
    // Without morph targets the column is hidden; with them each clip shows its curve bytes, part
    // of its compressed bytes, and the file and the pack their sums.
    Measured plain;
    QVERIFY(plain.open(test::rigPath()));
    QVERIFY(plain.panel.table()->isColumnHidden(ClipListModel::MorphBytes));
    QVERIFY(!plain.panel.totalsLabel()->text().contains("morph"));

    Measured m;
    QVERIFY(m.open(QString::fromStdString(test::writeScene(test::morphRig(), "lead_morph.gltf").string())));
    QVERIFY(!m.panel.table()->isColumnHidden(ClipListModel::MorphBytes));
    const QModelIndex file = m.panel.proxy()->index(0, 0);
    std::uint64_t sum = 0;
    for (int row = 0; row < m.panel.proxy()->rowCount(file); ++row) {
      const QModelIndex name = m.panel.proxy()->index(row, ClipListModel::Name, file);
      const int clip = test::clipNamed(m.doc, name.data().toString());
      const auto& stats = m.rc.result(clip)->compressed->stats;
      const QModelIndex morph = name.siblingAtColumn(ClipListModel::MorphBytes);
      QCOMPARE(morph.data(Qt::UserRole).toULongLong(), qulonglong(stats.curves.bytes));
      QCOMPARE(morph.data().toString(), formatBytes(stats.curves.bytes));
      QVERIFY(stats.curves.bytes > 0 &&
              stats.curves.bytes <
                  name.siblingAtColumn(ClipListModel::CompressedBytes).data(Qt::UserRole).toULongLong());
      sum += stats.curves.bytes;
    }
    QCOMPARE(file.siblingAtColumn(ClipListModel::MorphBytes).data(Qt::UserRole).toULongLong(), qulonglong(sum));
    QVERIFY2(m.panel.totalsLabel()->text().contains("morph curves " + formatBytes(sum)),
             qPrintable(m.panel.totalsLabel()->text()));
  }

  void sortAndFilterByApprovalNameAndFile() {
    Measured m;
    QVERIFY(m.open(test::rigPath()));
    ClipDocument& doc = m.doc;
    ClipListPanel& panel = m.panel;
    doc.setApproval({1}, core::ApprovalState::Approved);
    QCOMPARE(shownNames(panel), QStringList({"Walk", "Wave"}));
    panel.approvalFilter()->setCurrentIndex(panel.approvalFilter()->findData(int(core::ApprovalState::Approved)));
    QCOMPARE(shownNames(panel), QStringList({"Wave"}));
    panel.approvalFilter()->setCurrentIndex(panel.approvalFilter()->findData(int(core::ApprovalState::NeedsReview)));
    QCOMPARE(shownNames(panel), QStringList({"Walk"}));
    panel.approvalFilter()->setCurrentIndex(0);
    auto* text = panel.findChild<QLineEdit*>();
    text->setText("wav");
    QCOMPARE(shownNames(panel), QStringList({"Wave"}));
    text->setText(QFileInfo(test::rigPath()).fileName());  // the file column matches too
    QCOMPARE(shownNames(panel), QStringList({"Walk", "Wave"}));
    text->setText("a.b");  // literal, not a pattern
    QVERIFY(shownNames(panel).isEmpty());
    text->clear();
    // Sorting by size puts the smaller clip first, whichever it is.
    panel.table()->sortByColumn(ClipListModel::CompressedBytes, Qt::AscendingOrder);
    const auto bytes = [&](int row) {
      return panel.proxy()
          ->index(row, ClipListModel::CompressedBytes, panel.proxy()->index(0, 0))
          .data(Qt::UserRole)
          .toULongLong();
    };
    QVERIFY(bytes(0) <= bytes(1));
    panel.table()->sortByColumn(ClipListModel::CompressedBytes, Qt::DescendingOrder);
    QVERIFY(bytes(0) >= bytes(1));
    panel.table()->sortByColumn(ClipListModel::Status, Qt::AscendingOrder);
    QCOMPARE(shownNames(panel).first(), QString("Walk"));  // needs review before approved
  }

  void approvingASelectionIsOneStep() {
    ClipDocument doc;
    Recompressor rc(&doc);
    ClipListPanel panel(&doc, &rc);
    QVERIFY(doc.open(test::rigPath()));
    panel.table()->selectAll();
    QCOMPARE(panel.selectedClips(), (std::vector<int>{0, 1}));
    panel.approveSelected();
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.approval(0), core::ApprovalState::Approved);
    QCOMPARE(doc.approval(1), core::ApprovalState::Approved);
    panel.rejectSelected();
    QCOMPARE(doc.undoStack()->count(), 2);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.approval(0), core::ApprovalState::NeedsReview);
    QCOMPARE(doc.approval(1), core::ApprovalState::NeedsReview);
    // With nothing selected, the clips the filters show.
    panel.table()->clearSelection();
    panel.findChild<QLineEdit*>()->setText("Wave");
    QCOMPARE(panel.selectedClips(), (std::vector<int>{1}));
  }

  void overBudgetSuggestsTwiceThePrecision() {
    Measured m;
    m.panel.show();
    QVERIFY(m.open(test::rigPath("lead_rig.gltf", 120)));
    auto& [doc, rc, panel] = m;
    QVERIFY(panel.suggestionBox()->isHidden());
    doc.setBudgetKib(0.1);
    QVERIFY(panel.suggestionBox()->isVisible());
    QVERIFY(
        QTest::qWaitFor([&] { return !panel.advisor()->busy() && !panel.advisor()->suggestions().empty(); }, 60000));
    const auto suggestions = panel.advisor()->suggestions();
    const float precision = doc.effectiveSettings(0).joints[0].precisionCm;
    for (std::size_t i = 0; i < suggestions.size(); ++i) {
      const BudgetSuggestion& s = suggestions[i];
      QVERIFY(s.saves() > 0);
      QVERIFY(s.errorThenCm <= 2 * precision * 1.0001f);  // still verified against the doubled precision
      if (i) QVERIFY(suggestions[i - 1].saves() >= s.saves());
    }
    QVERIFY(panel.applySuggestionButton()->isEnabled());
    const int steps = doc.undoStack()->count();
    const int clip = suggestions.front().clip;
    QTest::mouseClick(panel.applySuggestionButton(), Qt::LeftButton);
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    for (const auto& j : doc.effectiveSettings(clip).joints) QCOMPARE(j.precisionCm, 2 * precision);
    // The applied bytes are what the suggestion said.
    QVERIFY(QTest::qWaitFor([&] { return rc.result(clip) && !rc.busy(); }, 30000));
    QCOMPARE(core::packedClipBytes(*rc.result(clip)->compressed), suggestions.front().bytesThen);
    doc.undoStack()->undo();
    for (const auto& j : doc.effectiveSettings(clip).joints) QCOMPARE(j.precisionCm, precision);
    // Within budget the suggestion goes away.
    doc.setBudgetKib(1e6);
    QVERIFY(panel.suggestionBox()->isHidden());
    QVERIFY(panel.advisor()->suggestions().empty());
  }

  // The sweep, the advisor and export set a compression up in one place (core/compress/
  // compress_setup.h): a sweep point at the current precision and an advisor estimate are what
  // export writes, for a skinned clip (the skin check) and an additive one (its base).
  void sweepAndAdvisorAgreeWithExport() {
    const QString path =
        QString::fromStdString(test::writeScene(test::layeredRig(60, 25.f), "agree_layered.gltf").string());
    Measured m;
    QVERIFY(m.open(path));
    auto& [doc, rc, panel] = m;
    const int walk = clipNamed(doc, "Walk"), upper = clipNamed(doc, "Upper");
    QVERIFY(walk >= 0 && upper >= 0);
    doc.setAdditiveBase(upper, "Idle");
    rc.compressAll();
    QVERIFY(waitForAll(rc, doc));
    QVERIFY(!doc.asset()->meshes.empty());
    QVERIFY(doc.effectiveSettings(walk).verifySkin);
    const auto now = exported(path, doc.settings());
    QCOMPARE(now.at("Upper").additiveBase, std::string("Idle"));
    QVERIFY(now.at("Walk").maxVertexErrorCm >= 0);

    StatsPanel stats(&doc, &rc);
    for (int clip : {walk, upper}) {
      doc.setCurrentClip(clip);
      QSignalSpy finished(&stats, &StatsPanel::sweepFinished);
      stats.startSweep();
      QVERIFY(finished.wait(120000));
      const std::vector<core::SweepPoint>& points = stats.sweep();
      QCOMPARE(points.size(), std::size_t(7));
      const core::ClipReport& row = now.at(doc.clipName(clip).toStdString());
      QCOMPARE(points[2].bytes, row.compressedBytes);  // the current precision
      QCOMPARE(float(points[2].maxErrorCm), row.maxErrorCm);
    }

    doc.setBudgetKib(0.1);
    QVERIFY(
        QTest::qWaitFor([&] { return !panel.advisor()->busy() && !panel.advisor()->suggestions().empty(); }, 120000));
    const std::vector<BudgetSuggestion> suggestions = panel.advisor()->suggestions();
    int checked = 0;
    for (const BudgetSuggestion& s : suggestions) {
      if (s.clip != walk && s.clip != upper) continue;
      doc.scaleClipPrecision({s.clip}, BudgetAdvisor::kFactor);
      const auto then = exported(path, doc.settings());
      doc.undoStack()->undo();
      const core::ClipReport& row = then.at(s.name.toStdString());
      QCOMPARE(s.bytesThen, row.compressedBytes);
      QCOMPARE(s.errorThenCm, row.maxErrorCm);
      ++checked;
    }
    QCOMPARE(checked, 2);
  }
};

QTEST_MAIN(TestLeadView)
#include "tst_lead_view.moc"
