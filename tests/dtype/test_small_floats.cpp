// Every code of every small float format (the 4-, 6- and 8-bit floats of the
// zarr-extensions registry and of TensorStore) against a reference decoding
// computed here from each format's definition (the registry READMEs: sign,
// exponent and mantissa widths, bias, which codes are NaN and infinity), the
// anchor values of the OCP MX specification, and the encodings back: each
// representable value exactly, every midpoint to even, overflow and
// underflow, and element conversions to and from float64/float32 and between
// every pair of formats.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "dtype/convert.h"
#include "dtype/float8.h"
#include "dtype_test_util.h"

namespace zarr::test {
namespace {

using dtype_detail::double_to_float8;
using dtype_detail::Float8Format;
using dtype_detail::float8_to_double;

enum class Rule { Ieee, AllOnesNan, NegZeroNan, Finite, E8M0 };

// A format's definition as the registry's README gives it.
struct Definition {
  Float8Format format;
  const char* name;
  int e, m, bias;
  bool is_signed;
  Rule rule;
  double max_finite;  // the README's / OCP's largest value, a check of the definition
};

const std::vector<Definition>& definitions() {
  static const std::vector<Definition> kAll = {
      {Float8Format::E4M3FN, "float8_e4m3fn", 4, 3, 7, true, Rule::AllOnesNan, 448},
      {Float8Format::E4M3FNUZ, "float8_e4m3fnuz", 4, 3, 8, true, Rule::NegZeroNan, 240},
      {Float8Format::E4M3B11FNUZ, "float8_e4m3b11fnuz", 4, 3, 11, true, Rule::NegZeroNan, 30},
      {Float8Format::E5M2, "float8_e5m2", 5, 2, 15, true, Rule::Ieee, 57344},
      {Float8Format::E5M2FNUZ, "float8_e5m2fnuz", 5, 2, 16, true, Rule::NegZeroNan, 57344},
      {Float8Format::E4M3, "float8_e4m3", 4, 3, 7, true, Rule::Ieee, 240},
      {Float8Format::E3M4, "float8_e3m4", 3, 4, 3, true, Rule::Ieee, 15.5},
      {Float8Format::E8M0FNU, "float8_e8m0fnu", 8, 0, 127, false, Rule::E8M0, std::ldexp(1.0, 127)},
      {Float8Format::E2M3FN, "float6_e2m3fn", 2, 3, 1, true, Rule::Finite, 7.5},
      {Float8Format::E3M2FN, "float6_e3m2fn", 3, 2, 3, true, Rule::Finite, 28},
      {Float8Format::E2M1FN, "float4_e2m1fn", 2, 1, 1, true, Rule::Finite, 6},
  };
  return kAll;
}

int bits_of(const Definition& d) { return d.e + d.m + (d.is_signed ? 1 : 0); }
int codes_of(const Definition& d) { return 1 << bits_of(d); }

// The value of a code by the definition (NaN for the NaN codes).
double reference(const Definition& d, int code) {
  const int sign_bit = d.is_signed ? 1 << (d.e + d.m) : 0;
  const bool negative = (code & sign_bit) != 0;
  const int exponent = (code >> d.m) & ((1 << d.e) - 1);
  const int mantissa = code & ((1 << d.m) - 1);
  const int top = (1 << d.e) - 1;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (d.rule) {
    case Rule::Ieee:
      if (exponent == top) return mantissa ? nan : (negative ? -HUGE_VAL : HUGE_VAL);
      break;
    case Rule::AllOnesNan:
      if (exponent == top && mantissa == (1 << d.m) - 1) return nan;
      break;
    case Rule::NegZeroNan:
      if (code == sign_bit) return nan;
      break;
    case Rule::E8M0: return code == 0xff ? nan : std::pow(2.0, code - 127);
    case Rule::Finite: break;
  }
  const double magnitude = exponent == 0 ? mantissa * std::pow(2.0, 1 - d.bias - d.m)
                                         : (1 + mantissa / std::pow(2.0, d.m)) * std::pow(2.0, exponent - d.bias);
  return negative ? -magnitude : magnitude;
}

// The finite values of a format, each with its code (one code per value:
// -0 and +0 differ by sign only and map to themselves).
std::vector<std::pair<double, int>> finite_values(const Definition& d) {
  std::vector<std::pair<double, int>> out;
  for (int code = 0; code < codes_of(d); ++code) {
    const double v = reference(d, code);
    if (std::isfinite(v)) out.emplace_back(v, code);
  }
  // -0 before +0, as on the number line.
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return x.first < y.first || (x.first == y.first && std::signbit(x.first) && !std::signbit(y.first));
  });
  return out;
}

TEST(SmallFloats, TheDefinitionsGiveTheDocumentedRanges) {
  for (const Definition& d : definitions()) {
    SCOPED_TRACE(d.name);
    double max = 0;
    for (const auto& [v, code] : finite_values(d)) max = std::max(max, v);
    EXPECT_EQ(max, d.max_finite);
    EXPECT_EQ(dtype_detail::float8_value_bits(d.format), bits_of(d));
    EXPECT_STREQ(dtype_detail::float8_spec(d.format).name, d.name);
    EXPECT_EQ(dtype_detail::float8_format_named(d.name), d.format);
  }
  // OCP MX: E2M1 holds exactly 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives.
  const Definition& e2m1 = definitions().back();
  std::vector<double> positive;
  for (int code = 0; code < 8; ++code) positive.push_back(reference(e2m1, code));
  EXPECT_EQ(positive, (std::vector<double>{0, 0.5, 1, 1.5, 2, 3, 4, 6}));
  EXPECT_EQ(reference(definitions()[8], 1), 0.125);   // e2m3's smallest subnormal
  EXPECT_EQ(reference(definitions()[9], 1), 0.0625);  // e3m2's
  EXPECT_EQ(reference(definitions()[7], 0), std::ldexp(1.0, -127));  // e8m0's smallest
}

TEST(SmallFloats, EveryCodeDecodesToItsDefinition) {
  for (const Definition& d : definitions()) {
    SCOPED_TRACE(d.name);
    for (int code = 0; code < 256; ++code) {
      SCOPED_TRACE(code);
      // Bits above the format's are ignored ("0bXXSEEMMM").
      const double want = reference(d, code & (codes_of(d) - 1));
      const double got = float8_to_double(static_cast<uint8_t>(code), d.format);
      EXPECT_EQ(dtype_detail::float8_is_nan(static_cast<uint8_t>(code), d.format), std::isnan(want));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got));
      } else {
        EXPECT_EQ(got, want);
        EXPECT_EQ(std::signbit(got), std::signbit(want));
      }
    }
  }
}

TEST(SmallFloats, EveryValueEncodesToItsCode) {
  for (const Definition& d : definitions()) {
    SCOPED_TRACE(d.name);
    for (const auto& [v, code] : finite_values(d)) {
      EXPECT_EQ(double_to_float8(v, d.format), code) << v;
      EXPECT_TRUE(dtype_detail::float8_represents(v, d.format)) << v;
      EXPECT_TRUE(dtype_detail::float8_accepts_fill(v, d.format)) << v;
    }
  }
}

// Between neighbouring values the midpoint goes to the even code, anything
// off it to the nearer value.
TEST(SmallFloats, MidpointsRoundToTheEvenCode) {
  for (const Definition& d : definitions()) {
    SCOPED_TRACE(d.name);
    const auto values = finite_values(d);
    for (size_t i = 0; i + 1 < values.size(); ++i) {
      const auto [a, code_a] = values[i];
      const auto [b, code_b] = values[i + 1];
      if (a == b) continue;  // -0 and +0
      const double mid = a + (b - a) / 2;
      const int even = code_a % 2 == 0 ? code_a : code_b;
      const uint8_t got = double_to_float8(mid, d.format);
      // Ties across zero go to zero (+0 where the format has no -0).
      if (a < 0 && b >= 0 && b == 0) {
        EXPECT_EQ(reference(d, got), 0.0) << mid;
      } else {
        EXPECT_EQ(got, even) << mid;
      }
      EXPECT_EQ(double_to_float8(std::nextafter(mid, a), d.format), mid > 0 || a != 0 ? code_a : got) << mid;
      EXPECT_EQ(double_to_float8(std::nextafter(mid, b), d.format), b != 0 ? code_b : got) << mid;
    }
  }
}

// Past the largest finite value: infinity where the format has it, NaN where
// it has NaN, the largest value where it has neither; and none of them is
// representable.
TEST(SmallFloats, OverflowUnderflowAndSpecials) {
  for (const Definition& d : definitions()) {
    SCOPED_TRACE(d.name);
    const auto values = finite_values(d);
    const double max = values.back().first;
    const double below = values[values.size() - 2].first;
    const double past = max + 2 * (max - below);  // past any tie (e8m0: 2^128)
    EXPECT_FALSE(dtype_detail::float8_represents(past, d.format));
    const double decoded = float8_to_double(double_to_float8(past, d.format), d.format);
    switch (d.rule) {
      case Rule::Ieee: EXPECT_EQ(decoded, HUGE_VAL); break;
      case Rule::Finite: EXPECT_EQ(decoded, max); break;
      default: EXPECT_TRUE(std::isnan(decoded));
    }
    EXPECT_EQ(dtype_detail::float8_has_nan(d.format), d.rule != Rule::Finite);
    EXPECT_EQ(dtype_detail::float8_has_infinity(d.format), d.rule == Rule::Ieee);
    EXPECT_EQ(dtype_detail::float8_represents(NAN, d.format), d.rule != Rule::Finite);
    EXPECT_EQ(dtype_detail::float8_represents(HUGE_VAL, d.format), d.rule == Rule::Ieee);
    EXPECT_EQ(dtype_detail::float8_accepts_fill(NAN, d.format), d.rule != Rule::Finite);
    EXPECT_EQ(dtype_detail::float8_accepts_fill(past, d.format), d.rule != Rule::Finite && d.rule != Rule::E8M0);
    EXPECT_EQ(dtype_detail::float8_represents(0.0, d.format), d.rule != Rule::E8M0);
    EXPECT_EQ(dtype_detail::float8_represents(-1.0, d.format), d.is_signed);
  }
  // The registry's "NaN" fill values.
  EXPECT_EQ(dtype_detail::float8_canonical_nan(Float8Format::E4M3), 0x7c);
  EXPECT_EQ(dtype_detail::float8_canonical_nan(Float8Format::E3M4), 0x78);
  EXPECT_EQ(dtype_detail::float8_canonical_nan(Float8Format::E8M0FNU), 0xff);
  // e8m0fnu: no zero, no negatives; ties between powers of two go to the even exponent field.
  EXPECT_EQ(double_to_float8(0.0, Float8Format::E8M0FNU), 0xff);
  EXPECT_EQ(double_to_float8(-2.0, Float8Format::E8M0FNU), 0xff);
  EXPECT_EQ(double_to_float8(1.5, Float8Format::E8M0FNU), 128);   // 1 = code 127 (odd), 2 = 128
  EXPECT_EQ(double_to_float8(3.0, Float8Format::E8M0FNU), 128);   // 2 = code 128 (even), 4 = 129
  EXPECT_EQ(double_to_float8(std::ldexp(1.0, -127), Float8Format::E8M0FNU), 0x00);
  EXPECT_FALSE(dtype_detail::float8_represents(std::ldexp(1.0, -130), Float8Format::E8M0FNU));
}

DataType small_float(const Definition& d) {
  rapidjson::Document doc = json::parse("\"" + std::string(d.name) + "\"", "test");
  return DataType::parse_v3(doc, "test");
}

DataType named(const char* v3) {
  rapidjson::Document doc = json::parse(std::string("\"") + v3 + "\"", "test");
  return DataType::parse_v3(doc, "test");
}

// Whether `want` converts into the format `d` (convert.h: values round to
// nearest; NaN and infinities pass where the target has them; a value that
// rounds past the largest finite one, or for e8m0fnu to zero, does not).
bool converts(const Definition& d, double want) {
  if (std::isnan(want)) return d.rule != Rule::Finite;
  if (std::isinf(want)) return d.rule == Rule::Ieee;
  const auto values = finite_values(d);
  const auto [max, max_code] = values.back();
  const double ulp = d.m == 0 ? max : max - values[values.size() - 2].first;
  const double edge = max + ulp / 2;
  if (std::fabs(want) > edge || (std::fabs(want) == edge && max_code % 2 == 1)) return false;
  if (d.rule != Rule::E8M0) return true;
  const double smallest = values.front().first;
  return want > smallest / 2;
}

// The code nearest to `want` by brute force, ties to the even code.
double nearest(const Definition& d, double want) {
  double best = 0, best_distance = HUGE_VAL;
  int best_code = -1;
  for (const auto& [v, code] : finite_values(d)) {
    const double distance = std::fabs(v - want);
    if (distance < best_distance || (distance == best_distance && code % 2 == 0 && best_code % 2 == 1)) {
      best = v, best_distance = distance, best_code = code;
    }
  }
  return best;
}

// zarr_read_region_as / write_region_as's element conversion: every code to
// float64 and float32 exactly and back to the same code, and into every other
// small float: to the nearest value (ties to even) or reported as not
// representable exactly when converts() says so.
TEST(SmallFloats, ConversionsOfEveryValue) {
  const DataType f64 = named("float64"), f32 = named("float32");
  for (const Definition& d : definitions()) {
    SCOPED_TRACE(d.name);
    const DataType t = small_float(d);
    for (int code = 0; code < codes_of(d); ++code) {
      SCOPED_TRACE(code);
      const uint8_t in = static_cast<uint8_t>(code);
      const double want = reference(d, code);
      double wide = 0;
      ASSERT_FALSE(convert_elements(&in, t, reinterpret_cast<uint8_t*>(&wide), f64, 1));
      EXPECT_TRUE(std::isnan(want) ? std::isnan(wide) : wide == want) << wide;
      float narrow = 0;
      // e8m0's 2^127 and 2^-127 are float32 values too.
      ASSERT_FALSE(convert_elements(&in, t, reinterpret_cast<uint8_t*>(&narrow), f32, 1));
      EXPECT_TRUE(std::isnan(want) ? std::isnan(narrow) : narrow == want) << narrow;
      uint8_t back = 0xaa;
      ASSERT_FALSE(convert_elements(reinterpret_cast<const uint8_t*>(&wide), f64, &back, t, 1));
      if (!std::isnan(want)) {
        EXPECT_EQ(back, code);
      }
      for (const Definition& other : definitions()) {
        uint8_t out = 0;
        const bool stopped = convert_elements(&in, t, &out, small_float(other), 1).has_value();
        EXPECT_EQ(stopped, !converts(other, want)) << other.name;
        if (stopped || !std::isfinite(want)) continue;
        EXPECT_EQ(reference(other, out), nearest(other, want)) << other.name;
      }
    }
  }
}

}  // namespace
}  // namespace zarr::test
