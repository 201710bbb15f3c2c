#include "codecs/numeric_cast.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include "base/bytes.h"
#include "dtype/bfloat16.h"
#include "dtype/float8.h"
#include "dtype/float_text.h"
#include "dtype/sub_byte_int.h"

namespace zarr::codecs {

namespace {

using dtype_detail::Float8Format;

// A float format: `precision` significant bits, normal exponents from
// min_exponent (value = 1.f x 2^e), subnormals below unless the format has
// none, and its largest finite value.
struct FloatFormat {
  int precision;
  int min_exponent;
  long double max_finite;
  long double min_positive;  // the smallest value above zero
  bool has_infinity;
  bool has_nan;
  bool is_signed;
};

long double largest_small_float(Float8Format f) {
  long double most = 0;
  for (int code = 0; code < (1 << dtype_detail::float8_value_bits(f)); ++code) {
    const double v = dtype_detail::float8_to_double(static_cast<uint8_t>(code), f);
    if (std::isfinite(v) && v > most) most = v;
  }
  return most;
}

// Each small float format's largest value, found once (formats are scanned
// per element otherwise).
long double largest_small_float_cached(Float8Format f) {
  static const std::array<long double, dtype_detail::kFloat8FormatCount> largest = [] {
    std::array<long double, dtype_detail::kFloat8FormatCount> all{};
    for (int i = 0; i < dtype_detail::kFloat8FormatCount; ++i) all[i] = largest_small_float(static_cast<Float8Format>(i));
    return all;
  }();
  return largest[static_cast<size_t>(f)];
}

FloatFormat small_float_format(Float8Format f) {
  const dtype_detail::Float8Spec& s = dtype_detail::float8_spec(f);
  const bool unsigned_exponent_only = f == Float8Format::E8M0FNU;  // 2^(e - bias), no zero, no subnormals
  const int min_exponent = unsigned_exponent_only ? -s.bias : 1 - s.bias;
  const long double min_positive = std::ldexp(1.0L, min_exponent - (unsigned_exponent_only ? 0 : s.mantissa_bits));
  return FloatFormat{s.mantissa_bits + 1,   min_exponent,
                     largest_small_float_cached(f), min_positive,
                     dtype_detail::float8_has_infinity(f), dtype_detail::float8_has_nan(f),
                     s.is_signed};
}

FloatFormat float_format(const DataType& t) {
  if (t.kind() == DTypeKind::Float8) return small_float_format(t.float8_format());
  if (t.kind() == DTypeKind::BFloat16) {
    return {8, -126, std::ldexp(255.0L, 120), std::ldexp(1.0L, -133), true, true, true};
  }
  switch (t.item_size()) {
    case 2: return {11, -14, 65504.0L, std::ldexp(1.0L, -24), true, true, true};
    case 4:
      return {24, -126, std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(), true, true, true};
    default:
      return {53, -1022, std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min(), true, true, true};
  }
}

// An integer's range.
struct IntegerRange {
  long double min, max;
  unsigned bits;
  bool is_signed;
};

IntegerRange integer_range(const DataType& t) {
  const unsigned bits = t.integer_bits();
  const long double span = std::ldexp(1.0L, static_cast<int>(bits));
  if (!t.is_signed_integer()) return {0, span - 1, bits, false};
  return {-span / 2, span / 2 - 1, bits, true};
}

long double round_whole(long double x, Rounding r) {
  switch (r) {
    case Rounding::TowardsZero: return std::trunc(x);
    case Rounding::TowardsPositive: return std::ceil(x);
    case Rounding::TowardsNegative: return std::floor(x);
    case Rounding::NearestAway: return std::round(x);
    case Rounding::NearestEven: break;
  }
  const long double below = std::floor(x);
  const long double fraction = x - below;
  if (fraction != 0.5L) return fraction < 0.5L ? below : below + 1;
  return std::fmod(below, 2.0L) == 0 ? below : below + 1;
}

std::optional<long double> cast_integer(long double v, const DataType& t, Rounding rounding, OutOfRange oor) {
  if (!std::isfinite(v)) return std::nullopt;
  const IntegerRange range = integer_range(t);
  long double whole = round_whole(v, rounding);
  if (whole == 0) whole = 0;  // no -0 among the integers
  if (whole >= range.min && whole <= range.max) return whole;
  if (oor == OutOfRange::Clamp) return whole < range.min ? range.min : range.max;
  if (oor == OutOfRange::Fail) return std::nullopt;
  const long double span = std::ldexp(1.0L, static_cast<int>(range.bits));
  long double wrapped = std::fmod(whole, span);  // exact
  if (wrapped < 0) wrapped += span;
  if (range.is_signed && wrapped > range.max) wrapped -= span;
  return wrapped;
}

// `v` (finite, not zero) rounded to f's precision at its exponent (or at the
// subnormal quantum below the normal range).
long double round_to_precision(long double v, const FloatFormat& f, Rounding rounding) {
  const int exponent = std::max(std::ilogb(v), f.min_exponent);
  const int quantum = exponent - (f.precision - 1);
  return std::ldexp(round_whole(std::ldexp(v, -quantum), rounding), quantum);
}

std::optional<long double> cast_float(long double v, const DataType& t, Rounding rounding, OutOfRange oor) {
  const FloatFormat f = float_format(t);
  if (std::isnan(v)) return f.has_nan ? std::optional<long double>(v) : std::nullopt;
  if (std::isinf(v)) return f.has_infinity ? std::optional<long double>(v) : std::nullopt;
  const long double lowest = f.is_signed ? -f.max_finite : f.min_positive;
  // A value that rounds to zero keeps its sign.
  const long double r = v == 0 ? v : std::copysign(round_to_precision(v, f, rounding), v);
  if (r >= lowest && r <= f.max_finite) return r;
  if (oor != OutOfRange::Clamp) return std::nullopt;
  if (f.has_infinity) return r < 0 ? -std::numeric_limits<long double>::infinity()
                                   : std::numeric_limits<long double>::infinity();
  return r < lowest ? lowest : f.max_finite;
}

void store_integer(long double v, uint8_t* p, const DataType& t) {
  const uint64_t bits = v < 0 ? static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v);
  if (t.kind() == DTypeKind::SubByteInt || t.kind() == DTypeKind::SubByteUInt) {
    // One value per byte: signed ones sign-extended (sub_byte_int.h).
    *p = static_cast<uint8_t>(bits);
    return;
  }
  switch (t.item_size()) {
    case 1: *p = static_cast<uint8_t>(bits); break;
    case 2: store_unaligned(p, static_cast<uint16_t>(bits)); break;
    case 4: store_unaligned(p, static_cast<uint32_t>(bits)); break;
    default: store_unaligned(p, bits); break;
  }
}

}  // namespace

bool is_integral(const DataType& t) {
  switch (t.kind()) {
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt: return true;
    default: return false;
  }
}

bool is_real_numeric(const DataType& t) {
  return is_integral(t) || t.kind() == DTypeKind::Float || t.kind() == DTypeKind::BFloat16 ||
         t.kind() == DTypeKind::Float8;
}

long double load_real(const uint8_t* p, const DataType& t) {
  switch (t.kind()) {
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt:
      return dtype_detail::sub_byte_value(*p, static_cast<int>(t.integer_bits()), t.is_signed_integer());
    case DTypeKind::Int:
      switch (t.item_size()) {
        case 1: return load_unaligned<int8_t>(p);
        case 2: return load_unaligned<int16_t>(p);
        case 4: return load_unaligned<int32_t>(p);
        default: return load_unaligned<int64_t>(p);
      }
    case DTypeKind::UInt:
      switch (t.item_size()) {
        case 1: return *p;
        case 2: return load_unaligned<uint16_t>(p);
        case 4: return load_unaligned<uint32_t>(p);
        default: return load_unaligned<uint64_t>(p);
      }
    case DTypeKind::BFloat16: return dtype_detail::bfloat16_to_double(load_unaligned<uint16_t>(p));
    case DTypeKind::Float8: return dtype_detail::float8_to_double(*p, t.float8_format());
    default: break;
  }
  if (t.item_size() == 2) return dtype_detail::half_to_double(load_unaligned<uint16_t>(p));
  if (t.item_size() == 4) return load_unaligned<float>(p);
  return load_unaligned<double>(p);
}

std::optional<long double> cast_real(long double v, const DataType& t, Rounding rounding, OutOfRange out_of_range) {
  if (is_integral(t)) return cast_integer(v, t, rounding, out_of_range);
  return cast_float(v, t, rounding, out_of_range == OutOfRange::Wrap ? OutOfRange::Fail : out_of_range);
}

void store_real(long double v, uint8_t* p, const DataType& t) {
  if (is_integral(t)) return store_integer(v, p, t);
  const double d = static_cast<double>(v);  // exact: v is a value of t
  switch (t.kind()) {
    case DTypeKind::BFloat16: store_unaligned(p, dtype_detail::double_to_bfloat16(d)); return;
    case DTypeKind::Float8: *p = dtype_detail::double_to_float8(d, t.float8_format()); return;
    default: break;
  }
  if (t.item_size() == 2) return store_unaligned(p, dtype_detail::double_to_half(d));
  if (t.item_size() == 4) return store_unaligned(p, static_cast<float>(d));
  store_unaligned(p, d);
}

std::string real_text(long double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.21Lg", v);
  return buf;
}

}  // namespace zarr::codecs
