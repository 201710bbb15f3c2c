// The 8-bit float formats of ml_dtypes that TensorStore stores in Zarr
// ("float8_e4m3fn", ...): their parameters and exact conversions to and from
// double. One generic converter serves all five; a format is described by its
// field widths, exponent bias and how it spends codes on NaN and infinity.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace zarr::dtype_detail {

enum class Float8Format : uint8_t { E4M3FN, E4M3FNUZ, E4M3B11FNUZ, E5M2, E5M2FNUZ };

// Which codes a format gives to NaN (and infinity).
enum class Float8Specials : uint8_t {
  Ieee,            // e5m2: exponent all ones is infinity (mantissa 0) or NaN
  AllOnesIsNan,    // "fn": only exponent and mantissa all ones is NaN; no infinity
  NegativeZeroIsNan,  // "fnuz": 0x80 (the would-be -0) is the only NaN; no infinity
};

struct Float8Spec {
  const char* name;  // ml_dtypes' / TensorStore's name, also the v2 and v3 name
  int exponent_bits;
  int mantissa_bits;
  int bias;
  Float8Specials specials;
};

const Float8Spec& float8_spec(Float8Format format);

// The format named `name` ("float8_e5m2", ...), or std::nullopt.
std::optional<Float8Format> float8_format_named(const std::string& name);

// The NaN ml_dtypes gives for float("nan"): 0x7e for e5m2, 0x7f for e4m3fn,
// 0x80 for the fnuz formats. It is the spec's "NaN" fill value.
uint8_t float8_canonical_nan(Float8Format format);

// Round a double to the nearest code (ties to even) in one step, as ml_dtypes
// casts. Magnitudes that round past the largest finite value become infinity
// where the format has one (e5m2) and NaN otherwise; infinities likewise
// (NaN in the formats without infinity). NaN keeps its sign where the format
// has signed NaNs (e4m3fn: 0xff; e5m2: 0xfe). The fnuz formats have no
// negative zero: -0.0 and negative values that round to zero give 0x00.
uint8_t double_to_float8(double value, Float8Format format);

// Exact widening of a code to a double (every code is a dyadic rational well
// inside double's range).
double float8_to_double(uint8_t code, Float8Format format);

// True for the codes that decode to NaN.
bool float8_is_nan(uint8_t code, Float8Format format);

}  // namespace zarr::dtype_detail
