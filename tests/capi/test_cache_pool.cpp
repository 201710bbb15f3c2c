// The "cache_pool" option: a handle keeps decoded chunks up to a byte limit.
// A cached chunk is seen by removing its file after the first read: the
// cached handle still reads the values, a handle without a cache reads the
// fill value. Also eviction order, writes and resizes through the handle,
// sharded arrays, chunks above the limit, threads, and the option's errors.
#include <filesystem>
#include <numeric>
#include <thread>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;
namespace fs = std::filesystem;

namespace {

// An 8x8 int32 array of 4x4 zlib chunks (64 decoded bytes each) holding 0..63.
std::string make_array(const TempDir& dir) {
  const std::string url = dir / "a";
  ArrayPtr a = create_array(url, array_meta("[8, 8]", "[4, 4]", "<i4", {{"compressor", R"({"id": "zlib"})"}}));
  std::vector<int32_t> values(64);
  std::iota(values.begin(), values.end(), 0);
  EXPECT_EQ(write_region(a, {0, 0}, {8, 8}, values), ZARR_OK);
  return url;
}

ArrayPtr open_cached(const std::string& url, uint64_t limit, const char* mode = "r") {
  ArrayPtr a;
  const std::string options = R"({"cache_pool": {"total_bytes_limit": )" + std::to_string(limit) + "}}";
  EXPECT_EQ(zarr_open_ex(a.out(), url.c_str(), mode, options.c_str()), ZARR_OK) << zarr_last_error();
  return a;
}

// The values 0..63 hold in chunk (row, col) of make_array's array.
std::vector<int32_t> chunk_values(uint64_t row, uint64_t col) {
  std::vector<int32_t> v;
  for (uint64_t r = row * 4; r < row * 4 + 4; ++r) {
    for (uint64_t c = col * 4; c < col * 4 + 4; ++c) v.push_back(static_cast<int32_t>(r * 8 + c));
  }
  return v;
}

std::vector<int32_t> read_chunk(zarr_array* a, uint64_t row, uint64_t col) {
  return read_region<int32_t>(a, {row * 4, col * 4}, {4, 4});
}

void remove_chunk_files(const std::string& url) {
  for (const char* key : {"0.0", "0.1", "1.0", "1.1"}) fs::remove(url + "/" + key);
}

uint64_t info_figure(const zarr_array* a, const char* name) {
  rapidjson::Document info = info_of(a);
  return info["cache_pool"][name].GetUint64();
}

}  // namespace

TEST(CachePool, ReadsServeCachedChunksWithoutTheStore) {
  TempDir dir;
  const std::string url = make_array(dir);
  ArrayPtr cached = open_cached(url, 1 << 20);
  std::vector<int32_t> all(64);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(read_all<int32_t>(cached), all);
  EXPECT_EQ(info_figure(cached, "chunks_held"), 4u);
  EXPECT_EQ(info_figure(cached, "total_bytes_limit"), 1u << 20);
  remove_chunk_files(url);
  EXPECT_EQ(read_all<int32_t>(cached), all) << "every chunk from the cache";
  EXPECT_EQ(read_region<int32_t>(cached, {3, 3}, {2, 2}), (std::vector<int32_t>{27, 28, 35, 36}))
      << "parts of several cached chunks";
  ArrayPtr plain = open_array(url);
  EXPECT_EQ(read_all<int32_t>(plain), std::vector<int32_t>(64, 0)) << "without a cache the chunks are gone";
  EXPECT_TRUE(info_of(plain)["cache_pool"].IsNull());
}

TEST(CachePool, LeastRecentlyUsedChunkGoesFirstAndTheLimitHolds) {
  TempDir dir;
  const std::string url = make_array(dir);
  // Room for two 64-byte chunks and their bookkeeping, not three.
  ArrayPtr cached = open_cached(url, 400);
  read_chunk(cached, 0, 0);
  read_chunk(cached, 0, 1);
  read_chunk(cached, 0, 0);  // now the most recently used
  read_chunk(cached, 1, 0);  // (0, 1) goes
  EXPECT_EQ(info_figure(cached, "chunks_held"), 2u);
  EXPECT_LE(info_figure(cached, "bytes_used"), 400u);
  remove_chunk_files(url);
  EXPECT_EQ(read_chunk(cached, 0, 0), chunk_values(0, 0));
  EXPECT_EQ(read_chunk(cached, 1, 0), chunk_values(1, 0));
  EXPECT_EQ(read_chunk(cached, 0, 1), std::vector<int32_t>(16, 0)) << "evicted, and its file is gone";
}

TEST(CachePool, AChunkAboveTheLimitIsReadWithoutIt) {
  TempDir dir;
  const std::string url = make_array(dir);
  ArrayPtr cached = open_cached(url, 32);  // below one 64-byte chunk
  EXPECT_EQ(read_chunk(cached, 1, 1), chunk_values(1, 1));
  EXPECT_EQ(info_figure(cached, "chunks_held"), 0u);
  EXPECT_EQ(info_figure(cached, "bytes_used"), 0u);
}

TEST(CachePool, AbsentChunksAreCachedAsTheFillValue) {
  TempDir dir;
  const std::string url = dir / "sparse";
  create_array(url, array_meta("[8, 8]", "[4, 4]", "<i4", {{"fill_value", "-1"}}));
  ArrayPtr cached = open_cached(url, 1 << 20);
  EXPECT_EQ(read_all<int32_t>(cached), std::vector<int32_t>(64, -1));
  EXPECT_EQ(info_figure(cached, "chunks_held"), 4u);
  // Another handle writes: the cached handle does not see it (documented).
  ArrayPtr writer = open_array(url, "r+");
  ASSERT_OK(write_region<int32_t>(writer, {0, 0}, {1, 1}, {7}));
  EXPECT_EQ(read_region<int32_t>(cached, {0, 0}, {1, 1}), std::vector<int32_t>{-1});
  EXPECT_EQ(read_region<int32_t>(ArrayPtr(open_array(url)), {0, 0}, {1, 1}), std::vector<int32_t>{7});
}

TEST(CachePool, WritesThroughTheHandleAreReadBack) {
  TempDir dir;
  const std::string url = make_array(dir);
  ArrayPtr cached = open_cached(url, 1 << 20, "r+");
  read_all<int32_t>(cached);
  ASSERT_OK(write_region<int32_t>(cached, {3, 3}, {2, 2}, {-1, -2, -3, -4}));
  std::vector<int32_t> expected(64);
  std::iota(expected.begin(), expected.end(), 0);
  expected[27] = -1, expected[28] = -2, expected[35] = -3, expected[36] = -4;
  EXPECT_EQ(read_all<int32_t>(cached), expected);
  EXPECT_EQ(read_all<int32_t>(ArrayPtr(open_array(url))), expected) << "and they are stored";
}

TEST(CachePool, ResizeForgetsTheChunksItErases) {
  TempDir dir;
  const std::string url = make_array(dir);
  ArrayPtr cached = open_cached(url, 1 << 20, "r+");
  read_all<int32_t>(cached);
  const uint64_t smaller[] = {4, 4}, again[] = {8, 8};
  ASSERT_OK(zarr_resize(cached, 2, smaller));
  ASSERT_OK(zarr_resize(cached, 2, again));
  EXPECT_EQ(info_figure(cached, "chunks_held"), 0u);
  EXPECT_EQ(read_chunk(cached, 0, 0), chunk_values(0, 0));
  EXPECT_EQ(read_chunk(cached, 1, 1), std::vector<int32_t>(16, 0)) << "erased by the shrink";
}

TEST(CachePool, ShardsAreCachedWhole) {
  TempDir dir;
  const std::string url = dir / "sharded";
  const std::string meta = R"({"zarr_format": 3, "node_type": "array", "shape": [8, 8], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8, 8]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
    "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 2],
      "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "zstd", "configuration": {"level": 1}}],
      "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}]})";
  std::vector<int32_t> values(64);
  std::iota(values.begin(), values.end(), 100);
  ASSERT_OK(write_region(create_array(url, meta), {0, 0}, {8, 8}, values));
  ArrayPtr cached = open_cached(url, 1 << 20);
  EXPECT_EQ(read_region<int32_t>(cached, {0, 0}, {1, 1}), std::vector<int32_t>{100});
  EXPECT_EQ(info_figure(cached, "chunks_held"), 1u);
  fs::remove(url + "/c/0/0");
  EXPECT_EQ(read_region<int32_t>(cached, {7, 7}, {1, 1}), std::vector<int32_t>{163}) << "the whole shard was kept";
}

TEST(CachePool, ThreadsWritingAndReadingTheirRowsReadWhatTheyWrote) {
  TempDir dir;
  const std::string url = make_array(dir);
  ArrayPtr cached = open_cached(url, 1 << 20, "r+");
  // Each thread owns two rows, shared with other threads' rows in every chunk.
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        const std::vector<int32_t> row(16, t * 1000 + round);
        if (write_region<int32_t>(cached, {uint64_t(2 * t), 0}, {2, 8}, row) != ZARR_OK) ++failures[t];
        if (read_region<int32_t>(cached, {uint64_t(2 * t), 0}, {2, 8}) != row) ++failures[t];
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0)) << "a thread read something other than its last write";
}

TEST(CachePool, OptionErrorsNameTheOption) {
  TempDir dir;
  const std::string url = make_array(dir);
  for (const char* options : {R"({"cache_pool": 5})", R"({"cache_pool": {}})",
                              R"({"cache_pool": {"total_bytes_limit": -1}})",
                              R"({"cache_pool": {"total_bytes_limit": "1 MB"}})"}) {
    ArrayPtr a;
    EXPECT_STATUS(zarr_open_ex(a.out(), url.c_str(), "r", options), ZARR_ERR_INVALID_ARGUMENT, "cache_pool");
  }
  ArrayPtr a;
  EXPECT_STATUS(zarr_open_ex(a.out(), url.c_str(), "r", R"({"cache_pool": {"limit": 5}})"),
                ZARR_ERR_INVALID_ARGUMENT, "unknown member \"limit\"");
  EXPECT_STATUS(zarr_open_ex(a.out(), url.c_str(), "r+",
                             (R"({"cache_pool": {"total_bytes_limit": 1000}, "process_lock_dir": ")" + dir / "locks" + "\"}").c_str()),
                ZARR_ERR_INVALID_ARGUMENT, "'cache_pool' and 'process_lock_dir' do not go together");
  EXPECT_STATUS(zarr_open_ex(a.out(), url.c_str(), "r", R"({"cache_pool": {"total_bytes_limit": 0}})"), ZARR_OK, "");
  EXPECT_TRUE(info_of(a)["cache_pool"].IsNull()) << "a limit of 0 is no cache";
}
