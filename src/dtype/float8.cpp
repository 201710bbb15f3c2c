#include "dtype/float8.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace zarr::dtype_detail {

namespace {

constexpr uint8_t kSignBit = 0x80;

// ml_dtypes' parameters of each format (in Float8Format order).
constexpr Float8Spec kSpecs[] = {
    {"float8_e4m3fn", 4, 3, 7, Float8Specials::AllOnesIsNan},
    {"float8_e4m3fnuz", 4, 3, 8, Float8Specials::NegativeZeroIsNan},
    {"float8_e4m3b11fnuz", 4, 3, 11, Float8Specials::NegativeZeroIsNan},
    {"float8_e5m2", 5, 2, 15, Float8Specials::Ieee},
    {"float8_e5m2fnuz", 5, 2, 16, Float8Specials::NegativeZeroIsNan},
};

int all_ones(int bits) { return (1 << bits) - 1; }

// The code of exponent field all ones, mantissa 0.
uint8_t top_exponent_code(const Float8Spec& s) { return static_cast<uint8_t>(all_ones(s.exponent_bits) << s.mantissa_bits); }

// The magnitude code of the largest finite value.
uint8_t largest_finite(const Float8Spec& s) {
  switch (s.specials) {
    case Float8Specials::Ieee: return static_cast<uint8_t>(top_exponent_code(s) - 1);
    case Float8Specials::AllOnesIsNan: return 0x7e;
    case Float8Specials::NegativeZeroIsNan: break;
  }
  return 0x7f;
}

uint8_t nan_code(const Float8Spec& s, bool negative) {
  switch (s.specials) {
    case Float8Specials::Ieee: return static_cast<uint8_t>((negative ? kSignBit : 0) | (top_exponent_code(s) | 0x02));
    case Float8Specials::AllOnesIsNan: return static_cast<uint8_t>((negative ? kSignBit : 0) | 0x7f);
    case Float8Specials::NegativeZeroIsNan: break;
  }
  return kSignBit;
}

// What ml_dtypes gives past the largest finite value: infinity if the format
// has one, else NaN.
uint8_t overflow_code(const Float8Spec& s, bool negative) {
  if (s.specials == Float8Specials::Ieee) return static_cast<uint8_t>((negative ? kSignBit : 0) | top_exponent_code(s));
  return nan_code(s, negative);
}

// Nearest integer to a non-negative value, ties to even, without depending
// on the floating-point rounding mode.
uint64_t round_half_even(double scaled) {
  const double floor = std::floor(scaled);
  const double rest = scaled - floor;  // exact: both share the value's bits
  auto kept = static_cast<uint64_t>(floor);
  if (rest > 0.5 || (rest == 0.5 && (kept & 1u))) ++kept;
  return kept;
}

}  // namespace

const Float8Spec& float8_spec(Float8Format format) { return kSpecs[static_cast<size_t>(format)]; }

std::optional<Float8Format> float8_format_named(const std::string& name) {
  for (size_t i = 0; i < std::size(kSpecs); ++i) {
    if (name == kSpecs[i].name) return static_cast<Float8Format>(i);
  }
  return std::nullopt;
}

uint8_t float8_canonical_nan(Float8Format format) { return nan_code(float8_spec(format), false); }

bool float8_is_nan(uint8_t code, Float8Format format) {
  const Float8Spec& s = float8_spec(format);
  const uint8_t magnitude = code & 0x7f;
  switch (s.specials) {
    case Float8Specials::Ieee: return magnitude > top_exponent_code(s);
    case Float8Specials::AllOnesIsNan: return magnitude == 0x7f;
    case Float8Specials::NegativeZeroIsNan: break;
  }
  return code == kSignBit;
}

uint8_t double_to_float8(double value, Float8Format format) {
  const Float8Spec& s = float8_spec(format);
  const bool negative = std::signbit(value);
  if (std::isnan(value)) return nan_code(s, negative);
  if (std::isinf(value)) return overflow_code(s, negative);
  const uint8_t sign = negative ? kSignBit : 0;
  // fnuz: the would-be negative zero is the NaN, so zeros are all positive.
  const uint8_t zero = s.specials == Float8Specials::NegativeZeroIsNan ? 0 : sign;
  if (value == 0) return zero;

  int frexp_exponent = 0;
  std::frexp(value, &frexp_exponent);
  const int exponent = frexp_exponent - 1;  // |value| = 1.f * 2^exponent
  const int min_normal_exponent = 1 - s.bias;
  // Weight of the last mantissa bit at this exponent (subnormals share the
  // smallest normal's quantum). Scaling by a power of two is exact.
  const int quantum = std::max(exponent, min_normal_exponent) - s.mantissa_bits;
  // Below half the smallest subnormal (2^(quantum-1)): rounds to zero.
  if (exponent < quantum - 1) return zero;
  const uint64_t kept = round_half_even(std::ldexp(std::fabs(value), -quantum));

  // A normal value's `kept` includes the implicit bit; a rounding carry moves
  // into the exponent field by itself (and a subnormal's into the normals).
  uint64_t magnitude = kept;
  if (exponent >= min_normal_exponent) {
    magnitude = (static_cast<uint64_t>(exponent + s.bias) << s.mantissa_bits) + kept - (uint64_t{1} << s.mantissa_bits);
  }
  if (magnitude > largest_finite(s)) return overflow_code(s, negative);
  if (magnitude == 0) return zero;
  return static_cast<uint8_t>(sign | magnitude);
}

double float8_to_double(uint8_t code, Float8Format format) {
  const Float8Spec& s = float8_spec(format);
  const bool negative = (code & kSignBit) != 0;
  if (float8_is_nan(code, format)) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return negative && s.specials != Float8Specials::NegativeZeroIsNan ? -nan : nan;
  }
  const int exponent_field = (code >> s.mantissa_bits) & all_ones(s.exponent_bits);
  const int mantissa = code & all_ones(s.mantissa_bits);
  double magnitude;
  if (s.specials == Float8Specials::Ieee && exponent_field == all_ones(s.exponent_bits)) {
    magnitude = std::numeric_limits<double>::infinity();
  } else if (exponent_field == 0) {
    magnitude = std::ldexp(mantissa, 1 - s.bias - s.mantissa_bits);
  } else {
    magnitude = std::ldexp(mantissa + (1 << s.mantissa_bits), exponent_field - s.bias - s.mantissa_bits);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace zarr::dtype_detail
