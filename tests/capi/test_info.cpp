// zarr_info: the figures zarr-python's `info` prints, as JSON. Checked against
// what the test itself wrote (chunk count, file sizes on disk), for v2, v3,
// sharded, memory-store and variable-length arrays, and its argument errors.
#include <rapidjson/document.h>

#include <algorithm>
#include <filesystem>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

std::vector<uint64_t> list_of(const rapidjson::Value& v) {
  std::vector<uint64_t> out;
  for (const auto& x : v.GetArray()) out.push_back(x.GetUint64());
  return out;
}

// Bytes of every file under dir: what a listing store sums as nbytes_stored.
uint64_t bytes_on_disk(const std::string& dir) {
  uint64_t total = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) total += e.file_size();
  return total;
}

std::string v3_meta(const std::string& codecs, const std::string& chunk = "[4, 4]") {
  return R"({"zarr_format": 3, "node_type": "array", "shape": [8, 8], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": )" + chunk + R"(}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": 7, "codecs": )" + codecs +
         R"(, "dimension_names": ["y", null]})";
}

const char* kBytesCodec = R"([{"name": "bytes", "configuration": {"endian": "little"}}])";

}  // namespace

TEST(Info, V2ArrayCountsTheChunksWrittenAndTheBytesStored) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[8, 8]", "[4, 4]", "<i4", {{"fill_value", "3"}}));
  ASSERT_OK(zarr_set_attributes(a, R"({"units": "m"})"));
  ASSERT_OK(write_region<int32_t>(a, {0, 0}, {4, 8}, std::vector<int32_t>(32, 1)));  // chunks 0.0 and 0.1
  rapidjson::Document info = info_of(a);
  EXPECT_STREQ(info["node_type"].GetString(), "array");
  EXPECT_EQ(info["zarr_format"].GetInt(), 2);
  EXPECT_STREQ(info["data_type"].GetString(), "int32");
  EXPECT_EQ(list_of(info["shape"]), (std::vector<uint64_t>{8, 8}));
  EXPECT_EQ(list_of(info["chunks"]), (std::vector<uint64_t>{4, 4}));
  EXPECT_TRUE(info["shards"].IsNull());
  EXPECT_STREQ(info["codecs"]["order"].GetString(), "C");
  EXPECT_TRUE(info["codecs"]["compressor"].IsNull());
  EXPECT_EQ(info["fill_value"].GetInt(), 3);
  EXPECT_STREQ(info["attributes"]["units"].GetString(), "m");
  EXPECT_EQ(info["nbytes"].GetUint64(), 8u * 8u * 4u);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 2u);
  EXPECT_EQ(info["chunks_total"].GetUint64(), 4u);
  EXPECT_EQ(info["nbytes_stored"].GetUint64(), bytes_on_disk(dir / "a"));
  EXPECT_NE(std::string(info["store"].GetString()).find(dir.path()), std::string::npos) << info["store"].GetString();
}

TEST(Info, RaggedGridCountsPartialChunksInTheTotal) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[10, 7]", "[4, 3]"));
  rapidjson::Document info = info_of(a);
  EXPECT_EQ(info["chunks_total"].GetUint64(), 3u * 3u);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 0u);
}

TEST(Info, V3ArrayGivesItsCodecsAndDimensionNames) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", v3_meta(kBytesCodec));
  ASSERT_OK(write_region<int32_t>(a, {4, 4}, {1, 1}, {5}));
  rapidjson::Document info = info_of(a);
  EXPECT_EQ(info["zarr_format"].GetInt(), 3);
  ASSERT_TRUE(info["codecs"].IsArray());
  EXPECT_STREQ(info["codecs"][0]["name"].GetString(), "bytes");
  EXPECT_STREQ(info["dimension_names"][0].GetString(), "y");
  EXPECT_TRUE(info["dimension_names"][1].IsNull());
  EXPECT_EQ(info["fill_value"].GetInt(), 7);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 1u);
  EXPECT_EQ(info["nbytes_stored"].GetUint64(), bytes_on_disk(dir / "a"));
}

TEST(Info, ShardedArrayGivesInnerChunksAndShardShape) {
  TempDir dir;
  const std::string sharding = R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 2],
      "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
      "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}])";
  ArrayPtr a = create_array(dir / "a", v3_meta(sharding, "[4, 8]"));
  ASSERT_OK(write_region<int32_t>(a, {0, 0}, {1, 1}, {1}));
  rapidjson::Document info = info_of(a);
  EXPECT_EQ(list_of(info["chunks"]), (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(list_of(info["shards"]), (std::vector<uint64_t>{4, 8}));
  EXPECT_EQ(info["chunks_total"].GetUint64(), 2u) << "counted in stored keys (shards)";
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 1u);
}

TEST(Info, MemoryStoreIsListedToo) {
  ArrayPtr a = create_array("memory://info-test/a", array_meta("[6]", "[2]"));
  ASSERT_OK(write_region<int32_t>(a, {0}, {6}, {1, 2, 3, 4, 5, 6}));
  rapidjson::Document info = info_of(a);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 3u);
  EXPECT_GT(info["nbytes_stored"].GetUint64(), 3u * 2u * 4u) << "chunks plus metadata";
  EXPECT_STREQ(info["path"].GetString(), "a");
}

TEST(Info, ZipArchiveCountsItsEntries) {
  TempDir dir;
  const std::string url = dir / "a.zip|zip:a";
  {
    ArrayPtr a = create_array(url, array_meta("[6]", "[2]", "<i4", {{"compressor", R"({"id": "zlib", "level": 1})"}}));
    ASSERT_OK(write_region<int32_t>(a, {0}, {4}, {1, 2, 3, 4}));
  }  // the archive is written on close
  ArrayPtr a = open_array(url);
  rapidjson::Document info = info_of(a);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 2u);
  EXPECT_GT(info["nbytes_stored"].GetUint64(), 0u);
  EXPECT_LT(info["nbytes_stored"].GetUint64(), std::filesystem::file_size(dir / "a.zip"));
}

TEST(Info, VariableLengthArrayHasNoLogicalByteCount) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", R"({"zarr_format": 3, "node_type": "array", "shape": [4],
    "data_type": "string", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": "",
    "codecs": [{"name": "vlen-utf8", "configuration": {}}]})");
  ASSERT_EQ(write_strings(a, {0}, {2}, {"a", "bc"}), ZARR_OK);
  rapidjson::Document info = info_of(a);
  EXPECT_STREQ(info["data_type"].GetString(), "string");
  EXPECT_TRUE(info["nbytes"].IsNull());
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 1u);
}

TEST(Info, NullArgumentsAreInvalidArguments) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[4]", "[2]"));
  char* text = nullptr;
  EXPECT_STATUS(zarr_info(nullptr, &text), ZARR_ERR_INVALID_ARGUMENT, "array");
  EXPECT_EQ(text, nullptr);
  EXPECT_STATUS(zarr_info(a, nullptr), ZARR_ERR_INVALID_ARGUMENT, "json_out");
}

TEST(StoredChunks, ListsChunksInTheGridAndEverythingElseAsStray) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[8, 8]", "[4, 4]"));
  ASSERT_OK(write_region<int32_t>(a, {4, 0}, {4, 8}, std::vector<int32_t>(32, 5)));  // chunks 1.0 and 1.1
  write_file(dir / "a/notes.txt", zarr::ByteView(reinterpret_cast<const uint8_t*>("x"), 1));
  write_file(dir / "a/7.7", zarr::ByteView(reinterpret_cast<const uint8_t*>("y"), 1));  // outside the grid
  char* text = nullptr;
  ASSERT_OK(zarr_stored_chunks(a, &text));
  rapidjson::Document doc;
  doc.Parse(text);
  zarr_free(text);
  ASSERT_TRUE(doc.IsObject());
  std::vector<std::vector<uint64_t>> chunks;
  for (const auto& c : doc["chunks"].GetArray()) chunks.push_back(list_of(c));
  std::sort(chunks.begin(), chunks.end());
  EXPECT_EQ(chunks, (std::vector<std::vector<uint64_t>>{{1, 0}, {1, 1}}));
  std::vector<std::string> stray;
  for (const auto& k : doc["stray_keys"].GetArray()) stray.emplace_back(k.GetString());
  std::sort(stray.begin(), stray.end());
  EXPECT_EQ(stray, (std::vector<std::string>{"7.7", "notes.txt"}));
}

TEST(StoredChunks, V3KeysAndSharedMemoryStore) {
  ArrayPtr a = create_array("memory://stored-chunks/x", v3_meta(kBytesCodec));
  ASSERT_OK(write_region<int32_t>(a, {0, 4}, {1, 1}, {1}));
  char* text = nullptr;
  ASSERT_OK(zarr_stored_chunks(a, &text));
  EXPECT_STREQ(text, R"({"chunks":[[0,1]],"stray_keys":[]})");
  zarr_free(text);
}

TEST(StoredChunks, ArgumentErrors) {
  char* text = nullptr;
  EXPECT_STATUS(zarr_stored_chunks(nullptr, &text), ZARR_ERR_INVALID_ARGUMENT, "array");
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[4]", "[2]"));
  EXPECT_STATUS(zarr_stored_chunks(a, nullptr), ZARR_ERR_INVALID_ARGUMENT, "json_out");
}
