#pragma once
// The document's life on disk: which project it belongs to, opening a file or a project (or its
// autosave), saving, the autosave of unsaved edits every minute, exporting the settings, and the
// list of recently opened files. The main window asks the user; this does the rest.

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include "core/base/status.h"
#include "widgets/document/clip_document.h"

namespace animpack::widgets {

class ProjectSession : public QObject {
  Q_OBJECT
 public:
  explicit ProjectSession(ClipDocument* document, QObject* parent = nullptr);

  /// Whether `path` names a project (.anproj) rather than an animation file.
  static bool isProject(const QString& path);
  /// The project the document was opened from or saved to (absolute), empty for a bare file.
  const QString& projectPath() const { return m_projectPath; }

  /// The autosave holding unsaved edits of `path` (a file or a project), when there is one newer
  /// than the project; empty otherwise.
  QString recoverableAutosave(const QString& path) const;
  /// Opens an animation file or a project.
  Status open(const QString& path);
  /// Opens `path` from its autosave instead; the recovered edits count as unsaved.
  Status recover(const QString& path, const QString& autosave);
  /// Saves the project to `path` atomically; the document becomes clean and the autosave goes.
  Status save(const QString& path);
  /// Removes the autosave of the document's edits (the user discarded them).
  void discardAutosave() const;
  /// Where a first "Save project" proposes to save: beside the source, named after it.
  QString suggestedProjectPath() const;
  /// Writes the document's settings as the JSON `animpack compress --settings` reads.
  Status exportSettings(const QString& path) const;

  /// How often unsaved edits are written to the autosave file (default one minute).
  void setAutosaveInterval(int ms) { m_autosave.setInterval(ms); }
  /// Recently opened files and projects, newest first (kept between sessions).
  QStringList recentFiles() const;
  void clearRecentFiles();

 signals:
  /// "Autosaved at hh:mm", or why the autosave failed.
  void autosaved(const QString& message);
  void recentFilesChanged();
  void projectPathChanged();

 private:
  void autosave();
  void addRecent(const QString& path);
  void setProjectPath(const QString& path);

  ClipDocument* m_document;
  QString m_projectPath;
  QTimer m_autosave;
};

}  // namespace animpack::widgets
