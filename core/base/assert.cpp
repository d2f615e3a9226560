#include "core/base/assert.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace animpack {
namespace {
std::atomic<bool> g_throws{false};
}

void setAssertThrows(bool enabled) { g_throws = enabled; }

void assertFailed(const char* condition, const char* message, const char* file, int line) {
  const std::string text = std::string("animpack internal error: ") + message + " (" + condition + ") at " + file +
                           ":" + std::to_string(line);
  if (g_throws) throw AssertionError(text);
  std::fprintf(stderr, "%s\n", text.c_str());
  std::abort();
}

}  // namespace animpack
