#include "array/buffer_size.h"

#include "base/checked_math.h"
#include "base/error.h"

namespace zarr {

namespace {

// When nbytes is exactly `elements` items of another numeric size (1, 2, 4,
// 8 or 16 bytes), the caller most likely holds another type: say so.
std::string other_type_hint(size_t nbytes, const BufferNeed& need) {
  if (!need.own_type || !need.elements || *need.elements == 0 || nbytes % *need.elements != 0) return "";
  const uint64_t size = nbytes / *need.elements;
  if (size == need.item_size || (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)) return "";
  return "; " + std::to_string(nbytes) + " bytes would fit " + std::to_string(*need.elements) + " elements of " +
         std::to_string(size) + " bytes: the array's elements are " + need.type + " (" +
         std::to_string(need.item_size) + " bytes), so the types probably differ: read or write with "
         "zarr_read_region_as / zarr_write_region_as to convert";
}

}  // namespace

void check_buffer_size(const std::string& where, size_t nbytes, const BufferNeed& need) {
  const std::optional<size_t> needed = need.elements ? byte_count(*need.elements, need.item_size) : std::nullopt;
  if (needed == nbytes) return;
  const std::string elements = need.elements ? std::to_string(*need.elements) : "more than 2^64 - 1";
  fail(ZARR_ERR_BUFFER_SIZE, where + ": buffer is " + std::to_string(nbytes) + " bytes but " + need.what + " of " +
                                 elements + " " + std::to_string(need.item_size) + "-byte elements (" + need.type +
                                 ") needs " + byte_count_text(needed) + other_type_hint(nbytes, need));
}

}  // namespace zarr
