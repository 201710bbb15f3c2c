// The one check of a caller's buffer against the elements a region or
// selection holds, and the one ZARR_ERR_BUFFER_SIZE message of the region,
// selection and append calls: it names the size needed and, when the
// buffer would fit the same elements of another size, says the types
// probably differ.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace zarr {

// What a buffer must hold: `elements` (nullopt: more than 2^64 - 1) of
// `item_size` bytes, each of type `type` (as zarr_data_type names it).
struct BufferNeed {
  std::string what;  // "region [2, 3]", "the selection": what holds the elements
  std::optional<uint64_t> elements;
  size_t item_size;
  std::string type;
  // The buffer holds the array's own type (not a zarr_*_as call): a size
  // that fits another element size suggests zarr_read_region_as.
  bool own_type = true;
};

// ZARR_ERR_BUFFER_SIZE, prefixed with `where`, unless nbytes is exactly the
// bytes the elements need.
void check_buffer_size(const std::string& where, size_t nbytes, const BufferNeed& need);

}  // namespace zarr
