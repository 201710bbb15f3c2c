// The zarr-extensions "rectilinear" chunk grid
// (specs/zarr-extensions/chunk-grids/rectilinear): every form of
// chunk_shapes, region I/O over chunks of different shapes against a model,
// resize, sharding inside it, hostile run lengths, and zarr_chunk_boundaries
// (which regular grids answer too).
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <random>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

std::string rect_meta(const std::string& shape, const std::string& chunk_shapes, const std::string& type = "int32",
                      const std::string& codecs = R"([{"name": "bytes", "configuration": {"endian": "little"}}])") {
  return R"({"zarr_format": 3, "node_type": "array", "shape": )" + shape + R"(, "data_type": ")" + type +
         R"(", "chunk_grid": {"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": )" +
         chunk_shapes + R"(}}, "chunk_key_encoding": {"name": "default"}, "fill_value": 7, "codecs": )" + codecs +
         "}";
}

std::vector<uint64_t> boundaries(const zarr_array* a, size_t axis) {
  size_t count = 0;
  EXPECT_EQ(zarr_chunk_boundaries(a, axis, nullptr, 0, &count), ZARR_ERR_BUFFER_SIZE);
  std::vector<uint64_t> out(count);
  EXPECT_EQ(zarr_chunk_boundaries(a, axis, out.data(), out.size(), &count), ZARR_OK) << zarr_last_error();
  return out;
}

std::string text_of(const std::string& path) {
  zarr::Bytes b = read_file(path);
  return std::string(b.begin(), b.end());
}

// A C-order model of a 2-D array and its regions.
struct Model {
  uint64_t rows, cols;
  std::vector<int32_t> data;
  Model(uint64_t r, uint64_t c, int32_t fill) : rows(r), cols(c), data(r * c, fill) {}
  void write(uint64_t r0, uint64_t c0, uint64_t nr, uint64_t nc, const std::vector<int32_t>& v) {
    for (uint64_t i = 0; i < nr; ++i)
      for (uint64_t j = 0; j < nc; ++j) data[(r0 + i) * cols + c0 + j] = v[i * nc + j];
  }
  std::vector<int32_t> read(uint64_t r0, uint64_t c0, uint64_t nr, uint64_t nc) const {
    std::vector<int32_t> v;
    for (uint64_t i = 0; i < nr; ++i)
      for (uint64_t j = 0; j < nc; ++j) v.push_back(data[(r0 + i) * cols + c0 + j]);
    return v;
  }
};

// Random regions written to the array and the model, then random regions
// read from both (the whole array last).
void check_against_model(zarr_array* a, uint64_t rows, uint64_t cols, unsigned seed) {
  Model model(rows, cols, 7);
  std::mt19937 rng(seed);
  auto region = [&](uint64_t extent) {
    const uint64_t start = rng() % extent;
    return std::make_pair(start, 1 + rng() % (extent - start));
  };
  int32_t next = 100;
  for (int round = 0; round < 20; ++round) {
    const auto [r0, nr] = region(rows);
    const auto [c0, nc] = region(cols);
    std::vector<int32_t> v(nr * nc);
    std::iota(v.begin(), v.end(), next);
    next += static_cast<int32_t>(v.size());
    ASSERT_OK(write_region(a, {r0, c0}, {nr, nc}, v));
    model.write(r0, c0, nr, nc, v);
    const auto [q0, nq] = region(rows);
    const auto [p0, np] = region(cols);
    ASSERT_EQ(read_region<int32_t>(a, {q0, p0}, {nq, np}), model.read(q0, p0, nq, np)) << "round " << round;
  }
  EXPECT_EQ(read_all<int32_t>(a), model.data);
}

}  // namespace

// The README's example: an integer, an explicit list, a run, a run and an
// edge, and overflow chunks past the extent.
TEST(Rectilinear, TheReadmeExampleOpensAndRoundTrips) {
  TempDir dir;
  const std::string shapes = "[4, [1, 2, 3], [[4, 2]], [[1, 3], 3], [4, 4, 4]]";
  ArrayPtr a = create_array(dir / "a", rect_meta("[6, 6, 6, 6, 6]", shapes, "uint8", R"([{"name": "bytes"}])"));
  EXPECT_EQ(boundaries(a, 0), (std::vector<uint64_t>{0, 4, 6}));
  EXPECT_EQ(boundaries(a, 1), (std::vector<uint64_t>{0, 1, 3, 6}));
  EXPECT_EQ(boundaries(a, 2), (std::vector<uint64_t>{0, 4, 6}));
  EXPECT_EQ(boundaries(a, 3), (std::vector<uint64_t>{0, 1, 2, 3, 6}));
  EXPECT_EQ(boundaries(a, 4), (std::vector<uint64_t>{0, 4, 6}));  // the third edge lies past the extent
  std::vector<uint8_t> data(6 * 6 * 6 * 6 * 6);
  std::iota(data.begin(), data.end(), 0);
  EXPECT_EQ(write_then_read_all<uint8_t>(a, {0, 0, 0, 0, 0}, {6, 6, 6, 6, 6}, data), data);
  // Each chunk is stored at its own shape: (1, 1, 1, 1, 1) is 4 x 2 x 4 x 1 x 4
  // (the integer form is a regular step: its edge chunk is whole, as in a regular grid).
  EXPECT_EQ(read_file(dir / "a/c/1/1/1/1/1").size(), 4u * 2 * 4 * 1 * 4);
  EXPECT_EQ(read_file(dir / "a/c/0/2/0/3/0").size(), 4u * 3 * 4 * 3 * 4);
  const std::string stored = text_of(dir / "a/zarr.json");
  EXPECT_NE(stored.find("\"name\": \"rectilinear\""), std::string::npos) << stored;
  ArrayPtr reopened = open_array(dir / "a");
  EXPECT_EQ(read_all<uint8_t>(reopened), data);
  EXPECT_EQ(metadata_of(reopened), stored);
  // The forms are written back as given.
  rapidjson::Document doc;
  doc.Parse(stored.c_str());
  rapidjson::Document expected;
  expected.Parse(shapes.c_str());
  EXPECT_TRUE(doc["chunk_grid"]["configuration"]["chunk_shapes"] == expected) << stored;
  EXPECT_STREQ(doc["chunk_grid"]["configuration"]["kind"].GetString(), "inline");
}

TEST(Rectilinear, RegionsAcrossUnevenChunksMatchAModel) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", rect_meta("[23, 17]", "[[1, [3, 2], 5, [4, 3], 6], [[2, 3], 1, 10]]"));
  EXPECT_EQ(boundaries(a, 0), (std::vector<uint64_t>{0, 1, 4, 7, 12, 16, 20, 23}));
  EXPECT_EQ(boundaries(a, 1), (std::vector<uint64_t>{0, 2, 4, 6, 7, 17}));
  check_against_model(a, 23, 17, 1);
  ArrayPtr compressed =
      create_array(dir / "b", rect_meta("[23, 17]", "[[1, [3, 2], 5, [4, 3], 6], 5]", "int32",
                                        R"([{"name": "bytes", "configuration": {"endian": "big"}}, {"name": "gzip", "configuration": {"level": 1}}])"));
  check_against_model(compressed, 23, 17, 2);
  ArrayPtr transposed =
      create_array(dir / "c", rect_meta("[23, 17]", "[[5, 7, 11], [[3, 6]]]", "int32",
                                        R"([{"name": "transpose", "configuration": {"order": [1, 0]}}, {"name": "bytes", "configuration": {"endian": "little"}}])"));
  check_against_model(transposed, 23, 17, 3);
}

TEST(Rectilinear, ShardsOfDifferentShapesHoldRegularInnerChunks) {
  TempDir dir;
  const std::string sharding =
      R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 3], "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}], "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}])";
  ArrayPtr a = create_array(dir / "a", rect_meta("[12, 12]", "[[4, 2, 6], [3, [6, 1], 3]]", "int32", sharding));
  check_against_model(a, 12, 12, 4);
  EXPECT_EQ(read_all<int32_t>(open_array(dir / "a")), read_all<int32_t>(a));
  // A shard whose shape the inner chunks do not divide is refused by name.
  ArrayPtr bad = create_array(dir / "b", rect_meta("[5, 6]", "[[4, 1], 6]", "int32", sharding));
  std::vector<int32_t> row(6, 1);
  EXPECT_STATUS(write_region(bad, {4, 0}, {1, 6}, row), ZARR_ERR_INVALID_METADATA, "shape [1, 6]");
}

TEST(Rectilinear, ResizeMovesTheShapeWithinTheEdges) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", rect_meta("[6]", "[[[2, 3], 5]]"), "{}");
  ArrayPtr w = open_array(dir / "a", "r+");
  std::vector<int32_t> data = {1, 2, 3, 4, 5, 6};
  ASSERT_OK(write_region(w, {0}, {6}, data));
  uint64_t smaller[] = {3};
  ASSERT_OK(zarr_resize(w, 1, smaller));
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{"c/0", "c/1", "zarr.json"}));
  EXPECT_EQ(boundaries(w, 0), (std::vector<uint64_t>{0, 2, 3}));
  uint64_t larger[] = {11};  // into the overflow chunk the metadata declares
  ASSERT_OK(zarr_resize(w, 1, larger));
  EXPECT_EQ(read_all<int32_t>(w), (std::vector<int32_t>{1, 2, 3, 4, 7, 7, 7, 7, 7, 7, 7}));
  EXPECT_EQ(boundaries(w, 0), (std::vector<uint64_t>{0, 2, 4, 6, 11}));
  uint64_t past[] = {12};
  EXPECT_STATUS(zarr_resize(w, 1, past), ZARR_ERR_INVALID_ARGUMENT, "edges on axis 0, which end at 11");
  EXPECT_EQ(boundaries(open_array(dir / "a"), 0), (std::vector<uint64_t>{0, 2, 4, 6, 11}));
}

TEST(Rectilinear, EveryMalformedChunkShapesIsRefusedByName) {
  TempDir dir;
  const uint64_t max = UINT64_MAX;
  const std::string m = std::to_string(max);
  struct Case {
    std::string shape, shapes, fragment;
    int status = ZARR_ERR_INVALID_METADATA;
  };
  const std::vector<Case> cases = {
      {"[4]", "[0]", "chunk_shapes[0]: must be a positive integer"},
      {"[4]", "[-1]", "chunk_shapes[0]: must be a positive integer"},
      {"[4]", "[1.5]", "chunk_shapes[0]: must be a positive integer"},
      {"[4]", "[[2, 0]]", "chunk_shapes[0][1]: must be a positive integer"},
      {"[4]", "[[[0, 4]]]", "chunk_shapes[0][0][0]: must be a positive integer"},
      {"[4]", "[[[2]]]", "a run must be [value, count]"},
      {"[4]", "[[[2, 1, 1]]]", "a run must be [value, count]"},
      {"[4]", "[[]]", "needs at least one edge length"},
      {"[4]", "[[1, 2]]", "the edge lengths sum to 3, less than the extent 4"},
      {"[4]", "[[[1, 3]]]", "sum to 3, less than the extent 4"},
      {"[4, 4]", "[4]", "chunk_shapes has 1 dimensions but 'shape' has 2"},
      {"[4]", "[[[1, " + m + "], 1]]", "more than 2^64 - 1 chunks"},
      {"[4]", "[[[1, " + m + "], [1, " + m + "]]]", "more than 2^64 - 1 chunks"},
      {"[4]", "[[[1, 18446744073709551616]]]", "chunk_shapes[0][0][1]: must be a positive integer"},
      {"[4]", "[[[4611686018427387904, 2]]]", "one chunk's byte size overflows"},
  };
  for (const Case& c : cases) {
    zarr_array* out = nullptr;
    EXPECT_STATUS(zarr_create(&out, (dir / "x").c_str(), rect_meta(c.shape, c.shapes).c_str()), c.status, c.fragment);
    EXPECT_EQ(out, nullptr) << c.shapes;
  }
  zarr_array* out = nullptr;
  std::string kind = rect_meta("[4]", "[4]");
  kind.replace(kind.find("\"inline\""), 8, "\"file\"");
  EXPECT_STATUS(zarr_create(&out, (dir / "x").c_str(), kind.c_str()), ZARR_ERR_UNSUPPORTED, "kind \"file\"");
  std::string missing = rect_meta("[4]", "[4]");
  missing.replace(missing.find("\"kind\": \"inline\", "), 18, "");
  EXPECT_STATUS(zarr_create(&out, (dir / "x").c_str(), missing.c_str()), ZARR_ERR_INVALID_METADATA, "\"kind\"");
}

// A run of 2^64 - 1 chunks of one element is a few bytes of metadata: it is
// searched, never expanded, and its last element is reachable.
TEST(Rectilinear, ARunOfTwoToTheSixtyFourChunksIsSearchedNotExpanded) {
  TempDir dir;
  const std::string m = std::to_string(UINT64_MAX);
  ArrayPtr a = create_array(dir / "a", rect_meta("[" + m + "]", "[[[1, " + m + "]]]", "uint8", R"([{"name": "bytes"}])"));
  size_t count = 0;
  EXPECT_STATUS(zarr_chunk_boundaries(a, 0, nullptr, 0, &count), ZARR_ERR_BUFFER_SIZE, "need 2^64");
  EXPECT_EQ(count, SIZE_MAX);
  ASSERT_OK(write_region<uint8_t>(a, {UINT64_MAX - 2}, {2}, {5, 6}));
  EXPECT_EQ(read_region<uint8_t>(a, {UINT64_MAX - 3}, {3}), (std::vector<uint8_t>{7, 5, 6}));
  EXPECT_EQ(read_file(dir / "a/c/" + std::to_string(UINT64_MAX - 2)).size(), 1u);
  // Edges whose sum passes 2^64: the chunks past it are never reached.
  ArrayPtr b = create_array(dir / "b", rect_meta("[" + m + "]", "[[[3, 6148914691236517205], [2, 4], 9]]", "uint8",
                                                 R"([{"name": "bytes"}])"));
  ASSERT_OK(write_region<uint8_t>(b, {UINT64_MAX - 1}, {1}, {9}));
  EXPECT_EQ(read_region<uint8_t>(b, {UINT64_MAX - 1}, {1}), (std::vector<uint8_t>{9}));
  EXPECT_EQ(read_file(dir / "b/c/6148914691236517204").size(), 3u);  // 3 x 6148914691236517205 = 2^64 - 1
}

TEST(Rectilinear, RegularGridsAnswerChunkBoundariesToo) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[10, 0]", "[4, 3]"));
  EXPECT_EQ(boundaries(a, 0), (std::vector<uint64_t>{0, 4, 8, 10}));
  EXPECT_EQ(boundaries(a, 1), (std::vector<uint64_t>{0}));
  uint64_t out[3] = {1, 1, 1};
  size_t count = 0;
  EXPECT_STATUS(zarr_chunk_boundaries(a, 0, out, 3, &count), ZARR_ERR_BUFFER_SIZE, "out holds 3 entries");
  EXPECT_EQ(count, 4u);
  EXPECT_EQ(out[0], 1u);  // nothing written
  EXPECT_STATUS(zarr_chunk_boundaries(a, 2, out, 3, &count), ZARR_ERR_INVALID_ARGUMENT, "axis 2 is not below");
  EXPECT_STATUS(zarr_chunk_boundaries(a, 0, out, 3, nullptr), ZARR_ERR_INVALID_ARGUMENT, "count");
  EXPECT_STATUS(zarr_chunk_boundaries(nullptr, 0, out, 3, &count), ZARR_ERR_INVALID_ARGUMENT, "array");
}

TEST(Rectilinear, InfoAndStoredChunks) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", rect_meta("[5, 4]", "[[2, 3], [[1, 4]]]"));
  ASSERT_OK(write_region<int32_t>(a, {1, 0}, {2, 1}, {1, 2}));
  rapidjson::Document info = info_of(a);
  EXPECT_EQ(info["chunks_total"].GetUint64(), 8u);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 2u);
  EXPECT_STREQ(info["chunk_grid"]["name"].GetString(), "rectilinear");
  EXPECT_EQ(info["chunks"][0].GetUint64(), 3u);  // the largest edges
  uint64_t chunk_shape[2];
  ASSERT_OK(zarr_chunk_shape(a, chunk_shape));
  EXPECT_EQ(chunk_shape[0], 3u);
  char* stored = nullptr;
  ASSERT_OK(zarr_stored_chunks(a, &stored));
  EXPECT_STREQ(stored, R"({"chunks":[[0,0],[1,0]],"stray_keys":[]})");
  zarr_free(stored);
}

namespace {

// The arrays of the selection tests: [23, 17] int32 over uneven chunks, with
// each kind of codec chain (chunks of their own shape decoded into place, a
// compressor, an array->array codec, shards of different shapes).
std::vector<std::pair<std::string, std::string>> selection_arrays() {
  const std::string rows = "[1, [3, 2], 5, [4, 3], 6]";
  return {
      {"bytes", rect_meta("[23, 17]", "[" + rows + ", [[2, 3], 1, 10]]")},
      {"gzip", rect_meta("[23, 17]", "[" + rows + ", 5]", "int32",
                         R"([{"name": "bytes", "configuration": {"endian": "big"}}, {"name": "gzip", "configuration": {"level": 1}}])")},
      {"transpose", rect_meta("[23, 17]", "[[5, 7, 11], [[3, 6]]]", "int32",
                              R"([{"name": "transpose", "configuration": {"order": [1, 0]}}, {"name": "bytes", "configuration": {"endian": "little"}}])")},
      {"sharded", rect_meta("[23, 17]", "[[4, 8, [2, 6]], [6, 12]]", "int32",
                            R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 3], "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}]}}])")},
  };
}

// Indices along an axis of `extent`: unsorted, repeated, crossing chunks.
std::vector<uint64_t> scattered_indices(uint64_t extent, std::mt19937& rng, size_t n) {
  std::vector<uint64_t> out;
  for (size_t i = 0; i < n; ++i) out.push_back(rng() % extent);
  return out;
}

}  // namespace

// zarr_read_/zarr_write_orthogonal, _points and _region_step on rectilinear
// grids, against a whole-array model (Model: what the C order array holds).
TEST(Rectilinear, SelectionsReadAndWriteAsAWholeArrayModelSays) {
  for (const auto& [name, meta] : selection_arrays()) {
    SCOPED_TRACE(name);
    TempDir dir;
    ArrayPtr a = create_array(dir / "a", meta);
    Model model(23, 17, 7);
    std::vector<int32_t> all(23 * 17);
    std::iota(all.begin(), all.end(), 1);
    ASSERT_OK(write_region(a, {0, 0}, {23, 17}, all));
    model.data = all;
    std::mt19937 rng(11);
    for (int round = 0; round < 6; ++round) {
      // Orthogonal: read, then write new values at the same picks.
      const std::vector<uint64_t> rows = scattered_indices(23, rng, 9), cols = scattered_indices(17, rng, 5);
      const uint64_t* indices[] = {rows.data(), cols.data()};
      const uint64_t counts[] = {rows.size(), cols.size()};
      std::vector<int32_t> got(rows.size() * cols.size()), want;
      ASSERT_OK(zarr_read_orthogonal(a, 2, indices, counts, got.data(), got.size() * 4));
      for (uint64_t r : rows)
        for (uint64_t c : cols) want.push_back(model.data[r * 17 + c]);
      EXPECT_EQ(got, want) << "orthogonal read, round " << round;
      std::vector<int32_t> put(got.size());
      std::iota(put.begin(), put.end(), 1000 * (round + 1));
      ASSERT_OK(zarr_write_orthogonal(a, 2, indices, counts, put.data(), put.size() * 4));
      for (size_t i = 0; i < rows.size(); ++i)  // a repeated pick keeps the later value, as NumPy's
        for (size_t j = 0; j < cols.size(); ++j) model.data[rows[i] * 17 + cols[j]] = put[i * cols.size() + j];
      // Points.
      std::vector<uint64_t> coords;
      for (int p = 0; p < 12; ++p) {
        coords.push_back(rng() % 23);
        coords.push_back(rng() % 17);
      }
      std::vector<int32_t> points(12);
      ASSERT_OK(zarr_read_points(a, 2, 12, coords.data(), points.data(), points.size() * 4));
      for (int p = 0; p < 12; ++p) EXPECT_EQ(points[p], model.data[coords[2 * p] * 17 + coords[2 * p + 1]]) << p;
      std::vector<int32_t> values(12);
      std::iota(values.begin(), values.end(), -100 * (round + 1));
      ASSERT_OK(zarr_write_points(a, 2, 12, coords.data(), values.data(), values.size() * 4));
      for (int p = 0; p < 12; ++p) model.data[coords[2 * p] * 17 + coords[2 * p + 1]] = values[p];
      // Steps.
      const uint64_t start[] = {rng() % 5, rng() % 4}, step[] = {1 + rng() % 4, 1 + rng() % 5};
      const uint64_t count[] = {(22 - start[0]) / step[0] + 1, (16 - start[1]) / step[1] + 1};
      std::vector<int32_t> strided(count[0] * count[1]);
      ASSERT_OK(zarr_read_region_step(a, 2, start, count, step, strided.data(), strided.size() * 4));
      for (uint64_t i = 0; i < count[0]; ++i)
        for (uint64_t j = 0; j < count[1]; ++j)
          ASSERT_EQ(strided[i * count[1] + j], model.data[(start[0] + i * step[0]) * 17 + start[1] + j * step[1]]);
      std::iota(strided.begin(), strided.end(), 5000 * (round + 1));
      ASSERT_OK(zarr_write_region_step(a, 2, start, count, step, strided.data(), strided.size() * 4));
      for (uint64_t i = 0; i < count[0]; ++i)
        for (uint64_t j = 0; j < count[1]; ++j)
          model.data[(start[0] + i * step[0]) * 17 + start[1] + j * step[1]] = strided[i * count[1] + j];
      ASSERT_EQ(read_all<int32_t>(a), model.data) << "round " << round;
    }
    EXPECT_EQ(read_all<int32_t>(open_array(dir / "a")), model.data);
  }
}

TEST(Rectilinear, SelectionsOutsideTheShapeAreRefusedByAxisAndWriteNothing) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", rect_meta("[5, 4]", "[[2, 3], [[1, 4]]]"));
  const uint64_t rows[] = {0, 5}, cols[] = {1};
  const uint64_t* indices[] = {rows, cols};
  const uint64_t counts[] = {2, 1};
  int32_t out[4] = {};
  EXPECT_STATUS(zarr_read_orthogonal(a, 2, indices, counts, out, 8), ZARR_ERR_OUT_OF_BOUNDS,
                "on axis 0 is index 5, outside the array's extent 5");
  EXPECT_STATUS(zarr_write_orthogonal(a, 2, indices, counts, out, 8), ZARR_ERR_OUT_OF_BOUNDS, "axis 0");
  const uint64_t coords[] = {4, 3, 1, 4};
  EXPECT_STATUS(zarr_write_points(a, 2, 2, coords, out, 8), ZARR_ERR_OUT_OF_BOUNDS,
                "point 1 on axis 1 is index 4");
  const uint64_t start[] = {0, 0}, count[] = {3, 2}, step[] = {2, 0};
  EXPECT_STATUS(zarr_read_region_step(a, 2, start, count, step, out, 24), ZARR_ERR_INVALID_ARGUMENT,
                "step on axis 1 is 0");
  const uint64_t far[] = {3, 1};
  EXPECT_STATUS(zarr_write_region_step(a, 2, start, count, far, out, 24), ZARR_ERR_OUT_OF_BOUNDS,
                "the last element on axis 0 is index 6");
  EXPECT_EQ(list_files(dir / "a"), std::vector<std::string>{"zarr.json"});
}

// Strings over a rectilinear grid: regions and every _vlen selection, one
// chunk of each shape encoded by its own chain.
TEST(Rectilinear, VariableLengthStringsInRegionsAndSelections) {
  TempDir dir;
  const std::string meta = R"({"zarr_format": 3, "node_type": "array", "shape": [9, 7], "data_type": "string",
    "chunk_grid": {"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": [[1, [3, 2], 2], [4, 3]]}},
    "fill_value": "-", "codecs": [{"name": "vlen-utf8", "configuration": {}}, {"name": "zstd", "configuration": {"level": 1}}]})";
  ArrayPtr a = create_array(dir / "a", meta);
  const std::vector<std::string> strings = vlen_strings("s", 0, 9 * 7);
  std::vector<std::string> model(9 * 7, "-");
  ASSERT_OK(write_strings(a, {1, 2}, {7, 4}, std::vector<std::string>(strings.begin(), strings.begin() + 28)));
  for (uint64_t i = 0; i < 7; ++i)
    for (uint64_t j = 0; j < 4; ++j) model[(1 + i) * 7 + 2 + j] = strings[i * 4 + j];
  EXPECT_EQ(read_strings(a, {0, 0}, {9, 7}), model);
  EXPECT_EQ(read_strings(a, {3, 3}, {4, 3}),
            (std::vector<std::string>{model[24], model[25], model[26], model[31], model[32], model[33], model[38],
                                      model[39], model[40], model[45], model[46], model[47]}));
  // Orthogonal write then read.
  const uint64_t rows[] = {8, 0, 4}, cols[] = {6, 1};
  const uint64_t* indices[] = {rows, cols};
  const uint64_t counts[] = {3, 2};
  const std::vector<std::string> put = {"a", "", "ccc", "dé", "e", "ffffff"};
  const VlenItems items(put);
  ASSERT_OK(zarr_write_orthogonal_vlen(a, 2, indices, counts, items.offsets.data(), items.offsets.size(),
                                       items.data.data(), items.data.size()));
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < 2; ++j) model[rows[i] * 7 + cols[j]] = put[i * 2 + j];
  std::vector<uint64_t> offsets(7);
  std::string data(64, '\0');
  size_t size = 0;
  ASSERT_OK(zarr_read_orthogonal_vlen(a, 2, indices, counts, offsets.data(), offsets.size(), data.data(),
                                      data.size(), &size));
  for (size_t k = 0; k < 6; ++k) EXPECT_EQ(data.substr(offsets[k], offsets[k + 1] - offsets[k]), put[k]) << k;
  // Points and steps.
  const uint64_t coords[] = {5, 5, 1, 2, 8, 0};
  const VlenItems three(std::vector<std::string>{"p0", "p1", "p2"});
  ASSERT_OK(zarr_write_points_vlen(a, 2, 3, coords, three.offsets.data(), 4, three.data.data(), three.data.size()));
  model[5 * 7 + 5] = "p0";
  model[1 * 7 + 2] = "p1";
  model[8 * 7 + 0] = "p2";
  const uint64_t start[] = {0, 1}, count[] = {3, 2}, step[] = {4, 5};
  std::vector<uint64_t> step_offsets(7);
  ASSERT_OK(zarr_read_region_step_vlen(a, 2, start, count, step, step_offsets.data(), 7, data.data(), data.size(),
                                       &size));
  for (uint64_t i = 0; i < 3; ++i)
    for (uint64_t j = 0; j < 2; ++j) {
      const size_t k = i * 2 + j;
      EXPECT_EQ(data.substr(step_offsets[k], step_offsets[k + 1] - step_offsets[k]), model[i * 4 * 7 + 1 + j * 5]);
    }
  EXPECT_EQ(read_strings(open_array(dir / "a"), {0, 0}, {9, 7}), model);
  // Chunk (3, 1) holds rows 7..8, columns 4..6: stored at its own shape.
  EXPECT_TRUE(std::filesystem::exists(dir / "a/c/3/1"));
}

// The cache_pool serves a rectilinear grid's chunks, each at its own shape:
// after a first read, the chunk files can go and the values stay.
TEST(Rectilinear, TheCachePoolKeepsChunksOfEveryShape) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", rect_meta("[10, 6]", "[[1, 4, 5], [2, 4]]", "int32",
                                                 R"([{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}])"));
  std::vector<int32_t> all(60);
  std::iota(all.begin(), all.end(), 0);
  ASSERT_OK(write_region(a, {0, 0}, {10, 6}, all));
  ArrayPtr cached;
  ASSERT_OK(zarr_open_ex(cached.out(), (dir / "a").c_str(), "r", R"({"cache_pool": {"total_bytes_limit": 1048576}})"));
  EXPECT_EQ(read_all<int32_t>(cached), all);
  EXPECT_EQ(info_of(cached)["cache_pool"]["chunks_held"].GetUint64(), 6u);
  std::filesystem::remove_all(dir / "a/c");
  EXPECT_EQ(read_all<int32_t>(cached), all) << "every chunk from the cache";
  EXPECT_EQ(read_region<int32_t>(cached, {4, 1}, {2, 3}), (std::vector<int32_t>{25, 26, 27, 31, 32, 33}));
  EXPECT_EQ(read_all<int32_t>(open_array(dir / "a")), std::vector<int32_t>(60, 7)) << "without a cache: gone";
}

namespace {

// {"driver": "zarr3", "kvstore": {"driver": "file", "path": url}, <extra>}
std::string zarr3_spec(const std::string& url, const std::string& extra = "") {
  return R"({"driver": "zarr3", "kvstore": {"driver": "file", "path": ")" + url + "\"}" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

}  // namespace

// zarr_open_spec on a rectilinear array: reads and writes across chunks of
// every shape match a model, the boundaries are the grid's, and the spec's
// constraints are checked against the stored grid.
TEST(Rectilinear, OpenSpecReadsAndWritesAcrossTheGrid) {
  TempDir dir;
  const std::string grid = R"({"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": )"
                           R"([[1, [3, 2], 5, [4, 3], 6], [[2, 3], 1, 10]]}})";
  create_array(dir / "a", rect_meta("[23, 17]", "[[1, [3, 2], 5, [4, 3], 6], [[2, 3], 1, 10]]"));
  ArrayPtr a;
  ASSERT_OK(zarr_open_spec(a.out(), zarr3_spec(dir / "a", R"("dtype": "int32", "rank": 2)").c_str()));
  EXPECT_EQ(boundaries(a, 0), (std::vector<uint64_t>{0, 1, 4, 7, 12, 16, 20, 23}));
  EXPECT_EQ(boundaries(a, 1), (std::vector<uint64_t>{0, 2, 4, 6, 7, 17}));
  check_against_model(a, 23, 17, 4);
  ArrayPtr same;
  ASSERT_OK(zarr_open_spec(same.out(), zarr3_spec(dir / "a", R"("metadata": {"chunk_grid": )" + grid + "}").c_str()));
  EXPECT_EQ(read_all<int32_t>(same), read_all<int32_t>(a));
  ArrayPtr other;
  EXPECT_STATUS(zarr_open_spec(other.out(), zarr3_spec(dir / "a", R"("metadata": {"chunk_grid": )"
                                                                  R"({"name": "regular", "configuration": )"
                                                                  R"({"chunk_shape": [6, 10]}}})")
                                                  .c_str()),
                ZARR_ERR_INVALID_METADATA, "metadata.chunk_grid");
}

// A spec creates a rectilinear array from its metadata's chunk_grid.
TEST(Rectilinear, OpenSpecCreatesFromTheMetadatasGrid) {
  TempDir dir;
  ArrayPtr a;
  ASSERT_OK(zarr_open_spec(a.out(), zarr3_spec(dir / "a", R"("create": true, "metadata": {"shape": [10], )"
                                                          R"("data_type": "int32", "chunk_grid": {"name": )"
                                                          R"("rectilinear", "configuration": {"kind": "inline", )"
                                                          R"("chunk_shapes": [[3, 7]]}}})")
                                        .c_str()));
  EXPECT_EQ(boundaries(a, 0), (std::vector<uint64_t>{0, 3, 10}));
  std::vector<int32_t> values(10);
  std::iota(values.begin(), values.end(), 1);
  EXPECT_EQ(write_then_read_all<int32_t>(a, {0}, {10}, values), values);
  EXPECT_TRUE(std::filesystem::exists(dir / "a/c/1")) << "the 7-element chunk";
}

// "field" on a v3 struct array of a rectilinear grid: the field's elements
// across chunks of different lengths, the other field untouched.
TEST(Rectilinear, OpenSpecFieldOfAStructArray) {
  TempDir dir;
  create_array(dir / "a", R"({"zarr_format": 3, "node_type": "array", "shape": [10], "data_type": {"name": "struct",
      "configuration": {"fields": [{"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}},
      "chunk_grid": {"name": "rectilinear", "configuration": {"kind": "inline", "chunk_shapes": [[3, 2, 5]]}},
      "chunk_key_encoding": {"name": "default"}, "fill_value": {"x": 1.0, "y": 0.0},
      "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]})");
  ArrayPtr y;
  ASSERT_OK(zarr_open_spec(y.out(), zarr3_spec(dir / "a", R"("field": "y")").c_str()));
  ASSERT_OK(write_region<float>(y, {2}, {5}, {2, 3, 4, 5, 6}));
  EXPECT_EQ(read_region<float>(y, {1}, {7}), (std::vector<float>{0, 2, 3, 4, 5, 6, 0}));
  ArrayPtr whole = open_array(dir / "a");
  EXPECT_EQ(read_region<float>(whole, {1}, {6}), (std::vector<float>{1, 0, 1, 2, 1, 3, 1, 4, 1, 5, 1, 6}));
}

// schema.chunk_layout's hard chunk shape holds along an axis of a regular
// step only: a rectilinear axis has no one chunk extent (its largest edge,
// which zarr_chunk_shape gives, is not the shape of every chunk).
TEST(Rectilinear, OpenSpecChunkLayoutHoldsOnlyAlongRegularAxes) {
  TempDir dir;
  create_array(dir / "a", rect_meta("[23, 17]", "[[1, [3, 2], 5, [4, 3], 6], 5]"));
  auto layout = [&](const std::string& shape) {
    return zarr3_spec(dir / "a", R"("schema": {"chunk_layout": {"chunk": {"shape": )" + shape + "}}}");
  };
  ArrayPtr a;
  ASSERT_OK(zarr_open_spec(a.out(), layout("[0, 5]").c_str()));
  ASSERT_OK(zarr_open_spec(a.out(), layout("[0, 0]").c_str()));
  EXPECT_STATUS(zarr_open_spec(a.out(), layout("[6, 5]").c_str()), ZARR_ERR_INVALID_METADATA,
                "but stored a rectilinear axis 0");
  EXPECT_STATUS(zarr_open_spec(a.out(), layout("[0, 4]").c_str()), ZARR_ERR_INVALID_METADATA,
                "schema.chunk_layout shape");
}
