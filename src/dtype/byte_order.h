// Host byte order and in-place byte reversal of fixed-size units.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace zarr::dtype_detail {

// Probed rather than assumed so the library stays correct on big-endian hosts;
// compilers fold it to a constant.
inline bool host_is_big_endian() {
  const uint16_t probe = 1;
  uint8_t first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 0;
}

// Reverse the bytes of each `unit`-byte group in data[0, size). size is a
// multiple of unit; unit 1 leaves the data unchanged.
void reverse_units(uint8_t* data, size_t size, size_t unit);

}  // namespace zarr::dtype_detail
