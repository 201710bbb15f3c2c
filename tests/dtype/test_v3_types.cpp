// Zarr v3 data types: every core and extension name, both spellings, their
// JSON back, and every rejection.
#include <gtest/gtest.h>

#include <cstring>

#include "dtype/byte_order.h"
#include "dtype_test_util.h"
#include "support/test_support.h"

namespace zarr::test {
namespace {

const char* kV3Where = "a/zarr.json: field 'data_type'";

DataType v3type(const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return DataType::parse_v3(doc, kV3Where);
}

bool host_big() { return dtype_detail::host_is_big_endian(); }

struct CoreCase {
  const char* name;
  DTypeKind kind;
  size_t size;
  bool ordered;  // has a byte order
};

const CoreCase kCore[] = {
    {"bool", DTypeKind::Bool, 1, false},         {"int8", DTypeKind::Int, 1, false},
    {"int16", DTypeKind::Int, 2, true},          {"int32", DTypeKind::Int, 4, true},
    {"int64", DTypeKind::Int, 8, true},          {"uint8", DTypeKind::UInt, 1, false},
    {"uint16", DTypeKind::UInt, 2, true},        {"uint32", DTypeKind::UInt, 4, true},
    {"uint64", DTypeKind::UInt, 8, true},        {"float16", DTypeKind::Float, 2, true},
    {"float32", DTypeKind::Float, 4, true},      {"float64", DTypeKind::Float, 8, true},
    {"complex64", DTypeKind::Complex, 8, true},  {"complex128", DTypeKind::Complex, 16, true},
};

TEST(V3Types, CoreNamesInHostByteOrder) {
  for (const CoreCase& c : kCore) {
    SCOPED_TRACE(c.name);
    const std::string quoted = std::string("\"") + c.name + "\"";
    const DataType t = v3type(quoted);
    EXPECT_EQ(t.kind(), c.kind);
    EXPECT_EQ(t.item_size(), c.size);
    EXPECT_FALSE(t.needs_byte_swap());
    EXPECT_EQ(t.big_endian(), c.ordered && host_big());
    EXPECT_EQ(t.has_byte_order(), c.ordered);
    EXPECT_FALSE(t.is_variable_length());
    EXPECT_EQ(t.v3_name(), std::optional<std::string>(c.name));
    EXPECT_EQ(t.to_v3_json(), quoted);
    // The object form of a short-hand name, with or without an empty configuration.
    EXPECT_EQ(v3type(std::string("{\"name\":") + quoted + "}"), t);
    EXPECT_EQ(v3type(std::string("{\"name\":") + quoted + ",\"configuration\":{}}"), t);
    EXPECT_EQ(v3type(std::string("{\"name\":") + quoted + ",\"must_understand\":true}"), t);
    expect_error(ZARR_ERR_INVALID_METADATA,
                 [&] { v3type(std::string("{\"name\":") + quoted + ",\"configuration\":{\"x\":1}}"); },
                 {kV3Where, c.name, "takes no configuration"});
  }
}

TEST(V3Types, RawBits) {
  for (int bits : {8, 16, 24, 64, 80, 1024}) {
    SCOPED_TRACE(bits);
    const std::string name = "r" + std::to_string(bits);
    const DataType t = v3type("\"" + name + "\"");
    EXPECT_EQ(t.kind(), DTypeKind::Void);
    EXPECT_EQ(t.item_size(), static_cast<size_t>(bits / 8));
    EXPECT_FALSE(t.has_byte_order());
    EXPECT_EQ(t.v3_name(), std::optional<std::string>(name));
    EXPECT_EQ(t.to_v3_json(), "\"" + name + "\"");
    EXPECT_EQ(t.to_v2_json(), "\"|V" + std::to_string(bits / 8) + "\"");
  }
  // Same layout as raw_bytes: the types compare equal, but keep their spelling.
  EXPECT_EQ(v3type("\"r16\""), v3type(R"({"name":"raw_bytes","configuration":{"length_bytes":2}})"));
  for (const char* bad : {"\"r0\"", "\"r12\"", "\"r7\"", "\"r9999999999999999\"", "\"r17179869184\""}) {
    SCOPED_TRACE(bad);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { v3type(bad); }, {kV3Where});
  }
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { v3type(R"({"name":"r8","configuration":{"a":1}})"); },
               {"takes no configuration"});
  // "r" alone or with letters is not a raw type: an unknown name.
  expect_error(ZARR_ERR_UNSUPPORTED, [&] { v3type("\"r\""); }, {"\"r\""});
  expect_error(ZARR_ERR_UNSUPPORTED, [&] { v3type("\"r8x\""); }, {"\"r8x\""});
}

TEST(V3Types, BFloat16) {
  const DataType t = v3type("\"bfloat16\"");
  EXPECT_EQ(t.kind(), DTypeKind::BFloat16);
  EXPECT_EQ(t.item_size(), 2u);
  EXPECT_TRUE(t.has_byte_order());
  EXPECT_FALSE(t.needs_byte_swap());
  EXPECT_EQ(t.v3_name(), std::optional<std::string>("bfloat16"));
  EXPECT_EQ(t.to_v3_json(), "\"bfloat16\"");
  EXPECT_EQ(t.to_v2_json(), "\"bfloat16\"");
  // The bytes codec's "endian" turns it into a stored type of that order.
  const DataType other = t.with_byte_order(!host_big());
  EXPECT_TRUE(other.needs_byte_swap());
  EXPECT_NE(other, t);
  EXPECT_EQ(other.with_byte_order(host_big()), t);
  uint8_t data[4] = {1, 2, 3, 4};
  other.swap_in_place(data, 2);
  EXPECT_EQ(hex(Bytes(data, data + 4)), "02010403");
  EXPECT_NE(t, v3type("\"float16\""));
  EXPECT_NE(t, v3type("\"int16\""));
}

TEST(V3Types, VariableLength) {
  const DataType s = v3type("\"string\"");
  EXPECT_EQ(s.kind(), DTypeKind::VarString);
  EXPECT_EQ(s.item_size(), kVarItemSize);
  EXPECT_TRUE(s.is_variable_length());
  EXPECT_FALSE(s.has_byte_order());
  EXPECT_FALSE(s.contains_object());
  EXPECT_EQ(s.to_v3_json(), "\"string\"");
  EXPECT_EQ(s.to_v2_json(), "\"|O\"");
  for (const char* name : {"\"variable_length_bytes\"", "\"bytes\"", R"({"name":"bytes"})"}) {
    SCOPED_TRACE(name);
    const DataType b = v3type(name);
    EXPECT_EQ(b.kind(), DTypeKind::VarBytes);
    EXPECT_EQ(b.item_size(), kVarItemSize);
    EXPECT_TRUE(b.is_variable_length());
    // Written back as read: zarr-python 3's spelling, or the registry's "bytes"
    // (whose schema accepts only that); either way one type, named by v3_name() as
    // zarr-python 3 does.
    EXPECT_EQ(b.to_v3_json(), std::string(name) == "\"variable_length_bytes\"" ? "\"variable_length_bytes\"" : "\"bytes\"");
    EXPECT_EQ(b.v3_name(), "variable_length_bytes");
    EXPECT_EQ(b, v3type("\"variable_length_bytes\""));
    EXPECT_NE(b, s);
  }
  for (const char* name : {"string", "bytes", "variable_length_bytes", "bfloat16"}) {
    SCOPED_TRACE(name);
    expect_error(ZARR_ERR_INVALID_METADATA,
                 [&] { v3type(std::string("{\"name\":\"") + name + R"(","configuration":{"length_bytes":4}})"); },
                 {kV3Where, "takes no configuration"});
  }
  // Not the same as numpy's object type, though both are "|O" in v2.
  EXPECT_NE(s, dtype("\"|O\""));
}

struct TimeCase {
  const char* configuration;
  const char* unit;        // DataType::time_unit()
  const char* written;     // the configuration to_v3_json writes
};

TEST(V3Types, DateTimeAndTimeDelta) {
  const TimeCase cases[] = {
      {R"({"unit":"ns","scale_factor":1})", "ns", R"({"unit":"ns","scale_factor":1})"},
      {R"({"unit":"ms","scale_factor":10})", "10ms", R"({"unit":"ms","scale_factor":10})"},
      {R"({"scale_factor":7,"unit":"D"})", "7D", R"({"unit":"D","scale_factor":7})"},
      {R"({"unit":"\u03bcs","scale_factor":1})", "us", R"({"unit":"us","scale_factor":1})"},
      {R"({"unit":"generic","scale_factor":1})", "", R"({"unit":"generic","scale_factor":1})"},
      {R"({"unit":"as","scale_factor":2147483647})", "2147483647as", R"({"unit":"as","scale_factor":2147483647})"},
  };
  for (const char* units : {"Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"}) {
    const DataType t = v3type(std::string(R"({"name":"numpy.datetime64","configuration":{"unit":")") + units +
                              R"(","scale_factor":1}})");
    EXPECT_EQ(t.time_unit(), units);
  }
  for (const char* prefix : {"numpy.", ""}) {
    for (const char* kind : {"datetime64", "timedelta64"}) {
      for (const TimeCase& c : cases) {
        const std::string name = std::string(prefix) + kind;
        SCOPED_TRACE(name + " " + c.configuration);
        const DataType t = v3type("{\"name\":\"" + name + "\",\"configuration\":" + c.configuration + "}");
        EXPECT_EQ(t.kind(), std::string(kind) == "datetime64" ? DTypeKind::DateTime : DTypeKind::TimeDelta);
        EXPECT_EQ(t.item_size(), 8u);
        EXPECT_EQ(t.time_unit(), c.unit);
        EXPECT_FALSE(t.needs_byte_swap());
        EXPECT_TRUE(t.has_byte_order());
        EXPECT_EQ(t.to_v3_json(), std::string("{\"name\":\"numpy.") + kind + "\",\"configuration\":" + c.written + "}");
        EXPECT_EQ(v3type(t.to_v3_json()), t);
      }
    }
  }
  // The same type as the v2 typestr.
  EXPECT_EQ(v3type(R"({"name":"numpy.datetime64","configuration":{"unit":"ms","scale_factor":10}})")
                .with_byte_order(false),
            dtype("\"<M8[10ms]\""));
}

TEST(V3Types, DateTimeErrors) {
  const std::string head = R"({"name":"numpy.datetime64")";
  const struct {
    std::string rest;
    const char* says;
  } cases[] = {
      {"}", "needs a \"configuration\""},
      {R"(,"configuration":{"unit":"ns"}})", "scale_factor"},
      {R"(,"configuration":{"scale_factor":1}})", "\"unit\""},
      {R"(,"configuration":{"unit":"ns","scale_factor":1,"endianness":"little"}})", "endianness"},
      {R"(,"configuration":{"unit":"sec","scale_factor":1}})", "sec"},
      {R"(,"configuration":{"unit":5,"scale_factor":1}})", "unit"},
      {R"(,"configuration":{"unit":"ns","scale_factor":0}})", "scale_factor"},
      {R"(,"configuration":{"unit":"ns","scale_factor":-1}})", "scale_factor"},
      {R"(,"configuration":{"unit":"ns","scale_factor":2147483648}})", "scale_factor"},
      {R"(,"configuration":{"unit":"ns","scale_factor":1.5}})", "scale_factor"},
      {R"(,"configuration":{"unit":"generic","scale_factor":2}})", "generic"},
      {R"(,"configuration":[]})", "configuration"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.rest);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { v3type(head + c.rest); }, {kV3Where, c.says});
  }
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { v3type("\"numpy.timedelta64\""); }, {"needs a \"configuration\""});
}

TEST(V3Types, FixedLengthTypes) {
  const DataType u = v3type(R"({"name":"fixed_length_utf32","configuration":{"length_bytes":16}})");
  EXPECT_EQ(u.kind(), DTypeKind::Unicode);
  EXPECT_EQ(u.item_size(), 16u);
  EXPECT_FALSE(u.needs_byte_swap());
  EXPECT_TRUE(u.has_byte_order());
  EXPECT_EQ(u.to_v3_json(), R"({"name":"fixed_length_utf32","configuration":{"length_bytes":16}})");
  EXPECT_EQ(u.with_byte_order(true), dtype("\">U4\""));

  const DataType s = v3type(R"({"name":"null_terminated_bytes","configuration":{"length_bytes":5}})");
  EXPECT_EQ(s.kind(), DTypeKind::Bytes);
  EXPECT_EQ(s.item_size(), 5u);
  EXPECT_EQ(s, dtype("\"|S5\""));
  EXPECT_EQ(s.to_v3_json(), R"({"name":"null_terminated_bytes","configuration":{"length_bytes":5}})");

  const DataType v = v3type(R"({"name":"raw_bytes","configuration":{"length_bytes":3}})");
  EXPECT_EQ(v.kind(), DTypeKind::Void);
  EXPECT_EQ(v.item_size(), 3u);
  EXPECT_EQ(v.v3_name(), std::nullopt);
  EXPECT_EQ(v.to_v3_json(), R"({"name":"raw_bytes","configuration":{"length_bytes":3}})");

  const struct {
    const char* json;
    int code;
    const char* says;
  } bad[] = {
      {R"({"name":"fixed_length_utf32","configuration":{"length_bytes":6}})", ZARR_ERR_INVALID_METADATA, "multiple of 4"},
      {R"({"name":"fixed_length_utf32","configuration":{"length_bytes":0}})", ZARR_ERR_UNSUPPORTED, "length_bytes"},
      {R"({"name":"fixed_length_utf32","configuration":{"length_bytes":2147483648}})", ZARR_ERR_INVALID_METADATA, "too large"},
      {R"({"name":"fixed_length_utf32","configuration":{"length_bytes":"4"}})", ZARR_ERR_INVALID_METADATA, "length_bytes"},
      {R"({"name":"fixed_length_utf32","configuration":{"length_bytes":-4}})", ZARR_ERR_INVALID_METADATA, "length_bytes"},
      {R"({"name":"fixed_length_utf32","configuration":{}})", ZARR_ERR_INVALID_METADATA, "length_bytes"},
      {R"({"name":"fixed_length_utf32","configuration":{"length_bytes":4,"x":1}})", ZARR_ERR_INVALID_METADATA, "\"x\""},
      {R"({"name":"fixed_length_utf32"})", ZARR_ERR_INVALID_METADATA, "configuration"},
      {R"("fixed_length_utf32")", ZARR_ERR_INVALID_METADATA, "configuration"},
      {R"({"name":"null_terminated_bytes","configuration":{"length_bytes":0}})", ZARR_ERR_INVALID_METADATA, "at least 1"},
      {R"({"name":"raw_bytes","configuration":{"length_bytes":0}})", ZARR_ERR_INVALID_METADATA, "at least 1"},
      {R"({"name":"raw_bytes","configuration":{"length_bytes":2147483648}})", ZARR_ERR_INVALID_METADATA, "too large"},
      {R"("raw_bytes")", ZARR_ERR_INVALID_METADATA, "configuration"},
  };
  for (const auto& c : bad) {
    SCOPED_TRACE(c.json);
    expect_error(c.code, [&] { v3type(c.json); }, {kV3Where, c.says});
  }
}

TEST(V3Types, UnknownNamesAreUnsupported) {
  for (const char* name : {"int3", "complex_float128", "float8_e6m1", "foo",
                           "Int16", "float128", "https://example.com/datetime"}) {
    SCOPED_TRACE(name);
    const std::string quoted = std::string("\"") + name + "\"";
    expect_error(ZARR_ERR_UNSUPPORTED, [&] { v3type(quoted); }, {kV3Where, quoted, "not supported"});
    expect_error(ZARR_ERR_UNSUPPORTED,
                 [&] { v3type("{\"name\":" + quoted + ",\"configuration\":{\"name\":\"uint8\"}}"); }, {quoted});
  }
}

// Names the zarr-extensions registry lacks say only that they are unknown
// (every data type it holds is implemented: RegistryTypes.EveryRegisteredDataTypeOpens).
TEST(V3Types, UnknownNamesSayWhetherTheRegistryHasThem) {
  for (const char* name : {"\"foo\"", "\"r\""}) {
    SCOPED_TRACE(name);
    const Caught caught = catch_error([&] { v3type(name); });
    EXPECT_EQ(caught.code, ZARR_ERR_UNSUPPORTED) << caught.message;
    EXPECT_EQ(caught.message.find("registry"), std::string::npos) << caught.message;
  }
}

TEST(V3Types, MalformedDataTypes) {
  for (const char* bad : {"5", "null", "true", "[]", "[\"int16\"]", R"({"configuration":{}})", R"({"name":5})",
                          R"({"name":"int16","configuration":5})", R"({"name":"int16","must_understand":false})",
                          R"({"name":"int16","must_understand":"no"})", R"({"name":"int16","extra":1})"}) {
    SCOPED_TRACE(bad);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { v3type(bad); }, {kV3Where});
  }
}

TEST(V3Types, FromV2Types) {
  EXPECT_EQ(dtype("\">i4\"").to_v3_json(), "\"int32\"");
  EXPECT_EQ(dtype("\"|b1\"").to_v3_json(), "\"bool\"");
  EXPECT_EQ(dtype("\"<m8[10us]\"").to_v3_json(),
            R"({"name":"numpy.timedelta64","configuration":{"unit":"us","scale_factor":10}})");
  EXPECT_EQ(dtype("\"<M8\"").to_v3_json(),
            R"({"name":"numpy.datetime64","configuration":{"unit":"generic","scale_factor":1}})");
  EXPECT_EQ(dtype("\"|S5\"").to_v3_json(), R"({"name":"null_terminated_bytes","configuration":{"length_bytes":5}})");
  EXPECT_EQ(dtype("\"|V3\"").to_v3_json(), R"({"name":"raw_bytes","configuration":{"length_bytes":3}})");
  EXPECT_EQ(dtype("\">U2\"").to_v3_json(), R"({"name":"fixed_length_utf32","configuration":{"length_bytes":8}})");
  EXPECT_EQ(dtype("\"|V3\"").v3_name(), std::nullopt);  // unchanged for v2 types
  // Structured types are v3 structs (test_struct_v3.cpp), but not with a subarray field.
  expect_error(ZARR_ERR_UNSUPPORTED, [] { dtype("[[\"a\",\"<i4\",[2]]]").to_v3_json(); }, {"v3"});
  expect_error(ZARR_ERR_UNSUPPORTED, [] { dtype("\"|O\"").to_v3_json(); }, {"v3"});
}

TEST(V3Types, EveryFormRoundTrips) {
  for (const char* json : {"\"bool\"", "\"int64\"", "\"complex128\"", "\"bfloat16\"", "\"r40\"", "\"string\"",
                           "\"variable_length_bytes\"",
                           R"({"name":"numpy.datetime64","configuration":{"unit":"W","scale_factor":3}})",
                           R"({"name":"numpy.timedelta64","configuration":{"unit":"generic","scale_factor":1}})",
                           R"({"name":"fixed_length_utf32","configuration":{"length_bytes":4}})",
                           R"({"name":"null_terminated_bytes","configuration":{"length_bytes":1}})",
                           R"({"name":"raw_bytes","configuration":{"length_bytes":9}})"}) {
    SCOPED_TRACE(json);
    const DataType t = v3type(json);
    EXPECT_EQ(t.to_v3_json(), json);
    EXPECT_EQ(v3type(t.to_v3_json()), t);
  }
}

TEST(V3Types, HasByteOrder) {
  EXPECT_FALSE(dtype("\"|S4\"").has_byte_order());
  EXPECT_FALSE(dtype("\"|V4\"").has_byte_order());
  EXPECT_TRUE(dtype("\">U1\"").has_byte_order());
  EXPECT_TRUE(dtype("\"<c8\"").has_byte_order());
  EXPECT_FALSE(dtype("[[\"a\",\"|u1\"],[\"b\",\"|S2\"]]").has_byte_order());
  EXPECT_TRUE(dtype("[[\"a\",\"|u1\"],[\"b\",\"<i2\"]]").has_byte_order());
}

}  // namespace
}  // namespace zarr::test
