#include "tests/support/kill_point.h"

#include <signal.h>

#include <QDeadlineTimer>
#include <QProcessEnvironment>

#include "core/io/atomic_file.h"

namespace animpack::test {

bool startAndPauseBeforeRename(QProcess& process, const QString& program, const QStringList& args,
                               const QString& suffix, QByteArray& err, int timeoutMs) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove(core::kPauseBeforeRenameVariable);
  if (!suffix.isEmpty()) env.insert(core::kPauseBeforeRenameVariable, suffix);
  process.setProcessEnvironment(env);
  process.start(program, args);
  if (!process.waitForStarted()) return false;
  const QDeadlineTimer deadline(timeoutMs);
  while (!deadline.hasExpired() && process.state() == QProcess::Running) {
    process.waitForReadyRead(200);
    err += process.readAllStandardError();
    if (err.contains("paused before renaming")) return true;
  }
  err += process.readAllStandardError();
  return false;
}

void killNow(QProcess& process) {
  if (process.state() != QProcess::NotRunning) ::kill(pid_t(process.processId()), SIGKILL);
  process.waitForFinished(30000);
}

QStringList filesEndingWith(const QDir& dir, const QString& suffix) {
  QStringList out;
  for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden | QDir::System))
    if (name.endsWith(suffix)) out << name;
  return out;
}

}  // namespace animpack::test
