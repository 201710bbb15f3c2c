// Byte limits shared by the stores and the codecs (docs/stores.md, "Size
// limits"), and the saturating arithmetic their bounds are computed with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "base/checked_math.h"

namespace zarr {

// The most bytes of a value whose size no metadata bounds (metadata
// documents, variable-length chunks, byte ranges open at the end), and of a
// decoded variable-length chunk: the default of the store option
// "max_value_bytes". As large as the largest JSON document libzarr parses
// (base/json.h).
inline constexpr uint64_t kDefaultMaxValueBytes = uint64_t{256} << 20;

// The most bytes one compressed byte can decode to, for the formats whose
// stated sizes are checked against it (the size being otherwise unbounded
// when the metadata gives none). LZ77 formats (lz4, blosclz): a match length
// grows by at most 255 per byte. Deflate: 258 bytes per 2-bit code. zstd: a
// 4-byte run-length block decodes to at most 128 KiB. Snappy: a 3-byte copy
// is at most 64 bytes.
inline constexpr size_t kLz77MaxExpansion = 255;
inline constexpr size_t kDeflateMaxExpansion = 1032;
inline constexpr size_t kZstdMaxExpansion = 32768;
inline constexpr size_t kSnappyMaxExpansion = 64;

// a + b and a * b (checked_math.h), UINT64_MAX when they do not fit: a
// bound that large bounds nothing, which is what it means.
inline uint64_t saturating_add(uint64_t a, uint64_t b) {
  return checked_add(a, b).value_or(std::numeric_limits<uint64_t>::max());
}
inline uint64_t saturating_mul(uint64_t a, uint64_t b) {
  return checked_mul(a, b).value_or(std::numeric_limits<uint64_t>::max());
}

}  // namespace zarr
