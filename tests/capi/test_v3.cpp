// Zarr v3 through the same C API: zarr_create takes a zarr.json document,
// zarr_open finds zarr.json by itself.
#include <numeric>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {
std::string v3_meta(const std::string& shape, const std::string& chunks, const std::string& type,
                    const std::string& extra = "") {
  return "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": " + shape + ", \"data_type\": \"" + type +
         "\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": " + chunks +
         "}}, \"chunk_key_encoding\": {\"name\": \"default\", \"configuration\": {\"separator\": \"/\"}}, "
         "\"fill_value\": 0" + (extra.empty() ? "" : ", " + extra) + "}";
}

std::string text_of(const std::string& path) {
  zarr::Bytes b = read_file(path);
  return std::string(b.begin(), b.end());
}
}  // namespace

TEST(V3, CreateWriteReadWithDefaultKeys) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", v3_meta("[4, 5]", "[2, 2]", "int32",
                                               "\"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]"));
  EXPECT_EQ(zarr_format(a), 3);
  EXPECT_STREQ(zarr_data_type(a), "int32");
  std::vector<int32_t> data(20);
  std::iota(data.begin(), data.end(), 0);
  EXPECT_EQ(write_then_read_all<int32_t>(a, {0, 0}, {4, 5}, data), data);
  std::vector<std::string> files = list_files(dir / "a");
  EXPECT_EQ(files.front(), "c/0/0");
  EXPECT_EQ(files.back(), "zarr.json");
  EXPECT_EQ(files.size(), 7u);  // 2 x 3 chunks + zarr.json
  EXPECT_EQ(read_all<int32_t>(open_array(dir / "a")), data);
}

TEST(V3, DefaultsAreRecordedInTheStoredDocument) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", "{\"shape\": [6], \"data_type\": \"float32\"}");
  std::string stored = text_of(dir / "a/zarr.json");
  EXPECT_NE(stored.find("\"chunk_shape\""), std::string::npos) << stored;
  EXPECT_NE(stored.find("\"endian\": \"little\""), std::string::npos) << stored;
  EXPECT_NE(stored.find("\"node_type\": \"array\""), std::string::npos) << stored;
  EXPECT_EQ(metadata_of(a), stored);
}

TEST(V3, TransposeAndBigEndianCodecsLayOutChunks) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", v3_meta("[2, 3]", "[2, 3]", "uint16",
      "\"codecs\": [{\"name\": \"transpose\", \"configuration\": {\"order\": [1, 0]}}, "
      "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}]"));
  ASSERT_OK(write_region<uint16_t>(a, {0, 0}, {2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(read_file(dir / "a/c/0/0"), (zarr::Bytes{0, 1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6}));
  EXPECT_EQ(read_all<uint16_t>(open_array(dir / "a")), (std::vector<uint16_t>{1, 2, 3, 4, 5, 6}));
}

TEST(V3, ZeroDimensionalChunkKeyIsC) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", "{\"shape\": [], \"data_type\": \"float64\", \"fill_value\": 1.5}");
  EXPECT_EQ(read_all<double>(a), (std::vector<double>{1.5}));
  double v = 7;
  ASSERT_OK(zarr_write_region(a, 0, nullptr, nullptr, &v, 8));
  EXPECT_TRUE(file_exists(dir / "s/c"));
}

TEST(V3, DimensionNamesAndAttributesLiveInZarrJson) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", v3_meta("[2, 3]", "[2, 3]", "uint8",
                                               "\"dimension_names\": [\"y\", null], \"attributes\": {\"k\": 1}"));
  char* names = nullptr;
  ASSERT_OK(zarr_get_dimension_names(a, &names));
  EXPECT_STREQ(names, "[\"y\",null]");
  zarr_free(names);
  EXPECT_EQ(attributes_of(a), "{\"k\":1}");
  ASSERT_OK(zarr_set_attributes(a, "{\"units\": \"m\"}"));
  EXPECT_FALSE(file_exists(dir / "a/.zattrs"));
  EXPECT_NE(text_of(dir / "a/zarr.json").find("\"units\": \"m\""), std::string::npos);
  EXPECT_EQ(attributes_of(open_array(dir / "a")), "{\"units\":\"m\"}");
  ArrayPtr v2 = create_array(dir / "b", array_meta("[1]", "[1]"));
  ASSERT_OK(zarr_get_dimension_names(v2, &names));
  EXPECT_STREQ(names, "null");
  zarr_free(names);
}

TEST(V3, GroupsCreateListAndKeepOneFormat) {
  TempDir dir;
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), (dir / "h").c_str(), "{\"title\": \"v3\"}", "{\"zarr_format\": 3}"));
  ArrayPtr a;
  ASSERT_OK(zarr_group_create_array(a.out(), g, "x/arr", "{\"shape\": [2], \"data_type\": \"int8\"}"));
  EXPECT_EQ(list_files(dir / "h"), (std::vector<std::string>{"x/arr/zarr.json", "x/zarr.json", "zarr.json"}));
  GroupPtr r;
  ASSERT_OK(zarr_group_open(r.out(), (dir / "h").c_str(), "r"));
  char* json = nullptr;
  ASSERT_OK(zarr_group_list(r, &json));
  EXPECT_STREQ(json, "[{\"name\":\"x\",\"kind\":\"group\"}]");
  zarr_free(json);
  ASSERT_OK(zarr_group_get_attributes(r, &json));
  EXPECT_STREQ(json, "{\"title\":\"v3\"}");
  zarr_free(json);
  ASSERT_OK(zarr_group_set_attributes(g, "{\"title\": \"changed\"}"));
  EXPECT_NE(text_of(dir / "h/zarr.json").find("changed"), std::string::npos);
  ArrayPtr b;
  EXPECT_STATUS(zarr_group_create_array(b.out(), g, "v2arr", array_meta("[1]", "[1]").c_str()),
                ZARR_ERR_INVALID_ARGUMENT, "Zarr v2 array 'v2arr' in the Zarr v3 group");
  GroupPtr bad;
  EXPECT_STATUS(zarr_group_create_ex(bad.out(), (dir / "q").c_str(), nullptr, "{\"zarr_format\": 5}"),
                ZARR_ERR_INVALID_ARGUMENT, "zarr_format");
  EXPECT_STATUS(zarr_group_create_ex(bad.out(), (dir / "q").c_str(), nullptr, "{\"colour\": 1}"),
                ZARR_ERR_INVALID_ARGUMENT, "unknown option \"colour\"");
}

TEST(V3, NodeNamesFollowTheSpecRules) {
  TempDir dir;
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), (dir / "h").c_str(), nullptr, "{\"zarr_format\": 3}"));
  ArrayPtr a;
  const char* doc = "{\"shape\": [1], \"data_type\": \"uint8\"}";
  EXPECT_STATUS(zarr_group_create_array(a.out(), g, "__reserved", doc), ZARR_ERR_INVALID_ARGUMENT, "__");
  EXPECT_STATUS(zarr_group_create_array(a.out(), g, "ok/__x/y", doc), ZARR_ERR_INVALID_ARGUMENT, "__x");
  EXPECT_FALSE(file_exists(dir / "h/ok")) << "nothing created for a bad name";
  ASSERT_OK(zarr_group_create_array(a.out(), g, "with spaces and \xc3\xa9", doc));
  GroupPtr v2;
  ASSERT_OK(zarr_group_create_ex(v2.out(), (dir / "v2").c_str(), nullptr, kV2Group));
  ASSERT_OK(zarr_group_create_array(a.out(), v2, "__fine_in_v2", array_meta("[1]", "[1]").c_str()));
}

TEST(V3, MetadataErrorsFromTheSpec) {
  TempDir dir;
  struct Case {
    std::string doc;
    int code;
    const char* fragment;
  } cases[] = {
      {v3_meta("[4]", "[2]", "int32", "\"codecs\": [\"bytes\"], \"x_new_feature\": {\"a\": 1}"), ZARR_ERR_UNSUPPORTED,
       "x_new_feature"},
      {v3_meta("[4]", "[2]", "int32", "\"codecs\": [{\"name\": \"gzip\", \"configuration\": {\"level\": 1}}, "
                                      "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]"),
       ZARR_ERR_INVALID_METADATA, "gzip"},
      {v3_meta("[4]", "[2]", "uint8", "\"codecs\": [{\"name\": \"transpose\", \"configuration\": {\"order\": [0]}}]"),
       ZARR_ERR_INVALID_METADATA, "array->bytes"},
      {"{\"shape\": [4], \"data_type\": \"uint8\", \"fill_value\": 300}", ZARR_ERR_INVALID_METADATA, "fill_value"},
      {"{\"shape\": [4], \"data_type\": \"quaternion\"}", ZARR_ERR_UNSUPPORTED, "quaternion"},
  };
  int i = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.doc);
    ArrayPtr a;
    EXPECT_STATUS(zarr_create(a.out(), (dir / ("a" + std::to_string(i++))).c_str(), c.doc.c_str()), c.code, c.fragment);
  }
  // must_understand false: the extension is ignored.
  create_array(dir / "ok", v3_meta("[4]", "[2]", "uint8",
                                   "\"x_hint\": {\"must_understand\": false, \"anything\": 1}, \"codecs\": [\"bytes\"]"));
}

TEST(V3, ZarrFormatOptionChoosesWhichMetadataOpens) {
  TempDir dir;
  // A v3 array with a stray .zarray beside it (as zarrs leaves): zarr.json wins.
  ArrayPtr made = create_array(dir / "a", v3_meta("[4]", "[2]", "int32"));
  write_file(dir / "a/.zarray", zarr::ByteView(array_meta("[4]", "[2]", "<i4")));
  EXPECT_EQ(zarr_format(open_array(dir / "a")), 3);
  ArrayPtr v2;
  ASSERT_OK(zarr_open_ex(v2.out(), (dir / "a").c_str(), "r", "{\"zarr_format\": 2}"));
  EXPECT_EQ(zarr_format(v2), 2);

  ArrayPtr none;
  EXPECT_STATUS(zarr_open_ex(none.out(), (dir / "a").c_str(), "r", "{\"zarr_format\": 1}"), ZARR_ERR_NOT_FOUND,
                "no meta key");
  EXPECT_STATUS(zarr_open_ex(none.out(), (dir / "a").c_str(), "r", "{\"zarr_format\": 4}"),
                ZARR_ERR_INVALID_ARGUMENT, "'zarr_format' must be 1, 2 or 3");
  EXPECT_STATUS(zarr_open_ex(none.out(), (dir / "a").c_str(), "r", "{\"zarr_format\": \"3\"}"),
                ZARR_ERR_INVALID_ARGUMENT, "'zarr_format'");
  EXPECT_STATUS(zarr_create_ex(none.out(), (dir / "b").c_str(), array_meta("[4]", "[2]").c_str(),
                               "{\"zarr_format\": 3}"),
                ZARR_ERR_INVALID_ARGUMENT, "metadata document is Zarr v2");
  EXPECT_EQ(none.get(), nullptr);
  EXPECT_FALSE(file_exists(dir / "b"));
}
