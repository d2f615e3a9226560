// Replays the API fuzz corpus (tests/fuzz/corpus-api: a call script, then a pack of a version the
// runtime reads) through the fuzz target's driver: random spans, times, weights and clips on every
// entry point, in every build (under ASan/UBSan in the sanitizer pass) and on every target.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "api_driver.h"
#include "check.h"

RUNTIME_TEST(corpusReplays) {
  std::size_t files = 0, opened = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ANIMPACK_RUNTIME_API_CORPUS)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const int succeeded = animpack::test::driveApi(reinterpret_cast<const std::uint8_t*>(chars.data()), chars.size());
    ++files;
    opened += succeeded > 0;
  }
  std::printf("  %zu corpus files, %zu drove calls that succeeded\n", files, opened);
  CHECK(files >= 8);
  CHECK(opened >= 8);
}

int main(int argc, char** argv) { return animpack::test::runtimeTestMain(argc, argv); }
