// libFuzzer entry point: clang++ -fsanitize=fuzzer,address (configure with -DANIMPACK_FUZZ=ON).
//   build/tests/fuzz/fuzz_pack tests/fuzz/corpus -max_total_time=60
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  animpack::test::fuzzPack(data, size);
  return 0;
}
