// zarr_set_thread_count / zarr_thread_count, and region I/O giving the same
// values whether one thread or several do the chunks.
#include <sched.h>

#include <cstdlib>
#include <fstream>
#include <numeric>
#include <thread>

#include <chrono>
#include <mutex>
#include <set>

#include "capi_helpers.h"
#include "support/test_support.h"
#include "zarr/zarr_plugin.h"

using namespace zarr::test;

namespace {

// Restores the default after each test (the count is process-wide).
class ThreadCount : public testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(zarr_set_thread_count(0), ZARR_OK); }
};

size_t available_processors() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return CPU_COUNT(&set);
  return std::max<size_t>(1, std::thread::hardware_concurrency());
}

std::vector<uint16_t> pattern(size_t n) {
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint16_t>(i * 7919 % 65521);
  return v;
}

std::string v3_sharded_meta() {
  return R"({"zarr_format": 3, "node_type": "array", "shape": [40, 36], "data_type": "uint16",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [16, 12]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": 7,
    "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [4, 6],
      "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}],
      "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}]})";
}

// Arrays whose chunks take every path of the engine: raw, compressed,
// big-endian (swapped in place), F order (decoded through a transpose),
// edge chunks, and sharded.
struct Layout {
  std::string name, metadata;
  uint16_t fill;
};

std::vector<Layout> layouts() {
  return {
      {"raw", array_meta("[40, 36]", "[8, 12]", "<u2"), 0},
      {"raw_edges", array_meta("[40, 36]", "[7, 10]", "<u2", {{"fill_value", "5"}}), 5},
      {"zlib", array_meta("[40, 36]", "[8, 12]", "<u2", {{"compressor", R"({"id": "zlib", "level": 1})"}}), 0},
      {"big_endian_edges", array_meta("[40, 36]", "[7, 10]", ">u2", {{"fill_value", "3"}}), 3},
      {"fortran", array_meta("[40, 36]", "[8, 12]", "<u2", {{"order", "\"F\""}}), 0},
      {"sharded", v3_sharded_meta(), 7},
  };
}

// What write_and_read writes, as the whole [40, 36] array.
std::vector<uint16_t> expected_whole(uint16_t fill) {
  std::vector<uint16_t> v(40 * 36, fill);
  const std::vector<uint16_t> p = pattern(24 * 36);
  std::copy(p.begin(), p.end(), v.begin() + 16 * 36);
  for (size_t r = 20; r < 23; ++r) {
    for (size_t c = 5; c < 9; ++c) v[r * 36 + c] = 9;
  }
  return v;
}

std::vector<uint16_t> expected_part(uint16_t fill) {
  const std::vector<uint16_t> whole = expected_whole(fill);
  std::vector<uint16_t> part;
  for (size_t r = 3; r < 33; ++r) {
    for (size_t c = 5; c < 34; ++c) part.push_back(whole[r * 36 + c]);
  }
  return part;
}

// Write the whole array and read back a full and a partial region, with
// `threads` threads per call.
struct Reads {
  std::vector<uint16_t> whole, part;
};

Reads write_and_read(const std::string& url, const std::string& meta, size_t threads) {
  EXPECT_EQ(zarr_set_thread_count(threads), ZARR_OK);
  ArrayPtr a = create_array(url, meta);
  // Leave the first chunk row unwritten: those chunks read as the fill value.
  EXPECT_EQ(write_region(a, {16, 0}, {24, 36}, pattern(24 * 36)), ZARR_OK);
  EXPECT_EQ(write_region<uint16_t>(a, {20, 5}, {3, 4}, std::vector<uint16_t>(12, 9)), ZARR_OK);
  return {read_all<uint16_t>(a), read_region<uint16_t>(a, {3, 5}, {30, 29})};
}

}  // namespace

TEST_F(ThreadCount, DefaultIsTheProcessorCountAndCanBeSet) {
  EXPECT_EQ(zarr_thread_count(), available_processors());
  ASSERT_OK(zarr_set_thread_count(3));
  EXPECT_EQ(zarr_thread_count(), 3u);
  ASSERT_OK(zarr_set_thread_count(1));
  EXPECT_EQ(zarr_thread_count(), 1u);
  ASSERT_OK(zarr_set_thread_count(0));
  EXPECT_EQ(zarr_thread_count(), available_processors());
}

TEST_F(ThreadCount, EnvironmentVariableChoosesTheDefault) {
  EnvironmentGuard environment;
  environment.set("ZARR_NUM_THREADS", "3");
  ASSERT_OK(zarr_set_thread_count(0));
  EXPECT_EQ(zarr_thread_count(), 3u);
  ASSERT_OK(zarr_set_thread_count(2));  // the function still overrides it
  EXPECT_EQ(zarr_thread_count(), 2u);
}

TEST_F(ThreadCount, EnvironmentVariableThatIsNotACountIsAnInvalidArgument) {
  EnvironmentGuard environment;
  for (const char* bad : {"abc", "0", "-2", "2x", "5000"}) {
    environment.set("ZARR_NUM_THREADS", bad);
    EXPECT_STATUS(zarr_set_thread_count(0), ZARR_ERR_INVALID_ARGUMENT,
                  std::string("ZARR_NUM_THREADS='") + bad + "'");
  }
}

TEST_F(ThreadCount, CountAboveTheLimitIsAnInvalidArgument) {
  ASSERT_OK(zarr_set_thread_count(2));
  EXPECT_STATUS(zarr_set_thread_count(100000), ZARR_ERR_INVALID_ARGUMENT, "thread count 100000");
  EXPECT_EQ(zarr_thread_count(), 2u);
}

TEST_F(ThreadCount, ReadsAndWritesAreTheSameWithOneAndManyThreads) {
  TempDir dir;
  for (const Layout& layout : layouts()) {
    SCOPED_TRACE(layout.name);
    const Reads one = write_and_read(dir / (layout.name + "_1"), layout.metadata, 1);
    const Reads many = write_and_read(dir / (layout.name + "_4"), layout.metadata, 4);
    EXPECT_TRUE(one.whole == expected_whole(layout.fill));
    EXPECT_TRUE(one.part == expected_part(layout.fill));
    EXPECT_TRUE(many.whole == expected_whole(layout.fill));
    EXPECT_TRUE(many.part == expected_part(layout.fill));
    // And the files written with one thread read the same with four.
    ASSERT_OK(zarr_set_thread_count(4));
    ArrayPtr a = open_array(dir / (layout.name + "_1"));
    EXPECT_TRUE(read_all<uint16_t>(a) == one.whole);
  }
}

// One corrupt chunk among many: the read fails with the codec's error naming
// that chunk, whichever thread decoded it; the other chunks are unaffected.
TEST_F(ThreadCount, FirstErrorOfAParallelReadIsReported) {
  TempDir dir;
  ASSERT_OK(zarr_set_thread_count(4));
  ArrayPtr a = create_array(dir / "a", array_meta("[64, 64]", "[8, 8]", "<u2", {{"compressor", R"({"id": "zlib"})"}}));
  ASSERT_OK(write_region(a, {0, 0}, {64, 64}, pattern(64 * 64)));
  { std::ofstream(dir / "a/5.3", std::ios::binary | std::ios::trunc) << "not zlib"; }
  std::vector<uint16_t> out(64 * 64);
  const uint64_t start[2] = {0, 0}, count[2] = {64, 64};
  EXPECT_STATUS(zarr_read_region(a, 2, start, count, out.data(), out.size() * 2), ZARR_ERR_CODEC, "5.3");
  EXPECT_EQ(read_region<uint16_t>(a, {0, 0}, {8, 64}), std::vector<uint16_t>(pattern(8 * 64)));
}

// An uncompressed chunk of the wrong size is a codec error naming it, whether
// its rows are read straight into the region or the chunk is read whole.
TEST_F(ThreadCount, ShortUncompressedChunkIsACodecError) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[16, 16]", "[8, 8]", "<u2"));
  ASSERT_OK(write_region(a, {0, 0}, {16, 16}, pattern(256)));
  { std::ofstream(dir / "a/1.0", std::ios::binary | std::ios::trunc) << "short"; }
  std::vector<uint16_t> out(256);
  const uint64_t start[2] = {0, 0}, whole[2] = {16, 16}, rows[2] = {8, 16};
  EXPECT_STATUS(zarr_read_region(a, 2, start, whole, out.data(), 512), ZARR_ERR_CODEC, "1.0");
  const uint64_t lower[2] = {8, 0};
  EXPECT_STATUS(zarr_read_region(a, 2, lower, rows, out.data(), 256), ZARR_ERR_CODEC, "1.0");
  const uint64_t one_chunk[2] = {8, 8};
  EXPECT_STATUS(zarr_read_region(a, 2, lower, one_chunk, out.data(), 128), ZARR_ERR_CODEC, "1.0");
}

// ---- the per-handle limit: "data_copy_concurrency" --------------------------------

namespace {

// A pass-through codec that notes which threads decode (and takes a moment,
// so that idle workers would pick up chunks).
std::mutex decoder_threads_mutex;
std::set<std::thread::id> decoder_threads;

int pass_instance = 0;  // create must hand back a non-NULL instance

int pass_create(void*, const char*, size_t, void** instance, char*, size_t) {
  *instance = &pass_instance;
  return ZARR_OK;
}
int pass_copy(const void* in, size_t nbytes, const zarr_codec_output* out) {
  void* dst = out->allocate(out->context, nbytes);
  if (!dst) return ZARR_ERR_NO_MEMORY;
  std::memcpy(dst, in, nbytes);
  return ZARR_OK;
}
int pass_encode(void*, const void* in, size_t nbytes, const zarr_codec_output* out) { return pass_copy(in, nbytes, out); }
int pass_decode(void*, const void* in, size_t nbytes, size_t, const zarr_codec_output* out) {
  {
    std::lock_guard<std::mutex> lock(decoder_threads_mutex);
    decoder_threads.insert(std::this_thread::get_id());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return pass_copy(in, nbytes, out);
}
void pass_destroy(void*) {}

size_t threads_decoding(zarr_array* a) {
  {
    std::lock_guard<std::mutex> lock(decoder_threads_mutex);
    decoder_threads.clear();
  }
  read_all<int32_t>(a);
  std::lock_guard<std::mutex> lock(decoder_threads_mutex);
  return decoder_threads.size();
}

}  // namespace

TEST_F(ThreadCount, DataCopyConcurrencyLimitsTheThreadsOfOneHandle) {
  zarr_codec_vtable v{};
  v.struct_size = sizeof(v);
  v.abi_version = ZARR_PLUGIN_ABI_VERSION;
  v.name = "thread_noting_pass";
  v.create = pass_create;
  v.encode = pass_encode;
  v.decode = pass_decode;
  v.destroy = pass_destroy;
  ASSERT_OK(zarr_codec_register(&v));
  ASSERT_OK(zarr_set_thread_count(4));
  TempDir dir;
  const std::string url = dir / "a";
  {
    ArrayPtr a = create_array(url, array_meta("[64]", "[2]", "<i4", {{"compressor", R"({"id": "thread_noting_pass"})"}}));
    ASSERT_OK(write_region(a, {0}, {64}, std::vector<int32_t>(64, 1)));
  }
  ArrayPtr limited;
  ASSERT_OK(zarr_open_ex(limited.out(), url.c_str(), "r", R"({"data_copy_concurrency": {"limit": 1}})"));
  EXPECT_EQ(threads_decoding(limited), 1u) << "every chunk on the calling thread";
  ArrayPtr two;
  ASSERT_OK(zarr_open_ex(two.out(), url.c_str(), "r", R"({"data_copy_concurrency": {"limit": 2}})"));
  EXPECT_LE(threads_decoding(two), 2u);
  ArrayPtr shared;
  ASSERT_OK(zarr_open_ex(shared.out(), url.c_str(), "r", R"({"data_copy_concurrency": {"limit": "shared"}})"));
  EXPECT_GT(threads_decoding(shared), 1u) << "32 chunks of 2 ms each on 4 threads";
  for (const char* bad : {R"({"data_copy_concurrency": {"limit": 0}})", R"({"data_copy_concurrency": 3})",
                          R"({"data_copy_concurrency": {"limit": 2, "x": 1}})"}) {
    ArrayPtr a;
    EXPECT_STATUS(zarr_open_ex(a.out(), url.c_str(), "r", bad), ZARR_ERR_INVALID_ARGUMENT, "'data_copy_concurrency'");
  }
}
