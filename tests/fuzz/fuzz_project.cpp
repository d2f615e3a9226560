// libFuzzer entry point for the project (.anproj) reader (configure with -DANIMPACK_FUZZ=ON).
//   build-fuzz/tests/fuzz/fuzz_project tests/fuzz/corpus-project -max_total_time=600
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  animpack::test::fuzzProject(data, size);
  return 0;
}
