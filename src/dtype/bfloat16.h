// bfloat16 conversions: the top 16 bits of an IEEE binary32 (1 sign bit, 8
// exponent bits with bias 127, 7 mantissa bits; subnormals at exponent 0).
#pragma once

#include <cstdint>

namespace zarr::dtype_detail {

// Round a double to the nearest bfloat16 (ties to even) in one step, so values
// do not suffer double rounding through float; overflow gives infinity, NaN
// the quiet NaN 0x7fc0 with the value's sign.
uint16_t double_to_bfloat16(double value);

// Exact widening of a bfloat16 to a double.
double bfloat16_to_double(uint16_t bits);

}  // namespace zarr::dtype_detail
