#include "array_roundtrip_suite.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <atomic>
#include <vector>

#include "capi_helpers.h"

namespace zarr::test {

std::string roundtrip_store_name(const testing::TestParamInfo<RoundTripStore>& info) { return info.param.name; }

namespace {

// Distinct names, so that in-process stores never meet an earlier test's data.
std::string unique_name(const std::string& stem) {
  static std::atomic<int> next{0};
  return stem + "-" + std::to_string(getpid()) + "-" + std::to_string(next++);
}

}  // namespace

RoundTripStore filesystem_roundtrip_store() {
  return {"filesystem", [](const std::string& scratch) { return scratch; }, true, /*prepare=*/nullptr,
          /*finish=*/nullptr};
}

RoundTripStore memory_roundtrip_store() {
  return {"memory", [](const std::string&) { return "memory://" + unique_name("roundtrip"); }, true,
          /*prepare=*/nullptr, /*finish=*/nullptr};
}

void ArrayRoundTrip::SetUp() {
  const std::string why_not = GetParam().prepare ? GetParam().prepare() : "";
  if (!why_not.empty()) GTEST_SKIP() << why_not;
}

void ArrayRoundTrip::TearDown() {
  for (ArrayPtr& keeper : keepers_) keeper = ArrayPtr();
  if (GetParam().finish) GetParam().finish();
}

std::string ArrayRoundTrip::root(int zarr_format) {
  const size_t i = zarr_format == 3 ? 1 : 0;
  if (roots_[i].empty()) {
    const std::string scratch = scratch_ / ("v" + std::to_string(zarr_format));
    std::filesystem::create_directories(scratch);
    const std::string store = GetParam().fresh_url(scratch);
    const std::string keeper = zarr_format == 3
                                   ? "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [1], \"data_type\": "
                                     "\"uint8\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": "
                                     "{\"chunk_shape\": [1]}}, \"chunk_key_encoding\": {\"name\": \"default\"}, "
                                     "\"fill_value\": 0, \"codecs\": [{\"name\": \"bytes\"}]}"
                                   : array_meta("[1]", "[1]");
    keepers_[i] = create_array(store + "/keeper", keeper);
    roots_[i] = store + "/root";
  }
  return roots_[i];
}

namespace {

// ---- metadata -------------------------------------------------------------------------------

std::string v3_metadata(const std::string& shape, const std::string& data_type, const std::string& chunks,
                        const std::string& fill, const std::string& codecs) {
  return "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": " + shape + ", \"data_type\": \"" + data_type +
         "\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": " + chunks +
         "}}, \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": " + fill + ", \"codecs\": " + codecs +
         "}";
}

const char kBytesLE[] = "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}";

std::string sharded_codecs(const std::string& inner_chunks, const std::string& index_location) {
  return std::string("[{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": ") + inner_chunks +
         ", \"codecs\": [" + kBytesLE + "], \"index_codecs\": [" + kBytesLE +
         ", {\"name\": \"crc32c\"}], \"index_location\": \"" + index_location + "\"}}]";
}

// ---- a model of an int32 matrix ------------------------------------------------------------------

// What the array should hold, updated alongside each write.
struct Matrix {
  uint64_t rows, cols;
  std::vector<int32_t> values;

  Matrix(uint64_t r, uint64_t c, int32_t fill) : rows(r), cols(c), values(r * c, fill) {}

  // A block of distinct values (seeded so each write differs), written to
  // the model and returned for the array.
  std::vector<int32_t> paint(uint64_t r0, uint64_t c0, uint64_t nr, uint64_t nc, int32_t seed) {
    std::vector<int32_t> block;
    for (uint64_t r = 0; r < nr; ++r) {
      for (uint64_t c = 0; c < nc; ++c) {
        int32_t v = seed * 100000 + static_cast<int32_t>((r0 + r) * cols + c0 + c);
        values[(r0 + r) * cols + c0 + c] = v;
        block.push_back(v);
      }
    }
    return block;
  }

  std::vector<int32_t> block(uint64_t r0, uint64_t c0, uint64_t nr, uint64_t nc) const {
    std::vector<int32_t> out;
    for (uint64_t r = 0; r < nr; ++r) {
      for (uint64_t c = 0; c < nc; ++c) out.push_back(values[(r0 + r) * cols + c0 + c]);
    }
    return out;
  }
};

// Unaligned writes of every size over a matrix array, each checked whole and
// by block, then once more through a fresh read-only handle.
void check_unaligned_writes(const std::string& url, const std::string& metadata, uint64_t rows, uint64_t cols,
                            int32_t fill) {
  Matrix model(rows, cols, fill);
  {
    ArrayPtr a = create_array(url, metadata);
    ASSERT_NE(a.get(), nullptr);
    EXPECT_EQ(read_all<int32_t>(a), model.values) << "a new array reads as its fill value";
    const uint64_t writes[][4] = {{0, 0, rows, cols}, {1, 2, 3, 4}, {rows - 2, cols - 5, 2, 5}, {3, 0, 7, 1},
                                  {0, cols - 1, rows, 1}};
    int32_t seed = 1;
    for (const auto& w : writes) {
      SCOPED_TRACE("write at " + std::to_string(w[0]) + "," + std::to_string(w[1]));
      ASSERT_OK(write_region(a, {w[0], w[1]}, {w[2], w[3]}, model.paint(w[0], w[1], w[2], w[3], seed++)));
      EXPECT_EQ(read_all<int32_t>(a), model.values);
    }
    EXPECT_EQ(read_region<int32_t>(a, {2, 1}, {5, 6}), model.block(2, 1, 5, 6));
  }
  ArrayPtr reopened = open_array(url, "r");
  ASSERT_NE(reopened.get(), nullptr);
  EXPECT_EQ(read_all<int32_t>(reopened), model.values);
  EXPECT_EQ(read_region<int32_t>(reopened, {rows - 1, 0}, {1, cols}), model.block(rows - 1, 0, 1, cols));
}

// Bytes of n items of item_size with every byte position varying; bool items
// are 0 or 1.
std::vector<uint8_t> pattern_bytes(size_t n, size_t item_size, bool boolean) {
  std::vector<uint8_t> out(n * item_size);
  for (size_t i = 0; i < out.size(); ++i) out[i] = boolean ? (i / 3) % 2 : static_cast<uint8_t>(i * 131 + i / 7);
  return out;
}

}  // namespace

// ---- the cases ---------------------------------------------------------------------------------

TEST_P(ArrayRoundTrip, FixedSizeTypesInV2AndV3) {
  struct Type {
    const char* v2;
    const char* v3;
    size_t size;
  };
  const Type types[] = {{"|i1", "int8", 1},   {"<u2", "uint16", 2},  {"<i4", "int32", 4},  {">i4", nullptr, 4},
                        {"<u8", "uint64", 8}, {"<f4", "float32", 4}, {"<f8", "float64", 8}, {"|b1", "bool", 1}};
  for (const Type& type : types) {
    for (int format : {2, 3}) {
      const char* dtype = format == 2 ? type.v2 : type.v3;
      if (!dtype) continue;
      SCOPED_TRACE(std::string(dtype) + " v" + std::to_string(format));
      const std::string url = node(std::string("t_") + (format == 2 ? "v2_" : "v3_") + std::to_string(type.size) +
                                   "_" + (dtype[0] == '>' ? "be" : "") + std::to_string(&type - types),
                                   format);
      const std::string meta =
          format == 2 ? array_meta("[13, 7]", "[5, 3]", dtype)
                      : v3_metadata("[13, 7]", dtype, "[5, 3]", std::string(dtype) == "bool" ? "false" : "0",
                                    std::string("[") + kBytesLE + "]");
      const bool boolean = std::string(dtype).find('b') != std::string::npos;
      std::vector<uint8_t> data = pattern_bytes(13 * 7, type.size, boolean);
      {
        ArrayPtr a = create_array(url, meta);
        ASSERT_NE(a.get(), nullptr);
        ASSERT_OK(write_region(a, {0, 0}, {13, 7}, data));
      }
      ArrayPtr a = open_array(url, "r");
      ASSERT_NE(a.get(), nullptr);
      EXPECT_EQ(zarr_format(a), format);
      EXPECT_EQ(read_all<uint8_t>(a), data);
      std::vector<uint8_t> row(data.begin() + 12 * 7 * type.size, data.end());
      EXPECT_EQ(read_region<uint8_t>(a, {12, 0}, {1, 7}), row);
    }
  }
}

TEST_P(ArrayRoundTrip, UnalignedWritesInV2AndV3) {
  check_unaligned_writes(node("v2"), array_meta("[19, 11]", "[4, 5]", "<i4", {{"fill_value", "-1"}}), 19, 11, -1);
  check_unaligned_writes(node("v2_f"), array_meta("[19, 11]", "[4, 5]", "<i4", {{"order", "\"F\""}}), 19, 11, 0);
  check_unaligned_writes(node("v3", 3), v3_metadata("[19, 11]", "int32", "[4, 5]", "-1", std::string("[") + kBytesLE + "]"),
                         19, 11, -1);
}

TEST_P(ArrayRoundTrip, FiltersAndChecksums) {
  check_unaligned_writes(
      node("delta"), array_meta("[12, 10]", "[5, 5]", "<i4", {{"filters", "[{\"id\": \"delta\", \"dtype\": \"<i4\"}]"}}),
      12, 10, 0);
  check_unaligned_writes(node("crc", 3),
                         v3_metadata("[12, 10]", "int32", "[5, 5]", "7",
                                     std::string("[") + kBytesLE + ", {\"name\": \"crc32c\"}]"),
                         12, 10, 7);
  check_unaligned_writes(node("transposed", 3),
                         v3_metadata("[12, 10]", "int32", "[5, 5]", "0",
                                     std::string("[{\"name\": \"transpose\", \"configuration\": {\"order\": [1, 0]}}, ") +
                                         kBytesLE + "]"),
                         12, 10, 0);
}

TEST_P(ArrayRoundTrip, ShardsWithTheIndexAtEitherEnd) {
  for (const char* where : {"end", "start"}) {
    SCOPED_TRACE(where);
    check_unaligned_writes(node(std::string("sharded_") + where, 3),
                           v3_metadata("[20, 18]", "int32", "[10, 9]", "3", sharded_codecs("[5, 3]", where)), 20, 18,
                           3);
  }
}

TEST_P(ArrayRoundTrip, ChunksBackToTheFillValueReadAsFill) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    const std::string meta = format == 2 ? array_meta("[8, 8]", "[4, 4]", "<i4", {{"fill_value", "5"}})
                                         : v3_metadata("[8, 8]", "int32", "[4, 4]", "5", sharded_codecs("[2, 2]", "end"));
    ArrayPtr a = create_array(node("fill_v" + std::to_string(format), format), meta);
    ASSERT_NE(a.get(), nullptr);
    Matrix model(8, 8, 5);
    ASSERT_OK(write_region(a, {0, 0}, {8, 8}, model.paint(0, 0, 8, 8, 1)));
    ASSERT_OK(write_region(a, {4, 4}, {4, 4}, std::vector<int32_t>(16, 5)));
    for (uint64_t r = 4; r < 8; ++r) std::fill_n(model.values.begin() + r * 8 + 4, 4, 5);
    EXPECT_EQ(read_all<int32_t>(a), model.values);
    ArrayPtr reopened = open_array(node("fill_v" + std::to_string(format), format), "r");
    EXPECT_EQ(read_all<int32_t>(reopened), model.values);
  }
}

TEST_P(ArrayRoundTrip, ResizeAndAppend) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    const std::string url = node("resize_v" + std::to_string(format), format);
    const std::string meta = format == 2 ? array_meta("[6, 6]", "[4, 4]", "<i4")
                                         : v3_metadata("[6, 6]", "int32", "[4, 4]", "0", std::string("[") + kBytesLE + "]");
    ArrayPtr a = create_array(url, meta);
    ASSERT_NE(a.get(), nullptr);
    Matrix model(6, 6, 0);
    ASSERT_OK(write_region(a, {0, 0}, {6, 6}, model.paint(0, 0, 6, 6, 1)));
    const uint64_t smaller[] = {3, 6};
    ASSERT_OK(zarr_resize(a, 2, smaller));
    const uint64_t larger[] = {6, 6};
    ASSERT_OK(zarr_resize(a, 2, larger));
    // The chunks wholly past row 3 were erased and read as the fill value;
    // the chunk across the edge (rows 0 to 3) keeps what it stored, as in
    // zarr-python.
    std::fill(model.values.begin() + 4 * 6, model.values.end(), 0);
    EXPECT_EQ(read_all<int32_t>(a), model.values);
    const uint64_t rows[] = {2, 6};
    std::vector<int32_t> appended(12, 9);
    ASSERT_OK(zarr_append(a, 0, 2, rows, appended.data(), appended.size() * sizeof(int32_t)));
    model.values.insert(model.values.end(), appended.begin(), appended.end());
    ArrayPtr reopened = open_array(url, "r");
    uint64_t shape[2] = {0, 0};
    ASSERT_OK(zarr_shape(reopened, shape));
    EXPECT_EQ(shape[0], 8u);
    EXPECT_EQ(read_all<int32_t>(reopened), model.values);
  }
}

TEST_P(ArrayRoundTrip, StringsInV2AndV3) {
  const std::vector<std::string> items = {"", "h\xc3\xa9llo", "a longer string than the others", "\xe2\x98\x83", "x"};
  const std::string v2 = array_meta("[5]", "[2]", "|O", {{"filters", "[{\"id\": \"vlen-utf8\"}]"}, {"fill_value", "\"\""}});
  const std::string v3 = "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [5], \"data_type\": \"string\", "
                         "\"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2]}}, "
                         "\"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": \"\", "
                         "\"codecs\": [{\"name\": \"vlen-utf8\", \"configuration\": {}}]}";
  for (const auto& [name, meta] : {std::pair<std::string, std::string>{"s2", v2}, {"s3", v3}}) {
    SCOPED_TRACE(name);
    const int format = name == "s3" ? 3 : 2;
    {
      ArrayPtr a = create_array(node(name, format), meta);
      ASSERT_NE(a.get(), nullptr);
      ASSERT_OK(write_strings(a, {0}, {5}, items));
      ASSERT_OK(write_strings(a, {3}, {1}, {"replaced"}));
    }
    std::vector<std::string> want = items;
    want[3] = "replaced";
    ArrayPtr a = open_array(node(name, format), "r");
    EXPECT_EQ(read_strings(a, {0}, {5}), want);
  }
}

TEST_P(ArrayRoundTrip, HierarchiesWithAttributes) {
  for (int format : {2, 3}) {
    SCOPED_TRACE("v" + std::to_string(format));
    const std::string top = node("h" + std::to_string(format), format);
    const std::string options = "{\"zarr_format\": " + std::to_string(format) + "}";
    {
      GroupPtr g;
      ASSERT_OK(zarr_group_create_ex(g.out(), top.c_str(), "{\"title\": \"top\"}", options.c_str()));
      GroupPtr sub;
      ASSERT_OK(zarr_group_create_group(sub.out(), g, "sub", "{\"level\": 2}"));
      ArrayPtr a;
      const std::string meta = format == 2 ? array_meta("[4]", "[2]", "<i4")
                                           : v3_metadata("[4]", "int32", "[2]", "0", std::string("[") + kBytesLE + "]");
      ASSERT_OK(zarr_group_create_array(a.out(), sub, "data", meta.c_str()));
      ASSERT_OK(write_region(a, {0}, {4}, std::vector<int32_t>{1, 2, 3, 4}));
      ASSERT_OK(zarr_set_attributes(a, "{\"units\": \"m\"}"));
    }
    if (GetParam().listable) {
      GroupPtr g;
      ASSERT_OK(zarr_group_open(g.out(), top.c_str(), "r"));
      EXPECT_EQ(child_names(g), (std::vector<std::string>{"sub"}));
    }
    ASSERT_OK(zarr_consolidate_metadata(top.c_str()));
    GroupPtr g;
    ASSERT_OK(zarr_group_open(g.out(), top.c_str(), "r"));
    EXPECT_EQ(group_attributes_of(g), "{\"title\":\"top\"}");
    GroupPtr sub;
    ASSERT_OK(zarr_group_open_group(sub.out(), g, "sub"));
    EXPECT_EQ(child_names(sub), (std::vector<std::string>{"data"}));
    ArrayPtr a;
    ASSERT_OK(zarr_group_open_array(a.out(), sub, "data", "r"));
    EXPECT_EQ(read_all<int32_t>(a), (std::vector<int32_t>{1, 2, 3, 4}));
    EXPECT_EQ(attributes_of(a), "{\"units\":\"m\"}");
  }
}

TEST_P(ArrayRoundTrip, ReadOnlyHandlesRefuseWrites) {
  const std::string url = node("ro");
  create_array(url, array_meta("[4]", "[2]", "<i4"));
  ArrayPtr a = open_array(url, "r");
  ASSERT_NE(a.get(), nullptr);
  EXPECT_STATUS(write_region(a, {0}, {2}, std::vector<int32_t>{1, 2}), ZARR_ERR_READ_ONLY, "");
  EXPECT_STATUS(zarr_set_attributes(a, "{}"), ZARR_ERR_READ_ONLY, "");
  EXPECT_EQ(read_all<int32_t>(open_array(url, "r")), (std::vector<int32_t>{0, 0, 0, 0}));
}

}  // namespace zarr::test
