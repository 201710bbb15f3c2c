// zarr_create_from_desc and zarr_group_create_array_from_desc: every default
// against the stored metadata text (v3 zarr.json as zarr-python 3 writes it,
// v2 .zarray as zarr-python 2.13 writes it), sharded create + write + read,
// xarray's _ARRAY_DIMENSIONS on v2, and every error path.
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;

namespace {

rapidjson::Document parsed(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  EXPECT_TRUE(doc.IsObject()) << text;
  return doc;
}

std::string file_text(const std::string& path) {
  const zarr::Bytes bytes = read_file(path);
  return std::string(bytes.begin(), bytes.end());
}

// The stored document equals `expected` (JSON, compared as values).
void expect_document(const std::string& path, const std::string& expected) {
  const std::string text = file_text(path);
  EXPECT_EQ(parsed(text), parsed(expected)) << "stored " << path << ":\n" << text;
}

struct Desc {
  std::vector<uint64_t> shape, chunks, shards;
  std::vector<const char*> names;
  zarr_array_desc d = ZARR_ARRAY_DESC_INIT;
  Desc(const char* dtype, std::vector<uint64_t> s) : shape(std::move(s)) {
    d.data_type = dtype;
    d.ndim = shape.size();
    d.shape = shape.data();
  }
  Desc& chunk(std::vector<uint64_t> c) { chunks = std::move(c); d.chunk_shape = chunks.data(); return *this; }
  Desc& shard(std::vector<uint64_t> s) { shards = std::move(s); d.shard_shape = shards.data(); return *this; }
  Desc& dims(std::vector<const char*> n) { names = std::move(n); d.dimension_names = names.data(); return *this; }
  Desc& format(int f) { d.zarr_format = f; return *this; }
  // Version 2's rectilinear grid: per axis its edges, or nullopt (a regular step).
  std::vector<std::optional<std::vector<uint64_t>>> edge_lists;
  std::vector<const uint64_t*> edge_pointers;
  std::vector<size_t> edge_counts;
  Desc& edges(std::vector<std::optional<std::vector<uint64_t>>> e) {
    edge_lists = std::move(e);
    edge_pointers.clear();
    edge_counts.clear();
    for (const auto& axis : edge_lists) {
      static const uint64_t kNoEdges = 0;  // an empty list's data() may be NULL, which means "regular"
      edge_pointers.push_back(axis ? (axis->empty() ? &kNoEdges : axis->data()) : nullptr);
      edge_counts.push_back(axis ? axis->size() : 0);
    }
    d.chunk_edges = edge_pointers.data();
    d.chunk_edge_counts = edge_counts.data();
    return *this;
  }
};

ArrayPtr create(const std::string& url, const Desc& desc) {
  ArrayPtr a;
  EXPECT_EQ(zarr_create_from_desc(a.out(), url.c_str(), &desc.d, nullptr), ZARR_OK) << zarr_last_error();
  return a;
}

std::string dimension_names_of(const zarr_array* a) {
  char* json = nullptr;
  EXPECT_EQ(zarr_get_dimension_names(a, &json), ZARR_OK) << zarr_last_error();
  std::string out = json ? json : "";
  zarr_free(json);
  return out;
}

const char* kZstd0 = R"({"name": "zstd", "configuration": {"level": 0, "checksum": false}})";
const char* kLittle = R"({"name": "bytes", "configuration": {"endian": "little"}})";
const char* kBlosc = R"({"blocksize": 0, "clevel": 5, "cname": "lz4", "id": "blosc", "shuffle": 1})";

std::string v3_document(const std::string& shape, const std::string& dtype, const std::string& chunks,
                        const std::string& fill, const std::string& codecs) {
  return R"({"shape": )" + shape + R"(, "data_type": )" + dtype +
         R"(, "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": )" + chunks +
         R"(}}, "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}}, "fill_value": )" +
         fill + R"(, "codecs": )" + codecs +
         R"(, "attributes": {}, "zarr_format": 3, "node_type": "array", "storage_transformers": []})";
}

std::string v2_document(const std::string& shape, const std::string& dtype, const std::string& chunks,
                        const std::string& fill, const std::string& compressor, const std::string& filters = "null",
                        const std::string& order = "C") {
  return R"({"chunks": )" + chunks + R"(, "compressor": )" + compressor + R"(, "dtype": )" + dtype +
         R"(, "fill_value": )" + fill + R"(, "filters": )" + filters + R"(, "order": ")" + order +
         R"(", "shape": )" + shape + R"(, "zarr_format": 2})";
}

}  // namespace

// zarr-python 3's create_array: bytes (little endian) + zstd level 0, fill 0.
TEST(CreateFromDesc, V3NumericDefaultsAreZarrPython3s) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("float32", {100, 200}));
  expect_document(dir / "a/zarr.json", v3_document("[100, 200]", R"("float32")", "[100, 200]", "0.0",
                                                    std::string("[") + kLittle + ", " + kZstd0 + "]"));
  EXPECT_EQ(dimension_names_of(a), "null");
}

// 1-byte types: bytes without endian, as zarr-python 3 writes it.
TEST(CreateFromDesc, V3OneByteTypesGetBytesWithoutEndian) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("|u1", {10}));
  expect_document(dir / "a/zarr.json", v3_document("[10]", R"("uint8")", "[10]", "0",
                                                    std::string(R"([{"name": "bytes"}, )") + kZstd0 + "]"));
}

// zarr-python 3 stores strings with vlen-utf8 alone, fill "".
TEST(CreateFromDesc, V3StringsGetVlenUtf8AndNoCompressor) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("string", {4}));
  expect_document(dir / "a/zarr.json",
                  v3_document("[4]", R"("string")", "[4]", R"("")", R"([{"name": "vlen-utf8", "configuration": {}}])"));
  ASSERT_OK(write_strings(a, {0}, {4}, {"a", "", "ccc", "dd"}));
  EXPECT_EQ(read_strings(a, {0}, {4}), (std::vector<std::string>{"a", "", "ccc", "dd"}));
}

// The chunk shape zarr_open_spec would choose: about 2^20 elements.
TEST(CreateFromDesc, ChunkShapeIsChosenAsZarrOpenSpecChooses) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("float64", {5000, 5000}));
  std::vector<uint64_t> chunks(2);
  ASSERT_OK(zarr_chunk_shape(a, chunks.data()));
  EXPECT_EQ(chunks, (std::vector<uint64_t>{1024, 1024}));
}

// zarr-python 2.13's zarr.create: Blosc lz4 level 5, byte shuffle, fill 0, order C.
TEST(CreateFromDesc, V2DefaultsAreZarrPython2s) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("<f4", {10}).format(2));
  expect_document(dir / "a/.zarray", v2_document("[10]", R"("<f4")", "[10]", "0.0", kBlosc));
  ArrayPtr b = create(dir / "b", Desc("int16", {3, 4}).format(2).chunk({2, 2}));
  expect_document(dir / "b/.zarray", v2_document("[3, 4]", R"("<i2")", "[2, 2]", "0", kBlosc));
  EXPECT_FALSE(file_exists(dir / "a/.zattrs"));
}

TEST(CreateFromDesc, V2StringsAreObjectsWithVlenUtf8) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("string", {3}).format(2));
  const std::string stored = file_text(dir / "a/.zarray");
  rapidjson::Document doc = parsed(stored);
  EXPECT_EQ(std::string(doc["dtype"].GetString()), "|O") << stored;
  EXPECT_EQ(doc["filters"], parsed(R"({"f": [{"id": "vlen-utf8"}]})")["f"]) << stored;
  EXPECT_EQ(doc["compressor"], parsed(std::string(R"({"c": )") + kBlosc + "}")["c"]) << stored;
  ASSERT_OK(write_strings(a, {0}, {3}, {"x", "yy", ""}));
  EXPECT_EQ(read_strings(a, {0}, {3}), (std::vector<std::string>{"x", "yy", ""}));
}

TEST(CreateFromDesc, ZarrFormatZeroIsThree) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("int32", {4}).format(0));
  EXPECT_TRUE(file_exists(dir / "a/zarr.json"));
  EXPECT_FALSE(file_exists(dir / "a/.zarray"));
}

TEST(CreateFromDesc, ZeroDimensionalArrays) {
  TempDir dir;
  Desc desc("float64", {});
  desc.d.shape = nullptr;
  ArrayPtr a = create(dir / "a", desc);
  EXPECT_EQ(zarr_ndim(a), 0u);
  EXPECT_EQ(write_then_read_all<double>(a, {}, {}, {2.5}), std::vector<double>{2.5});
}

TEST(CreateFromDesc, ShardedCreateWriteRead) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("float32", {64, 64}).chunk({8, 8}).shard({32, 32}));
  const std::string sharding = R"([{"name": "sharding_indexed", "configuration": {"chunk_shape": [8, 8], "codecs": [)" +
                               std::string(kLittle) + ", " + kZstd0 + R"(], "index_codecs": [)" + kLittle +
                               R"(, {"name": "crc32c"}], "index_location": "end"}}])";
  expect_document(dir / "a/zarr.json", v3_document("[64, 64]", R"("float32")", "[32, 32]", "0.0", sharding));
  std::vector<float> values(64 * 64);
  std::iota(values.begin(), values.end(), 0.0f);
  EXPECT_EQ(write_then_read_all<float>(a, {0, 0}, {64, 64}, values), values);
  EXPECT_EQ(list_files(dir / "a"), (std::vector<std::string>{"c/0/0", "c/0/1", "c/1/0", "c/1/1", "zarr.json"}));
  ArrayPtr again = open_array(dir / "a");
  EXPECT_EQ(read_all<float>(again), values);
}

// Inner chunks chosen within the shard, lowered to divisors of it.
TEST(CreateFromDesc, ShardedWithoutChunkShapeChoosesDivisorsOfTheShard) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("uint8", {4000, 4000}).shard({2000, 2000}));
  const std::string stored = file_text(dir / "a/zarr.json");
  rapidjson::Document doc = parsed(stored);
  // 2^20 elements would be 1024 x 1024, which does not divide 2000.
  EXPECT_EQ(doc["codecs"][0]["configuration"]["chunk_shape"], parsed(R"({"c": [1000, 1000]})")["c"]) << stored;
  EXPECT_EQ(doc["chunk_grid"]["configuration"]["chunk_shape"], parsed(R"({"c": [2000, 2000]})")["c"]) << stored;
}

// Version 2's chunk_edges: a rectilinear grid, equal neighbouring edges
// written as runs, a NULL axis as the integer form of the chunk extent.
TEST(CreateFromDesc, ChunkEdgesMakeARectilinearGrid) {
  TempDir dir;
  Desc desc("int16", {10, 7});
  desc.chunk({4, 3}).edges({std::vector<uint64_t>{2, 2, 2, 1, 3}, std::nullopt});
  ArrayPtr a = create(dir / "a", desc);
  const rapidjson::Document doc = parsed(file_text(dir / "a/zarr.json"));
  EXPECT_EQ(doc["chunk_grid"], parsed(R"({"name": "rectilinear", "configuration": {"kind": "inline",
      "chunk_shapes": [[[2, 3], 1, 3], 3]}})"));
  std::vector<int16_t> values(70);
  std::iota(values.begin(), values.end(), int16_t{1});
  EXPECT_EQ(write_then_read_all<int16_t>(a, {0, 0}, {10, 7}, values), values);
  EXPECT_TRUE(std::filesystem::exists(dir / "a/c/4/2"));  // rows 7..9, columns 6..8 (a whole edge chunk)
  // Sharded: the edges are the shards', the chunk shape the inner chunks'.
  Desc sharded("float32", {12, 8});
  sharded.chunk({2, 4}).shard({4, 8}).edges({std::vector<uint64_t>{8, 2, 2}, std::nullopt});
  ArrayPtr b = create(dir / "b", sharded);
  const rapidjson::Document sdoc = parsed(file_text(dir / "b/zarr.json"));
  EXPECT_EQ(sdoc["chunk_grid"]["configuration"]["chunk_shapes"], parsed(R"({"c": [[8, [2, 2]], 8]})")["c"]);
  EXPECT_EQ(sdoc["codecs"][0]["configuration"]["chunk_shape"], parsed(R"({"c": [2, 4]})")["c"]);
  std::vector<float> floats(96);
  std::iota(floats.begin(), floats.end(), 0.5f);
  EXPECT_EQ(write_then_read_all<float>(b, {0, 0}, {12, 8}, floats), floats);
  // Version 1 ends before chunk_edges: whatever follows it is not read.
  Desc old("int16", {10, 7});
  old.chunk({4, 3});
  old.d.version = 1;
  old.d.chunk_edges = reinterpret_cast<const uint64_t* const*>(&dir);  // would crash if read
  ArrayPtr c = create(dir / "c", old);
  EXPECT_EQ(parsed(file_text(dir / "c/zarr.json"))["chunk_grid"]["name"], parsed(R"({"n": "regular"})")["n"]);
}

TEST(CreateFromDesc, BadChunkEdgesAreNamedByAxisAndEdge) {
  TempDir dir;
  const std::string url = dir / "bad";
  auto expect_refused = [&](Desc& desc, int code, const std::string& fragment) {
    zarr_array* a = nullptr;
    EXPECT_STATUS(zarr_create_from_desc(&a, url.c_str(), &desc.d, nullptr), code, fragment);
    EXPECT_EQ(a, nullptr);
    EXPECT_EQ(list_files(url), std::vector<std::string>{}) << fragment;
  };
  Desc v2("int32", {8, 8});
  v2.format(2).chunk({4, 4}).edges({std::vector<uint64_t>{4, 4}, std::nullopt});
  expect_refused(v2, ZARR_ERR_INVALID_ARGUMENT, "desc.chunk_edges: a rectilinear chunk grid needs zarr_format 3");
  Desc zero("int32", {8, 8});
  zero.chunk({4, 4}).edges({std::nullopt, std::vector<uint64_t>{4, 0, 4}});
  expect_refused(zero, ZARR_ERR_INVALID_ARGUMENT, "desc.chunk_edges[1][1]: is 0");
  Desc empty("int32", {8, 8});
  empty.chunk({4, 4}).edges({std::vector<uint64_t>{}, std::nullopt});
  expect_refused(empty, ZARR_ERR_INVALID_ARGUMENT, "desc.chunk_edges[0]: has no edges");
  Desc short_of("int32", {8, 8});
  short_of.chunk({4, 4}).edges({std::vector<uint64_t>{3, 4}, std::nullopt});
  expect_refused(short_of, ZARR_ERR_INVALID_ARGUMENT, "desc.chunk_edges[0]: the edges sum to 7, less than the extent 8");
  Desc unsharded_multiple("int32", {8, 8});
  unsharded_multiple.chunk({2, 4}).shard({4, 8}).edges({std::vector<uint64_t>{4, 3, 1}, std::nullopt});
  expect_refused(unsharded_multiple, ZARR_ERR_INVALID_ARGUMENT,
                 "desc.chunk_edges[0][1]: 3 is not a multiple of the chunk extent 2");
  Desc huge("int32", {8});
  huge.chunk({4}).edges({std::vector<uint64_t>{UINT64_MAX, UINT64_MAX}});  // a sum past 2^64 reaches any extent
  ArrayPtr a;
  EXPECT_STATUS(zarr_create_from_desc(a.out(), url.c_str(), &huge.d, nullptr), ZARR_ERR_INVALID_METADATA,
                "one chunk's byte size overflows");
  Desc no_counts("int32", {8, 8});
  no_counts.chunk({4, 4}).edges({std::vector<uint64_t>{8}, std::nullopt});
  no_counts.d.chunk_edge_counts = nullptr;
  expect_refused(no_counts, ZARR_ERR_INVALID_ARGUMENT, "desc.chunk_edge_counts");
}

TEST(CreateFromDesc, CompressorNoneAndTheOtherFormatsForm) {
  TempDir dir;
  Desc none3("int32", {4});
  none3.d.compressor = "";
  ArrayPtr a = create(dir / "a", none3);
  expect_document(dir / "a/zarr.json", v3_document("[4]", R"("int32")", "[4]", "0", std::string("[") + kLittle + "]"));
  Desc none2("int32", {4});
  none2.format(2).d.compressor = "";
  ArrayPtr b = create(dir / "b", none2);
  expect_document(dir / "b/.zarray", v2_document("[4]", R"("<i4")", "[4]", "0", "null"));
  Desc v2_form("int32", {4});
  v2_form.d.compressor = R"({"id": "zstd", "level": 3})";
  ArrayPtr c = create(dir / "c", v2_form);
  expect_document(dir / "c/zarr.json", v3_document("[4]", R"("int32")", "[4]", "0", std::string("[") + kLittle +
                                                       R"(, {"name": "zstd", "configuration": {"level": 3, "checksum": false}}])"));
  Desc v3_form("int32", {4});
  v3_form.format(2).d.compressor = R"({"name": "gzip", "configuration": {"level": 5}})";
  ArrayPtr d = create(dir / "d", v3_form);
  expect_document(dir / "d/.zarray", v2_document("[4]", R"("<i4")", "[4]", "0", R"({"id": "gzip", "level": 5})"));
}

TEST(CreateFromDesc, FillValueAndOrder) {
  TempDir dir;
  Desc f3("float64", {2, 3});
  f3.d.fill_value = R"("NaN")";
  f3.d.order = 'F';
  ArrayPtr a = create(dir / "a", f3);
  expect_document(dir / "a/zarr.json",
                  v3_document("[2, 3]", R"("float64")", "[2, 3]", R"("NaN")",
                              std::string(R"([{"name": "transpose", "configuration": {"order": [1, 0]}}, )") + kLittle +
                                  ", " + kZstd0 + "]"));
  Desc f2("int16", {2, 3});
  f2.format(2).d.fill_value = "7";
  f2.d.order = 'F';
  ArrayPtr b = create(dir / "b", f2);
  expect_document(dir / "b/.zarray", v2_document("[2, 3]", R"("<i2")", "[2, 3]", "7", kBlosc, "null", "F"));
  EXPECT_EQ(write_then_read_all<int16_t>(b, {0, 0}, {1, 3}, {1, 2, 3}), (std::vector<int16_t>{1, 2, 3, 7, 7, 7}));
}

TEST(CreateFromDesc, V3DimensionNamesMayHoldNulls) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("int8", {2, 3}).dims({"x", nullptr}));
  EXPECT_EQ(dimension_names_of(a), R"(["x",null])");
  const std::string stored = file_text(dir / "a/zarr.json");
  EXPECT_EQ(parsed(stored)["dimension_names"], parsed(R"({"d": ["x", null]})")["d"]) << stored;
}

// xarray's convention: v2 keeps the names in the attribute _ARRAY_DIMENSIONS.
TEST(CreateFromDesc, V2DimensionNamesAreXarraysArrayDimensions) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("float32", {2, 3}).format(2).dims({"time", "lat"}));
  expect_document(dir / "a/.zattrs", R"({"_ARRAY_DIMENSIONS": ["time", "lat"]})");
  EXPECT_EQ(dimension_names_of(a), R"(["time","lat"])");
  EXPECT_EQ(attributes_of(a), R"({"_ARRAY_DIMENSIONS":["time","lat"]})");
  ArrayPtr again = open_array(dir / "a");
  EXPECT_EQ(dimension_names_of(again), R"(["time","lat"])");
}

// Only a list of ndim strings is taken for names; anything else is none, as before.
TEST(CreateFromDesc, V2ArrayDimensionsOfTheWrongShapeAreNoNames) {
  TempDir dir;
  ArrayPtr a = create_array(dir / "a", array_meta("[2, 3]", "[2, 3]"));
  for (const char* attrs : {R"({"_ARRAY_DIMENSIONS": ["x"]})", R"({"_ARRAY_DIMENSIONS": ["x", 1]})",
                            R"({"_ARRAY_DIMENSIONS": "xy"})", R"({"_ARRAY_DIMENSIONS": ["x", null]})", "{}"}) {
    ASSERT_OK(zarr_set_attributes(a, attrs));
    EXPECT_EQ(dimension_names_of(a), "null") << attrs;
  }
  ASSERT_OK(zarr_set_attributes(a, R"({"_ARRAY_DIMENSIONS": ["y", "x"], "units": "m"})"));
  EXPECT_EQ(dimension_names_of(a), R"(["y","x"])");
}

TEST(CreateFromDesc, GroupFormTakesTheGroupsFormat) {
  TempDir dir;
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), (dir / "g").c_str(), nullptr, kV2Group));  // v2 by default
  ArrayPtr a;
  Desc desc("float32", {4});
  ASSERT_OK(zarr_group_create_array_from_desc(a.out(), g, "sub/a", &desc.d));
  expect_document(dir / "g/sub/a/.zarray", v2_document("[4]", R"("<f4")", "[4]", "0.0", kBlosc));
  desc.format(3);
  EXPECT_STATUS(zarr_group_create_array_from_desc(a.out(), g, "b", &desc.d), ZARR_ERR_INVALID_ARGUMENT,
                "cannot create a Zarr v3 array 'b'");
  EXPECT_EQ(a.get(), nullptr);
  EXPECT_STATUS(zarr_group_create_array_from_desc(a.out(), nullptr, "b", &desc.d), ZARR_ERR_INVALID_ARGUMENT,
                "argument 'group' is NULL");
}

// Every bad field is named, and nothing is left at the URL.
TEST(CreateFromDesc, EveryBadFieldIsNamedAndNothingIsWritten) {
  TempDir dir;
  const std::string url = dir / "bad";
  auto expect_refused = [&](const Desc& desc, int code, const std::string& fragment) {
    zarr_array* a = reinterpret_cast<zarr_array*>(&dir);  // must be reset to NULL
    EXPECT_STATUS(zarr_create_from_desc(&a, url.c_str(), &desc.d, nullptr), code, fragment);
    EXPECT_EQ(a, nullptr);
    EXPECT_EQ(list_files(url), std::vector<std::string>{}) << fragment;
  };
  auto with = [](auto change) {
    Desc d("float32", {8, 8});
    change(d);
    return d;
  };
  expect_refused(with([](Desc& d) { d.d.version = 3; }), ZARR_ERR_INVALID_ARGUMENT,
                 "desc.version: 3 is not a version this library knows (1 to 2)");
  expect_refused(with([](Desc& d) { d.d.version = 0; }), ZARR_ERR_INVALID_ARGUMENT, "desc.version: 0");
  expect_refused(with([](Desc& d) { d.d.zarr_format = 4; }), ZARR_ERR_INVALID_ARGUMENT, "desc.zarr_format");
  expect_refused(with([](Desc& d) { d.d.data_type = nullptr; }), ZARR_ERR_INVALID_ARGUMENT, "'desc.data_type' is NULL");
  expect_refused(with([](Desc& d) { d.d.data_type = ""; }), ZARR_ERR_INVALID_ARGUMENT, "desc.data_type: is empty");
  expect_refused(with([](Desc& d) { d.d.data_type = "float33"; }), ZARR_ERR_UNSUPPORTED, "desc.data_type");
  expect_refused(with([](Desc& d) { d.d.data_type = "<q9"; }), ZARR_ERR_UNSUPPORTED, "desc.data_type");
  expect_refused(with([](Desc& d) { d.d.shape = nullptr; }), ZARR_ERR_INVALID_ARGUMENT, "'desc.shape' is NULL");
  expect_refused(with([](Desc& d) { d.chunk({4, 0}); }), ZARR_ERR_INVALID_ARGUMENT, "desc.chunk_shape[1]: is 0");
  expect_refused(with([](Desc& d) { d.shard({8, 8}).format(2); }), ZARR_ERR_INVALID_ARGUMENT,
                 "desc.shard_shape: sharding needs zarr_format 3");
  expect_refused(with([](Desc& d) { d.chunk({4, 4}).shard({8, 6}); }), ZARR_ERR_INVALID_ARGUMENT,
                 "desc.shard_shape[1]: 6 is not a multiple of the chunk extent 4");
  expect_refused(with([](Desc& d) { d.shard({0, 8}); }), ZARR_ERR_INVALID_ARGUMENT, "desc.shard_shape[0]: is 0");
  expect_refused(with([](Desc& d) { d.format(2).dims({"x", nullptr}); }), ZARR_ERR_INVALID_ARGUMENT,
                 "desc.dimension_names[1]: is NULL: Zarr v2");
  expect_refused(with([](Desc& d) { d.d.order = 'X'; }), ZARR_ERR_INVALID_ARGUMENT, "desc.order: must be 'C' or 'F'");
  expect_refused(with([](Desc& d) { d.d.compressor = "{"; }), ZARR_ERR_INVALID_ARGUMENT, "desc.compressor");
  expect_refused(with([](Desc& d) { d.d.compressor = "3"; }), ZARR_ERR_INVALID_ARGUMENT,
                 "desc.compressor: expected a codec's JSON object");
  expect_refused(with([](Desc& d) { d.d.compressor = R"({"id": "nosuchcodec"})"; }), ZARR_ERR_UNSUPPORTED,
                 "nosuchcodec");
  expect_refused(with([](Desc& d) { d.d.fill_value = "nan"; }), ZARR_ERR_INVALID_ARGUMENT, "desc.fill_value");
  expect_refused(with([](Desc& d) { d.d.fill_value = R"("abc")"; }), ZARR_ERR_INVALID_METADATA, "fill_value");
  zarr_array* a = nullptr;
  EXPECT_STATUS(zarr_create_from_desc(&a, url.c_str(), nullptr, nullptr), ZARR_ERR_INVALID_ARGUMENT,
                "argument 'desc' is NULL");
  Desc good("float32", {8, 8});
  EXPECT_STATUS(zarr_create_from_desc(nullptr, url.c_str(), &good.d, nullptr), ZARR_ERR_INVALID_ARGUMENT,
                "argument 'out' is NULL");
  EXPECT_STATUS(zarr_create_from_desc(&a, url.c_str(), &good.d, R"({"nosuch": 1})"), ZARR_ERR_INVALID_ARGUMENT,
                "nosuch");
}

TEST(CreateFromDesc, AnExistingNodeIsExists) {
  TempDir dir;
  ArrayPtr a = create(dir / "a", Desc("float32", {4}));
  ArrayPtr b;
  Desc desc("float32", {4});
  EXPECT_STATUS(zarr_create_from_desc(b.out(), (dir / "a").c_str(), &desc.d, nullptr), ZARR_ERR_EXISTS, "");
}

// zarr_data_type_form: the data type part of the documents above, which
// zarrtool's create and cp build their documents with.
namespace {

std::string form_of(const char* data_type, const char* object_codec, int format) {
  char* json = nullptr;
  EXPECT_EQ(zarr_data_type_form(data_type, object_codec, format, &json), ZARR_OK) << zarr_last_error();
  std::string out = json ? json : "";
  zarr_free(json);
  return out;
}

}  // namespace

TEST(DataTypeForm, EverySpellingGivesTheFormatsDataTypeAndSerializer) {
  const std::string utf32 = R"({"name":"fixed_length_utf32","configuration":{"length_bytes":24}})";
  const std::string little = R"({"name":"bytes","configuration":{"endian":"little"}})";
  for (const char* spelling : {"<U6", "\"<U6\"", R"({"name":"fixed_length_utf32","configuration":{"length_bytes":24}})"}) {
    EXPECT_EQ(form_of(spelling, nullptr, 3), R"({"data_type":)" + utf32 + R"(,"serializer":)" + little + "}") << spelling;
    EXPECT_EQ(form_of(spelling, nullptr, 2), R"({"dtype":"<U6","object_codec":null})") << spelling;
  }
  EXPECT_EQ(form_of("|S2", "", 3),
            R"({"data_type":{"name":"null_terminated_bytes","configuration":{"length_bytes":2}},"serializer":{"name":"bytes"}})");
  EXPECT_EQ(form_of("<m8[10ms]", nullptr, 3),
            R"({"data_type":{"name":"numpy.timedelta64","configuration":{"unit":"ms","scale_factor":10}},"serializer":)" +
                little + "}");
  EXPECT_EQ(form_of(">i4", nullptr, 3),
            R"({"data_type":"int32","serializer":{"name":"bytes","configuration":{"endian":"big"}}})");
  EXPECT_EQ(form_of("|O", R"({"id": "vlen-bytes"})", 3),
            R"({"data_type":"variable_length_bytes","serializer":{"name":"vlen-bytes","configuration":{}}})");
  EXPECT_EQ(form_of("string", nullptr, 3),
            R"({"data_type":"string","serializer":{"name":"vlen-utf8","configuration":{}}})");
  EXPECT_EQ(form_of("string", nullptr, 2), R"({"dtype":"|O","object_codec":{"id":"vlen-utf8"}})");
  EXPECT_EQ(form_of("|O", R"({"id":"json2","encoding":"utf-8"})", 2),
            R"({"dtype":"|O","object_codec":{"id":"json2","encoding":"utf-8"}})");
  EXPECT_EQ(form_of(R"([["a","<i4"],["b","<f8",[2]]])", nullptr, 2),
            R"({"dtype":[["a","<i4"],["b","<f8",[2]]],"object_codec":null})");
  // Structured types are v3's "struct", with one byte order for every field.
  const std::string point = R"({"name":"struct","configuration":{"fields":[{"name":"x","data_type":"float32"},)"
                            R"({"name":"y","data_type":"float32"}]}})";
  for (const char* spelling : {R"([["x","<f4"],["y","<f4"]])",
                               R"({"name":"structured","configuration":{"fields":[["x","float32"],["y","float32"]]}})"}) {
    EXPECT_EQ(form_of(spelling, nullptr, 3), R"({"data_type":)" + point + R"(,"serializer":)" + little + "}") << spelling;
  }
  EXPECT_EQ(form_of(R"([["x",">f4"],["k","|u1"]])", nullptr, 3),
            R"({"data_type":{"name":"struct","configuration":{"fields":[{"name":"x","data_type":"float32"},)"
            R"({"name":"k","data_type":"uint8"}]}},"serializer":{"name":"bytes","configuration":{"endian":"big"}}})");
  EXPECT_EQ(form_of(point.c_str(), nullptr, 2), R"({"dtype":[["x","<f4"],["y","<f4"]],"object_codec":null})");
}

TEST(DataTypeForm, EveryErrorNamesTheArgumentOrType) {
  char* json = reinterpret_cast<char*>(&json);  // must be reset to NULL
  auto refused = [&](const char* type, const char* codec, int format, int code, const std::string& fragment) {
    EXPECT_STATUS(zarr_data_type_form(type, codec, format, &json), code, fragment);
    EXPECT_EQ(json, nullptr) << fragment;
  };
  refused(nullptr, nullptr, 3, ZARR_ERR_INVALID_ARGUMENT, "argument 'data_type' is NULL");
  refused("int8", nullptr, 4, ZARR_ERR_INVALID_ARGUMENT, "zarr_format must be 2 or 3, got 4");
  refused("", nullptr, 3, ZARR_ERR_INVALID_ARGUMENT, "data_type: is empty");
  refused("\"<i4", nullptr, 3, ZARR_ERR_INVALID_ARGUMENT, "data_type");
  refused("<q9", nullptr, 2, ZARR_ERR_UNSUPPORTED, "<q9");
  refused("float33", nullptr, 3, ZARR_ERR_UNSUPPORTED, "float33");
  refused(R"([["a","<i4"],["b","<f8",[2]]])", nullptr, 3, ZARR_ERR_UNSUPPORTED, "field \"b\"");
  refused(R"([["a","<i4"],["b",">f8"]])", nullptr, 3, ZARR_ERR_UNSUPPORTED, "field \"b\" is stored in another byte order");
  refused("|O", nullptr, 3, ZARR_ERR_UNSUPPORTED, "name the type \"string\" or \"variable_length_bytes\"");
  refused("|O", "", 2, ZARR_ERR_UNSUPPORTED, "needs its object codec");
  refused("|O", R"({"id":"json2"})", 3, ZARR_ERR_UNSUPPORTED, "the json2 object codec has no Zarr v3 form");
  refused("|O", R"({"id":"pickle"})", 2, ZARR_ERR_UNSUPPORTED, "object codec 'pickle' is not supported");
  refused("|O", R"({"name":"vlen-utf8"})", 3, ZARR_ERR_INVALID_ARGUMENT, "is not a codec with an \"id\"");
  refused("|O", "{", 2, ZARR_ERR_INVALID_ARGUMENT, "object codec");
  EXPECT_STATUS(zarr_data_type_form("int8", nullptr, 3, nullptr), ZARR_ERR_INVALID_ARGUMENT, "argument 'json_out' is NULL");
}
