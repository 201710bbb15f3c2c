// What a sharded array asks of its store: partial reads fetch the index and
// only the inner chunks they need, whole-shard writes are one store write per
// shard, partial updates read, merge and rewrite the shard, and shards that
// return to the fill value are erased. A counting store records every call.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <numeric>

#include "array/array.h"
#include "base/error.h"
#include "stores/memory_store.h"

namespace zarr {
namespace {

// Forwards to a memory store and counts what was asked of it.
class CountingStore final : public Store {
 public:
  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    ++gets;
    auto v = inner_->get(key, max_size);
    if (v) bytes_read += v->size();
    return v;
  }
  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    ++range_gets;
    const uint64_t asked = range.suffix ? *range.suffix : range.length.value_or(UINT64_MAX);
    if (asked > longest_range) longest_range = asked;
    auto v = inner_->get_range(key, range);
    if (v) bytes_read += v->size();
    return v;
  }
  bool exists(const std::string& key) const override { return inner_->exists(key); }
  void set(const std::string& key, ByteView value) override {
    ++sets;
    inner_->set(key, value);
  }
  void erase(const std::string& key) override {
    ++erases;
    inner_->erase(key);
  }
  void erase_prefix(const std::string& prefix) override { inner_->erase_prefix(prefix); }
  std::vector<std::string> list_prefix(const std::string& prefix) const override {
    return inner_->list_prefix(prefix);
  }
  DirListing list_dir(const std::string& prefix) const override { return inner_->list_dir(prefix); }
  std::string describe() const override { return "counting"; }

  void reset() { gets = range_gets = sets = erases = bytes_read = longest_range = 0; }
  Bytes value(const std::string& key) const { return *inner_->get(key); }
  void put(const std::string& key, const Bytes& value) { inner_->set(key, ByteView(value)); }
  bool has(const std::string& key) const { return inner_->exists(key); }

  mutable std::atomic<int> gets{0}, range_gets{0}, sets{0}, erases{0};
  mutable std::atomic<uint64_t> bytes_read{0};
  mutable std::atomic<uint64_t> longest_range{0};  // the most bytes one range read asked for

 private:
  std::shared_ptr<Store> inner_ = make_memory_store("counted");
};

// int32 [64, 64] in shards of [32, 32] holding inner chunks of [8, 8]
// (16 per shard), uncompressed, index (16 x 16 bytes + crc32c) at the end.
constexpr uint64_t kInnerBytes = 8 * 8 * 4;
constexpr uint64_t kIndexBytes = 16 * 16 + 4;
const char* kSharded = R"({"zarr_format": 3, "node_type": "array", "shape": [64, 64], "data_type": "int32",
  "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [32, 32]}}, "fill_value": 0,
  "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [8, 8]}}]})";

struct ShardedArray : ::testing::Test {
  std::shared_ptr<CountingStore> store = std::make_shared<CountingStore>();
  std::unique_ptr<Array> array = Array::create(store, "", kSharded, ArrayOptions{});

  void write(std::vector<uint64_t> start, std::vector<uint64_t> count, const std::vector<int32_t>& v) {
    array->write_region(start, count, v.data(), v.size() * 4, nullptr);
  }
  std::vector<int32_t> read(std::vector<uint64_t> start, std::vector<uint64_t> count) {
    std::vector<int32_t> out(count[0] * count[1]);
    array->read_region(start, count, out.data(), out.size() * 4, nullptr);
    return out;
  }
};

std::vector<int32_t> iota(size_t n, int32_t first) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

TEST_F(ShardedArray, WholeShardWritesAreOneStoreWriteEach) {
  store->reset();
  write({0, 0}, {64, 64}, iota(64 * 64, 1));
  EXPECT_EQ(store->sets, 4);  // four shards, nothing read first
  EXPECT_EQ(store->gets + store->range_gets, 0);
  EXPECT_EQ(store->value("c/1/1").size(), 16 * kInnerBytes + kIndexBytes);
}

TEST_F(ShardedArray, SmallReadFetchesTheIndexAndOneInnerChunk) {
  const auto all = iota(64 * 64, 1);
  write({0, 0}, {64, 64}, all);
  store->reset();
  EXPECT_EQ(read({40, 45}, {2, 3}), (std::vector<int32_t>{all[40 * 64 + 45], all[40 * 64 + 46], all[40 * 64 + 47],
                                                         all[41 * 64 + 45], all[41 * 64 + 46], all[41 * 64 + 47]}));
  EXPECT_EQ(store->gets, 0);
  EXPECT_EQ(store->range_gets, 2);
  EXPECT_EQ(store->bytes_read, kIndexBytes + kInnerBytes);
}

TEST_F(ShardedArray, ReadOfAnAbsentShardAsksForTheIndexOnly) {
  store->reset();
  EXPECT_EQ(read({0, 0}, {4, 4}), std::vector<int32_t>(16, 0));
  EXPECT_EQ(store->range_gets, 1);
  EXPECT_EQ(store->bytes_read, 0u);
}

TEST_F(ShardedArray, PartialUpdateReadsMergesAndRewritesTheShard) {
  const auto all = iota(64 * 64, 1);
  write({0, 0}, {64, 64}, all);
  store->reset();
  write({3, 3}, {2, 2}, {-1, -2, -3, -4});
  EXPECT_EQ(store->sets, 1);
  EXPECT_EQ(store->gets, 1);  // the shard, read whole to merge into
  auto got = read({0, 0}, {32, 32});
  for (uint64_t r = 0; r < 32; ++r) {
    for (uint64_t c = 0; c < 32; ++c) {
      int32_t want = all[r * 64 + c];
      if (r >= 3 && r < 5 && c >= 3 && c < 5) want = -static_cast<int32_t>((r - 3) * 2 + (c - 3) + 1);
      ASSERT_EQ(got[r * 32 + c], want) << r << "," << c;
    }
  }
}

TEST_F(ShardedArray, FillInnerChunksAreLeftOutAndEmptyShardsErased) {
  std::vector<int32_t> one_chunk(32 * 32, 0);
  for (int r = 8; r < 16; ++r) {
    for (int c = 0; c < 8; ++c) one_chunk[r * 32 + c] = 7;
  }
  write({0, 0}, {32, 32}, one_chunk);
  EXPECT_EQ(store->value("c/0/0").size(), kInnerBytes + kIndexBytes);
  store->reset();
  write({8, 0}, {8, 8}, std::vector<int32_t>(64, 0));
  EXPECT_EQ(store->erases, 1);
  EXPECT_FALSE(store->has("c/0/0"));
}

// An index entry claiming more bytes than an inner chunk can take (256
// here) is a codec error naming the inner chunk, found before its bytes are
// asked for: a hostile index cannot make a store read gigabytes.
TEST(ShardIndex, EntriesLargerThanAnInnerChunkAreRefusedBeforeTheyAreFetched) {
  auto store = std::make_shared<CountingStore>();
  const std::string without_crc = R"({"zarr_format": 3, "node_type": "array", "shape": [64, 64], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [32, 32]}}, "fill_value": 0,
    "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [8, 8],
      "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}}]})";
  std::unique_ptr<Array> array = Array::create(store, "", without_crc, ArrayOptions{});
  const std::vector<int32_t> all = iota(64 * 64, 1);
  array->write_region({0, 0}, {64, 64}, all.data(), all.size() * 4, nullptr);
  Bytes shard = store->value("c/0/0");
  constexpr size_t kIndex = 16 * 16;
  const uint64_t huge = uint64_t{1} << 40;
  std::memcpy(shard.data() + shard.size() - kIndex + 16 * 1 + 8, &huge, 8);  // inner chunk [0, 1]: nbytes
  store->put("c/0/0", shard);
  store->reset();
  std::vector<int32_t> out(4);
  try {
    array->read_region({0, 8}, {2, 2}, out.data(), out.size() * 4, nullptr);
    FAIL() << "read the inner chunk of a hostile index";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_CODEC);
    EXPECT_NE(std::string(e.what()).find("inner chunk [0, 1]: index entry claims 1099511627776 bytes, more than the "
                                         "256 an inner chunk can take"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(store->longest_range, kIndex) << "only the index was asked for";
}

// A rectilinear grid's shards differ in shape: int32 [48, 32] in shards of
// rows [32, 16] and columns [16, 16], inner chunks [8, 8]. The smaller shards
// take the same paths as the regular grid's: a small read or selection
// fetches the shard's index and only the inner chunks it needs.
const char* kRectilinearSharded = R"({"zarr_format": 3, "node_type": "array", "shape": [48, 32],
  "data_type": "int32", "fill_value": 0,
  "chunk_grid": {"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": [[32, 16], 16]}},
  "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [8, 8]}}]})";

TEST(RectilinearShards, SmallReadsOfASmallerShardFetchTheIndexAndOneInnerChunk) {
  auto store = std::make_shared<CountingStore>();
  std::unique_ptr<Array> array = Array::create(store, "", kRectilinearSharded, ArrayOptions{});
  const auto all = iota(48 * 32, 1);
  array->write_region({0, 0}, {48, 32}, all.data(), all.size() * 4, nullptr);
  EXPECT_EQ(store->value("c/1/1").size(), 4 * kInnerBytes + 4 * 16 + 4);  // [16, 16]: 4 inner chunks
  EXPECT_EQ(store->value("c/0/0").size(), 8 * kInnerBytes + 8 * 16 + 4);  // [32, 16]: 8
  store->reset();
  std::vector<int32_t> out(6);
  array->read_region({40, 21}, {2, 3}, out.data(), out.size() * 4, nullptr);
  EXPECT_EQ(out, (std::vector<int32_t>{all[40 * 32 + 21], all[40 * 32 + 22], all[40 * 32 + 23], all[41 * 32 + 21],
                                       all[41 * 32 + 22], all[41 * 32 + 23]}));
  EXPECT_EQ(store->gets, 0);
  EXPECT_EQ(store->range_gets, 2);
  EXPECT_EQ(store->bytes_read, 4 * 16 + 4 + kInnerBytes);
  // An orthogonal selection of two elements of one inner chunk of shard (1, 0).
  store->reset();
  const uint64_t rows[] = {33, 38}, cols[] = {2};
  SelectionRequest request;
  request.indices = {rows, cols};
  request.counts = {2, 1};
  std::vector<int32_t> picked(2);
  array->read_selection(request, picked.data(), picked.size() * 4);
  EXPECT_EQ(picked, (std::vector<int32_t>{all[33 * 32 + 2], all[38 * 32 + 2]}));
  EXPECT_EQ(store->gets, 0);
  EXPECT_EQ(store->bytes_read, 4 * 16 + 4 + kInnerBytes);
}

}  // namespace
}  // namespace zarr
