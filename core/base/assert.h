#pragma once
// Invariant checks (STYLE item 7): a broken invariant is a programming error, not bad input. It
// aborts with a message, or throws AssertionError once a test has called setAssertThrows(true).

#include <stdexcept>

namespace animpack {

struct AssertionError : std::logic_error {
  using std::logic_error::logic_error;
};

/// Tests call this so a failed assertion becomes a catchable exception instead of an abort.
void setAssertThrows(bool enabled);
[[noreturn]] void assertFailed(const char* condition, const char* message, const char* file, int line);

}  // namespace animpack

#define ANIMPACK_ASSERT(condition, message)                                              \
  do {                                                                                   \
    if (!(condition)) ::animpack::assertFailed(#condition, message, __FILE__, __LINE__); \
  } while (false)
