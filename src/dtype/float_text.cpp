#include "dtype/float_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>

namespace zarr::dtype_detail {

uint16_t double_to_half(double value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
  if (std::isnan(value)) return sign | 0x7e00u;
  if (std::isinf(value)) return sign | 0x7c00u;

  const int biased = static_cast<int>((bits >> 52) & 0x7ffu);
  uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  int exponent = biased - 1023;
  if (biased == 0) {
    exponent = -1022;  // double subnormal: far below the half range
  } else {
    mantissa |= uint64_t{1} << 52;
  }
  if (exponent > 15) return sign | 0x7c00u;

  // Bits of the 53-bit significand below the half's quantum at this exponent
  // (2^(e-10) for normal halves, 2^-24 for subnormals) are rounded away.
  const int drop = 42 + (exponent < -14 ? -14 - exponent : 0);
  if (drop >= 64) return sign;
  uint64_t kept = mantissa >> drop;
  const uint64_t rest = mantissa & ((uint64_t{1} << drop) - 1);
  const uint64_t halfway = uint64_t{1} << (drop - 1);
  if (rest > halfway || (rest == halfway && (kept & 1u))) ++kept;

  // For normal halves `kept` includes the implicit bit (1024); a carry to 2048
  // bumps the exponent by itself, up to 0x7c00 (infinity) past 65504.
  uint64_t magnitude = kept;
  if (exponent >= -14) magnitude = (static_cast<uint64_t>(exponent + 15) << 10) + kept - 1024;
  return static_cast<uint16_t>(sign | magnitude);
}

double half_to_double(uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
  } else {
    magnitude = std::ldexp(static_cast<double>(mantissa + 1024), exponent - 25);
  }
  return negative ? -magnitude : magnitude;
}

float double_to_float(double value) {
  // 2^128 - 2^103 lies halfway between FLT_MAX and 2^128; FLT_MAX has an odd
  // significand, so the tie and everything above it round to infinity.
  const double overflow = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
  if (std::isfinite(value) && std::fabs(value) >= overflow) {
    return std::signbit(value) ? -std::numeric_limits<float>::infinity()
                               : std::numeric_limits<float>::infinity();
  }
  return static_cast<float>(value);
}

}  // namespace zarr::dtype_detail
