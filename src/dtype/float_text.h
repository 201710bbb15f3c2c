// Float helpers for fill values: IEEE half precision conversion and the text
// form Python's repr() gives a float (what zarr-python writes into .zarray).
#pragma once

#include <cstdint>
#include <string>

#include "base/json.h"

namespace zarr::dtype_detail {

// Round a double to the nearest half (ties to even) in one step, so values do
// not suffer double rounding through float; overflow gives infinity, NaN the
// quiet NaN 0x7e00 (numpy's result for float('nan')).
uint16_t double_to_half(double value);
// Exact widening of a half to a double.
double half_to_double(uint16_t bits);

// Round a double to float the way numpy does (nearest, ties to even, overflow
// to infinity) without relying on the out-of-range cast.
float double_to_float(double value);

// Python's repr(float) lives with the JSON writer that needs it too.
using zarr::json::python_float_repr;

}  // namespace zarr::dtype_detail
