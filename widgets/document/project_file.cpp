#include "widgets/document/project_file.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "core/io/atomic_file.h"

namespace animpack::widgets {
namespace {

Error fail(const QString& path, const QString& what) { return Error{(path + ": " + what).toStdString()}; }

}  // namespace

core::Project documentProject(const ClipDocument& document) {
  core::Project p;
  for (int f = 0; f < document.fileCount(); ++f)
    p.sources.push_back(
        {std::filesystem::absolute(document.file(f).source.path).lexically_normal(), document.file(f).source.settings});
  p.settings = document.settings();
  p.upAxis = core::upAxisName(document.upAxis());
  p.budgetKib = document.budgetKib();
  p.budgetKind = document.budgetKind();
  for (int c = 0; c < document.clipCount(); ++c) {
    p.approvals[document.clipName(c).toStdString()] = document.storedApproval(c);
  }
  return p;
}

core::ExportOptions documentExportOptions(const ClipDocument& document) {
  // Only the project's folder matters to the export (source names are relative to it).
  const std::filesystem::path folder = document.projectFolder().toStdString();
  return core::projectExportOptions(documentProject(document), folder / "document.anproj");
}

std::vector<std::filesystem::path> documentFiles(const ClipDocument& document) {
  return core::projectFiles(documentProject(document));
}

QByteArray projectJson(const ClipDocument& document, const QString& projectPath) {
  return QByteArray::fromStdString(core::projectJson(documentProject(document), projectPath.toStdString()));
}

Status saveProject(const ClipDocument& document, const QString& path) {
  if (auto st = core::writeProject(documentProject(document), path.toStdString()); !st) return st;
  return Status::ok();
}

Status loadProject(ClipDocument& document, const QString& path) {
  auto project = core::readProject(path.toStdString());
  if (!project) return Error{project.message()};
  if (project->sources.empty()) return fail(path, "the project names no source file");
  if (auto st = document.open(project->sources, project->settings); !st)
    return fail(path, "cannot open its source: " + QString::fromStdString(st.message()));
  document.setProjectFolder(QFileInfo(path).absolutePath());
  std::vector<std::pair<QString, core::ClipApprovalRecord>> approvals;
  for (int c = 0; c < document.clipCount(); ++c) {
    const core::ClipApprovalRecord* a =
        project->approval(document.clipName(c).toStdString(), document.sourceClipName(c).toStdString());
    if (!a) continue;
    approvals.emplace_back(document.clipName(c), *a);
  }
  document.restore(approvals, core::upAxisFromName(project->upAxis).value_or(UpAxis::AsImported));
  document.restoreBudget(project->budgetKib, project->budgetKind);
  document.undoStack()->setClean();
  return Status::ok();
}

QString autosavePath(const QString& projectPath, const QString& sourcePath) {
  if (!projectPath.isEmpty()) return projectPath + ".autosave";
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/autosave";
  QDir().mkpath(dir);
  const QString id = QString::fromLatin1(
      QCryptographicHash::hash(QFileInfo(sourcePath).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1)
          .toHex()
          .left(12));
  return dir + "/" + QFileInfo(sourcePath).completeBaseName() + "-" + id + ".anproj.autosave";
}

}  // namespace animpack::widgets
