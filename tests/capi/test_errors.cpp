// Every error path of the C API returns its code and a message naming the
// key, file or field at fault, and leaves no partial data behind.
#include <filesystem>
#include <fstream>
#include <thread>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

TEST(Errors, NullArgumentsAreInvalidArgument) {
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(nullptr, "x", "r"), ZARR_ERR_INVALID_ARGUMENT, "'out'");
  EXPECT_STATUS(zarr_open(a.out(), nullptr, "r"), ZARR_ERR_INVALID_ARGUMENT, "'url'");
  EXPECT_STATUS(zarr_open(a.out(), "x", nullptr), ZARR_ERR_INVALID_ARGUMENT, "'mode'");
  EXPECT_STATUS(zarr_create(a.out(), "x", nullptr), ZARR_ERR_INVALID_ARGUMENT, "'metadata_json'");
  EXPECT_STATUS(zarr_shape(nullptr, nullptr), ZARR_ERR_INVALID_ARGUMENT, "'array'");
  EXPECT_STATUS(zarr_get_metadata(nullptr, nullptr), ZARR_ERR_INVALID_ARGUMENT, "'json_out'");
  EXPECT_EQ(zarr_close(nullptr), ZARR_OK);
  EXPECT_EQ(zarr_group_close(nullptr), ZARR_OK);
  EXPECT_EQ(zarr_ndim(nullptr), 0u);
  EXPECT_EQ(zarr_data_type(nullptr), nullptr);
  zarr_free(nullptr);
}

TEST(Errors, BadModeAndMissingArray) {
  TempDir dir;
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), dir.path().c_str(), "w"), ZARR_ERR_INVALID_ARGUMENT, "\"w\"");
  EXPECT_STATUS(zarr_open(a.out(), (dir / "nothing").c_str(), "r"), ZARR_ERR_NOT_FOUND, "nothing");
  EXPECT_EQ(a.get(), nullptr);
}

TEST(Errors, UrlsThatNameNoStore) {
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), "", "r"), ZARR_ERR_INVALID_ARGUMENT, "empty");
  EXPECT_STATUS(zarr_open(a.out(), "gopher://x", "r"), ZARR_ERR_INVALID_ARGUMENT, "gopher://x");
  EXPECT_STATUS(zarr_open(a.out(), "file://relative", "r"), ZARR_ERR_INVALID_ARGUMENT, "file://relative");
  EXPECT_STATUS(zarr_open(a.out(), "memory://", "r"), ZARR_ERR_INVALID_ARGUMENT, "memory://");
  EXPECT_STATUS(zarr_open(a.out(), "memory://m/../x", "r"), ZARR_ERR_INVALID_ARGUMENT, "..");
  EXPECT_STATUS(zarr_open(a.out(), "/tmp/x%zz", "r"), ZARR_ERR_NOT_FOUND, "");  // plain paths are not decoded
  EXPECT_STATUS(zarr_open(a.out(), "file:///tmp/x%zz", "r"), ZARR_ERR_INVALID_ARGUMENT, "percent");
}

TEST(Errors, MalformedAndMistypedMetadataOnCreate) {
  TempDir dir;
  struct Case {
    std::string doc;
    int code;
    std::string fragment;
  } cases[] = {
      {"{\"shape\": [10], \"dtype\": ", ZARR_ERR_INVALID_METADATA, "malformed JSON"},
      {"[]", ZARR_ERR_INVALID_METADATA, "object"},
      {"{\"dtype\": \"<i4\"}", ZARR_ERR_INVALID_METADATA, "'shape'"},
      {"{\"shape\": [10]}", ZARR_ERR_INVALID_METADATA, "'dtype'"},
      {"{\"shape\": \"10\", \"dtype\": \"<i4\"}", ZARR_ERR_INVALID_METADATA, "'shape'"},
      {"{\"shape\": [-1], \"dtype\": \"<i4\"}", ZARR_ERR_INVALID_METADATA, "'shape' item 0"},
      {"{\"shape\": [10], \"chunks\": [0], \"dtype\": \"<i4\"}", ZARR_ERR_INVALID_METADATA, "'chunks' item 0"},
      {"{\"shape\": [10], \"chunks\": [-5], \"dtype\": \"<i4\"}", ZARR_ERR_INVALID_METADATA, "'chunks' item 0"},
      {"{\"shape\": [10], \"chunks\": [5, 5], \"dtype\": \"<i4\"}", ZARR_ERR_INVALID_METADATA, "'chunks'"},
      {"{\"shape\": [4294967296, 4294967296], \"chunks\": [1, 1], \"dtype\": \"<i4\"}", ZARR_ERR_INVALID_METADATA,
       "overflows"},
      {"{\"shape\": [10], \"chunks\": [4294967296, 4294967296], \"dtype\": \"<i4\"}", ZARR_ERR_INVALID_METADATA,
       "'chunks'"},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"order\": \"X\"}", ZARR_ERR_INVALID_METADATA, "'order'"},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"order\": 1}", ZARR_ERR_INVALID_METADATA, "'order'"},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"dimension_separator\": \":\"}", ZARR_ERR_INVALID_METADATA,
       "'dimension_separator'"},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"zarr_format\": 4}", ZARR_ERR_INVALID_METADATA, "'zarr_format'"},
      // A v3 document with a v2 member: an extension v3 readers must refuse.
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"zarr_format\": 3}", ZARR_ERR_UNSUPPORTED, "\"dtype\""},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"fill_value\": \"abc\"}", ZARR_ERR_INVALID_METADATA, "fill_value"},
      {"{\"shape\": [10], \"dtype\": \"|u1\", \"fill_value\": 300}", ZARR_ERR_INVALID_METADATA, "fill_value"},
      {"{\"shape\": [10], \"dtype\": \"<i3\"}", ZARR_ERR_INVALID_METADATA, "dtype"},
      {"{\"shape\": [10], \"dtype\": \"|O\"}", ZARR_ERR_UNSUPPORTED, "|O"},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"compressor\": {\"id\": \"nosuch\"}}", ZARR_ERR_UNSUPPORTED, "nosuch"},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"compressor\": {\"level\": 1}}", ZARR_ERR_INVALID_METADATA,
       "compressor"},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"compressor\": \"zlib\"}", ZARR_ERR_INVALID_METADATA, "'compressor'"},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"filters\": [{\"id\": \"frobnicate\"}]}", ZARR_ERR_UNSUPPORTED,
       "frobnicate"},
      {"{\"shape\": [10], \"dtype\": \"<i4\", \"filters\": {}}", ZARR_ERR_INVALID_METADATA, "'filters'"},
  };
  int i = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.doc);
    std::string url = dir / ("a" + std::to_string(i++));
    ArrayPtr a;
    EXPECT_STATUS(zarr_create(a.out(), url.c_str(), c.doc.c_str()), c.code, c.fragment);
    EXPECT_EQ(a.get(), nullptr);
    EXPECT_FALSE(file_exists(url)) << "a failed create leaves nothing behind";
  }
}

TEST(Errors, BrokenStoredMetadataNamesTheKey) {
  TempDir dir;
  std::filesystem::create_directories(dir / "a");
  write_file(dir / "a/.zarray", std::string("{\"zarr_format\": 2, \"shape\": [1]"));
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), (dir / "a").c_str(), "r"), ZARR_ERR_INVALID_METADATA, ".zarray");
  // Stored documents must have every field.
  write_file(dir / "a/.zarray", std::string("{\"zarr_format\": 2, \"shape\": [1], \"chunks\": [1], \"dtype\": \"<i4\", "
                                          "\"order\": \"C\", \"fill_value\": 0, \"filters\": null}"));
  EXPECT_STATUS(zarr_open(a.out(), (dir / "a").c_str(), "r"), ZARR_ERR_INVALID_METADATA, "'compressor'");
}

TEST(Errors, CreateWhereANodeExists) {
  TempDir dir;
  create_array(dir / "a", array_meta("[2]", "[2]"));
  ArrayPtr b;
  EXPECT_STATUS(zarr_create(b.out(), (dir / "a").c_str(), array_meta("[3]", "[3]").c_str()), ZARR_ERR_EXISTS, "already");
  GroupPtr g;
  EXPECT_STATUS(zarr_group_create(g.out(), (dir / "a").c_str(), nullptr), ZARR_ERR_EXISTS, "already");
  EXPECT_EQ(read_all<int32_t>(open_array(dir / "a")).size(), 2u) << "the existing array is untouched";
}

TEST(Errors, RegionOutOfBoundsWrongNdimAndBufferSize) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[10, 10]", "[5, 5]"));
  std::vector<int32_t> buf(4);
  uint64_t start[2] = {9, 0}, count[2] = {2, 2};
  EXPECT_STATUS(zarr_read_region(a, 2, start, count, buf.data(), 16), ZARR_ERR_OUT_OF_BOUNDS, "dimension 0");
  EXPECT_STATUS(zarr_write_region(a, 2, start, count, buf.data(), 16), ZARR_ERR_OUT_OF_BOUNDS, "outside shape");
  uint64_t huge_start[2] = {UINT64_MAX, 0};
  EXPECT_STATUS(zarr_read_region(a, 2, huge_start, count, buf.data(), 16), ZARR_ERR_OUT_OF_BOUNDS, "");
  start[0] = 0;
  EXPECT_STATUS(zarr_read_region(a, 1, start, count, buf.data(), 16), ZARR_ERR_INVALID_ARGUMENT, "'ndim'");
  EXPECT_STATUS(zarr_read_region(a, 2, start, count, buf.data(), 15), ZARR_ERR_BUFFER_SIZE, "15 bytes");
  EXPECT_STATUS(zarr_write_region(a, 2, start, count, buf.data(), 17), ZARR_ERR_BUFFER_SIZE, "needs 16");
  EXPECT_STATUS(zarr_read_region(a, 2, start, nullptr, buf.data(), 16), ZARR_ERR_INVALID_ARGUMENT, "'count'");
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray"})) << "nothing was written";
  // A region whose elements fit in 64 bits but whose bytes no buffer holds
  // (2^62 int16: 2^63 bytes, one more than the largest buffer).
  ArrayPtr big = create_array(dir / "big", array_meta("[4611686018427387904]", "[1000]", "<i2"));
  const uint64_t zero[1] = {0}, all[1] = {4611686018427387904u};
  EXPECT_STATUS(zarr_read_region(big, 1, zero, all, buf.data(), 16), ZARR_ERR_BUFFER_SIZE,
                "needs more than 9223372036854775807");
}

// Chunks of 2^50 bytes are valid metadata, but no machine can hold one:
// writing or reading a region is ZARR_ERR_NO_MEMORY naming the array and the
// chunk size, and the failed write leaves no chunk behind.
TEST(Errors, ChunksLargerThanMemoryAreNoMemoryNamingTheChunkSize) {
#ifdef ZARR_TEST_HUGE_ALLOCATIONS_ABORT
  GTEST_SKIP() << "a sanitizer's allocator aborts on a 1 PiB allocation instead of failing it";
#else
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[140737488355328]", "[140737488355328]", "<i8",
                                                  {{"compressor", "{\"id\": \"zstd\", \"level\": 1}"}}));
  std::vector<int64_t> values = {1, 2, 3, 4};
  EXPECT_STATUS(write_region<int64_t>(a, {0}, {4}, values), ZARR_ERR_NO_MEMORY,
                "writing region [4], with chunks of 1125899906842624 bytes");
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray"})) << "nothing was written";
  std::ofstream(dir / "a/0", std::ios::binary) << "a stored chunk";
  const uint64_t start[1] = {0}, count[1] = {4};
  EXPECT_STATUS(zarr_read_region(a, 1, start, count, values.data(), 32), ZARR_ERR_NO_MEMORY,
                "reading region [4], with chunks of 1125899906842624 bytes");
#endif
}

TEST(Errors, WritesThroughReadOnlyHandles) {
  TempDir dir;
  create_array(dir / "a", array_meta("[4]", "[2]"));
  ArrayPtr r = open_array(dir / "a", "r");
  uint64_t start = 0, count = 2, shape = 8;
  int32_t data[2] = {1, 2};
  EXPECT_STATUS(zarr_write_region(r, 1, &start, &count, data, 8), ZARR_ERR_READ_ONLY, "read-only");
  EXPECT_STATUS(zarr_resize(r, 1, &shape), ZARR_ERR_READ_ONLY, "read-only");
  EXPECT_STATUS(zarr_append(r, 0, 1, &count, data, 8), ZARR_ERR_READ_ONLY, "read-only");
}

TEST(Errors, TruncatedAndCorruptChunksNameTheKey) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[100]", "[50]", "<i4", {{"compressor", "{\"id\": \"zlib\"}"}}));
  std::vector<int32_t> data(100, 7);
  ASSERT_OK(write_region(a, {0}, {100}, data));
  zarr::Bytes chunk = read_file(dir / "a/0");
  write_file(dir / "a/0", zarr::ByteView(chunk.data(), chunk.size() / 2));
  write_file(dir / "a/1", std::string("not zlib at all"));
  std::vector<int32_t> out(50);
  uint64_t start = 0, count = 50;
  EXPECT_STATUS(zarr_read_region(a, 1, &start, &count, out.data(), 200), ZARR_ERR_CODEC, "'0'");
  start = 50;
  EXPECT_STATUS(zarr_read_region(a, 1, &start, &count, out.data(), 200), ZARR_ERR_CODEC, "'1'");
  // An uncompressed chunk of the wrong size is corrupt too.
  ArrayPtr raw = create_array(dir / "raw", array_meta("[4]", "[4]"));
  write_file(dir / "raw/0", std::string("abc"));
  start = 0;
  count = 4;
  EXPECT_STATUS(zarr_read_region(raw, 1, &start, &count, out.data(), 16), ZARR_ERR_CODEC, "expected 16");
  // A partial write into a corrupt chunk fails and leaves the stored chunk as it was.
  count = 1;
  EXPECT_STATUS(zarr_write_region(raw, 1, &start, &count, out.data(), 4), ZARR_ERR_CODEC, "'0'");
  EXPECT_EQ(read_file(dir / "raw/0"), (zarr::Bytes{'a', 'b', 'c'}));
}

TEST(Errors, BadOptions) {
  TempDir dir;
  ArrayPtr a;
  std::string m = array_meta("[2]", "[2]");
  EXPECT_STATUS(zarr_create_ex(a.out(), (dir / "a").c_str(), m.c_str(), "{\"nope\": 1}"), ZARR_ERR_INVALID_ARGUMENT,
                "unknown option \"nope\"");
  EXPECT_STATUS(zarr_create_ex(a.out(), (dir / "a").c_str(), m.c_str(), "{\"write_empty_chunks\": 1}"),
                ZARR_ERR_INVALID_ARGUMENT, "write_empty_chunks");
  EXPECT_STATUS(zarr_open_ex(a.out(), (dir / "a").c_str(), "r", "[1]"), ZARR_ERR_INVALID_ARGUMENT, "options");
}

TEST(Errors, LastErrorIsPerThreadAndStatusNamesAreStable) {
  ArrayPtr a;
  EXPECT_NE(zarr_open(a.out(), "", "r"), ZARR_OK);
  std::string here = zarr_last_error();
  std::string there;
  std::thread([&] { there = zarr_last_error(); }).join();
  EXPECT_FALSE(here.empty());
  EXPECT_TRUE(there.empty());
  EXPECT_STREQ(zarr_status_name(ZARR_ERR_CODEC), "ZARR_ERR_CODEC");
  EXPECT_STREQ(zarr_status_name(42), "unknown status");
  EXPECT_EQ(ZARR_ERR_INVALID_ARGUMENT, -1);
  EXPECT_EQ(ZARR_ERR_INTERNAL, -12);
}

TEST(Errors, VersionIsReported) {
  EXPECT_STREQ(zarr_version_string(), ZARR_VERSION_STRING);
  EXPECT_EQ(zarr_version_number(), static_cast<unsigned>(ZARR_VERSION_NUMBER));
}
