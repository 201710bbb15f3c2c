// The selections' _vlen forms, of variable-length elements (docs/c-api.md,
// "Variable-length elements"): zarr_read_orthogonal_vlen / _points_vlen /
// _region_step_vlen against element-by-element region reads, and
// zarr_write_orthogonal_vlen / _points_vlen / _region_step_vlen against a
// model of the array, on v2 (vlen-utf8, vlen-bytes, json2) and v3 (string,
// variable_length_bytes, sharded) arrays; every refusal with its code and
// what it names, and that a refused write writes nothing.
#include <filesystem>
#include <functional>
#include <random>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

// The _vlen reads: zarr_read_orthogonal_vlen, zarr_read_points_vlen and
// zarr_read_region_step_vlen, against element-by-element region reads.
namespace {

// A _vlen read of n elements: sized with capacity 0 first, then read.
using VlenRead = std::function<int(uint64_t* offsets, size_t n_offsets, void* data, size_t capacity, size_t* size)>;

std::vector<std::string> read_vlen(size_t n, const VlenRead& read) {
  std::vector<uint64_t> offsets(n + 1);
  size_t needed = 0;
  const int sized = read(offsets.data(), offsets.size(), nullptr, 0, &needed);
  EXPECT_TRUE(sized == ZARR_OK || sized == ZARR_ERR_BUFFER_SIZE) << status_text(sized) << zarr_last_error();
  std::string data(needed, '\0');
  EXPECT_STATUS(read(offsets.data(), offsets.size(), data.data(), data.size(), &needed), ZARR_OK, "");
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) out.push_back(data.substr(offsets[i], offsets[i + 1] - offsets[i]));
  return out;
}

std::string string_at(zarr_array* a, uint64_t i, uint64_t j) { return read_strings(a, {i, j}, {1, 1})[0]; }

// A fixed-size array ([7, 5] int32, chunks of [3, 2]), for the calls that refuse it.
ArrayPtr numbers(const TempDir& dir) { return create_array(dir / "numbers", array_meta("[7, 5]", "[3, 2]")); }

// Strings "r<i>c<j>" (every third one longer) in a [7, 5] array, chunks of [3, 2]
// (a sharded array: shards of [6, 4] holding those), rows 6 and columns 0..1
// of row 5 left unwritten (the fill value).
void write_numbered_strings(zarr_array* a) {
  std::vector<std::string> items;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 5; ++j) {
      items.push_back("r" + std::to_string(i) + "c" + std::to_string(j) + std::string((i * 5 + j) % 3 * 4, '~'));
    }
  }
  ASSERT_OK(write_strings(a, {0, 0}, {5, 5}, std::vector<std::string>(items.begin(), items.begin() + 25)));
  ASSERT_OK(write_strings(a, {5, 2}, {1, 3}, std::vector<std::string>(items.begin() + 27, items.end())));
}

std::vector<std::pair<std::string, std::string>> string_arrays() {
  const std::string v3 = R"("shape": [7, 5], "data_type": "string", "fill_value": "-", )";
  return {
      {"v3 string", "{" + v3 + R"("chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3, 2]}},
        "codecs": [{"name": "vlen-utf8", "configuration": {}}, {"name": "zstd", "configuration": {"level": 1}}]})"},
      {"v3 sharded string", "{" + v3 + R"("chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [6, 4]}},
        "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [3, 2],
        "codecs": [{"name": "vlen-utf8"}, {"name": "gzip", "configuration": {"level": 1}}]}}]})"},
      {"v2 vlen-utf8", array_meta("[7, 5]", "[3, 2]", "|O", {{"filters", R"([{"id": "vlen-utf8"}])"},
                                                             {"compressor", R"({"id": "zlib", "level": 1})"}})},
      {"v2 vlen-bytes", array_meta("[7, 5]", "[3, 2]", "|O", {{"filters", R"([{"id": "vlen-bytes"}])"}})},
      {"v2 json2", array_meta("[7, 5]", "[3, 2]", "|O", {{"filters", R"([{"id": "json2"}])"}})},
      {"v3 variable_length_bytes", R"({"shape": [7, 5], "data_type": "variable_length_bytes", "fill_value": "LQ==",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3, 2]}},
        "codecs": [{"name": "vlen-bytes", "configuration": {}}]})"},
  };
}

}  // namespace

TEST(Selections, VlenReadsMatchRegionReadsOfEachElementOnEveryKindOfStringArray) {
  TempDir dir;
  for (const auto& [name, metadata] : string_arrays()) {
    SCOPED_TRACE(name);
    ArrayPtr a = create_array(dir / name, metadata);
    write_numbered_strings(a);
    const std::vector<uint64_t> rows = {6, 0, 5, 5, 3}, cols = {4, 1, 0, 2, 2};
    const uint64_t* indices[2] = {rows.data(), cols.data()};
    const uint64_t counts[2] = {rows.size(), cols.size()};
    const std::vector<std::string> outer = read_vlen(25, [&](uint64_t* o, size_t n, void* d, size_t c, size_t* s) {
      return zarr_read_orthogonal_vlen(a, 2, indices, counts, o, n, d, c, s);
    });
    for (size_t i = 0; i < 5; ++i) {
      for (size_t j = 0; j < 5; ++j) EXPECT_EQ(outer[i * 5 + j], string_at(a, rows[i], cols[j])) << i << "," << j;
    }
    std::mt19937 random(22);
    std::vector<uint64_t> coords;
    for (int p = 0; p < 60; ++p) coords.insert(coords.end(), {random() % 7, random() % 5});
    const std::vector<std::string> points = read_vlen(60, [&](uint64_t* o, size_t n, void* d, size_t c, size_t* s) {
      return zarr_read_points_vlen(a, 2, 60, coords.data(), o, n, d, c, s);
    });
    for (size_t p = 0; p < 60; ++p) EXPECT_EQ(points[p], string_at(a, coords[2 * p], coords[2 * p + 1])) << p;
    const uint64_t start[2] = {1, 0}, count[2] = {3, 3}, step[2] = {2, 2};
    const std::vector<std::string> slab = read_vlen(9, [&](uint64_t* o, size_t n, void* d, size_t c, size_t* s) {
      return zarr_read_region_step_vlen(a, 2, start, count, step, o, n, d, c, s);
    });
    for (uint64_t i = 0; i < 3; ++i) {
      for (uint64_t j = 0; j < 3; ++j) EXPECT_EQ(slab[i * 3 + j], string_at(a, 1 + 2 * i, 2 * j));
    }
    EXPECT_EQ(string_at(a, 6, 0), name.rfind("v3", 0) == 0 ? "-" : "") << "a fill value is read";
  }
}

TEST(Selections, VlenReadErrorsNameTheirProblem) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", string_arrays()[0].second);
  write_numbered_strings(a);
  const uint64_t rows[2] = {0, 3}, cols[2] = {1, 5};
  const uint64_t* indices[2] = {rows, cols};
  const uint64_t counts[2] = {2, 2};
  uint64_t offsets[5] = {9, 9, 9, 9, 9};
  char data[64];
  size_t needed = 7;
  // An index outside the shape: the axis and the index.
  EXPECT_STATUS(zarr_read_orthogonal_vlen(a, 2, indices, counts, offsets, 5, data, 64, &needed),
                ZARR_ERR_OUT_OF_BOUNDS, "entry 1 of the indices on axis 1 is index 5, outside the array's extent 5");
  EXPECT_NE(std::string(zarr_last_error()).find("zarr_read_orthogonal_vlen"), std::string::npos);
  const uint64_t coords[4] = {0, 0, 7, 0};
  EXPECT_STATUS(zarr_read_points_vlen(a, 2, 2, coords, offsets, 3, data, 64, &needed), ZARR_ERR_OUT_OF_BOUNDS,
                "point 1 on axis 0 is index 7");
  const uint64_t start[2] = {0, 1}, count[2] = {1, 3}, step[2] = {1, 2};
  EXPECT_STATUS(zarr_read_region_step_vlen(a, 2, start, count, step, offsets, 4, data, 64, &needed),
                ZARR_ERR_OUT_OF_BOUNDS, "the last element on axis 1 is index 5");
  // offsets of another length than the selection's elements + 1.
  const uint64_t good_cols[2] = {1, 4};
  const uint64_t* good[2] = {rows, good_cols};
  EXPECT_STATUS(zarr_read_orthogonal_vlen(a, 2, good, counts, offsets, 4, data, 64, &needed), ZARR_ERR_BUFFER_SIZE,
                "offsets holds 4 entries, the selection of 4 elements needs 5");
  EXPECT_STATUS(zarr_read_points_vlen(a, 2, 1, coords, offsets, 3, data, 64, &needed), ZARR_ERR_BUFFER_SIZE,
                "needs 2");
  const uint64_t inside[2] = {1, 1};
  EXPECT_STATUS(zarr_read_region_step_vlen(a, 2, start, count, inside, offsets, 5, data, 64, &needed),
                ZARR_ERR_BUFFER_SIZE, "needs 4");
  const uint64_t huge[2] = {uint64_t{1} << 32, uint64_t{1} << 32};
  EXPECT_STATUS(zarr_read_orthogonal_vlen(a, 2, good, huge, offsets, 0, data, 64, &needed), ZARR_ERR_BUFFER_SIZE,
                "needs more than 2^64 - 1");
  EXPECT_EQ(offsets[0], 9u) << "nothing written";
  // A data buffer too small: the bytes needed, in the message and *data_size, nothing else written.
  EXPECT_STATUS(zarr_read_orthogonal_vlen(a, 2, good, counts, offsets, 5, data, 3, &needed), ZARR_ERR_BUFFER_SIZE,
                "data buffer is 3 bytes, the selection's elements need 32");
  EXPECT_EQ(needed, 32u);  // "r0c1~~~~", "r0c4~~~~", "r3c1~~~~", "r3c4~~~~"
  EXPECT_EQ(offsets[0], 9u) << "nothing written";
  // Missing arguments.
  EXPECT_STATUS(zarr_read_points_vlen(a, 2, 1, coords, nullptr, 2, data, 64, &needed), ZARR_ERR_INVALID_ARGUMENT,
                "'offsets'");
  EXPECT_STATUS(zarr_read_points_vlen(a, 2, 1, coords, offsets, 2, nullptr, 64, &needed), ZARR_ERR_INVALID_ARGUMENT,
                "'data'");
  EXPECT_STATUS(zarr_read_points_vlen(a, 2, 1, nullptr, offsets, 2, data, 64, &needed), ZARR_ERR_INVALID_ARGUMENT,
                "'coords'");
  EXPECT_STATUS(zarr_read_region_step_vlen(a, 3, start, count, step, offsets, 4, data, 64, &needed),
                ZARR_ERR_INVALID_ARGUMENT, "'ndim' is 3");
  // Fixed-size arrays: the code zarr_read_region_vlen gives, naming the call to use.
  ArrayPtr f = numbers(dir);
  EXPECT_STATUS(zarr_read_orthogonal_vlen(f, 2, good, counts, offsets, 5, data, 64, &needed),
                ZARR_ERR_INVALID_ARGUMENT, "has fixed-size elements: use zarr_read_orthogonal");
  EXPECT_STATUS(zarr_read_points_vlen(f, 2, 1, coords, offsets, 2, data, 64, &needed), ZARR_ERR_INVALID_ARGUMENT,
                "use zarr_read_points");
  EXPECT_STATUS(zarr_read_region_step_vlen(f, 2, start, count, inside, offsets, 4, data, 64, &needed),
                ZARR_ERR_INVALID_ARGUMENT, "use zarr_read_region_step");
  // And the fixed-size forms on strings name their _vlen form.
  int32_t value = 0;
  EXPECT_STATUS(zarr_read_points(a, 2, 1, coords, &value, 0), ZARR_ERR_UNSUPPORTED, "use zarr_read_points_vlen");
}

// An empty selection reads no chunk and writes the one offset; 0-d arrays read their one element.
TEST(Selections, VlenReadsOfEmptySelectionsAndOf0dArrays) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", string_arrays()[0].second);
  const uint64_t none[2] = {0, 3}, cols[3] = {0, 1, 2};
  const uint64_t* no_indices[2] = {nullptr, cols};
  uint64_t offset = 9;
  size_t needed = 9;
  ASSERT_OK(zarr_read_orthogonal_vlen(a, 2, no_indices, none, &offset, 1, nullptr, 0, &needed));
  EXPECT_EQ(offset, 0u);
  EXPECT_EQ(needed, 0u);
  ArrayPtr scalar = create_array(dir / "0d", R"({"shape": [], "data_type": "string", "chunk_grid": {"name": "regular",
    "configuration": {"chunk_shape": []}}, "fill_value": "", "codecs": [{"name": "vlen-utf8", "configuration": {}}]})");
  ASSERT_OK(write_strings(scalar, {}, {}, {"only"}));
  EXPECT_EQ(read_vlen(1, [&](uint64_t* o, size_t n, void* d, size_t c, size_t* s) {
              return zarr_read_points_vlen(scalar, 0, 1, nullptr, o, n, d, c, s);
            }),
            std::vector<std::string>{"only"});
}

// The _vlen writes: zarr_write_orthogonal_vlen, zarr_write_points_vlen and
// zarr_write_region_step_vlen, against a model of the whole array.
namespace {

std::vector<std::string> whole(zarr_array* a) { return read_strings(a, {0, 0}, {7, 5}); }

// An orthogonal write of rows x cols, and the same applied to the model in
// C order of the selection (so the last value of a repeat stays).
void write_orthogonal(zarr_array* a, std::vector<std::string>& model, const std::vector<uint64_t>& rows,
                      const std::vector<uint64_t>& cols, size_t first_value) {
  const std::vector<std::string> items = vlen_strings("w", first_value, rows.size() * cols.size());
  const VlenItems in(items);
  const uint64_t* indices[2] = {rows.data(), cols.data()};
  const uint64_t counts[2] = {rows.size(), cols.size()};
  ASSERT_OK(zarr_write_orthogonal_vlen(a, 2, indices, counts, in.offsets.data(), in.offsets.size(), in.data.data(),
                                       in.data.size()));
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < cols.size(); ++j) model[rows[i] * 5 + cols[j]] = items[i * cols.size() + j];
  }
}

}  // namespace

TEST(Selections, VlenWritesMatchAModelOnEveryKindOfStringArrayAndTheLastValueOfARepeatWins) {
  TempDir dir;
  for (const auto& [name, metadata] : string_arrays()) {
    SCOPED_TRACE(name);
    ArrayPtr a = create_array(dir / name, metadata);
    write_numbered_strings(a);
    std::vector<std::string> model = whole(a);
    // Repeated rows and columns, chunks partly picked, the unwritten row 6.
    write_orthogonal(a, model, {6, 0, 5, 5, 3}, {4, 1, 0, 2, 2}, 0);
    EXPECT_EQ(whole(a), model);
    // Every element of chunk (0, 0) picked (the chunk is not read first), in another order.
    write_orthogonal(a, model, {2, 1, 0}, {1, 0}, 100);
    EXPECT_EQ(whole(a), model);
    std::mt19937 random(23);
    std::vector<uint64_t> coords;
    for (int p = 0; p < 30; ++p) coords.insert(coords.end(), {random() % 7, random() % 5});
    coords.insert(coords.end(), {coords[4], coords[5]});  // point 2 again: the later value wins
    const std::vector<std::string> items = vlen_strings("w", 200, 31);
    const VlenItems points(items);
    ASSERT_OK(zarr_write_points_vlen(a, 2, 31, coords.data(), points.offsets.data(), points.offsets.size(),
                                     points.data.data(), points.data.size()));
    for (size_t p = 0; p < 31; ++p) model[coords[2 * p] * 5 + coords[2 * p + 1]] = items[p];
    EXPECT_EQ(whole(a), model);
    const uint64_t start[2] = {0, 1}, count[2] = {4, 2}, step[2] = {2, 2};
    const std::vector<std::string> slab_items = vlen_strings("w", 300, 8);
    const VlenItems slab(slab_items);
    ASSERT_OK(zarr_write_region_step_vlen(a, 2, start, count, step, slab.offsets.data(), slab.offsets.size(),
                                          slab.data.data(), slab.data.size()));
    for (uint64_t i = 0; i < 4; ++i) {
      for (uint64_t j = 0; j < 2; ++j) model[(2 * i) * 5 + 1 + 2 * j] = slab_items[i * 2 + j];
    }
    EXPECT_EQ(whole(a), model);
    // A new handle reads what was stored.
    ArrayPtr again = open_array(dir / name);
    EXPECT_EQ(whole(again), model);
  }
}

// A chunk left holding only the fill value is erased, as by zarr_write_region_vlen.
TEST(Selections, VlenWritesEraseAChunkLeftHoldingOnlyTheFillValue) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", string_arrays()[0].second);
  const uint64_t coords[4] = {6, 0, 6, 1};
  const VlenItems words({"x", "y"}), fill({"-", "-"});
  ASSERT_OK(zarr_write_points_vlen(a, 2, 2, coords, words.offsets.data(), 3, words.data.data(), words.data.size()));
  EXPECT_TRUE(std::filesystem::exists(dir / "s/c/2/0"));
  ASSERT_OK(zarr_write_points_vlen(a, 2, 2, coords, fill.offsets.data(), 3, fill.data.data(), fill.data.size()));
  EXPECT_FALSE(std::filesystem::exists(dir / "s/c/2/0"));
  EXPECT_EQ(read_strings(a, {6, 0}, {1, 2}), (std::vector<std::string>{"-", "-"}));
}

TEST(Selections, VlenWriteErrorsNameTheirProblemAndWriteNothing) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", string_arrays()[0].second);
  write_numbered_strings(a);
  const std::vector<std::string> before = whole(a);
  const uint64_t rows[2] = {0, 3}, cols[2] = {1, 5}, good_cols[2] = {1, 4};
  const uint64_t* indices[2] = {rows, cols};
  const uint64_t* good[2] = {rows, good_cols};
  const uint64_t counts[2] = {2, 2};
  const VlenItems four({"a", "bb", "", "dddd"});
  const uint64_t* offsets = four.offsets.data();
  const char* data = four.data.data();
  const size_t size = four.data.size();
  // An index outside the shape: the call, the axis and the index.
  EXPECT_STATUS(zarr_write_orthogonal_vlen(a, 2, indices, counts, offsets, 5, data, size), ZARR_ERR_OUT_OF_BOUNDS,
                "entry 1 of the indices on axis 1 is index 5, outside the array's extent 5");
  EXPECT_NE(std::string(zarr_last_error()).find("zarr_write_orthogonal_vlen"), std::string::npos);
  const uint64_t coords[4] = {0, 0, 7, 0};
  EXPECT_STATUS(zarr_write_points_vlen(a, 2, 2, coords, offsets, 3, data, size), ZARR_ERR_OUT_OF_BOUNDS,
                "point 1 on axis 0 is index 7");
  const uint64_t start[2] = {0, 1}, count[2] = {1, 3}, step[2] = {1, 2}, inside[2] = {1, 1};
  EXPECT_STATUS(zarr_write_region_step_vlen(a, 2, start, count, step, offsets, 4, data, size),
                ZARR_ERR_OUT_OF_BOUNDS, "the last element on axis 1 is index 5");
  const uint64_t zero_step[2] = {1, 0};
  EXPECT_STATUS(zarr_write_region_step_vlen(a, 2, start, count, zero_step, offsets, 4, data, size),
                ZARR_ERR_INVALID_ARGUMENT, "step on axis 1 is 0");
  // offsets of another length than the selection's elements + 1.
  EXPECT_STATUS(zarr_write_orthogonal_vlen(a, 2, good, counts, offsets, 4, data, size), ZARR_ERR_BUFFER_SIZE,
                "offsets holds 4 entries, the selection of 4 elements needs 5");
  EXPECT_STATUS(zarr_write_points_vlen(a, 2, 1, coords, offsets, 3, data, size), ZARR_ERR_BUFFER_SIZE, "needs 2");
  EXPECT_STATUS(zarr_write_region_step_vlen(a, 2, start, count, inside, offsets, 5, data, size),
                ZARR_ERR_BUFFER_SIZE, "needs 4");
  const uint64_t huge[2] = {uint64_t{1} << 32, uint64_t{1} << 32};
  EXPECT_STATUS(zarr_write_orthogonal_vlen(a, 2, good, huge, offsets, 0, data, size), ZARR_ERR_BUFFER_SIZE,
                "needs more than 2^64 - 1");
  // Offsets that decrease or pass the data: the first such, and nothing written
  // (the elements before it lie in chunks of their own).
  const uint64_t falling[5] = {0, 1, 3, 2, 8};
  EXPECT_STATUS(zarr_write_orthogonal_vlen(a, 2, good, counts, falling, 5, data, size), ZARR_ERR_INVALID_ARGUMENT,
                "zarr_write_orthogonal_vlen: array");
  EXPECT_NE(std::string(zarr_last_error()).find("offsets[3] = 2 is below offsets[2]"), std::string::npos)
      << zarr_last_error();
  EXPECT_STATUS(zarr_write_points_vlen(a, 2, 1, coords, offsets, 2, data, 0), ZARR_ERR_INVALID_ARGUMENT,
                "offsets[1] = 1 is below offsets[0] or past the 0-byte data buffer");
  EXPECT_STATUS(zarr_write_region_step_vlen(a, 2, start, count, inside, offsets, 4, data, 2),
                ZARR_ERR_INVALID_ARGUMENT, "offsets[2] = 3 is below offsets[1] or past the 2-byte data buffer");
  // Missing arguments.
  EXPECT_STATUS(zarr_write_points_vlen(nullptr, 2, 1, coords, offsets, 2, data, size), ZARR_ERR_INVALID_ARGUMENT,
                "'array'");
  EXPECT_STATUS(zarr_write_points_vlen(a, 2, 1, coords, nullptr, 2, data, size), ZARR_ERR_INVALID_ARGUMENT,
                "'offsets'");
  EXPECT_STATUS(zarr_write_points_vlen(a, 2, 1, coords, offsets, 2, nullptr, size), ZARR_ERR_INVALID_ARGUMENT,
                "'data'");
  EXPECT_STATUS(zarr_write_points_vlen(a, 2, 1, nullptr, offsets, 2, data, size), ZARR_ERR_INVALID_ARGUMENT,
                "'coords'");
  const uint64_t* half[2] = {rows, nullptr};
  EXPECT_STATUS(zarr_write_orthogonal_vlen(a, 2, half, counts, offsets, 5, data, size), ZARR_ERR_INVALID_ARGUMENT,
                "'indices[1]'");
  EXPECT_STATUS(zarr_write_orthogonal_vlen(a, 2, nullptr, counts, offsets, 5, data, size),
                ZARR_ERR_INVALID_ARGUMENT, "'indices'");
  EXPECT_STATUS(zarr_write_region_step_vlen(a, 3, start, count, step, offsets, 4, data, size),
                ZARR_ERR_INVALID_ARGUMENT, "'ndim' is 3");
  EXPECT_STATUS(zarr_write_region_step_vlen(a, 2, start, count, nullptr, offsets, 4, data, size),
                ZARR_ERR_INVALID_ARGUMENT, "'step'");
  EXPECT_EQ(whole(a), before) << "a refused write wrote something";
  // Fixed-size arrays: the code zarr_write_region_vlen gives, naming the call to use.
  ArrayPtr f = numbers(dir);
  EXPECT_STATUS(zarr_write_orthogonal_vlen(f, 2, good, counts, offsets, 5, data, size), ZARR_ERR_INVALID_ARGUMENT,
                "has fixed-size elements: use zarr_write_orthogonal");
  EXPECT_STATUS(zarr_write_points_vlen(f, 2, 1, coords, offsets, 2, data, size), ZARR_ERR_INVALID_ARGUMENT,
                "use zarr_write_points");
  EXPECT_STATUS(zarr_write_region_step_vlen(f, 2, start, count, inside, offsets, 4, data, size),
                ZARR_ERR_INVALID_ARGUMENT, "use zarr_write_region_step");
  // The fixed-size writes on strings name their _vlen form.
  int32_t number = 0;
  EXPECT_STATUS(zarr_write_points(a, 2, 1, coords, &number, 0), ZARR_ERR_UNSUPPORTED, "use zarr_write_points_vlen");
  EXPECT_STATUS(zarr_write_orthogonal(a, 2, good, counts, &number, 0), ZARR_ERR_UNSUPPORTED,
                "use zarr_write_orthogonal_vlen");
  EXPECT_STATUS(zarr_write_region_step(a, 2, start, count, inside, &number, 0), ZARR_ERR_UNSUPPORTED,
                "use zarr_write_region_step_vlen");
  // A read-only handle.
  ArrayPtr r = open_array(dir / "s", "r");
  EXPECT_STATUS(zarr_write_points_vlen(r, 2, 1, coords, offsets, 2, data, size), ZARR_ERR_READ_ONLY, "read-only");
  EXPECT_EQ(whole(a), before);
}

TEST(Selections, VlenWritesOfFieldsAreRefusedNamingTheCall) {
  TempDir dir;
  ArrayPtr x = open_record_field_x(dir / "records");
  ASSERT_NE(x.get(), nullptr);
  const uint64_t first[1] = {0}, offsets[2] = {0, 1};
  EXPECT_STATUS(zarr_write_points_vlen(x, 1, 1, first, offsets, 2, "a", 1), ZARR_ERR_UNSUPPORTED,
                "zarr_write_points_vlen is not available on a handle opened with field 'x'");
}

// An empty selection writes nothing and may pass NULL data; a 0-d array's one element is written.
TEST(Selections, VlenWritesOfEmptySelectionsAndOf0dArrays) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", string_arrays()[0].second);
  const uint64_t none[2] = {0, 3}, cols[3] = {0, 1, 2};
  const uint64_t* no_indices[2] = {nullptr, cols};
  const uint64_t offset = 0;
  ASSERT_OK(zarr_write_orthogonal_vlen(a, 2, no_indices, none, &offset, 1, nullptr, 0));
  ASSERT_OK(zarr_write_points_vlen(a, 2, 0, nullptr, &offset, 1, nullptr, 0));
  EXPECT_FALSE(std::filesystem::exists(dir / "s/c")) << "no chunk written";
  ArrayPtr scalar = create_array(dir / "0d", R"({"shape": [], "data_type": "string", "chunk_grid": {"name": "regular",
    "configuration": {"chunk_shape": []}}, "fill_value": "", "codecs": [{"name": "vlen-utf8", "configuration": {}}]})");
  const VlenItems only({"only"});
  ASSERT_OK(zarr_write_points_vlen(scalar, 0, 1, nullptr, only.offsets.data(), 2, only.data.data(), 4));
  EXPECT_EQ(read_strings(scalar, {}, {}), std::vector<std::string>{"only"});
  const uint64_t no_dims[1] = {0};
  const VlenItems again({"again"});
  ASSERT_OK(zarr_write_region_step_vlen(scalar, 0, no_dims, no_dims, no_dims, again.offsets.data(), 2,
                                        again.data.data(), 5));
  EXPECT_EQ(read_strings(scalar, {}, {}), std::vector<std::string>{"again"});
}
