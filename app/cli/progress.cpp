#include "app/cli/progress.h"

#include <unistd.h>

#include <algorithm>

namespace animpack::cli {

Progress::Mode Progress::detect(bool quiet) {
  if (quiet) return Mode::Quiet;
  return ::isatty(STDERR_FILENO) ? Mode::Bar : Mode::Lines;
}

void Progress::update(std::size_t done, std::size_t total, const std::string& what) {
  if (m_mode == Mode::Quiet) return;
  if (m_mode == Mode::Lines) {
    std::fprintf(stderr, "[%zu/%zu] %s\n", done, total, what.c_str());
    return;
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  const double eta = done > 0 && total > done ? elapsed / double(done) * double(total - done) : 0.0;
  const int width = 28;
  const int filled = total ? static_cast<int>(double(width) * double(done) / double(total)) : 0;
  std::string bar(std::size_t(filled), '=');
  if (filled < width) bar += '>';
  bar.resize(std::size_t(width), ' ');
  std::string name = what.size() > 40 ? "..." + what.substr(what.size() - 37) : what;
  std::fprintf(stderr, "\r[%s] %zu/%zu clips  ETA %d:%02d  %-40s", bar.c_str(), done, total, int(eta) / 60,
               int(eta) % 60, name.c_str());
  std::fflush(stderr);
  m_drawn = true;
}

void Progress::finish() {
  if (m_drawn) std::fprintf(stderr, "\r%*s\r", 100, "");
  m_drawn = false;
}

}  // namespace animpack::cli
