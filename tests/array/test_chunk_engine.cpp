// The read/write engine on its own (array/engine/chunk_engine.h): an engine
// over a metadata object and a memory store, no array handle, no C API.
// Regions go in and come out through the chunks of the store, at the keys
// and with the fill value rules Zarr gives them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "array/engine/chunk_engine.h"
#include "base/strided_copy.h"
#include "metadata/v3_metadata.h"
#include "stores/memory_store.h"
#include "support/key_counting_store.h"

namespace zarr {
namespace {

// int32 [6, 6] in chunks of [4, 4], default keys ("c/0/0"), fill 7.
std::string int32_metadata(const std::string& fill = "7") {
  return R"({"zarr_format": 3, "node_type": "array", "shape": [6, 6], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 4]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": )" +
         fill + R"(, "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]})";
}

struct Engine {
  explicit Engine(const std::string& metadata, ArrayOptions options = {})
      : meta(parse_v3_array_metadata_for_create(metadata, "test metadata")),
        engine(meta, store, "a", options) {}

  void write(std::vector<uint64_t> start, std::vector<uint64_t> count, const std::vector<int32_t>& values) {
    engine.write_region(start, count, reinterpret_cast<const uint8_t*>(values.data()), c_order_strides(count, 4));
  }
  std::vector<int32_t> read(std::vector<uint64_t> start, std::vector<uint64_t> count) const {
    std::vector<int32_t> out(count[0] * count[1], -1);
    engine.read_region(start, count, reinterpret_cast<uint8_t*>(out.data()), c_order_strides(count, 4),
                       out.size() * 4);
    return out;
  }

  std::shared_ptr<Store> store = make_memory_store("engine");
  ArrayMetadata meta;
  ChunkEngine engine;
};

std::vector<int32_t> iota(size_t n, int32_t first = 0) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

TEST(ChunkEngine, ARegionAcrossChunksRoundTripsThroughTheChunkKeysUnderItsPath) {
  Engine e(int32_metadata());
  e.write({0, 0}, {6, 6}, iota(36));
  EXPECT_EQ(e.read({0, 0}, {6, 6}), iota(36));
  for (const char* key : {"a/c/0/0", "a/c/0/1", "a/c/1/0", "a/c/1/1"}) EXPECT_TRUE(e.store->exists(key)) << key;
  EXPECT_EQ(e.engine.chunk_key({1, 0}), "a/c/1/0");
  // A whole chunk of 4 x 4 little-endian int32: element [0, 1] of the array.
  const Bytes chunk = *e.store->get("a/c/0/0");
  ASSERT_EQ(chunk.size(), 64u);
  int32_t second;
  std::memcpy(&second, chunk.data() + 4, 4);
  EXPECT_EQ(second, 1);
}

TEST(ChunkEngine, AbsentChunksReadAsTheFillValue) {
  Engine e(int32_metadata());
  e.write({0, 0}, {1, 1}, {5});
  const std::vector<int32_t> got = e.read({0, 0}, {6, 6});
  EXPECT_EQ(got[0], 5);
  for (size_t i = 1; i < got.size(); ++i) EXPECT_EQ(got[i], 7) << i;
  EXPECT_FALSE(e.store->exists("a/c/1/1"));
}

TEST(ChunkEngine, APartialWriteKeepsTheChunksOtherElements) {
  Engine e(int32_metadata());
  e.write({0, 0}, {4, 4}, iota(16));
  e.write({1, 1}, {2, 2}, {-1, -2, -3, -4});
  std::vector<int32_t> want = iota(16);
  want[5] = -1, want[6] = -2, want[9] = -3, want[10] = -4;
  EXPECT_EQ(e.read({0, 0}, {4, 4}), want);
}

TEST(ChunkEngine, AChunkBackToTheFillValueIsErasedUnlessEmptyChunksAreWritten) {
  Engine e(int32_metadata());
  e.write({0, 0}, {2, 2}, {1, 2, 3, 4});
  ASSERT_TRUE(e.store->exists("a/c/0/0"));
  e.write({0, 0}, {2, 2}, {7, 7, 7, 7});
  EXPECT_FALSE(e.store->exists("a/c/0/0"));

  ArrayOptions keep;
  keep.write_empty_chunks = true;
  Engine k(int32_metadata(), keep);
  k.write({0, 0}, {2, 2}, {7, 7, 7, 7});
  EXPECT_TRUE(k.store->exists("a/c/0/0"));
}

TEST(ChunkEngine, ANanChunkWithANanFillValueIsEmpty) {
  Engine e(R"({"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "float32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": "NaN",
    "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]})");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> values(4, nan);
  e.engine.write_region({0}, {4}, reinterpret_cast<const uint8_t*>(values.data()), {4});
  EXPECT_FALSE(e.store->exists("a/c/0"));
  values[2] = 1.5f;
  e.engine.write_region({0}, {4}, reinterpret_cast<const uint8_t*>(values.data()), {4});
  EXPECT_TRUE(e.store->exists("a/c/0"));
}

TEST(ChunkEngine, ReadsIntoAStridedBuffer) {
  Engine e(int32_metadata());
  e.write({0, 0}, {6, 6}, iota(36));
  // Fortran order: element [i, j] at (i + 6 j) * 4.
  std::vector<int32_t> out(36);
  e.engine.read_region({0, 0}, {6, 6}, reinterpret_cast<uint8_t*>(out.data()), {4, 24}, 144);
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) EXPECT_EQ(out[i + 6 * j], 6 * i + j) << i << "," << j;
  }
}

TEST(ChunkEngine, TheCachePoolServesAChunkUntilForgotten) {
  ArrayOptions cached;
  cached.cache_bytes = 1 << 20;
  Engine e(int32_metadata(), cached);
  e.write({0, 0}, {4, 4}, iota(16));
  EXPECT_EQ(e.read({0, 0}, {1, 1}), std::vector<int32_t>{0});
  ASSERT_NE(e.engine.cache(), nullptr);
  EXPECT_EQ(e.engine.cache()->chunks_held(), 1u);
  // Another writer replaces the chunk behind the engine's back: the cache
  // still serves what it read, until told to forget.
  Engine other(int32_metadata());
  other.write({0, 0}, {4, 4}, iota(16, 100));
  e.store->set("a/c/0/0", *other.store->get("a/c/0/0"));
  EXPECT_EQ(e.read({0, 0}, {1, 1}), std::vector<int32_t>{0});
  e.engine.forget_all_cached();
  EXPECT_EQ(e.read({0, 0}, {1, 1}), std::vector<int32_t>{100});
}

TEST(ChunkEngine, ErasesTheChunksOutsideASmallerShape) {
  Engine e(int32_metadata());
  e.write({0, 0}, {6, 6}, iota(36));
  const std::vector<std::string> outside = e.engine.erasable_chunks_outside({4, 6});
  EXPECT_EQ(outside, (std::vector<std::string>{"a/c/1/0", "a/c/1/1"}));
  EXPECT_TRUE(e.store->exists("a/c/1/0"));  // listed and checked, not erased yet
  e.engine.erase_chunks(outside);
  EXPECT_TRUE(e.store->exists("a/c/0/0"));
  EXPECT_TRUE(e.store->exists("a/c/0/1"));
  EXPECT_FALSE(e.store->exists("a/c/1/0"));
  EXPECT_FALSE(e.store->exists("a/c/1/1"));
}

// An erase that failed half-way after a resize left the cache holding the
// chunks already erased: they read back as their old values instead of the
// fill value once the array grew again.
TEST(ChunkEngine, AFailedEraseStillForgetsTheCachedChunks) {
  auto store = std::make_shared<testing_support::KeyCountingStore>();
  const ArrayMetadata meta = parse_v3_array_metadata_for_create(int32_metadata(), "test metadata");
  ArrayOptions cached;
  cached.cache_bytes = 1 << 20;
  ChunkEngine engine(meta, store, "a", cached);
  const std::vector<int32_t> values = iota(36);
  engine.write_region({0, 0}, {6, 6}, reinterpret_cast<const uint8_t*>(values.data()), c_order_strides({6, 6}, 4));
  std::vector<int32_t> out(36);
  engine.read_region({0, 0}, {6, 6}, reinterpret_cast<uint8_t*>(out.data()), c_order_strides({6, 6}, 4), 36 * 4);
  ASSERT_EQ(engine.cache()->chunks_held(), 4u);
  const std::vector<std::string> outside = engine.erasable_chunks_outside({4, 6});
  ASSERT_EQ(outside, (std::vector<std::string>{"a/c/1/0", "a/c/1/1"}));
  store->refused_erase = "a/c/1/1";
  EXPECT_THROW(engine.erase_chunks(outside), Error);
  EXPECT_EQ(engine.cache()->chunks_held(), 0u);
  int32_t erased = 0;
  engine.read_region({4, 0}, {1, 1}, reinterpret_cast<uint8_t*>(&erased), c_order_strides({1, 1}, 4), 4);
  EXPECT_EQ(erased, 7);  // chunk c/1/0 went: the fill value
}

TEST(ChunkEngine, ShardsAreReadInPartAndWhole) {
  Engine e(R"({"zarr_format": 3, "node_type": "array", "shape": [8, 8], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8, 8]}}, "fill_value": 0,
    "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [4, 4]}}]})");
  e.write({0, 0}, {8, 8}, iota(64));
  EXPECT_TRUE(e.store->exists("a/c/0/0"));
  EXPECT_EQ(e.read({0, 0}, {8, 8}), iota(64));
  EXPECT_EQ(e.read({5, 6}, {1, 2}), (std::vector<int32_t>{46, 47}));
}

TEST(ChunkEngine, VariableLengthElementsRoundTripAndAbsentOnesAreTheFill) {
  Engine e(R"({"zarr_format": 3, "node_type": "array", "shape": [5], "data_type": "string",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": "-",
    "codecs": [{"name": "vlen-utf8", "configuration": {}}]})");
  ASSERT_TRUE(e.engine.variable_length());
  EXPECT_EQ(e.engine.item_size(), 0u);
  // Written as the step-1 selection of a box, as Array::write_region_vlen writes a region.
  const std::vector<std::string_view> items = {"a", "bc"};
  e.engine.write_selection_vlen(*step_selection(ChunkGrid({5}, {2}), sizeof(std::string_view), {1}, {2}, {1}, "test"),
                                items);
  std::vector<uint64_t> got_offsets(6);
  std::string got(16, '\0');
  size_t size = 0;
  // A region is read as the step-1 selection of its box.
  const std::unique_ptr<Selection> region =
      step_selection(ChunkGrid({5}, {2}), sizeof(std::string_view), {0}, {5}, {1}, "test");
  e.engine.read_selection_vlen(*region, got_offsets.data(), reinterpret_cast<uint8_t*>(got.data()), got.size(), &size,
                               "test");
  got.resize(size);
  EXPECT_EQ(got, "-abc--");
  EXPECT_EQ(got_offsets, (std::vector<uint64_t>{0, 1, 2, 4, 5, 6}));
  EXPECT_FALSE(e.store->exists("a/c/2"));
}

}  // namespace
}  // namespace zarr
