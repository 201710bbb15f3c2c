// Variable-length elements: one data buffer plus offsets through the C API.
#include <algorithm>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

const char* kV3Strings =
    "{\"shape\": [5], \"data_type\": \"string\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": "
    "{\"chunk_shape\": [2]}}, \"fill_value\": \"-\", \"codecs\": [{\"name\": \"vlen-utf8\", \"configuration\": {}}]}";

}  // namespace

TEST(Vlen, V3StringsRoundTripWithFillAndPartialWrites) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", kV3Strings);
  EXPECT_EQ(zarr_item_size(a), 0u);
  EXPECT_EQ(read_strings(a, {0}, {5}), (std::vector<std::string>{"-", "-", "-", "-", "-"}));
  ASSERT_OK(write_strings(a, {1}, {3}, {"h\xc3\xa9llo", "", "wide \xe2\x98\x83"}));
  ASSERT_OK(write_strings(a, {4}, {1}, {"last"}));
  std::vector<std::string> want = {"-", "h\xc3\xa9llo", "", "wide \xe2\x98\x83", "last"};
  EXPECT_EQ(read_strings(a, {0}, {5}), want);
  EXPECT_EQ(read_strings(open_array(dir / "s"), {2}, {2}), (std::vector<std::string>{"", "wide \xe2\x98\x83"}));
  // numcodecs' layout on disk: count, then (length, bytes) per element; the
  // edge chunk is stored whole, padded with the fill value.
  zarr::Bytes chunk = read_file(dir / "s/c/2");
  EXPECT_EQ(chunk, (zarr::Bytes{2, 0, 0, 0, 4, 0, 0, 0, 'l', 'a', 's', 't', 1, 0, 0, 0, '-'}));
}

TEST(Vlen, ChunksBackToTheFillValueAreErased) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", kV3Strings);
  ASSERT_OK(write_strings(a, {0}, {2}, {"x", "y"}));
  EXPECT_TRUE(file_exists(dir / "s/c/0"));
  ASSERT_OK(write_strings(a, {0}, {2}, {"-", "-"}));
  EXPECT_FALSE(file_exists(dir / "s/c/0"));
}

TEST(Vlen, V2ObjectArraysWithVlenUtf8AndCompressor) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "o", array_meta("[2, 3]", "[1, 2]", "|O",
                                                   {{"filters", "[{\"id\": \"vlen-utf8\"}]"},
                                                    {"compressor", "{\"id\": \"zlib\", \"level\": 1}"}}));
  std::vector<std::string> items = {"a", "bb", "ccc", "", "eeeee", "f"};
  ASSERT_OK(write_strings(a, {0, 0}, {2, 3}, items));
  EXPECT_EQ(read_strings(open_array(dir / "o"), {0, 0}, {2, 3}), items);
  EXPECT_STREQ(zarr_data_type(a), "\"|O\"");
  EXPECT_NE(metadata_of(a).find("\"id\": \"vlen-utf8\""), std::string::npos);
}

TEST(Vlen, ErrorsNameTheProblem) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", kV3Strings);
  uint64_t start = 0, count = 2, offsets[3] = {0, 3, 1};
  EXPECT_STATUS(zarr_write_region_vlen(a, 1, &start, &count, offsets, 3, "abc", 3), ZARR_ERR_INVALID_ARGUMENT,
                "offsets[2]");
  uint64_t past[3] = {0, 2, 9};
  EXPECT_STATUS(zarr_write_region_vlen(a, 1, &start, &count, past, 3, "abc", 3), ZARR_ERR_INVALID_ARGUMENT,
                "3-byte data buffer");
  EXPECT_STATUS(zarr_write_region_vlen(a, 1, &start, &count, offsets, 2, "abc", 3), ZARR_ERR_BUFFER_SIZE, "needs 3");
  char buf[1];
  size_t needed = 0;
  uint64_t out[3];
  EXPECT_STATUS(zarr_read_region_vlen(a, 1, &start, &count, out, 3, buf, 1, &needed), ZARR_ERR_BUFFER_SIZE, "need 2");
  EXPECT_EQ(needed, 2u);
  // A region of 2^64 - 1 elements would need 2^64 offsets: no offsets count
  // matches it (0, which n + 1 wraps to, included).
  std::string huge_meta = kV3Strings;
  huge_meta.replace(huge_meta.find("[5]"), 3, "[18446744073709551615]");
  ArrayPtr huge = create_array(dir / "huge", huge_meta);
  uint64_t everything = UINT64_MAX;
  EXPECT_STATUS(zarr_read_region_vlen(huge, 1, &start, &everything, out, 0, buf, 1, &needed), ZARR_ERR_BUFFER_SIZE,
                "needs more than 18446744073709551615");
  EXPECT_STATUS(zarr_write_region_vlen(huge, 1, &start, &everything, offsets, 0, "abc", 3), ZARR_ERR_BUFFER_SIZE,
                "needs more than 18446744073709551615");
  int32_t fixed[2];
  EXPECT_STATUS(zarr_read_region(a, 1, &start, &count, fixed, 8), ZARR_ERR_UNSUPPORTED, "zarr_read_region_vlen");
  ArrayPtr f = create_array(dir / "f", array_meta("[2]", "[2]"));
  EXPECT_STATUS(zarr_read_region_vlen(f, 1, &start, &count, out, 3, buf, 1, &needed), ZARR_ERR_INVALID_ARGUMENT,
                "fixed-size");
  ArrayPtr bad;
  EXPECT_STATUS(zarr_create(bad.out(), (dir / "b").c_str(), array_meta("[2]", "[2]", "|O", {{"filters", "null"}}).c_str()),
                ZARR_ERR_UNSUPPORTED, "object codec");
  uint64_t s9 = 4, c9 = 2;
  EXPECT_STATUS(zarr_read_region_vlen(a, 1, &s9, &c9, out, 3, buf, 1, &needed), ZARR_ERR_OUT_OF_BOUNDS, "outside");
}

// Regions and chunks whose element views no machine can hold: ZARR_ERR_NO_MEMORY
// naming the array, the region and the chunk size (it used to be a bare "out
// of memory"), and the failed write leaves no chunk behind.
TEST(Vlen, RegionsLargerThanMemoryAreNoMemoryNamingTheArray) {
#ifdef ZARR_TEST_HUGE_ALLOCATIONS_ABORT
  GTEST_SKIP() << "a sanitizer's allocator aborts on a 16 TiB allocation instead of failing it";
#else
  TempDir dir;
  std::string meta = kV3Strings;
  meta.replace(meta.find("[5]"), 3, "[1099511627776]");
  meta.replace(meta.find("[2]"), 3, "[1099511627776]");
  ArrayPtr a = create_array(dir / "s", meta);
  uint64_t start = 0, one = 1, offsets[2] = {0, 3};
  EXPECT_STATUS(zarr_write_region_vlen(a, 1, &start, &one, offsets, 2, "abc", 3), ZARR_ERR_NO_MEMORY,
                "writing region [1], with chunks of 1099511627776 variable-length elements");
  EXPECT_EQ(list_files(dir / "s"), (std::vector<std::string>{"zarr.json"})) << "nothing was written";
  // Reading all of it: offsets for 2^40 elements claimed, never reached.
  uint64_t everything = 1099511627776u, out[1];
  char buf[1];
  size_t needed = 0;
  EXPECT_STATUS(zarr_read_region_vlen(a, 1, &start, &everything, out, 1099511627777u, buf, 1, &needed),
                ZARR_ERR_NO_MEMORY, "reading region [1099511627776]");
  EXPECT_NE(std::string(zarr_last_error()).find("/s: out of memory"), std::string::npos) << zarr_last_error();
#endif
}

namespace {

// Strings in shards of 4 holding inner chunks of 2, inner codec `inner`.
std::string sharded_strings(const std::string& inner) {
  return "{\"shape\": [6], \"data_type\": \"string\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": "
         "{\"chunk_shape\": [4]}}, \"fill_value\": \"\", \"codecs\": [{\"name\": \"sharding_indexed\", "
         "\"configuration\": {\"chunk_shape\": [2], \"codecs\": [{\"name\": \"" +
         inner + "\"}]}}]}";
}

}  // namespace

TEST(Vlen, ShardedStringsRoundTripAndLeaveFillInnerChunksOut) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", sharded_strings("vlen-utf8"));
  ASSERT_OK(write_strings(a, {0}, {6}, {"", "", "zwei", "drei \xe2\x98\x83", "", "x"}));
  EXPECT_EQ(read_strings(open_array(dir / "s"), {0}, {6}),
            (std::vector<std::string>{"", "", "zwei", "drei \xe2\x98\x83", "", "x"}));
  EXPECT_EQ(read_strings(a, {3}, {2}), (std::vector<std::string>{"drei \xe2\x98\x83", ""}));
  // Shard 0: its first inner chunk is all fill, so the index marks it empty.
  zarr::Bytes shard = read_file(dir / "s/c/0");
  ASSERT_GE(shard.size(), 36u);  // 2 entries of 16 bytes + crc32c at the end
  const uint8_t* index = shard.data() + shard.size() - 36;
  EXPECT_TRUE(std::all_of(index, index + 16, [](uint8_t b) { return b == 0xff; }));
  ASSERT_OK(write_strings(a, {0}, {4}, {"", "", "", ""}));
  EXPECT_FALSE(file_exists(dir / "s/c/0"));
}

TEST(Vlen, ShardedStringsNeedTheVlenCodecInside) {
  TempDir dir;
  zarr_array* a = nullptr;
  EXPECT_STATUS(zarr_create(&a, (dir / "s").c_str(), sharded_strings("bytes").c_str()), ZARR_ERR_INVALID_METADATA,
                "vlen-utf8");
  EXPECT_EQ(a, nullptr);
}

TEST(Vlen, V2ObjectArrayWithoutAFillValueTakesTheDefault) {
  TempDir dir;
  // What zarr-python users leave out: fill_value (and order, compressor...).
  ArrayPtr a = create_array(dir / "o", R"({"shape": [3], "chunks": [2], "dtype": "|O", "filters": [{"id": "vlen-utf8"}]})");
  EXPECT_EQ(read_strings(a, {0}, {3}), (std::vector<std::string>{"", "", ""}));
  ASSERT_OK(write_strings(a, {1}, {2}, {"b", "cc"}));
  EXPECT_EQ(read_strings(open_array(dir / "o"), {0}, {3}), (std::vector<std::string>{"", "b", "cc"}));
}
