#pragma once
// Little-endian bit extraction from a byte buffer. Callers guarantee at least 8 readable bytes from
// the byte holding the first bit (packs pad every bit-packed section by 8 bytes and the validator
// checks every read position against the section size).

#include <cstdint>
#include <cstring>
#include <vector>

namespace animpack::runtime {

/// The 64 bits from the byte holding bit `position`, shifted so that bit is bit 0: its low 57 bits
/// are the stream's bits from `position` on.
inline std::uint64_t bitsAt(const std::uint8_t* data, std::uint64_t position) {
  std::uint64_t word;
  std::memcpy(&word, data + (position >> 3), sizeof(word));
  return word >> (position & 7u);
}

/// Reads `count` (0..32) bits starting at bit `position` as an unsigned value.
inline std::uint32_t readBits(const std::uint8_t* data, std::uint64_t position, unsigned count) {
  const std::uint64_t word = bitsAt(data, position);
  return count == 0 ? 0u : static_cast<std::uint32_t>(word & ((std::uint64_t(1) << count) - 1u));
}

/// Reads `count` (0..32) bits as a two's complement signed value.
inline std::int32_t readSignedBits(const std::uint8_t* data, std::uint64_t position, unsigned count) {
  if (count == 0) return 0;
  const std::uint32_t raw = readBits(data, position, count);
  const std::uint32_t signBit = 1u << (count - 1u);
  return static_cast<std::int32_t>(raw ^ signBit) - static_cast<std::int32_t>(signBit);
}

}  // namespace animpack::runtime

namespace animpack::runtime {

/// Little-endian bit packing, the writer side of readBits (core/io/clip_builder.cpp writes
/// boundary rows and residuals with it).
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
    write(count == 32 ? static_cast<std::uint32_t>(value) : static_cast<std::uint32_t>(value) & ((1u << count) - 1u),
          count);
  }
  std::uint64_t bitCount() const { return m_bits; }
  /// The bytes written, the last one zero-padded.
  const std::vector<std::uint8_t>& bytes() const { return m_bytes; }

 private:
  std::vector<std::uint8_t> m_bytes;
  std::uint64_t m_bits = 0;
};

/// Sequential reader of consecutive bit fields, refilling a 64-bit buffer (same bits as readBits,
/// fewer memory accesses). The same padding rule applies.
class BitStream {
 public:
  BitStream(const std::uint8_t* data, std::uint64_t position) : m_data(data), m_position(position) { refill(); }

  /// Reads the next `count` (0..56) bits.
  std::uint64_t readWide(unsigned count) {
    if (count > m_available) refill();
    const std::uint64_t v = count == 0 ? 0u : m_buffer & ((std::uint64_t(1) << count) - 1u);
    m_buffer >>= count;
    m_available -= count;
    m_position += count;
    return v;
  }

  /// Reads the next `count` (0..32) bits.
  std::uint32_t read(unsigned count) {
    if (count > m_available) refill();
    const std::uint32_t v = count == 0 ? 0u : static_cast<std::uint32_t>(m_buffer & ((std::uint64_t(1) << count) - 1u));
    m_buffer >>= count;
    m_available -= count;
    m_position += count;
    return v;
  }

 private:
  void refill() {
    std::memcpy(&m_buffer, m_data + (m_position >> 3), sizeof(m_buffer));
    m_buffer >>= (m_position & 7);
    m_available = 64u - static_cast<unsigned>(m_position & 7);
  }
  const std::uint8_t* m_data;
  std::uint64_t m_position;
  std::uint64_t m_buffer = 0;
  unsigned m_available = 0;
};

}  // namespace animpack::runtime
