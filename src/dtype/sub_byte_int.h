// The sub-byte integers as TensorStore (Int4Padded), zarrs and ml_dtypes keep
// them and the registry's bytes codec stores them: one value per byte, in its
// low 2 or 4 bits. int2 holds [-2, 1], int4 [-8, 7] (sign-extended when
// written, so a byte read as int8 is the value), uint2 [0, 3], uint4 [0, 15]
// (zero-extended). The bits above are ignored on reading.
#pragma once

#include <cstdint>

namespace zarr::dtype_detail {

// The value of a stored byte: its low `bits` bits, sign-extended when signed.
inline int sub_byte_value(uint8_t byte, int bits, bool is_signed) {
  const int low = byte & ((1 << bits) - 1);
  return is_signed && low >= (1 << (bits - 1)) ? low - (1 << bits) : low;
}

// The range of a sub-byte integer type.
inline int sub_byte_min(int bits, bool is_signed) { return is_signed ? -(1 << (bits - 1)) : 0; }
inline int sub_byte_max(int bits, bool is_signed) { return is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1; }

}  // namespace zarr::dtype_detail
