// A document of many files: adding files and folders and removing files are one undo step each and
// mark the document modified; the Clips panel groups clips by file with each file's totals; a file
// whose skeleton differs is named with its joints in Diagnostics and left out of the pack; a project
// of many files saves (schema v2, paths relative to the project) and opens again the same.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "core/batch/export.h"
#include "core/project/project_build.h"
#include "tests/widgets/fixture.h"
#include "widgets/clip_list.h"
#include "widgets/diagnostics_panel.h"
#include "widgets/document/lead_view.h"
#include "widgets/document/project_file.h"

using namespace animpack;
using namespace animpack::widgets;

namespace {

/// A file of one take (test::singleTakeRig) at `path`.
QString singleClip(const QString& path, const std::string& clipName, int frames) {
  return test::writeSceneAt(test::singleTakeRig(frames, clipName), path.toStdString()) ? path : QString();
}

/// The same rig with its joint LeftFoot named LeftToe: another skeleton.
QString otherSkeleton(const QString& path) {
  test::GltfScene scene = test::singleTakeRig(20);
  for (test::GltfNode& n : scene.nodes)
    if (n.name == "LeftFoot") n.name = "LeftToe";
  return test::writeGltf(scene, path.toStdString()) ? path : QString();
}

bool waitForAll(Recompressor& rc, const ClipDocument& doc) {
  rc.compressAll();
  return test::waitForAllResults(rc, doc);
}

}  // namespace

class TstDocumentFiles : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void addingFilesIsOneUndoStep() {
    QTemporaryDir dir;
    const QString walk = singleClip(dir.filePath("walk.gltf"), "Take 001", 20);
    const QString run = singleClip(dir.filePath("run.gltf"), "Take 001", 24);
    const QString jump = singleClip(dir.filePath("jump.gltf"), "Take 001", 28);
    ClipDocument doc;
    QVERIFY(doc.open(walk));
    QSignalSpy assetChanged(&doc, &ClipDocument::assetChanged);
    QCOMPARE(doc.clipName(0), QString("walk"));  // a generic name takes the file's stem
    QStringList errors;
    QCOMPARE(doc.addFiles({run, jump, dir.filePath("missing.gltf")}, &errors), 2);
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.front().contains("missing.gltf"), qPrintable(errors.front()));
    QCOMPARE(doc.fileCount(), 3);
    QCOMPARE(doc.clipCount(), 3);
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(doc.undoStack()->text(0), QString("Add 2 files"));
    QVERIFY(doc.isModified());
    QCOMPARE(assetChanged.count(), 1);
    QCOMPARE(doc.clipName(1), QString("run"));
    QCOMPARE(doc.fileOfClip(2), 2);
    QCOMPARE(doc.rawClip(2).frameCount, 28u);
    // A file listed already is not added again, and adds no step.
    QCOMPARE(doc.addFiles({run}), 0);
    QCOMPARE(doc.undoStack()->count(), 1);
    // The current clip of another file: the joint tree and viewport show that file.
    doc.setCurrentClip(2);
    QCOMPARE(doc.asset(), doc.file(2).asset);
    doc.undoStack()->undo();
    QCOMPARE(doc.fileCount(), 1);
    QCOMPARE(doc.clipCount(), 1);
    QCOMPARE(doc.currentClip(), 0);
    QVERIFY(!doc.isModified());
    doc.undoStack()->redo();
    QCOMPARE(doc.clipCount(), 3);
  }

  void addingAFolderFindsAnimationFilesBelowIt() {
    QTemporaryDir dir;
    const QString first = singleClip(dir.filePath("hero/idle.gltf"), "mixamo.com", 20);
    singleClip(dir.filePath("hero/locomotion/walk.gltf"), "mixamo.com", 22);
    singleClip(dir.filePath("hero/locomotion/fast/run.gltf"), "mixamo.com", 24);
    QFile notes(dir.filePath("hero/locomotion/notes.txt"));
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write("not an animation");
    notes.close();
    ClipDocument doc;
    QVERIFY(doc.open(first));
    QStringList errors;
    // The file already open is skipped; the text file is not an animation file.
    QCOMPARE(doc.addFolder(dir.filePath("hero"), &errors), 2);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join("; ")));
    QCOMPARE(doc.fileCount(), 3);
    QCOMPARE(doc.undoStack()->count(), 1);
    QStringList names;
    for (int c = 0; c < doc.clipCount(); ++c) names << doc.clipName(c);
    names.sort();
    QCOMPARE(names, QStringList({"idle", "run", "walk"}));
    QCOMPARE(doc.addFolder(dir.filePath("nowhere"), &errors), 0);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(doc.undoStack()->count(), 1);
  }

  void removingAFileKeepsApprovalsForUndo() {
    QTemporaryDir dir;
    ClipDocument doc;
    QVERIFY(doc.open(singleClip(dir.filePath("a.gltf"), "Take 001", 20)));
    QCOMPARE(doc.addFiles({singleClip(dir.filePath("b.gltf"), "Take 001", 22),
                           singleClip(dir.filePath("c.gltf"), "Take 001", 24)}),
             2);
    doc.setApproval({1}, core::ApprovalState::Approved);
    doc.setApproval({2}, core::ApprovalState::Rejected);
    doc.setCurrentClip(2);
    doc.undoStack()->setClean();
    doc.removeFiles({1});
    QCOMPARE(doc.fileCount(), 2);
    QCOMPARE(doc.clipName(1), QString("c"));
    QCOMPARE(doc.approval(1), core::ApprovalState::Rejected);
    QCOMPARE(doc.currentClip(), 1);  // still c's clip
    QVERIFY(doc.isModified());
    QCOMPARE(doc.undoStack()->text(doc.undoStack()->index() - 1), QString("Remove b.gltf"));
    doc.undoStack()->undo();
    QCOMPARE(doc.fileCount(), 3);
    QCOMPARE(doc.clipName(1), QString("b"));
    QCOMPARE(doc.approval(1), core::ApprovalState::Approved);
    QCOMPARE(doc.approval(2), core::ApprovalState::Rejected);
    QVERIFY(!doc.isModified());
    // The project keeps a file: removing every one does nothing.
    doc.removeFiles({0, 1, 2});
    QCOMPARE(doc.fileCount(), 3);
  }

  void theClipsPanelGroupsByFileWithTotals() {
    QTemporaryDir dir;
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    ClipListPanel panel(&doc, &rc);
    QVERIFY(doc.open(test::rigCopy(dir, "hero.gltf")));  // two clips
    QCOMPARE(doc.addFiles({singleClip(dir.filePath("jump.gltf"), "Take 001", 30)}), 1);
    QVERIFY(waitForAll(rc, doc));
    const ClipListModel& model = *panel.model();
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowCount(model.fileIndex(0)), 2);
    QCOMPARE(model.rowCount(model.fileIndex(1)), 1);
    QCOMPARE(model.fileIndex(1, ClipListModel::Name).data().toString(), QString("jump.gltf"));
    QCOMPARE(model.index(0, ClipListModel::Name, model.fileIndex(1)).data().toString(), QString("jump"));
    // A file row sums its clips: frames, raw and compressed bytes; its max error is its clips' largest.
    const auto sum = [&](int file, int column) {
      qulonglong total = 0;
      for (int row = 0; row < model.rowCount(model.fileIndex(file)); ++row)
        total += model.index(row, column, model.fileIndex(file)).data(Qt::UserRole).toULongLong();
      return total;
    };
    for (int file : {0, 1}) {
      QCOMPARE(model.fileIndex(file, ClipListModel::RawBytes).data(Qt::UserRole).toULongLong(),
               sum(file, ClipListModel::RawBytes));
      QCOMPARE(model.fileIndex(file, ClipListModel::CompressedBytes).data(Qt::UserRole).toULongLong(),
               sum(file, ClipListModel::CompressedBytes));
      QCOMPARE(model.fileIndex(file, ClipListModel::Frames).data().toULongLong(), sum(file, ClipListModel::Frames));
    }
    const PackTotals hero = fileTotals(doc, rc, 0);
    QCOMPARE(hero.clips, 2);
    QCOMPARE(hero.maxErrorCm,
             std::max(rc.result(0)->compressed->stats.maxErrorCm, rc.result(1)->compressed->stats.maxErrorCm));
    QVERIFY(model.fileIndex(0, ClipListModel::Ratio).data().toString().endsWith(":1"));
    // The pack totals cover every file.
    const PackTotals pack = packTotals(doc, rc);
    QCOMPARE(pack.clips, 3);
    QCOMPARE(pack.compressedBytes, hero.compressedBytes + fileTotals(doc, rc, 1).compressedBytes);
    // Approvals count per file; selecting a file row stands for its clips.
    doc.setApproval({2}, core::ApprovalState::Approved);
    QCOMPARE(model.fileIndex(1, ClipListModel::Status).data().toString(), QString("1 of 1 approved"));
    panel.table()->selectionModel()->select(panel.proxy()->mapFromSource(model.fileIndex(0)),
                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(panel.selectedClips(), (std::vector<int>{0, 1}));
    QCOMPARE(panel.selectedFiles(), std::vector<int>{0});
    // Selecting a clip of the second file makes it current: its file is what the views show.
    panel.table()->setCurrentIndex(panel.proxy()->mapFromSource(model.clipIndex(2)));
    QCOMPARE(doc.currentClip(), 2);
    QCOMPARE(doc.asset(), doc.file(1).asset);
    QVERIFY(rc.current().compressed());
    // Remove from the panel: one step, undoable.
    panel.table()->selectionModel()->select(panel.proxy()->mapFromSource(model.fileIndex(0)),
                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    panel.removeSelectedFiles();
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(doc.clipName(0), QString("jump"));
    doc.undoStack()->undo();
    QCOMPARE(model.rowCount(), 2);
    // Results are kept by what they depend on: undoing needs no new compression.
    QVERIFY(rc.result(0) && rc.result(1) && rc.result(2));
  }

  void aFileOfAnotherSkeletonIsLeftOutAndNamed() {
    QTemporaryDir dir;
    ClipDocument doc;
    Recompressor rc(&doc);
    DiagnosticsPanel diagnostics(&doc);
    ClipListPanel panel(&doc, &rc);
    const QString walk = singleClip(dir.filePath("walk.gltf"), "Take 001", 20);
    QVERIFY(doc.open(walk));
    const QString odd = otherSkeleton(dir.filePath("odd.gltf"));
    QCOMPARE(doc.addFiles({odd}), 1);
    QCOMPARE(doc.fileCount(), 2);
    QCOMPARE(doc.clipCount(), 1);  // its clip is not in the pack
    QVERIFY(doc.clipsOfFile(1).empty());
    const QString problem = doc.fileProblem(1);
    QVERIFY2(problem.contains("left out of the pack") && problem.contains("LeftFoot") && problem.contains("LeftToe"),
             qPrintable(problem));
    QVERIFY(doc.fileProblem(0).isEmpty());
    QStringList lines;
    for (int i = 0; i < diagnostics.count(); ++i) lines << diagnostics.item(i)->text();
    QVERIFY2(lines.filter("odd.gltf: left out of the pack").size() == 1, qPrintable(lines.join("\n")));
    QCOMPARE(panel.model()->fileIndex(1, ClipListModel::Status).data().toString(),
             QString("left out: skeleton differs"));
    // `animpack build` says the same of it.
    core::ExportOptions options = documentExportOptions(doc);
    options.output = dir.filePath("pack.anpk").toStdString();
    auto result = core::exportPacks(documentFiles(doc), options);
    QVERIFY(result);
    QCOMPARE(result->packs.front().clips, std::size_t(1));
    bool named = false;
    for (const core::ClipReport& r : result->rows) named |= QString::fromStdString(r.error) == problem;
    QVERIFY2(named, qPrintable(problem));
  }

  void aProjectOfManyFilesSavesAndOpensAgain() {
    QTemporaryDir dir;
    ClipDocument doc;
    QVERIFY(doc.open(singleClip(dir.filePath("chars/hero/idle.gltf"), "Take 001", 20)));
    QCOMPARE(doc.addFiles({singleClip(dir.filePath("chars/hero/moves/walk.gltf"), "Take 001", 22),
                           otherSkeleton(dir.filePath("chars/hero/odd.gltf"))}),
             2);
    doc.setCurrentClip(1);
    doc.setJointValue(EditScope::CurrentClip, {test::joint(doc, "Head")}, JointField::Precision, 0.05f);
    doc.setApproval({0}, core::ApprovalState::Approved);
    const QString project = dir.filePath("chars/hero.anproj");
    QVERIFY(saveProject(doc, project));
    QFile f(project);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(root["animpack_project"].toInt(), 2);
    QStringList paths;
    for (const auto& s : root["sources"].toArray()) paths << s.toObject()["path"].toString();
    QCOMPARE(paths, QStringList({"hero/idle.gltf", "hero/moves/walk.gltf", "hero/odd.gltf"}));
    QCOMPARE(root["clips"].toObject()["idle"].toObject()["approval"].toString(), QString("approved"));
    QVERIFY(root["settings"].toObject()["clips"].toObject().contains("walk"));

    // A file's own settings (written by hand or by the command line) stay the file's.
    QJsonObject edited = root;
    QJsonArray sources = edited["sources"].toArray();
    QJsonObject walk = sources[1].toObject();
    walk["settings"] = QJsonObject{{"precision_cm", 0.02}};
    sources[1] = walk;
    edited["sources"] = sources;
    f.close();
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QJsonDocument(edited).toJson());
    f.close();

    ClipDocument loaded;
    QVERIFY(loadProject(loaded, project));
    QCOMPARE(loaded.fileCount(), 3);
    QCOMPARE(loaded.clipCount(), 2);
    QVERIFY(!loaded.fileProblem(2).isEmpty());
    QCOMPARE(loaded.clipName(1), QString("walk"));
    QCOMPARE(loaded.approval(0), core::ApprovalState::Approved);
    QCOMPARE(loaded.effectiveSettings(1).joints[std::size_t(test::joint(loaded, "Head"))].precisionCm, 0.05f);
    QCOMPARE(loaded.effectiveSettings(1).joints[std::size_t(test::joint(loaded, "Spine"))].precisionCm, 0.02f);
    QCOMPARE(loaded.effectiveSettings(0).joints[std::size_t(test::joint(loaded, "Spine"))].precisionCm, 0.01f);
    QVERIFY(!loaded.isModified());
    const QString again = dir.filePath("chars/again.anproj");
    QVERIFY(saveProject(loaded, again));
    auto a = core::readProject(project.toStdString());
    auto b = core::readProject(again.toStdString());
    QVERIFY(a && b);
    QCOMPARE(a->sources, b->sources);
    QCOMPARE(a->settings.toJson(), b->settings.toJson());
    QCOMPARE(a->approvals.size(), b->approvals.size());
  }
};

QTEST_MAIN(TstDocumentFiles)
#include "tst_document_files.moc"
