#pragma once
// Kill-safety tests: start a process with the test hook of core/io/atomic_file.h set, so it pauses
// between writing a temporary file and renaming it, then SIGKILL it exactly there.

#include <QDir>
#include <QProcess>
#include <QStringList>

namespace animpack::test {

/// Starts `program args` with the hook pausing writes to paths ending with `suffix` (empty: the
/// hook unset, for a process that sets it itself); true once the process says it paused (within
/// `timeoutMs`). Its stderr so far is appended to `err`.
bool startAndPauseBeforeRename(QProcess& process, const QString& program, const QStringList& args,
                               const QString& suffix, QByteArray& err, int timeoutMs = 120000);

/// SIGKILLs the process and waits until it is gone (reaped, so its PID no longer runs).
void killNow(QProcess& process);

/// The names in `dir` (hidden ones too) ending with `suffix`.
QStringList filesEndingWith(const QDir& dir, const QString& suffix);

}  // namespace animpack::test
