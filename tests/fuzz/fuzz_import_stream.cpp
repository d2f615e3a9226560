// libFuzzer entry point for the import stream reader (configure with -DANIMPACK_FUZZ=ON).
//   build-fuzz/tests/fuzz/fuzz_import_stream tests/fuzz/corpus-import-stream -max_total_time=600
#include "tests/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  animpack::test::fuzzImportStream(data, size);
  return 0;
}
