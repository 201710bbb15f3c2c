// The "chunk_store" option: chunks under one URL, metadata under the array's
// own (zarr-python's chunk_store), on the filesystem, in memory and in a zip
// archive; what zarr_info reports; resize erasing chunks there; errors.
#include <filesystem>
#include <numeric>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;
namespace fs = std::filesystem;

namespace {

std::string chunk_store_options(const std::string& url) { return R"({"chunk_store": ")" + url + "\"}"; }

std::vector<int32_t> counting(size_t n) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), 1);
  return v;
}

// Create an 8x8 int32 array of 4x4 chunks at `url` with its chunks at
// `chunk_url`, write 1..64, close it.
void create_with_chunks_apart(const std::string& url, const std::string& chunk_url,
                              const std::string& metadata = array_meta("[8, 8]", "[4, 4]")) {
  ArrayPtr a = create_array(url, metadata, chunk_store_options(chunk_url).c_str());
  ASSERT_TRUE(a.get()) << zarr_last_error();
  ASSERT_OK(write_region(a, {0, 0}, {8, 8}, counting(64)));
}

ArrayPtr open_with_chunks_apart(const std::string& url, const std::string& chunk_url, const char* mode = "r") {
  ArrayPtr a;
  EXPECT_EQ(zarr_open_ex(a.out(), url.c_str(), mode, chunk_store_options(chunk_url).c_str()), ZARR_OK)
      << zarr_last_error();
  return a;
}

}  // namespace

TEST(ChunkStore, FilesystemChunksLiveInTheirOwnFolder) {
  TempDir dir;
  create_with_chunks_apart(dir / "meta/a", dir / "chunks");
  EXPECT_TRUE(fs::exists(dir / "meta/a/.zarray"));
  EXPECT_FALSE(fs::exists(dir / "meta/a/0.0")) << "no chunk beside the metadata";
  for (const char* key : {"0.0", "0.1", "1.0", "1.1"}) EXPECT_TRUE(fs::exists(dir / "chunks" + "/" + key)) << key;
  EXPECT_FALSE(fs::exists(dir / "chunks/.zarray")) << "no metadata beside the chunks";

  ArrayPtr a = open_with_chunks_apart(dir / "meta/a", dir / "chunks");
  EXPECT_EQ(read_all<int32_t>(a), counting(64));
  ArrayPtr without = open_array(dir / "meta/a");
  EXPECT_EQ(read_all<int32_t>(without), std::vector<int32_t>(64, 0)) << "the metadata's store has no chunks";
}

TEST(ChunkStore, InfoCountsTheChunksWhereTheyAre) {
  TempDir dir;
  create_with_chunks_apart(dir / "meta/a", dir / "chunks");
  ArrayPtr a = open_with_chunks_apart(dir / "meta/a", dir / "chunks");
  rapidjson::Document info = info_of(a);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 4u);
  uint64_t on_disk = fs::file_size(dir / "meta/a/.zarray");
  for (const char* key : {"0.0", "0.1", "1.0", "1.1"}) on_disk += fs::file_size(dir / "chunks" + "/" + key);
  EXPECT_EQ(info["nbytes_stored"].GetUint64(), on_disk) << "chunks and metadata, each in its store";
  ASSERT_TRUE(info["chunk_store"].IsString());
  EXPECT_NE(std::string(info["chunk_store"].GetString()).find("chunks"), std::string::npos);
  EXPECT_TRUE(info_of(ArrayPtr(open_array(dir / "meta/a")))["chunk_store"].IsNull());
}

TEST(ChunkStore, MemoryChunksAndV3Metadata) {
  TempDir dir;
  const std::string chunks = "memory://chunk-store-test";
  const std::string v3 = R"({"zarr_format": 3, "node_type": "array", "shape": [8, 8], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 4]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
    "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "zstd", "configuration": {"level": 1}}]})";
  ArrayPtr a = create_array(dir / "v3", v3, chunk_store_options(chunks).c_str());
  ASSERT_OK(write_region(a, {0, 0}, {8, 8}, counting(64)));
  EXPECT_FALSE(fs::exists(dir / "v3/c")) << "the chunks went to memory";
  EXPECT_EQ(read_all<int32_t>(open_with_chunks_apart(dir / "v3", chunks)), counting(64));
}

TEST(ChunkStore, ZipArchiveOfChunksIsWrittenOnClose) {
  TempDir dir;
  const std::string chunks = dir / "chunks.zip|zip:";
  create_with_chunks_apart(dir / "a", chunks);
  EXPECT_TRUE(fs::exists(dir / "chunks.zip")) << "written when the handle closed";
  EXPECT_EQ(read_all<int32_t>(open_with_chunks_apart(dir / "a", chunks)), counting(64));
}

TEST(ChunkStore, ShrinkErasesTheChunksOutsideInTheChunkStore) {
  TempDir dir;
  create_with_chunks_apart(dir / "a", dir / "chunks");
  ArrayPtr a = open_with_chunks_apart(dir / "a", dir / "chunks", "r+");
  const uint64_t smaller[] = {4, 4};
  ASSERT_OK(zarr_resize(a, 2, smaller));
  EXPECT_TRUE(fs::exists(dir / "chunks/0.0"));
  EXPECT_FALSE(fs::exists(dir / "chunks/1.1"));
}

TEST(ChunkStore, ObjectFormTakesTheChunkStoresOwnOptions) {
  TempDir dir;
  const std::string options = R"({"chunk_store": {"url": ")" + dir / "chunks" + R"(", "store": {"fsync": true}}})";
  ArrayPtr a = create_array(dir / "a", array_meta("[8, 8]", "[4, 4]"), options.c_str());
  ASSERT_OK(write_region(a, {0, 0}, {8, 8}, counting(64)));
  EXPECT_TRUE(fs::exists(dir / "chunks/1.1"));
}

// A NUL inside the option's URL ("\u0000") is refused naming the option,
// never read as the URL's end (the chunks went to the folder before it:
// audit of issue 20, finding 3).
TEST(ChunkStore, ANulInTheUrlIsRefusedNotTruncated) {
  TempDir dir;
  const std::string meta = array_meta("[8, 8]", "[4, 4]");
  for (const std::string& options : {R"({"chunk_store": ")" + dir / "chunks" + R"(\u0000-suffix"})",
                                     R"({"chunk_store": {"url": ")" + dir / "chunks" + R"(\u0000-suffix"}})"}) {
    SCOPED_TRACE(options);
    ArrayPtr a;
    EXPECT_STATUS(zarr_create_ex(a.out(), (dir / "a").c_str(), meta.c_str(), options.c_str()),
                  ZARR_ERR_INVALID_ARGUMENT, "holds a NUL byte");
  }
  EXPECT_FALSE(fs::exists(dir / "chunks"));
  EXPECT_FALSE(fs::exists(dir / "a"));
}

TEST(ChunkStore, OptionErrorsNameTheOption) {
  TempDir dir;
  create_array(dir / "a", array_meta("[8, 8]", "[4, 4]"));
  const std::string url = dir / "a";
  for (const char* options : {R"({"chunk_store": 5})", R"({"chunk_store": ""})", R"({"chunk_store": {"url": 5}})",
                              R"({"chunk_store": {"store": {}}})"}) {
    ArrayPtr a;
    EXPECT_STATUS(zarr_open_ex(a.out(), url.c_str(), "r", options), ZARR_ERR_INVALID_ARGUMENT, "'chunk_store");
  }
  ArrayPtr a;
  EXPECT_STATUS(zarr_open_ex(a.out(), url.c_str(), "r", R"({"chunk_store": {"uri": "x"}})"),
                ZARR_ERR_INVALID_ARGUMENT, "'chunk_store.uri'");
  EXPECT_STATUS(zarr_open_ex(a.out(), url.c_str(), "r", R"({"chunk_store": "nosuchscheme://x"})"),
                ZARR_ERR_INVALID_ARGUMENT, "options: 'chunk_store': ");
  EXPECT_STATUS(zarr_open_ex(a.out(), url.c_str(), "r",
                             (R"({"chunk_store": {"url": ")" + dir / "c" + R"(", "store": {"region": "x"}}})").c_str()),
                ZARR_ERR_INVALID_ARGUMENT, "region");
}
