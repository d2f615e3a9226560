#pragma once
// Shared set-up of the widget tests: the generated two-clip armature rig on disk, and waiting for the
// recompressor's result of a clip.

#include <QFile>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <map>
#include <string>

#include "tests/support/test_rigs.h"
#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

namespace animpack::test {

/// The armature rig (clips "Walk" and "Wave", joints Hips > Spine > Head, Hips > LeftLeg > LeftFoot)
/// written as glTF; `name` picks the file so tests can rewrite their own copy.
inline QString rigPath(const std::string& name = "rig.gltf", int frames = 25) {
  static std::map<std::string, std::filesystem::path> written;
  auto& path = written[name + std::to_string(frames)];
  if (path.empty()) path = writeScene(armatureRig(1.f, frames), name);
  return QString::fromStdString(path.string());
}

/// A copy of the rig at `dir`/`name`, for tests that change or remove the file (empty on failure).
inline QString rigCopy(const QTemporaryDir& dir, const QString& name) {
  const QString path = dir.filePath(name);
  return QFile::copy(rigPath(), path) ? path : QString();
}

inline int joint(const widgets::ClipDocument& document, const char* name) {
  return document.asset()->skeleton.find(name);
}

/// Waits until the recompressor holds the clip's result for the current settings.
inline bool waitForResult(widgets::Recompressor& recompressor, int clip, int timeoutMs = 20000) {
  return QTest::qWaitFor([&] { return recompressor.result(clip) != nullptr && !recompressor.busy(); }, timeoutMs);
}

/// The clip whose pack name is `name`, or -1.
inline int clipNamed(const widgets::ClipDocument& document, const QString& name) {
  for (int c = 0; c < document.clipCount(); ++c)
    if (document.clipName(c) == name) return c;
  return -1;
}

/// Waits until the recompressor holds a result of every clip for the current settings.
inline bool waitForAllResults(widgets::Recompressor& recompressor, const widgets::ClipDocument& document,
                              int timeoutMs = 60000) {
  return QTest::qWaitFor(
      [&] {
        for (int c = 0; c < document.clipCount(); ++c)
          if (!recompressor.result(c)) return false;
        return !recompressor.busy();
      },
      timeoutMs);
}

}  // namespace animpack::test
