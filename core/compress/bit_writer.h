#pragma once
// Bit counts for the encoders; the bit writer is the runtime's (core/runtime/bits.h).

#include <cstdint>
#include <vector>

#include "core/runtime/bits.h"

namespace animpack::core {

using runtime::BitWriter;  // core/runtime/bits.h

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
