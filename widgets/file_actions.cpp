#include "widgets/file_actions.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>

namespace animpack::widgets {
namespace {

const char* const kAnimationFilter =
    "Animated rigs (*.fbx *.gltf *.glb *.dae *.bvh *.x *.md5mesh *.md5anim *.smd *.ms3d *.b3d *.ogex *.irr *.xml "
    "*.anproj);;"
    "animpack projects (*.anproj);;All files (*)";

}  // namespace

FileActions::FileActions(ClipDocument* document, QWidget* window)
    : QObject(window), m_document(document), m_window(window), m_session(document) {
  connect(&m_session, &ProjectSession::autosaved, this, &FileActions::message);
  connect(&m_session, &ProjectSession::recentFilesChanged, this, &FileActions::updateRecentMenu);
}

void FileActions::addTo(QMenu* menu) {
  menu->addAction("&Open...", QKeySequence::Open, this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(m_window, "Open an animated rig or a project", QString(), kAnimationFilter);
    if (!path.isEmpty()) open(path);
  });
  m_recentMenu = menu->addMenu("Open &recent");
  menu->addSeparator();
  menu->addAction("Add &files...", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, &FileActions::askAddFiles);
  menu->addAction("Add fol&der...", this, &FileActions::askAddFolder);
  menu->addSeparator();
  menu->addAction("&Save project", QKeySequence::Save, this, [this] { save(m_session.projectPath().isEmpty()); });
  menu->addAction("Save project &as...", QKeySequence::SaveAs, this, [this] { save(true); });
  menu->addSeparator();
  menu->addAction("&Import settings...", this, &FileActions::importSettings);
  menu->addAction("E&xport settings...", this, &FileActions::exportSettings);
  updateRecentMenu();
}

bool FileActions::open(const QString& path, bool quiet) {
  if (!maybeSave()) return false;
  const QString autosave = quiet ? QString() : askRecovery(path);
  Status status = Error{"not opened"};
  if (!autosave.isEmpty()) {
    status = m_session.recover(path, autosave);
    if (!status) showError(QString("The autosave could not be read: %1").arg(QString::fromStdString(status.message())));
  }
  if (!status) status = m_session.open(path);
  if (!status) {
    const QString why = QString::fromStdString(status.message());
    emit message(why);  // the status line still says why once the dialog is closed
    if (!quiet) showError(why);
    return false;
  }
  emit opened();
  return true;
}

int FileActions::add(const QStringList& paths, bool quiet) {
  QStringList files, errors;
  for (const QString& path : paths) {
    if (!QFileInfo(path).isDir()) {
      files << path;
      continue;
    }
    auto inside = animationFilesIn(path);
    if (inside) files << *inside;
    else errors << QString::fromStdString(inside.message());
  }
  int added = 0;
  if (!files.isEmpty() && !m_document->hasAsset()) {
    // Nothing open: the first file opens the document, the others join it.
    if (!open(files.takeFirst(), quiet)) return 0;
    added = 1;
  }
  if (!files.isEmpty()) added += m_document->addFiles(files, &errors);
  if (!errors.isEmpty()) {
    const QString why = QString("%1 file(s) not added:\n%2").arg(errors.size()).arg(errors.join("\n"));
    emit message(errors.front());
    if (!quiet) showError(why);
  }
  if (added > 0) emit message(QString("Added %1 file(s) to the project").arg(added));
  return added;
}

void FileActions::askAddFiles() {
  const QStringList paths =
      QFileDialog::getOpenFileNames(m_window, "Add animation files to the project", QString(), kAnimationFilter);
  if (!paths.isEmpty()) add(paths);
}

void FileActions::askAddFolder() {
  const QString dir =
      QFileDialog::getExistingDirectory(m_window, "Add every animation file in a folder (and its subfolders)");
  if (!dir.isEmpty()) add({dir});
}

QString FileActions::askRecovery(const QString& path) {
  const QString autosave = m_session.recoverableAutosave(path);
  if (autosave.isEmpty()) return {};
  const auto answer = QMessageBox::question(
      m_window, "Recover unsaved work",
      QString("animpack studio found an autosave of %1 from %2 with edits that were not saved.\n\nRecover them?")
          .arg(QFileInfo(path).fileName(), QFileInfo(autosave).lastModified().toString("yyyy-MM-dd hh:mm")),
      QMessageBox::Yes | QMessageBox::No | QMessageBox::Discard, QMessageBox::Yes);
  if (answer == QMessageBox::Discard) QFile::remove(autosave);
  return answer == QMessageBox::Yes ? autosave : QString();
}

void FileActions::updateRecentMenu() {
  if (!m_recentMenu) return;
  m_recentMenu->clear();
  const QStringList recent = m_session.recentFiles();
  for (const QString& path : recent) {
    QAction* a = m_recentMenu->addAction(QFileInfo(path).fileName());
    a->setToolTip(path);
    a->setStatusTip(path);
    a->setEnabled(QFileInfo::exists(path));
    connect(a, &QAction::triggered, this, [this, path] { open(path); });
  }
  m_recentMenu->setEnabled(!recent.isEmpty());
  if (!recent.isEmpty()) {
    m_recentMenu->addSeparator();
    m_recentMenu->addAction("Clear the list", &m_session, &ProjectSession::clearRecentFiles);
  }
}

bool FileActions::maybeSave() {
  if (!m_document->hasAsset() || !m_document->isModified()) return true;
  const auto answer = QMessageBox::warning(
      m_window, "Unsaved changes", "The settings and approvals of this asset have changed. Save the project?",
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) return save(m_session.projectPath().isEmpty());
  m_session.discardAutosave();
  return true;
}

bool FileActions::save(bool askForPath) {
  if (!m_document->hasAsset()) return false;
  QString path = m_session.projectPath();
  if (askForPath || path.isEmpty()) {
    path = QFileDialog::getSaveFileName(m_window, "Save the project", m_session.suggestedProjectPath(),
                                        "animpack projects (*.anproj)");
    if (path.isEmpty()) return false;
    if (!ProjectSession::isProject(path)) path += ".anproj";
  }
  return saveAs(path);
}

bool FileActions::saveAs(const QString& path) {
  if (!m_document->hasAsset()) return false;
  if (auto st = m_session.save(path); !st) {
    showError(QString::fromStdString(st.message()));
    return false;
  }
  emit message("Saved " + m_session.projectPath());
  return true;
}

void FileActions::importSettings() {
  if (!m_document->hasAsset()) return;
  const QString path = QFileDialog::getOpenFileName(m_window, "Import compression settings", QString(),
                                                    "Settings (*.json);;All files (*)");
  if (path.isEmpty()) return;
  auto loaded = core::CompressionSettings::load(path.toStdString());
  if (!loaded) return showError(QString::fromStdString(loaded.message()));
  m_document->importSettings(*loaded, QFileInfo(path).fileName());
}

void FileActions::exportSettings() {
  if (!m_document->hasAsset()) return;
  const QString path = QFileDialog::getSaveFileName(
      m_window, "Export compression settings",
      QFileInfo(m_document->sourcePath()).completeBaseName() + ".settings.json", "Settings (*.json)");
  if (path.isEmpty()) return;
  if (auto st = m_session.exportSettings(path); !st) return showError(QString::fromStdString(st.message()));
  emit message("Settings written to " + path + " (use with: animpack compress --settings)");
}

void FileActions::askUnit() {
  if (!m_document->hasAsset()) return;
  const auto& asset = *m_document->asset();
  bool ok = false;
  const double cm = QInputDialog::getDouble(
      m_window, "File unit",
      QString(
          "Centimetres per file unit. The file says %1 (%2).\nPrecision is measured in centimetres, so a wrong unit "
          "makes every tolerance wrong.\nLengths are in the scene's centimetres: file units x this x the scene "
          "scale, x%3 (%4).")
          .arg(asset.unitToCm)
          .arg(QString::fromStdString(asset.unitSource))
          .arg(asset.sceneScale)
          .arg(QString::fromStdString(asset.sceneScaleSource)),
      asset.unitToCm, 1e-4, 1e5, 4, &ok);
  if (ok && cm != asset.unitToCm) m_document->setUnitToCm(cm);
}

void FileActions::askJointOrder() {
  if (!m_document->hasAsset()) return;
  const std::vector<std::string> selected = m_document->jointNames(m_document->selectedJoints());
  QStringList items = {"As in the source file", "By depth (roots first, leaves last)"};
  if (!selected.empty()) items << QString("The %1 selected joint(s) first, then by depth").arg(selected.size());
  const auto& lod = m_document->settings().lod;
  const int current = lod && lod->kind == core::JointOrder::Kind::Depth ? 1 : 0;
  bool ok = false;
  const QString choice = QInputDialog::getItem(
      m_window, "Joint order",
      "The order the pack stores joints in. A game that skips the leaf joints of a distant character samples\n"
      "the first N joints (docs/RUNTIME.md \"Levels of detail\"): by depth, those are the joints nearest the\n"
      "root. The LOD # column of the joint tree shows each joint's place.",
      items, current, false, &ok);
  if (!ok) return;
  core::JointOrder order;
  if (choice == items[1]) order.kind = core::JointOrder::Kind::Depth;
  else if (items.size() > 2 && choice == items[2]) {
    order.kind = core::JointOrder::Kind::List;
    order.first = selected;
  }
  m_document->setJointOrder(order);
}

void FileActions::showError(const QString& message) { QMessageBox::critical(m_window, "animpack studio", message); }

}  // namespace animpack::widgets
