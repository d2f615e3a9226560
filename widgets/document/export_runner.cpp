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

QString reviewSummary(const core::ReviewPacket& packet, const QString& output) {
  const core::ReviewTotals totals = core::reviewTotals(packet.clips);
  QStringList lines;
  lines << QString("%1: %2 clips, %3 approved, pack %4%5")
               .arg(output)
               .arg(totals.clips)
               .arg(totals.approved)
               .arg(formatBytes(packet.packBytes))
               .arg(core::overBudget(packet.budgetKib, packet.budgetKind, packet.packBytes, packet.residentBytes)
                        ? "  OVER BUDGET"
                        : "");
  if (totals.failed) lines << QString("%1 clips failed (listed in the packet)").arg(totals.failed);
  if (!packet.picturesNote.empty()) lines << QString::fromStdString(packet.picturesNote);
  return lines.join("\n");
}

}  // namespace

ExportRunner::ExportRunner(QObject* parent) : QObject(parent) {}

ExportRunner::~ExportRunner() { cancel(); }

void ExportRunner::cancel() {
  if (m_cancel) m_cancel->store(true);
}

template <class Work, class Summarize>
void ExportRunner::launch(Work work, Summarize summarize) {
  using Result = decltype(work(core::BatchProgress{}, static_cast<const std::atomic<bool>*>(nullptr)));
  m_running = true;
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  auto cancelFlag = m_cancel;
  QPointer<ExportRunner> self(this);
  // Progress comes from a worker thread: hand it to the GUI thread, unless the runner is gone.
  core::BatchProgress onProgress = [self](std::size_t done, std::size_t total, const std::string& what) {
    QMetaObject::invokeMethod(qApp, [self, done, total, what] {
      if (self) emit self->progress(int(done), int(total), QString::fromStdString(what));
    });
  };
  auto* watcher = new QFutureWatcher<Result>(this);
  connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, summarize] {
    watcher->deleteLater();
    m_running = false;
    const Result result = watcher->result();
    if (!result) emit finished(false, QString::fromStdString(result.message()));
    else emit finished(true, summarize(*result));
  });
  emit started();
  watcher->setFuture(QtConcurrent::run([work, onProgress, cancelFlag] { return work(onProgress, cancelFlag.get()); }));
}

bool ExportRunner::start(std::vector<std::filesystem::path> files, core::ExportOptions options) {
  if (m_running) return false;
  options.toolVersion = QCoreApplication::applicationVersion().toStdString();
  launch(
      [files, options](const core::BatchProgress& progress, const std::atomic<bool>* cancel) {
        return core::exportPacks(files, options, progress, cancel);
      },
      summary);
  return true;
}

bool ExportRunner::startReview(core::Project project, std::filesystem::path projectPath, core::ReviewOptions options,
                               const QString& output) {
  if (m_running) return false;
  options.toolVersion = QCoreApplication::applicationVersion().toStdString();
  const std::filesystem::path path = output.toStdString();
  launch(
      [project, projectPath, options, path](const core::BatchProgress& progress,
                                            const std::atomic<bool>* cancel) -> Expected<core::ReviewPacket> {
        auto packet = core::buildReviewPacket(project, projectPath, options, progress, cancel);
        if (!packet) return packet;
        if (auto st = core::writeReviewPacket(*packet, path); !st) return Error{st.message()};
        return packet;
      },
      [output](const core::ReviewPacket& packet) { return reviewSummary(packet, output); });
  return true;
}

}  // namespace animpack::widgets
