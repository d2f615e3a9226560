#pragma once
// Counts the heap bytes a piece of code keeps: the program's operator new and delete (replaced in
// alloc_count.cpp, linked into `animpack` and the runtime's memory tests) add and subtract the
// bytes of every allocation while counting is on in this thread. `animpack bench` measures what
// opening a pack derives with it (docs/RUNTIME.md "Runtime"), the tests that sampling allocates nothing.

#include <cstdint>

namespace animpack::cli {

class AllocationCount {
 public:
  /// Starts counting in this thread from zero.
  static void start();
  /// Stops counting; the bytes allocated and not freed since start().
  static std::int64_t stop();
  /// Allocations (not bytes) made since start(), while counting.
  static std::uint64_t allocations();
};

}  // namespace animpack::cli
