#include "widgets/document/project_file.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "core/io/atomic_file.h"

namespace animpack::widgets {
namespace {

Error fail(const QString& path, const QString& what) { return Error{(path + ": " + what).toStdString()}; }

core::ApprovalState coreState(Approval a) {
  switch (a) {
    case Approval::Approved: return core::ApprovalState::Approved;
    case Approval::Rejected: return core::ApprovalState::Rejected;
    case Approval::NeedsReview: break;
  }
  return core::ApprovalState::NeedsReview;
}

Approval studioState(core::ApprovalState a) {
  switch (a) {
    case core::ApprovalState::Approved: return Approval::Approved;
    case core::ApprovalState::Rejected: return Approval::Rejected;
    case core::ApprovalState::NeedsReview: break;
  }
  return Approval::NeedsReview;
}

}  // namespace

core::Project documentProject(const ClipDocument& document) {
  core::Project p;
  p.sources.push_back({std::filesystem::absolute(document.sourcePath().toStdString()).lexically_normal(), std::nullopt});
  p.settings = document.settings();
  p.upAxis = core::upAxisName(document.upAxis());
  p.budgetKib = document.budgetKib();
  for (int c = 0; c < document.clipCount(); ++c) {
    const ClipApproval a = document.storedApproval(c);
    p.approvals[document.clipName(c).toStdString()] = {coreState(a.state), a.settingsHash, a.sourceHash, a.who, a.when, a.maxErrorCm};
  }
  return p;
}

core::ExportOptions documentExportOptions(const ClipDocument& document) {
  const std::filesystem::path source = document.sourcePath().toStdString();
  return core::projectExportOptions(documentProject(document), source.parent_path() / "document.anproj");
}

QByteArray projectJson(const ClipDocument& document, const QString& projectPath) {
  return QByteArray::fromStdString(core::projectJson(documentProject(document), projectPath.toStdString()));
}

Status saveProject(const ClipDocument& document, const QString& path) {
  if (auto st = core::writeProject(documentProject(document), path.toStdString()); !st) return st;
  return Status::ok();
}

Expected<ProjectData> readProject(const QString& path) {
  auto project = core::readProject(path.toStdString());
  if (!project) return Error{project.message()};
  if (project->sources.empty()) return fail(path, "the project names no source file");
  if (project->sources.size() > 1)
    return fail(path, QString("the project has %1 source files; the studio opens projects of one (build this one with "
                              "'animpack build')").arg(project->sources.size()));
  ProjectData data;
  data.sourcePath = QString::fromStdString(project->sources.front().path.string());
  data.settings = project->settingsFor(0);
  data.upAxis = core::upAxisFromName(project->upAxis).value_or(UpAxis::AsImported);
  data.project = std::move(project.value());
  return data;
}

Status loadProject(ClipDocument& document, const QString& path) {
  auto data = readProject(path);
  if (!data) return data.status();
  if (auto st = document.open(data->sourcePath, data->settings); !st)
    return fail(path, "cannot open its source: " + QString::fromStdString(st.message()));
  std::vector<std::pair<QString, ClipApproval>> approvals;
  for (int c = 0; c < document.clipCount(); ++c) {
    const core::ClipApprovalRecord* a =
        data->project.approval(document.clipName(c).toStdString(), document.sourceClipName(c).toStdString());
    if (!a) continue;
    approvals.emplace_back(document.clipName(c), ClipApproval{studioState(a->state), a->settingsHash, a->sourceHash, a->who, a->when, a->maxErrorCm});
  }
  document.restore(approvals, data->upAxis);
  document.restoreBudget(data->project.budgetKib);
  document.undoStack()->setClean();
  return Status::ok();
}

QString autosavePath(const QString& projectPath, const QString& sourcePath) {
  if (!projectPath.isEmpty()) return projectPath + ".autosave";
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/autosave";
  QDir().mkpath(dir);
  const QString id = QString::fromLatin1(QCryptographicHash::hash(QFileInfo(sourcePath).absoluteFilePath().toUtf8(),
                                                                  QCryptographicHash::Sha1).toHex().left(12));
  return dir + "/" + QFileInfo(sourcePath).completeBaseName() + "-" + id + ".anproj.autosave";
}

}  // namespace animpack::widgets
