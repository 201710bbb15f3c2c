// Numeric element conversions (dtype/convert.h): each element is loaded into
// a Value that holds it exactly (integers as 64-bit integers, every float
// type's values as doubles), then stored into the target with its range
// checked.
#include "dtype/convert.h"

#include <cmath>
#include <cstring>

#include "base/bytes.h"
#include "base/json.h"
#include "dtype/bfloat16.h"
#include "dtype/float8.h"
#include "dtype/float_text.h"
#include "dtype/sub_byte_int.h"

namespace zarr {

namespace {

using dtype_detail::Float8Format;

// One element on its way: Signed holds a negative integer, Unsigned a
// non-negative one, Real and Complex doubles.
struct Value {
  enum class Kind { Signed, Unsigned, Real, Complex };
  Kind kind = Kind::Unsigned;
  int64_t i = 0;
  uint64_t u = 0;
  double re = 0, im = 0;
};

Value integer(int64_t v) {
  Value out;
  if (v < 0) {
    out.kind = Value::Kind::Signed;
    out.i = v;
  } else {
    out.u = static_cast<uint64_t>(v);
  }
  return out;
}

Value unsigned_integer(uint64_t v) {
  Value out;
  out.u = v;
  return out;
}

Value real(double re, double im = 0, bool complex = false) {
  Value out;
  out.kind = complex ? Value::Kind::Complex : Value::Kind::Real;
  out.re = re;
  out.im = im;
  return out;
}

// A float type (or one half of a complex type) as a target: its kind and size.
struct FloatType {
  DTypeKind kind;  // Float, BFloat16 or Float8
  size_t size;
  Float8Format format;
};

FloatType float_type(const DataType& t) { return {t.kind(), t.item_size(), t.float8_format()}; }
FloatType complex_part(const DataType& t) { return {t.complex_component_kind(), t.item_size() / 2, t.float8_format()}; }

double load_float(const uint8_t* p, const FloatType& t) {
  if (t.kind == DTypeKind::BFloat16) return dtype_detail::bfloat16_to_double(load_unaligned<uint16_t>(p));
  if (t.kind == DTypeKind::Float8) return dtype_detail::float8_to_double(*p, t.format);
  if (t.size == 2) return dtype_detail::half_to_double(load_unaligned<uint16_t>(p));
  if (t.size == 4) return load_unaligned<float>(p);
  return load_unaligned<double>(p);
}

Value load_integer(const uint8_t* p, const DataType& t) {
  const bool is_signed = t.kind() == DTypeKind::Int;
  switch (t.item_size()) {
    case 1: return is_signed ? integer(load_unaligned<int8_t>(p)) : unsigned_integer(*p);
    case 2: return is_signed ? integer(load_unaligned<int16_t>(p)) : unsigned_integer(load_unaligned<uint16_t>(p));
    case 4: return is_signed ? integer(load_unaligned<int32_t>(p)) : unsigned_integer(load_unaligned<uint32_t>(p));
    default: return is_signed ? integer(load_unaligned<int64_t>(p)) : unsigned_integer(load_unaligned<uint64_t>(p));
  }
}

Value load(const uint8_t* p, const DataType& t) {
  switch (t.kind()) {
    case DTypeKind::Bool: return unsigned_integer(*p != 0);
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt:
      return integer(dtype_detail::sub_byte_value(*p, static_cast<int>(t.integer_bits()), t.is_signed_integer()));
    case DTypeKind::Int:
    case DTypeKind::UInt: return load_integer(p, t);
    case DTypeKind::Complex: {
      const FloatType part = complex_part(t);
      return real(load_float(p, part), load_float(p + part.size, part), true);
    }
    default: return real(load_float(p, float_type(t)));
  }
}

// --- integer targets ---------------------------------------------------------------

// An integer target's range: [-min_magnitude, max].
struct IntRange {
  uint64_t min_magnitude;
  uint64_t max;
};

IntRange int_range(const DataType& t) {
  if (t.kind() == DTypeKind::Bool) return {0, 1};
  const unsigned bits = t.integer_bits();
  const uint64_t all = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
  if (!t.is_signed_integer()) return {0, all};
  return {all / 2 + 1, all / 2};
}

// A real number as an integer, truncated toward zero; nullopt for NaN,
// infinities and magnitudes beyond 64 bits.
std::optional<Value> truncated(double d) {
  const double t = std::trunc(d);
  if (!(t >= -9223372036854775808.0 && t < 18446744073709551616.0)) return std::nullopt;
  return t < 0 ? integer(static_cast<int64_t>(t)) : unsigned_integer(static_cast<uint64_t>(t));
}

bool store_integer(Value v, uint8_t* p, const DataType& t) {
  if (v.kind == Value::Kind::Complex && v.im != 0) return false;
  if (v.kind == Value::Kind::Real || v.kind == Value::Kind::Complex) {
    const std::optional<Value> whole = truncated(v.re);
    if (!whole) return false;
    v = *whole;
  }
  const IntRange range = int_range(t);
  const bool inside = v.kind == Value::Kind::Signed ? 0 - static_cast<uint64_t>(v.i) <= range.min_magnitude
                                                    : v.u <= range.max;
  if (!inside) return false;
  // Two's complement bits: the low bytes are the value in any width.
  const uint64_t bits = v.kind == Value::Kind::Signed ? static_cast<uint64_t>(v.i) : v.u;
  switch (t.item_size()) {
    case 1: *p = static_cast<uint8_t>(bits); break;
    case 2: store_unaligned(p, static_cast<uint16_t>(bits)); break;
    case 4: store_unaligned(p, static_cast<uint32_t>(bits)); break;
    default: store_unaligned(p, bits); break;
  }
  return true;
}

// --- float targets -----------------------------------------------------------------

// True when a rounded result keeps what the value was: finite stays finite,
// infinity stays infinity, NaN stays NaN.
bool same_class(double value, double rounded) {
  return std::isnan(value) == std::isnan(rounded) && std::isinf(value) == std::isinf(rounded);
}

// Float16 and the narrower types round from a double: an integer beyond
// 2^53 is far outside their range, so rounding twice changes nothing.
bool store_narrow_float(double d, uint8_t* p, const FloatType& t) {
  if (t.kind == DTypeKind::Float8) {
    *p = dtype_detail::double_to_float8(d, t.format);
    return dtype_detail::float8_represents(d, t.format);
  }
  const uint16_t bits =
      t.kind == DTypeKind::BFloat16 ? dtype_detail::double_to_bfloat16(d) : dtype_detail::double_to_half(d);
  store_unaligned(p, bits);
  return same_class(d, load_float(p, t));
}

// A real value as R (double or float), rounded once: integers by the
// hardware's conversion from 64 bits, doubles to float as numpy rounds.
template <typename R>
R rounded(const Value& v) {
  if (v.kind == Value::Kind::Signed) return static_cast<R>(v.i);
  if (v.kind == Value::Kind::Unsigned) return static_cast<R>(v.u);
  if constexpr (sizeof(R) == sizeof(float)) return dtype_detail::double_to_float(v.re);
  return v.re;
}

// A real value (not complex) into a float type.
bool store_float(const Value& v, uint8_t* p, const FloatType& t) {
  // Integers are finite: only their rounding can overflow.
  const double exact = v.kind == Value::Kind::Real ? v.re : 0;
  if (t.kind == DTypeKind::Float && t.size == 8) {
    store_unaligned(p, rounded<double>(v));
    return true;
  }
  if (t.kind == DTypeKind::Float && t.size == 4) {
    const float f = rounded<float>(v);
    store_unaligned(p, f);
    return same_class(exact, f);
  }
  return store_narrow_float(rounded<double>(v), p, t);
}

bool store(const Value& v, uint8_t* p, const DataType& t) {
  switch (t.kind()) {
    case DTypeKind::Bool:
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt:
    case DTypeKind::Int:
    case DTypeKind::UInt: return store_integer(v, p, t);
    case DTypeKind::Complex: {
      const FloatType part = complex_part(t);
      if (v.kind != Value::Kind::Complex) return store_float(v, p, part) && store_float(real(0), p + part.size, part);
      return store_float(real(v.re), p, part) && store_float(real(v.im), p + part.size, part);
    }
    default:
      if (v.kind == Value::Kind::Complex && v.im != 0) return false;
      return store_float(v.kind == Value::Kind::Complex ? real(v.re) : v, p, float_type(t));
  }
}

std::string value_text(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Signed: return std::to_string(v.i);
    case Value::Kind::Unsigned: return std::to_string(v.u);
    case Value::Kind::Real: return json::python_float_repr(v.re);
    case Value::Kind::Complex: break;
  }
  const std::string im = json::python_float_repr(v.im);
  return "(" + json::python_float_repr(v.re) + (im[0] == '-' ? "" : "+") + im + "j)";
}

}  // namespace

bool is_numeric(const DataType& type) {
  switch (type.kind()) {
    case DTypeKind::Bool:
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::Float:
    case DTypeKind::Complex:
    case DTypeKind::BFloat16:
    case DTypeKind::Float8:
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt: return true;
    default: return false;
  }
}

std::string type_text(const DataType& type) {
  const std::optional<std::string> v3 = type.v3_name();
  return v3 ? *v3 : type.to_v2_json();
}

std::optional<ConversionStop> convert_elements(const uint8_t* in, const DataType& from, uint8_t* out,
                                               const DataType& to, size_t n) {
  const size_t in_size = from.item_size(), out_size = to.item_size();
  for (size_t k = 0; k < n; ++k) {
    const Value v = load(in + k * in_size, from);
    if (!store(v, out + k * out_size, to)) return ConversionStop{k, value_text(v)};
  }
  return std::nullopt;
}

}  // namespace zarr
