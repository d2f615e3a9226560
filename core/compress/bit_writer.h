#pragma once
// Little-endian bit packing, the writer side of core/runtime/bits.h.

#include <cstdint>
#include <vector>

namespace animpack::core {

class BitWriter {
 public:
  /// Appends the low `count` (0..32) bits of `value`.
  void write(std::uint32_t value, unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      if ((m_bits & 7u) == 0) m_bytes.push_back(0);
      if ((value >> i) & 1u) m_bytes.back() |= static_cast<std::uint8_t>(1u << (m_bits & 7u));
      ++m_bits;
    }
  }
  /// Appends a signed value in `count` bits, two's complement.
  void writeSigned(std::int32_t value, unsigned count) {
    write(count == 32 ? static_cast<std::uint32_t>(value) : static_cast<std::uint32_t>(value) & ((1u << count) - 1u), count);
  }
  std::uint64_t bitCount() const { return m_bits; }
  /// The bytes written, the last one zero-padded.
  const std::vector<std::uint8_t>& bytes() const { return m_bytes; }

 private:
  std::vector<std::uint8_t> m_bytes;
  std::uint64_t m_bits = 0;
};

/// Bits needed to store unsigned `v`.
inline unsigned bitsForUnsigned(std::uint64_t v) {
  unsigned n = 0;
  while (v) {
    ++n;
    v >>= 1;
  }
  return n;
}
/// Bits needed to store signed `v` in two's complement (0 for 0).
inline unsigned bitsForSigned(std::int64_t v) {
  if (v == 0) return 0;
  unsigned n = 1;
  while (v < -(std::int64_t(1) << (n - 1)) || v > (std::int64_t(1) << (n - 1)) - 1) ++n;
  return n;
}

}  // namespace animpack::core
