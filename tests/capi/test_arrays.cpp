// Array round trips through the C API: create, write, read, fill values,
// layouts, resize/append, attributes, metadata.
#include <cmath>
#include <filesystem>
#include <limits>
#include <numeric>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;


TEST(Arrays, CreateWriteReadRoundTrip) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a.zarr", array_meta("[10, 7]", "[4, 3]"));
  std::vector<int32_t> data(70);
  std::iota(data.begin(), data.end(), 1);
  EXPECT_EQ(write_then_read_all<int32_t>(a, {0, 0}, {10, 7}, data), data);
  ArrayPtr b = open_array(dir / "a.zarr");
  EXPECT_EQ(read_all<int32_t>(b), data);
  EXPECT_EQ(read_region<int32_t>(b, {3, 2}, {2, 2}), (std::vector<int32_t>{24, 25, 31, 32}));
}

TEST(Arrays, ShapeChunksItemSizeDataType) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[10, 7]", "[4, 3]", "<f8"));
  ASSERT_EQ(zarr_ndim(a), 2u);
  uint64_t shape[2], chunks[2];
  ASSERT_OK(zarr_shape(a, shape));
  ASSERT_OK(zarr_chunk_shape(a, chunks));
  EXPECT_EQ(shape[0], 10u);
  EXPECT_EQ(shape[1], 7u);
  EXPECT_EQ(chunks[0], 4u);
  EXPECT_EQ(chunks[1], 3u);
  EXPECT_EQ(zarr_item_size(a), 8u);
  EXPECT_STREQ(zarr_data_type(a), "float64");
  EXPECT_EQ(zarr_format(a), 2);
}

TEST(Arrays, UnwrittenChunksReadAsFillValue) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[6]", "[2]", "<i4", {{"fill_value", "-5"}}));
  EXPECT_EQ(write_then_read_all<int32_t>(a, {2}, {2}, {7, 8}), (std::vector<int32_t>{-5, -5, 7, 8, -5, -5}));
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray", "1"}));
}

TEST(Arrays, NullFillValueReadsZeros) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[4]", "[2]", "<i4", {{"fill_value", "null"}}));
  int is_null = 0;
  int32_t fill = 1;
  ASSERT_OK(zarr_fill_value(a, &fill, sizeof fill, &is_null));
  EXPECT_EQ(is_null, 1);
  EXPECT_EQ(read_all<int32_t>(a), (std::vector<int32_t>{0, 0, 0, 0}));
  // With no fill value to compare against, zero chunks are still stored.
  ASSERT_OK(write_region<int32_t>(a, {0}, {2}, {0, 0}));
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray", "0"}));
}

TEST(Arrays, EdgeChunksAreStoredWhole) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[5]", "[4]", "|u1"));
  ASSERT_OK(write_region<uint8_t>(a, {4}, {1}, {9}));
  // compressor null: the chunk file is the raw chunk, padded to the full chunk.
  EXPECT_EQ(read_file(dir / "a/1"), (zarr::Bytes{9, 0, 0, 0}));
}

TEST(Arrays, ChunkEqualToFillIsErasedUnlessKept) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[4]", "[2]", "<i4", {{"fill_value", "3"}}));
  ASSERT_OK(write_region<int32_t>(a, {0}, {4}, {1, 2, 3, 3}));
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray", "0"}));
  ASSERT_OK(write_region<int32_t>(a, {0}, {2}, {3, 3}));  // now equal to fill: erased
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray"}));

  ArrayPtr k = create_array(dir / "k", array_meta("[4]", "[2]", "<i4", {{"fill_value", "3"}}), "{\"write_empty_chunks\": true}");
  ASSERT_OK(write_region<int32_t>(k, {0}, {4}, {3, 3, 3, 3}));
  EXPECT_EQ(list_files(dir / "k"), (std::vector<std::string>{".zarray", "0", "1"}));
}

TEST(Arrays, NanFillValueChunksAreErased) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[4]", "[2]", "<f4", {{"fill_value", "\"NaN\""}}));
  float nan = std::numeric_limits<float>::quiet_NaN();
  ASSERT_OK(write_region<float>(a, {0}, {4}, {nan, nan, 1.5f, nan}));
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray", "1"}));
  std::vector<float> back = read_all<float>(a);
  EXPECT_TRUE(std::isnan(back[0]));
  EXPECT_EQ(back[2], 1.5f);
}

TEST(Arrays, FortranOrderChunksAndSlashSeparator) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[2, 3]", "[2, 3]", "<i2", {{"order", "\"F\""}, {"dimension_separator", "\"/\""}}));
  ASSERT_OK(write_region<int16_t>(a, {0, 0}, {2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray", "0/0"}));
  zarr::Bytes raw = read_file(dir / "a/0/0");
  ASSERT_EQ(raw.size(), 12u);
  std::vector<int16_t> stored(6);
  std::memcpy(stored.data(), raw.data(), 12);
  EXPECT_EQ(stored, (std::vector<int16_t>{1, 4, 2, 5, 3, 6}));  // column-major on disk
  EXPECT_EQ(read_all<int16_t>(open_array(dir / "a")), (std::vector<int16_t>{1, 2, 3, 4, 5, 6}));
}

TEST(Arrays, PartialChunkWritesKeepOtherElements) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[4, 4]", "[4, 4]"));
  ASSERT_OK(write_region<int32_t>(a, {0, 0}, {1, 4}, {1, 1, 1, 1}));
  ASSERT_OK(write_region<int32_t>(a, {3, 0}, {1, 4}, {2, 2, 2, 2}));
  std::vector<int32_t> all = read_all<int32_t>(a);
  EXPECT_EQ(all[0], 1);
  EXPECT_EQ(all[5], 0);
  EXPECT_EQ(all[15], 2);
}

TEST(Arrays, StridedReadAndWriteFortranBuffer) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[3, 4]", "[2, 3]"));
  // A Fortran (column-major) caller buffer of the whole 3x4 array.
  std::vector<int32_t> fortran(12);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) fortran[j * 3 + i] = 10 * i + j;
  uint64_t start[2] = {0, 0}, count[2] = {3, 4};
  int64_t strides[2] = {4, 12};
  ASSERT_OK(zarr_write_region_strided(a, 2, start, count, strides, fortran.data(), fortran.size() * 4));
  EXPECT_EQ(read_all<int32_t>(a), (std::vector<int32_t>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}));
  std::vector<int32_t> back(12, -1);
  ASSERT_OK(zarr_read_region_strided(a, 2, start, count, strides, back.data(), back.size() * 4));
  EXPECT_EQ(back, fortran);
  // Strides reaching past the buffer are refused before anything is touched.
  EXPECT_STATUS(zarr_read_region_strided(a, 2, start, count, strides, back.data(), 11 * 4), ZARR_ERR_BUFFER_SIZE,
                "strides");
}

TEST(Arrays, ZeroDimensionalArray) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", array_meta("[]", "[]", "<f8"));
  EXPECT_EQ(zarr_ndim(a), 0u);
  double v = 2.5;
  ASSERT_OK(zarr_write_region(a, 0, nullptr, nullptr, &v, sizeof v));
  EXPECT_EQ(list_files(dir / "s"), (std::vector<std::string>{".zarray", "0"}));
  double back = 0;
  ASSERT_OK(zarr_read_region(a, 0, nullptr, nullptr, &back, sizeof back));
  EXPECT_EQ(back, 2.5);
}

TEST(Arrays, ResizeShrinkErasesOutsideChunksAndKeepsInside) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[6, 6]", "[2, 2]", "|u1"));
  std::vector<uint8_t> ones(36, 1);
  ASSERT_OK(write_region(a, {0, 0}, {6, 6}, ones));
  EXPECT_EQ(list_files(dir / "a").size(), 10u);
  uint64_t smaller[2] = {3, 4};
  ASSERT_OK(zarr_resize(a, 2, smaller));
  // Chunks with any row index >= 2 or column index >= 2 are gone; (1,x) stays
  // as it still holds row 2.
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray", "0.0", "0.1", "1.0", "1.1"}));
  EXPECT_EQ(read_all<uint8_t>(a), std::vector<uint8_t>(12, 1));
  ArrayPtr b = open_array(dir / "a");
  uint64_t shape[2];
  ASSERT_OK(zarr_shape(b, shape));
  EXPECT_EQ(shape[0], 3u);
  EXPECT_EQ(shape[1], 4u);
  uint64_t bigger[2] = {4, 4};
  ASSERT_OK(zarr_resize(a, 2, bigger));
  EXPECT_EQ(read_region<uint8_t>(a, {3, 0}, {1, 4}), (std::vector<uint8_t>{1, 1, 1, 1}))
      << "stale data beyond a shrink is kept inside surviving chunks, as zarr-python does";
}

TEST(Arrays, AppendAlongAnyAxis) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[2, 2]", "[2, 2]"));
  ASSERT_OK(write_region<int32_t>(a, {0, 0}, {2, 2}, {1, 2, 3, 4}));
  uint64_t rows[2] = {1, 2};
  std::vector<int32_t> row = {5, 6};
  ASSERT_OK(zarr_append(a, 0, 2, rows, row.data(), 8));
  uint64_t cols[2] = {3, 1};
  std::vector<int32_t> col = {7, 8, 9};
  ASSERT_OK(zarr_append(a, 1, 2, cols, col.data(), 12));
  EXPECT_EQ(read_all<int32_t>(a), (std::vector<int32_t>{1, 2, 7, 3, 4, 8, 5, 6, 9}));
  uint64_t bad[2] = {1, 5};
  EXPECT_STATUS(zarr_append(a, 0, 2, bad, row.data(), 20), ZARR_ERR_INVALID_ARGUMENT, "every axis but 0");
  EXPECT_STATUS(zarr_append(a, 2, 2, rows, row.data(), 8), ZARR_ERR_INVALID_ARGUMENT, "axis 2");
  uint64_t row3[2] = {1, 3};
  EXPECT_STATUS(zarr_append(a, 0, 2, row3, row.data(), 4), ZARR_ERR_BUFFER_SIZE, "append");
  uint64_t beyond_memory[2] = {uint64_t{1} << 62, 3};  // 3 x 2^62 int32: the bytes overflow, not the count
  EXPECT_STATUS(zarr_append(a, 0, 2, beyond_memory, row.data(), 12), ZARR_ERR_BUFFER_SIZE,
                "4-byte elements (int32) needs more than 9223372036854775807");
  EXPECT_NE(std::string(zarr_last_error()).find("array '/' in "), std::string::npos) << zarr_last_error();
  uint64_t shape[2];
  ASSERT_OK(zarr_shape(a, shape));
  EXPECT_EQ(shape[0], 3u) << "failed appends leave the shape alone";
  // A shape at the top of uint64: one more element along it cannot be counted.
  ArrayPtr top = create_array(dir / "top", array_meta("[18446744073709551615]", "[1000]", "|u1"));
  uint64_t one[1] = {1};
  const uint8_t value = 7;
  EXPECT_STATUS(zarr_append(top, 0, 1, one, &value, 1), ZARR_ERR_INVALID_ARGUMENT,
                "1 more along axis 0 would take the shape [18446744073709551615] past 2^64 - 1");
  ASSERT_OK(zarr_shape(top, shape));
  EXPECT_EQ(shape[0], UINT64_MAX);
}

TEST(Arrays, AttributesRoundTripAndPersist) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[2]", "[2]"));
  EXPECT_EQ(attributes_of(a), "{}");
  ASSERT_OK(zarr_set_attributes(a, "{\"units\": \"m\", \"scale\": [1, 2.5]}"));
  EXPECT_EQ(attributes_of(open_array(dir / "a")), "{\"units\":\"m\",\"scale\":[1,2.5]}");
  EXPECT_STATUS(zarr_set_attributes(a, "[1]"), ZARR_ERR_INVALID_METADATA, "object");
  ArrayPtr r = open_array(dir / "a");
  EXPECT_STATUS(zarr_set_attributes(r, "{}"), ZARR_ERR_READ_ONLY, "read-only");
}

TEST(Arrays, MetadataDocumentIsZarrPythonShaped) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", "{\"shape\": [100], \"dtype\": \"<u2\", \"chunks\": [10], \"compressor\": null}");
  std::string m = metadata_of(a);
  EXPECT_EQ(m, read_file(dir / "a/.zarray") == zarr::Bytes(m.begin(), m.end()) ? m : std::string("differs"));
  EXPECT_NE(m.find("\"zarr_format\": 2"), std::string::npos) << m;
  EXPECT_NE(m.find("\"fill_value\": 0"), std::string::npos) << m;
  EXPECT_NE(m.find("\"order\": \"C\""), std::string::npos) << m;
  EXPECT_NE(m.find("\"filters\": null"), std::string::npos) << m;
  EXPECT_LT(m.find("\"chunks\""), m.find("\"zarr_format\"")) << "keys are sorted as zarr-python writes them";
}

TEST(Arrays, CreateDefaultsFollowZarrPython) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", "{\"shape\": [5, 3], \"dtype\": \"<i8\"}");
  uint64_t chunks[2];
  ASSERT_OK(zarr_chunk_shape(a, chunks));
  EXPECT_EQ(chunks[0], 5u);
  EXPECT_EQ(chunks[1], 3u);
  std::string m = metadata_of(a);
  EXPECT_NE(m.find("\"id\": \"blosc\""), std::string::npos) << m;
  EXPECT_NE(m.find("\"cname\": \"lz4\""), std::string::npos) << m;
}

TEST(Arrays, CompressedRoundTripsForEveryBuiltCompressor) {
  TempDir dir;
  const char* compressors[] = {
      "{\"id\": \"zlib\", \"level\": 5}",      "{\"id\": \"gzip\", \"level\": 1}",
      "{\"id\": \"bz2\", \"level\": 9}",       "{\"id\": \"zstd\", \"level\": 3}",
      "{\"id\": \"blosc\", \"cname\": \"zstd\", \"clevel\": 3, \"shuffle\": 2}",
      "{\"id\": \"lz4\", \"acceleration\": 1}", "{\"id\": \"lzma\"}"};
  std::vector<int64_t> data(1000);
  std::iota(data.begin(), data.end(), -500);
  int i = 0;
  for (const char* c : compressors) {
    SCOPED_TRACE(c);
    std::string url = dir / ("c" + std::to_string(i++));
    ArrayPtr a;
    int status = zarr_create(a.out(), url.c_str(), array_meta("[1000]", "[300]", "<i8", {{"compressor", c}}).c_str());
    if (status == ZARR_ERR_UNSUPPORTED) continue;  // library built without this codec
    ASSERT_EQ(status, ZARR_OK) << status_text(status);
    EXPECT_EQ(write_then_read_all<int64_t>(a, {0}, {1000}, data), data);
    EXPECT_EQ(read_all<int64_t>(open_array(url)), data);
  }
}

// A region of 32 MiB or more is copied into the caller's buffer with
// streaming stores (uncompressed chunks read in pieces, blosc chunks decoded
// block by block): the values must be the same, whatever the buffer's
// alignment, for stored, compressed and absent chunks.
TEST(Arrays, LargeRegionReadsMatchSmallOnes) {
  TempDir dir;
  const uint64_t shape[3] = {36, 512, 1024};  // 36 MiB of uint16, chunks of 1 MiB
  const size_t n = shape[0] * shape[1] * shape[2];
  std::vector<uint16_t> data(n);
  for (size_t i = 0; i < n; ++i) data[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
  std::vector<std::string> metadata;
  for (const char* compressor : {"null", "{\"id\": \"zlib\", \"level\": 1}",
                                 "{\"id\": \"blosc\", \"cname\": \"lz4\", \"shuffle\": 1, \"blocksize\": 65536}"}) {
    metadata.push_back(
        array_meta("[36, 512, 1024]", "[4, 256, 512]", "<u2", {{"compressor", compressor}, {"fill_value", "7"}}));
  }
  // v3 blosc: its codec wraps the v2 one and must keep block-by-block decoding.
  metadata.push_back(R"({"zarr_format": 3, "node_type": "array", "shape": [36, 512, 1024], "data_type": "uint16",
      "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 256, 512]}},
      "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}}, "fill_value": 7,
      "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "blosc", "configuration":
          {"cname": "lz4", "clevel": 5, "shuffle": "shuffle", "typesize": 2, "blocksize": 65536}}]})");
  int made = 0;
  for (const std::string& meta : metadata) {
    SCOPED_TRACE(meta);
    const std::string url = dir / ("a" + std::to_string(made++));
    ArrayPtr a;
    const int status = zarr_create(a.out(), url.c_str(), meta.c_str());
    if (status == ZARR_ERR_UNSUPPORTED) continue;  // library built without this codec
    ASSERT_EQ(status, ZARR_OK) << status_text(status);
    // Everything but the last 4 planes: their chunks stay absent (fill value).
    ASSERT_OK(write_region<uint16_t>(a, {0, 0, 0}, {32, 512, 1024},
                                     std::vector<uint16_t>(data.begin(), data.begin() + 32 * 512 * 1024)));
    for (size_t i = 32 * 512 * 1024; i < n; ++i) data[i] = 7;
    for (size_t misalign : {0, 2, 6}) {
      SCOPED_TRACE("buffer at +" + std::to_string(misalign) + " bytes");
      std::vector<uint8_t> buffer(n * 2 + misalign);
      const uint64_t start[3] = {0, 0, 0};
      ASSERT_OK(zarr_read_region(a, 3, start, shape, buffer.data() + misalign, n * 2));
      EXPECT_EQ(std::memcmp(buffer.data() + misalign, data.data(), n * 2), 0);
    }
    // A large region cutting chunks (rows 10-509 of 512): parts of chunks.
    {
      const uint64_t start[3] = {0, 10, 0}, count[3] = {36, 500, 1024};
      std::vector<uint16_t> part(36 * 500 * 1024);
      ASSERT_OK(zarr_read_region(a, 3, start, count, part.data(), part.size() * 2));
      bool same = true;
      for (size_t z = 0; z < 36 && same; ++z)
        for (size_t y = 0; y < 500 && same; ++y)
          same = std::memcmp(&part[(z * 500 + y) * 1024], &data[(z * 512 + y + 10) * 1024], 1024 * 2) == 0;
      EXPECT_TRUE(same) << "a region of 35 MiB cutting chunks reads other values";
    }
    // A small region through the cached path reads the same.
    EXPECT_EQ(read_region<uint16_t>(a, {33, 100, 200}, {1, 1, 3}), std::vector<uint16_t>(3, 7));
    EXPECT_EQ(read_region<uint16_t>(a, {5, 300, 700}, {1, 1, 1}),
              std::vector<uint16_t>{data[(5 * 512 + 300) * 1024 + 700]});
    for (size_t i = 32 * 512 * 1024; i < n; ++i) data[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
  }
}

// Small compressed chunks with short rows (16 and 32 bytes): whole regions,
// regions starting and ending inside chunks, an absent chunk amid present
// ones, F-order chunks, Fortran-order buffers and a 32 MiB region (streaming
// stores, a misaligned buffer) must read what element-by-element indexing gives.
TEST(Arrays, SmallChunksWithShortRowsMatchTheirElements) {
  TempDir dir;
  const std::vector<uint64_t> shape = {6, 10, 70};
  const size_t n = 6 * 10 * 70;
  std::vector<int16_t> data(n);
  for (size_t i = 0; i < n; ++i) data[i] = static_cast<int16_t>(i * 7919 % 65521);
  int made = 0;
  for (const char* order : {"C", "F"}) {
    SCOPED_TRACE(std::string("chunk order ") + order);
    const std::string url = dir / ("a" + std::to_string(made++));
    ArrayPtr a = create_array(url, array_meta("[6, 10, 70]", "[2, 3, 8]", "<i2",
                                              {{"compressor", "{\"id\": \"zstd\", \"level\": 1}"},
                                               {"fill_value", "-1"}, {"order", std::string("\"") + order + "\""}}));
    ASSERT_OK(write_region<int16_t>(a, {0, 0, 0}, {6, 10, 70}, data));
    // Chunk (1, 1, 3), amid its row of chunks, is absent: it reads -1.
    std::filesystem::remove(url + "/1.1.3");
    std::vector<int16_t> expected = data;
    for (size_t z = 2; z < 4; ++z)
      for (size_t y = 3; y < 6; ++y)
        for (size_t x = 24; x < 32; ++x) expected[(z * 10 + y) * 70 + x] = -1;
    EXPECT_EQ(read_all<int16_t>(a), expected);
    const std::vector<int16_t> part = read_region<int16_t>(a, {1, 2, 5}, {4, 7, 60});
    bool same = part.size() == 4 * 7 * 60;
    for (size_t z = 0; z < 4 && same; ++z)
      for (size_t y = 0; y < 7 && same; ++y)
        for (size_t x = 0; x < 60 && same; ++x) same = part[(z * 7 + y) * 60 + x] == expected[((z + 1) * 10 + y + 2) * 70 + x + 5];
    EXPECT_TRUE(same) << "a region starting and ending inside chunks";
    std::vector<int16_t> fortran(n);
    const uint64_t start[3] = {0, 0, 0};
    const int64_t f_strides[3] = {2, 2 * 6, 2 * 6 * 10};
    ASSERT_OK(zarr_read_region_strided(a, 3, start, shape.data(), f_strides, fortran.data(), n * 2));
    same = true;
    for (size_t z = 0; z < 6 && same; ++z)
      for (size_t y = 0; y < 10 && same; ++y)
        for (size_t x = 0; x < 70 && same; ++x) same = fortran[z + 6 * (y + 10 * x)] == expected[(z * 10 + y) * 70 + x];
    EXPECT_TRUE(same) << "a Fortran-order buffer";
  }
  // 32 MiB of 16^3 chunks: the region is written with streaming stores, into
  // a buffer 2 bytes off alignment.
  const std::vector<uint64_t> big = {32, 512, 1024};
  const size_t m = 32 * 512 * 1024;
  std::vector<uint16_t> values(m);
  for (size_t i = 0; i < m; ++i) values[i] = static_cast<uint16_t>(i * 2654435761u >> 9);
  ArrayPtr b = create_array(dir / "big", array_meta("[32, 512, 1024]", "[16, 16, 16]", "<u2",
                                                   {{"compressor", "{\"id\": \"zstd\", \"level\": 1}"}}));
  ASSERT_OK(write_region<uint16_t>(b, {0, 0, 0}, big, values));
  std::vector<uint8_t> buffer(m * 2 + 2);
  const uint64_t zero[3] = {0, 0, 0};
  ASSERT_OK(zarr_read_region(b, 3, zero, big.data(), buffer.data() + 2, m * 2));
  EXPECT_EQ(std::memcmp(buffer.data() + 2, values.data(), m * 2), 0);
}

// Uncompressed chunks of a large region are read in cache-sized pieces and
// streamed into place: edge chunks (stored whole, partly outside the array)
// and a Fortran-order caller buffer (rows of single elements: read whole
// instead) must read the values a small region reads.
TEST(Arrays, LargeRegionsOfEdgeChunksAndFortranBuffersReadTheValues) {
  TempDir dir;
  const uint64_t shape[3] = {10, 700, 1300};  // 34.7 MiB of uint32; chunks cut at every edge
  const size_t n = shape[0] * shape[1] * shape[2];
  std::vector<uint32_t> data(n);
  for (size_t i = 0; i < n; ++i) data[i] = static_cast<uint32_t>(i * 2654435761u);
  ArrayPtr a = create_array(dir / "a", array_meta("[10, 700, 1300]", "[4, 256, 512]", "<u4"));
  ASSERT_OK(write_region<uint32_t>(a, {0, 0, 0}, {10, 700, 1300}, data));
  ArrayPtr b = open_array(dir / "a");
  const uint64_t start[3] = {0, 0, 0};
  std::vector<uint32_t> c_order(n);
  ASSERT_OK(zarr_read_region(b, 3, start, shape, c_order.data(), n * 4));
  EXPECT_TRUE(c_order == data) << "a C-order read of edge chunks differs";
  std::vector<uint32_t> fortran(n);
  const int64_t f_strides[3] = {4, 4 * 10, 4 * 10 * 700};
  ASSERT_OK(zarr_read_region_strided(b, 3, start, shape, f_strides, fortran.data(), n * 4));
  bool same = true;
  for (size_t z = 0; z < 10 && same; ++z)
    for (size_t y = 0; y < 700 && same; ++y)
      for (size_t x = 0; x < 1300 && same; ++x) same = fortran[(x * 700 + y) * 10 + z] == data[(z * 700 + y) * 1300 + x];
  EXPECT_TRUE(same) << "a Fortran-order read differs";
  // A chunk of the wrong size is an error naming it, not a partial copy.
  std::filesystem::resize_file(dir / "a/1.1.1", 100);
  EXPECT_STATUS(zarr_read_region(b, 3, start, shape, c_order.data(), n * 4), ZARR_ERR_CODEC, "'1.1.1'");
}

TEST(Arrays, MemoryStoreIsSharedByNameWhileOpen) {
  ArrayPtr a = create_array("memory://arrays-test/x/y", array_meta("[3]", "[2]"));
  ASSERT_OK(write_region<int32_t>(a, {0}, {3}, {1, 2, 3}));
  ArrayPtr b = open_array("memory://arrays-test/x/y");
  EXPECT_EQ(read_all<int32_t>(b), (std::vector<int32_t>{1, 2, 3}));
  GroupPtr g;
  ASSERT_OK(zarr_group_open(g.out(), "memory://arrays-test/x", "r"));
}

TEST(Arrays, FileUrlsAreFilesystemPaths) {
  TempDir dir;
  create_array("file://" + (dir / "f.zarr"), array_meta("[2]", "[2]"));
  EXPECT_TRUE(file_exists(dir / "f.zarr/.zarray"));
  ArrayPtr a = open_array("file://" + dir.path() + "/f%2Ezarr");
  EXPECT_EQ(zarr_ndim(a), 1u);
}
