// Region reads and writes converted to and from a caller's numeric type
// (zarr_read_region_as, zarr_write_region_as): the region moves in the
// array's own type through a buffer of the region's size, and each element
// is converted on the way (dtype/convert.h gives the rules). Works on any
// handle, a field's view too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "array/array_handle.h"

namespace zarr {

// What a conversion call names in its messages and the type it converts to.
struct ConvertedRegion {
  const char* function;   // the C function
  const char* data_type;  // the caller's type: a v3 name or a NumPy typestr in native byte order
  std::vector<uint64_t> start, count;
};

// Errors, before anything is read or written: ZARR_ERR_INVALID_ARGUMENT for
// an unknown type name (or a typestr of the other byte order),
// ZARR_ERR_UNSUPPORTED naming both types unless both are numeric,
// ZARR_ERR_BUFFER_SIZE unless nbytes is the region's elements in the
// caller's type. ZARR_ERR_RANGE naming the first element the target cannot
// represent: a read leaves out holding the elements before it converted; a
// write writes nothing.
void read_region_as(ArrayHandle& array, const ConvertedRegion& region, void* out, size_t nbytes);
void write_region_as(ArrayHandle& array, const ConvertedRegion& region, const void* in, size_t nbytes);

}  // namespace zarr
