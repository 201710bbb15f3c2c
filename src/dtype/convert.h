// Element conversions between numeric data types, as netCDF's typed calls
// (nc_get_vara_double) make them: every value the target type can represent
// arrives, and one it cannot is reported, never wrapped or clamped
// (zarr_read_region_as / zarr_write_region_as; docs/c-api.md gives the rules).
//
// Numeric types: bool, int2, int4, uint2, uint4, int8..int64, uint8..uint64,
// float16, bfloat16, float32, float64, the 4-, 6- and 8-bit floats, and the
// complex types (complex64/complex128 and the registry's pairs of float16,
// bfloat16 and small floats). Buffers are in native byte order.
//  - Integers convert exactly within the target's range; bool holds 0 and 1.
//  - Floats to integers truncate toward zero; NaN, infinities and values
//    whose truncation is outside the range cannot be represented.
//  - To a float type, values round to nearest (ties to even); a finite value
//    that rounds beyond the target's largest finite value cannot be
//    represented (nor, in float8_e8m0fnu, zero, a negative value or one that
//    rounds below 2^-127); NaN and infinities pass where the target has them.
//  - Real to complex gets an imaginary part of 0; complex to real keeps the
//    real part when the imaginary part is 0 and cannot be represented
//    otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "dtype/data_type.h"

namespace zarr {

// True for the numeric types above.
bool is_numeric(const DataType& type);

// The name of a type in messages: its v3 name, else its v2 JSON.
std::string type_text(const DataType& type);

// Where a conversion stopped: the first element the target cannot represent
// and its value as text ("-1", "NaN", "3.5e+38", "(1.0+2.0j)").
struct ConversionStop {
  size_t index;
  std::string value;
};

// Convert n elements of `from` at `in` into `to` at `out` (both numeric,
// native byte order). Stops at the first element `to` cannot represent:
// the elements before it are converted, those after it untouched, its own
// bytes in `out` unspecified.
std::optional<ConversionStop> convert_elements(const uint8_t* in, const DataType& from, uint8_t* out,
                                               const DataType& to, size_t n);

}  // namespace zarr
