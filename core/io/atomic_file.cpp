#include "core/io/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace animpack::core {
namespace {

std::string tempPrefix(const std::filesystem::path& path) { return "." + path.filename().string() + "."; }

/// The PID in a temporary's name ".NAME.PID-N.tmp", or 0 when `name` is not one of `prefix`.
pid_t temporaryOwner(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() + 4 || name.compare(0, prefix.size(), prefix) != 0 || !name.ends_with(".tmp"))
    return 0;
  const std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - 4);
  const auto dash = middle.find('-');
  if (dash == 0 || dash == std::string::npos) return 0;
  long pid = 0;
  for (std::size_t i = 0; i < dash; ++i) {
    if (middle[i] < '0' || middle[i] > '9' || pid > 1L << 30) return 0;
    pid = pid * 10 + (middle[i] - '0');
  }
  return pid_t(pid);
}

/// Removes the temporaries of `path` whose writer no longer runs: what a SIGKILL mid-write leaves.
void removeOrphanedTemporaries(const std::filesystem::path& dir, const std::filesystem::path& path) {
  const std::string prefix = tempPrefix(path);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const pid_t owner = temporaryOwner(entry.path().filename().string(), prefix);
    // A live owner may be writing it now; kill(pid, 0) tells without sending anything.
    if (owner > 0 && owner != ::getpid() && ::kill(owner, 0) != 0 && errno == ESRCH)
      std::filesystem::remove(entry.path(), ec);
  }
}

void pauseIfTestAsks(const std::filesystem::path& temp, const std::filesystem::path& path) {
  const char* pattern = std::getenv(kPauseBeforeRenameVariable);
  if (!pattern || !*pattern || !path.string().ends_with(pattern)) return;
  std::fprintf(stderr, "animpack: paused before renaming %s to %s (%s)\n", temp.c_str(), path.c_str(),
               kPauseBeforeRenameVariable);
  std::fflush(stderr);
  for (;;) ::pause();
}

}  // namespace

Status writeFileAtomic(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  std::error_code ec;
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const auto fail = [&](const std::string& why) { return Error{"cannot write '" + path.string() + "': " + why}; };
  if (!std::filesystem::is_directory(dir, ec)) return fail("directory '" + dir.string() + "' does not exist");
  if (std::filesystem::is_directory(path, ec)) return fail("it is a directory");

  // Threads of one process may write beside each other: the counter keeps their names apart.
  static std::atomic<unsigned> counter{0};
  const auto temp = dir / (tempPrefix(path) + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".tmp");
  struct stat existing {};
  const mode_t mode = ::stat(path.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : 0666;
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return fail("cannot create a file in '" + dir.string() + "' (" + std::strerror(errno) + ")");
  if (mode != 0666) (void)::fchmod(fd, mode);  // keep the replaced file's permissions, not the umask's
  // fsync before the rename: after a power cut the new name never points at unwritten blocks.
  const bool written = writeAll(fd, bytes) && ::fsync(fd) == 0;
  const int writeErrno = errno;
  if (::close(fd) != 0 || !written) {
    std::filesystem::remove(temp, ec);
    return fail(std::string("write failed (") + std::strerror(written ? errno : writeErrno) + ")");
  }
  pauseIfTestAsks(temp, path);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int renameErrno = errno;
    std::filesystem::remove(temp, ec);
    return fail(std::strerror(renameErrno));
  }
  removeOrphanedTemporaries(dir, path);
  return Status::ok();
}

bool writeAll(int fd, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

Status writeFileAtomic(const std::filesystem::path& path, std::string_view text) {
  return writeFileAtomic(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace animpack::core
