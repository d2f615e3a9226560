#pragma once
// FNV-1a 64-bit hashing, used for pack checksums, skeleton hashes and settings hashes.

#include <cstdint>
#include <span>
#include <string_view>

namespace animpack::runtime {

inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;

/// Continues an FNV-1a 64 hash over `bytes`.
inline std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes, std::uint64_t hash = kFnvOffset) {
  for (const std::uint8_t b : bytes) {
    hash ^= b;
    hash *= 0x100000001b3ull;
  }
  return hash;
}
inline std::uint64_t fnv1a64(std::string_view text, std::uint64_t hash = kFnvOffset) {
  return fnv1a64(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), hash);
}
template <typename T>
inline std::uint64_t fnv1a64Value(const T& value, std::uint64_t hash) {
  return fnv1a64(std::span(reinterpret_cast<const std::uint8_t*>(&value), sizeof(T)), hash);
}

}  // namespace animpack::runtime
