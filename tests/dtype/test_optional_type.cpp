// zarrs' experimental "optional" data type: parsing, its JSON back, its
// fill values (null, [inner], nested), and every rejection.
#include <gtest/gtest.h>

#include "dtype_test_util.h"
#include "support/test_support.h"

namespace zarr::test {
namespace {

const char* kWhere = "a/zarr.json: field 'data_type'";
const char* kFillWhere = "a/zarr.json: field 'fill_value'";

DataType parse(const std::string& text) {
  rapidjson::Document doc = json::parse(text, "test");
  return DataType::parse_v3(doc, kWhere);
}

Bytes fill(const DataType& t, const std::string& text) {
  rapidjson::Document doc = json::parse(text, "test");
  return t.parse_fill_value_v3(doc, kFillWhere);
}

const std::string kUint8 = R"({"name":"optional","configuration":{"name":"uint8","configuration":{}}})";
const std::string kNested =
    R"({"name":"optional","configuration":{"name":"optional","configuration":{"name":"uint8","configuration":{}}}})";

TEST(OptionalType, ParsesAndWritesBackAsZarrsDoes) {
  const DataType t = parse(kUint8);
  EXPECT_EQ(t.kind(), DTypeKind::Optional);
  EXPECT_EQ(t.item_size(), 2u);
  ASSERT_NE(t.optional_inner(), nullptr);
  EXPECT_EQ(t.optional_inner()->kind(), DTypeKind::UInt);
  EXPECT_EQ(t.to_v3_json(), kUint8);
  EXPECT_FALSE(t.needs_byte_swap());
  // The short-hand inner name reads too, and is written in the object form.
  EXPECT_EQ(parse(R"({"name":"optional","configuration":{"name":"float64"}})").to_v3_json(),
            R"({"name":"optional","configuration":{"name":"float64","configuration":{}}})");
  const DataType nested = parse(kNested);
  EXPECT_EQ(nested.item_size(), 3u);
  EXPECT_EQ(nested.to_v3_json(), kNested);
  EXPECT_EQ(nested.optional_inner()->kind(), DTypeKind::Optional);
  // Inner types with a configuration keep it.
  const std::string times = R"({"name":"optional","configuration":{"name":"numpy.datetime64",)"
                            R"("configuration":{"unit":"ms","scale_factor":1}}})";
  EXPECT_EQ(parse(times).to_v3_json(), times);
  EXPECT_EQ(parse(times).item_size(), 9u);
  // Equality compares the inner type.
  EXPECT_TRUE(parse(kUint8) == parse(kUint8));
  EXPECT_FALSE(parse(kUint8) == parse(kNested));
  EXPECT_FALSE(parse(kUint8) == parse(R"({"name":"optional","configuration":{"name":"int8"}})"));
  EXPECT_FALSE(parse(kUint8) == parse("\"uint16\""));
}

TEST(OptionalType, FillValues) {
  const DataType t = parse(kUint8);
  EXPECT_EQ(fill(t, "null"), (Bytes{0, 0}));
  EXPECT_EQ(fill(t, "[42]"), (Bytes{1, 42}));
  EXPECT_EQ(t.fill_value_to_v3_json(Bytes{0, 0}), "null");
  EXPECT_EQ(t.fill_value_to_v3_json(Bytes{1, 42}), "[42]");
  EXPECT_EQ(t.default_fill_value_v3(), (Bytes{0, 0}));
  const DataType nested = parse(kNested);
  EXPECT_EQ(fill(nested, "null"), (Bytes{0, 0, 0}));
  EXPECT_EQ(fill(nested, "[null]"), (Bytes{1, 0, 0}));
  EXPECT_EQ(fill(nested, "[[7]]"), (Bytes{1, 1, 7}));
  for (const char* text : {"null", "[null]", "[[7]]"}) EXPECT_EQ(nested.fill_value_to_v3_json(fill(nested, text)), text);
  const DataType f = parse(R"({"name":"optional","configuration":{"name":"float32"}})");
  EXPECT_EQ(f.fill_value_to_v3_json(fill(f, "[\"NaN\"]")), "[\"NaN\"]");
}

TEST(OptionalType, FillValueErrors) {
  const DataType t = parse(kUint8);
  for (const char* bad : {"42", "[]", "[1,2]", "\"x\"", "{}"}) {
    SCOPED_TRACE(bad);
    expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill(t, bad); }, {kFillWhere, "one-element list"});
  }
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill(t, "[256]"); }, {kFillWhere});
  expect_error(ZARR_ERR_INVALID_METADATA, [&] { fill(t, "[null]"); }, {kFillWhere});  // uint8 has no null
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [&] { t.fill_value_to_v3_json(Bytes{2, 0}); }, {"flag byte 2"});
  expect_error(ZARR_ERR_INVALID_ARGUMENT, [&] { t.fill_value_to_v3_json(Bytes{1}); }, {"1 bytes"});
  // No v2 form.
  expect_error(ZARR_ERR_UNSUPPORTED, [&] { t.fill_value_to_v2_json(Bytes{0, 0}); }, {"no Zarr v2 fill value form"});
}

TEST(OptionalType, Rejections) {
  struct Case {
    const char* json;
    int code;
    const char* says;
  };
  const Case cases[] = {
      {R"({"name":"optional"})", ZARR_ERR_INVALID_METADATA, "needs a \"configuration\""},
      {R"({"name":"optional","configuration":{}})", ZARR_ERR_INVALID_METADATA, "\"name\" (the inner data type)"},
      {R"({"name":"optional","configuration":{"name":5}})", ZARR_ERR_INVALID_METADATA, "\"name\" must be a string"},
      {R"({"name":"optional","configuration":{"name":"uint8","extra":1}})", ZARR_ERR_INVALID_METADATA, "\"extra\""},
      {R"({"name":"optional","configuration":{"name":"float9"}})", ZARR_ERR_UNSUPPORTED, "\"float9\""},
      {R"({"name":"optional","configuration":{"name":"string"}})", ZARR_ERR_UNSUPPORTED, "no fixed size"},
      {R"({"name":"optional","configuration":{"name":"uint8","configuration":{"x":1}}})", ZARR_ERR_INVALID_METADATA,
       "takes no configuration"},
      {R"("optional")", ZARR_ERR_INVALID_METADATA, "needs a \"configuration\""},
      {R"({"name":"struct","configuration":{"fields":[{"name":"a","data_type":)"
       R"({"name":"optional","configuration":{"name":"uint8"}}}]}})",
       ZARR_ERR_UNSUPPORTED, "\"optional\" struct field"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    expect_error(c.code, [&] { parse(c.json); }, {kWhere, c.says});
  }
}

}  // namespace
}  // namespace zarr::test
