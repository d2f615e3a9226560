#include "widgets/document/project_file.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

#include "core/io/atomic_file.h"

namespace animpack::widgets {
namespace {

constexpr int kProjectVersion = 1;

QString hex(std::uint64_t v) { return QString("%1").arg(v, 16, 16, QChar('0')); }
std::uint64_t fromHex(const QString& s, bool& ok) { return s.toULongLong(&ok, 16); }

Error fail(const QString& path, const QString& what) { return Error{(path + ": " + what).toStdString()}; }

}  // namespace

QByteArray projectJson(const ClipDocument& document, const QString& projectPath) {
  QJsonObject root;
  root["animpack_project"] = kProjectVersion;
  const QDir dir = QFileInfo(projectPath).absoluteDir();
  const QString source = QFileInfo(document.sourcePath()).absoluteFilePath();
  const QString relative = dir.relativeFilePath(source);
  // Relative when the source sits beside or below the project, so the pair can move together.
  root["source"] = relative.startsWith("../") ? source : relative;
  root["settings"] = QJsonDocument::fromJson(QByteArray::fromStdString(document.settings().toJson())).object();
  root["up_axis"] = core::upAxisName(document.upAxis());
  QJsonArray clips;
  for (int c = 0; c < document.clipCount(); ++c) {
    const ClipApproval a = document.storedApproval(c);
    QJsonObject clip;
    clip["name"] = document.clipName(c);
    clip["clip_index"] = c;
    clip["approval"] = approvalName(a.state);
    if (a.state != Approval::NeedsReview) {
      clip["approved_settings_hash"] = hex(a.settingsHash);
      clip["approved_source_hash"] = hex(a.sourceHash);
    }
    clips.append(clip);
  }
  root["clips"] = clips;
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Status saveProject(const ClipDocument& document, const QString& path) {
  const QByteArray json = projectJson(document, path);
  return core::writeFileAtomic(path.toStdString(), std::string_view(json.constData(), std::size_t(json.size())));
}

Expected<ProjectData> readProject(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return fail(path, "cannot open the project file");
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
  if (error.error != QJsonParseError::NoError || !doc.isObject()) return fail(path, "not a project file (" + error.errorString() + ")");
  const QJsonObject root = doc.object();
  const int version = root["animpack_project"].toInt(0);
  if (version < 1) return fail(path, "not an animpack project (no 'animpack_project' version)");
  if (version > kProjectVersion) return fail(path, QString("project version %1 is newer than this studio").arg(version));
  ProjectData data;
  const QString source = root["source"].toString();
  if (source.isEmpty()) return fail(path, "the project names no source file");
  data.sourcePath = QFileInfo(source).isAbsolute() ? source : QFileInfo(path).absoluteDir().absoluteFilePath(source);
  auto settings = core::CompressionSettings::fromJson(QJsonDocument(root["settings"].toObject()).toJson().toStdString(),
                                                      (path + " settings").toStdString());
  if (!settings) return Error{settings.message()};
  data.settings = std::move(settings.value());
  data.upAxis = core::upAxisFromName(root["up_axis"].toString("as_imported").toStdString()).value_or(UpAxis::AsImported);
  for (const QJsonValue& v : root["clips"].toArray()) {
    const QJsonObject c = v.toObject();
    ProjectData::Clip clip;
    clip.name = c["name"].toString();
    const auto state = approvalFromName(c["approval"].toString("needs_review"));
    if (!state) return fail(path, "clip '" + clip.name + "' has an unknown approval '" + c["approval"].toString() + "'");
    clip.approval.state = *state;
    bool ok1 = true, ok2 = true;
    if (*state != Approval::NeedsReview) {
      clip.approval.settingsHash = fromHex(c["approved_settings_hash"].toString(), ok1);
      clip.approval.sourceHash = fromHex(c["approved_source_hash"].toString(), ok2);
    }
    if (!ok1 || !ok2) return fail(path, "clip '" + clip.name + "' has a malformed approval hash");
    data.clips.push_back(clip);
  }
  return data;
}

Status loadProject(ClipDocument& document, const QString& path) {
  auto data = readProject(path);
  if (!data) return data.status();
  if (auto st = document.open(data->sourcePath, data->settings); !st)
    return fail(path, "cannot open its source: " + QString::fromStdString(st.message()));
  std::vector<std::pair<QString, ClipApproval>> approvals;
  for (const ProjectData::Clip& clip : data->clips) approvals.emplace_back(clip.name, clip.approval);
  document.restore(approvals, data->upAxis);
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
