#include <gtest/gtest.h>

#include "base/error.h"
#include "grid/chunk_grid.h"

using namespace zarr;

namespace {
std::vector<ChunkOverlap> overlaps(const ChunkGrid& g, std::vector<uint64_t> start, std::vector<uint64_t> count) {
  std::vector<ChunkOverlap> out;
  g.for_each_overlap(start, count, [&](const ChunkOverlap& o) { out.push_back(o); });
  return out;
}
}  // namespace

TEST(ChunkGrid, GridShapeRoundsUp) {
  ChunkGrid g({10, 7}, {3, 7});
  EXPECT_EQ(g.grid_shape(), (std::vector<uint64_t>{4, 1}));
  EXPECT_EQ(g.chunk_elements(), 21u);
}

TEST(ChunkGrid, RegionInsideOneChunk) {
  ChunkGrid g({10, 10}, {5, 5});
  auto ov = overlaps(g, {6, 1}, {2, 3});
  ASSERT_EQ(ov.size(), 1u);
  EXPECT_EQ(ov[0].chunk_coords, (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(ov[0].chunk_offset, (std::vector<uint64_t>{1, 1}));
  EXPECT_EQ(ov[0].region_offset, (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(ov[0].count, (std::vector<uint64_t>{2, 3}));
  EXPECT_FALSE(ov[0].covers_chunk);
}

TEST(ChunkGrid, RegionAcrossChunksInCOrder) {
  ChunkGrid g({10, 10}, {4, 4});
  auto ov = overlaps(g, {3, 3}, {2, 6});
  ASSERT_EQ(ov.size(), 6u);  // rows in chunks 0,1; columns in chunks 0,1,2
  EXPECT_EQ(ov[0].chunk_coords, (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(ov[1].chunk_coords, (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(ov[2].chunk_coords, (std::vector<uint64_t>{0, 2}));
  EXPECT_EQ(ov[3].chunk_coords, (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(ov[4].count, (std::vector<uint64_t>{1, 4}));
  EXPECT_EQ(ov[4].region_offset, (std::vector<uint64_t>{1, 1}));
  uint64_t total = 0;
  for (auto& o : ov) total += o.count[0] * o.count[1];
  EXPECT_EQ(total, 12u);
}

TEST(ChunkGrid, EdgeChunkCoveredByInBoundsPart) {
  ChunkGrid g({10}, {4});
  auto ov = overlaps(g, {8}, {2});
  ASSERT_EQ(ov.size(), 1u);
  EXPECT_TRUE(ov[0].covers_chunk);
  EXPECT_EQ(ov[0].chunk_coords[0], 2u);
}

TEST(ChunkGrid, EmptyRegionVisitsNothing) {
  ChunkGrid g({10, 10}, {4, 4});
  EXPECT_TRUE(overlaps(g, {0, 0}, {0, 5}).empty());
}

TEST(ChunkGrid, ZeroDimensionalHasOneChunk) {
  ChunkGrid g({}, {});
  auto ov = overlaps(g, {}, {});
  ASSERT_EQ(ov.size(), 1u);
  EXPECT_TRUE(ov[0].covers_chunk);
}

TEST(ChunkGrid, RejectsZeroChunkAndRankMismatch) {
  try {
    ChunkGrid g({10}, {0});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_INVALID_METADATA);
    EXPECT_NE(std::string(e.what()).find("chunks[0]"), std::string::npos);
  }
  EXPECT_THROW(ChunkGrid({10, 10}, {5}), Error);
}

TEST(ChunkGrid, ContainsChunk) {
  ChunkGrid g({10, 10}, {4, 4});
  EXPECT_TRUE(g.contains_chunk({2, 2}));
  EXPECT_FALSE(g.contains_chunk({3, 0}));
  EXPECT_FALSE(g.contains_chunk({0}));
}

namespace {
const ChunkKeyEncoding kV2Dot{ChunkKeyEncoding::Kind::V2, '.'};
const ChunkKeyEncoding kV2Slash{ChunkKeyEncoding::Kind::V2, '/'};
const ChunkKeyEncoding kDefaultSlash{ChunkKeyEncoding::Kind::Default, '/'};
const ChunkKeyEncoding kDefaultDot{ChunkKeyEncoding::Kind::Default, '.'};
}  // namespace

TEST(ChunkKeys, V2KeysBothSeparators) {
  EXPECT_EQ(chunk_key({1, 2, 0}, kV2Dot), "1.2.0");
  EXPECT_EQ(chunk_key({1, 2, 0}, kV2Slash), "1/2/0");
  EXPECT_EQ(chunk_key({}, kV2Dot), "0");
}

TEST(ChunkKeys, DefaultKeysBothSeparators) {
  EXPECT_EQ(chunk_key({1, 2, 0}, kDefaultSlash), "c/1/2/0");
  EXPECT_EQ(chunk_key({1, 2, 0}, kDefaultDot), "c.1.2.0");
  EXPECT_EQ(chunk_key({}, kDefaultSlash), "c");
}

TEST(ChunkKeys, ParseKeysRoundTrip) {
  std::vector<uint64_t> c;
  EXPECT_TRUE(parse_chunk_key("3.14", kV2Dot, 2, c));
  EXPECT_EQ(c, (std::vector<uint64_t>{3, 14}));
  EXPECT_TRUE(parse_chunk_key("3/14", kV2Slash, 2, c));
  EXPECT_FALSE(parse_chunk_key("3/14", kV2Dot, 2, c));
  EXPECT_FALSE(parse_chunk_key(".zarray", kV2Dot, 1, c));
  EXPECT_FALSE(parse_chunk_key("1.2.3", kV2Dot, 2, c));
  EXPECT_FALSE(parse_chunk_key("1.", kV2Dot, 1, c));
  EXPECT_TRUE(parse_chunk_key("0", kV2Dot, 0, c));
  EXPECT_TRUE(parse_chunk_key("c/3/14", kDefaultSlash, 2, c));
  EXPECT_EQ(c, (std::vector<uint64_t>{3, 14}));
  EXPECT_TRUE(parse_chunk_key("c.7", kDefaultDot, 1, c));
  EXPECT_FALSE(parse_chunk_key("3/14", kDefaultSlash, 2, c));
  EXPECT_FALSE(parse_chunk_key("zarr.json", kDefaultSlash, 1, c));
  EXPECT_FALSE(parse_chunk_key("c/", kDefaultSlash, 1, c));
  EXPECT_TRUE(parse_chunk_key("c", kDefaultSlash, 0, c));
}

TEST(CheckedProduct, DetectsOverflow) {
  EXPECT_EQ(checked_product({2, 3, 4}, "shape", ZARR_ERR_INVALID_METADATA), 24u);
  EXPECT_EQ(checked_product({}, "shape", ZARR_ERR_INVALID_METADATA), 1u);
  EXPECT_EQ(checked_product({0, UINT64_MAX}, "shape", ZARR_ERR_INVALID_METADATA), 0u);
  for (int code : {ZARR_ERR_INVALID_METADATA, ZARR_ERR_INVALID_ARGUMENT}) {
    try {
      checked_product({1ull << 33, 1ull << 33}, "shape", code);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), code);
      EXPECT_NE(std::string(e.what()).find("shape: element count overflows 64 bits"), std::string::npos);
    }
  }
}

// --- Axes of up to 2^64 - 1 elements: the last chunk nominally ends past 2^64. ---

constexpr uint64_t kMax = UINT64_MAX;

// (shape + chunks - 1) / chunks wrapped: the grid had 0 chunks along such an
// axis, so a resize erased every chunk as "outside" it.
TEST(ChunkGrid, GridShapeOfTheLargestAxes) {
  ChunkGrid g({kMax, kMax - 4, 0}, {10, 5, 3});
  EXPECT_EQ(g.grid_shape(), (std::vector<uint64_t>{1844674407370955162u, kMax / 5, 0}));
  EXPECT_EQ(g.chunk_count(), 0u);
  ChunkGrid one({kMax}, {10});
  EXPECT_EQ(one.chunk_count(), 1844674407370955162u);
  EXPECT_TRUE(one.contains_chunk({1844674407370955161u}));
  EXPECT_FALSE(one.contains_chunk({1844674407370955162u}));
}

// The overlap of the last element with its chunk: one element at offset 4.
// Its in-bounds count was min(begin + 10 (wrapped to 4), start + 1) - start
// = 6 elements, written past a 1-element buffer.
TEST(ChunkGrid, TheLastChunkOfTheLargestAxisEndsAtTheShape) {
  ChunkGrid g({kMax}, {10});
  auto ov = overlaps(g, {kMax - 1}, {1});
  ASSERT_EQ(ov.size(), 1u);
  EXPECT_EQ(ov[0].chunk_coords[0], 1844674407370955161u);
  EXPECT_EQ(ov[0].chunk_offset[0], 4u);
  EXPECT_EQ(ov[0].region_offset[0], 0u);
  EXPECT_EQ(ov[0].count[0], 1u);
  EXPECT_FALSE(ov[0].covers_chunk);
  ov = overlaps(g, {kMax - 5}, {5});  // the whole in-bounds part of the last chunk
  ASSERT_EQ(ov.size(), 1u);
  EXPECT_EQ(ov[0].count[0], 5u);
  EXPECT_TRUE(ov[0].covers_chunk);
  ov = overlaps(g, {kMax - 7}, {7});
  ASSERT_EQ(ov.size(), 2u);
  EXPECT_EQ(ov[0].count[0], 2u);
  EXPECT_EQ(ov[1].count[0], 5u);
  EXPECT_EQ(ov[1].region_offset[0], 2u);
}

TEST(ChunkGrid, RegionsOutsideTheShapeAreOutOfBounds) {
  ChunkGrid g({kMax, 4}, {10, 4});
  for (const auto& [start, count] : std::vector<std::pair<std::vector<uint64_t>, std::vector<uint64_t>>>{
           {{kMax, 0}, {1, 1}}, {{kMax - 1, 0}, {2, 1}}, {{1, 0}, {kMax, 1}}, {{0, 5}, {1, 0}}}) {
    try {
      overlaps(g, start, count);
      FAIL() << "start " << start[0] << " count " << count[0];
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ZARR_ERR_OUT_OF_BOUNDS);
    }
  }
}

// The overlaps of a region tile it exactly, whatever the shape: each lies in
// its chunk's in-bounds part and in the region, and their counts add up to
// the region's elements. Fixed cases near 2^64, 2^63 and chunk multiples.
TEST(ChunkGrid, OverlapsTileRegionsNearTheEndOfEveryAxis) {
  for (uint64_t extent : {kMax, kMax - 1, uint64_t{1} << 63, (uint64_t{1} << 63) + 1, kMax / 7 * 7, uint64_t{23}}) {
    for (uint64_t chunk : {uint64_t{1}, uint64_t{3}, uint64_t{7}, uint64_t{10}, uint64_t{16}}) {
      for (uint64_t back = 1; back <= 2 * chunk + 1 && back <= extent; ++back) {
        SCOPED_TRACE("extent " + std::to_string(extent) + " chunk " + std::to_string(chunk) + " back " +
                     std::to_string(back));
        ChunkGrid g({extent, 3}, {chunk, 2});
        const std::vector<uint64_t> start = {extent - back, 1}, count = {back, 2};
        uint64_t covered = 0;
        for (const ChunkOverlap& ov : overlaps(g, start, count)) {
          const uint64_t chunk_begin = ov.chunk_coords[0] * chunk;
          const uint64_t in_bounds = std::min(chunk, extent - chunk_begin);
          EXPECT_LE(ov.chunk_offset[0] + ov.count[0], in_bounds);
          EXPECT_LE(ov.region_offset[0] + ov.count[0], count[0]);
          EXPECT_EQ(chunk_begin + ov.chunk_offset[0], start[0] + ov.region_offset[0]);
          // Along the second axis only chunk 1 (element 2 of 3) is covered.
          EXPECT_EQ(ov.covers_chunk, ov.chunk_offset[0] == 0 && ov.count[0] == in_bounds && ov.chunk_coords[1] == 1);
          covered += ov.count[0] * ov.count[1];
        }
        EXPECT_EQ(covered, back * 2);
      }
    }
  }
}

// Rectilinear axes (grid/axis_edges.h): runs are searched, never expanded.
TEST(AxisEdges, RunsAndEdgesLocateEveryPosition) {
  const AxisEdges axis = AxisEdges::from_runs({{1, 3}, {3, 1}, {2, 2}}, "chunk_shapes[0]");
  EXPECT_EQ(axis.covered(), std::optional<uint64_t>(10));
  EXPECT_EQ(axis.max_size(), 3u);
  const std::vector<uint64_t> chunk_of = {0, 1, 2, 3, 3, 3, 4, 4, 5, 5};
  for (uint64_t pos = 0; pos < 10; ++pos) EXPECT_EQ(axis.chunk_of(pos), chunk_of[pos]) << pos;
  EXPECT_EQ(axis.start_of(4), 6u);
  EXPECT_EQ(axis.size_of(3), 3u);
  EXPECT_EQ(axis.chunks_covering(7), 5u);
  EXPECT_EQ(axis.chunks_covering(0), 0u);
}

TEST(AxisEdges, ChunkCountsPastTwoToTheSixtyFourAreRefused) {
  EXPECT_NO_THROW(AxisEdges::from_runs({{1, kMax}}, "f"));
  try {
    AxisEdges::from_runs({{1, kMax}, {1, 1}}, "chunk_shapes[2]");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ZARR_ERR_INVALID_METADATA);
    EXPECT_NE(std::string(e.what()).find("chunk_shapes[2]: more than 2^64 - 1 chunks"), std::string::npos) << e.what();
  }
  EXPECT_THROW(AxisEdges::from_runs({{0, 1}}, "f"), Error);
  EXPECT_THROW(AxisEdges::from_runs({{1, 0}}, "f"), Error);
  EXPECT_THROW(AxisEdges::from_runs({}, "f"), Error);
  // Positions past 2^64 - 1: the edges reach everything an axis can hold.
  const AxisEdges wide = AxisEdges::from_runs({{kMax / 2, 3}}, "f");
  EXPECT_EQ(wide.covered(), std::nullopt);
  EXPECT_EQ(wide.chunk_of(kMax - 1), 2u);
  EXPECT_EQ(wide.start_of(2), kMax / 2 * 2);
}

TEST(ChunkGrid, RectilinearOverlapsCarryEachChunksShape) {
  const ChunkGrid g = ChunkGrid::with_axes({7, 4}, {AxisEdges::from_runs({{2, 1}, {5, 1}}, "a"), AxisEdges::regular(3)});
  EXPECT_FALSE(g.is_regular());
  EXPECT_EQ(g.grid_shape(), (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(g.chunks(), (std::vector<uint64_t>{5, 3}));
  auto ov = overlaps(g, {1, 2}, {5, 2});
  ASSERT_EQ(ov.size(), 4u);
  EXPECT_EQ(ov[3].chunk_coords, (std::vector<uint64_t>{1, 1}));
  EXPECT_EQ(ov[3].chunk_shape, (std::vector<uint64_t>{5, 3}));
  EXPECT_EQ(ov[3].count, (std::vector<uint64_t>{4, 1}));
  EXPECT_EQ(ov[0].chunk_shape, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(ov[0].chunk_offset, (std::vector<uint64_t>{1, 2}));
  EXPECT_THROW(ChunkGrid::with_axes({8}, {AxisEdges::from_runs({{2, 1}, {5, 1}}, "a")}), Error);
}
