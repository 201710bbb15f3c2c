// The zarr-extensions registry's sub-byte integers (int2, uint2, uint4 beside
// int4), small floats (float4_e2m1fn, float6_*, float8_e3m4, float8_e4m3,
// float8_e8m0fnu) and complex types (complex_float16, complex_bfloat16, the
// complex small floats, the complex_float32 / complex_float64 aliases) as
// DataTypes: names, layouts, fill values of every code both ways, and the
// element conversions of every value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "base/zarr_extensions.h"
#include "dtype/bfloat16.h"
#include "dtype/convert.h"
#include "dtype/float_text.h"
#include "dtype/sub_byte_int.h"
#include "dtype_test_util.h"

namespace zarr::test {
namespace {

const char* kTypeWhere = "a/zarr.json: field 'data_type'";
const char* kFillWhere = "a/zarr.json: field 'fill_value'";

DataType v3type(const std::string& name) {
  rapidjson::Document doc = json::parse("\"" + name + "\"", "test");
  return DataType::parse_v3(doc, kTypeWhere);
}

Bytes fill3(const DataType& t, const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return t.parse_fill_value_v3(doc, kFillWhere);
}

const char* const kSmallFloats[] = {"float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "float8_e3m4",
                                    "float8_e4m3",   "float8_e8m0fnu"};
const char* const kSubByteInts[] = {"int2", "int4", "uint2", "uint4"};

TEST(RegistryTypes, NamesLayoutsAndV3Json) {
  for (const char* name : kSmallFloats) {
    SCOPED_TRACE(name);
    const DataType t = v3type(name);
    EXPECT_EQ(t.kind(), DTypeKind::Float8);
    EXPECT_EQ(t.item_size(), 1u);
    EXPECT_FALSE(t.has_byte_order());
    EXPECT_EQ(t.v3_name(), name);
    EXPECT_EQ(t.to_v3_json(), std::string("\"") + name + "\"");
    EXPECT_EQ(dtype(std::string("\"") + name + "\""), t);  // TensorStore's v2 name is the same
    EXPECT_TRUE(is_numeric(t));
  }
  for (const char* name : kSubByteInts) {
    SCOPED_TRACE(name);
    const DataType t = v3type(name);
    EXPECT_EQ(t.kind(), name[0] == 'i' ? DTypeKind::SubByteInt : DTypeKind::SubByteUInt);
    EXPECT_EQ(t.integer_bits(), name[std::strlen(name) - 1] == '2' ? 2u : 4u);
    EXPECT_EQ(t.item_size(), 1u);
    EXPECT_EQ(t.v3_name(), name);
    EXPECT_EQ(t.to_v3_json(), std::string("\"") + name + "\"");
    EXPECT_EQ(dtype(std::string("\"") + name + "\""), t);
  }
  const struct {
    const char* name;
    size_t size;
    bool byte_order;
  } complex[] = {{"complex_float16", 4, true},        {"complex_bfloat16", 4, true},
                 {"complex_float4_e2m1fn", 2, false}, {"complex_float6_e2m3fn", 2, false},
                 {"complex_float6_e3m2fn", 2, false}, {"complex_float8_e3m4", 2, false},
                 {"complex_float8_e4m3", 2, false},   {"complex_float8_e4m3b11fnuz", 2, false},
                 {"complex_float8_e4m3fnuz", 2, false}, {"complex_float8_e5m2", 2, false},
                 {"complex_float8_e5m2fnuz", 2, false}, {"complex_float8_e8m0fnu", 2, false},
                 {"complex_float32", 8, true},        {"complex_float64", 16, true}};
  for (const auto& c : complex) {
    SCOPED_TRACE(c.name);
    const DataType t = v3type(c.name);
    EXPECT_EQ(t.kind(), DTypeKind::Complex);
    EXPECT_EQ(t.item_size(), c.size);
    EXPECT_EQ(t.has_byte_order(), c.byte_order);
    EXPECT_EQ(t.v3_name(), c.name);  // the aliases keep their spelling
    EXPECT_EQ(t.to_v3_json(), std::string("\"") + c.name + "\"");
    EXPECT_EQ(t.with_byte_order(true).v3_name(), c.name);
    EXPECT_EQ(t.with_byte_order(true).has_byte_order(), c.byte_order);
    EXPECT_EQ(t.with_byte_order(true).needs_byte_swap(), c.byte_order);  // on a little-endian host
    EXPECT_TRUE(is_numeric(t));
  }
  // The aliases are the core types; the others are distinct types.
  EXPECT_EQ(v3type("complex_float32"), v3type("complex64"));
  EXPECT_EQ(v3type("complex_float64"), v3type("complex128"));
  EXPECT_NE(v3type("complex_float16"), v3type("complex_bfloat16"));
  EXPECT_NE(v3type("complex_float8_e4m3"), v3type("complex_float8_e5m2"));
  // v2 has no complex extension types (TensorStore writes none).
  expect_error(ZARR_ERR_UNSUPPORTED, [] { dtype("\"complex_float16\""); }, {"complex_float16"});
}

// Big-endian storage swaps each half of complex_float16 / complex_bfloat16.
TEST(RegistryTypes, ComplexHalvesSwapSeparately) {
  const DataType big = v3type("complex_bfloat16").with_byte_order(true);
  uint8_t data[] = {0x3f, 0x80, 0x40, 0x00};  // 1.0, 2.0 big-endian
  big.swap_in_place(data, 1);
  EXPECT_EQ(dtype_detail::bfloat16_to_double(load_unaligned<uint16_t>(data)), 1.0);
  EXPECT_EQ(dtype_detail::bfloat16_to_double(load_unaligned<uint16_t>(data + 2)), 2.0);
}

// Every code of every small float as a fill value: its "0x" form and the
// form libzarr writes give the code back (NaN: the canonical one).
TEST(RegistryTypes, SmallFloatFillValuesOfEveryCodeRoundTrip) {
  for (const char* name : kSmallFloats) {
    SCOPED_TRACE(name);
    const DataType t = v3type(name);
    const int bits = dtype_detail::float8_value_bits(t.float8_format());
    for (int code = 0; code < (1 << bits); ++code) {
      SCOPED_TRACE(code);
      char hex_form[16];
      std::snprintf(hex_form, sizeof hex_form, "\"0x%02x\"", code);
      const Bytes raw = fill3(t, hex_form);
      ASSERT_EQ(raw, Bytes{static_cast<uint8_t>(code)});
      const std::string written = t.fill_value_to_v3_json(raw);
      const Bytes back = fill3(t, written);
      if (dtype_detail::float8_is_nan(static_cast<uint8_t>(code), t.float8_format())) {
        EXPECT_TRUE(dtype_detail::float8_is_nan(back[0], t.float8_format())) << written;
      } else {
        EXPECT_EQ(back, raw) << written;
      }
    }
  }
  // The registry's "NaN" codes.
  EXPECT_EQ(fill3(v3type("float8_e4m3"), "\"NaN\""), Bytes{0x7c});
  EXPECT_EQ(fill3(v3type("float8_e3m4"), "\"NaN\""), Bytes{0x78});
  EXPECT_EQ(fill3(v3type("float8_e8m0fnu"), "\"NaN\""), Bytes{0xff});
  EXPECT_EQ(v3type("float8_e4m3").fill_value_to_v3_json(Bytes{0x7c}), "\"NaN\"");
  EXPECT_EQ(v3type("float8_e4m3").fill_value_to_v3_json(Bytes{0x7d}), "\"0x7d\"");  // another NaN keeps its bits
  EXPECT_EQ(fill3(v3type("float8_e4m3"), "\"-Infinity\""), Bytes{0xf8});
  EXPECT_EQ(fill3(v3type("float8_e3m4"), "\"Infinity\""), Bytes{0x70});
  EXPECT_EQ(fill3(v3type("float4_e2m1fn"), "-6"), Bytes{0x0f});
  EXPECT_EQ(fill3(v3type("float4_e2m1fn"), "2.5"), Bytes{0x04});  // a tie: to the even code (2.0)
  EXPECT_EQ(fill3(v3type("float8_e8m0fnu"), "1024"), Bytes{137});
}

TEST(RegistryTypes, SmallFloatFillValuesTheTypesCannotHold) {
  const struct {
    const char* type;
    const char* fill;
    const char* says;
  } bad[] = {
      {"float4_e2m1fn", "\"NaN\"", "the type has no NaN"},
      {"float6_e2m3fn", "\"Infinity\"", "the type has no infinity"},
      {"float6_e3m2fn", "\"-Infinity\"", "the type has no infinity"},
      {"float8_e8m0fnu", "\"Infinity\"", "the type has no infinity"},
      {"float8_e4m3fnuz", "\"Infinity\"", "the type has no infinity"},
      {"float4_e2m1fn", "7", "not representable"},  // past 6 + half a step
      {"float6_e2m3fn", "-8", "not representable"},
      {"float8_e8m0fnu", "0", "not representable"},
      {"float8_e8m0fnu", "-1", "not representable"},
      {"float4_e2m1fn", "\"0x10\"", "bits above the type's 4"},
      {"float6_e3m2fn", "\"0x40\"", "bits above the type's 6"},
      {"float4_e2m1fn", "\"0x1\"", "exactly 2 hex digits"},
  };
  for (const auto& c : bad) {
    SCOPED_TRACE(std::string(c.type) + " " + c.fill);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(v3type(c.type), c.fill); }, {kFillWhere, c.type, c.says});
  }
  // v2 (TensorStore's casts) likewise refuses what a type without NaN would lose.
  expect_error(ZARR_ERR_INVALID_METADATA, [] { fill(dtype("\"float4_e2m1fn\""), "\"NaN\""); }, {"not representable"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { fill(dtype("\"float6_e2m3fn\""), "100"); }, {"not representable"});
  EXPECT_EQ(fill(dtype("\"float8_e4m3\""), "\"Infinity\""), Bytes{0x78});
}

TEST(RegistryTypes, SubByteIntegerFillValuesOfEveryValue) {
  for (const char* name : kSubByteInts) {
    SCOPED_TRACE(name);
    const DataType t = v3type(name);
    const int bits = static_cast<int>(t.integer_bits());
    const int low = t.is_signed_integer() ? -(1 << (bits - 1)) : 0;
    const int high = t.is_signed_integer() ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
    for (int v = low; v <= high; ++v) {
      const Bytes stored = fill3(t, std::to_string(v));
      // One byte holding the value, sign-extended (a byte read as int8 is the value).
      EXPECT_EQ(stored, Bytes{static_cast<uint8_t>(static_cast<int8_t>(v))}) << v;
      EXPECT_EQ(t.fill_value_to_v3_json(stored), std::to_string(v));
      EXPECT_EQ(fill(t, std::to_string(v)), stored);  // v2 alike
    }
    const std::string range = "out of range [" + std::to_string(low) + ", " + std::to_string(high) + "]";
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(t, std::to_string(high + 1)); }, {kFillWhere, range});
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill3(t, std::to_string(low - 1)); }, {kFillWhere, range});
    // Bits above the value's are ignored when written by another tool.
    EXPECT_EQ(t.fill_value_to_v3_json(Bytes{static_cast<uint8_t>(0xa0 | (high & 0x0f))}), std::to_string(high));
  }
}

TEST(RegistryTypes, ComplexFillValues) {
  EXPECT_EQ(hex(fill3(v3type("complex_float16"), "[1.0, \"NaN\"]")), "003c007e");
  EXPECT_EQ(hex(fill3(v3type("complex_bfloat16"), "[-2.0, \"0x7f81\"]")), "00c0817f");
  EXPECT_EQ(hex(fill3(v3type("complex_float8_e5m2"), "[\"-Infinity\", 0.5]")), "fc38");
  EXPECT_EQ(hex(fill3(v3type("complex_float4_e2m1fn"), "[3.0, -0.5]")), "0509");
  EXPECT_EQ(v3type("complex_float16").fill_value_to_v3_json(unhex("003c007e")), "[1.0,\"NaN\"]");
  EXPECT_EQ(v3type("complex_bfloat16").fill_value_to_v3_json(unhex("00c0817f")), "[-2.0,\"0x7f81\"]");
  EXPECT_EQ(v3type("complex_float8_e8m0fnu").fill_value_to_v3_json(unhex("7fff")), "[1.0,\"NaN\"]");
  EXPECT_EQ(v3type("complex_float32").fill_value_to_v3_json(fill3(v3type("complex_float32"), "[1.5, -0.25]")),
            "[1.5,-0.25]");
  expect_error(ZARR_ERR_INVALID_METADATA, [] { fill3(v3type("complex_float4_e2m1fn"), "[\"NaN\", 0]"); },
               {"real part", "the type has no NaN"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { fill3(v3type("complex_float16"), "[1.0]"); }, {"[real, imaginary]"});
  expect_error(ZARR_ERR_INVALID_METADATA, [] { fill3(v3type("complex_float16"), "[1.0, \"0x7e\"]"); },
               {"imaginary part", "exactly 4 hex digits"});
}

// Every value of every sub-byte integer into int8, uint8 and float64 and
// back; out of range values are reported, never wrapped.
TEST(RegistryTypes, SubByteIntegerConversions) {
  const DataType i8 = v3type("int8"), u8 = v3type("uint8"), f64 = v3type("float64");
  for (const char* name : kSubByteInts) {
    SCOPED_TRACE(name);
    const DataType t = v3type(name);
    for (int byte = 0; byte < 256; ++byte) {
      const uint8_t in = static_cast<uint8_t>(byte);
      const int want = dtype_detail::sub_byte_value(in, static_cast<int>(t.integer_bits()), t.is_signed_integer());
      int8_t as_i8 = 0;
      ASSERT_FALSE(convert_elements(&in, t, reinterpret_cast<uint8_t*>(&as_i8), i8, 1));
      EXPECT_EQ(as_i8, want);
      uint8_t as_u8 = 0;
      EXPECT_EQ(convert_elements(&in, t, &as_u8, u8, 1).has_value(), want < 0);
      double as_f64 = 0;
      ASSERT_FALSE(convert_elements(&in, t, reinterpret_cast<uint8_t*>(&as_f64), f64, 1));
      EXPECT_EQ(as_f64, want);
    }
    const int high = dtype_detail::sub_byte_max(static_cast<int>(t.integer_bits()), t.is_signed_integer());
    const int low = dtype_detail::sub_byte_min(static_cast<int>(t.integer_bits()), t.is_signed_integer());
    for (int v = -128; v < 128; ++v) {
      const int8_t in = static_cast<int8_t>(v);
      uint8_t out = 0xaa;
      const auto stop = convert_elements(reinterpret_cast<const uint8_t*>(&in), i8, &out, t, 1);
      EXPECT_EQ(stop.has_value(), v < low || v > high) << v;
      if (!stop) {
        EXPECT_EQ(out, static_cast<uint8_t>(in)) << v;  // sign-extended / zero-extended byte
      }
      const double d = v + 0.75;  // truncated toward zero
      const auto stop_f = convert_elements(reinterpret_cast<const uint8_t*>(&d), f64, &out, t, 1);
      const int whole = static_cast<int>(std::trunc(d));
      EXPECT_EQ(stop_f.has_value(), whole < low || whole > high) << d;
    }
  }
}

// complex_float16 / complex_bfloat16 / complex small floats against
// complex128: each half converts as its real type does.
TEST(RegistryTypes, ComplexConversions) {
  const DataType c128 = v3type("complex128");
  const double in[2] = {1.5, -0.25};
  for (const char* name : {"complex_float16", "complex_bfloat16", "complex_float8_e4m3", "complex_float4_e2m1fn",
                           "complex_float32", "complex_float64"}) {
    SCOPED_TRACE(name);
    const DataType t = v3type(name);
    uint8_t stored[16] = {};
    ASSERT_FALSE(convert_elements(reinterpret_cast<const uint8_t*>(in), c128, stored, t, 1));
    double back[2] = {};
    ASSERT_FALSE(convert_elements(stored, t, reinterpret_cast<uint8_t*>(back), c128, 1));
    EXPECT_EQ(back[0], 1.5);
    EXPECT_EQ(back[1], name == std::string("complex_float4_e2m1fn") ? 0.0 : -0.25);  // e2m1: -0.25 is a tie to -0
  }
  const double big[2] = {1e5, 0};
  uint8_t out[4];
  const auto stop = convert_elements(reinterpret_cast<const uint8_t*>(big), c128, out, v3type("complex_float16"), 1);
  ASSERT_TRUE(stop);
  EXPECT_EQ(stop->value, "(100000.0+0.0j)");
  EXPECT_TRUE(convert_elements(reinterpret_cast<const uint8_t*>(in), c128, out, v3type("complex_float8_e8m0fnu"), 1));
}

// Every data type of the registry opens (docs/v3.md's table says so).
TEST(RegistryTypes, EveryRegisteredDataTypeOpens) {
  for (const std::string& name : registered_extension_names(ExtensionPoint::DataType)) {
    SCOPED_TRACE(name);
    std::string json = "\"" + name + "\"";
    if (name == "r") json = "\"r8\"";
    if (name == "numpy.datetime64" || name == "numpy.timedelta64") {
      json = "{\"name\":\"" + name + "\",\"configuration\":{\"unit\":\"s\",\"scale_factor\":1}}";
    }
    if (name == "fixed_length_utf32") json = R"({"name":"fixed_length_utf32","configuration":{"length_bytes":4}})";
    if (name == "struct") json = R"({"name":"struct","configuration":{"fields":[{"name":"a","data_type":"int8"}]}})";
    if (name == "structured") json = R"({"name":"structured","configuration":{"fields":[["a","int8"]]}})";
    rapidjson::Document doc = json::parse(json, "test");
    EXPECT_NO_THROW(DataType::parse_v3(doc, kTypeWhere));
  }
}

}  // namespace
}  // namespace zarr::test
