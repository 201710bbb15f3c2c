// The zarr-extensions "rectilinear" chunk grid
// (specs/zarr-extensions/chunk-grids/rectilinear): every form of
// chunk_shapes, region I/O over chunks of different shapes against a model,
// resize, sharding inside it, hostile run lengths, and zarr_chunk_boundaries
// (which regular grids answer too).
#include <cstdint>
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

TEST(Rectilinear, InfoStoredChunksAndTheUnsupportedPathsSaySo) {
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
  uint64_t start[] = {0, 0}, count[] = {2, 2}, step[] = {2, 1};
  int32_t out[4];
  EXPECT_STATUS(zarr_read_region_step(a, 2, start, count, step, out, sizeof out), ZARR_ERR_UNSUPPORTED,
                "rectilinear chunk grid");
}
