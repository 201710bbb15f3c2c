#include "dtype/float8.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace zarr::dtype_detail {

namespace {

// ml_dtypes' (and the registry's) parameters of each format, in Float8Format order.
constexpr Float8Spec kSpecs[] = {
    {"float8_e4m3fn", 4, 3, 7, Float8Specials::AllOnesIsNan, true},
    {"float8_e4m3fnuz", 4, 3, 8, Float8Specials::NegativeZeroIsNan, true},
    {"float8_e4m3b11fnuz", 4, 3, 11, Float8Specials::NegativeZeroIsNan, true},
    {"float8_e5m2", 5, 2, 15, Float8Specials::Ieee, true},
    {"float8_e5m2fnuz", 5, 2, 16, Float8Specials::NegativeZeroIsNan, true},
    {"float8_e4m3", 4, 3, 7, Float8Specials::Ieee, true},
    {"float8_e3m4", 3, 4, 3, Float8Specials::Ieee, true},
    {"float8_e8m0fnu", 8, 0, 127, Float8Specials::UnsignedAllOnesIsNan, false},
    {"float6_e2m3fn", 2, 3, 1, Float8Specials::FiniteOnly, true},
    {"float6_e3m2fn", 3, 2, 3, Float8Specials::FiniteOnly, true},
    {"float4_e2m1fn", 2, 1, 1, Float8Specials::FiniteOnly, true},
};
static_assert(std::size(kSpecs) == kFloat8FormatCount);

int all_ones(int bits) { return (1 << bits) - 1; }

// Exponent and mantissa bits together: a code without its sign.
uint8_t magnitude_mask(const Float8Spec& s) { return static_cast<uint8_t>(all_ones(s.exponent_bits + s.mantissa_bits)); }
uint8_t sign_bit(const Float8Spec& s) { return s.is_signed ? static_cast<uint8_t>(1 << (s.exponent_bits + s.mantissa_bits)) : 0; }
uint8_t code_mask(const Float8Spec& s) { return static_cast<uint8_t>(magnitude_mask(s) | sign_bit(s)); }
bool has_subnormals(const Float8Spec& s) { return s.specials != Float8Specials::UnsignedAllOnesIsNan; }
bool has_zero(const Float8Spec& s) { return s.specials != Float8Specials::UnsignedAllOnesIsNan; }

// The code of exponent field all ones, mantissa 0.
uint8_t top_exponent_code(const Float8Spec& s) { return static_cast<uint8_t>(all_ones(s.exponent_bits) << s.mantissa_bits); }

// The magnitude code of the largest finite value.
uint8_t largest_finite(const Float8Spec& s) {
  switch (s.specials) {
    case Float8Specials::Ieee: return static_cast<uint8_t>(top_exponent_code(s) - 1);
    case Float8Specials::AllOnesIsNan:
    case Float8Specials::UnsignedAllOnesIsNan: return static_cast<uint8_t>(magnitude_mask(s) - 1);
    case Float8Specials::NegativeZeroIsNan:
    case Float8Specials::FiniteOnly: break;
  }
  return magnitude_mask(s);
}

uint8_t nan_code(const Float8Spec& s, bool negative) {
  const uint8_t sign = negative ? sign_bit(s) : 0;
  switch (s.specials) {
    case Float8Specials::Ieee:  // the quiet NaN: the mantissa's top bit
      return static_cast<uint8_t>(sign | top_exponent_code(s) | (1 << (s.mantissa_bits - 1)));
    case Float8Specials::AllOnesIsNan: return static_cast<uint8_t>(sign | magnitude_mask(s));
    case Float8Specials::NegativeZeroIsNan: return sign_bit(s);
    case Float8Specials::UnsignedAllOnesIsNan: return magnitude_mask(s);
    case Float8Specials::FiniteOnly: break;
  }
  return 0;
}

// What ml_dtypes gives past the largest finite value: infinity if the format
// has one, else NaN, else (no NaN either) the largest finite value.
uint8_t overflow_code(const Float8Spec& s, bool negative) {
  const uint8_t sign = negative ? sign_bit(s) : 0;
  if (s.specials == Float8Specials::Ieee) return static_cast<uint8_t>(sign | top_exponent_code(s));
  if (s.specials == Float8Specials::FiniteOnly) return static_cast<uint8_t>(sign | largest_finite(s));
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

// A rounded code and whether it still is the value (see float8_represents).
struct Rounded {
  uint8_t code;
  bool fits;
};

// A finite, non-zero value (of a sign the format has) to its code.
Rounded round_finite(double value, const Float8Spec& s) {
  const bool negative = std::signbit(value);
  const uint8_t sign = negative ? sign_bit(s) : 0;
  // fnuz: the would-be negative zero is the NaN, so zeros are all positive.
  const uint8_t zero = s.specials == Float8Specials::NegativeZeroIsNan ? 0 : sign;
  const Rounded underflow = has_zero(s) ? Rounded{zero, true} : Rounded{nan_code(s, false), false};
  int frexp_exponent = 0;
  std::frexp(value, &frexp_exponent);
  const int exponent = frexp_exponent - 1;  // |value| = 1.f * 2^exponent
  // Exponent field 0 holds subnormals, or (e8m0fnu) the smallest normal binade.
  const int min_normal_exponent = (has_subnormals(s) ? 1 : 0) - s.bias;
  // Weight of the last mantissa bit at this exponent (subnormals share the
  // smallest normal's quantum). Scaling by a power of two is exact.
  const int quantum = std::max(exponent, min_normal_exponent) - s.mantissa_bits;
  // Below half the smallest step (2^(quantum-1)): rounds to zero.
  if (exponent < quantum - 1) return underflow;
  const double scaled = std::ldexp(std::fabs(value), -quantum);
  uint64_t kept = round_half_even(scaled);
  // Without mantissa bits (e8m0fnu) the code's last bit is the exponent's:
  // a tie between 2^k and 2^(k+1) goes to the even exponent field.
  if (s.mantissa_bits == 0 && exponent >= min_normal_exponent && scaled - std::floor(scaled) == 0.5) {
    kept = (exponent + s.bias) % 2 == 0 ? 1 : 2;
  }
  // A normal value's `kept` includes the implicit bit; a rounding carry moves
  // into the exponent field by itself (and a subnormal's into the normals).
  uint64_t magnitude = kept;
  if (exponent >= min_normal_exponent) {
    magnitude = (static_cast<uint64_t>(exponent + s.bias) << s.mantissa_bits) + kept - (uint64_t{1} << s.mantissa_bits);
  } else if (!has_subnormals(s)) {
    // e8m0fnu below 2^-127: either 2^-127 itself (field 0) or nothing.
    if (kept == 0) return underflow;
    magnitude = kept - 1;
  } else if (magnitude == 0) {
    return underflow;
  }
  if (magnitude > largest_finite(s)) return {overflow_code(s, negative), false};
  return {static_cast<uint8_t>(sign | magnitude), true};
}

Rounded round_to_code(double value, const Float8Spec& s) {
  const bool negative = std::signbit(value);
  if (std::isnan(value)) return {nan_code(s, negative), s.specials != Float8Specials::FiniteOnly};
  if (std::isinf(value)) {
    const bool has_it = s.specials == Float8Specials::Ieee;
    return {overflow_code(s, negative), has_it};
  }
  if (!has_zero(s) && (negative || value == 0)) return {nan_code(s, false), false};
  if (value == 0) return {s.specials == Float8Specials::NegativeZeroIsNan || !negative ? uint8_t{0} : sign_bit(s), true};
  return round_finite(value, s);
}

}  // namespace

const Float8Spec& float8_spec(Float8Format format) { return kSpecs[static_cast<size_t>(format)]; }

std::optional<Float8Format> float8_format_named(const std::string& name) {
  for (size_t i = 0; i < std::size(kSpecs); ++i) {
    if (name == kSpecs[i].name) return static_cast<Float8Format>(i);
  }
  return std::nullopt;
}

int float8_value_bits(Float8Format format) {
  const Float8Spec& s = float8_spec(format);
  return s.exponent_bits + s.mantissa_bits + (s.is_signed ? 1 : 0);
}

bool float8_has_nan(Float8Format format) { return float8_spec(format).specials != Float8Specials::FiniteOnly; }
bool float8_has_infinity(Float8Format format) { return float8_spec(format).specials == Float8Specials::Ieee; }

uint8_t float8_canonical_nan(Float8Format format) { return nan_code(float8_spec(format), false); }

bool float8_is_nan(uint8_t code, Float8Format format) {
  const Float8Spec& s = float8_spec(format);
  code &= code_mask(s);
  const uint8_t magnitude = code & magnitude_mask(s);
  switch (s.specials) {
    case Float8Specials::Ieee: return magnitude > top_exponent_code(s);
    case Float8Specials::AllOnesIsNan:
    case Float8Specials::UnsignedAllOnesIsNan: return magnitude == magnitude_mask(s);
    case Float8Specials::NegativeZeroIsNan: return code == sign_bit(s);
    case Float8Specials::FiniteOnly: break;
  }
  return false;
}

uint8_t double_to_float8(double value, Float8Format format) { return round_to_code(value, float8_spec(format)).code; }

bool float8_represents(double value, Float8Format format) { return round_to_code(value, float8_spec(format)).fits; }

bool float8_accepts_fill(double value, Float8Format format) {
  if (float8_represents(value, format)) return true;
  const Float8Specials specials = float8_spec(format).specials;
  return specials != Float8Specials::FiniteOnly && specials != Float8Specials::UnsignedAllOnesIsNan;
}

double float8_to_double(uint8_t code, Float8Format format) {
  const Float8Spec& s = float8_spec(format);
  code &= code_mask(s);
  const bool negative = (code & sign_bit(s)) != 0;
  if (float8_is_nan(code, format)) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return negative && s.specials != Float8Specials::NegativeZeroIsNan ? -nan : nan;
  }
  const int exponent_field = (code >> s.mantissa_bits) & all_ones(s.exponent_bits);
  const int mantissa = code & all_ones(s.mantissa_bits);
  double magnitude;
  if (s.specials == Float8Specials::Ieee && exponent_field == all_ones(s.exponent_bits)) {
    magnitude = std::numeric_limits<double>::infinity();
  } else if (exponent_field == 0 && has_subnormals(s)) {
    magnitude = std::ldexp(mantissa, 1 - s.bias - s.mantissa_bits);
  } else {
    magnitude = std::ldexp(mantissa + (1 << s.mantissa_bits), exponent_field - s.bias - s.mantissa_bits);
  }
  return negative ? -magnitude : magnitude;
}

}  // namespace zarr::dtype_detail
