#pragma once
// The pack fuzz target, shared by the libFuzzer harness (clang builds with ANIMPACK_FUZZ=ON) and
// the corpus replay test that runs in every build.

#include <cstddef>
#include <cstdint>

namespace animpack::test {

/// Opens `data` as a pack (with its checksum recomputed, so mutations reach the structural
/// checks) and, when it opens, samples and blends every clip at many times.
void fuzzPack(const std::uint8_t* data, std::size_t size);

}  // namespace animpack::test
