#include <gtest/gtest.h>

#include "core/error.h"
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
