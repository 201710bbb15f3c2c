// zarr_create_like: zarr-python's zeros_like / ones_like / full_like /
// empty_like through metadata overrides, for v2, v3 (sharded, dimension
// names), legacy v1 (copied as v2), with options, and its errors.
#include <filesystem>
#include <numeric>

#include <rapidjson/document.h>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;
namespace fs = std::filesystem;

namespace {

rapidjson::Document parsed(const std::string& json) {
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  EXPECT_TRUE(doc.IsObject()) << json;
  return doc;
}

ArrayPtr create_like(const std::string& url, const zarr_array* like, const char* overrides,
                     const char* options = nullptr) {
  ArrayPtr a;
  EXPECT_EQ(zarr_create_like(a.out(), url.c_str(), like, overrides, options), ZARR_OK) << zarr_last_error();
  return a;
}

// A v2 zlib array with a fill value, attributes and data.
ArrayPtr make_source(const TempDir& dir) {
  ArrayPtr a = create_array(dir / "src", array_meta("[6, 8]", "[4, 4]", "<i4", {{"compressor", R"({"id": "zlib", "level": 3})"},
                                                                               {"fill_value", "5"}}));
  EXPECT_EQ(zarr_set_attributes(a, R"({"units": "K"})"), ZARR_OK);
  std::vector<int32_t> values(48);
  std::iota(values.begin(), values.end(), 100);
  EXPECT_EQ(write_region(a, {0, 0}, {6, 8}, values), ZARR_OK);
  return a;
}

}  // namespace

TEST(CreateLike, ZerosLikeCopiesEverythingButFillAttributesAndData) {
  TempDir dir;
  ArrayPtr src = make_source(dir);
  ArrayPtr zeros = create_like(dir / "zeros", src, R"({"fill_value": 0})");
  EXPECT_EQ(read_all<int32_t>(zeros), std::vector<int32_t>(48, 0));
  EXPECT_EQ(attributes_of(zeros), "{}");
  rapidjson::Document want = parsed(metadata_of(src)), got = parsed(metadata_of(zeros));
  want["fill_value"].SetInt(0);
  EXPECT_EQ(got, want) << metadata_of(zeros);
  for (const auto& entry : fs::directory_iterator(dir / "zeros")) {
    EXPECT_EQ(entry.path().filename().string()[0], '.') << "no chunk written: " << entry.path();
  }
}

TEST(CreateLike, OnesLikeAndFullLikeWithANewShape) {
  TempDir dir;
  ArrayPtr src = make_source(dir);
  EXPECT_EQ(read_all<int32_t>(create_like(dir / "ones", src, R"({"fill_value": 1})")), std::vector<int32_t>(48, 1));
  ArrayPtr full = create_like(dir / "full", src, R"({"fill_value": -7, "shape": [3, 3]})");
  EXPECT_EQ(read_all<int32_t>(full), std::vector<int32_t>(9, -7));
  EXPECT_EQ(read_all<int32_t>(create_like(dir / "empty", src, nullptr)), std::vector<int32_t>(48, 5))
      << "empty_like keeps the fill value";
}

TEST(CreateLike, V3KeepsCodecsAndDimensionNamesAndDropsAttributes) {
  TempDir dir;
  const std::string v3 = R"({"zarr_format": 3, "node_type": "array", "shape": [8, 8], "data_type": "uint16",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8, 8]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": 3, "dimension_names": ["y", "x"],
    "attributes": {"a": 1},
    "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [4, 4],
      "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "zstd", "configuration": {"level": 1}}],
      "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}]})";
  ArrayPtr src = create_array(dir / "src", v3);
  ArrayPtr copy = create_like(dir / "copy", src, R"({"fill_value": 9})");
  rapidjson::Document want = parsed(metadata_of(src)), got = parsed(metadata_of(copy));
  want.RemoveMember("attributes");
  want["fill_value"].SetInt(9);
  got.RemoveMember("attributes");
  EXPECT_EQ(got, want) << metadata_of(copy);
  EXPECT_EQ(attributes_of(copy), "{}");
  EXPECT_EQ(read_all<uint16_t>(copy), std::vector<uint16_t>(64, 9));
}

TEST(CreateLike, LegacyV1ArrayIsCopiedAsV2) {
  TempDir dir;
  {
    ArrayPtr a = create_array(dir / "v1", array_meta("[5, 6]", "[2, 4]", "<i4", {{"fill_value", "-1"}}));
  }
  fs::remove(dir / "v1/.zarray");
  write_file(dir / "v1/meta", std::string(R"({"zarr_format": 1, "shape": [5, 6], "chunks": [2, 4], "dtype": "<i4",
    "compression": "zlib", "compression_opts": 1, "fill_value": -1, "order": "C"})"));
  ArrayPtr v1 = open_array(dir / "v1");
  ASSERT_TRUE(v1.get()) << zarr_last_error();
  ArrayPtr copy = create_like(dir / "copy", v1, nullptr);
  EXPECT_EQ(zarr_format(copy), 2);
  EXPECT_TRUE(fs::exists(dir / "copy/.zarray"));
  EXPECT_EQ(read_all<int32_t>(copy), std::vector<int32_t>(30, -1));
}

TEST(CreateLike, OptionsGoToTheNewArray) {
  TempDir dir;
  ArrayPtr src = make_source(dir);
  const std::string options = R"({"chunk_store": ")" + dir / "chunks" + "\"}";
  ArrayPtr copy = create_like(dir / "copy", src, R"({"fill_value": 0})", options.c_str());
  ASSERT_OK(write_region<int32_t>(copy, {0, 0}, {1, 1}, {42}));
  EXPECT_TRUE(fs::exists(dir / "chunks/0.0"));
}

TEST(CreateLike, ErrorsNameWhatIsWrong) {
  TempDir dir;
  ArrayPtr src = make_source(dir);
  ArrayPtr out;
  EXPECT_STATUS(zarr_create_like(out.out(), (dir / "a").c_str(), nullptr, nullptr, nullptr),
                ZARR_ERR_INVALID_ARGUMENT, "like");
  EXPECT_STATUS(zarr_create_like(out.out(), (dir / "a").c_str(), src, R"({"zarr_format": 3})", nullptr),
                ZARR_ERR_INVALID_ARGUMENT, "'zarr_format' cannot change");
  EXPECT_STATUS(zarr_create_like(out.out(), (dir / "a").c_str(), src, "[1]", nullptr), ZARR_ERR_INVALID_METADATA,
                "metadata overrides");
  EXPECT_STATUS(zarr_create_like(out.out(), (dir / "a").c_str(), src, R"({"chunks": [0, 4]})", nullptr),
                ZARR_ERR_INVALID_METADATA, "chunks");
  EXPECT_STATUS(zarr_create_like(out.out(), (dir / "src").c_str(), src, nullptr, nullptr), ZARR_ERR_EXISTS, "");
  EXPECT_EQ(out.get(), nullptr);
}
