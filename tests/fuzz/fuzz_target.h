#pragma once
// The fuzz targets, shared by the libFuzzer harnesses (clang builds with ANIMPACK_FUZZ=ON) and the
// corpus replay tests that run in every build. A target returns normally on any input; a broken
// invariant aborts, which is what the fuzzer reports.

#include <cstddef>
#include <cstdint>

namespace animpack::test {

/// Opens `data` as a pack (with its checksum recomputed, so mutations reach the structural
/// checks) and, when it opens, samples and blends every clip at many times.
void fuzzPack(const std::uint8_t* data, std::size_t size);

/// Parses `data` as a settings file; when it parses, validates and resolves it against a small
/// skeleton, and checks that its JSON form parses back to the same settings.
void fuzzSettings(const std::uint8_t* data, std::size_t size);

/// Parses `data` as a project (.anproj); when it parses, resolves each source's settings and checks
/// that its JSON form parses back to the same project and writes the same JSON again.
void fuzzProject(const std::uint8_t* data, std::size_t size);

/// Reads `data` as an import stream (size and checksum recomputed, so mutations reach the
/// structure); when it reads, checks that writing the asset gives back the same bytes.
void fuzzImportStream(const std::uint8_t* data, std::size_t size);

}  // namespace animpack::test
