// libFuzzer entry point for the runtime's public API (core/runtime/tests/api_driver.h): a call
// script and a pack. Configure with -DANIMPACK_FUZZ=ON (clang), then
//   build/tests/fuzz/fuzz_api tests/fuzz/corpus-api -max_total_time=60
#include "core/runtime/tests/api_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  animpack::test::driveApi(data, size);
  return 0;
}
