#include "widgets/document/export_runner.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QPointer>
#include <QStringList>
#include <QtConcurrent>

#include "widgets/format.h"

namespace animpack::widgets {
namespace {

QString summary(const core::ExportResult& result) {
  QStringList lines;
  for (const auto& pack : result.packs)
    lines << QString("%1: %2 clips, %3%4")
                 .arg(QString::fromStdString(pack.path.string()))
                 .arg(pack.clips)
                 .arg(formatBytes(pack.bytes))
                 .arg(pack.overBudget ? "  OVER BUDGET" : "");
  if (result.failures) lines << QString("%1 clips failed (see the report)").arg(result.failures);
  if (result.overPrecision) lines << QString("%1 clips are over their precision").arg(result.overPrecision);
  return lines.join("\n");
}

}  // namespace

ExportRunner::ExportRunner(QObject* parent) : QObject(parent) {}

ExportRunner::~ExportRunner() { cancel(); }

void ExportRunner::cancel() {
  if (m_cancel) m_cancel->store(true);
}

bool ExportRunner::start(const QString& source, core::ExportOptions options) {
  if (m_running) return false;
  options.toolVersion = QCoreApplication::applicationVersion().toStdString();
  const std::vector<std::filesystem::path> files{source.toStdString()};
  m_running = true;
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  auto cancelFlag = m_cancel;
  QPointer<ExportRunner> self(this);
  // Progress comes from a worker thread: hand it to the GUI thread, unless the runner is gone.
  auto onProgress = [self](std::size_t done, std::size_t total, const std::string& what) {
    QMetaObject::invokeMethod(qApp, [self, done, total, what] {
      if (self) emit self->progress(int(done), int(total), QString::fromStdString(what));
    });
  };
  auto* watcher = new QFutureWatcher<Expected<core::ExportResult>>(this);
  connect(watcher, &QFutureWatcher<Expected<core::ExportResult>>::finished, this, [this, watcher] {
    watcher->deleteLater();
    m_running = false;
    const Expected<core::ExportResult> result = watcher->result();
    if (!result) emit finished(false, QString::fromStdString(result.message()));
    else emit finished(true, summary(*result));
  });
  emit started();
  watcher->setFuture(QtConcurrent::run([files, options, onProgress, cancelFlag] {
    return core::exportPacks(files, options, onProgress, cancelFlag.get());
  }));
  return true;
}

}  // namespace animpack::widgets
