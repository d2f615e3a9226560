#pragma once
// Runs the real `animpack` binary as a user would (ANIMPACK_CLI is its path): exit code (-1 when
// killed by a signal), stdout and stderr.

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include "tests/support/test_rigs.h"

namespace animpack::test {

struct CliRun {
  int code = -1;
  QByteArray out, err;
};

/// Runs `animpack args...` with `extraEnv` ("NAME=value") added to the environment.
inline CliRun runCli(const QStringList& args, const QStringList& extraEnv = {}) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const QString& kv : extraEnv) env.insert(kv.section('=', 0, 0), kv.section('=', 1));
  p.setProcessEnvironment(env);
  p.start(ANIMPACK_CLI, args);
  p.waitForFinished(600000);
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
          p.readAllStandardError()};
}

/// A file under assimp-testmodels, as a QString.
inline QString modelPath(const char* relative) { return QString::fromStdString(model(relative).string()); }

}  // namespace animpack::test
