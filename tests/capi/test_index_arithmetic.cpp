// Index arithmetic near 2^64 (docs/reliability.md, "Index arithmetic"): a
// shape, chunk count or byte size that cannot be represented is refused at
// open, naming the field; a resize or append to one is refused and changes
// nothing; for every shape that is accepted, the last elements read and
// write inside the caller's buffers only, and zarr_info's figures are exact.
#include <filesystem>
#include <fstream>
#include <random>

#include "capi_helpers.h"
#include "support/index_arithmetic.h"
#include "support/test_support.h"

using namespace zarr::test;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMax = UINT64_MAX;  // 18446744073709551615

void write_text(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

std::string v2_document(const std::string& shape, const std::string& chunks, const std::string& dtype) {
  return array_meta(shape, chunks, dtype);
}

// Bytes around a buffer that no call may touch.
struct Guarded {
  explicit Guarded(size_t n) : bytes(n + 64, 0xA5) {}
  uint8_t* data() { return bytes.data() + 32; }
  bool guards_hold() const {
    for (size_t i = 0; i < 32; ++i) {
      if (bytes[i] != 0xA5 || bytes[bytes.size() - 1 - i] != 0xA5) return false;
    }
    return true;
  }
  std::vector<uint8_t> bytes;
};

// The issue's array: shape [2^64 - 1] in chunks of 10, the last chunk's file
// present. Reading the last element wrote the other elements of that chunk
// past the caller's buffer (its in-bounds count wrapped: 4 - (2^64 - 2)).
TEST(IndexArithmetic, TheLastElementOfAnAxisOf2To64Minus1ReadsIntoItsBufferOnly) {
  TempDir dir;
  write_text(dir / "a/.zarray", v2_document("[18446744073709551615]", "[10]", "|u1"));
  const std::vector<uint8_t> chunk = {10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
  write_file(dir / "a/1844674407370955161", zarr::ByteView(chunk));  // elements 2^64 - 6 .. 2^64 - 2
  ArrayPtr a = open_array(dir / "a", "r+");
  const uint64_t last[1] = {kMax - 1}, one[1] = {1};
  Guarded out(1);
  ASSERT_OK(zarr_read_region(a, 1, last, one, out.data(), 1));
  EXPECT_EQ(out.data()[0], 14) << "the chunk's 5th element";
  EXPECT_TRUE(out.guards_hold()) << "bytes past the 1-byte buffer were written";
  // The last five, and a write of the last two from a guarded buffer.
  const uint64_t five_back[1] = {kMax - 5}, five[1] = {5};
  Guarded many(5);
  ASSERT_OK(zarr_read_region(a, 1, five_back, five, many.data(), 5));
  EXPECT_EQ(std::vector<uint8_t>(many.data(), many.data() + 5), (std::vector<uint8_t>{10, 11, 12, 13, 14}));
  EXPECT_TRUE(many.guards_hold());
  const uint64_t two_back[1] = {kMax - 2}, two[1] = {2};
  Guarded source(2);
  source.data()[0] = 1;
  source.data()[1] = 2;
  ASSERT_OK(zarr_write_region(a, 1, two_back, two, source.data(), 2));
  const std::vector<uint8_t> stored = read_file(dir / "a/1844674407370955161");
  EXPECT_EQ(stored, (std::vector<uint8_t>{10, 11, 12, 1, 2, 15, 16, 17, 18, 19}))
      << "the write took bytes from past the caller's buffer into the chunk";
  // Strided: every other byte of a guarded buffer.
  const int64_t stride[1] = {2};
  Guarded gapped(9);
  ASSERT_OK(zarr_read_region_strided(a, 1, five_back, five, stride, gapped.data(), 9));
  EXPECT_EQ((std::vector<uint8_t>{gapped.data()[0], gapped.data()[2], gapped.data()[4], gapped.data()[6],
                                  gapped.data()[8]}),
            (std::vector<uint8_t>{10, 11, 12, 1, 2}));
  EXPECT_EQ(gapped.data()[1], 0xA5);
  EXPECT_TRUE(gapped.guards_hold());
}

// The same array of 4-byte items has 2^66 - 4 bytes: not an array libzarr
// can describe (zarr_info's nbytes wrapped), so it does not open, in any
// format, and says which field.
TEST(IndexArithmetic, ShapesWhoseByteSizeOverflowsAreInvalidMetadataNamingTheShape) {
  TempDir dir;
  write_text(dir / "v2/.zarray", v2_document("[18446744073709551615]", "[10]", "<i4"));
  write_text(dir / "v2b/.zarray", v2_document("[4611686018427387904]", "[10]", "<i4"));  // 2^62 int32: 2^64 bytes
  write_text(dir / "v1/meta", R"({"zarr_format": 1, "shape": [4611686018427387904], "chunks": [10], "dtype": "<i4",
      "compression": null, "compression_opts": null, "fill_value": 0, "order": "C"})");
  const std::string v3 = R"({"zarr_format": 3, "node_type": "array", "shape": [4611686018427387904], "data_type": "int32",
      "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [%s]}},
      "chunk_key_encoding": {"name": "default"}, "fill_value": 0, "codecs": [%s]})";
  auto v3_doc = [&](const char* chunks, const char* codecs) {
    std::string doc = v3;
    doc.replace(doc.find("%s"), 2, chunks);
    doc.replace(doc.find("%s"), 2, codecs);
    return doc;
  };
  write_text(dir / "v3/zarr.json", v3_doc("10", R"({"name": "bytes", "configuration": {"endian": "little"}})"));
  write_text(dir / "sharded/zarr.json",
             v3_doc("16", R"({"name": "sharding_indexed", "configuration": {"chunk_shape": [4],
                 "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]}})"));
  for (const char* name : {"v2", "v2b", "v1", "v3", "sharded"}) {
    SCOPED_TRACE(name);
    ArrayPtr a;
    EXPECT_STATUS(zarr_open(a.out(), (dir / name).c_str(), "r"), ZARR_ERR_INVALID_METADATA, "field 'shape'");
    EXPECT_NE(std::string(zarr_last_error()).find("bytes overflow 64 bits"), std::string::npos) << zarr_last_error();
  }
  // One byte per element fits: 2^64 - 1 bytes.
  ArrayPtr fits = create_array(dir / "u8", v2_document("[18446744073709551615]", "[10]", "|u1"));
  EXPECT_EQ(info_of(fits)["nbytes"].GetUint64(), kMax);
}

// zarr_info's figures are exact near 2^64 (nbytes of 2^62 int32 was 0).
TEST(IndexArithmetic, InfoFiguresNeverWrap) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", v2_document("[4611686018427387904]", "[10]", "<i2"));  // 2^63 bytes
  rapidjson::Document info = info_of(a);
  EXPECT_EQ(info["nbytes"].GetUint64(), uint64_t{1} << 63);
  EXPECT_EQ(info["chunks_total"].GetUint64(), 461168601842738791u);  // ceil(2^62 / 10)
  ArrayPtr b = create_array(dir / "b", v2_document("[18446744073709551615, 1]", "[7, 1]", "|u1"));
  info = info_of(b);
  EXPECT_EQ(info["nbytes"].GetUint64(), kMax);
  EXPECT_EQ(info["chunks_total"].GetUint64(), 2635249153387078803u);  // ceil((2^64 - 1) / 7)
}

// A resize to 2^64 - 1 erased every chunk (the chunk count wrapped to 0, so
// every chunk lay "outside" the grid). Now it keeps them; a resize to a
// shape that cannot be represented is refused and changes nothing.
TEST(IndexArithmetic, ResizeToTheLargestShapeKeepsEveryChunkAndARefusedOneChangesNothing) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", v2_document("[20]", "[10]", "|u1"));
  std::vector<uint8_t> values(20, 7);
  ASSERT_OK(write_region(a, {0}, {20}, values));
  const uint64_t largest[1] = {kMax};
  ASSERT_OK(zarr_resize(a, 1, largest));
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray", "0", "1"}));
  rapidjson::Document info = info_of(a);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 2u);
  EXPECT_EQ(info["chunks_total"].GetUint64(), 1844674407370955162u);
  EXPECT_EQ(read_region<uint8_t>(a, {18}, {2}), (std::vector<uint8_t>{7, 7}));
  EXPECT_EQ(read_region<uint8_t>(a, {kMax - 2}, {2}), (std::vector<uint8_t>{0, 0}));

  ArrayPtr wide = create_array(dir / "wide", v2_document("[20]", "[10]", "<i4"));
  std::vector<int32_t> ints(20, 7);
  ASSERT_OK(write_region(wide, {0}, {20}, ints));
  const zarr::Bytes before = read_file(dir / "wide/.zarray");
  EXPECT_STATUS(zarr_resize(wide, 1, largest), ZARR_ERR_INVALID_ARGUMENT,
                "new shape [18446744073709551615]: field 'shape': 18446744073709551615 elements of 4 bytes overflow "
                "64 bits");
  const uint64_t quarter[1] = {uint64_t{1} << 62};  // 2^64 bytes
  EXPECT_STATUS(zarr_resize(wide, 1, quarter), ZARR_ERR_INVALID_ARGUMENT, "field 'shape'");
  EXPECT_EQ(read_file(dir / "wide/.zarray"), before);
  EXPECT_EQ(list_files(dir / "wide"), (std::vector<std::string>{".zarray", "0", "1"}));
  uint64_t shape = 0;
  ASSERT_OK(zarr_shape(wide, &shape));
  EXPECT_EQ(shape, 20u);
  EXPECT_EQ(read_all<int32_t>(wide), ints);
}

// An append that would make such a shape is refused before anything changes.
TEST(IndexArithmetic, AppendToAShapeThatCannotBeRepresentedChangesNothing) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", v2_document("[4611686018427387903]", "[10]", "<i4"));  // 2^64 - 4 bytes
  const std::vector<int32_t> row = {5};
  const uint64_t one[1] = {1};
  const zarr::Bytes before = read_file(dir / "a/.zarray");
  EXPECT_STATUS(zarr_append(a, 0, 1, one, row.data(), 4), ZARR_ERR_INVALID_ARGUMENT,
                "append: new shape [4611686018427387904]: field 'shape'");
  EXPECT_EQ(read_file(dir / "a/.zarray"), before);
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{".zarray"}));
  // One element of one byte more still fits, up to 2^64 - 1.
  ArrayPtr b = create_array(dir / "b", v2_document("[18446744073709551614]", "[10]", "|u1"));
  const uint8_t byte = 9;
  ASSERT_OK(zarr_append(b, 0, 1, one, &byte, 1));
  EXPECT_EQ(read_region<uint8_t>(b, {kMax - 1}, {1}), (std::vector<uint8_t>{9}));
  EXPECT_STATUS(zarr_append(b, 0, 1, one, &byte, 1), ZARR_ERR_INVALID_ARGUMENT, "past 2^64 - 1");
}

// Variable-length elements at the end of an axis of 2^64 - 1.
TEST(IndexArithmetic, StringsAtTheEndOfTheLargestAxis) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "s", R"({"zarr_format": 3, "node_type": "array", "shape": [18446744073709551615],
      "data_type": "string", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [10]}},
      "chunk_key_encoding": {"name": "default"}, "fill_value": "", "codecs": [{"name": "vlen-utf8"}]})");
  ASSERT_OK(write_strings(a, {kMax - 2}, {2}, {"last but one", "last"}));
  EXPECT_EQ(read_strings(a, {kMax - 3}, {3}), (std::vector<std::string>{"", "last but one", "last"}));
}

// A TensorStore domain's inclusive_max of 2^64 - 1 is an extent of 2^64:
// it became an extent of 0 (an empty array) instead of an error.
TEST(IndexArithmetic, SpecInclusiveMaxOfTheLargestIndexIsRefused) {
  auto spec = [](const char* inclusive_max) {
    return std::string(R"({"driver": "zarr", "kvstore": {"driver": "memory"}, "create": true, "dtype": "uint8",
        "schema": {"domain": {"inclusive_max": [)") + inclusive_max + "]}}}";
  };
  ArrayPtr a;
  EXPECT_STATUS(zarr_open_spec(a.out(), spec("18446744073709551615").c_str()), ZARR_ERR_INVALID_ARGUMENT,
                "'schema.domain.inclusive_max': 18446744073709551615 makes an extent past 2^64 - 1");
  ASSERT_OK(zarr_open_spec(a.out(), spec("18446744073709551614").c_str()));
  uint64_t shape = 0;
  ASSERT_OK(zarr_shape(a, &shape));
  EXPECT_EQ(shape, kMax);
}

// The property, on a fixed set of cases the plain build checks too: the
// issue's arrays and their neighbours, then 300 drawn by a fixed seed from
// what the fuzz target fuzz_index_arithmetic explores.
TEST(IndexArithmetic, PropertyHoldsNearTheEndOfEveryAxis) {
  using index_arithmetic::Case;
  std::vector<Case> cases;
  Case issue;
  issue.shape = {kMax};
  issue.chunks = {10};
  issue.back = {1};
  issue.count = {1};
  issue.resize_to = {kMax - 7};
  cases.push_back(issue);
  for (const char* dtype : {"int32", "string", "int16"}) {
    Case c = issue;
    c.dtype = dtype;
    cases.push_back(c);
  }
  Case sharded = issue;
  sharded.zarr_format = 3;
  sharded.chunks = {12};
  sharded.inner = {4};
  sharded.back = {14};
  sharded.count = {13};
  sharded.append = true;
  cases.push_back(sharded);
  Case two_axes;
  two_axes.zarr_format = 3;
  two_axes.dtype = "float64";
  two_axes.shape = {(uint64_t{1} << 62) - 1, 3};
  two_axes.chunks = {7, 2};
  two_axes.compressed = true;
  two_axes.back = {9, 3};
  two_axes.count = {9, 3};
  two_axes.resize_to = {uint64_t{1} << 62, 3};
  cases.push_back(two_axes);
  std::mt19937 random(20);
  for (int i = 0; i < 300; ++i) {
    uint8_t bytes[64];
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(random());
    cases.push_back(index_arithmetic::case_from_bytes(bytes, sizeof bytes));
  }
  TempDir dir;
  size_t created = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    // Every third case on the filesystem, the others in memory.
    const std::string url = i % 3 ? "memory://index-arithmetic-" + std::to_string(i) + "/a" : dir / std::to_string(i);
    const index_arithmetic::Outcome outcome = index_arithmetic::check(cases[i], url);
    EXPECT_EQ(outcome.broken, "") << index_arithmetic::describe(cases[i]);
    created += outcome.created ? 1 : 0;
  }
  // Both sides of the rule are exercised (near 2^64 most arrays of wide
  // items cannot be represented).
  EXPECT_GT(created, cases.size() / 3);
  EXPECT_GT(cases.size() - created, cases.size() / 3);
}

}  // namespace
