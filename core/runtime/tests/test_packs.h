#pragma once
// Packs the runtime's tests read: the golden packs of tests/data (format versions the runtime
// reads, and the older ones it refuses), read into memory.

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace animpack::test {

inline std::string goldenPath(int version) {
  return std::string(ANIMPACK_RUNTIME_TEST_DATA) + "/golden_v" + std::to_string(version) + ".anpk";
}

inline std::vector<std::byte> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) bytes[i] = static_cast<std::byte>(chars[i]);
  return bytes;
}

/// The generated walker with a looping root-motion clip and an additive clip (tests/data/make_golden.cpp
/// --runtime-paths): the paths the golden packs do not take.
inline std::string runtimePathsPack() { return std::string(ANIMPACK_RUNTIME_TEST_DATA) + "/runtime_paths.anpk"; }

/// The expected pose hash of a golden pack (tests/data/golden_vN.hash).
inline std::string goldenHash(int version) {
  std::ifstream in(std::string(ANIMPACK_RUNTIME_TEST_DATA) + "/golden_v" + std::to_string(version) + ".hash");
  std::string hash;
  in >> hash;
  return hash;
}

}  // namespace animpack::test
