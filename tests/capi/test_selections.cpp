// Selections through the C API: zarr_read_orthogonal / zarr_write_orthogonal,
// zarr_read_points / zarr_write_points, zarr_read_region_step /
// zarr_write_region_step against a reference of region reads, on compressed
// v2 and sharded v3 arrays; every refusal with its code and what it names;
// indices near 2^64 (docs/c-api.md, "Selections"). The _vlen forms of
// variable-length elements: test_selections_vlen.cpp.
#include <numeric>
#include <random>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

constexpr uint64_t kMax = UINT64_MAX;

// int32 [10, 9] in chunks of [4, 4], zlib-compressed, holding 0, 1, 2, ...
ArrayPtr numbered_v2(const TempDir& dir) {
  ArrayPtr a = create_array(dir / "a", array_meta("[10, 9]", "[4, 4]", "<i4",
                                                  {{"compressor", R"({"id": "zlib", "level": 1})"}}));
  std::vector<int32_t> all(90);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(write_region(a, {0, 0}, {10, 9}, all), ZARR_OK);
  return a;
}

// The same numbers in a sharded v3 array: shards of [8, 8], inner chunks of [4, 4].
ArrayPtr numbered_sharded(const TempDir& dir) {
  ArrayPtr a = create_array(dir / "s", R"({"zarr_format": 3, "node_type": "array", "shape": [10, 9],
    "data_type": "int32", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8, 8]}},
    "fill_value": 0, "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [4, 4],
    "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}]}}]})");
  std::vector<int32_t> all(90);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(write_region(a, {0, 0}, {10, 9}, all), ZARR_OK);
  return a;
}

int32_t element(zarr_array* a, uint64_t i, uint64_t j) { return read_region<int32_t>(a, {i, j}, {1, 1})[0]; }

std::vector<int32_t> read_orthogonal(zarr_array* a, const std::vector<uint64_t>& rows,
                                     const std::vector<uint64_t>& cols) {
  const uint64_t* indices[2] = {rows.data(), cols.data()};
  const uint64_t counts[2] = {rows.size(), cols.size()};
  std::vector<int32_t> out(rows.size() * cols.size());
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, indices, counts, out.data(), out.size() * 4), ZARR_OK, "");
  return out;
}

// Orthogonal, point and strided reads against element-by-element region reads.
void expect_selections_match_region_reads(zarr_array* a) {
  const std::vector<uint64_t> rows = {9, 0, 5, 5, 3}, cols = {8, 1, 2, 7, 0, 0};
  const std::vector<int32_t> outer = read_orthogonal(a, rows, cols);
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < cols.size(); ++j) EXPECT_EQ(outer[i * cols.size() + j], element(a, rows[i], cols[j]));
  }
  std::mt19937 random(22);
  std::vector<uint64_t> coords;
  for (int p = 0; p < 100; ++p) coords.insert(coords.end(), {random() % 10, random() % 9});
  std::vector<int32_t> points(100);
  ASSERT_OK(zarr_read_points(a, 2, 100, coords.data(), points.data(), 400));
  for (size_t p = 0; p < 100; ++p) EXPECT_EQ(points[p], element(a, coords[2 * p], coords[2 * p + 1])) << p;
  const uint64_t start[2] = {1, 0}, count[2] = {3, 3}, step[2] = {3, 4};
  std::vector<int32_t> slab(9);
  ASSERT_OK(zarr_read_region_step(a, 2, start, count, step, slab.data(), 36));
  for (uint64_t i = 0; i < 3; ++i) {
    for (uint64_t j = 0; j < 3; ++j) EXPECT_EQ(slab[i * 3 + j], element(a, 1 + 3 * i, 4 * j));
  }
}

}  // namespace

TEST(Selections, ReadsMatchRegionReadsOnACompressedV2Array) {
  TempDir dir;
  ArrayPtr a = numbered_v2(dir);
  expect_selections_match_region_reads(a);
}

TEST(Selections, ReadsMatchRegionReadsOnAShardedV3Array) {
  TempDir dir;
  ArrayPtr a = numbered_sharded(dir);
  expect_selections_match_region_reads(a);
}

TEST(Selections, WritesLandWhereRegionReadsFindThemAndTheLastValueOfARepeatWins) {
  TempDir dir;
  for (bool sharded : {false, true}) {
    ArrayPtr a = sharded ? numbered_sharded(dir) : numbered_v2(dir);
    const uint64_t rows[3] = {5, 1, 5}, cols[2] = {8, 0};
    const uint64_t* indices[2] = {rows, cols};
    const uint64_t counts[2] = {3, 2};
    const std::vector<int32_t> outer = {-1, -2, -3, -4, -5, -6};
    ASSERT_OK(zarr_write_orthogonal(a, 2, indices, counts, outer.data(), 24));
    EXPECT_EQ(element(a, 5, 8), -5);
    EXPECT_EQ(element(a, 5, 0), -6);
    EXPECT_EQ(element(a, 1, 8), -3);
    EXPECT_EQ(element(a, 1, 1), 10) << "not picked";
    const uint64_t coords[6] = {9, 8, 0, 0, 9, 8};
    const std::vector<int32_t> values = {100, 101, 102};
    ASSERT_OK(zarr_write_points(a, 2, 3, coords, values.data(), 12));
    EXPECT_EQ(element(a, 9, 8), 102);
    EXPECT_EQ(element(a, 0, 0), 101);
    const uint64_t start[2] = {0, 1}, count[2] = {4, 2}, step[2] = {3, 7};
    const std::vector<int32_t> slab = {1, 2, 3, 4, 5, 6, 7, 8};
    ASSERT_OK(zarr_write_region_step(a, 2, start, count, step, slab.data(), 32));
    EXPECT_EQ(element(a, 3, 8), 4);
    EXPECT_EQ(element(a, 9, 1), 7);
    EXPECT_EQ(element(a, 4, 1), 37) << "between the steps";
  }
}

TEST(Selections, IndicesOutsideTheShapeAreOutOfBoundsNamingTheAxisAndTheIndexAndWriteNothing) {
  TempDir dir;
  ArrayPtr a = numbered_v2(dir);
  const uint64_t rows[2] = {0, 3}, cols[2] = {1, 9};
  const uint64_t* indices[2] = {rows, cols};
  const uint64_t counts[2] = {2, 2};
  std::vector<int32_t> buffer(4, -1);
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, indices, counts, buffer.data(), 16), ZARR_ERR_OUT_OF_BOUNDS,
                "entry 1 of the indices on axis 1 is index 9, outside the array's extent 9");
  EXPECT_STATUS(zarr_write_orthogonal(a, 2, indices, counts, buffer.data(), 16), ZARR_ERR_OUT_OF_BOUNDS,
                "zarr_write_orthogonal");
  const uint64_t coords[4] = {0, 0, 10, 0};
  EXPECT_STATUS(zarr_read_points(a, 2, 2, coords, buffer.data(), 8), ZARR_ERR_OUT_OF_BOUNDS,
                "point 1 on axis 0 is index 10");
  EXPECT_STATUS(zarr_write_points(a, 2, 2, coords, buffer.data(), 8), ZARR_ERR_OUT_OF_BOUNDS, "point 1");
  const uint64_t start[2] = {0, 2}, count[2] = {1, 5}, step[2] = {1, 2};
  buffer.resize(5);
  EXPECT_STATUS(zarr_read_region_step(a, 2, start, count, step, buffer.data(), 20), ZARR_ERR_OUT_OF_BOUNDS,
                "the last element on axis 1 is index 10");
  EXPECT_STATUS(zarr_write_region_step(a, 2, start, count, step, buffer.data(), 20), ZARR_ERR_OUT_OF_BOUNDS,
                "zarr_write_region_step");
  EXPECT_EQ(element(a, 0, 0), 0) << "the refused point write wrote its first point";
}

TEST(Selections, BufferSizesOtherThanTheSelectionsAreRefusedNamingTheSizeNeeded) {
  TempDir dir;
  ArrayPtr a = numbered_v2(dir);
  const uint64_t rows[2] = {0, 3}, cols[3] = {1, 2, 3};
  const uint64_t* indices[2] = {rows, cols};
  const uint64_t counts[2] = {2, 3};
  std::vector<int32_t> buffer(8);
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, indices, counts, buffer.data(), 32), ZARR_ERR_BUFFER_SIZE,
                "buffer is 32 bytes but the selection of 6 4-byte elements (int32) needs 24");
  EXPECT_STATUS(zarr_write_orthogonal(a, 2, indices, counts, buffer.data(), 20), ZARR_ERR_BUFFER_SIZE, "needs 24");
  const uint64_t coords[4] = {0, 0, 1, 1};
  EXPECT_STATUS(zarr_read_points(a, 2, 2, coords, buffer.data(), 4), ZARR_ERR_BUFFER_SIZE, "needs 8");
  EXPECT_STATUS(zarr_write_points(a, 2, 2, coords, buffer.data(), 12), ZARR_ERR_BUFFER_SIZE, "needs 8");
  const uint64_t start[2] = {0, 0}, count[2] = {2, 2}, step[2] = {2, 2};
  EXPECT_STATUS(zarr_read_region_step(a, 2, start, count, step, buffer.data(), 8), ZARR_ERR_BUFFER_SIZE, "needs 16");
  EXPECT_STATUS(zarr_write_region_step(a, 2, start, count, step, buffer.data(), 8), ZARR_ERR_BUFFER_SIZE, "needs 16");
  // Counts whose product passes 2^64 - 1: refused before any index is read.
  const uint64_t huge[2] = {uint64_t{1} << 32, uint64_t{1} << 32};
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, indices, huge, buffer.data(), 8), ZARR_ERR_BUFFER_SIZE,
                "more than 2^64 - 1");
}

TEST(Selections, BadArgumentsAreRefusedNamingThem) {
  TempDir dir;
  ArrayPtr a = numbered_v2(dir);
  const uint64_t rows[1] = {0};
  const uint64_t* indices[2] = {rows, nullptr};
  const uint64_t counts[2] = {1, 1};
  int32_t out = 0;
  EXPECT_STATUS(zarr_read_orthogonal(nullptr, 2, indices, counts, &out, 4), ZARR_ERR_INVALID_ARGUMENT, "'array'");
  EXPECT_STATUS(zarr_read_orthogonal(a, 1, indices, counts, &out, 4), ZARR_ERR_INVALID_ARGUMENT, "'ndim' is 1");
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, nullptr, counts, &out, 4), ZARR_ERR_INVALID_ARGUMENT, "'indices'");
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, indices, nullptr, &out, 4), ZARR_ERR_INVALID_ARGUMENT, "'counts'");
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, indices, counts, &out, 4), ZARR_ERR_INVALID_ARGUMENT, "'indices[1]'");
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, indices, counts, nullptr, 4), ZARR_ERR_INVALID_ARGUMENT, "'out'");
  EXPECT_STATUS(zarr_write_orthogonal(a, 2, indices, counts, nullptr, 4), ZARR_ERR_INVALID_ARGUMENT, "'in'");
  EXPECT_STATUS(zarr_read_points(a, 2, 1, nullptr, &out, 4), ZARR_ERR_INVALID_ARGUMENT, "'coords'");
  EXPECT_STATUS(zarr_write_points(a, 3, 1, rows, &out, 4), ZARR_ERR_INVALID_ARGUMENT, "'ndim' is 3");
  const uint64_t start[2] = {0, 0}, count[2] = {1, 1}, zero_step[2] = {1, 0};
  EXPECT_STATUS(zarr_read_region_step(a, 2, start, count, nullptr, &out, 4), ZARR_ERR_INVALID_ARGUMENT, "'step'");
  EXPECT_STATUS(zarr_read_region_step(a, 2, start, count, zero_step, &out, 4), ZARR_ERR_INVALID_ARGUMENT,
                "step on axis 1 is 0");
  EXPECT_STATUS(zarr_write_region_step(a, 2, start, count, zero_step, &out, 4), ZARR_ERR_INVALID_ARGUMENT,
                "step on axis 1 is 0");
  // Empty selections: nothing to read or write, buffers may be NULL.
  const uint64_t none[2] = {0, 0};
  const uint64_t* no_indices[2] = {nullptr, nullptr};
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, no_indices, none, nullptr, 0), ZARR_OK, "");
  EXPECT_STATUS(zarr_write_points(a, 2, 0, nullptr, nullptr, 0), ZARR_OK, "");
}

TEST(Selections, ReadOnlyHandlesVariableLengthArraysAndFieldsAreRefused) {
  TempDir dir;
  numbered_v2(dir);
  ArrayPtr r = open_array(dir / "a", "r");
  const uint64_t coords[2] = {1, 1};
  int32_t value = 5;
  EXPECT_STATUS(zarr_write_points(r, 2, 1, coords, &value, 4), ZARR_ERR_READ_ONLY, "read-only");
  EXPECT_EQ(element(r, 1, 1), 10);
  ArrayPtr s = create_array(dir / "s", R"({"shape": [5], "data_type": "string", "chunk_grid": {"name": "regular",
    "configuration": {"chunk_shape": [2]}}, "fill_value": "", "codecs": [{"name": "vlen-utf8", "configuration": {}}]})");
  const uint64_t first[1] = {0};
  EXPECT_STATUS(zarr_read_points(s, 1, 1, first, &value, 0), ZARR_ERR_UNSUPPORTED, "variable-length");
  ArrayPtr x = open_record_field_x(dir / "records");
  ASSERT_NE(x.get(), nullptr);
  EXPECT_STATUS(zarr_read_points(x, 1, 1, first, &value, 4), ZARR_ERR_UNSUPPORTED, "zarr_read_points");
  EXPECT_STATUS(zarr_write_region_step(x, 1, first, first, first, &value, 0), ZARR_ERR_UNSUPPORTED,
                "zarr_write_region_step");
  uint64_t offsets[2];
  EXPECT_STATUS(zarr_read_points_vlen(x, 1, 1, first, offsets, 2, nullptr, 0, nullptr), ZARR_ERR_UNSUPPORTED,
                "zarr_read_points_vlen");
}

// Shape [2^64 - 1] in chunks of 10 (tests/capi/test_index_arithmetic.cpp):
// the last elements are read and written by every selection; a step that
// would pass 2^64 - 1 is refused, not wrapped.
TEST(Selections, IndicesNear2To64AreReadAndWrittenAndOverflowingStepsRefused) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "big", array_meta("[18446744073709551615]", "[10]", "|u1"));
  const uint64_t last_two[2] = {kMax - 2, kMax - 3};
  const uint8_t values[2] = {42, 43};
  ASSERT_OK(zarr_write_points(a, 1, 2, last_two, values, 2));
  uint8_t got[2] = {0, 0};
  const uint64_t* indices[1] = {last_two};
  const uint64_t two[1] = {2};
  ASSERT_OK(zarr_read_orthogonal(a, 1, indices, two, got, 2));
  EXPECT_EQ(got[0], 42);
  EXPECT_EQ(got[1], 43);
  const uint64_t start[1] = {kMax - 3}, one_step[1] = {1};
  ASSERT_OK(zarr_read_region_step(a, 1, start, two, one_step, got, 2));
  EXPECT_EQ(got[0], 43);
  EXPECT_EQ(got[1], 42);
  const uint64_t past_end[1] = {kMax - 1 + 1};
  EXPECT_STATUS(zarr_read_points(a, 1, 1, past_end, got, 1), ZARR_ERR_OUT_OF_BOUNDS,
                "index 18446744073709551615, outside the array's extent 18446744073709551615");
  const uint64_t three[1] = {3}, half[1] = {uint64_t{1} << 63};
  EXPECT_STATUS(zarr_read_region_step(a, 1, start, three, half, got, 3), ZARR_ERR_OUT_OF_BOUNDS, "passes 2^64 - 1");
  EXPECT_STATUS(zarr_write_region_step(a, 1, start, three, half, got, 3), ZARR_ERR_OUT_OF_BOUNDS, "passes 2^64 - 1");
  EXPECT_STATUS(zarr_read_points(a, 1, kMax, past_end, got, 1), ZARR_ERR_BUFFER_SIZE, "needs more than");
}
