// The small float formats of ml_dtypes that TensorStore and zarrs store in
// Zarr, each one element per byte: the 8-bit floats ("float8_e4m3fn", ...,
// "float8_e8m0fnu"), the 6-bit ("float6_e2m3fn", "float6_e3m2fn") and the
// 4-bit one ("float4_e2m1fn") in the low bits of their byte. Their parameters
// and exact conversions to and from double: one generic converter serves all,
// a format being described by its field widths, exponent bias and how it
// spends codes on NaN and infinity. (The names keep "float8" from when the
// 8-bit floats were the only ones.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace zarr::dtype_detail {

enum class Float8Format : uint8_t {
  E4M3FN, E4M3FNUZ, E4M3B11FNUZ, E5M2, E5M2FNUZ,  // TensorStore's first five
  E4M3, E3M4, E8M0FNU,                            // more 8-bit floats of the registry
  E2M3FN, E3M2FN,                                 // 6-bit
  E2M1FN,                                         // 4-bit
};
inline constexpr int kFloat8FormatCount = 11;

// Which codes a format gives to NaN (and infinity).
enum class Float8Specials : uint8_t {
  Ieee,               // e5m2, e4m3, e3m4: exponent all ones is infinity (mantissa 0) or NaN
  AllOnesIsNan,       // "fn": only exponent and mantissa all ones is NaN; no infinity
  NegativeZeroIsNan,  // "fnuz": the would-be -0 is the only NaN; no infinity
  FiniteOnly,         // the 4- and 6-bit "fn" formats: every code is a number
  UnsignedAllOnesIsNan,  // e8m0fnu: no sign, no zero, no subnormals; all ones is NaN
};

struct Float8Spec {
  const char* name;  // ml_dtypes' / TensorStore's name, also the v2 and v3 name
  int exponent_bits;
  int mantissa_bits;
  int bias;
  Float8Specials specials;
  bool is_signed;  // a sign bit above the exponent (all but e8m0fnu)
};

const Float8Spec& float8_spec(Float8Format format);

// The format named `name` ("float8_e5m2", "float4_e2m1fn", ...), or std::nullopt.
std::optional<Float8Format> float8_format_named(const std::string& name);

// The bits of a code that carry the value (4, 6 or 8); bits above them are
// ignored on reading (the registry's "0bXXSEEMMM") and written as 0.
int float8_value_bits(Float8Format format);
bool float8_has_nan(Float8Format format);
bool float8_has_infinity(Float8Format format);

// The NaN ml_dtypes gives for float("nan") and the registry's "NaN" fill
// value: 0x7e for e5m2, 0x7f for e4m3fn, 0x80 for the fnuz formats, 0x7c for
// e4m3, 0x78 for e3m4, 0xff for e8m0fnu. 0 (a number) for the formats
// without NaN: check float8_has_nan first.
uint8_t float8_canonical_nan(Float8Format format);

// Round a double to the nearest code (ties to even) in one step, as ml_dtypes
// casts. Magnitudes that round past the largest finite value become infinity
// where the format has one (e5m2, e4m3, e3m4), NaN where it has NaN but no
// infinity, and the largest finite value of that sign in the formats without
// NaN (saturation); infinities likewise. NaN keeps its sign where the format
// has signed NaNs (e4m3fn: 0xff; e5m2: 0xfe) and gives +0 in the formats
// without NaN. The fnuz formats have no negative zero: -0.0 and negative
// values that round to zero give 0x00. e8m0fnu has neither zero nor
// negative values: those (and values below 2^-127 that would round to zero)
// give its NaN.
uint8_t double_to_float8(double value, Float8Format format);

// True when double_to_float8 keeps what the value is: a finite value rounds
// to a finite code (no overflow; for e8m0fnu no zero, negative or underflow),
// NaN and infinities where the format has them.
bool float8_represents(double value, Float8Format format);

// The numbers a fill value may give: any the format represents, and (as
// ml_dtypes casts) a NaN, an infinity or a value past the range of a format
// that has NaN, which becomes its NaN or infinity (v2 readers rely on this);
// never one a format without NaN would saturate or lose, nor zero or a
// negative number for e8m0fnu.
bool float8_accepts_fill(double value, Float8Format format);

// Exact widening of a code to a double (every code is a dyadic rational well
// inside double's range). Bits above float8_value_bits are ignored.
double float8_to_double(uint8_t code, Float8Format format);

// True for the codes that decode to NaN.
bool float8_is_nan(uint8_t code, Float8Format format);

}  // namespace zarr::dtype_detail
