// v3 fill values: every form the spec and the extension types allow, what
// zarr-python 3 writes back, and every rejection.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "dtype/bfloat16.h"
#include "dtype/byte_order.h"
#include "dtype_test_util.h"

namespace zarr::test {
namespace {

const char* kFill3Where = "a/zarr.json: field 'fill_value'";

DataType v3type(const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return DataType::parse_v3(doc, "data_type");
}

Bytes fill3(const DataType& t, const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return t.parse_fill_value_v3(doc, kFill3Where);
}

template <typename T>
Bytes bytes_of(T value) {
  Bytes b(sizeof value);
  std::memcpy(b.data(), &value, sizeof value);
  return b;
}

template <typename T>
T value_of(const Bytes& b) {
  EXPECT_EQ(b.size(), sizeof(T));
  T v{};
  if (b.size() == sizeof(T)) std::memcpy(&v, b.data(), sizeof v);
  return v;
}

void expect_bad(const DataType& t, const std::string& json_text, const std::string& says = "") {
  SCOPED_TRACE(json_text);
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(t, json_text); }, {kFill3Where, "fill_value", says});
}

// JSON -> bytes -> JSON gives `written` back.
void expect_written(const DataType& t, const std::string& json_text, const std::string& written) {
  EXPECT_EQ(t.fill_value_to_v3_json(fill3(t, json_text)), written) << t.to_v3_json() << " " << json_text;
}

TEST(FillValueV3, Bool) {
  const DataType t = v3type("\"bool\"");
  EXPECT_EQ(fill3(t, "true"), Bytes{1});
  EXPECT_EQ(fill3(t, "false"), Bytes{0});
  expect_written(t, "true", "true");
  expect_written(t, "false", "false");
  // The spec allows JSON booleans only (v2 readers also took 0 and 1).
  for (const char* bad : {"0", "1", "\"true\"", "[true]", "{}", "null"}) expect_bad(t, bad);
}

TEST(FillValueV3, IntegersAtTheirLimits) {
  EXPECT_EQ(value_of<int8_t>(fill3(v3type("\"int8\""), "-128")), -128);
  EXPECT_EQ(value_of<int8_t>(fill3(v3type("\"int8\""), "127")), 127);
  EXPECT_EQ(value_of<uint8_t>(fill3(v3type("\"uint8\""), "255")), 255);
  EXPECT_EQ(value_of<int16_t>(fill3(v3type("\"int16\""), "-32768")), -32768);
  EXPECT_EQ(value_of<uint16_t>(fill3(v3type("\"uint16\""), "65535")), 65535);
  EXPECT_EQ(value_of<int32_t>(fill3(v3type("\"int32\""), "-2147483648")), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(value_of<uint32_t>(fill3(v3type("\"uint32\""), "4294967295")), 4294967295u);
  EXPECT_EQ(value_of<int64_t>(fill3(v3type("\"int64\""), "-9223372036854775808")), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(value_of<int64_t>(fill3(v3type("\"int64\""), "9223372036854775807")), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(value_of<uint64_t>(fill3(v3type("\"uint64\""), "18446744073709551615")), ~uint64_t{0});
  EXPECT_EQ(value_of<int16_t>(fill3(v3type("\"int16\""), "-0")), 0);

  const struct {
    const char* type;
    const char* value;
    const char* says;
  } bad[] = {
      {"int8", "128", "[-128, 127]"},
      {"int8", "-129", "[-128, 127]"},
      {"uint8", "256", "[0, 255]"},
      {"uint8", "-1", "[0, 255]"},
      {"int16", "32768", "[-32768, 32767]"},
      {"uint16", "65536", "[0, 65535]"},
      {"int32", "2147483648", "range"},
      {"uint32", "4294967296", "range"},
      {"int64", "9223372036854775808", "[-9223372036854775808, 9223372036854775807]"},
      {"uint64", "-1", "[0, 18446744073709551615]"},
      {"uint64", "18446744073709551616", "range"},
      {"int64", "-9223372036854775809", "range"},
      {"int32", "1.0", "no fraction or exponent"},
      {"int32", "1e3", "no fraction or exponent"},
      {"int32", "1.5", "no fraction or exponent"},
      {"int32", "\"1\"", "integer"},
      {"int32", "true", "integer"},
      {"int32", "\"NaN\"", "integer"},
      {"int32", "[1]", "integer"},
      {"int32", "null", "null"},
  };
  for (const auto& c : bad) {
    SCOPED_TRACE(std::string(c.type) + " " + c.value);
    expect_bad(v3type(std::string("\"") + c.type + "\""), c.value, c.says);
  }
  expect_written(v3type("\"int8\""), "-128", "-128");
  expect_written(v3type("\"uint64\""), "18446744073709551615", "18446744073709551615");
  expect_written(v3type("\"int64\""), "-9223372036854775808", "-9223372036854775808");
}

TEST(FillValueV3, FloatNumbersRoundToNearest) {
  EXPECT_EQ(value_of<uint32_t>(fill3(v3type("\"float32\""), "0.1")), 0x3dcccccdu);
  EXPECT_EQ(value_of<double>(fill3(v3type("\"float64\""), "0.1")), 0.1);
  EXPECT_EQ(value_of<uint16_t>(fill3(v3type("\"float16\""), "0.1")), 0x2e66u);
  EXPECT_EQ(value_of<uint16_t>(fill3(v3type("\"float16\""), "65520")), 0x7c00u);  // rounds to infinity
  EXPECT_EQ(value_of<uint16_t>(fill3(v3type("\"float16\""), "1")), 0x3c00u);     // a JSON integer is a number
  EXPECT_EQ(value_of<double>(fill3(v3type("\"float64\""), "18446744073709551615")), 18446744073709551615.0);
  EXPECT_TRUE(std::signbit(value_of<double>(fill3(v3type("\"float64\""), "-0.0"))));
  EXPECT_EQ(value_of<uint32_t>(fill3(v3type("\"float32\""), "1e39")), 0x7f800000u);
}

TEST(FillValueV3, FloatSpecialStringsAndBitPatterns) {
  const struct {
    const char* type;
    const char* value;
    const char* bits;  // native bytes, little-endian hex on the test host
  } cases[] = {
      {"float16", "\"NaN\"", "007e"},
      {"float32", "\"NaN\"", "0000c07f"},
      {"float64", "\"NaN\"", "000000000000f87f"},
      {"bfloat16", "\"NaN\"", "c07f"},
      {"float16", "\"Infinity\"", "007c"},
      {"float32", "\"-Infinity\"", "000080ff"},
      {"float64", "\"Infinity\"", "000000000000f07f"},
      {"bfloat16", "\"-Infinity\"", "80ff"},
      {"float32", "\"0x7fc00000\"", "0000c07f"},
      {"float32", "\"0x7FC00001\"", "0100c07f"},
      {"float32", "\"0x3f800000\"", "0000803f"},
      {"float16", "\"0x7e01\"", "017e"},
      {"float64", "\"0x7ff8000000000001\"", "010000000000f87f"},
      {"bfloat16", "\"0x3f80\"", "803f"},
  };
  if (dtype_detail::host_is_big_endian()) GTEST_SKIP() << "expected bytes are written for little-endian hosts";
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.type) + " " + c.value);
    EXPECT_EQ(hex(fill3(v3type(std::string("\"") + c.type + "\""), c.value)), c.bits);
  }
}

TEST(FillValueV3, FloatRejections) {
  for (const char* type : {"\"float16\"", "\"float32\"", "\"float64\"", "\"bfloat16\""}) {
    const DataType t = v3type(type);
    SCOPED_TRACE(type);
    for (const char* bad : {"\"nan\"", "\"inf\"", "\"+Infinity\"", "\"1.5\"", "true", "[1.0]", "{}", "null", "\"0x\"",
                            "\"0x7fc0000g\"", "\"0X7fc00000\"", "\"0x7fc00000 \""}) {
      expect_bad(t, bad);
    }
    // A bit pattern must have exactly the type's width.
    const std::string wrong = t.item_size() == 4 ? "\"0x7e00\"" : "\"0x7fc00000\"";
    expect_bad(t, wrong, "hex digits");
  }
}

TEST(FillValueV3, FloatsAsZarrPythonWritesThem) {
  expect_written(v3type("\"float32\""), "0.1", "0.10000000149011612");
  expect_written(v3type("\"float64\""), "0", "0.0");
  expect_written(v3type("\"float64\""), "-0.0", "-0.0");
  expect_written(v3type("\"float64\""), "1e-5", "1e-05");
  expect_written(v3type("\"float64\""), "1e16", "1e+16");
  expect_written(v3type("\"float64\""), "123", "123.0");
  expect_written(v3type("\"float16\""), "0.1", "0.0999755859375");
  expect_written(v3type("\"float32\""), "\"NaN\"", "\"NaN\"");
  expect_written(v3type("\"float32\""), "\"0x7fc00000\"", "\"NaN\"");
  expect_written(v3type("\"float64\""), "\"Infinity\"", "\"Infinity\"");
  expect_written(v3type("\"float16\""), "\"-Infinity\"", "\"-Infinity\"");
  // NaNs other than the canonical one keep their bits.
  expect_written(v3type("\"float32\""), "\"0x7fc00001\"", "\"0x7fc00001\"");
  expect_written(v3type("\"float32\""), "\"0xffc00000\"", "\"0xffc00000\"");
  expect_written(v3type("\"float16\""), "\"0x7E01\"", "\"0x7e01\"");
  expect_written(v3type("\"float64\""), "\"0x7ff0000000000001\"", "\"0x7ff0000000000001\"");
  // Other bit patterns are numbers again.
  expect_written(v3type("\"float32\""), "\"0x3f800000\"", "1.0");
  expect_written(v3type("\"bfloat16\""), "\"0x3f80\"", "1.0");
  expect_written(v3type("\"bfloat16\""), "\"NaN\"", "\"NaN\"");
  expect_written(v3type("\"bfloat16\""), "\"0xffc0\"", "\"0xffc0\"");
  expect_written(v3type("\"bfloat16\""), "\"Infinity\"", "\"Infinity\"");
  expect_written(v3type("\"bfloat16\""), "0.1", "0.10009765625");
}

TEST(FillValueV3, BFloat16Rounding) {
  using dtype_detail::double_to_bfloat16;
  EXPECT_EQ(double_to_bfloat16(1.0), 0x3f80u);
  EXPECT_EQ(double_to_bfloat16(-2.0), 0xc000u);
  EXPECT_EQ(double_to_bfloat16(0.0), 0x0000u);
  EXPECT_EQ(double_to_bfloat16(-0.0), 0x8000u);
  EXPECT_EQ(double_to_bfloat16(1.0 + std::ldexp(1.0, -8)), 0x3f80u);      // tie: to even
  EXPECT_EQ(double_to_bfloat16(1.0 + 3 * std::ldexp(1.0, -8)), 0x3f82u);  // tie: to even (up)
  EXPECT_EQ(double_to_bfloat16(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), 0x3f81u);  // just above a tie
  EXPECT_EQ(double_to_bfloat16(std::ldexp(1.0, -133)), 0x0001u);                  // smallest subnormal
  EXPECT_EQ(double_to_bfloat16(std::ldexp(1.0, -134)), 0x0000u);                  // tie: to even (zero)
  EXPECT_EQ(double_to_bfloat16(3 * std::ldexp(1.0, -135)), 0x0001u);
  EXPECT_EQ(double_to_bfloat16(127.5 * std::ldexp(1.0, -133)), 0x0080u);          // up into the normals
  EXPECT_EQ(double_to_bfloat16(std::ldexp(255.0, 120)), 0x7f7fu);                 // largest finite
  EXPECT_EQ(double_to_bfloat16(std::ldexp(255.5, 120)), 0x7f80u);                 // tie past it: infinity
  EXPECT_EQ(double_to_bfloat16(1e300), 0x7f80u);
  EXPECT_EQ(double_to_bfloat16(-1e300), 0xff80u);
  EXPECT_EQ(double_to_bfloat16(1e-300), 0x0000u);
  EXPECT_EQ(double_to_bfloat16(std::numeric_limits<double>::denorm_min()), 0x0000u);
  EXPECT_EQ(double_to_bfloat16(std::numeric_limits<double>::quiet_NaN()), 0x7fc0u);
  EXPECT_EQ(dtype_detail::bfloat16_to_double(0x3f81), 1.0078125);
  EXPECT_TRUE(std::isnan(dtype_detail::bfloat16_to_double(0x7fc0)));

  // Every float32 value rounds like the top half of its bits, ties to even
  // (float32 holds every value exactly, so there is no double rounding).
  std::mt19937 rng(42);
  for (int i = 0; i < 200000; ++i) {
    uint32_t bits = static_cast<uint32_t>(rng());
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f)) continue;
    const uint32_t rounded = (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
    ASSERT_EQ(double_to_bfloat16(f), rounded) << std::hex << bits;
    // And back: every bfloat16 widens exactly.
    const uint16_t b = static_cast<uint16_t>(bits >> 16);
    if (((b >> 7) & 0xffu) != 0xffu) {
      const uint32_t wide = static_cast<uint32_t>(b) << 16;
      float back;
      std::memcpy(&back, &wide, 4);
      ASSERT_EQ(dtype_detail::bfloat16_to_double(b), static_cast<double>(back));
      ASSERT_EQ(double_to_bfloat16(static_cast<double>(back)), b);
    }
  }
}

TEST(FillValueV3, Complex) {
  const DataType c8 = v3type("\"complex64\"");
  const DataType c16 = v3type("\"complex128\"");
  Bytes v = fill3(c8, "[1, 2]");
  float parts[2];
  std::memcpy(parts, v.data(), 8);
  EXPECT_EQ(parts[0], 1.0f);
  EXPECT_EQ(parts[1], 2.0f);
  v = fill3(c16, R"(["-Infinity", "NaN"])");
  double dparts[2];
  std::memcpy(dparts, v.data(), 16);
  EXPECT_TRUE(std::isinf(dparts[0]) && dparts[0] < 0);
  EXPECT_TRUE(std::isnan(dparts[1]));
  // Each part's bit pattern has the width of the part.
  v = fill3(c8, R"(["0x7fc00001", 0.5])");
  EXPECT_EQ(value_of<uint64_t>(v) & 0xffffffffu, 0x7fc00001u);
  expect_written(c8, "[1, 2]", "[1.0,2.0]");
  expect_written(c16, R"(["-Infinity", "NaN"])", R"(["-Infinity","NaN"])");
  expect_written(c8, "[0.1, \"0x7fc00001\"]", "[0.10000000149011612,\"0x7fc00001\"]");
  for (const char* bad : {"[1]", "[1, 2, 3]", "1", "\"1+2j\"", "[1, \"x\"]", "[\"0x7ff8000000000000\", 0]", "{}",
                          "null", "[true, 0]"}) {
    expect_bad(c8, bad);
  }
  expect_bad(c16, "[\"0x7fc00000\", 0]", "real part");
  expect_bad(c16, "[0, null]", "imaginary part");
}

TEST(FillValueV3, RawBits) {
  const DataType r16 = v3type("\"r16\"");
  EXPECT_EQ(fill3(r16, "[1, 255]"), (Bytes{1, 255}));
  EXPECT_EQ(fill3(r16, "\"AQI=\""), (Bytes{1, 2}));  // base64 is read too
  EXPECT_EQ(fill3(r16, "\"AQ==\""), (Bytes{1, 0}));
  expect_written(r16, "[1, 255]", "[1,255]");
  expect_written(r16, "\"AQI=\"", "[1,2]");
  expect_bad(r16, "[1]", "exactly 2");
  expect_bad(r16, "[1, 2, 3]", "exactly 2");
  expect_bad(r16, "[1, 256]");
  expect_bad(r16, "[1, -1]");
  expect_bad(r16, "[1, 1.5]");
  expect_bad(r16, "0", "integers in [0, 255]");
  expect_bad(r16, "\"AQID\"", "do not fit");
  expect_bad(r16, "null");
}

TEST(FillValueV3, RawBytesAndNullTerminatedBytes) {
  const DataType v = v3type(R"({"name":"raw_bytes","configuration":{"length_bytes":3}})");
  EXPECT_EQ(fill3(v, "\"AQID\""), (Bytes{1, 2, 3}));
  EXPECT_EQ(fill3(v, "\"AQ==\""), (Bytes{1, 0, 0}));
  EXPECT_EQ(fill3(v, "[0, 0, 7]"), (Bytes{0, 0, 7}));
  expect_written(v, "\"AQ==\"", "\"AQAA\"");  // every byte, as numpy's void
  expect_bad(v, "\"AQIDBA==\"", "do not fit");
  expect_bad(v, "5", "base64");
  expect_bad(v, "\"A\"", "base64");  // a dangling quad

  const DataType s = v3type(R"({"name":"null_terminated_bytes","configuration":{"length_bytes":4}})");
  EXPECT_EQ(fill3(s, "\"YWI=\""), (Bytes{'a', 'b', 0, 0}));
  EXPECT_EQ(fill3(s, "\"\""), (Bytes{0, 0, 0, 0}));
  expect_written(s, "\"YWI=\"", "\"YWI=\"");  // trailing NULs dropped, as numpy's bytes_
  expect_written(s, "\"\"", "\"\"");
  expect_bad(s, "\"YWJjZGU=\"", "do not fit");
  expect_bad(s, "[97, 98]", "base64");
  expect_bad(s, "0", "base64");
}

TEST(FillValueV3, Times) {
  for (const char* name : {"numpy.datetime64", "numpy.timedelta64"}) {
    SCOPED_TRACE(name);
    const DataType t = v3type(std::string("{\"name\":\"") + name + R"(","configuration":{"unit":"ns","scale_factor":1}})");
    EXPECT_EQ(value_of<int64_t>(fill3(t, "0")), 0);
    EXPECT_EQ(value_of<int64_t>(fill3(t, "-1")), -1);
    EXPECT_EQ(value_of<int64_t>(fill3(t, "9223372036854775807")), std::numeric_limits<int64_t>::max());
    EXPECT_EQ(value_of<int64_t>(fill3(t, "-9223372036854775808")), std::numeric_limits<int64_t>::min());
    EXPECT_EQ(value_of<int64_t>(fill3(t, "\"NaT\"")), std::numeric_limits<int64_t>::min());
    expect_written(t, "\"NaT\"", "-9223372036854775808");  // as zarr-python 3 writes NaT
    expect_written(t, "1234", "1234");
    expect_bad(t, "9223372036854775808", "int64 range");
    expect_bad(t, "1e20", "int64 range");
    expect_bad(t, "1.5", "integer count");
    expect_bad(t, "\"nat\"", "NaT");
    expect_bad(t, "\"2020-01-01\"", "NaT");
    expect_bad(t, "\"\"", "NaT");
    expect_bad(t, "true");
    expect_bad(t, "null");
  }
}

TEST(FillValueV3, FixedLengthUtf32) {
  const DataType t = v3type(R"({"name":"fixed_length_utf32","configuration":{"length_bytes":8}})");
  EXPECT_EQ(fill3(t, "\"\""), Bytes(8, 0));
  const Bytes ab = fill3(t, "\"a\\u00e9\"");
  uint32_t units[2];
  std::memcpy(units, ab.data(), 8);
  EXPECT_EQ(units[0], 0x61u);
  EXPECT_EQ(units[1], 0xe9u);
  EXPECT_EQ(value_of<uint64_t>(fill3(t, "\"x\"")) >> 32, 0u);  // NUL-padded
  expect_written(t, "\"x\"", "\"x\"");
  expect_written(t, "\"\"", "\"\"");
  expect_written(t, "\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\"");
  expect_bad(t, "\"abc\"", "3 characters do not fit in 2");
  expect_bad(t, "\"\xff\"", "malformed UTF-8");  // RapidJSON passes raw bytes through
  expect_bad(t, "5", "string");
  expect_bad(t, "[\"a\"]", "string");
  expect_bad(t, "null");
}

TEST(FillValueV3, VariableLengthString) {
  const DataType t = v3type("\"string\"");
  EXPECT_EQ(fill3(t, "\"\""), Bytes{});
  EXPECT_EQ(fill3(t, "\"h\\u00e9\""), (Bytes{'h', 0xc3, 0xa9}));
  expect_written(t, "\"\"", "\"\"");
  expect_written(t, "\"h\\u00e9 \\\"x\\\"\"", "\"h\xc3\xa9 \\\"x\\\"\"");
  expect_bad(t, "5", "string");
  expect_bad(t, "null");
  expect_bad(t, "[\"a\"]");
  expect_bad(t, "\"a\xc3\"", "malformed UTF-8");
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [&] { t.fill_value_to_v3_json(Bytes{0xff, 0xfe}); }, {"UTF-8"});
}

TEST(FillValueV3, VariableLengthBytes) {
  const DataType t = v3type("\"variable_length_bytes\"");
  EXPECT_EQ(fill3(t, "\"\""), Bytes{});
  EXPECT_EQ(fill3(t, "\"AQID\""), (Bytes{1, 2, 3}));
  EXPECT_EQ(fill3(t, "[1, 2, 255]"), (Bytes{1, 2, 255}));
  EXPECT_EQ(fill3(t, "[]"), Bytes{});
  expect_written(t, "[1, 2, 3]", "\"AQID\"");
  expect_written(t, "\"\"", "\"\"");
  expect_bad(t, "5", "base64");
  expect_bad(t, "[256]", "base64");
  expect_bad(t, "\"A\"", "base64");
  expect_bad(t, "null");
}

TEST(FillValueV3, NullIsNeverAFillValue) {
  for (const char* type : {"\"bool\"", "\"int8\"", "\"float32\"", "\"complex64\"", "\"bfloat16\"", "\"r8\"",
                           "\"string\"", "\"variable_length_bytes\"",
                           R"({"name":"fixed_length_utf32","configuration":{"length_bytes":4}})",
                           R"({"name":"numpy.datetime64","configuration":{"unit":"s","scale_factor":1}})"}) {
    expect_bad(v3type(type), "null", "requires a fill value");
  }
}

TEST(FillValueV3, TypesWithoutAV3Form) {
  // Structured types are v3 structs (test_struct_v3.cpp), except with a subarray field.
  for (const auto& c : {std::pair<const char*, const char*>{"[[\"a\",\"<i4\",[2]]]", "{\"a\": 0}"},
                        std::pair<const char*, const char*>{"\"|O\"", "0"}}) {
    SCOPED_TRACE(c.first);
    const DataType t = dtype(c.first);
    const char* fill = c.second;  // clang 14 cannot capture a structured binding
    expect_error(ZARR_ERR_UNSUPPORTED, [&] { fill3(t, fill); }, {});
    expect_error(ZARR_ERR_UNSUPPORTED, [&] { t.fill_value_to_v3_json(Bytes(t.item_size(), 0)); });
  }
}

TEST(FillValueV3, WrongSizeToSerialise) {
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [] { v3type("\"int32\"").fill_value_to_v3_json(Bytes(2, 0)); },
               {"2 bytes", "item size 4"});
  expect_error(ZARR_ERR_INVALID_ARGUMENT,
               [] {
                 v3type(R"({"name":"fixed_length_utf32","configuration":{"length_bytes":4}})")
                     .fill_value_to_v3_json(bytes_of<uint32_t>(0xd800));
               },
               {"Unicode"});
}

TEST(FillValueV3, ZarrPythonDefaults) {
  EXPECT_EQ(v3type("\"bool\"").default_fill_value_v3(), Bytes{0});
  EXPECT_EQ(v3type("\"float64\"").default_fill_value_v3(), Bytes(8, 0));
  EXPECT_EQ(v3type("\"complex64\"").default_fill_value_v3(), Bytes(8, 0));
  EXPECT_EQ(v3type("\"r24\"").default_fill_value_v3(), Bytes(3, 0));
  EXPECT_EQ(v3type("\"string\"").default_fill_value_v3(), Bytes{});
  EXPECT_EQ(v3type("\"bytes\"").default_fill_value_v3(), Bytes{});
  const DataType dt = v3type(R"({"name":"numpy.datetime64","configuration":{"unit":"s","scale_factor":1}})");
  EXPECT_EQ(dt.fill_value_to_v3_json(dt.default_fill_value_v3()), "-9223372036854775808");
  const DataType u = v3type(R"({"name":"fixed_length_utf32","configuration":{"length_bytes":4}})");
  EXPECT_EQ(u.fill_value_to_v3_json(u.default_fill_value_v3()), "\"\"");
}

TEST(FillValueV3, V2FormsRefuseV3OnlyTypes) {
  for (const char* type : {"\"bfloat16\"", "\"string\"", "\"variable_length_bytes\""}) {
    SCOPED_TRACE(type);
    const DataType t = v3type(type);
    rapidjson::Document zero = json::parse("0", "test");
    expect_error(ZARR_ERR_UNSUPPORTED, [&] { t.parse_fill_value_v2(zero, "w"); }, {"v2"});
    expect_error(ZARR_ERR_UNSUPPORTED, [&] { t.fill_value_to_v2_json(Bytes(t.item_size(), 0)); }, {"v2"});
  }
}

}  // namespace
}  // namespace zarr::test
