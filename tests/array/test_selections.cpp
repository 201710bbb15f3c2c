// Selections through the engine alone (array/engine/selection.h,
// ChunkEngine::read_selection / write_selection): orthogonal indices,
// strided hyperslabs and points give what region reads of each element
// give, each touched chunk is read (and written) once per call, and every
// index outside the shape is refused naming the axis and the index.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "array/engine/chunk_engine.h"
#include "base/error.h"
#include "base/strided_copy.h"
#include "metadata/v3_metadata.h"
#include "support/key_counting_store.h"

namespace zarr {
namespace {

using testing_support::KeyCountingStore;

// int32 [rows, cols] in chunks of [4, 4], fill 7, under "a".
std::string int32_metadata(uint64_t rows, uint64_t cols, const std::string& codecs = "") {
  return R"({"zarr_format": 3, "node_type": "array", "shape": [)" + std::to_string(rows) + ", " +
         std::to_string(cols) + R"(], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 4]}},
    "chunk_key_encoding": {"name": "default"}, "fill_value": 7, "codecs": [)" +
         (codecs.empty() ? R"({"name": "bytes", "configuration": {"endian": "little"}})" : codecs) + "]}";
}

struct Engine {
  explicit Engine(const std::string& metadata, ArrayOptions options = {})
      : meta(parse_v3_array_metadata_for_create(metadata, "test metadata")), engine(meta, store, "a", options) {}

  ChunkGrid grid() const { return ChunkGrid(meta.shape, meta.chunks); }
  void fill_with_iota() {
    std::vector<int32_t> all(meta.shape[0] * meta.shape[1]);
    std::iota(all.begin(), all.end(), 0);
    engine.write_region({0, 0}, meta.shape, reinterpret_cast<const uint8_t*>(all.data()),
                        c_order_strides(meta.shape, 4));
  }
  // The reference: one region read of a single element.
  int32_t at(uint64_t i, uint64_t j) const {
    int32_t v = -1;
    engine.read_region({i, j}, {1, 1}, reinterpret_cast<uint8_t*>(&v), {4, 4}, 4);
    return v;
  }
  std::vector<int32_t> read(const Selection& s) const {
    std::vector<int32_t> out(s.elements(), -1);
    engine.read_selection(s, reinterpret_cast<uint8_t*>(out.data()));
    return out;
  }
  void write(const Selection& s, const std::vector<int32_t>& values) {
    ASSERT_EQ(values.size(), s.elements());
    engine.write_selection(s, reinterpret_cast<const uint8_t*>(values.data()));
  }
  std::unique_ptr<Selection> orthogonal(const std::vector<uint64_t>& rows, const std::vector<uint64_t>& cols) const {
    return orthogonal_selection(grid(), 4, {rows.data(), cols.data()}, {rows.size(), cols.size()}, "test");
  }
  std::unique_ptr<Selection> points(const std::vector<uint64_t>& coords) const {
    return point_selection(grid(), 4, coords.size() / 2, coords.data(), "test");
  }
  std::unique_ptr<Selection> step(std::vector<uint64_t> start, std::vector<uint64_t> count,
                                  std::vector<uint64_t> step) const {
    return step_selection(grid(), 4, start, count, step, "test");
  }

  std::shared_ptr<KeyCountingStore> store = std::make_shared<KeyCountingStore>();
  ArrayMetadata meta;
  ChunkEngine engine;
};

TEST(Selections, OrthogonalIndicesInAnyOrderWithRepeatsReadAsRegionReadsOfEachElement) {
  Engine e(int32_metadata(10, 9));
  e.fill_with_iota();
  const std::vector<uint64_t> rows = {9, 0, 5, 5, 3, 4}, cols = {8, 1, 2, 7, 0, 0, 4};
  const std::vector<int32_t> got = e.read(*e.orthogonal(rows, cols));
  ASSERT_EQ(got.size(), rows.size() * cols.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < cols.size(); ++j) EXPECT_EQ(got[i * cols.size() + j], e.at(rows[i], cols[j])) << i << "," << j;
  }
}

TEST(Selections, AbsentChunksReadAsTheFillValue) {
  Engine e(int32_metadata(8, 8));
  EXPECT_EQ(e.read(*e.orthogonal({1, 6}, {2, 5})), std::vector<int32_t>(4, 7));
  EXPECT_EQ(e.read(*e.points({7, 7, 0, 0})), std::vector<int32_t>(2, 7));
}

TEST(Selections, AStridedHyperslabReadsAsRegionReadsOfEachElement) {
  Engine e(int32_metadata(10, 9));
  e.fill_with_iota();
  for (uint64_t step : {1, 2, 3, 5, 9}) {
    const uint64_t rows = (10 - 1) / step + 1, cols = (8 - 2) / step + 1;
    const std::vector<int32_t> got = e.read(*e.step({0, 2}, {rows, cols}, {step, step}));
    for (uint64_t i = 0; i < rows; ++i) {
      for (uint64_t j = 0; j < cols; ++j) {
        EXPECT_EQ(got[i * cols + j], e.at(i * step, 2 + j * step)) << "step " << step << " at " << i << "," << j;
      }
    }
  }
}

TEST(Selections, PointsInAnyOrderReadAsRegionReadsOfEachElement) {
  Engine e(int32_metadata(10, 9));
  e.fill_with_iota();
  std::mt19937 random(22);
  std::vector<uint64_t> coords;
  for (int p = 0; p < 200; ++p) coords.insert(coords.end(), {random() % 10, random() % 9});
  const std::vector<int32_t> got = e.read(*e.points(coords));
  for (size_t p = 0; p < 200; ++p) EXPECT_EQ(got[p], e.at(coords[2 * p], coords[2 * p + 1])) << p;
}

TEST(Selections, WritesChangeThePickedElementsOnlyAndTheLastValueOfARepeatWins) {
  Engine e(int32_metadata(10, 9));
  e.fill_with_iota();
  // Row 5 twice, column 0 twice: the later of each pair stays.
  e.write(*e.orthogonal({5, 1, 5}, {0, 6, 0}), {1, 2, 3, 4, 5, 6, 7, 8, 9});
  EXPECT_EQ(e.at(5, 0), 9);
  EXPECT_EQ(e.at(5, 6), 8);
  EXPECT_EQ(e.at(1, 0), 6);
  EXPECT_EQ(e.at(1, 6), 5);
  EXPECT_EQ(e.at(1, 1), 10) << "an element not picked";
  e.write(*e.points({2, 2, 9, 8, 2, 2}), {-1, -2, -3});
  EXPECT_EQ(e.at(2, 2), -3);
  EXPECT_EQ(e.at(9, 8), -2);
  e.write(*e.step({1, 1}, {3, 2}, {4, 5}), {10, 11, 12, 13, 14, 15});
  EXPECT_EQ(e.at(1, 1), 10);
  EXPECT_EQ(e.at(1, 6), 11);
  EXPECT_EQ(e.at(9, 6), 15);
  EXPECT_EQ(e.at(2, 1), 2 * 9 + 1) << "an element between the steps";
}

// More points than the grid has chunks (grouped by counting, not by a comparison sort),
// shuffled and repeated: each element keeps the value of its last point, as writing the
// points one at a time would leave it, and reads back point by point.
TEST(Selections, ManyShuffledPointsWithRepeatsKeepTheLastValueOfEach) {
  Engine e(int32_metadata(10, 9));
  e.fill_with_iota();
  std::vector<int32_t> expected(90);
  std::iota(expected.begin(), expected.end(), 0);
  std::mt19937 random(5);
  std::vector<uint64_t> coords;
  std::vector<int32_t> values;
  for (int32_t p = 0; p < 500; ++p) {
    const uint64_t i = random() % 10, j = random() % 9;
    coords.insert(coords.end(), {i, j});
    values.push_back(-p);
    expected[i * 9 + j] = -p;
  }
  e.write(*e.points(coords), values);
  for (uint64_t i = 0; i < 10; ++i) {
    for (uint64_t j = 0; j < 9; ++j) EXPECT_EQ(e.at(i, j), expected[i * 9 + j]) << i << "," << j;
  }
  const std::vector<int32_t> got = e.read(*e.points(coords));
  for (size_t p = 0; p < 500; ++p) EXPECT_EQ(got[p], expected[coords[2 * p] * 9 + coords[2 * p + 1]]) << p;
}

TEST(Selections, AWriteBackToTheFillValueErasesTheChunkAndAWholeChunkIsNotReadFirst) {
  Engine e(int32_metadata(8, 8));
  e.write(*e.points({1, 1}), {5});
  ASSERT_TRUE(e.store->exists("a/c/0/0"));
  e.write(*e.points({1, 1}), {7});
  EXPECT_FALSE(e.store->exists("a/c/0/0"));
  // Every element of chunk [1, 1] picked (in a shuffled order): not read.
  e.store->reset();
  e.write(*e.orthogonal({7, 4, 6, 5}, {5, 4, 7, 6}), std::vector<int32_t>(16, 1));
  EXPECT_EQ(e.store->reads().count("a/c/1/1"), 0u);
  EXPECT_EQ(e.read(*e.step({4, 4}, {4, 4}, {1, 1})), std::vector<int32_t>(16, 1));
}

// The picks of every chunk of a 16 x 16 array, interleaved so that each
// chunk comes up many times in selection order.
TEST(Selections, EachTouchedChunkIsReadOncePerCallAndWrittenOnce) {
  for (bool remote : {false, true}) {
    Engine e(int32_metadata(16, 16));
    e.store->concurrent = remote;
    e.fill_with_iota();
    const std::vector<uint64_t> spread = {15, 0, 9, 4, 14, 1, 8, 5, 13, 2, 10, 6, 12, 3, 11, 7};
    std::vector<uint64_t> coords;
    for (uint64_t i : spread) {
      for (uint64_t j : spread) coords.insert(coords.end(), {i, j});
    }
    const auto check_each_chunk_once = [&](const std::map<std::string, int>& counts, const char* what) {
      EXPECT_EQ(counts.size(), 16u) << what;
      for (const auto& [key, n] : counts) EXPECT_EQ(n, 1) << what << ": " << key << (remote ? " (remote)" : "");
    };
    e.store->reset();
    e.read(*e.orthogonal(spread, spread));
    check_each_chunk_once(e.store->reads(), "orthogonal read");
    e.store->reset();
    e.read(*e.points(coords));
    check_each_chunk_once(e.store->reads(), "point read");
    e.store->reset();
    e.read(*e.step({0, 1}, {8, 8}, {2, 2}));
    check_each_chunk_once(e.store->reads(), "strided read");
    e.store->reset();
    e.write(*e.points(coords), std::vector<int32_t>(256, 3));
    check_each_chunk_once(e.store->reads(), "point write, reads");
    check_each_chunk_once(e.store->writes(), "point write, sets");
    e.store->reset();
    e.write(*e.orthogonal({1, 14, 6, 9}, {3, 12, 4, 11}), std::vector<int32_t>(16, 4));
    check_each_chunk_once(e.store->reads(), "orthogonal write, reads");
    check_each_chunk_once(e.store->writes(), "orthogonal write, sets");
  }
}

TEST(Selections, TheCachePoolServesSelections) {
  ArrayOptions cached;
  cached.cache_bytes = 1 << 20;
  Engine e(int32_metadata(8, 8), cached);
  e.fill_with_iota();
  EXPECT_EQ(e.read(*e.points({5, 6})), std::vector<int32_t>{46});
  e.store->reset();
  EXPECT_EQ(e.read(*e.points({5, 6, 6, 5})), (std::vector<int32_t>{46, 53}));
  EXPECT_EQ(e.store->reads().count("a/c/1/1"), 0u) << "served from the cache";
}

// int32 [64, 64] in shards of [32, 32] holding inner chunks of [8, 8].
const char* kShardCodecs =
    R"({"name": "sharding_indexed", "configuration": {"chunk_shape": [8, 8]}})";

TEST(Selections, AShardIsReadForTheIndexAndTheInnerChunksItsPicksSpanOnly) {
  Engine e(R"({"zarr_format": 3, "node_type": "array", "shape": [64, 64], "data_type": "int32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [32, 32]}}, "fill_value": 0,
    "codecs": [)" + std::string(kShardCodecs) + "]}");
  std::vector<int32_t> all(64 * 64);
  std::iota(all.begin(), all.end(), 0);
  e.engine.write_region({0, 0}, {64, 64}, reinterpret_cast<const uint8_t*>(all.data()), c_order_strides({64, 64}, 4));
  e.store->reset();
  // Rows 1 and 3, columns 2 and 5 of shard [0, 0]: inner chunk [0, 0] only.
  const auto got = e.read(*orthogonal_selection(ChunkGrid({64, 64}, {32, 32}), 4,
                                                {std::vector<uint64_t>{3, 1}.data(), std::vector<uint64_t>{5, 2}.data()},
                                                {2, 2}, "test"));
  EXPECT_EQ(got, (std::vector<int32_t>{3 * 64 + 5, 3 * 64 + 2, 64 + 5, 64 + 2}));
  EXPECT_EQ(e.store->reads().at("a/c/0/0"), 2) << "the shard index and one inner chunk";
  EXPECT_EQ(e.store->reads().size(), 1u);
}

// The caller's coordinates and indices are copied before they are checked:
// changing them after the selection is built (a caller's thread racing the
// call) changes nothing it reads or writes.
TEST(Selections, TheCallersIndicesAreReadOnceBeforeTheyAreChecked) {
  Engine e(int32_metadata(10, 9));
  e.fill_with_iota();
  std::vector<uint64_t> coords = {1, 1, 2, 3};
  const std::unique_ptr<Selection> points = e.points(coords);
  coords = {9, 8, 9, 8};
  EXPECT_EQ(e.read(*points), (std::vector<int32_t>{e.at(1, 1), e.at(2, 3)}));
  std::vector<uint64_t> rows = {0, 5}, cols = {2};
  const std::unique_ptr<Selection> outer = e.orthogonal(rows, cols);
  rows = {9, 9};
  cols = {8};
  EXPECT_EQ(e.read(*outer), (std::vector<int32_t>{e.at(0, 2), e.at(5, 2)}));
}

// A [16, 16] array of strings in chunks of [4, 4].
const char* kStrings16 = R"({"zarr_format": 3, "node_type": "array", "shape": [16, 16], "data_type": "string",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 4]}}, "fill_value": "",
    "codecs": [{"name": "vlen-utf8"}]})";

// Writes "<i>,<j>" at every (i, j) of a kStrings16 array, as one step-1
// selection (a region); returns the elements' bytes back to back.
std::string write_numbered_strings(Engine& e) {
  std::string data;
  std::vector<std::string> items;
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) items.push_back(std::to_string(i) + "," + std::to_string(j));
  }
  std::vector<std::string_view> views;
  for (const std::string& item : items) {
    data += item;
    views.emplace_back(item);
  }
  e.engine.write_selection_vlen(*step_selection(e.grid(), sizeof(std::string_view), {0, 0}, {16, 16}, {1, 1}, "test"),
                                views);
  return data;
}

// Strings "<i>,<j>" in a [16, 16] array of chunks [4, 4]; a variable-length
// selection reads each chunk it touches once, and gives what region reads give.
TEST(Selections, AVlenSelectionReadsEachTouchedChunkOnce) {
  Engine e(kStrings16);
  const std::string data = write_numbered_strings(e);
  const auto read = [&](const Selection& s) {
    std::vector<uint64_t> got_offsets(s.elements() + 1);
    std::string got(data.size() * 2, '\0');
    size_t size = 0;
    e.engine.read_selection_vlen(s, got_offsets.data(), reinterpret_cast<uint8_t*>(got.data()), got.size(), &size,
                                 "test");
    std::vector<std::string> items;
    for (size_t k = 0; k < s.elements(); ++k) {
      items.push_back(got.substr(got_offsets[k], got_offsets[k + 1] - got_offsets[k]));
    }
    return items;
  };
  const std::vector<uint64_t> spread = {15, 0, 9, 4, 14, 1, 8, 5, 13, 2, 10, 6, 12, 3, 11, 7, 0};
  const std::unique_ptr<Selection> outer = orthogonal_selection(e.grid(), sizeof(std::string_view),
                                                                {spread.data(), spread.data()},
                                                                {spread.size(), spread.size()}, "test");
  e.store->reset();
  const std::vector<std::string> got = read(*outer);
  EXPECT_EQ(e.store->reads().size(), 16u);
  for (const auto& [key, n] : e.store->reads()) EXPECT_EQ(n, 1) << key;
  for (size_t i = 0; i < spread.size(); ++i) {
    for (size_t j = 0; j < spread.size(); ++j) {
      EXPECT_EQ(got[i * spread.size() + j], std::to_string(spread[i]) + "," + std::to_string(spread[j]));
    }
  }
  const std::vector<uint64_t> coords = {3, 3, 12, 0, 3, 2, 3, 3};
  e.store->reset();
  EXPECT_EQ(read(*point_selection(e.grid(), sizeof(std::string_view), 4, coords.data(), "test")),
            (std::vector<std::string>{"3,3", "12,0", "3,2", "3,3"}));
  EXPECT_EQ(e.store->reads(), (std::map<std::string, int>{{"a/c/0/0", 1}, {"a/c/3/0", 1}}));
}

// A variable-length selection write reads each chunk it touches once (none
// whose every element it picks), writes each once, and the last value of a
// repeated element wins.
TEST(Selections, AVlenSelectionWriteReadsAndWritesEachTouchedChunkOnce) {
  Engine e(kStrings16);
  write_numbered_strings(e);
  // Rows 0..3 (all of chunk row 0, in another order) and 9, 9; columns 5, 1, 6, 2, 7, 3, 4, 0.
  const std::vector<uint64_t> rows = {3, 1, 0, 2, 9, 9}, cols = {5, 1, 6, 2, 7, 3, 4, 0};
  std::vector<std::string> items;
  for (size_t k = 0; k < rows.size() * cols.size(); ++k) items.push_back("new" + std::to_string(k));
  const std::vector<std::string_view> views(items.begin(), items.end());
  const std::unique_ptr<Selection> outer = orthogonal_selection(e.grid(), sizeof(std::string_view),
                                                                {rows.data(), cols.data()},
                                                                {rows.size(), cols.size()}, "test");
  e.store->reset();
  e.engine.write_selection_vlen(*outer, views);
  // Chunks (0, 0) and (0, 1) are wholly picked: not read. (2, 0) and (2, 1): read once.
  EXPECT_EQ(e.store->reads(), (std::map<std::string, int>{{"a/c/2/0", 1}, {"a/c/2/1", 1}}));
  EXPECT_EQ(e.store->writes(),
            (std::map<std::string, int>{{"a/c/0/0", 1}, {"a/c/0/1", 1}, {"a/c/2/0", 1}, {"a/c/2/1", 1}}));
  const std::vector<uint64_t> all = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<uint64_t> got_offsets(101);
  std::string got(1000, '\0');
  size_t size = 0;
  e.engine.read_selection_vlen(*orthogonal_selection(e.grid(), sizeof(std::string_view), {all.data(), all.data()},
                                                     {10, 10}, "test"),
                               got_offsets.data(), reinterpret_cast<uint8_t*>(got.data()), got.size(), &size, "test");
  const auto at = [&](size_t i, size_t j) {
    return got.substr(got_offsets[i * 10 + j], got_offsets[i * 10 + j + 1] - got_offsets[i * 10 + j]);
  };
  for (size_t r = 0; r < rows.size(); ++r) {
    // Row 9 is given twice: its second entry (r = 5) wins.
    if (r == 4) continue;
    for (size_t c = 0; c < cols.size(); ++c) EXPECT_EQ(at(rows[r], cols[c]), items[r * cols.size() + c]);
  }
  EXPECT_EQ(at(8, 0), "8,0") << "not picked";
  EXPECT_EQ(at(9, 8), "9,8") << "not picked";
}

TEST(Selections, IndicesOutsideTheShapeAreRefusedNamingTheAxisAndTheIndex) {
  Engine e(int32_metadata(10, 9));
  const auto refused = [](auto&& build, const std::string& fragment, int code = ZARR_ERR_OUT_OF_BOUNDS) {
    try {
      build();
      ADD_FAILURE() << "not refused: " << fragment;
    } catch (const Error& err) {
      EXPECT_EQ(err.code(), code) << err.what();
      EXPECT_NE(std::string(err.what()).find(fragment), std::string::npos) << err.what();
    }
  };
  refused([&] { e.orthogonal({0, 10}, {0}); }, "entry 1 of the indices on axis 0 is index 10");
  refused([&] { e.orthogonal({0}, {3, 9}); }, "on axis 1 is index 9, outside the array's extent 9");
  refused([&] { e.points({0, 0, 9, 9}); }, "point 1 on axis 1 is index 9");
  refused([&] { e.step({1, 0}, {5, 1}, {3, 1}); }, "the last element on axis 0 is index 13");
  refused([&] { e.step({11, 0}, {0, 1}, {1, 1}); }, "the start on axis 0 is index 11");
  refused([&] { e.step({0, 0}, {2, 1}, {0, 1}); }, "step on axis 0 is 0", ZARR_ERR_INVALID_ARGUMENT);
  // start + (count - 1) x step past 2^64 - 1: refused, not wrapped to a small index.
  refused([&] { e.step({1, 0}, {3, 1}, {UINT64_MAX / 2 + 1, 1}); }, "passes 2^64 - 1");
  const std::vector<uint64_t> one = {1};
  refused([&] { point_selection(e.grid(), 4, UINT64_MAX / 2 + 1, one.data(), "test"); },
          "are more than 2^64 - 1 coordinates", ZARR_ERR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace zarr
