#pragma once
// The binary stream an import child process sends back to its parent: one import result (the
// ImportedAsset or the import's error message), versioned and validated like a pack, so a damaged
// or hostile stream is an error and never an out-of-bounds read.
//
// Layout (host byte order: both ends are the same build):
//   "APIMPRT\0"  8-byte magic
//   u32 version  kImportStreamVersion (append-only)
//   u32 kind     0 = asset, 1 = error message
//   u64 size     payload bytes that follow
//   u64 checksum FNV-1a 64 of the payload
//   payload      the asset's fields in declaration order; strings and arrays as u64 count + elements

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/io/asset_importer.h"

namespace animpack::core {

inline constexpr std::uint32_t kImportStreamVersion =
    6;  ///< 4: morph curves and their keys; 5: mesh morph targets; 6: scene scale
inline constexpr std::size_t kImportStreamHeaderBytes = 32;

/// Serialises an import result: the asset, or the import's error message.
std::vector<std::uint8_t> writeImportStream(const Expected<ImportedAsset>& result);

/// Parses and validates a stream: the asset, the import error it carries, or an error naming
/// `source` and what is wrong with the stream (magic, version, sizes, checksum, an invalid asset).
Expected<ImportedAsset> readImportStream(std::span<const std::uint8_t> bytes, std::string_view source);

}  // namespace animpack::core
