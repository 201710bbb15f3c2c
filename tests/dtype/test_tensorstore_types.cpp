// TensorStore's extension types "int4" and "float8_*" as DataTypes: names in
// v2 and v3, fill values in both formats, and every rejection.
#include <gtest/gtest.h>

#include <cmath>

#include "dtype_test_util.h"

namespace zarr::test {
namespace {

const char* kV3TypeWhere = "a/zarr.json: field 'data_type'";
const char* kFill2Where = "fill_value in /a/.zarray";
const char* kFill3Where = "a/zarr.json: field 'fill_value'";

const char* const kFloat8Names[] = {"float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2",
                                    "float8_e5m2fnuz"};

DataType v3type(const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return DataType::parse_v3(doc, kV3TypeWhere);
}

Bytes fill2(const DataType& t, const std::string& json_text) {
  auto value = fill(t, json_text);
  EXPECT_TRUE(value.has_value()) << json_text;
  return value.value_or(Bytes{});
}

Bytes fill3(const DataType& t, const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return t.parse_fill_value_v3(doc, kFill3Where);
}

std::string quoted(const std::string& name) { return "\"" + name + "\""; }

// ---- names ---------------------------------------------------------------------

TEST(TensorStoreTypes, NamesAreTheSameInV2AndV3) {
  std::vector<std::string> names(std::begin(kFloat8Names), std::end(kFloat8Names));
  names.push_back("int4");
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const DataType v2 = dtype(quoted(name));
    const DataType from_text = DataType::from_typestr(name, kWhere);
    const DataType v3 = v3type(quoted(name));
    const DataType v3_object = v3type("{\"name\":\"" + name + "\",\"configuration\":{}}");
    EXPECT_EQ(v2.kind(), name == "int4" ? DTypeKind::SubByteInt : DTypeKind::Float8);
    for (const DataType* t : {&v2, &from_text, &v3, &v3_object}) {
      EXPECT_EQ(t->item_size(), 1u);
      EXPECT_FALSE(t->has_byte_order());
      EXPECT_FALSE(t->needs_byte_swap());
      EXPECT_EQ(t->to_v2_json(), quoted(name));
      EXPECT_EQ(t->to_v3_json(), quoted(name));
      EXPECT_EQ(t->v3_name(), std::optional<std::string>(name));
      EXPECT_EQ(*t, v2);
      // The bytes codec's "endian" changes nothing for one-byte items.
      EXPECT_EQ(t->with_byte_order(true), v2);
      EXPECT_EQ(t->with_byte_order(false), v2);
    }
    // Serialised forms parse back to the same type.
    EXPECT_EQ(dtype(v2.to_v2_json()), v2);
    EXPECT_EQ(v3type(v3.to_v3_json()), v2);
    // Distinct from the one-byte numpy types.
    EXPECT_NE(v2, dtype("\"|i1\""));
    EXPECT_NE(v2, dtype("\"|u1\""));
  }
}

TEST(TensorStoreTypes, Float8FormatsAreDistinct) {
  for (const char* a : kFloat8Names) {
    for (const char* b : kFloat8Names) {
      EXPECT_EQ(dtype(quoted(a)) == dtype(quoted(b)), std::string(a) == b) << a << " " << b;
    }
    EXPECT_STREQ(dtype_detail::float8_spec(dtype(quoted(a)).float8_format()).name, a);
  }
}

TEST(TensorStoreTypes, UnknownNamesAreUnsupported) {
  // Other ml_dtypes formats, and spellings TensorStore does not write.
  // (float8_e3m4, float8_e4m3, float8_e8m0fnu, float4_e2m1fn, int2, uint4...
  // are the registry's, tested in test_registry_types.cpp.)
  for (const char* name : {"float8_E4M3FN", "float8_e6m1", "int3", "uint8_t", "float4_e3m0"}) {
    SCOPED_TRACE(name);
    expect_error(ZARR_ERR_UNSUPPORTED, [&] { v3type(quoted(name)); }, {kV3TypeWhere, quoted(name)});
  }
  for (const char* name : {"float8_E4M3FN", "float8_e6m1"}) {
    SCOPED_TRACE(name);
    expect_error(ZARR_ERR_UNSUPPORTED, [&] { dtype(quoted(name)); }, {kWhere, quoted(name)});
  }
  // Not typestrs at all: no byte order character.
  for (const char* name : {"int3", "uint8_t", "Int4", "int4 "}) {
    SCOPED_TRACE(name);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { dtype(quoted(name)); }, {kWhere, quoted(name)});
  }
  // A typestr with a byte order is not TensorStore's name.
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { dtype("\"<int4\""); }, {kWhere, "\"<int4\""});
}

TEST(TensorStoreTypes, V3NamesTakeNoConfiguration) {
  for (const char* name : {"int4", "float8_e5m2"}) {
    SCOPED_TRACE(name);
    expect_error(ZARR_ERR_INVALID_METADATA,
                 [&] { v3type(std::string("{\"name\":\"") + name + R"(","configuration":{"length_bytes":1}})"); },
                 {kV3TypeWhere, "takes no configuration"});
  }
}

// ---- float8 fill values ------------------------------------------------------------

struct FillCase {
  const char* type;
  const char* json;
  uint8_t code;
};

TEST(TensorStoreTypes, Float8FillValuesInBothFormats) {
  const FillCase cases[] = {
      {"float8_e4m3fn", "1.0", 0x38},           {"float8_e4m3fn", "448", 0x7e},
      {"float8_e4m3fn", "-448.0", 0xfe},        {"float8_e4m3fn", "0.001953125", 0x01},  // 2^-9
      {"float8_e4m3fn", "-0.0", 0x80},          {"float8_e4m3fn", "0.1", 0x1d},           // 0.1015625
      {"float8_e4m3fn", "\"NaN\"", 0x7f},       {"float8_e4m3fn", "\"Infinity\"", 0x7f},  // ml_dtypes: NaN
      {"float8_e4m3fn", "\"-Infinity\"", 0xff}, {"float8_e4m3fn", "1e10", 0x7f},
      {"float8_e4m3fn", "464", 0x7e},           {"float8_e4m3fn", "1.0625", 0x38},  // ties to even
      {"float8_e4m3fnuz", "240", 0x7f},         {"float8_e4m3fnuz", "-0.0", 0x00},
      {"float8_e4m3fnuz", "\"NaN\"", 0x80},     {"float8_e4m3fnuz", "\"-Infinity\"", 0x80},
      {"float8_e4m3fnuz", "1", 0x40},           {"float8_e4m3b11fnuz", "30", 0x7f},
      {"float8_e4m3b11fnuz", "1", 0x58},        {"float8_e4m3b11fnuz", "31", 0x80},
      {"float8_e5m2", "57344", 0x7b},           {"float8_e5m2", "\"Infinity\"", 0x7c},
      {"float8_e5m2", "\"-Infinity\"", 0xfc},   {"float8_e5m2", "\"NaN\"", 0x7e},
      {"float8_e5m2", "61440", 0x7c},           {"float8_e5m2", "1.5", 0x3e},
      {"float8_e5m2fnuz", "57344", 0x7f},       {"float8_e5m2fnuz", "\"Infinity\"", 0x80},
      {"float8_e5m2fnuz", "1.52587890625e-05", 0x02},  // 2^-16: the second subnormal
  };
  for (const FillCase& c : cases) {
    SCOPED_TRACE(std::string(c.type) + " " + c.json);
    EXPECT_EQ(fill2(dtype(quoted(c.type)), c.json), Bytes{c.code});
    const DataType t3 = v3type(quoted(c.type));
    // v3 follows the registry: "Infinity" only where the type has infinities
    // (v2 casts it as ml_dtypes does, to NaN).
    const bool infinity = std::string(c.json).find("Infinity") != std::string::npos;
    if (infinity && !dtype_detail::float8_has_infinity(t3.float8_format())) {
      expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(t3, c.json); }, {kFill3Where, "the type has no infinity"});
    } else {
      EXPECT_EQ(fill3(t3, c.json), Bytes{c.code});
    }
  }
}

TEST(TensorStoreTypes, Float8RawBitsInV3) {
  for (const char* name : kFloat8Names) {
    SCOPED_TRACE(name);
    const DataType t = v3type(quoted(name));
    for (int code = 0; code < 256; ++code) {
      char text[8];
      std::snprintf(text, sizeof text, "\"0x%02x\"", code);
      ASSERT_EQ(fill3(t, text), Bytes{static_cast<uint8_t>(code)}) << text;
    }
    EXPECT_EQ(fill3(t, "\"0xFF\""), Bytes{0xff});
  }
}

// Every code is written in a form that parses back to the same code: exact
// decimals for numbers, the names of the special values, and in v3 the bits
// of a NaN other than the canonical one.
TEST(TensorStoreTypes, Float8FillValuesWriteBackExactly) {
  for (const char* name : kFloat8Names) {
    SCOPED_TRACE(name);
    const DataType t = dtype(quoted(name));
    for (int code = 0; code < 256; ++code) {
      const Bytes value{static_cast<uint8_t>(code)};
      ASSERT_EQ(fill3(t, t.fill_value_to_v3_json(value)), value) << code << " " << t.fill_value_to_v3_json(value);
      const bool nan = dtype_detail::float8_is_nan(static_cast<uint8_t>(code), t.float8_format());
      const Bytes canonical{dtype_detail::float8_canonical_nan(t.float8_format())};
      // v2 has no bit-pattern form: every NaN is written "NaN".
      ASSERT_EQ(fill2(t, t.fill_value_to_v2_json(value)), nan ? canonical : value) << code;
    }
  }
  const DataType e4m3 = dtype("\"float8_e4m3fn\"");
  EXPECT_EQ(e4m3.fill_value_to_v2_json(Bytes{0x7e}), "448.0");
  EXPECT_EQ(e4m3.fill_value_to_v2_json(Bytes{0x01}), "0.001953125");
  EXPECT_EQ(e4m3.fill_value_to_v2_json(Bytes{0x80}), "-0.0");
  EXPECT_EQ(e4m3.fill_value_to_v2_json(Bytes{0xff}), "\"NaN\"");
  EXPECT_EQ(e4m3.fill_value_to_v2_json(std::nullopt), "null");
  EXPECT_EQ(e4m3.fill_value_to_v3_json(Bytes{0x7f}), "\"NaN\"");
  EXPECT_EQ(e4m3.fill_value_to_v3_json(Bytes{0xff}), "\"0xff\"");
  EXPECT_EQ(e4m3.fill_value_to_v3_json(Bytes{0x1d}), "0.1015625");
  const DataType e5m2 = dtype("\"float8_e5m2\"");
  EXPECT_EQ(e5m2.fill_value_to_v3_json(Bytes{0x7c}), "\"Infinity\"");
  EXPECT_EQ(e5m2.fill_value_to_v2_json(Bytes{0xfc}), "\"-Infinity\"");
  EXPECT_EQ(e5m2.fill_value_to_v3_json(Bytes{0x7d}), "\"0x7d\"");
  EXPECT_EQ(dtype("\"float8_e5m2fnuz\"").fill_value_to_v3_json(Bytes{0x80}), "\"NaN\"");
  EXPECT_EQ(e5m2.default_fill_value_v3(), Bytes{0});
}

TEST(TensorStoreTypes, BadFloat8FillValues) {
  const DataType t = dtype("\"float8_e4m3fn\"");
  const DataType t3 = v3type("\"float8_e4m3fn\"");
  for (const char* json : {"\"nan\"", "\"inf\"", "true", "[1.0]", "{}", "\"1.0\"", "\"0x7f\""}) {
    SCOPED_TRACE(json);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill(t, json); }, {kFill2Where, "float8_e4m3fn"});
  }
  for (const char* json : {"\"nan\"", "true", "null", "[1.0]", "\"1.0\"", "\"0x\"", "\"0x7\"", "\"0x07f\"", "\"0x7g\"",
                           "\"0X7f\"", "\"0x-1\""}) {
    SCOPED_TRACE(json);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(t3, json); }, {kFill3Where, "fill_value", "float8_e4m3fn"});
  }
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(t3, "\"0x7f7f\""); }, {"exactly 2 hex digits"});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(t3, "\"0xzz\""); }, {"malformed hex digits"});
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [&] { t.fill_value_to_v2_json(Bytes{1, 2}); }, {"item size 1"});
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [&] { t3.fill_value_to_v3_json(Bytes{}); }, {"item size 1"});
}

// ---- int4 fill values --------------------------------------------------------------

TEST(TensorStoreTypes, Int4FillValuesAreSignExtendedBytes) {
  const DataType t2 = dtype("\"int4\"");
  const DataType t3 = v3type("\"int4\"");
  for (int v = -8; v <= 7; ++v) {
    SCOPED_TRACE(v);
    const Bytes expected{static_cast<uint8_t>(static_cast<int8_t>(v))};
    EXPECT_EQ(fill2(t2, std::to_string(v)), expected);
    EXPECT_EQ(fill3(t3, std::to_string(v)), expected);
    EXPECT_EQ(t2.fill_value_to_v2_json(expected), std::to_string(v));
    EXPECT_EQ(t3.fill_value_to_v3_json(expected), std::to_string(v));
  }
  EXPECT_EQ(fill2(t2, "-3.0"), Bytes{0xfd});  // v2 takes integral floats, as for other integers
  // A byte whose high bits disagree with bit 3 reads as its low 4 bits.
  EXPECT_EQ(t2.fill_value_to_v2_json(Bytes{0x0f}), "-1");
  EXPECT_EQ(t3.fill_value_to_v3_json(Bytes{0xf7}), "7");
  EXPECT_EQ(t3.default_fill_value_v3(), Bytes{0});
}

TEST(TensorStoreTypes, BadInt4FillValues) {
  const DataType t2 = dtype("\"int4\"");
  const DataType t3 = v3type("\"int4\"");
  for (const char* json : {"8", "-9", "15", "255", "-128", "18446744073709551615", "1e300"}) {
    SCOPED_TRACE(json);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill(t2, json); }, {kFill2Where, "int4", "out of range [-8, 7]"});
  }
  for (const char* json : {"8", "-9", "15", "255", "-128", "18446744073709551615"}) {
    SCOPED_TRACE(json);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(t3, json); }, {kFill3Where, "int4", "out of range [-8, 7]"});
  }
  for (const char* json : {"1.5", "\"1\"", "true", "[1]", "\"NaN\""}) {
    SCOPED_TRACE(json);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill(t2, json); }, {kFill2Where, "int4"});
  }
  for (const char* json : {"1.0", "1e0", "\"1\"", "true", "null", "\"0x01\""}) {
    SCOPED_TRACE(json);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(t3, json); }, {kFill3Where, "fill_value", "int4"});
  }
}

}  // namespace
}  // namespace zarr::test
