#pragma once
// Batch progress on the terminal: a bar that rewrites one line (clips done/total, ETA) when stderr
// is a terminal, plain lines otherwise, nothing with --quiet.

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

namespace animpack::cli {

class Progress {
 public:
  enum class Mode { Bar, Lines, Quiet };
  explicit Progress(Mode mode) : m_mode(mode), m_start(std::chrono::steady_clock::now()) {}
  /// The mode for this process: a bar on a terminal, lines otherwise, quiet on request.
  static Mode detect(bool quiet);

  void update(std::size_t done, std::size_t total, const std::string& what);
  /// Clears the bar before other output.
  void finish();

 private:
  Mode m_mode;
  std::chrono::steady_clock::time_point m_start;
  bool m_drawn = false;
};

}  // namespace animpack::cli
