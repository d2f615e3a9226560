#include "widgets/document/project_session.h"

#include <QFile>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QTime>

#include "core/io/atomic_file.h"
#include "widgets/document/project_file.h"

namespace animpack::widgets {
namespace {

constexpr int kMaxRecent = 10;
constexpr int kAutosaveMs = 60'000;

}  // namespace

ProjectSession::ProjectSession(ClipDocument* document, QObject* parent) : QObject(parent), m_document(document) {
  m_autosave.setInterval(kAutosaveMs);
  connect(&m_autosave, &QTimer::timeout, this, &ProjectSession::autosave);
  m_autosave.start();
}

bool ProjectSession::isProject(const QString& path) { return path.endsWith(".anproj", Qt::CaseInsensitive); }

QString ProjectSession::recoverableAutosave(const QString& path) const {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  const bool project = isProject(absolute);
  const QString autosave = autosavePath(project ? absolute : QString(), project ? QString() : absolute);
  const QFileInfo info(autosave);
  if (!info.exists()) return {};
  // A project saved after its autosave holds everything the autosave does.
  if (project && QFileInfo(absolute).lastModified() >= info.lastModified()) return {};
  return autosave;
}

Status ProjectSession::open(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  const bool project = isProject(absolute);
  if (auto st = project ? loadProject(*m_document, absolute) : m_document->open(absolute); !st) return st;
  setProjectPath(project ? absolute : QString());
  addRecent(absolute);
  return Status::ok();
}

Status ProjectSession::recover(const QString& path, const QString& autosave) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  if (auto st = loadProject(*m_document, autosave); !st) return st;
  // Source names are relative to the project the autosave stands for, not to the autosave's folder.
  m_document->setProjectFolder(QFileInfo(absolute).absolutePath());
  m_document->undoStack()->resetClean();  // recovered edits are not saved yet
  setProjectPath(isProject(absolute) ? absolute : QString());
  addRecent(absolute);
  return Status::ok();
}

Status ProjectSession::save(const QString& path) {
  if (!m_document->hasAsset()) return Error{"nothing to save: no file is open"};
  // The clips are named relative to the project's folder (docs/CLIP_NAMES.md), as `build` names them.
  m_document->setProjectFolder(QFileInfo(path).absolutePath());
  if (auto st = saveProject(*m_document, path); !st) return st;
  QFile::remove(autosavePath(m_projectPath, m_document->sourcePath()));
  QFile::remove(autosavePath(path, m_document->sourcePath()));
  setProjectPath(QFileInfo(path).absoluteFilePath());
  m_document->undoStack()->setClean();
  addRecent(m_projectPath);
  return Status::ok();
}

void ProjectSession::discardAutosave() const { QFile::remove(autosavePath(m_projectPath, m_document->sourcePath())); }

QString ProjectSession::suggestedProjectPath() const {
  if (!m_projectPath.isEmpty()) return m_projectPath;
  const QFileInfo source(m_document->sourcePath());
  return source.dir().filePath(source.completeBaseName() + ".anproj");
}

Status ProjectSession::exportSettings(const QString& path) const {
  return core::writeFileAtomic(path.toStdString(), m_document->settings().toJson());
}

void ProjectSession::autosave() {
  if (!m_document->hasAsset() || !m_document->isModified()) return;
  const QString path = autosavePath(m_projectPath, m_document->sourcePath());
  if (auto st = saveProject(*m_document, path); !st)
    emit autosaved("Autosave failed: " + QString::fromStdString(st.message()));
  else emit autosaved("Autosaved at " + QTime::currentTime().toString("hh:mm"));
}

QStringList ProjectSession::recentFiles() const { return QSettings().value("recent").toStringList(); }

void ProjectSession::clearRecentFiles() {
  QSettings().remove("recent");
  emit recentFilesChanged();
}

void ProjectSession::addRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value("recent").toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue("recent", recent);
  emit recentFilesChanged();
}

void ProjectSession::setProjectPath(const QString& path) {
  if (path == m_projectPath) return;
  m_projectPath = path;
  emit projectPathChanged();
}

}  // namespace animpack::widgets
