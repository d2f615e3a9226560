// libFuzzer entry point for the settings JSON reader (configure with -DANIMPACK_FUZZ=ON).
//   build-fuzz/tests/fuzz/fuzz_settings tests/fuzz/corpus-settings -max_total_time=600
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  animpack::test::fuzzSettings(data, size);
  return 0;
}
