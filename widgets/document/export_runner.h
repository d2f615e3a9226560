#pragma once
// Exports packs in the background, with the same code as `animpack compress` (core/batch/export.h),
// and review packets with the code of `animpack report` (core/review/review_build.h): progress while
// it runs, cancellable, and a one-paragraph summary when it ends. Outputs are written to a temporary
// file and renamed, so a cancelled or failed export leaves nothing half-written.

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

#include "core/batch/export.h"
#include "core/review/review_build.h"

namespace animpack::widgets {

class ExportRunner : public QObject {
  Q_OBJECT
 public:
  explicit ExportRunner(QObject* parent = nullptr);
  ~ExportRunner() override;

  /// Starts exporting `files` with `options`; false (nothing started) when an export already runs.
  bool start(std::vector<std::filesystem::path> files, core::ExportOptions options);
  /// Starts writing the review packet of `project` (saved at `projectPath`) to `output`; false when
  /// an export already runs.
  bool startReview(core::Project project, std::filesystem::path projectPath, core::ReviewOptions options,
                   const QString& output);
  /// Asks a running export to stop; finished() still comes.
  void cancel();
  bool running() const { return m_running; }

 signals:
  /// An export began.
  void started();
  /// `done` of `total` clips, `what` the clip being compressed.
  void progress(int done, int total, const QString& what);
  /// The export ended: on success `summary` has one line per pack, then failures and clips over
  /// their precision; on failure it is the error.
  void finished(bool ok, const QString& summary);

 private:
  /// Runs `work(progress, cancel)` on a worker; finished() carries `summarize(result)` or its error.
  template <class Work, class Summarize>
  void launch(Work work, Summarize summarize);
  std::shared_ptr<std::atomic<bool>> m_cancel;
  bool m_running = false;
};

}  // namespace animpack::widgets
