// Replays the saved fuzz corpus (real and damaged packs) through the fuzz target: a plain test
// in every build, under ASan in the sanitizer pass.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "tests/fuzz/fuzz_target.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: replay_corpus DIR\n");
    return 2;
  }
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    animpack::test::fuzzPack(bytes.data(), bytes.size());
    ++count;
  }
  std::printf("replayed %zu corpus files\n", count);
  return count > 0 ? 0 : 1;
}
