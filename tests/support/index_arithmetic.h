// The index-arithmetic property (docs/reliability.md, "Index arithmetic"),
// through the C API only. An array whose shape lies near 2^64 is either
// refused with a clean error, exactly when its shape, byte size or chunk
// cannot be represented, or its last elements read and write exactly where
// they should: the caller's buffers, with guard bytes on both sides, are
// never touched outside the region, every element reads back as written (or
// as the fill value), zarr_info's figures are exact, a resize or an append
// changes exactly what it should or nothing. Shared by the fuzz target
// fuzz_index_arithmetic and the unit test IndexArithmetic.*.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace index_arithmetic {

struct Case {
  int zarr_format = 2;           // 2 or 3
  std::string dtype = "uint8";   // v3 name: uint8, int16, int32, float64 or string (variable length)
  std::vector<uint64_t> shape;
  std::vector<uint64_t> chunks;  // the stored chunk (shard) shape; every extent at most 16
  std::vector<uint64_t> inner;   // v3: sharding_indexed's inner chunk shape, dividing chunks; empty: not sharded
  bool compressed = false;       // a zlib (v2) or gzip (v3) compressor after the bytes
  // The region: per axis it starts back[d] elements before the end (clipped
  // to the shape) and covers up to count[d] elements of what is left.
  std::vector<uint64_t> back;
  std::vector<uint64_t> count;
  std::vector<uint64_t> resize_to;  // empty: no resize
  bool append = false;              // append one slice along axis 0 (when it is small enough)
};

struct Outcome {
  bool created = false;  // the array was accepted (else refused, as it had to be)
  std::string broken;    // "" when every property held, else what broke
};

// Runs the case on a new array at `url` (a memory:// URL or a folder that
// does not exist yet).
Outcome check(const Case& c, const std::string& url);

// A case built from any bytes (a fuzzer's input): one axis near 2^64,
// 2^63, 2^62 or 2^32 (or small), the others mostly small, chunks up to 16,
// sharded or not.
Case case_from_bytes(const uint8_t* data, size_t size);

// "v3 int32 shape [..] chunks [..] ...", for failure messages.
std::string describe(const Case& c);

}  // namespace index_arithmetic
