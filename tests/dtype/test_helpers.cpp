// The dtype room's internal helpers: half floats, float text, base64, UTF-32.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "dtype/float_text.h"
#include "dtype/text_encoding.h"

namespace zarr::dtype_detail {
namespace {

TEST(HalfFloat, ExactValuesAndRounding) {
  EXPECT_EQ(double_to_half(0.0), 0x0000);
  EXPECT_EQ(double_to_half(-0.0), 0x8000);
  EXPECT_EQ(double_to_half(1.0), 0x3c00);
  EXPECT_EQ(double_to_half(-2.0), 0xc000);
  EXPECT_EQ(double_to_half(65504.0), 0x7bff);
  EXPECT_EQ(double_to_half(65519.99), 0x7bff);
  EXPECT_EQ(double_to_half(65520.0), 0x7c00);  // the tie rounds to even: infinity
  EXPECT_EQ(double_to_half(1e10), 0x7c00);
  EXPECT_EQ(double_to_half(-1e300), 0xfc00);
  EXPECT_EQ(double_to_half(std::ldexp(1.0, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(double_to_half(std::ldexp(1.0, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(double_to_half(std::ldexp(1.0, -25)), 0x0000);  // tie to even
  EXPECT_EQ(double_to_half(std::nextafter(std::ldexp(1.0, -25), 1.0)), 0x0001);
  EXPECT_EQ(double_to_half(std::ldexp(3.0, -25)), 0x0002);  // 1.5 quanta: tie to even (2)
  EXPECT_EQ(double_to_half(std::ldexp(1023.5, -24)), 0x0400);  // subnormal rounds up into the normals
  EXPECT_EQ(double_to_half(2049.0), 0x6800);
  EXPECT_EQ(double_to_half(2051.0), 0x6802);
  EXPECT_EQ(double_to_half(5e-324), 0x0000);
  EXPECT_EQ(double_to_half(std::numeric_limits<double>::infinity()), 0x7c00);
  EXPECT_EQ(double_to_half(std::numeric_limits<double>::quiet_NaN()), 0x7e00);
}

// numpy's NaN rules (npy_double_to_half, npy_half_to_double): the sign and
// the top ten bits of the payload carry over both ways, and a NaN whose
// payload lies only in bits the half drops stays a NaN (0x7c01).
// np.array([x], 'f8').astype('f2').view('u2') and back.
TEST(HalfFloat, NanKeepsSignAndPayloadAsNumpy) {
  auto from_bits = [](uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  };
  auto to_bits = [](double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
  };
  EXPECT_EQ(double_to_half(from_bits(0x7ff8000000000000)), 0x7e00);
  EXPECT_EQ(double_to_half(from_bits(0xfff8000000000000)), 0xfe00);
  EXPECT_EQ(double_to_half(from_bits(0x7ff4000000000000)), 0x7d00);  // signalling, payload kept
  EXPECT_EQ(double_to_half(from_bits(0x7ffc040000000000)), 0x7f01);
  EXPECT_EQ(double_to_half(from_bits(0x7ff0000000000001)), 0x7c01);  // low payload: a NaN, not infinity
  EXPECT_EQ(to_bits(half_to_double(0x7c01)), 0x7ff0040000000000u);
  EXPECT_EQ(to_bits(half_to_double(0xfe00)), 0xfff8000000000000u);
  EXPECT_EQ(to_bits(half_to_double(0x7fff)), 0x7ffffc0000000000u);
}

TEST(HalfFloat, EveryHalfRoundTrips) {
  // NaNs included: their payloads survive half -> double -> half.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double d = half_to_double(static_cast<uint16_t>(bits));
    ASSERT_EQ(double_to_half(d), bits) << std::hex << bits;
  }
  EXPECT_EQ(half_to_double(0x3555), 0.333251953125);
  EXPECT_EQ(half_to_double(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(half_to_double(0xfc00), -std::numeric_limits<double>::infinity());
}

TEST(FloatConversion, OverflowGoesToInfinity) {
  EXPECT_EQ(double_to_float(3.4028235677973362e38), std::numeric_limits<float>::max());
  EXPECT_EQ(double_to_float(3.4028235677973366e38), std::numeric_limits<float>::infinity());
  EXPECT_EQ(double_to_float(-1e300), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(double_to_float(0.1), 0.1f);
  EXPECT_TRUE(std::isnan(double_to_float(std::nan(""))));
}

TEST(PythonRepr, Layouts) {
  EXPECT_EQ(python_float_repr(0.0), "0.0");
  EXPECT_EQ(python_float_repr(-0.0), "-0.0");
  EXPECT_EQ(python_float_repr(1.0), "1.0");
  EXPECT_EQ(python_float_repr(-1.5), "-1.5");
  EXPECT_EQ(python_float_repr(0.0001), "0.0001");
  EXPECT_EQ(python_float_repr(0.00001), "1e-05");
  EXPECT_EQ(python_float_repr(1234567890123456.0), "1234567890123456.0");
  EXPECT_EQ(python_float_repr(1e16), "1e+16");
  EXPECT_EQ(python_float_repr(1.5e300), "1.5e+300");
  EXPECT_EQ(python_float_repr(5e-324), "5e-324");
  EXPECT_EQ(python_float_repr(0.1), "0.1");
  EXPECT_EQ(python_float_repr(100.0), "100.0");
}

std::string b64(const std::string& s) {
  return base64_encode(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

std::string unb64(const std::string& s) {
  const auto b = base64_decode_lenient(s);
  return b ? std::string(b->begin(), b->end()) : "<error>";
}

TEST(Base64, Encode) {
  EXPECT_EQ(b64(""), "");
  EXPECT_EQ(b64("a"), "YQ==");
  EXPECT_EQ(b64("ab"), "YWI=");
  EXPECT_EQ(b64("abc"), "YWJj");
  EXPECT_EQ(b64("abcd"), "YWJjZA==");
  EXPECT_EQ(b64(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(Base64, DecodeLikePython) {
  EXPECT_EQ(unb64(""), "");
  EXPECT_EQ(unb64("YQ=="), "a");
  EXPECT_EQ(unb64("YWI="), "ab");
  EXPECT_EQ(unb64("YWJjZA=="), "abcd");
  EXPECT_EQ(unb64("//4A"), std::string("\xff\xfe\x00", 3));
  // Non-alphabet characters are skipped; decoding stops at the closing pad.
  EXPECT_EQ(unb64(" YW\nI= "), "ab");
  EXPECT_EQ(unb64("YQ==YQ=="), "a");
  EXPECT_EQ(unb64("Y=Q=="), "a");   // a pad after one character is ignored
  EXPECT_EQ(unb64("YWJj="), "abc");  // a stray pad after a full quad too
  EXPECT_EQ(unb64("YQ"), "<error>");  // missing padding
  EXPECT_EQ(unb64("YQ="), "<error>");
  EXPECT_EQ(unb64("Y"), "<error>");   // one character past a quad
  EXPECT_EQ(unb64("YWJjZ"), "<error>");
  EXPECT_EQ(unb64("abc"), "<error>");
  EXPECT_EQ(unb64("YWI=\xc3\xa9"), "<error>");  // Python refuses non-ASCII text
}

TEST(Utf32, Conversions) {
  EXPECT_EQ(utf8_to_utf32("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
            (std::optional<std::vector<uint32_t>>({'a', 0xe9, 0x20ac, 0x1f600})));
  EXPECT_EQ(utf32_to_utf8({'a', 0xe9, 0x20ac, 0x1f600}), std::optional<std::string>("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
  EXPECT_EQ(utf8_to_utf32(std::string("\0", 1)), (std::optional<std::vector<uint32_t>>(std::vector<uint32_t>{0})));
  for (const char* bad : {"\x80", "\xc3", "\xc0\x80", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80",
                          "\xe2\x82", "\xc3\x28"}) {
    EXPECT_FALSE(utf8_to_utf32(bad).has_value()) << bad;
  }
  EXPECT_FALSE(utf32_to_utf8({0xd800}).has_value());
  EXPECT_FALSE(utf32_to_utf8({0x110000}).has_value());
  EXPECT_EQ(utf32_to_utf8({0x10ffff}), std::optional<std::string>("\xf4\x8f\xbf\xbf"));
}

}  // namespace
}  // namespace zarr::dtype_detail
