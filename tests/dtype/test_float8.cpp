// The 8-bit float conversions against the parameters ml_dtypes documents for
// each format: every one of the 256 codes, every rounding midpoint, overflow,
// NaN and infinity.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "dtype/float8.h"
#include "dtype/float_text.h"

namespace zarr::test {
namespace {

using dtype_detail::double_to_float8;
using dtype_detail::Float8Format;
using dtype_detail::float8_to_double;

// What ml_dtypes' finfo and documentation give for a format.
struct Expected {
  Float8Format format;
  const char* name;
  int mantissa_bits;
  double smallest_subnormal;
  double smallest_normal;
  double max_finite;
  uint8_t max_finite_code;
  std::vector<uint8_t> nan_codes;
  bool has_infinity;  // then 0x7c / 0xfc (e5m2 only)
  bool has_negative_zero;
  uint8_t one_code;   // the code of 1.0
};

const std::vector<Expected>& formats() {
  static const std::vector<Expected> kFormats = {
      {Float8Format::E4M3FN, "float8_e4m3fn", 3, std::ldexp(1.0, -9), std::ldexp(1.0, -6), 448.0, 0x7e,
       {0x7f, 0xff}, false, true, 0x38},
      {Float8Format::E4M3FNUZ, "float8_e4m3fnuz", 3, std::ldexp(1.0, -10), std::ldexp(1.0, -7), 240.0, 0x7f,
       {0x80}, false, false, 0x40},
      {Float8Format::E4M3B11FNUZ, "float8_e4m3b11fnuz", 3, std::ldexp(1.0, -13), std::ldexp(1.0, -10), 30.0, 0x7f,
       {0x80}, false, false, 0x58},
      {Float8Format::E5M2, "float8_e5m2", 2, std::ldexp(1.0, -16), std::ldexp(1.0, -14), 57344.0, 0x7b,
       {0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff}, true, true, 0x3c},
      {Float8Format::E5M2FNUZ, "float8_e5m2fnuz", 2, std::ldexp(1.0, -17), std::ldexp(1.0, -15), 57344.0, 0x7f,
       {0x80}, false, false, 0x40},
  };
  return kFormats;
}

bool is_listed_nan(const Expected& e, int code) {
  for (uint8_t n : e.nan_codes) {
    if (n == code) return true;
  }
  return false;
}

// The positive finite values in increasing order, built from the documented
// parameters alone: subnormals k * smallest_subnormal, then each binade of
// 2^mantissa_bits values, up to the largest finite value.
std::vector<double> positive_values(const Expected& e) {
  std::vector<double> values;
  const int per_binade = 1 << e.mantissa_bits;
  for (int k = 0; k < per_binade; ++k) values.push_back(k * e.smallest_subnormal);
  for (double binade = e.smallest_normal; values.back() < e.max_finite; binade *= 2) {
    for (int k = 0; k < per_binade && values.back() < e.max_finite; ++k) {
      values.push_back(binade + k * binade / per_binade);
    }
  }
  return values;
}

TEST(Float8, NamesRoundTrip) {
  for (const Expected& e : formats()) {
    EXPECT_STREQ(dtype_detail::float8_spec(e.format).name, e.name);
    EXPECT_EQ(dtype_detail::float8_format_named(e.name), e.format);
  }
  EXPECT_FALSE(dtype_detail::float8_format_named("float8_e6m1"));
  EXPECT_FALSE(dtype_detail::float8_format_named("float8"));
}

TEST(Float8, EveryCodeDecodesToTheDocumentedValue) {
  for (const Expected& e : formats()) {
    SCOPED_TRACE(e.name);
    const std::vector<double> values = positive_values(e);
    ASSERT_EQ(values.size(), static_cast<size_t>(e.max_finite_code) + 1);
    EXPECT_EQ(float8_to_double(e.one_code, e.format), 1.0);
    EXPECT_EQ(float8_to_double(0x01, e.format), e.smallest_subnormal);
    EXPECT_EQ(float8_to_double(e.max_finite_code, e.format), e.max_finite);
    for (int code = 0; code < 256; ++code) {
      SCOPED_TRACE(code);
      const auto c = static_cast<uint8_t>(code);
      const double decoded = float8_to_double(c, e.format);
      const int magnitude = code & 0x7f;
      const bool negative = code >= 0x80;
      EXPECT_EQ(dtype_detail::float8_is_nan(c, e.format), is_listed_nan(e, code));
      if (is_listed_nan(e, code)) {
        EXPECT_TRUE(std::isnan(decoded));
      } else if (magnitude <= e.max_finite_code) {
        EXPECT_EQ(decoded, negative ? -values[magnitude] : values[magnitude]);
        EXPECT_EQ(std::signbit(decoded), negative);  // -0.0 where the format has it
      } else {
        ASSERT_TRUE(e.has_infinity);
        EXPECT_EQ(magnitude, 0x7c);
        EXPECT_EQ(decoded, negative ? -HUGE_VAL : HUGE_VAL);
      }
    }
  }
}

// e5m2 is the top byte of IEEE binary16: an independent check of every code.
TEST(Float8, E5M2IsTheTopByteOfHalf) {
  for (int code = 0; code < 256; ++code) {
    const double via_half = dtype_detail::half_to_double(static_cast<uint16_t>(code << 8));
    const double direct = float8_to_double(static_cast<uint8_t>(code), Float8Format::E5M2);
    if (std::isnan(via_half)) {
      EXPECT_TRUE(std::isnan(direct)) << code;
    } else {
      EXPECT_EQ(direct, via_half) << code;
    }
  }
}

// And rounding every half to e5m2 is rounding its low byte away, ties to even
// (what ml_dtypes does casting float16 to float8_e5m2).
TEST(Float8, E5M2RoundsEveryHalfToNearestEven) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double value = dtype_detail::half_to_double(static_cast<uint16_t>(bits));
    if (std::isnan(value)) continue;
    uint32_t kept = bits >> 8;
    const uint32_t rest = bits & 0xff;
    if (rest > 0x80 || (rest == 0x80 && (kept & 1u))) ++kept;  // the carry into 0x7c is infinity
    ASSERT_EQ(double_to_float8(value, Float8Format::E5M2), kept) << std::hex << bits;
  }
}

TEST(Float8, EveryNonNanCodeRoundTrips) {
  for (const Expected& e : formats()) {
    for (int code = 0; code < 256; ++code) {
      if (is_listed_nan(e, code)) continue;
      const auto c = static_cast<uint8_t>(code);
      ASSERT_EQ(double_to_float8(float8_to_double(c, e.format), e.format), c) << e.name << " " << code;
      // And through the text a fill value is written as.
      const double reparsed = std::stod(dtype_detail::python_float_repr(float8_to_double(c, e.format)));
      if (std::isfinite(reparsed)) {
        ASSERT_EQ(double_to_float8(reparsed, e.format), c) << e.name << " " << code;
      }
    }
  }
}

// Between two neighbouring codes: the midpoint goes to the even code, anything
// off it to the nearer one; the same for negative values.
TEST(Float8, MidpointsRoundToEven) {
  for (const Expected& e : formats()) {
    SCOPED_TRACE(e.name);
    for (int low = 0; low < e.max_finite_code; ++low) {
      const double a = float8_to_double(static_cast<uint8_t>(low), e.format);
      const double b = float8_to_double(static_cast<uint8_t>(low + 1), e.format);
      const double mid = (a + b) / 2;
      const int even = low % 2 == 0 ? low : low + 1;
      EXPECT_EQ(double_to_float8(mid, e.format), even) << mid;
      EXPECT_EQ(double_to_float8(std::nextafter(mid, 0.0), e.format), low) << mid;
      EXPECT_EQ(double_to_float8(std::nextafter(mid, HUGE_VAL), e.format), low + 1) << mid;
      const int negative_even = even == 0 && !e.has_negative_zero ? 0 : 0x80 | even;
      EXPECT_EQ(double_to_float8(-mid, e.format), negative_even) << -mid;
      EXPECT_EQ(double_to_float8(-std::nextafter(mid, HUGE_VAL), e.format), 0x80 | (low + 1)) << -mid;
    }
  }
}

uint8_t overflow_code(const Expected& e, bool negative) {
  if (e.has_infinity) return negative ? 0xfc : 0x7c;
  return dtype_detail::double_to_float8(negative ? -NAN : NAN, e.format);
}

// Past the largest finite value ml_dtypes gives infinity (e5m2) or NaN.
TEST(Float8, OverflowGivesInfinityOrNan) {
  for (const Expected& e : formats()) {
    SCOPED_TRACE(e.name);
    const double ulp = e.max_finite - float8_to_double(static_cast<uint8_t>(e.max_finite_code - 1), e.format);
    const double tie = e.max_finite + ulp / 2;
    // The tie rounds to even: down to the largest value only when its code is even.
    const bool tie_stays = e.max_finite_code % 2 == 0;
    EXPECT_EQ(double_to_float8(tie, e.format), tie_stays ? e.max_finite_code : overflow_code(e, false));
    EXPECT_EQ(double_to_float8(std::nextafter(tie, 0.0), e.format), e.max_finite_code);
    EXPECT_EQ(double_to_float8(std::nextafter(tie, HUGE_VAL), e.format), overflow_code(e, false));
    EXPECT_EQ(double_to_float8(-std::nextafter(tie, HUGE_VAL), e.format), overflow_code(e, true));
    EXPECT_EQ(double_to_float8(1e300, e.format), overflow_code(e, false));
    EXPECT_EQ(double_to_float8(HUGE_VAL, e.format), overflow_code(e, false));
    EXPECT_EQ(double_to_float8(-HUGE_VAL, e.format), overflow_code(e, true));
  }
  // The codes themselves, as ml_dtypes gives them.
  EXPECT_EQ(double_to_float8(HUGE_VAL, Float8Format::E4M3FN), 0x7f);
  EXPECT_EQ(double_to_float8(-HUGE_VAL, Float8Format::E4M3FN), 0xff);
  EXPECT_EQ(double_to_float8(464.0, Float8Format::E4M3FN), 0x7e);  // tie, even code: stays 448
  EXPECT_EQ(double_to_float8(465.0, Float8Format::E4M3FN), 0x7f);
  EXPECT_EQ(double_to_float8(-HUGE_VAL, Float8Format::E4M3FNUZ), 0x80);
  EXPECT_EQ(double_to_float8(248.0, Float8Format::E4M3FNUZ), 0x80);  // tie, odd code: up, past 240
  EXPECT_EQ(double_to_float8(31.0, Float8Format::E4M3B11FNUZ), 0x80);
  EXPECT_EQ(double_to_float8(61440.0, Float8Format::E5M2), 0x7c);
  EXPECT_EQ(double_to_float8(-61440.0, Float8Format::E5M2FNUZ), 0x80);
}

TEST(Float8, NanAndZeros) {
  EXPECT_EQ(dtype_detail::float8_canonical_nan(Float8Format::E4M3FN), 0x7f);
  EXPECT_EQ(dtype_detail::float8_canonical_nan(Float8Format::E5M2), 0x7e);
  EXPECT_EQ(dtype_detail::float8_canonical_nan(Float8Format::E4M3FNUZ), 0x80);
  EXPECT_EQ(dtype_detail::float8_canonical_nan(Float8Format::E4M3B11FNUZ), 0x80);
  EXPECT_EQ(dtype_detail::float8_canonical_nan(Float8Format::E5M2FNUZ), 0x80);
  EXPECT_EQ(double_to_float8(-NAN, Float8Format::E4M3FN), 0xff);
  EXPECT_EQ(double_to_float8(-NAN, Float8Format::E5M2), 0xfe);
  EXPECT_EQ(double_to_float8(-NAN, Float8Format::E5M2FNUZ), 0x80);
  for (const Expected& e : formats()) {
    SCOPED_TRACE(e.name);
    EXPECT_EQ(double_to_float8(NAN, e.format), dtype_detail::float8_canonical_nan(e.format));
    EXPECT_EQ(double_to_float8(0.0, e.format), 0x00);
    EXPECT_EQ(double_to_float8(-0.0, e.format), e.has_negative_zero ? 0x80 : 0x00);
    // Below half the smallest subnormal: zero, signed where the format can.
    EXPECT_EQ(double_to_float8(-e.smallest_subnormal / 4, e.format), e.has_negative_zero ? 0x80 : 0x00);
    EXPECT_EQ(double_to_float8(std::numeric_limits<double>::denorm_min(), e.format), 0x00);
    EXPECT_EQ(double_to_float8(e.smallest_subnormal * 0.75, e.format), 0x01);
    // The largest subnormal rounds up into the smallest normal.
    EXPECT_EQ(double_to_float8(e.smallest_normal - e.smallest_subnormal / 4, e.format), 1 << e.mantissa_bits);
  }
}

}  // namespace
}  // namespace zarr::test
