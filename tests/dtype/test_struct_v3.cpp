// The v3 "struct" data type (and the legacy "structured" name): the
// registry's README examples, their layouts and fill values, every field
// type, nesting, the mapping to and from v2 structured dtypes, and each
// error naming the field at fault.
#include <gtest/gtest.h>

#include <cstring>

#include "base/zarr_extensions.h"
#include "dtype/byte_order.h"
#include "dtype_test_util.h"
#include "support/test_support.h"

namespace zarr::test {
namespace {

const char* kV3Where = "a/zarr.json: field 'data_type'";
const char* kFillWhere = "a/zarr.json: field 'fill_value'";

DataType v3type(const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return DataType::parse_v3(doc, kV3Where);
}

Bytes v3fill(const DataType& t, const std::string& json_text) {
  rapidjson::Document doc = json::parse(json_text, "test");
  return t.parse_fill_value_v3(doc, kFillWhere);
}

std::string with_fields(const std::string& fields) {
  return R"({"name":"struct","configuration":{"fields":)" + fields + "}}";
}

// The README's examples, as zarr-python 3.2+ writes them (compact).
const char* kPoint = R"({"name":"struct","configuration":{"fields":[{"name":"x","data_type":"float32"},)"
                     R"({"name":"y","data_type":"float32"}]}})";
const char* kTimestamped = R"({"name":"struct","configuration":{"fields":[{"name":"timestamp","data_type":)"
                           R"({"name":"numpy.datetime64","configuration":{"unit":"s","scale_factor":1}}},)"
                           R"({"name":"value","data_type":"float32"}]}})";
const char* kNested = R"({"name":"struct","configuration":{"fields":[{"name":"point","data_type":)"
                      R"({"name":"struct","configuration":{"fields":[{"name":"x","data_type":"float32"},)"
                      R"({"name":"y","data_type":"float32"}]}}},{"name":"value","data_type":"float64"}]}})";
const char* kPacked = R"({"name":"struct","configuration":{"fields":[{"name":"id","data_type":"int32"},)"
                      R"({"name":"flags","data_type":"uint8"},{"name":"value","data_type":"float64"}]}})";

TEST(StructV3, ReadmeExamplesRoundTrip) {
  for (const char* json_text : {kPoint, kTimestamped, kNested, kPacked}) {
    SCOPED_TRACE(json_text);
    const DataType t = v3type(json_text);
    EXPECT_EQ(t.kind(), DTypeKind::Structured);
    EXPECT_EQ(t.to_v3_json(), json_text);
    EXPECT_EQ(v3type(t.to_v3_json()), t);
  }
}

// "Bytes codec encoding": packed, no padding, offsets in declaration order,
// nested structs depth-first.
TEST(StructV3, PackedLayoutAsTheReadmeDraws) {
  const DataType packed = v3type(kPacked);
  EXPECT_EQ(packed.item_size(), 13u);
  ASSERT_EQ(packed.fields().size(), 3u);
  EXPECT_EQ(packed.fields()[0].offset, 0u);
  EXPECT_EQ(packed.fields()[1].offset, 4u);
  EXPECT_EQ(packed.fields()[2].offset, 5u);
  EXPECT_TRUE(packed.has_byte_order());

  const DataType nested = v3type(kNested);
  EXPECT_EQ(nested.item_size(), 16u);
  EXPECT_EQ(nested.fields()[0].type->kind(), DTypeKind::Structured);
  EXPECT_EQ(nested.fields()[0].type->fields()[1].offset, 4u);
  EXPECT_EQ(nested.fields()[1].offset, 8u);

  const DataType bytes_only = v3type(with_fields(R"([{"name":"a","data_type":"uint8"},{"name":"b","data_type":"int8"}])"));
  EXPECT_FALSE(bytes_only.has_byte_order());
}

// Fields are in host byte order (v3 keeps it in the bytes codec); the bytes
// codec's "endian" turns every field, nested ones too.
TEST(StructV3, ByteOrderComesFromTheBytesCodec) {
  const DataType nested = v3type(kNested);
  EXPECT_FALSE(nested.needs_byte_swap());
  const bool other = !dtype_detail::host_is_big_endian();
  const DataType stored = nested.with_byte_order(other);
  EXPECT_TRUE(stored.needs_byte_swap());
  uint8_t record[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  stored.swap_in_place(record, 1);
  const uint8_t swapped[16] = {4, 3, 2, 1, 8, 7, 6, 5, 16, 15, 14, 13, 12, 11, 10, 9};
  EXPECT_EQ(std::memcmp(record, swapped, 16), 0);
}

// Every fixed-size v3 type is a field type; each keeps its JSON in the struct.
TEST(StructV3, EveryFixedSizeFieldType) {
  for (const std::string& name : registered_extension_names(ExtensionPoint::DataType)) {
    if (name == "string" || name == "bytes" || name == "struct" || name == "structured") continue;
    SCOPED_TRACE(name);
    std::string type = "\"" + name + "\"";
    if (name == "r") type = "\"r16\"";
    if (name == "numpy.datetime64" || name == "numpy.timedelta64") {
      type = "{\"name\":\"" + name + "\",\"configuration\":{\"unit\":\"ms\",\"scale_factor\":10}}";
    }
    if (name == "fixed_length_utf32") type = R"({"name":"fixed_length_utf32","configuration":{"length_bytes":8}})";
    const std::string json_text = with_fields(R"([{"name":"v","data_type":)" + type + R"(},{"name":"k","data_type":"uint8"}])");
    const DataType t = v3type(json_text);
    const DataType field = v3type(type);
    EXPECT_EQ(t.item_size(), field.item_size() + 1);
    EXPECT_EQ(t.to_v3_json(), json_text);
    // The default fill value (zeros) written and read back.
    const Bytes zero = t.default_fill_value_v3();
    EXPECT_EQ(v3fill(t, t.fill_value_to_v3_json(zero)), zero) << t.fill_value_to_v3_json(zero);
  }
  // {"name": "float64"} without a configuration (the schema's relaxation, #63).
  EXPECT_EQ(v3type(with_fields(R"([{"name":"v","data_type":{"name":"float64"}}])")).to_v3_json(),
            with_fields(R"([{"name":"v","data_type":"float64"}])"));
}

TEST(StructV3, LegacyStructuredName) {
  const DataType legacy = v3type(R"({"name":"structured","configuration":{"fields":[["x","float32"],["y","float32"]]}})");
  EXPECT_EQ(legacy, v3type(kPoint));
  EXPECT_EQ(legacy.to_v3_json(), kPoint);  // never written as "structured"
  // zarr-python reads object fields under the legacy name too.
  EXPECT_EQ(v3type(R"({"name":"structured","configuration":{"fields":[{"name":"x","data_type":"float32"},)"
                   R"({"name":"y","data_type":"float32"}]}})"),
            legacy);
  const DataType nested = v3type(R"({"name":"structured","configuration":{"fields":[["p",)"
                                 R"({"name":"structured","configuration":{"fields":[["x","int16"]]}}],["v","uint8"]]}})");
  EXPECT_EQ(nested.item_size(), 3u);
}

// The v2 structured dtype and the v3 struct describe one record layout.
TEST(StructV3, MapsToAndFromV2Structured) {
  const DataType v2 = dtype(R"([["id","<i4"],["flags","|u1"],["value","<f8"]])");
  EXPECT_EQ(v2.to_v3_json(), kPacked);
  const DataType v3 = v3type(kPacked);
  EXPECT_EQ(v3.with_byte_order(false), v2);
  EXPECT_EQ(v3.with_byte_order(false).to_v2_json(), R"([["id","<i4"],["flags","|u1"],["value","<f8"]])");
  EXPECT_EQ(v3.with_byte_order(true).to_v2_json(), R"([["id",">i4"],["flags","|u1"],["value",">f8"]])");
  EXPECT_EQ(dtype(R"([["point",[["x","<f4"],["y","<f4"]]],["value","<f8"]])").to_v3_json(), kNested);
  EXPECT_EQ(dtype(R"([["s","|S3"],["t","<M8[ns]"]])").to_v3_json(),
            with_fields(R"([{"name":"s","data_type":{"name":"null_terminated_bytes","configuration":{"length_bytes":3}}},)"
                        R"({"name":"t","data_type":{"name":"numpy.datetime64","configuration":{"unit":"ns","scale_factor":1}}}])"));
  // A subarray field has no v3 form (zarr-python refuses it too): the error names it.
  expect_error(ZARR_ERR_UNSUPPORTED, [] { dtype(R"([["a","<i2"],["b","<f4",[3]]])").to_v3_json(); },
               {"field \"b\"", "subarray"});
  expect_error(ZARR_ERR_UNSUPPORTED,
               [] { dtype(R"([["a","<i2"],["b","<f4",[3]]])").fill_value_to_v3_json(Bytes(14)); },
               {"field \"b\"", "subarray"});
}

TEST(StructV3, FillValues) {
  const DataType point = v3type(kPoint);
  const Bytes f = v3fill(point, R"({"x": 1.23, "y": 4.56})");
  float xy[2];
  std::memcpy(xy, f.data(), 8);
  EXPECT_EQ(xy[0], 1.23f);
  EXPECT_EQ(xy[1], 4.56f);
  // Written as zarr-python 3 writes it: every field, in order, its own form.
  EXPECT_EQ(point.fill_value_to_v3_json(f), R"({"x":1.2300000190734863,"y":4.559999942779541})");
  EXPECT_EQ(point.fill_value_to_v3_json(Bytes(8, 0)), R"({"x":0.0,"y":0.0})");
  // Member order does not matter when reading.
  EXPECT_EQ(v3fill(point, R"({"y": 4.56, "x": 1.23})"), f);

  const DataType nested = v3type(kNested);
  const Bytes n = v3fill(nested, R"({"point": {"x": 1.0, "y": 2.0}, "value": 3.14})");
  EXPECT_EQ(nested.fill_value_to_v3_json(n), R"({"point":{"x":1.0,"y":2.0},"value":3.14})");

  const DataType mixed = v3type(kTimestamped);
  const Bytes m = v3fill(mixed, R"({"timestamp": "NaT", "value": "NaN"})");
  EXPECT_EQ(mixed.fill_value_to_v3_json(m), R"({"timestamp":-9223372036854775808,"value":"NaN"})");
}

// The legacy form: base64 of the packed record in the bytes codec's order.
TEST(StructV3, LegacyBase64FillValue) {
  const DataType packed = v3type(kPacked);
  // id = 1, flags = 2, value = 1.0, packed little-endian: 01000000 02 000000000000f03f.
  const std::string b64 = "\"AQAAAAIAAAAAAADwPw==\"";
  const Bytes native = packed.with_byte_order(false).parse_fill_value_v3(json::parse(b64, "t"), kFillWhere);
  EXPECT_EQ(packed.fill_value_to_v3_json(native), R"({"id":1,"flags":2,"value":1.0})");
  // The same bytes read as big-endian give other values.
  const Bytes big = packed.with_byte_order(true).parse_fill_value_v3(json::parse(b64, "t"), kFillWhere);
  EXPECT_NE(big, native);
  EXPECT_EQ(v3fill(packed, "\"AAAAAAAAAAAAAAAAAA==\""), Bytes(13, 0));
}

TEST(StructV3, ErrorsNameTheField) {
  struct Case {
    std::string json;
    int code;
    std::vector<std::string> says;
  };
  const Case cases[] = {
      {with_fields(R"([{"name":"x","data_type":"float32"},{"name":"x","data_type":"int8"}])"), ZARR_ERR_INVALID_METADATA,
       {"duplicate field name \"x\""}},
      {with_fields(R"([{"name":"x","data_type":"float32"},{"name":"y","data_type":"float128"}])"), ZARR_ERR_UNSUPPORTED,
       {"field \"y\"", "\"float128\""}},
      {with_fields(R"([{"name":"s","data_type":"string"}])"), ZARR_ERR_INVALID_METADATA, {"field \"s\"", "fixed size"}},
      {with_fields(R"([{"name":"b","data_type":"bytes"}])"), ZARR_ERR_INVALID_METADATA, {"field \"b\"", "fixed size"}},
      {with_fields(R"([{"name":"p","data_type":{"name":"struct","configuration":{"fields":[{"name":"q","data_type":"int3"}]}}}])"),
       ZARR_ERR_UNSUPPORTED, {"field \"p\"", "field \"q\"", "\"int3\""}},
      {with_fields("[]"), ZARR_ERR_INVALID_METADATA, {"\"fields\" must be a non-empty list"}},
      {with_fields("{}"), ZARR_ERR_INVALID_METADATA, {"\"fields\""}},
      {with_fields(R"([{"name":"","data_type":"int8"}])"), ZARR_ERR_INVALID_METADATA, {"field 0", "non-empty string"}},
      {with_fields(R"([{"name":5,"data_type":"int8"}])"), ZARR_ERR_INVALID_METADATA, {"field 0", "non-empty string"}},
      {with_fields(R"([{"name":"a"}])"), ZARR_ERR_INVALID_METADATA, {"field 0", "\"data_type\""}},
      {with_fields(R"([{"data_type":"int8"}])"), ZARR_ERR_INVALID_METADATA, {"field 0", "\"name\""}},
      {with_fields(R"([{"name":"a","data_type":"int8","shape":[2]}])"), ZARR_ERR_INVALID_METADATA, {"field 0", "\"shape\""}},
      {with_fields(R"([["a","int8",[2]]])"), ZARR_ERR_INVALID_METADATA, {"field 0"}},
      {with_fields(R"(["a"])"), ZARR_ERR_INVALID_METADATA, {"field 0"}},
      {R"({"name":"struct"})", ZARR_ERR_INVALID_METADATA, {"configuration"}},
      {R"({"name":"struct","configuration":{"fields":[{"name":"a","data_type":"int8"}],"aligned":true}})",
       ZARR_ERR_INVALID_METADATA, {"\"aligned\""}},
      {with_fields(R"([{"name":"a","data_type":"r17179869176"},{"name":"b","data_type":"r64"}])"), ZARR_ERR_INVALID_METADATA,
       {"too large"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    const std::string message = expect_error(c.code, [&] { v3type(c.json); }, {kV3Where});
    for (const std::string& s : c.says) EXPECT_NE(message.find(s), std::string::npos) << message << " lacks " << s;
  }
}

TEST(StructV3, BadFillValuesNameTheField) {
  const DataType point = v3type(kPoint);
  const DataType nested = v3type(kNested);
  struct Case {
    const DataType& type;
    const char* fill;
    std::vector<std::string> says;
  };
  const Case cases[] = {
      {point, R"({"x": 1.0})", {"no value for field \"y\""}},
      {point, R"({"x": 1.0, "y": 2.0, "z": 3.0})", {"member \"z\" is not a field"}},
      {point, R"({"x": 1.0, "y": "one"})", {"field \"y\"", "\"one\""}},
      {point, R"({"x": true, "y": 1.0})", {"field \"x\""}},
      {nested, R"({"point": {"x": 1.0, "y": [1]}, "value": 0.0})", {"field \"point\"", "field \"y\""}},
      {nested, R"({"point": 1.0, "value": 0.0})", {"field \"point\"", "expected an object"}},
      {point, "[1.0, 2.0]", {"expected an object"}},
      {point, "1.0", {"expected an object"}},
      {point, "\"A\"", {"base64"}},
      {point, "\"AAAAAAAAAAAAAA==\"", {"do not fit"}},
      {point, "null", {"null is not one"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fill);
    const std::string message = expect_error(ZARR_ERR_INVALID_METADATA, [&] { v3fill(c.type, c.fill); }, {kFillWhere});
    for (const std::string& s : c.says) EXPECT_NE(message.find(s), std::string::npos) << message << " lacks " << s;
  }
}

}  // namespace
}  // namespace zarr::test

namespace zarr::test {
namespace {

// v2 reads a struct's v3 fill value object too (zarrtool cp --format 2
// carries it over as it is); it writes base64 as zarr-python 2.13 does.
TEST(StructV3, V2ReadsTheV3FillValueObject) {
  const DataType v2 = dtype(R"([["x",">f4"],["y","<f4"]])");
  const std::optional<Bytes> f = fill(v2, R"({"x": 1.0, "y": 2.0})");
  ASSERT_TRUE(f);
  EXPECT_EQ(v2.fill_value_to_v2_json(f), "\"P4AAAAAAAEA=\"");
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill(v2, R"({"x": 1.0})"); }, {"no value for field \"y\""});
}

}  // namespace
}  // namespace zarr::test
