// TensorStore's and the registry's small types (int2/4, uint2/4, the 4-, 6-
// and 8-bit floats, the complex_* types) through the C API, as a C program sees
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
      {"float8_e5m2fnuz", "\"NaN\"", "\"NaN\"", 0x80, {0x40, 0xff}},         // 1.0, -57344
      {"int4", "-3", "-3", 0xfd, {0x07, 0xf8}},                                // 7, -8
      // The registry's other small floats and sub-byte integers, one per byte.
      {"float8_e4m3", "\"NaN\"", "\"NaN\"", 0x7c, {0x38, 0x78}},             // 1.0, inf
      {"float8_e3m4", "0.3", "0.296875", 0x13, {0x30, 0x6f}},                  // 1.0, 15.5
      {"float8_e8m0fnu", "0.25", "0.25", 0x7d, {0x7f, 0xff}},                  // 1.0, NaN
      {"float6_e2m3fn", "-7.5", "-7.5", 0x3f, {0x08, 0x01}},                   // 1.0, 0.125
      {"float6_e3m2fn", "28.0", "28.0", 0x1f, {0x0c, 0x3f}},                   // 1.0, -28
      {"float4_e2m1fn", "-0.5", "-0.5", 0x09, {0x02, 0x07}},                   // 1.0, 6.0
      {"int2", "-2", "-2", 0xfe, {0x01, 0xff}},                                // 1, -1
      {"uint2", "3", "3", 0x03, {0x00, 0x02}},
      {"uint4", "15", "15", 0x0f, {0x07, 0x0a}},
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
  EXPECT_STATUS(zarr_create(&out, (dir / "d").c_str(), array_meta("[4]", "[2]", "float8_e6m1").c_str()),
                ZARR_ERR_UNSUPPORTED, "float8_e6m1");
  // The registry's rules: no "NaN" where a type has none, no "Infinity" where it has no infinity.
  EXPECT_STATUS(zarr_create(&out, (dir / "e").c_str(), v3_metadata({"float4_e2m1fn", "\"NaN\"", "", 0, {}}).c_str()),
                ZARR_ERR_INVALID_METADATA, "has no NaN");
  EXPECT_STATUS(zarr_create(&out, (dir / "f").c_str(),
                            v3_metadata({"float8_e4m3fnuz", "\"Infinity\"", "", 0, {}}).c_str()),
                ZARR_ERR_INVALID_METADATA, "has no infinity");
  EXPECT_STATUS(zarr_create(&out, (dir / "g").c_str(), v3_metadata({"float6_e3m2fn", "32", "", 0, {}}).c_str()),
                ZARR_ERR_INVALID_METADATA, "not representable");
  EXPECT_STATUS(zarr_create(&out, (dir / "h").c_str(), v3_metadata({"float8_e8m0fnu", "0", "", 0, {}}).c_str()),
                ZARR_ERR_INVALID_METADATA, "not representable");
  EXPECT_STATUS(zarr_create(&out, (dir / "i").c_str(), v3_metadata({"uint2", "4", "", 0, {}}).c_str()),
                ZARR_ERR_INVALID_METADATA, "out of range [0, 3]");
  EXPECT_STATUS(zarr_create(&out, (dir / "j").c_str(), v3_metadata({"float4_e2m1fn", "\"0x10\"", "", 0, {}}).c_str()),
                ZARR_ERR_INVALID_METADATA, "bits above the type's 4");
  EXPECT_EQ(out, nullptr);
}

// The registry's complex types: pairs of float16, bfloat16 or small floats,
// and the aliases of complex64 / complex128, each read and written under the
// name it was given.
struct ComplexCase {
  const char* name;
  const char* fill_json;
  size_t item_size;
  std::vector<uint8_t> fill;     // the fill value's native bytes
  std::vector<uint8_t> element;  // one element to write
};

TEST(CapiTensorStoreTypes, V3ComplexTypesRoundTrip) {
  const std::vector<ComplexCase> cases = {
      {"complex_float16", "[1.0, \"-Infinity\"]", 4, {0x00, 0x3c, 0x00, 0xfc}, {0x00, 0xc0, 0x00, 0x38}},
      {"complex_bfloat16", "[\"NaN\", 0.5]", 4, {0xc0, 0x7f, 0x00, 0x3f}, {0x80, 0x3f, 0x00, 0x00}},
      {"complex_float8_e4m3", "[0.5, -1.0]", 2, {0x30, 0xb8}, {0x7c, 0x78}},
      {"complex_float4_e2m1fn", "[6.0, 0.0]", 2, {0x07, 0x00}, {0x01, 0x0f}},
      {"complex_float8_e8m0fnu", "[1.0, \"NaN\"]", 2, {0x7f, 0xff}, {0x00, 0xfe}},
      {"complex_float32", "[1.0, 2.0]", 8, {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40}, {0, 0, 0, 0, 0, 0, 0x80, 0xbf}},
      {"complex_float64", "[0.0, 1.0]", 16, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f},
       {0, 0, 0, 0, 0, 0, 0xf0, 0xbf, 0, 0, 0, 0, 0, 0, 0, 0}},
  };
  for (const ComplexCase& c : cases) {
    SCOPED_TRACE(c.name);
    TempDir dir;
    const std::string url = dir / "a";
    const TypeCase meta{c.name, c.fill_json, "", 0, {}};
    std::vector<uint8_t> expected = c.element;
    expected.insert(expected.end(), c.fill.begin(), c.fill.end());
    {
      ArrayPtr a = create_array(url, v3_metadata(meta));
      EXPECT_STREQ(zarr_data_type(a), c.name);
      EXPECT_EQ(zarr_item_size(a), c.item_size);
      const std::vector<uint8_t> all = write_then_read_all<uint8_t>(a, {0}, {1}, c.element);
      ASSERT_EQ(all.size(), 4 * c.item_size);
      EXPECT_EQ(std::vector<uint8_t>(all.begin(), all.begin() + 2 * c.item_size), expected);
    }
    EXPECT_EQ(stored_member(url + "/zarr.json", "data_type"), std::string("\"") + c.name + "\"");
    ArrayPtr reopened = open_array(url);
    const std::vector<uint8_t> all = read_all<uint8_t>(reopened);
    ASSERT_EQ(all.size(), 4 * c.item_size);
    EXPECT_EQ(std::vector<uint8_t>(all.begin(), all.begin() + 2 * c.item_size), expected);
  }
}

// With a big-endian bytes codec each 2-byte half is stored big-endian, in
// place (real first): the region buffer stays native.
TEST(CapiTensorStoreTypes, V3ComplexHalvesAreStoredInTheCodecsByteOrder) {
  TempDir dir;
  const std::string url = dir / "a";
  const std::string meta =
      "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [2], \"data_type\": \"complex_bfloat16\", "
      "\"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2]}}, "
      "\"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": [0.0, 0.0], "
      "\"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}]}";
  const std::vector<uint8_t> native = {0x80, 0x3f, 0x00, 0x40, 0x40, 0x40, 0x80, 0x40};  // (1+2j), (3+4j)
  {
    ArrayPtr a = create_array(url, meta);
    EXPECT_EQ(write_then_read_all<uint8_t>(a, {0}, {2}, native), native);
  }
  EXPECT_EQ(read_file(url + "/c/0"), (zarr::Bytes{0x3f, 0x80, 0x40, 0x00, 0x40, 0x40, 0x40, 0x80}));
  ArrayPtr reopened = open_array(url);
  EXPECT_EQ(read_all<uint8_t>(reopened), native);
}

}  // namespace
