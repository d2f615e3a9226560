// Studio projects (.anproj): a saved project opens to the same settings, up axis and approvals; an
// approval given for other source bytes is reset; bad project files are refused with a named error.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "core/runtime/pack.h"
#include "tests/widgets/fixture.h"
#include "widgets/document/project_file.h"

using namespace animpack;
using namespace animpack::widgets;

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

}  // namespace

class TstProjectFile : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }  // autosaves go to a test folder

  void roundTrip() {
    QTemporaryDir dir;
    const QString source = test::rigCopy(dir, "hero.gltf");
    QVERIFY(!source.isEmpty());
    ClipDocument doc;
    QVERIFY(doc.open(source));
    doc.setJointValue(EditScope::AllClips, {test::joint(doc, "Spine")}, JointField::Precision, 0.04f);
    doc.setCurrentClip(1);
    doc.setJointValue(EditScope::CurrentClip, {test::joint(doc, "Head")}, JointField::Pinned, 1.f);
    doc.setUpAxis(UpAxis::ZUp);
    doc.setApproval({0}, core::ApprovalState::Approved);
    doc.setApproval({1}, core::ApprovalState::Rejected);

    const QString project = dir.filePath("hero.anproj");
    QVERIFY(saveProject(doc, project));
    // The source sits beside the project: stored relative, so the pair can move together.
    QFile f(project);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(root["sources"].toArray().at(0).toObject()["path"].toString(), QString("hero.gltf"));
    QCOMPARE(root["animpack_project"].toInt(), 2);
    // Approvals by pack name, with who and when.
    QCOMPARE(root["clips"].toObject()["Walk"].toObject()["approval"].toString(), QString("approved"));
    QVERIFY(root["clips"].toObject()["Walk"].toObject()["at"].toString().endsWith("Z"));

    ClipDocument loaded;
    QVERIFY(loadProject(loaded, project));
    QCOMPARE(loaded.sourcePath(), source);
    QCOMPARE(loaded.settings().toJson(), doc.settings().toJson());
    QCOMPARE(loaded.upAxis(), UpAxis::ZUp);
    QCOMPARE(loaded.approval(0), core::ApprovalState::Approved);
    QCOMPARE(loaded.approval(1), core::ApprovalState::Rejected);
    QCOMPARE(loaded.effectiveSettings(1).joints[std::size_t(test::joint(loaded, "Head"))].pinned, true);
    QVERIFY(!loaded.isModified());
    QCOMPARE(loaded.undoStack()->count(), 0);

    // The project moves with its source.
    QTemporaryDir other;
    QVERIFY(QFile::copy(source, other.filePath("hero.gltf")));
    QVERIFY(QFile::copy(project, other.filePath("hero.anproj")));
    ClipDocument moved;
    QVERIFY(loadProject(moved, other.filePath("hero.anproj")));
    QCOMPARE(moved.sourcePath(), other.filePath("hero.gltf"));
    QCOMPARE(moved.approval(0), core::ApprovalState::Approved);
  }

  void exportWritesWhatBuildWrites() {
    QTemporaryDir dir;
    const QString source = test::rigCopy(dir, "hero.gltf");
    ClipDocument doc;
    QVERIFY(doc.open(source));
    doc.setCurrentClip(1);
    doc.setJointValue(EditScope::CurrentClip, {test::joint(doc, "Head")}, JointField::Precision, 0.05f);
    const QString project = dir.filePath("hero.anproj");
    QVERIFY(saveProject(doc, project));

    core::ExportOptions studio = documentExportOptions(doc);
    studio.output = dir.filePath("studio.anpk").toStdString();
    QVERIFY(core::exportPacks({source.toStdString()}, studio));
    // What `animpack build hero.anproj` runs.
    auto read = core::readProject(project.toStdString());
    QVERIFY(read);
    core::ExportOptions build = core::projectExportOptions(*read, project.toStdString());
    build.output = dir.filePath("build.anpk").toStdString();
    QVERIFY(core::exportPacks(core::projectFiles(*read), build));
    QFile a(dir.filePath("studio.anpk")), b(dir.filePath("build.anpk"));
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    const QByteArray bytes = a.readAll();
    QVERIFY(bytes.size() > 100);
    QCOMPARE(bytes, b.readAll());
  }

  void exportOfAFolderOfFilesWritesWhatBuildWrites() {
    // A character as a folder of single-clip files sharing the rig, each take named "Take 001" (two
    // in subfolders with the same stem), and one file of another skeleton that build leaves out.
    QTemporaryDir dir;
    const auto take = [&](const QString& name, int frames) {
      return test::writeSceneAt(test::singleTakeRig(frames), dir.filePath(name).toStdString());
    };
    QVERIFY(take("hero/idle.gltf", 20) && take("hero/walk.gltf", 26) && take("hero/a/jump.gltf", 18) &&
            take("hero/b/jump.gltf", 22));
    test::GltfScene odd = test::singleTakeRig(20);
    for (test::GltfNode& n : odd.nodes)
      if (n.name == "LeftFoot") n.name = "LeftToe";
    QVERIFY(test::writeGltf(odd, dir.filePath("hero/odd.gltf").toStdString()));

    ClipDocument doc;
    QVERIFY(doc.open(dir.filePath("hero/idle.gltf")));
    QCOMPARE(doc.addFolder(dir.filePath("hero")), 4);
    QCOMPARE(doc.clipCount(), 4);
    QStringList names;
    for (int c = 0; c < doc.clipCount(); ++c) names << doc.clipName(c);
    QVERIFY2(names.contains("a/jump/Take 001") || names.contains("a/jump"), qPrintable(names.join(", ")));
    doc.setCurrentClip(int(names.indexOf("walk")));
    doc.setJointValue(EditScope::CurrentClip, {test::joint(doc, "Head")}, JointField::Precision, 0.05f);
    doc.setBudgetKib(64);
    const QString project = dir.filePath("hero.anproj");
    QVERIFY(saveProject(doc, project));

    core::ExportOptions studio = documentExportOptions(doc);
    studio.output = dir.filePath("studio.anpk").toStdString();
    auto fromStudio = core::exportPacks(documentFiles(doc), studio);
    QVERIFY(fromStudio);
    auto read = core::readProject(project.toStdString());
    QVERIFY(read);
    QCOMPARE(read->sources.size(), std::size_t(5));
    core::ExportOptions build = core::projectExportOptions(*read, project.toStdString());
    build.output = dir.filePath("build.anpk").toStdString();
    auto fromBuild = core::exportPacks(core::projectFiles(*read), build);
    QVERIFY(fromBuild);
    QCOMPARE(fromBuild->failures, std::size_t(1));  // the other skeleton
    QFile a(dir.filePath("studio.anpk")), b(dir.filePath("build.anpk"));
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    const QByteArray bytes = a.readAll();
    QVERIFY(bytes.size() > 100);
    QCOMPARE(bytes, b.readAll());
    // The pack holds the studio's clips under the studio's names.
    auto pack = runtime::Pack::load(dir.filePath("build.anpk").toStdString());
    QVERIFY(pack);
    QStringList packNames;
    for (const auto& c : pack->clips()) packNames << QString::fromStdString(std::string(c.name()));
    QCOMPARE(packNames, names);
  }

  void approvalsResetWhenTheSourceChanges() {
    QTemporaryDir dir;
    const QString source = test::rigCopy(dir, "walk.gltf");
    QVERIFY(!source.isEmpty());
    ClipDocument doc;
    QVERIFY(doc.open(source));
    doc.setApproval({0}, core::ApprovalState::Approved);
    const QString project = dir.filePath("walk.anproj");
    QVERIFY(saveProject(doc, project));

    // The artist re-exports the rig: same clips, different bytes.
    QFile::remove(source);
    QVERIFY(QFile::copy(test::rigPath("walk-v2.gltf", 30), source));
    ClipDocument loaded;
    QVERIFY(loadProject(loaded, project));
    QCOMPARE(loaded.storedApproval(0).state, core::ApprovalState::Approved);
    QCOMPARE(loaded.approval(0), core::ApprovalState::NeedsReview);
  }

  void badProjectsAreRefused() {
    QTemporaryDir dir;
    ClipDocument doc;
    const auto expectError = [&](const QString& path, const char* needle) {
      const Status st = loadProject(doc, path);
      QVERIFY(!st);
      const QString message = QString::fromStdString(st.message());
      QVERIFY2(message.contains(QFileInfo(path).fileName()), qPrintable(message));
      QVERIFY2(message.contains(needle), qPrintable(message));
      QVERIFY(!doc.hasAsset());
    };
    expectError(dir.filePath("missing.anproj"), "cannot open");
    writeFile(dir.filePath("garbage.anproj"), "{ not json");
    expectError(dir.filePath("garbage.anproj"), "not a project file");
    writeFile(dir.filePath("other.anproj"), R"({"hello": 1})");
    expectError(dir.filePath("other.anproj"), "not an animpack project");
    writeFile(dir.filePath("future.anproj"), R"({"animpack_project": 99, "source": "x.gltf"})");
    expectError(dir.filePath("future.anproj"), "newer than this animpack");
    writeFile(dir.filePath("two.anproj"),
              R"({"animpack_project": 2, "sources": [{"path": "a.gltf"}, {"path": "b.gltf"}]})");
    expectError(dir.filePath("two.anproj"), "cannot open its source");  // none of its sources imports
    writeFile(dir.filePath("nosource.anproj"), R"({"animpack_project": 1, "source": "gone.gltf"})");
    expectError(dir.filePath("nosource.anproj"), "cannot open its source");
    const QString rig = test::rigPath();
    writeFile(
        dir.filePath("badsettings.anproj"),
        QString(R"({"animpack_project": 1, "source": "%1", "settings": {"precision_cm": -3}})").arg(rig).toUtf8());
    expectError(dir.filePath("badsettings.anproj"), "precision_cm");
    writeFile(dir.filePath("badapproval.anproj"),
              QString(R"({"animpack_project": 1, "source": "%1", "clips": [{"name": "Walk", "approval": "maybe"}]})")
                  .arg(rig)
                  .toUtf8());
    expectError(dir.filePath("badapproval.anproj"), "unknown approval");
  }

  void saveIsAtomic() {
    QTemporaryDir dir;
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    const QString project = dir.filePath("p.anproj");
    QVERIFY(saveProject(doc, project));
    // A folder that cannot be written leaves no partial file behind and names the path.
    const QString blocked = dir.filePath("no/such/folder/p.anproj");
    const Status st = saveProject(doc, blocked);
    QVERIFY(!st);
    QVERIFY(QString::fromStdString(st.message()).contains("p.anproj"));
    QVERIFY(!QFileInfo::exists(blocked));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"p.anproj"});
  }

  void autosaveLocations() {
    QCOMPARE(autosavePath("/work/a.anproj", "/data/a.fbx"), QString("/work/a.anproj.autosave"));
    const QString unsaved = autosavePath({}, "/data/hero.fbx");
    QVERIFY(unsaved.endsWith(".anproj.autosave"));
    QVERIFY(unsaved.contains("hero-"));
    QVERIFY(autosavePath({}, "/data/hero.fbx") != autosavePath({}, "/other/hero.fbx"));  // by full path
  }
};

QTEST_MAIN(TstProjectFile)
#include "tst_project_file.moc"
