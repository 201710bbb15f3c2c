// A small reader of NumPy .npy files (format versions 1.0, 2.0 and 3.0) for
// tests that compare against arrays other implementations wrote.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/bytes.h"

namespace zarr::test {

struct NpyArray {
  std::string descr;             // e.g. "<i4", "|b1", "|S3", "<M8[ns]"
  bool fortran_order = false;
  std::vector<uint64_t> shape;   // () for a scalar
  Bytes data;                    // the raw element bytes, as stored

  // Bytes per element from descr ("<U5" -> 20); throws for object arrays
  // and structured dtypes.
  size_t item_size() const;
  uint64_t element_count() const;
};

// Parse .npy bytes; `where` names the source in error messages
// (std::runtime_error, as this is test support, not the library).
NpyArray parse_npy(ByteView bytes, const std::string& where);
NpyArray read_npy(const std::string& path);

}  // namespace zarr::test
