#pragma once
// The studio's file actions and the dialogs they need: open (a file or a project, offering to
// recover an autosave), open recent, save, save as, import and export settings, the file unit,
// and asking about unsaved changes. The project session (project_session.h) does the work; this
// asks the user and reports errors in dialogs.

#include <QObject>
#include <QString>

#include "widgets/document/clip_document.h"
#include "widgets/document/project_session.h"

class QMenu;
class QWidget;

namespace animpack::widgets {

class FileActions : public QObject {
  Q_OBJECT
 public:
  /// Dialogs open over `window`.
  FileActions(ClipDocument* document, QWidget* window);

  /// Adds Open, Open recent, Add files, Add folder, Save project, Save project as, Import and Export
  /// settings to `menu`.
  void addTo(QMenu* menu);
  /// Adds animation files and folders (searched recursively) to the project in one undo step; with
  /// nothing open, opens the first file and adds the rest. Errors go to a dialog, or with `quiet` to
  /// message(). Returns how many files came in.
  int add(const QStringList& paths, bool quiet = false);
  /// File > Add files...: asks for files, then add().
  void askAddFiles();
  /// File > Add folder...: asks for a folder, then add().
  void askAddFolder();
  /// Opens an animation file or an .anproj project (offering recovery unless `quiet`); errors go
  /// to a dialog, or with `quiet` to message().
  bool open(const QString& path, bool quiet = false);
  /// Saves the project to `path` (atomically); errors go to a dialog.
  bool saveAs(const QString& path);
  /// Saves to the project's path, asking for one when there is none or `askForPath`.
  bool save(bool askForPath);
  /// With unsaved edits, asks whether to save them; false when the user cancels.
  bool maybeSave();
  /// Edit > File unit: asks for the centimetres per file unit.
  void askUnit();
  /// Edit > Joint order: the order the pack stores joints in (levels of detail): source, by depth,
  /// or the joints selected in the joint tree first.
  void askJointOrder();
  ProjectSession* session() { return &m_session; }

 signals:
  /// A one-line outcome for the status bar.
  void message(const QString& text);
  /// open() (or add() with nothing open) opened a file or a project.
  void opened();

 private:
  void importSettings();
  void exportSettings();
  void updateRecentMenu();
  /// Asks whether to recover the autosave of `path`; the autosave to open, or empty.
  QString askRecovery(const QString& path);
  void showError(const QString& message);

  ClipDocument* m_document;
  QWidget* m_window;
  ProjectSession m_session;
  QMenu* m_recentMenu = nullptr;
};

}  // namespace animpack::widgets
