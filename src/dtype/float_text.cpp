#include "dtype/float_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>

namespace zarr::dtype_detail {

uint16_t round_to_binary16(double value, int mantissa_bits, int max_exponent) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
  const auto infinity = static_cast<uint16_t>((2 * max_exponent + 1) << mantissa_bits);
  const int min_exponent = 1 - max_exponent;  // of the normal numbers
  const int biased = static_cast<int>((bits >> 52) & 0x7ffu);
  uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  int exponent = biased - 1023;
  if (biased == 0) {
    exponent = -1022;  // double subnormal: far below a 16-bit format's range
  } else {
    mantissa |= uint64_t{1} << 52;
  }
  if (exponent > max_exponent) return sign | infinity;

  // Bits of the 53-bit significand below the quantum at this exponent
  // (2^(e-mantissa_bits) for normal values, 2^(min_exponent-mantissa_bits)
  // for subnormals) are rounded away, ties to even.
  const int drop = 52 - mantissa_bits + (exponent < min_exponent ? min_exponent - exponent : 0);
  if (drop >= 64) return sign;
  uint64_t kept = mantissa >> drop;
  const uint64_t rest = mantissa & ((uint64_t{1} << drop) - 1);
  const uint64_t halfway = uint64_t{1} << (drop - 1);
  if (rest > halfway || (rest == halfway && (kept & 1u))) ++kept;

  // For normal values `kept` includes the implicit bit; a carry past it bumps
  // the exponent by itself, up to the infinity pattern past the largest value.
  uint64_t magnitude = kept;
  const uint64_t implicit = uint64_t{1} << mantissa_bits;
  if (exponent >= min_exponent) {
    magnitude = (static_cast<uint64_t>(exponent + max_exponent) << mantissa_bits) + kept - implicit;
  }
  return static_cast<uint16_t>(sign | magnitude);
}

uint16_t double_to_half(double value) {
  if (std::isnan(value)) {
    // numpy's rule: the sign and the top ten bits of the payload, and a NaN
    // stays a NaN (a payload only in the low bits gives 0x7c01, not infinity).
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    const auto sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
    const auto top = static_cast<uint16_t>((bits >> 42) & 0x3ffu);
    return static_cast<uint16_t>(sign | 0x7c00u | (top ? top : 1u));
  }
  if (std::isinf(value)) return std::signbit(value) ? 0xfc00u : 0x7c00u;
  return round_to_binary16(value, 10, 15);
}

double half_to_double(uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);
  } else if (exponent == 31 && mantissa != 0) {
    // numpy's rule: the payload moves to the top of the double's, sign kept.
    const uint64_t nan = (uint64_t{negative} << 63) | (uint64_t{0x7ff} << 52) | (uint64_t(mantissa) << 42);
    double out;
    std::memcpy(&out, &nan, sizeof out);
    return out;
  } else if (exponent == 31) {
    magnitude = std::numeric_limits<double>::infinity();
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
