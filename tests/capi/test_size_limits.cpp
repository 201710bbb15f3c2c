// Bounded sizes (docs/stores.md, "Size limits"): a chunk file far larger
// than its metadata allows is refused by its size before it is read, and
// decoding never produces more than the metadata implies, for string arrays
// and for a compressor placed after sharding_indexed as for any chain, so a
// compressor bomb stops where it would start to cost memory.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

// A zstd frame that decodes to `decoded` bytes of `byte` from 4 bytes per
// 128 KiB: run-length blocks after a frame header stating no content size
// (window 128 KiB). 8 GiB from 256 KiB, as the audit's bomb.
zarr::Bytes zstd_bomb(uint64_t decoded, uint8_t byte = 'A') {
  zarr::Bytes out = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38};
  constexpr uint64_t kBlock = 128 * kKiB;
  for (uint64_t done = 0; done < decoded; done += kBlock) {
    const uint64_t n = std::min(kBlock, decoded - done);
    const uint32_t header = static_cast<uint32_t>(n << 3 | 1u << 1 | (done + n >= decoded ? 1u : 0u));
    for (int i = 0; i < 3; ++i) out.push_back(static_cast<uint8_t>(header >> (8 * i)));
    out.push_back(byte);
  }
  return out;
}

// The most memory this process has held, in KiB.
long peak_memory_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// A file of `size` bytes that takes no disk: a hole.
void make_sparse(const std::string& file, uint64_t size) {
  const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0) << file << ": " << std::strerror(errno);
  EXPECT_EQ(ftruncate(fd, static_cast<off_t>(size)), 0) << file << ": " << std::strerror(errno);
  close(fd);
}

const std::string kStrings = array_meta("[4]", "[4]", "|O",
                                        {{"filters", R"([{"id": "vlen-utf8"}])"},
                                         {"compressor", R"({"id": "zstd", "level": 1})"}});

uint64_t region_start = 0, region_count = 4;

// Reads the whole [4] string array; the status.
int read_strings_status(zarr_array* a) {
  uint64_t offsets[5];
  size_t needed = 0;
  return zarr_read_region_vlen(a, 1, &region_start, &region_count, offsets, 5, nullptr, 0, &needed);
}

}  // namespace

// A 6 GiB sparse chunk file (no disk, no time) in place of chunks of 16
// bytes: refused by its size, before a byte of it is read, whichever way the
// chunk is read (compressed: whole; uncompressed: in place; strings: whole).
TEST(SizeLimits, AHugeSparseChunkFileIsRefusedByItsSize) {
  TempDir dir;
  for (const std::string& compressor : std::vector<std::string>{"null", R"({"id": "zlib", "level": 1})"}) {
    SCOPED_TRACE(compressor);
    const std::string folder = dir / ("a" + std::to_string(compressor.size()));
    ArrayPtr a = create_array(folder, array_meta("[4]", "[4]", "<i4", {{"compressor", compressor}}));
    ASSERT_OK(write_region(a, {0}, {4}, std::vector<int32_t>{1, 2, 3, 4}));
    make_sparse(folder + "/0", 6 * kGiB);
    std::vector<int32_t> out(4);
    EXPECT_STATUS(zarr_read_region(a, 1, &region_start, &region_count, out.data(), 16), ZARR_ERR_IO,
                  "value '0' in " + folder + " is larger than its limit of");
    EXPECT_STATUS(zarr_read_region(a, 1, &region_start, &region_count, out.data(), 16), ZARR_ERR_IO,
                  "(it holds 6442450944 bytes)");
  }
  ArrayPtr s = create_array(dir / "s", kStrings);
  make_sparse(dir / "s/0", 6 * kGiB);
  EXPECT_EQ(read_strings_status(s), ZARR_ERR_IO);
  EXPECT_NE(std::string(zarr_last_error()).find("limit of 268435456 bytes"), std::string::npos) << zarr_last_error();
}

// The audit's bomb: 256 KiB of zstd that decode to 8 GiB, as the chunk of a
// string array. Decoding stops at the store's limit ("max_value_bytes"),
// and memory stays near it.
TEST(SizeLimits, AZstdBombInAStringArrayStopsAtMaxValueBytes) {
  TempDir dir;
  create_array(dir / "s", kStrings);
  write_file(dir / "s/0", zarr::ByteView(zstd_bomb(8 * kGiB)));
  ArrayPtr by_default = open_array(dir / "s");
  EXPECT_STATUS(read_strings_status(by_default), ZARR_ERR_CODEC, "decoded more than the 268435456 bytes allowed");
  ArrayPtr a;
  ASSERT_OK(zarr_open_ex(a.out(), (dir / "s").c_str(), "r", R"({"store": {"max_value_bytes": 1048576}})"));
  const long before = peak_memory_kib();
  EXPECT_EQ(read_strings_status(a), ZARR_ERR_CODEC);
  const std::string message = zarr_last_error();
  EXPECT_NE(message.find("chunk '0'"), std::string::npos) << message;
  EXPECT_NE(message.find("codec 'zstd': decoded more than the 1048576 bytes allowed"), std::string::npos) << message;
  EXPECT_LT(peak_memory_kib() - before, 256 * 1024) << "KiB more at the peak";
}

// The option raises the limit for string chunks that are larger than it.
TEST(SizeLimits, MaxValueBytesIsTheLimitOfStringChunks) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", kStrings);
  const std::string big(2 * kMiB, 'x');
  ASSERT_OK(write_strings(a, {0}, {4}, {big, "b", "c", "d"}));
  ArrayPtr small;
  ASSERT_OK(zarr_open_ex(small.out(), (dir / "s").c_str(), "r", R"({"store": {"max_value_bytes": 1048576}})"));
  EXPECT_STATUS(read_strings_status(small), ZARR_ERR_CODEC, "decoded more than the 1048576 bytes allowed");
  EXPECT_EQ(read_strings(open_array(dir / "s"), {0}, {4}), (std::vector<std::string>{big, "b", "c", "d"}));
}

// zstd after sharding_indexed: the shard can be at most its index and its
// eight 32-byte inner chunks, 388 bytes, and its zstd frame is held to that
// when decoded; a bomb too large to be such a frame is not even read.
TEST(SizeLimits, AZstdBombAfterShardingStopsAtTheShardsSize) {
  TempDir dir;
  const char* sharded = R"({"zarr_format": 3, "node_type": "array", "shape": [64], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [64]}}, "fill_value": 0,
    "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [8]}},
               {"name": "zstd", "configuration": {"level": 1}}]})";
  ArrayPtr a = create_array(dir / "z", sharded);
  std::vector<int32_t> values(64, 5);
  ASSERT_OK(write_region(a, {0}, {64}, values));
  EXPECT_EQ(read_all<int32_t>(open_array(dir / "z")), values);

  write_file(dir / "z/c/0", zarr::ByteView(zstd_bomb(1 * kGiB)));  // 32 KiB
  std::vector<int32_t> out(64);
  const uint64_t start = 0, count = 64;
  const long before = peak_memory_kib();
  EXPECT_STATUS(zarr_read_region(open_array(dir / "z"), 1, &start, &count, out.data(), 256), ZARR_ERR_CODEC,
                "codec 'zstd': decoded more than the 388 bytes allowed");
  EXPECT_LT(peak_memory_kib() - before, 256 * 1024) << "KiB more at the peak";

  write_file(dir / "z/c/0", zarr::ByteView(zstd_bomb(8 * kGiB)));  // 256 KiB
  EXPECT_STATUS(zarr_read_region(open_array(dir / "z"), 1, &start, &count, out.data(), 256), ZARR_ERR_IO,
                "value 'c/0'");
}

namespace {

// A v3 string array of 8 elements stored as one shard of 8 inner chunks of
// one element each (vlen-utf8 then zstd), index at the end.
const char* kShardedStrings = R"({"zarr_format": 3, "node_type": "array", "shape": [8], "data_type": "string",
  "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8]}}, "fill_value": "",
  "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [1],
    "codecs": [{"name": "vlen-utf8"}, {"name": "zstd", "configuration": {"level": 1}}],
    "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}], "index_location": "end"}}]})";

int read_sharded_status(zarr_array* a, uint64_t start, uint64_t count) {
  std::vector<uint64_t> offsets(count + 1);
  size_t needed = 0;
  return zarr_read_region_vlen(a, 1, &start, &count, offsets.data(), offsets.size(), nullptr, 0, &needed);
}

}  // namespace

// Each inner chunk of a string shard decodes within the limit, but all of
// them together would not: the shard as a whole is held to "max_value_bytes"
// (the old code bounded each inner chunk only: a shard of a few KiB could
// decode to gigabytes), and a read decodes only the inner chunks it needs,
// so reading one element ignores a garbled inner chunk elsewhere (the old
// code decoded them all: audit of issue 20, finding 6).
TEST(SizeLimits, AStringShardDecodesWithinMaxValueBytesAndOnlyWhatAReadNeeds) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", kShardedStrings);
  const std::vector<std::string> values(8, std::string(600 * kKiB, 'x'));
  ASSERT_OK(write_strings(a, {0}, {8}, values));
  EXPECT_EQ(read_strings(open_array(dir / "s"), {0}, {8}), values);  // the default limit holds them
  ArrayPtr small;
  ASSERT_OK(zarr_open_ex(small.out(), (dir / "s").c_str(), "r", R"({"store": {"max_value_bytes": 1048576}})"));
  // The inner chunk that would pass the shard's limit stops at what is left of it.
  EXPECT_STATUS(read_sharded_status(small, 0, 8), ZARR_ERR_CODEC, "inner chunk [1]");
  EXPECT_NE(std::string(zarr_last_error()).find("\"max_value_bytes\""), std::string::npos) << zarr_last_error();
  EXPECT_EQ(read_strings(small, {3}, {1}), std::vector<std::string>{values[3]});

  // Garble inner chunk 7 (its zstd frame's first byte; its index entry is
  // the last 16 bytes of the shard): reads of other elements never see it.
  zarr::Bytes shard = read_file(dir / "s/c/0");
  uint64_t offset = 0;
  std::memcpy(&offset, shard.data() + shard.size() - 16, 8);
  shard[offset] ^= 0xff;
  write_file(dir / "s/c/0", zarr::ByteView(shard));
  ArrayPtr garbled = open_array(dir / "s");
  EXPECT_EQ(read_strings(garbled, {0}, {2}), (std::vector<std::string>{values[0], values[1]}));
  EXPECT_STATUS(read_sharded_status(garbled, 6, 2), ZARR_ERR_CODEC, "inner chunk");
}

// A string shard of 2^20 elements holding one inner chunk: its packed form
// needs 4 bytes per element, more than a 1 MiB limit, so a read of an unwritten
// element is refused before the 2^20 fill values are made (the old code made
// them whatever the limit: 24 GiB for a shard of 2^30). The default limit reads it.
TEST(SizeLimits, AStringShardOfMoreElementsThanItsLimitHoldsIsRefusedBeforeItsFills) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", R"({"zarr_format": 3, "node_type": "array", "shape": [1048576], "data_type": "string",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1048576]}}, "fill_value": "",
    "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [1024],
      "codecs": [{"name": "vlen-utf8"}], "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
      "index_location": "end"}}]})");
  ASSERT_OK(write_strings(a, {0}, {1}, {"x"}));
  EXPECT_EQ(read_strings(open_array(dir / "s"), {2000}, {1}), std::vector<std::string>{""});
  ArrayPtr small;
  ASSERT_OK(zarr_open_ex(small.out(), (dir / "s").c_str(), "r", R"({"store": {"max_value_bytes": 1048576}})"));
  EXPECT_STATUS(read_sharded_status(small, 2000, 1), ZARR_ERR_CODEC,
                "a variable-length shard of 1048576 elements decodes to more than 1048576 bytes");
}

// A string chunk of 4 bytes that claims 2^32 - 1 elements: each element
// takes at least its 4-byte length, so the count is refused before anything
// is allocated for it (the old code reserved 64 GiB first: audit of issue
// 20, finding 10).
TEST(SizeLimits, AStringChunkCannotClaimMoreElementsThanItsBytesHold) {
  TempDir dir;
  create_array(dir / "v", array_meta("[4294967295]", "[4294967295]", "|O",
                                     {{"filters", R"([{"id": "vlen-utf8"}])"}, {"compressor", "null"}}));
  write_file(dir / "v/0", zarr::ByteView(std::string("\xff\xff\xff\xff")));
  const long before = peak_memory_kib();
  EXPECT_STATUS(read_sharded_status(open_array(dir / "v"), 0, 1), ZARR_ERR_CODEC,
                "a chunk of 4 bytes cannot hold 4294967295 elements");
  EXPECT_LT(peak_memory_kib() - before, 256 * 1024) << "KiB more at the peak";
}
