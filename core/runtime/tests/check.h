#pragma once
// The runtime's test harness: no test library, so the runtime's tests build wherever it does
// (cross compilers, -fno-exceptions). RUNTIME_TEST(name) { CHECK(...); } and a main from
// runtimeTestMain: runs every test, or those named on the command line, and prints each verdict.

#include <cstdio>
#include <cstring>
#include <vector>

namespace animpack::test {

struct TestCase {
  const char* name;
  void (*run)();
};

inline std::vector<TestCase>& testCases() {
  static std::vector<TestCase> cases;
  return cases;
}
inline int& checkFailures() {
  static int failures = 0;
  return failures;
}

struct Registration {
  Registration(const char* name, void (*run)()) { testCases().push_back({name, run}); }
};

inline void reportFailure(const char* file, int line, const char* what) {
  std::printf("  FAILED %s:%d: %s\n", file, line, what);
  ++checkFailures();
}

inline int runtimeTestMain(int argc, char** argv) {
  int failed = 0, ran = 0;
  for (const TestCase& c : testCases()) {
    bool wanted = argc < 2;
    for (int i = 1; i < argc; ++i) wanted = wanted || std::strcmp(argv[i], c.name) == 0;
    if (!wanted) continue;
    const int before = checkFailures();
    c.run();
    ++ran;
    const bool ok = checkFailures() == before;
    failed += !ok;
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", c.name);
  }
  std::printf("%d tests, %d failed\n", ran, failed);
  return failed == 0 && ran > 0 ? 0 : 1;
}

}  // namespace animpack::test

#define RUNTIME_TEST(name)                                                         \
  static void name();                                                              \
  static const ::animpack::test::Registration name##_registration(#name, &(name)); \
  static void name()

#define CHECK(condition)                                                               \
  do {                                                                                 \
    if (!(condition)) ::animpack::test::reportFailure(__FILE__, __LINE__, #condition); \
  } while (false)

/// Stops the test when the condition fails (what follows depends on it).
#define REQUIRE(condition)                                             \
  do {                                                                 \
    if (!(condition)) {                                                \
      ::animpack::test::reportFailure(__FILE__, __LINE__, #condition); \
      return;                                                          \
    }                                                                  \
  } while (false)
