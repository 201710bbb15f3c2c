// v2 fill values: JSON -> native bytes and back, and every rejection.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "dtype_test_util.h"

namespace zarr::test {
namespace {

const char* kFillWhere = "fill_value in /a/.zarray";

template <typename T>
T as(const std::optional<Bytes>& b) {
  EXPECT_TRUE(b.has_value());
  EXPECT_EQ(b->size(), sizeof(T));
  T value{};
  if (b && b->size() == sizeof(T)) std::memcpy(&value, b->data(), sizeof value);
  return value;
}

// JSON -> bytes -> JSON gives `expected` back.
void expect_round_trip(const DataType& t, const std::string& json_text, const std::string& expected) {
  const auto bytes = fill(t, json_text);
  EXPECT_EQ(t.fill_value_to_v2_json(bytes), expected) << t.to_v2_json() << " " << json_text;
}

TEST(FillValue, NullForEveryKind) {
  for (const char* t : {"\"|b1\"", "\"<i4\"", "\"<f8\"", "\"<c8\"", "\"<M8[ns]\"", "\"|S3\"", "\"<U2\"", "\"|V2\"",
                        "\"|O\"", "[[\"a\",\"<i4\"]]"}) {
    const DataType d = dtype(t);
    EXPECT_EQ(fill(d, "null"), std::nullopt) << t;
    EXPECT_EQ(d.fill_value_to_v2_json(std::nullopt), "null") << t;
  }
}

TEST(FillValue, Bool) {
  const DataType t = dtype("\"|b1\"");
  EXPECT_EQ(fill(t, "true"), Bytes{1});
  EXPECT_EQ(fill(t, "false"), Bytes{0});
  EXPECT_EQ(fill(t, "0"), Bytes{0});  // writers that default every type to 0
  EXPECT_EQ(fill(t, "-3"), Bytes{1});  // numpy truthiness
  expect_round_trip(t, "true", "true");
  expect_round_trip(t, "0", "false");
  EXPECT_EQ(t.fill_value_to_v2_json(Bytes{7}), "true");
  for (const char* f : {"1.5", "\"true\"", "[true]", "{}"}) {
    SCOPED_TRACE(f);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(t, f); }, {kFillWhere, f, "|b1"});
  }
}

TEST(FillValue, IntegersAtTheirLimits) {
  EXPECT_EQ(as<int8_t>(fill(dtype("\"|i1\""), "-128")), -128);
  EXPECT_EQ(as<uint8_t>(fill(dtype("\"|u1\""), "255")), 255);
  EXPECT_EQ(as<int16_t>(fill(dtype("\">i2\""), "32767")), 32767);  // native order regardless of '>'
  EXPECT_EQ(as<uint16_t>(fill(dtype("\"<u2\""), "65535")), 65535);
  EXPECT_EQ(as<int32_t>(fill(dtype("\"<i4\""), "-2147483648")), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(as<uint32_t>(fill(dtype("\"<u4\""), "4294967295")), 4294967295u);
  EXPECT_EQ(as<int64_t>(fill(dtype("\"<i8\""), "-9223372036854775808")), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(as<uint64_t>(fill(dtype("\">u8\""), "18446744073709551615")), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(as<int32_t>(fill(dtype("\"<i4\""), "7.0")), 7);  // integral floats are accepted
  EXPECT_EQ(as<int32_t>(fill(dtype("\"<i4\""), "-0.0")), 0);
  EXPECT_EQ(as<int32_t>(fill(dtype("\"<i4\""), "1e3")), 1000);
  for (const char* t : {"\"|i1\"", "\"<i2\"", "\"<i4\"", "\"<i8\"", "\"|u1\"", "\">u2\"", "\"<u4\"", "\"<u8\""}) {
    expect_round_trip(dtype(t), "0", "0");
    expect_round_trip(dtype(t), "42", "42");
  }
  expect_round_trip(dtype("\"<i8\""), "-9223372036854775808", "-9223372036854775808");
  expect_round_trip(dtype("\"<u8\""), "18446744073709551615", "18446744073709551615");
  expect_round_trip(dtype("\"|i1\""), "-1", "-1");
}

TEST(FillValue, IntegerErrors) {
  struct Case {
    const char* type;
    const char* fill;
  };
  const Case cases[] = {
      {"\"|u1\"", "300"},  {"\"|u1\"", "-1"},  {"\"|i1\"", "128"},  {"\"|i1\"", "-129"},
      {"\"<i2\"", "32768"}, {"\"<u2\"", "65536"}, {"\"<i4\"", "2147483648"}, {"\"<u4\"", "-1"},
      {"\"<i8\"", "9223372036854775808"}, {"\"<u8\"", "-1"}, {"\"<i8\"", "-1e+19"}, {"\"<i4\"", "1.5"}, {"\"<i4\"", "\"5\""}, {"\"<i4\"", "\"NaN\""},
      {"\"<i4\"", "true"}, {"\"<i4\"", "[1]"}, {"\"<i4\"", "{}"}, {"\"<i4\"", "1e+300"}, {"\"<i4\"", "NaN"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.type) + " " + c.fill);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(dtype(c.type), c.fill); }, {kFillWhere, c.fill});
  }
  // Past 64 bits JSON numbers arrive as doubles; the message shows Python's form.
  expect_error(ZARR_ERR_INVALID_METADATA, [] { (void)fill(dtype("\"<u8\""), "18446744073709551616"); },
               {kFillWhere, "1.8446744073709552e+19", "<u8", "out of range"});
}

TEST(FillValue, FloatsAndSpecialValues) {
  EXPECT_EQ(as<double>(fill(dtype("\"<f8\""), "0.1")), 0.1);
  EXPECT_EQ(as<double>(fill(dtype("\">f8\""), "42")), 42.0);
  EXPECT_EQ(as<float>(fill(dtype("\"<f4\""), "0.1")), 0.1f);
  EXPECT_TRUE(std::isnan(as<double>(fill(dtype("\"<f8\""), "\"NaN\""))));
  EXPECT_TRUE(std::isnan(as<float>(fill(dtype("\"<f4\""), "\"NaN\""))));
  EXPECT_EQ(as<double>(fill(dtype("\"<f8\""), "\"Infinity\"")), std::numeric_limits<double>::infinity());
  EXPECT_EQ(as<float>(fill(dtype("\">f4\""), "\"-Infinity\"")), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(as<float>(fill(dtype("\"<f4\""), "1e300")), std::numeric_limits<float>::infinity());  // numpy overflows
  EXPECT_TRUE(std::signbit(as<double>(fill(dtype("\"<f8\""), "-0.0"))));
  // JSON NaN/Infinity literals (accepted by the parser) mean the same.
  EXPECT_TRUE(std::isnan(as<double>(fill(dtype("\"<f8\""), "NaN"))));
  EXPECT_EQ(as<double>(fill(dtype("\"<f8\""), "-Infinity")), -std::numeric_limits<double>::infinity());
  // Half precision: bits, rounded once from the double.
  EXPECT_EQ(as<uint16_t>(fill(dtype("\"<f2\""), "1.0")), 0x3c00);
  EXPECT_EQ(as<uint16_t>(fill(dtype("\"<f2\""), "65504")), 0x7bff);
  EXPECT_EQ(as<uint16_t>(fill(dtype("\"<f2\""), "65520")), 0x7c00);
  EXPECT_EQ(as<uint16_t>(fill(dtype("\"<f2\""), "\"NaN\"")), 0x7e00);
  EXPECT_EQ(as<uint16_t>(fill(dtype("\">f2\""), "\"-Infinity\"")), 0xfc00);
}

TEST(FillValue, FloatJsonIsPythonRepr) {
  expect_round_trip(dtype("\"<f8\""), "0.1", "0.1");
  expect_round_trip(dtype("\"<f8\""), "1e16", "1e+16");
  expect_round_trip(dtype("\"<f8\""), "0.00001", "1e-05");
  expect_round_trip(dtype("\"<f8\""), "3", "3.0");
  expect_round_trip(dtype("\"<f8\""), "-0.0", "-0.0");
  expect_round_trip(dtype("\"<f4\""), "0.1", "0.10000000149011612");
  expect_round_trip(dtype("\"<f2\""), "0.1", "0.0999755859375");
  expect_round_trip(dtype("\">f8\""), "\"NaN\"", "\"NaN\"");
  expect_round_trip(dtype("\"<f4\""), "\"Infinity\"", "\"Infinity\"");
  expect_round_trip(dtype("\"<f2\""), "\"-Infinity\"", "\"-Infinity\"");
  // Any NaN payload is written as "NaN".
  const uint64_t payload = 0x7ff0000000000123ULL;
  Bytes b(8);
  std::memcpy(b.data(), &payload, 8);
  EXPECT_EQ(dtype("\"<f8\"").fill_value_to_v2_json(b), "\"NaN\"");
}

TEST(FillValue, FloatErrors) {
  for (const char* f : {"\"nan\"", "\"inf\"", "\"1.5\"", "\"\"", "true", "[1.0]", "{}", "\"-NaN\"", "\"+Infinity\""}) {
    SCOPED_TRACE(f);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(dtype("\"<f8\""), f); }, {kFillWhere, f, "<f8"});
  }
}

TEST(FillValue, Complex) {
  const auto c8 = fill(dtype("\"<c8\""), "[1.5, \"NaN\"]");
  ASSERT_TRUE(c8.has_value());
  float parts[2];
  std::memcpy(parts, c8->data(), 8);
  EXPECT_EQ(parts[0], 1.5f);  // zarr-python 2.13 would make this NaN too (re + 1j*im)
  EXPECT_TRUE(std::isnan(parts[1]));
  const auto c16 = fill(dtype("\">c16\""), "[\"Infinity\", -2]");
  double d[2];
  std::memcpy(d, c16->data(), 16);
  EXPECT_EQ(d[0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(d[1], -2.0);
  expect_round_trip(dtype("\"<c8\""), "[1, 2]", "[1.0,2.0]");
  expect_round_trip(dtype("\"<c8\""), "[0.1, 0]", "[0.10000000149011612,0.0]");
  expect_round_trip(dtype("\"<c16\""), "[\"NaN\", \"-Infinity\"]", "[\"NaN\",\"-Infinity\"]");
  for (const char* f : {"1.5", "[1]", "[1,2,3]", "[]", "[\"x\",1]", "[1,null]", "\"NaN\"", "{\"re\":1}"}) {
    SCOPED_TRACE(f);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(dtype("\"<c8\""), f); }, {kFillWhere, f});
  }
}

TEST(FillValue, DateTimeAndTimeDelta) {
  EXPECT_EQ(as<int64_t>(fill(dtype("\"<M8[ns]\""), "1577836800000000000")), 1577836800000000000);
  EXPECT_EQ(as<int64_t>(fill(dtype("\">m8[s]\""), "-5")), -5);
  EXPECT_EQ(as<int64_t>(fill(dtype("\"<M8[D]\""), "\"NaT\"")), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(as<int64_t>(fill(dtype("\"<m8\""), "\"NaT\"")), std::numeric_limits<int64_t>::min());
  // zarr-python writes NaT as the int64 it is.
  expect_round_trip(dtype("\"<M8[ns]\""), "\"NaT\"", "-9223372036854775808");
  expect_round_trip(dtype("\"<m8[10ms]\""), "12", "12");
  // numpy's other spellings of NaT.
  EXPECT_EQ(as<int64_t>(fill(dtype("\"<M8[ns]\""), "\"nat\"")), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(as<int64_t>(fill(dtype("\"<m8[ns]\""), "\"\"")), std::numeric_limits<int64_t>::min());
  for (const char* f : {"1.5", "true", "[1]", "9223372036854775808", "-1e+19", "{}"}) {
    SCOPED_TRACE(f);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(dtype("\"<M8[ns]\""), f); }, {kFillWhere, f});
  }
  // ISO date strings are numpy's, but libzarr does not convert them.
  expect_error(ZARR_ERR_UNSUPPORTED, [] { (void)fill(dtype("\"<M8[ns]\""), "\"2020-01-01\""); },
               {kFillWhere, "2020-01-01"});
}

TEST(FillValue, ByteStrings) {
  const DataType s4 = dtype("\"|S4\"");
  EXPECT_EQ(fill(s4, "\"YWI=\""), (Bytes{'a', 'b', 0, 0}));  // zero-padded
  EXPECT_EQ(fill(s4, "\"YWJjZA==\""), (Bytes{'a', 'b', 'c', 'd'}));
  EXPECT_EQ(fill(s4, "\"\""), (Bytes{0, 0, 0, 0}));
  // zarr-python falls back to the value itself when it is not base64.
  EXPECT_EQ(fill(s4, "0"), (Bytes{'0', 0, 0, 0}));
  EXPECT_EQ(fill(s4, "\"abc\""), (Bytes{'a', 'b', 'c', 0}));
  EXPECT_EQ(fill(s4, "true"), (Bytes{'T', 'r', 'u', 'e'}));
  EXPECT_EQ(fill(dtype("\"|S3\""), "2.5"), (Bytes{'2', '.', '5'}));
  // Trailing NULs are dropped before encoding, as numpy's bytes scalars do.
  expect_round_trip(s4, "\"YWI=\"", "\"YWI=\"");
  expect_round_trip(s4, "\"YWIAAA==\"", "\"YWI=\"");
  expect_round_trip(s4, "\"YQBi\"", "\"YQBi\"");
  expect_round_trip(s4, "\"\"", "\"\"");
  expect_round_trip(s4, "0", "\"MA==\"");
  // Too long is an error (numpy would truncate), whichever way it was read.
  for (const char* f : {"\"YWJjZGU=\"", "\"abcde\"", "12345", "\"caf\xc3\xa9\"", "[1]", "{}"}) {
    SCOPED_TRACE(f);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(s4, f); }, {kFillWhere, "|S4"});
  }
  expect_error(ZARR_ERR_INVALID_METADATA, [] { (void)fill(dtype("\"|S1\""), "\"YQ\""); },
               {kFillWhere, "2 bytes do not fit in 1"});
}

TEST(FillValue, Void) {
  const DataType v4 = dtype("\"|V4\"");
  EXPECT_EQ(fill(v4, "\"AQIDBA==\""), (Bytes{1, 2, 3, 4}));
  EXPECT_EQ(fill(v4, "\"AQI=\""), (Bytes{1, 2, 0, 0}));
  // V keeps trailing zero bytes when written.
  expect_round_trip(v4, "\"AQI=\"", "\"AQIAAA==\"");
  expect_round_trip(v4, "\"\"", "\"AAAAAA==\"");
  for (const char* f : {"0", "\"abc\"", "\"AQIDBAU=\"", "true", "\"A\"", "[1,2]"}) {
    SCOPED_TRACE(f);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(v4, f); }, {kFillWhere, f});
  }
}

TEST(FillValue, Unicode) {
  const DataType u3 = dtype("\"<U3\"");
  const auto b = fill(u3, "\"h\xc3\xa9\"");
  ASSERT_TRUE(b.has_value());
  uint32_t units[3];
  std::memcpy(units, b->data(), 12);
  EXPECT_EQ(units[0], uint32_t{'h'});
  EXPECT_EQ(units[1], 0xe9u);
  EXPECT_EQ(units[2], 0u);
  const auto astral = fill(dtype("\">U1\""), "\"\xf0\x9f\x98\x80\"");  // native order despite '>'
  EXPECT_EQ(as<uint32_t>(astral), 0x1f600u);
  expect_round_trip(u3, "\"h\xc3\xa9\"", "\"h\xc3\xa9\"");
  expect_round_trip(u3, "\"\"", "\"\"");
  expect_round_trip(u3, "\"abc\"", "\"abc\"");
  expect_round_trip(dtype("\"<U2\""), "\"\\u0000x\"", "\"\\u0000x\"");  // only trailing NULs go
  // Escaped surrogate pairs arrive from the JSON parser as UTF-8.
  expect_round_trip(dtype("\"<U1\""), "\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\"");
  for (const char* f : {"\"abcd\"", "0", "true", "[\"a\"]"}) {
    SCOPED_TRACE(f);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(u3, f); }, {kFillWhere, f});
  }
  // Malformed UTF-8 (a lone continuation byte) cannot be converted.
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(u3, "\"a\x80\""); }, {kFillWhere, "UTF-8"});
}

TEST(FillValue, UnicodeOutputErrors) {
  const DataType u1 = dtype("\"<U1\"");
  for (uint32_t bad : {0xd800u, 0xdfffu, 0x110000u}) {
    Bytes b(4);
    std::memcpy(b.data(), &bad, 4);
    expect_error(ZARR_ERR_INVALID_ARGUMENT, [&] { (void)u1.fill_value_to_v2_json(b); }, {"Unicode"});
  }
}

TEST(FillValue, StructuredIsBase64OfStoredBytes) {
  // a: >i4 = 1, b: <f4 = 2.0, as zarr-python writes it.
  const DataType t = dtype("[[\"a\",\">i4\"],[\"b\",\"<f4\"]]");
  const auto b = fill(t, "\"AAAAAQAAAEA=\"");
  ASSERT_TRUE(b.has_value());
  int32_t a;
  float f;
  std::memcpy(&a, b->data(), 4);
  std::memcpy(&f, b->data() + 4, 4);
  EXPECT_EQ(a, 1);  // native order for callers
  EXPECT_EQ(f, 2.0f);
  EXPECT_EQ(t.fill_value_to_v2_json(b), "\"AAAAAQAAAEA=\"");
  EXPECT_EQ(fill(t, "\"AAAA\""), Bytes(8, 0));  // zero-padded
  for (const char* f2 : {"0", "\"AAAAAQAAAEAA\"", "[1,2.0]", "\"AAAAA\""}) {
    SCOPED_TRACE(f2);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { (void)fill(t, f2); }, {kFillWhere, f2});
  }
}

TEST(FillValue, ObjectFillIsOpaque) {
  const DataType o = dtype("\"|O\"");
  EXPECT_EQ(fill(o, "0"), std::nullopt);
  EXPECT_EQ(fill(o, "\"\""), std::nullopt);
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [&] { (void)o.fill_value_to_v2_json(Bytes(8, 0)); }, {"object"});
  // A structured type holding an object field needs the object codec.
  expect_error(ZARR_ERR_UNSUPPORTED, [] { (void)fill(dtype("[[\"a\",\"|O\"]]"), "\"AAAAAAAAAAA=\""); },
               {kFillWhere, "object codec"});
  EXPECT_EQ(fill(dtype("[[\"a\",\"|O\"]]"), "null"), std::nullopt);
}

TEST(FillValue, WrongSizeForOutput) {
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [] { (void)dtype("\"<i4\"").fill_value_to_v2_json(Bytes{1, 2}); },
               {"2 bytes", "<i4"});
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [] { (void)dtype("\"|S3\"").fill_value_to_v2_json(Bytes{}); });
}

// Fill values of every simple kind survive JSON -> bytes -> JSON -> bytes.
TEST(FillValue, BytesRoundTripEveryKind) {
  struct Case {
    const char* type;
    const char* fill;
  };
  const Case cases[] = {
      {"\"|b1\"", "true"},          {"\">i2\"", "-300"},           {"\"<u4\"", "123456"},
      {"\">f2\"", "-2.5"},          {"\"<f4\"", "1e-40"},           {"\">f8\"", "-1.7976931348623157e308"},
      {"\">c8\"", "[3, -4]"},       {"\"<c16\"", "[1e-300, 5]"},    {"\">M8[us]\"", "-1"},
      {"\"<m8[3h]\"", "99"},        {"\"|S2\"", "\"AAE=\""},        {"\"|V3\"", "\"AAEC\""},
      {"\">U4\"", "\"\xe2\x82\xac\""}, {"[[\"x\",\">u2\",[2]],[\"y\",[[\"z\",\">f8\"]]]]", "\"AAEAAkAJIftURC0Y\""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.type) + " " + c.fill);
    const DataType t = dtype(c.type);
    const auto first = fill(t, c.fill);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->size(), t.item_size());
    const auto second = fill(t, t.fill_value_to_v2_json(first));
    EXPECT_EQ(second, first);
  }
}

}  // namespace
}  // namespace zarr::test
