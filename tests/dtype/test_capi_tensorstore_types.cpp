// TensorStore's int4 and float8 types through the C API, as a C program sees
// them: create a v2 and a v3 array of each, write, read back (also after
// reopening) and check the dtype name and fill value stored in the metadata.
#include <string>
#include <vector>

#include "base/json.h"
#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

struct TypeCase {
  const char* name;
  const char* fill_json;     // as given at creation
  const char* written_fill;  // as the library writes it back
  uint8_t fill_code;         // the byte the fill value is
  std::vector<uint8_t> data; // two elements to write
};

// Fill values the formats hold exactly (1.5), one that rounds (0.3), a NaN
// and one infinity that ml_dtypes turns into NaN.
const std::vector<TypeCase>& cases() {
  static const std::vector<TypeCase> kCases = {
      {"float8_e4m3fn", "1.5", "1.5", 0x3c, {0x38, 0xfe}},          // 1.0, -448
      {"float8_e4m3fnuz", "0.3", "0.3125", 0x32, {0x7f, 0x01}},     // 240, 2^-10
      {"float8_e4m3b11fnuz", "\"NaN\"", "\"NaN\"", 0x80, {0x58, 0x7f}},  // 1.0, 30
      {"float8_e5m2", "\"-Infinity\"", "\"-Infinity\"", 0xfc, {0x7b, 0x7c}},  // 57344, inf
      {"float8_e5m2fnuz", "\"Infinity\"", "\"NaN\"", 0x80, {0x40, 0xff}},     // 1.0, -57344
      {"int4", "-3", "-3", 0xfd, {0x07, 0xf8}},                                // 7, -8
  };
  return kCases;
}

std::string v3_metadata(const TypeCase& c) {
  return std::string("{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [4], \"data_type\": \"") + c.name +
         "\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2]}}, "
         "\"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": " + c.fill_json + "}";
}

// The stored document's member `name`, as compact JSON.
std::string stored_member(const std::string& path, const char* name) {
  const zarr::Bytes bytes = read_file(path);
  rapidjson::Document doc = zarr::json::parse(std::string(bytes.begin(), bytes.end()), path);
  const rapidjson::Value* v = zarr::json::find(doc, name);
  return v ? zarr::json::to_string(*v) : "<missing>";
}

// Write two elements at the start, read all four back: the written bytes,
// then the fill value where nothing was written.
void expect_round_trip(zarr_array* a, const TypeCase& c) {
  EXPECT_STREQ(zarr_data_type(a), c.name);
  EXPECT_EQ(zarr_item_size(a), 1u);
  const std::vector<uint8_t> expected = {c.data[0], c.data[1], c.fill_code, c.fill_code};
  EXPECT_EQ(write_then_read_all<uint8_t>(a, {0}, {2}, c.data), expected);
}

TEST(CapiTensorStoreTypes, V2ArraysRoundTrip) {
  for (const TypeCase& c : cases()) {
    SCOPED_TRACE(c.name);
    TempDir dir;
    const std::string url = dir / "a";
    {
      ArrayPtr a = create_array(url, array_meta("[4]", "[2]", c.name, {{"fill_value", c.fill_json}}));
      expect_round_trip(a, c);
    }
    EXPECT_EQ(stored_member(url + "/.zarray", "dtype"), std::string("\"") + c.name + "\"");
    EXPECT_EQ(stored_member(url + "/.zarray", "fill_value"), c.written_fill);
    EXPECT_EQ(read_file(url + "/0"), (zarr::Bytes{c.data[0], c.data[1]}));
    ArrayPtr reopened = open_array(url);
    EXPECT_EQ(read_all<uint8_t>(reopened), (std::vector<uint8_t>{c.data[0], c.data[1], c.fill_code, c.fill_code}));
  }
}

TEST(CapiTensorStoreTypes, V3ArraysRoundTrip) {
  for (const TypeCase& c : cases()) {
    SCOPED_TRACE(c.name);
    TempDir dir;
    const std::string url = dir / "a";
    {
      ArrayPtr a = create_array(url, v3_metadata(c));
      expect_round_trip(a, c);
    }
    EXPECT_EQ(stored_member(url + "/zarr.json", "data_type"), std::string("\"") + c.name + "\"");
    EXPECT_EQ(stored_member(url + "/zarr.json", "fill_value"), c.written_fill);
    // One-byte items: the default bytes codec has no "endian".
    EXPECT_EQ(stored_member(url + "/zarr.json", "codecs"), "[{\"name\":\"bytes\"}]");
    EXPECT_EQ(read_file(url + "/c/0"), (zarr::Bytes{c.data[0], c.data[1]}));
    ArrayPtr reopened = open_array(url);
    EXPECT_EQ(read_all<uint8_t>(reopened), (std::vector<uint8_t>{c.data[0], c.data[1], c.fill_code, c.fill_code}));
  }
}

// The v3 bit-pattern form keeps a NaN other than the canonical one.
TEST(CapiTensorStoreTypes, V3RawBitsFillValue) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", v3_metadata({"float8_e4m3fn", "\"0xff\"", "\"0xff\"", 0xff, {0, 0}}));
  EXPECT_EQ(read_all<uint8_t>(a), (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(stored_member(dir / "a/zarr.json", "fill_value"), "\"0xff\"");
}

TEST(CapiTensorStoreTypes, BadFillValuesNameTheField) {
  TempDir dir;
  zarr_array* out = nullptr;
  EXPECT_STATUS(zarr_create(&out, (dir / "a").c_str(), array_meta("[4]", "[2]", "int4", {{"fill_value", "8"}}).c_str()),
                ZARR_ERR_INVALID_METADATA, "fill_value");
  EXPECT_STATUS(zarr_create(&out, (dir / "b").c_str(),
                            v3_metadata({"int4", "-9", "", 0, {}}).c_str()),
                ZARR_ERR_INVALID_METADATA, "fill_value");
  EXPECT_STATUS(zarr_create(&out, (dir / "c").c_str(),
                            v3_metadata({"float8_e5m2", "\"0x1\"", "", 0, {}}).c_str()),
                ZARR_ERR_INVALID_METADATA, "fill_value");
  EXPECT_STATUS(zarr_create(&out, (dir / "d").c_str(), array_meta("[4]", "[2]", "float8_e3m4").c_str()),
                ZARR_ERR_UNSUPPORTED, "float8_e3m4");
  EXPECT_EQ(out, nullptr);
}

}  // namespace
