// int4 as TensorStore (Int4Padded) and ml_dtypes store it: one value in
// [-8, 7] per byte, sign-extended, so a byte read as int8 is the value.
#pragma once

#include <cstdint>

namespace zarr::dtype_detail {

inline constexpr int kInt4Min = -8;
inline constexpr int kInt4Max = 7;

// The value of a stored byte: its low 4 bits, sign-extended. A byte whose
// high bits disagree (written by another tool) reads as ml_dtypes reads it.
inline int int4_value(uint8_t byte) {
  const int low = byte & 0x0f;
  return low > kInt4Max ? low - 16 : low;
}

}  // namespace zarr::dtype_detail
