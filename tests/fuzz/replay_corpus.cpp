// Replays a saved fuzz corpus (real and damaged inputs, and every input that once failed) through
// its fuzz target: a plain test in every build, under ASan in the sanitizer pass.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "tests/fuzz/fuzz_target.h"

int main(int argc, char** argv) {
  using Target = void (*)(const std::uint8_t*, std::size_t);
  const struct {
    const char* name;
    Target target;
  } targets[] = {{"pack", animpack::test::fuzzPack},
                 {"settings", animpack::test::fuzzSettings},
                 {"project", animpack::test::fuzzProject},
                 {"import-stream", animpack::test::fuzzImportStream}};
  Target target = nullptr;
  for (const auto& t : targets)
    if (argc == 3 && std::strcmp(argv[1], t.name) == 0) target = t.target;
  if (!target) {
    std::fprintf(stderr, "usage: replay_corpus pack|settings|project|import-stream DIR\n");
    return 2;
  }
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(argv[2])) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    target(bytes.data(), bytes.size());
    ++count;
  }
  std::printf("replayed %zu corpus files through the %s target\n", count, argv[1]);
  return count > 0 ? 0 : 1;
}
