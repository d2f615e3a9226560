// animpack-studio: the desktop studio. Opens FILE (or the sample given by scripts/studio).

#include <QApplication>
#include <QFileDialog>
#include <QMainWindow>
#include <QMessageBox>

#include "core/io/asset_importer.h"
#include "widgets/asset_summary_view.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("animpack studio");
  QApplication::setOrganizationName("animpack");
  QApplication::setApplicationVersion(ANIMPACK_VERSION);

  QString file = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
  if (file.isEmpty()) file = QFileDialog::getOpenFileName(nullptr, "Open an animated rig");
  if (file.isEmpty()) return 0;

  QMainWindow window;
  auto* summary = new animpack::widgets::AssetSummaryView(&window);
  window.setCentralWidget(summary);
  window.resize(1000, 800);
  const auto asset = animpack::core::importAsset(file.toStdString());
  if (!asset) {
    QMessageBox::critical(nullptr, "animpack studio", QString::fromStdString(asset.message()));
    return 1;
  }
  summary->setAsset(*asset);
  window.setWindowTitle(QFileInfo(file).fileName() + " - animpack studio");
  window.show();
  return app.exec();
}
