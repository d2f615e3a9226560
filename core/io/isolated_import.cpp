#include "core/io/isolated_import.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "core/io/atomic_file.h"
#include "core/io/import_stream.h"

extern char** environ;

namespace animpack::core {
namespace {

constexpr int kStreamFd = 3;           // the child writes its import stream here
constexpr int kChildOutOfMemory = 3;   // exit code: an allocation failed (under the cap)
constexpr int kChildBadArguments = 4;  // exit code: the parent passed something unreadable
constexpr std::size_t kStderrTail = 16 * 1024;
using Clock = std::chrono::steady_clock;

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

/// Closes the descriptors it holds when it goes out of scope.
struct Fds {
  std::vector<int> fds;
  ~Fds() {
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  }
  /// Closes one now (the parent's copies of the write ends, once the child holds them).
  void close(int& fd) {
    for (int& f : fds)
      if (f == fd) f = -1;
    ::close(fd);
    fd = -1;
  }
};

/// A pipe whose ends are close-on-exec and numbered above the descriptors the child remaps, so
/// a concurrent import on another thread never inherits them and dup2 never clobbers one.
bool makePipe(int& readEnd, int& writeEnd, Fds& owned) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return false;
  readEnd = ::fcntl(p[0], F_DUPFD_CLOEXEC, 10);
  writeEnd = ::fcntl(p[1], F_DUPFD_CLOEXEC, 10);
  ::close(p[0]);
  ::close(p[1]);
  owned.fds.push_back(readEnd);
  owned.fds.push_back(writeEnd);
  return readEnd >= 0 && writeEnd >= 0;
}

/// Reads the stream and the child's stderr until both end; false when the deadline passes first.
bool drain(int streamFd, int errFd, Clock::time_point deadline, std::vector<std::uint8_t>& stream, std::string& err) {
  std::uint8_t buf[65536];
  bool streamOpen = true, errOpen = true;
  while (streamOpen || errOpen) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd fds[2] = {{streamOpen ? streamFd : -1, POLLIN, 0}, {errOpen ? errFd : -1, POLLIN, 0}};
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) return false;
    for (int i = 0; i < 2 && ready > 0; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof(buf));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        (i == 0 ? streamOpen : errOpen) = false;
      } else if (i == 0) {
        stream.insert(stream.end(), buf, buf + n);
      } else {
        err.append(reinterpret_cast<const char*>(buf), std::size_t(n));
        if (err.size() > 2 * kStderrTail) err.erase(0, err.size() - kStderrTail);
      }
    }
  }
  return true;
}

/// Waits for the child until the deadline; false (and the child killed) when it does not exit.
bool reap(pid_t pid, Clock::time_point deadline, int& status) {
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return true;
    if (Clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

/// The last non-empty line the child printed, shortened, for the one-line message.
std::string lastLine(const std::string& text) {
  std::size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return {};
  const std::size_t begin = text.rfind('\n', end);
  std::string line =
      text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
  if (line.size() > 200) line = line.substr(0, 197) + "...";
  return line;
}

Expected<pid_t> spawnChild(const std::filesystem::path& executable, const std::vector<std::string>& args,
                           int streamWrite, int errWrite) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, streamWrite, kStreamFd);
  posix_spawn_file_actions_adddup2(&actions, errWrite, STDERR_FILENO);
  // Whatever Assimp prints must not end up in the caller's output (inspect --json on stdout).
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int s : {SIGSEGV, SIGBUS, SIGABRT, SIGPIPE, SIGFPE, SIGILL}) sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, executable.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return Error{"cannot start the import process '" + executable.string() + "': " + std::strerror(rc)};
  return pid;
}

}  // namespace

Status ImportLimits::validate() const {
  if (!(timeoutS > 0 && timeoutS <= kMaxTimeoutS)) return Error{"--import-timeout must be in (0, 1e6] seconds"};
  if (memoryMb < kMinMemoryMb || memoryMb > kMaxMemoryMb)
    return Error{"--import-memory must be a whole number of MiB from " + std::to_string(kMinMemoryMb) + " to " +
                 std::to_string(kMaxMemoryMb)};
  return Status::ok();
}

bool importMemoryCapAvailable() {
#if defined(ANIMPACK_SANITIZE) || defined(__SANITIZE_ADDRESS__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
  return false;
#else
  return true;
#endif
#else
  return true;
#endif
}

Expected<ImportedAsset> importIsolated(const std::filesystem::path& executable, const std::filesystem::path& path,
                                       const ImportOptions& options, const ImportLimits& limits) {
  const std::string file = path.string();
  std::vector<std::string> args = {executable.string(),        kImportChildCommand, "--parent",
                                   std::to_string(::getpid()), "--memory-mb",       std::to_string(limits.memoryMb)};
  if (options.unitToCm) args.insert(args.end(), {"--unit-to-cm", number(*options.unitToCm)});
  if (options.sampleRate) args.insert(args.end(), {"--sample-rate", number(*options.sampleRate)});
  args.insert(args.end(), {"--", file});

  Fds owned;
  int streamRead = -1, streamWrite = -1, errRead = -1, errWrite = -1;
  if (!makePipe(streamRead, streamWrite, owned) || !makePipe(errRead, errWrite, owned))
    return Error{file + ": cannot create the import pipes: " + std::strerror(errno)};
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits.timeoutS));
  auto pid = spawnChild(executable, args, streamWrite, errWrite);
  if (!pid) return Error{file + ": " + pid.message()};
  owned.close(streamWrite);
  owned.close(errWrite);

  std::vector<std::uint8_t> stream;
  std::string err;
  const bool drained = drain(streamRead, errRead, deadline, stream, err);
  int status = 0;
  if (!drained) {
    ::kill(*pid, SIGKILL);
    reap(*pid, Clock::now(), status);
  }
  if (!drained || !reap(*pid, deadline, status))
    return Error{file + ": the import timed out after " + number(limits.timeoutS) + " s (killed)"};
  const std::string said = lastLine(err);
  if (WIFSIGNALED(status))
    return Error{"Assimp crashed reading " + file + " (signal " + std::to_string(WTERMSIG(status)) +
                 (said.empty() ? "" : "; it said: " + said) + ")"};
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == kChildOutOfMemory)
    return Error{file + ": the import ran out of memory (" + std::to_string(limits.memoryMb) + " MB cap)"};
  if (code != 0)
    return Error{file + ": the import process failed (exit " + std::to_string(code) +
                 (said.empty() ? "" : ": " + said) + ")"};
  auto asset = readImportStream(stream, file);  // the child imports in the source's order
  if (asset)
    if (auto st = applyJointOrder(*asset, options.jointOrder); !st) return Error{st.message()};
  return asset;
}

ImportFunction isolatedImporter(const std::filesystem::path& executable, const ImportLimits& limits) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(executable, ec) || ::access(executable.c_str(), X_OK) != 0)
    return [](const std::filesystem::path& path, const ImportOptions& options) { return importAsset(path, options); };
  return [executable, limits](const std::filesystem::path& path, const ImportOptions& options) {
    return importIsolated(executable, path, options, limits);
  };
}

namespace {

[[noreturn]] void outOfMemory() { ::_exit(kChildOutOfMemory); }

/// Allocates and touches memory until an allocation fails or the cap is reached (the cap may be
/// off, in sanitizer builds: stop there anyway so the test hook never exhausts the machine).
[[noreturn]] void exhaustMemory(std::uint64_t capMb) {
  constexpr std::size_t kBlock = 16u << 20;
  static std::vector<char*> blocks;  // kept, so no allocation can be elided
  for (std::uint64_t used = 0; used < (capMb << 20); used += kBlock) {
    char* p = new char[kBlock];
    std::memset(p, 1, kBlock);
    blocks.push_back(p);
  }
  outOfMemory();
}

/// The test hook: crash, hang or exhaust memory instead of importing. Unknown values are errors.
Status injectFault(const char* fault, std::uint64_t capMb) {
  const std::string f = fault;
  if (f == "crash") ::raise(SIGSEGV);
  if (f == "hang")
    for (;;) ::pause();
  if (f == "oom") exhaustMemory(capMb);
  if (f.empty()) return Status::ok();
  return Error{std::string(kImportFaultVariable) + "='" + f + "': expected crash, hang or oom"};
}

}  // namespace

int runImportChild(int argc, char** argv, int first) {
  long long parent = -1;
  std::uint64_t capMb = ImportLimits{}.memoryMb;
  ImportOptions options;
  std::string file;
  try {
    for (int i = first; i < argc; ++i) {
      const std::string a = argv[i];
      const bool hasValue = i + 1 < argc;
      if (a == "--" && hasValue) file = argv[++i];
      else if (a == "--parent" && hasValue) parent = std::stoll(argv[++i]);
      else if (a == "--memory-mb" && hasValue) capMb = std::stoull(argv[++i]);
      else if (a == "--unit-to-cm" && hasValue) options.unitToCm = std::stod(argv[++i]);
      else if (a == "--sample-rate" && hasValue) options.sampleRate = std::stod(argv[++i]);
      else throw std::invalid_argument(a);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "animpack %s: bad argument '%s' (internal mode, started by animpack itself)\n",
                 kImportChildCommand, e.what());
    return kChildBadArguments;
  }
  if (file.empty() || parent <= 0) {
    std::fprintf(stderr, "animpack %s: internal mode, started by animpack itself\n", kImportChildCommand);
    return kChildBadArguments;
  }
  // Die with the parent; if it is already gone, the signal request came too late: quit now.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != static_cast<pid_t>(parent)) return kChildBadArguments;
  std::set_new_handler(outOfMemory);
  const rlimit noCore{0, 0};
  ::setrlimit(RLIMIT_CORE, &noCore);  // a crashing file is expected here: no core dump per file
  if (importMemoryCapAvailable()) {
    const rlimit cap{rlim_t(capMb) << 20, rlim_t(capMb) << 20};
    ::setrlimit(RLIMIT_AS, &cap);
  }
  const char* fault = std::getenv(kImportFaultVariable);
  const Status hooked = injectFault(fault ? fault : "", capMb);
  const Expected<ImportedAsset> result =
      hooked ? importAsset(file, options) : Expected<ImportedAsset>(Error{hooked.message()});
  return writeAll(kStreamFd, writeImportStream(result)) ? 0 : kChildBadArguments;
}

}  // namespace animpack::core
