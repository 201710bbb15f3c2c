// zarr_open_spec: TensorStore zarr driver specs through the C API. One case
// (or a few) per spec member, one per forbidden combination, the chunk shape
// examples of TensorStore's zarr driver page, and the errors' codes and the
// members they name.
#include <filesystem>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;
namespace fs = std::filesystem;

namespace {

// {"driver": "zarr", "kvstore": {"driver": "file", "path": url}, <extra>}
std::string file_spec(const std::string& url, const std::string& extra = "", const char* driver = "zarr") {
  std::string spec = std::string(R"({"driver": ")") + driver + R"(", "kvstore": {"driver": "file", "path": ")" +
                     url + "\"}";
  if (!extra.empty()) spec += ", " + extra;
  return spec + "}";
}

// A memory kvstore of its own, so cases never see each other's arrays.
std::string memory_spec(const std::string& extra, const char* driver = "zarr") {
  return std::string(R"({"driver": ")") + driver + R"(", "kvstore": {"driver": "memory"}, )" + extra + "}";
}

int open_spec(ArrayPtr& a, const std::string& spec) { return zarr_open_spec(a.out(), spec.c_str()); }

std::vector<uint64_t> chunks_of(const zarr_array* a) {
  std::vector<uint64_t> chunks(zarr_ndim(a));
  zarr_chunk_shape(a, chunks.data());
  return chunks;
}

std::vector<uint64_t> shape_of(const zarr_array* a) {
  std::vector<uint64_t> shape(zarr_ndim(a));
  zarr_shape(a, shape.data());
  return shape;
}

rapidjson::Document metadata_document(const zarr_array* a) {
  rapidjson::Document doc;
  doc.Parse(metadata_of(a).c_str());
  return doc;
}

// A v2 int32 array [20] of chunks [10] holding 0..19.
std::string make_v2_array(const TempDir& dir) {
  const std::string url = dir / "a";
  ArrayPtr a = create_array(url, array_meta("[20]", "[10]", "<i4", {{"compressor", R"({"id": "zlib", "level": 3})"}}));
  std::vector<int32_t> values(20);
  for (int i = 0; i < 20; ++i) values[i] = i;
  EXPECT_EQ(write_region(a, {0}, {20}, values), ZARR_OK);
  return url;
}

const char* kCreateUint16 = R"("create": true, "dtype": "uint16", "schema": {"domain": {"shape": [1000, 2000, 3000]})";

}  // namespace

// ---- driver -----------------------------------------------------------------------------

TEST(Spec, ZarrDriverOpensV2Array) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url)));
  EXPECT_EQ(zarr_format(a), 2);
  EXPECT_EQ(read_all<int32_t>(a)[19], 19);
}

TEST(Spec, Zarr3DriverOpensV3ArrayOnly) {
  TempDir dir;
  create_array(dir / "v3", R"({"zarr_format": 3, "shape": [4], "data_type": "int16"})");
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(dir / "v3", "", "zarr3")));
  EXPECT_EQ(zarr_format(a), 3);
  // The zarr driver looks for .zarray only, as TensorStore's does.
  EXPECT_STATUS(open_spec(a, file_spec(dir / "v3")), ZARR_ERR_NOT_FOUND, ".zarray");
}

TEST(Spec, DriverMissingOrUnknown) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, R"({"kvstore": "memory://x"})"), ZARR_ERR_INVALID_ARGUMENT, "'driver'");
  EXPECT_STATUS(open_spec(a, R"({"driver": "n5", "kvstore": "memory://x"})"), ZARR_ERR_UNSUPPORTED, "\"n5\"");
  EXPECT_STATUS(open_spec(a, R"({"driver": 2, "kvstore": "memory://x"})"), ZARR_ERR_INVALID_ARGUMENT, "'driver'");
}

TEST(Spec, NotAnObjectOrNull) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, "[1, 2]"), ZARR_ERR_INVALID_ARGUMENT, "object");
  EXPECT_STATUS(open_spec(a, "{\"driver\": "), ZARR_ERR_INVALID_ARGUMENT, "malformed JSON");
  EXPECT_STATUS(zarr_open_spec(a.out(), nullptr), ZARR_ERR_INVALID_ARGUMENT, "spec_json");
  EXPECT_STATUS(zarr_open_spec(nullptr, "{}"), ZARR_ERR_INVALID_ARGUMENT, "out");
}

// ---- kvstore and path --------------------------------------------------------------------

TEST(Spec, KvstoreAsUrlString) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, R"({"driver": "zarr", "kvstore": "file://)" + url + "\"}"));
  EXPECT_EQ(read_all<int32_t>(a)[3], 3);
}

TEST(Spec, PathJoinsOntoKvstore) {
  TempDir dir;
  make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, R"({"driver": "zarr", "kvstore": {"driver": "file", "path": ")" + dir.path() +
                             R"(/"}, "path": "a"})"));
  EXPECT_EQ(read_all<int32_t>(a)[7], 7);
  ASSERT_OK(open_spec(a, R"({"driver": "zarr", "kvstore": ")" + dir.path() + R"(", "path": "/a"})"));
  EXPECT_EQ(read_all<int32_t>(a)[8], 8);
}

TEST(Spec, MemoryKvstoreWithPathIsNamedStore) {
  ArrayPtr created;
  ASSERT_OK(open_spec(created, R"({"driver": "zarr", "kvstore": {"driver": "memory", "path": "spec-mem/x"},
      "create": true, "metadata": {"shape": [3], "chunks": [3], "dtype": "<u1"}})"));
  // The first segment names the store: memory://spec-mem/x is the same array.
  ArrayPtr again = open_array("memory://spec-mem/x");
  EXPECT_EQ(zarr_ndim(again), 1u);
}

TEST(Spec, MemoryKvstoreWithoutPathIsFreshEachTime) {
  const std::string spec = memory_spec(R"("create": true, "open": false, "metadata": {"shape": [3], "dtype": "<u1"})");
  ArrayPtr a, b;
  ASSERT_OK(open_spec(a, spec));
  ASSERT_OK(open_spec(b, spec));  // a fresh store: nothing exists there yet
}

TEST(Spec, ZipKvstoreWithFileBase) {
  TempDir dir;
  const std::string zip = dir / "a.zip";
  {
    ArrayPtr a;
    ASSERT_OK(open_spec(a, R"({"driver": "zarr", "kvstore": {"driver": "zip", "path": "inner",
        "base": {"driver": "file", "path": ")" + zip + R"("}}, "create": true,
        "metadata": {"shape": [4], "chunks": [2], "dtype": "<i2", "compressor": null}})"));
    std::vector<int16_t> v = {1, 2, 3, 4};
    ASSERT_EQ(write_region(a, {0}, {4}, v), ZARR_OK);
  }
  ArrayPtr b = open_array(zip + "|zip:inner");
  EXPECT_EQ(read_all<int16_t>(b), (std::vector<int16_t>{1, 2, 3, 4}));
  // An existing archive opens through the spec too (read-only, as zip archives are once written).
  ArrayPtr c;
  ASSERT_OK(open_spec(c, R"({"driver": "zarr", "kvstore": ")" + zip + R"(|zip:", "path": "inner"})"));
  EXPECT_EQ(read_all<int16_t>(c), (std::vector<int16_t>{1, 2, 3, 4}));
}

TEST(Spec, KvstoreErrors) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, R"({"driver": "zarr"})"), ZARR_ERR_INVALID_ARGUMENT, "'kvstore'");
  EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", "kvstore": {"driver": "gcs", "bucket": "b"}})"),
                ZARR_ERR_UNSUPPORTED, "\"gcs\"");
  EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", "kvstore": {"driver": "file"}})"), ZARR_ERR_INVALID_ARGUMENT,
                "kvstore.path");
  EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", "kvstore": {"driver": "file", "path": "/x", "pth": 1}})"),
                ZARR_ERR_INVALID_ARGUMENT, "kvstore.pth");
  EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", "kvstore": {"driver": "s3", "bucket": "b", "endpoint": "x"}})"),
                ZARR_ERR_UNSUPPORTED, "kvstore.endpoint");
  EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", "kvstore": 7})"), ZARR_ERR_INVALID_ARGUMENT, "'kvstore'");
  EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", "kvstore": {"driver": "zip", "path": "x"}})"),
                ZARR_ERR_INVALID_ARGUMENT, "kvstore.base");
}

// A "." or ".." segment in a kvstore's path or in the spec's path could climb
// out of the store (TensorStore's key rules refuse them too): refused naming
// the member, for every driver, before anything is opened, created or erased
// (with delete_existing too). The array at <dir>/a is the node outside
// <dir>/data that such paths reach.
TEST(Spec, PathsCannotClimbOutOfTheirStore) {
  TempDir dir;
  const std::string victim = make_v2_array(dir);
  fs::create_directories(dir / "data");
  const std::string data = R"("kvstore": {"driver": "file", "path": ")" + dir / "data" + "/\"";
  struct Case {
    std::string spec_start, member, path;
  };
  const std::vector<Case> cases = {
      {R"("kvstore": {"driver": "file", "path": ")" + dir / "data/../a" + "\"}", "kvstore.path", dir / "data/../a"},
      {data + R"(}, "path": "../a")", "path", "../a"},
      {data + R"(}, "path": "x/../../a")", "path", "x/../../a"},
      {data + R"(}, "path": "./a")", "path", "./a"},
      {R"("kvstore": ")" + dir / "data" + R"(", "path": "..")", "path", ".."},
      {R"("kvstore": {"driver": "memory", "path": "m/../a"})", "kvstore.path", "m/../a"},
      {R"("kvstore": {"driver": "zip", "path": "../a", "base": {"driver": "file", "path": ")" + dir / "z.zip" +
           "\"}}",
       "kvstore.path", "../a"},
      {R"("kvstore": {"driver": "zip", "path": "a", "base": {"driver": "file", "path": ")" + dir / "data/../z.zip" +
           "\"}}",
       "kvstore.base.path", dir / "data/../z.zip"},
      {R"("kvstore": {"driver": "http", "base_url": "http://127.0.0.1:9/data/", "path": "../a"})", "kvstore.path",
       "../a"},
      {R"("kvstore": {"driver": "s3", "bucket": "b", "path": "data/../a"})", "kvstore.path", "data/../a"},
  };
  const char* modes[] = {"", R"(, "create": true, "metadata": {"shape": [2], "chunks": [2], "dtype": "<i4"})",
                         R"(, "create": true, "delete_existing": true, "open": false,
                             "metadata": {"shape": [2], "chunks": [2], "dtype": "<i4"})"};
  for (const Case& c : cases) {
    for (const char* mode : modes) {
      SCOPED_TRACE(c.spec_start + mode);
      ArrayPtr a;
      const std::string segment = c.path == "./a" ? "." : "..";
      EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", )" + c.spec_start + mode + "}"), ZARR_ERR_INVALID_ARGUMENT,
                    "spec: '" + c.member + "' \"" + c.path + "\": segment '" + segment +
                        "' is not allowed (a path must stay in its store)");
    }
  }
  ArrayPtr a = open_array(victim);
  EXPECT_EQ(read_all<int32_t>(a)[19], 19);
  EXPECT_TRUE(fs::is_empty(dir / "data"));
  EXPECT_FALSE(fs::exists(dir / "z.zip"));
}

// A spec's paths are literal: "%2e%2e" is a name, whatever URL it is joined
// to (a file:// URL is percent-decoded, so joining it as text made it ".."
// and reached the array at <dir>/victim: audit of issue 20, finding 1). A
// file kvstore path given as a file:// URL is decoded before its check.
TEST(Spec, PercentEscapesInPathsStayNamesInTheirStore) {
  TempDir dir;
  const std::string victim = make_v2_array(dir);  // <dir>/a
  fs::create_directories(dir / "data");
  const std::string create = R"(, "create": true, "delete_existing": true, "open": false,
                                 "metadata": {"shape": [2], "chunks": [2], "dtype": "<i4"})";
  const std::string file_url = "file://" + dir / "data/";
  for (const std::string& kvstore : {"\"" + file_url + "\"", R"({"driver": "file", "path": ")" + file_url + "\"}",
                                     R"({"driver": "file", "path": ")" + dir / "data/" + "\"}"}) {
    SCOPED_TRACE(kvstore);
    ArrayPtr a;
    ASSERT_OK(open_spec(a, R"({"driver": "zarr", "kvstore": )" + kvstore + R"(, "path": "%2e%2e/a")" + create + "}"));
    EXPECT_TRUE(fs::exists(dir / "data/%2e%2e/a/.zarray"));
    fs::remove_all(dir / "data/%2e%2e");
  }
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", "kvstore": {"driver": "file", "path": ")" + file_url +
                                 R"(%2e%2e/a"})" + create + "}"),
                ZARR_ERR_INVALID_ARGUMENT, "segment '..' is not allowed");
  a = open_array(victim);
  EXPECT_EQ(read_all<int32_t>(a)[19], 19);
  EXPECT_TRUE(fs::is_empty(dir / "data"));
}

// A NUL inside a JSON string ("\u0000") is part of it: a string that names
// a path, URL or driver is refused whole, naming the member, never read up
// to the NUL ("h.zarr\u0000/sub" with delete_existing erased all of h.zarr:
// audit of issue 20, finding 3). A member name with a NUL is no known member.
TEST(Spec, ANulInsideAStringIsRefusedNotTruncated) {
  TempDir dir;
  const std::string victim = make_v2_array(dir);  // <dir>/a
  const std::string create = R"(, "create": true, "delete_existing": true, "open": false,
                                 "metadata": {"shape": [2], "chunks": [2], "dtype": "<i4"})";
  struct Case {
    std::string spec, member;
  };
  const std::vector<Case> cases = {
      {R"("kvstore": {"driver": "file", "path": ")" + dir.path() + R"(/"}, "path": "a\u0000/sub")", "'path'"},
      {R"("kvstore": {"driver": "file", "path": ")" + dir / "a" + R"(\u0000/x"})", "'kvstore.path'"},
      {R"("kvstore": ")" + dir / "a" + R"(\u0000/x")", "'kvstore'"},
      {R"("kvstore": {"driver": "file\u0000x", "path": ")" + dir / "a" + "\"}", "'kvstore.driver'"},
      {R"("kvstore": {"driver": "s3", "bucket": "bkt\u0000x", "path": "a"})", "'kvstore.bucket'"},
      {R"("kvstore": {"driver": "http", "base_url": "http://127.0.0.1:9/\u0000x", "path": "a"})",
       "'kvstore.base_url'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.spec);
    ArrayPtr a;
    EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", )" + c.spec + create + "}"), ZARR_ERR_INVALID_ARGUMENT,
                  "spec: " + c.member + " holds a NUL byte");
  }
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, R"({"driver": "zarr", "kvstore": ")" + dir / "x" + R"(", "path\u0000x": "a")" + create +
                                 "}"),
                ZARR_ERR_INVALID_ARGUMENT, "unknown member");
  a = open_array(victim);
  EXPECT_EQ(read_all<int32_t>(a)[19], 19);
}

// ---- open / create / delete_existing -----------------------------------------------------

TEST(Spec, OpenIsTheDefaultAndMissingIsNotFound) {
  TempDir dir;
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, file_spec(dir / "missing")), ZARR_ERR_NOT_FOUND, "no array");
  EXPECT_STATUS(open_spec(a, file_spec(dir / "missing", R"("open": true, "create": false)")), ZARR_ERR_NOT_FOUND, "");
  // create: false alone leaves open at its default, true.
  EXPECT_STATUS(open_spec(a, file_spec(dir / "missing", R"("create": false)")), ZARR_ERR_NOT_FOUND, "");
}

TEST(Spec, CreateAloneRefusesExistingArray) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("create": true, "metadata": {"shape": [5], "dtype": "<i4"})")),
                ZARR_ERR_EXISTS, "");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("create": true, "open": false, "metadata": {"shape": [5], "dtype": "<i4"})")),
                ZARR_ERR_EXISTS, "");
}

TEST(Spec, CreateWritesMetadataCompletedWithDefaults) {
  TempDir dir;
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(dir / "new", R"("create": true, "metadata": {"shape": [6, 4], "chunks": [3, 2], "dtype": "<f8"})")));
  rapidjson::Document meta = metadata_document(a);
  EXPECT_TRUE(meta["fill_value"].IsNull());  // TensorStore's default for new arrays
  EXPECT_STREQ(meta["order"].GetString(), "C");
  EXPECT_TRUE(fs::exists(dir / "new/.zarray"));
  std::vector<double> v = {1.5, 2.5};
  EXPECT_EQ(write_region(a, {0, 0}, {1, 2}, v), ZARR_OK);
}

TEST(Spec, OpenAndCreateOpensOrCreates) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  const std::string extra = R"("open": true, "create": true, "metadata": {"shape": [20], "dtype": "<i4"})";
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, extra)));
  EXPECT_EQ(read_all<int32_t>(a)[5], 5);  // opened: the data is there
  ArrayPtr b;
  ASSERT_OK(open_spec(b, file_spec(dir / "other", extra)));
  EXPECT_EQ(read_all<int32_t>(b)[5], 0);  // created: fill
}

TEST(Spec, DeleteExistingReplacesTheArray) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("create": true, "delete_existing": true,
      "metadata": {"shape": [20], "chunks": [5], "dtype": "<i4", "fill_value": 0})")));
  EXPECT_EQ(chunks_of(a), (std::vector<uint64_t>{5}));
  EXPECT_EQ(read_all<int32_t>(a)[19], 0);  // the old chunks went with the old array
  // Nothing there: delete_existing just creates.
  ASSERT_OK(open_spec(a, file_spec(dir / "fresh", R"("create": true, "delete_existing": true,
      "metadata": {"shape": [2], "dtype": "<i4"})")));
}

// ---- forbidden combinations --------------------------------------------------------------

TEST(Spec, OpenAndCreateBothFalse) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("open": false, "create": false)")), ZARR_ERR_INVALID_ARGUMENT,
                "'open' and 'create'");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("open": false)")), ZARR_ERR_INVALID_ARGUMENT, "'open' and 'create'");
}

TEST(Spec, DeleteExistingWithoutCreate) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("delete_existing": true)")), ZARR_ERR_INVALID_ARGUMENT,
                "'delete_existing' requires 'create'");
}

TEST(Spec, DeleteExistingWithOpen) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("delete_existing": true, "create": true, "open": true)")),
                ZARR_ERR_INVALID_ARGUMENT, "'delete_existing' requires 'open': false");
}

TEST(Spec, AssumeMetadataWithDeleteExisting) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("assume_metadata": true, "delete_existing": true, "create": true, "open": false)")),
                ZARR_ERR_INVALID_ARGUMENT, "'delete_existing'");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("assume_metadata": true, "delete_existing": true, "create": true, "open": true)")),
                ZARR_ERR_INVALID_ARGUMENT, "'delete_existing'");
}

TEST(Spec, AssumeMetadataWithoutOpen) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("assume_metadata": true, "create": true)")), ZARR_ERR_INVALID_ARGUMENT,
                "'assume_metadata' requires 'open'");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("assume_cached_metadata": true, "open": false, "create": true)")),
                ZARR_ERR_INVALID_ARGUMENT, "'assume_cached_metadata' requires 'open'");
}

// ---- assume_metadata / assume_cached_metadata ------------------------------------------------

TEST(Spec, AssumeMetadataNeitherReadsNorWritesIt) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  fs::remove(dir / "a/.zarray");  // the stored metadata need not exist
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("assume_metadata": true,
      "metadata": {"shape": [20], "chunks": [10], "dtype": "<i4", "compressor": {"id": "zlib"}, "fill_value": 0})")));
  EXPECT_EQ(read_all<int32_t>(a)[17], 17);
  std::vector<int32_t> v = {-1};
  EXPECT_EQ(write_region(a, {0}, {1}, v), ZARR_OK);
  EXPECT_FALSE(fs::exists(dir / "a/.zarray"));
  uint64_t shape = 30;
  EXPECT_STATUS(zarr_resize(a, 1, &shape), ZARR_ERR_UNSUPPORTED, "'assume_metadata'");
  EXPECT_EQ(shape_of(a), (std::vector<uint64_t>{20}));
}

TEST(Spec, AssumeCachedMetadataIsTreatedAsAssumeMetadata) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("assume_cached_metadata": true,
      "metadata": {"shape": [20], "chunks": [10], "dtype": "<i4", "compressor": {"id": "zlib"}})")));
  EXPECT_EQ(read_all<int32_t>(a)[11], 11);
  uint64_t shape = 30;
  EXPECT_STATUS(zarr_resize(a, 1, &shape), ZARR_ERR_UNSUPPORTED, "'assume_cached_metadata'");
}

TEST(Spec, AssumeMetadataNeedsShapeAndType) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("assume_metadata": true, "metadata": {"dtype": "<i4"})")),
                ZARR_ERR_INVALID_ARGUMENT, "needs a shape");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("assume_metadata": true, "metadata": {"shape": [2]})")),
                ZARR_ERR_INVALID_ARGUMENT, "needs a data type");
}

// ---- metadata constraints when opening -----------------------------------------------------

TEST(Spec, MetadataConstraintsThatHoldOpen) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("metadata": {"zarr_format": 2, "shape": [20], "chunks": [10],
      "dtype": "<i4", "fill_value": 0.0, "order": "C", "filters": null, "compressor": {"id": "zlib"},
      "dimension_separator": "."})")));
}

TEST(Spec, MetadataChunksContradicted) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("metadata": {"chunks": [20]})")), ZARR_ERR_INVALID_METADATA,
                "metadata.chunks: spec [20] but stored [10]");
  EXPECT_EQ(a.get(), nullptr);
}

TEST(Spec, MetadataMembersContradicted) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("metadata": {"shape": [21]})")), ZARR_ERR_INVALID_METADATA,
                "metadata.shape: spec [21] but stored [20]");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("metadata": {"dtype": "<i8"})")), ZARR_ERR_INVALID_METADATA,
                "metadata.dtype");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("metadata": {"compressor": {"id": "zlib", "level": 9}})")),
                ZARR_ERR_INVALID_METADATA, "metadata.compressor");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("metadata": {"order": "F"})")), ZARR_ERR_INVALID_METADATA,
                "metadata.order");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("metadata": {"fill_value": 7})")), ZARR_ERR_INVALID_METADATA,
                "metadata.fill_value");
}

TEST(Spec, MetadataUnknownMemberOrWrongFormat) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("metadata": {"chunk": [1]})")), ZARR_ERR_INVALID_ARGUMENT,
                "metadata.chunk");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("metadata": {"zarr_format": 3})")), ZARR_ERR_INVALID_ARGUMENT,
                "metadata.zarr_format");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("metadata": [1])")), ZARR_ERR_INVALID_ARGUMENT, "'metadata'");
}

TEST(Spec, MetadataChunksMinusOneOrNullIsFullExtent) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(R"("create": true, "metadata": {"shape": [7, 9], "chunks": [-1, null], "dtype": "<u1"})")));
  EXPECT_EQ(chunks_of(a), (std::vector<uint64_t>{7, 9}));
}

// ---- dtype and rank ------------------------------------------------------------------------

TEST(Spec, DtypeChoosesNativeV2Type) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(R"("create": true, "dtype": "uint16", "metadata": {"shape": [4]})")));
  EXPECT_STREQ(metadata_document(a)["dtype"].GetString(), "<u2");
  ASSERT_OK(open_spec(a, memory_spec(R"("create": true, "dtype": "float8_e5m2", "metadata": {"shape": [4]})")));
  EXPECT_STREQ(metadata_document(a)["dtype"].GetString(), "float8_e5m2");
}

TEST(Spec, DtypeConstraintWhenOpening) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("dtype": "int32")")));
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("dtype": "uint8")")), ZARR_ERR_INVALID_METADATA,
                "dtype: spec \"uint8\" but stored \"int32\"");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("dtype": 3)")), ZARR_ERR_INVALID_ARGUMENT, "'dtype'");
}

TEST(Spec, DtypeDisagreeingWithMetadataOrUnknown) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("create": true, "dtype": "uint16", "metadata": {"shape": [4], "dtype": "<i4"})")),
                ZARR_ERR_INVALID_ARGUMENT, "'dtype'");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("create": true, "dtype": "json", "metadata": {"shape": [4]})")),
                ZARR_ERR_UNSUPPORTED, "\"json\"");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("dtype": "int8", "schema": {"dtype": "int16"})")),
                ZARR_ERR_INVALID_ARGUMENT, "'schema.dtype'");
}

TEST(Spec, RankConstraint) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("rank": 1)")));
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("rank": 2)")), ZARR_ERR_INVALID_METADATA, "rank: spec 2 but stored 1");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("create": true, "rank": 2, "metadata": {"shape": [4], "dtype": "<i4"})")),
                ZARR_ERR_INVALID_ARGUMENT, "'rank'");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("rank": 33)")), ZARR_ERR_INVALID_ARGUMENT, "'rank'");
}

// ---- v2-only members: field, metadata_key, key_encoding ----------------------------------------

// TensorStore's example: two fields with subarrays, the record fill value
// holding x = [[1, 2, 3], [4, 5, 6]] and y = [10, 11, 12, 13, 14].
const char* kRecordType = R"([["x", "<u2", [2, 3]], ["y", "<f4", [5]]])";
const char* kRecordFill = R"("AQACAAMABAAFAAYAAAAgQQAAMEEAAEBBAABQQQAAYEE=")";

std::string make_record_array(const TempDir& dir) {
  const std::string url = dir / "records";
  create_array(url, v2_metadata({{"shape", "[4]"}, {"chunks", "[2]"}, {"dtype", kRecordType}, {"fill_value", kRecordFill}}));
  return url;
}

TEST(Spec, FieldWithSubarrayReadsItsFill) {
  TempDir dir;
  const std::string url = make_record_array(dir);
  ArrayPtr x;
  ASSERT_OK(open_spec(x, file_spec(url, R"("field": "x")")));
  EXPECT_EQ(shape_of(x), (std::vector<uint64_t>{4, 2, 3}));
  EXPECT_EQ(chunks_of(x), (std::vector<uint64_t>{2, 2, 3}));
  EXPECT_STREQ(zarr_data_type(x), "uint16");
  EXPECT_EQ(zarr_item_size(x), 2u);
  std::vector<uint16_t> fill(6);
  int is_null = -1;
  ASSERT_OK(zarr_fill_value(x, fill.data(), 12, &is_null));
  EXPECT_EQ(fill, (std::vector<uint16_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(is_null, 0);
  std::vector<uint16_t> all = read_all<uint16_t>(x);
  for (size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(std::vector<uint16_t>(all.begin() + r * 6, all.begin() + r * 6 + 6), fill) << "record " << r;
  }
  ArrayPtr y;
  ASSERT_OK(open_spec(y, file_spec(url, R"("field": "y", "dtype": "float32", "rank": 2)")));
  EXPECT_EQ(read_region<float>(y, {3, 0}, {1, 5}), (std::vector<float>{10, 11, 12, 13, 14}));
}

// A field region whose elements fit in 64 bits but whose bytes no buffer
// holds is a buffer-size error, not a wrapped byte count that a tiny buffer
// matches.
TEST(Spec, FieldRegionTooLargeForMemoryIsABufferSizeError) {
  TempDir dir;
  const std::string url = dir / "huge";
  // 2^59 - 1 records of 32 bytes: 2^64 - 32 bytes, the most that fit.
  create_array(url, v2_metadata({{"shape", "[576460752303423487]"}, {"chunks", "[2]"}, {"dtype", kRecordType},
                                 {"fill_value", kRecordFill}}));
  ArrayPtr y;
  ASSERT_OK(open_spec(y, file_spec(url, R"("field": "y")")));
  const uint64_t start[2] = {0, 0}, count[2] = {576460752303423487u, 5};  // 5 x (2^59 - 1) float32
  float value = 0;
  const std::string needs =
      "field 'y': buffer is 0 bytes but the region of 2882303761517117435 4-byte elements (float32) needs more than "
      "9223372036854775807";
  EXPECT_STATUS(zarr_read_region(y, 2, start, count, &value, 0), ZARR_ERR_BUFFER_SIZE, needs);
  EXPECT_STATUS(zarr_write_region(y, 2, start, count, &value, 0), ZARR_ERR_BUFFER_SIZE, needs);
  // Its bytes fit (2^58 float32), its 32-byte records (2^63 bytes) do not;
  // zero strides make a 4-byte buffer hold the region.
  const uint64_t fits[2] = {uint64_t{1} << 58, 1};
  const int64_t zero_strides[2] = {0, 0};
  EXPECT_STATUS(zarr_read_region_strided(y, 2, start, fits, zero_strides, &value, 4), ZARR_ERR_NO_MEMORY,
                "field 'y': the region's records need more than 9223372036854775807 bytes");
}

TEST(Spec, FieldWritesTouchOnlyTheField) {
  TempDir dir;
  const std::string url = make_record_array(dir);
  ArrayPtr x, y;
  ASSERT_OK(open_spec(x, file_spec(url, R"("field": "x")")));
  ASSERT_OK(open_spec(y, file_spec(url, R"("field": "y")")));
  // Rows 1 of records 1 and 2.
  std::vector<uint16_t> row = {100, 101, 102, 200, 201, 202};
  ASSERT_EQ(write_region(x, {1, 1, 0}, {2, 1, 3}, row), ZARR_OK);
  EXPECT_EQ(read_region<uint16_t>(x, {1, 0, 0}, {1, 2, 3}), (std::vector<uint16_t>{1, 2, 3, 100, 101, 102}));
  EXPECT_EQ(read_region<uint16_t>(x, {2, 1, 0}, {1, 1, 3}), (std::vector<uint16_t>{200, 201, 202}));
  EXPECT_EQ(read_region<uint16_t>(x, {0, 1, 0}, {1, 1, 3}), (std::vector<uint16_t>{4, 5, 6}));
  std::vector<float> ys = read_all<float>(y);
  for (size_t r = 0; r < 4; ++r) EXPECT_EQ(ys[r * 5 + 4], 14.0f) << "record " << r;
  std::vector<float> new_y = {-1, -2, -3, -4, -5};
  ASSERT_EQ(write_region(y, {2, 0}, {1, 5}, new_y), ZARR_OK);
  EXPECT_EQ(read_region<uint16_t>(x, {2, 1, 0}, {1, 1, 3}), (std::vector<uint16_t>{200, 201, 202}));
  // The records as a whole: record 2 is x then y, 32 bytes.
  ArrayPtr records = open_array(url);
  std::vector<uint8_t> record = read_region<uint8_t>(records, {2}, {1});
  ASSERT_EQ(record.size(), 32u);
  uint16_t x5;
  float y0;
  std::memcpy(&x5, record.data() + 10, 2);
  std::memcpy(&y0, record.data() + 12, 4);
  EXPECT_EQ(x5, 202);
  EXPECT_EQ(y0, -1.0f);
}

TEST(Spec, FieldStridedRead) {
  TempDir dir;
  const std::string url = make_record_array(dir);
  ArrayPtr y;
  ASSERT_OK(open_spec(y, file_spec(url, R"("field": "y")")));
  // Fortran order: element (r, j) at r + 4 * j.
  std::vector<float> out(20);
  const uint64_t start[2] = {0, 0}, count[2] = {4, 5};
  const int64_t strides[2] = {4, 16};
  ASSERT_OK(zarr_read_region_strided(y, 2, start, count, strides, out.data(), out.size() * 4));
  for (size_t r = 0; r < 4; ++r) {
    for (size_t j = 0; j < 5; ++j) EXPECT_EQ(out[r + 4 * j], 10.0f + j);
  }
  EXPECT_STATUS(zarr_read_region_strided(y, 2, start, count, strides, out.data(), 40), ZARR_ERR_BUFFER_SIZE, "field 'y'");
}

TEST(Spec, FieldResizeAndRefusedFunctions) {
  TempDir dir;
  const std::string url = make_record_array(dir);
  ArrayPtr x;
  ASSERT_OK(open_spec(x, file_spec(url, R"("field": "x")")));
  const uint64_t bigger[3] = {6, 2, 3}, other_subarray[3] = {6, 2, 4};
  ASSERT_OK(zarr_resize(x, 3, bigger));
  EXPECT_EQ(shape_of(x), (std::vector<uint64_t>{6, 2, 3}));
  EXPECT_STATUS(zarr_resize(x, 3, other_subarray), ZARR_ERR_INVALID_ARGUMENT, "subarray");
  std::vector<uint16_t> v(6);
  const uint64_t count[3] = {1, 2, 3};
  EXPECT_STATUS(zarr_append(x, 0, 3, count, v.data(), 12), ZARR_ERR_UNSUPPORTED, "field 'x'");
  EXPECT_STATUS(zarr_fill_value(x, v.data(), 2, nullptr), ZARR_ERR_BUFFER_SIZE, "field 'x'");
  const uint64_t start[3] = {0, 0, 0}, too_far[3] = {1, 2, 4};
  EXPECT_STATUS(zarr_read_region(x, 3, start, too_far, v.data(), 16), ZARR_ERR_OUT_OF_BOUNDS, "field 'x'");
}

TEST(Spec, FieldConstraintsAndErrors) {
  TempDir dir;
  const std::string url = make_record_array(dir);
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("field": "z")")), ZARR_ERR_INVALID_ARGUMENT, "z");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("field": "x", "rank": 1)")), ZARR_ERR_INVALID_METADATA,
                "rank: spec 1 but stored 3");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("field": "x", "dtype": "float32")")), ZARR_ERR_INVALID_METADATA,
                "dtype");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("field": "x", "schema": {"shape": [4, 2, 4]})")),
                ZARR_ERR_INVALID_METADATA, "schema.shape");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("field": "x", "schema": {"fill_value": 1})")), ZARR_ERR_UNSUPPORTED,
                "'field'");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("field": 3)")), ZARR_ERR_INVALID_ARGUMENT, "'field'");
  // Not a structured type.
  const std::string plain = make_v2_array(dir);
  EXPECT_STATUS(open_spec(a, file_spec(plain, R"("field": "x")")), ZARR_ERR_INVALID_ARGUMENT, "x");
  // null is TensorStore's default: the whole array.
  ASSERT_OK(open_spec(a, file_spec(plain, R"("field": null)")));
  // zarr3 takes "field" too (v3 struct arrays: test_struct.cpp), but not the
  // other v2-only members.
  EXPECT_STATUS(open_spec(a, file_spec(plain, R"("metadata_key": ".zarray")", "zarr3")), ZARR_ERR_INVALID_ARGUMENT,
                "unknown member \"metadata_key\"");
}

TEST(Spec, FieldWhenCreating) {
  TempDir dir;
  ArrayPtr y;
  ASSERT_OK(open_spec(y, file_spec(dir / "new", std::string(R"("create": true, "field": "y", "rank": 2,
      "metadata": {"shape": [3], "dtype": )") + kRecordType + R"(, "fill_value": )" + kRecordFill + "}")));
  EXPECT_EQ(shape_of(y), (std::vector<uint64_t>{3, 5}));
  EXPECT_EQ(read_region<float>(y, {1, 0}, {1, 5}), (std::vector<float>{10, 11, 12, 13, 14}));
  EXPECT_STATUS(open_spec(y, file_spec(dir / "other", R"("create": true, "field": "y", "dtype": "float32",
      "schema": {"shape": [3, 5]})")),
                ZARR_ERR_INVALID_ARGUMENT, "'metadata.shape' and 'metadata.dtype'");
}

TEST(Spec, MetadataKey) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("metadata_key": ".zarray")")));
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("metadata_key": "zarray")")), ZARR_ERR_UNSUPPORTED, "'metadata_key'");
}

TEST(Spec, KeyEncodingSetsDimensionSeparator) {
  TempDir dir;
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(dir / "k", R"("create": true, "key_encoding": "/",
      "metadata": {"shape": [4, 4], "chunks": [2, 2], "dtype": "<u1", "fill_value": 0})")));
  EXPECT_STREQ(metadata_document(a)["dimension_separator"].GetString(), "/");
  std::vector<uint8_t> v = {1};
  ASSERT_EQ(write_region(a, {3, 3}, {1, 1}, v), ZARR_OK);
  EXPECT_TRUE(fs::exists(dir / "k/1/1"));
  EXPECT_STATUS(open_spec(a, file_spec(dir / "k", R"("key_encoding": ".")")), ZARR_ERR_INVALID_METADATA,
                "metadata.dimension_separator");
  EXPECT_STATUS(open_spec(a, file_spec(dir / "k", R"("key_encoding": "-")")), ZARR_ERR_INVALID_ARGUMENT,
                "'key_encoding'");
}

// ---- context resources and revalidation -------------------------------------------------------

TEST(Spec, CachePoolNeedsRecheckCachedDataOff) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("cache_pool": {"total_bytes_limit": 100000}, "recheck_cached_data": false)")));
  EXPECT_TRUE(info_of(a)["cache_pool"].IsObject());
  ASSERT_OK(open_spec(a, file_spec(url, R"("cache_pool": {"total_bytes_limit": 100000}, "recheck_cached_data": "open")")));
  EXPECT_TRUE(info_of(a)["cache_pool"].IsObject());
  // TensorStore rechecks cached data on every read by default: nothing to keep.
  ASSERT_OK(open_spec(a, file_spec(url, R"("cache_pool": {"total_bytes_limit": 100000})")));
  EXPECT_TRUE(info_of(a)["cache_pool"].IsNull());
  ASSERT_OK(open_spec(a, file_spec(url, R"("cache_pool": "cache_pool")")));
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("cache_pool": "cache_pool#big")")), ZARR_ERR_UNSUPPORTED, "cache_pool");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("cache_pool": {"total_bytes_limit": -1})")), ZARR_ERR_INVALID_ARGUMENT,
                "cache_pool.total_bytes_limit");
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("cache_pool": {"total_bytes_limit": 10}, "recheck_cached_data": 5)")),
                ZARR_ERR_UNSUPPORTED, "'recheck_cached_data'");
}

TEST(Spec, RecheckCachedMetadataAccepted) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  for (const char* value : {"true", "false", "\"open\"", "10"}) {
    ASSERT_OK(open_spec(a, file_spec(url, std::string(R"("recheck_cached_metadata": )") + value)));
    ASSERT_OK(open_spec(a, file_spec(url, std::string(R"("recheck_cached_data": )") + value)));
  }
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("recheck_cached_metadata": "always")")), ZARR_ERR_INVALID_ARGUMENT,
                "'recheck_cached_metadata'");
}

TEST(Spec, DataCopyConcurrency) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("data_copy_concurrency": {"limit": 4})")));
  ASSERT_OK(open_spec(a, file_spec(url, R"("data_copy_concurrency": {"limit": "shared"})")));
  ASSERT_OK(open_spec(a, file_spec(url, R"("data_copy_concurrency": "data_copy_concurrency")")));
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("data_copy_concurrency": {"limit": 0})")), ZARR_ERR_INVALID_ARGUMENT,
                "spec: 'data_copy_concurrency'");
}

TEST(Spec, StoreDataEqualToFillValue) {
  TempDir dir;
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(dir / "w", R"("create": true, "store_data_equal_to_fill_value": true,
      "metadata": {"shape": [2], "chunks": [2], "dtype": "<u1", "fill_value": 0})")));
  std::vector<uint8_t> zeros = {0, 0};
  ASSERT_EQ(write_region(a, {0}, {2}, zeros), ZARR_OK);
  EXPECT_TRUE(fs::exists(dir / "w/0"));
}

// ---- unknown and unsupported members ----------------------------------------------------------

TEST(Spec, UnknownMemberNamed) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("craete": true)")), ZARR_ERR_INVALID_ARGUMENT,
                "unknown member \"craete\"");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("schema": {"chunk_layuot": {}})")), ZARR_ERR_INVALID_ARGUMENT,
                "schema.chunk_layuot");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("key_encoding": ".")", "zarr3")), ZARR_ERR_INVALID_ARGUMENT,
                "unknown member \"key_encoding\"");
}

TEST(Spec, UnsupportedMembersNamed) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("transform": {})")), ZARR_ERR_UNSUPPORTED, "member \"transform\" is not");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("context": {})")), ZARR_ERR_UNSUPPORTED, "member \"context\" is not");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("metadata_cache_pool": {})")), ZARR_ERR_UNSUPPORTED,
                "member \"metadata_cache_pool\" is not");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("schema": {"dimension_units": ["nm"]})")), ZARR_ERR_UNSUPPORTED,
                "schema.dimension_units");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("schema": {"chunk_layout": {"codec_chunk": {}}})")), ZARR_ERR_UNSUPPORTED,
                "schema.chunk_layout.codec_chunk");
}

TEST(Spec, WrongTypesNamed) {
  ArrayPtr a;
  EXPECT_STATUS(open_spec(a, memory_spec(R"("create": "yes")")), ZARR_ERR_INVALID_ARGUMENT, "'create'");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("path": 3)")), ZARR_ERR_INVALID_ARGUMENT, "'path'");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("schema": [])")), ZARR_ERR_INVALID_ARGUMENT, "'schema'");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("schema": {"domain": {"shape": [-1]}})")), ZARR_ERR_INVALID_ARGUMENT,
                "schema.domain.shape");
}

// ---- schema ---------------------------------------------------------------------------------

TEST(Spec, ChunkShapeUnconstrained) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(std::string(kCreateUint16) + "}")));
  EXPECT_EQ(chunks_of(a), (std::vector<uint64_t>{101, 101, 101}));
  EXPECT_STREQ(metadata_document(a)["dtype"].GetString(), "<u2");
}

TEST(Spec, ChunkShapeExplicit) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(std::string(kCreateUint16) +
                                     R"(, "chunk_layout": {"chunk": {"shape": [100, 200, 300]}}})")));
  EXPECT_EQ(chunks_of(a), (std::vector<uint64_t>{100, 200, 300}));
}

TEST(Spec, ChunkShapeAspectRatio) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(std::string(kCreateUint16) +
                                     R"(, "chunk_layout": {"chunk": {"aspect_ratio": [1, 2, 2]}}})")));
  EXPECT_EQ(chunks_of(a), (std::vector<uint64_t>{64, 128, 128}));
}

TEST(Spec, ChunkShapeAspectRatioAndElements) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(std::string(kCreateUint16) +
                                     R"(, "chunk_layout": {"chunk": {"aspect_ratio": [1, 2, 2], "elements": 2000000}}})")));
  EXPECT_EQ(chunks_of(a), (std::vector<uint64_t>{79, 159, 159}));
}

TEST(Spec, ChunkShapeMinusOneFullExtentNullChosen) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(R"("create": true, "dtype": "uint8", "schema": {"shape": [50, 4000],
      "chunk_layout": {"write_chunk": {"shape": [-1, null], "elements": 10000}}})")));
  EXPECT_EQ(chunks_of(a), (std::vector<uint64_t>{50, 200}));
}

TEST(Spec, ReadAndWriteChunkCombine) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(R"("create": true, "dtype": "uint8", "schema": {"shape": [40, 40],
      "chunk_layout": {"read_chunk": {"shape": [10, 0]}, "write_chunk": {"shape": [0, 20]}}})")));
  EXPECT_EQ(chunks_of(a), (std::vector<uint64_t>{10, 20}));
  EXPECT_STATUS(open_spec(a, memory_spec(R"("create": true, "dtype": "uint8", "schema": {"shape": [40, 40],
      "chunk_layout": {"read_chunk": {"shape": [10, 10]}, "write_chunk": {"shape": [20, 20]}}})")),
                ZARR_ERR_INVALID_ARGUMENT, "schema.chunk_layout.write_chunk.shape");
}

TEST(Spec, ChunkLayoutCheckedWhenOpening) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("schema": {"chunk_layout": {"chunk": {"shape": [10], "elements": 5}}})")));
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("schema": {"chunk_layout": {"read_chunk": {"shape": [5]}}})")),
                ZARR_ERR_INVALID_METADATA, "schema.chunk_layout");
}

TEST(Spec, ChunkLayoutOrderAndOrigin) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(R"("create": true, "dtype": "int16", "schema": {"shape": [4, 6],
      "chunk_layout": {"inner_order": [1, 0], "grid_origin": [0, 0]}})")));
  EXPECT_STREQ(metadata_document(a)["order"].GetString(), "F");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("create": true, "dtype": "int16", "schema": {"shape": [4, 6],
      "chunk_layout": {"grid_origin": [1, 0]}})")),
                ZARR_ERR_UNSUPPORTED, "grid_origin");
}

TEST(Spec, DomainExclusiveMaxAndInclusiveMin) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(R"("create": true, "dtype": "float32",
      "schema": {"domain": {"inclusive_min": [0, 0], "exclusive_max": [[30], [40]]}})")));
  EXPECT_EQ(shape_of(a), (std::vector<uint64_t>{30, 40}));
  EXPECT_STATUS(open_spec(a, memory_spec(R"("create": true, "dtype": "float32",
      "schema": {"domain": {"inclusive_min": [1], "exclusive_max": [30]}})")),
                ZARR_ERR_UNSUPPORTED, "schema.domain.inclusive_min");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("create": true, "dtype": "float32",
      "schema": {"domain": {"shape": [3]}}, "metadata": {"shape": [4]})")),
                ZARR_ERR_INVALID_ARGUMENT, "metadata.shape");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("create": true, "dtype": "float32", "schema": {"domain": {"labels": ["x"]}})")),
                ZARR_ERR_UNSUPPORTED, "schema.domain.labels");
}

TEST(Spec, DomainCheckedWhenOpening) {
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(url, R"("schema": {"domain": {"exclusive_max": [[20]]}, "rank": 1})")));
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("schema": {"shape": [10]})")), ZARR_ERR_INVALID_METADATA,
                "schema.shape: spec [10] but stored [20]");
}

TEST(Spec, SchemaFillValue) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(R"("create": true, "dtype": "int32", "schema": {"shape": [3], "fill_value": 42})")));
  EXPECT_EQ(read_all<int32_t>(a), (std::vector<int32_t>{42, 42, 42}));
  TempDir dir;
  const std::string url = make_v2_array(dir);
  ASSERT_OK(open_spec(a, file_spec(url, R"("schema": {"fill_value": 0})")));
  EXPECT_STATUS(open_spec(a, file_spec(url, R"("schema": {"fill_value": 1})")), ZARR_ERR_INVALID_METADATA,
                "schema.fill_value");
}

TEST(Spec, SchemaCodecGivesCompressor) {
  ArrayPtr a;
  ASSERT_OK(open_spec(a, memory_spec(R"("create": true, "dtype": "int32",
      "schema": {"shape": [3], "codec": {"driver": "zarr", "compressor": {"id": "zlib", "level": 4}}})")));
  EXPECT_STREQ(metadata_document(a)["compressor"]["id"].GetString(), "zlib");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("schema": {"codec": {"driver": "n5"}})")), ZARR_ERR_INVALID_ARGUMENT,
                "schema.codec.driver");
  EXPECT_STATUS(open_spec(a, memory_spec(R"("schema": {"codec": {"compressor": null}},
      "metadata": {"compressor": {"id": "zlib"}})")),
                ZARR_ERR_INVALID_ARGUMENT, "'metadata.compressor' and 'schema.codec.compressor'");
}

// ---- zarr3 ----------------------------------------------------------------------------------

TEST(Spec, Zarr3CreateFromSchema) {
  TempDir dir;
  ArrayPtr a;
  ASSERT_OK(open_spec(a, file_spec(dir / "v3", std::string(kCreateUint16) + "}", "zarr3")));
  EXPECT_EQ(zarr_format(a), 3);
  EXPECT_EQ(chunks_of(a), (std::vector<uint64_t>{101, 101, 101}));
  EXPECT_STREQ(zarr_data_type(a), "uint16");
  EXPECT_TRUE(fs::exists(dir / "v3/zarr.json"));
  ArrayPtr b;
  ASSERT_OK(open_spec(b, file_spec(dir / "v3", R"("dtype": "uint16", "metadata": {"chunk_grid":
      {"name": "regular", "configuration": {"chunk_shape": [101, 101, 101]}}})", "zarr3")));
  EXPECT_STATUS(open_spec(b, file_spec(dir / "v3", R"("metadata": {"data_type": "int16"})", "zarr3")),
                ZARR_ERR_INVALID_METADATA, "metadata.data_type");
}
