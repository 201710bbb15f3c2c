// Float helpers for fill values: IEEE half precision conversion and the text
// form Python's repr() gives a float (what zarr-python writes into .zarray).
#pragma once

#include <cstdint>
#include <string>

#include "base/json.h"

namespace zarr::dtype_detail {

// A finite double rounded to a 16-bit binary float with `mantissa_bits`
// stored mantissa bits and exponents up to `max_exponent` (the bias; half:
// 10 and 15, bfloat16: 7 and 127): to the nearest (ties to even) in one step,
// so values do not suffer double rounding through float; overflow gives
// infinity, with the value's sign.
uint16_t round_to_binary16(double value, int mantissa_bits, int max_exponent);

// IEEE half precision, the one implementation (fill values, the numcodecs
// filters' arithmetic), with numpy's rules (npy_double_to_half and
// npy_half_to_double). Rounding: to the nearest half (ties to even) in one
// step, so values do not suffer double rounding through float; overflow
// gives infinity. NaN keeps its sign and the top ten bits of its payload
// (float('nan') gives 0x7e00; a payload only in the low bits gives 0x7c01,
// never infinity), so every half survives half -> double -> half.
uint16_t double_to_half(double value);
// Exact widening of a half to a double; a NaN's payload moves to the top of
// the double's.
double half_to_double(uint16_t bits);

// Round a double to float the way numpy does (nearest, ties to even, overflow
// to infinity) without relying on the out-of-range cast.
float double_to_float(double value);

// Python's repr(float) lives with the JSON writer that needs it too.
using zarr::json::python_float_repr;

}  // namespace zarr::dtype_detail
