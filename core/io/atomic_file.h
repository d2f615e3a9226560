#pragma once
// The one way animpack writes a file (packs, reports, decoded JSON, projects, autosaves, settings,
// screenshots): into a temporary file beside the destination, flushed to disk, then renamed over
// it. A reader, a crash or a SIGKILL at any instant sees the old file or the new one, never a
// truncated or empty one.

#include <filesystem>
#include <span>
#include <string_view>

#include "core/base/status.h"

namespace animpack::core {

/// Writes `bytes` to `path` atomically (above). The temporary is ".NAME.PID-N.tmp" in the same
/// directory: hidden, and never named like the file it becomes, so a folder of packs never shows a
/// partial pack. Temporaries of earlier writes to `path` whose process has died (killed mid-write)
/// are removed after a successful write. An existing file's permissions are kept.
Status writeFileAtomic(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);
Status writeFileAtomic(const std::filesystem::path& path, std::string_view text);

/// Writes every byte to the open file descriptor `fd` (a file, a pipe), again after a signal
/// interrupts it; false on an error (errno says which).
bool writeAll(int fd, std::span<const std::uint8_t> bytes);

/// Test hook (kill-safety tests, README "Command line", files are written whole): when this environment variable is set
/// and the destination's path ends with its value (".anpk", ".anproj.autosave", "/hero.anproj"), writeFileAtomic()
/// writes the temporary, prints "animpack: paused before renaming TEMP to PATH" on stderr and waits, until the process
/// is killed, before the rename. Read at every write, so a process may set it between writes.
inline constexpr const char* kPauseBeforeRenameVariable = "ANIMPACK_TEST_PAUSE_BEFORE_RENAME";

}  // namespace animpack::core
