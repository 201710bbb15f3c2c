// Exact numeric values of the real data types (integers of any width, the
// sub-byte integers, float16/32/64, bfloat16 and the small floats) and their
// rounding into another such type by an explicit rule: what the registry's
// cast_value and scale_offset codecs compute with.
//
// A value is held as a long double, which holds every value of these types
// exactly (64-bit integers included), so a cast rounds once, from the exact
// value, by the rounding mode asked for.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "dtype/data_type.h"

namespace zarr::codecs {

static_assert(std::numeric_limits<long double>::digits >= 64,
              "numeric_cast needs a long double that holds every 64-bit integer exactly");

// cast_value's "rounding" and "out_of_range".
enum class Rounding { NearestEven, TowardsZero, TowardsPositive, TowardsNegative, NearestAway };
enum class OutOfRange { Fail, Clamp, Wrap };

// The types these hold: integers (Int, UInt, SubByteInt, SubByteUInt) and
// floats (Float, BFloat16, Float8).
bool is_real_numeric(const DataType& t);
bool is_integral(const DataType& t);

// The value of the item at p (native byte order), exactly.
long double load_real(const uint8_t* p, const DataType& t);

// Why a value could not be cast (nullopt from cast_real): the value is NaN or
// an infinity and `t` has no such value, or it lies outside t's range and
// `out_of_range` is Fail.
// Otherwise the value of `t` that `v` becomes: rounded by `rounding`
// (integers: to a whole number; floats: to t's precision, subnormals
// included), then, outside t's range, clamped (floats with infinities: to
// the infinity of its sign) or wrapped modulo 2^bits (integers only; Wrap
// acts as Fail on a float). NaN stays NaN, infinities stay infinities and
// zero keeps its sign where t has them.
std::optional<long double> cast_real(long double v, const DataType& t, Rounding rounding, OutOfRange out_of_range);

// Store a value `t` holds (what cast_real gives) at p, native byte order.
void store_real(long double v, uint8_t* p, const DataType& t);

// A value for messages ("NaN", "-inf", "300", "0.1").
std::string real_text(long double v);

}  // namespace zarr::codecs
