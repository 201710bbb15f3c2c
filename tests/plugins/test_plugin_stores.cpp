// Stores a program brings (zarr_store_register, zarr_plugin.h): the C hash-map
// store of hashmap_store.c runs the array round-trip suite; it also loads from
// ZARR_PLUGIN_PATH on the first URL of its scheme; a store whose callbacks
// fail on request shows that every failure reaches the caller with the
// store's own message; bad vtables are refused naming the field.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "array_roundtrip_suite.h"
#include "capi_helpers.h"
#include "hashmap_store.h"
#include "zarr/zarr_plugin.h"

namespace fs = std::filesystem;

namespace zarr::test {
namespace {

void register_hashmap_once() {
  static const int status = hashmap_store_register("hashmap");
  ASSERT_EQ(status, ZARR_OK) << zarr_last_error();
}

std::string fresh_table(const std::string& stem) {
  static std::atomic<int> next{0};
  return stem + std::to_string(next++);
}

RoundTripStore hashmap_roundtrip_store() {
  return {"hashmap_in_c", [](const std::string&) {
            register_hashmap_once();
            return "hashmap://" + fresh_table("roundtrip");
          },
          /*listable=*/true, /*prepare=*/nullptr, /*finish=*/nullptr};
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(StoreInC, ArrayRoundTrip, testing::Values(hashmap_roundtrip_store()), roundtrip_store_name);

namespace {

const std::string kMeta = array_meta("[10]", "[4]", "<i4");

TEST(HashmapStore, HandlesShareATableWhichTheLastCloseFrees) {
  register_hashmap_once();
  const std::string table = fresh_table("shared");
  const std::string url = "hashmap://" + table + "/group/a";
  {
    ArrayPtr writer = create_array(url, kMeta);
    ASSERT_OK(write_region(writer, {0}, {10}, std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    ArrayPtr reader = open_array(url, "r");
    EXPECT_EQ(read_region<int32_t>(reader, {8}, {2}), (std::vector<int32_t>{9, 10}));
    // .zarray, the .zgroup of "group" and of the root created above it, and
    // three chunks.
    EXPECT_EQ(hashmap_store_key_count(table.c_str()), 6u);
  }
  EXPECT_EQ(hashmap_store_key_count(table.c_str()), 0u);
  ArrayPtr gone;
  EXPECT_STATUS(zarr_open(gone.out(), url.c_str(), "r"), ZARR_ERR_NOT_FOUND, "");
}

TEST(HashmapStore, OptionsReachTheStoresOpen) {
  register_hashmap_once();
  ArrayPtr a;
  const std::string url = "hashmap://" + fresh_table("options") + "/a";
  EXPECT_STATUS(zarr_create_ex(a.out(), url.c_str(), kMeta.c_str(), "{\"store\": {\"cache\": 1}}"),
                ZARR_ERR_INVALID_ARGUMENT, "the hashmap store takes no options");
}

TEST(HashmapStore, ZipArchivesInsideItAreRefused) {
  register_hashmap_once();
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), "hashmap://t/a.zip|zip:", "r"), ZARR_ERR_UNSUPPORTED, "not over hashmap");
}

TEST(HashmapStore, UnknownSchemesNameTheRegisteredOnes) {
  register_hashmap_once();
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), "nosuchstore://t/a", "r"), ZARR_ERR_INVALID_ARGUMENT, "unknown scheme 'nosuchstore'");
  EXPECT_NE(std::string(zarr_last_error()).find("hashmap"), std::string::npos) << zarr_last_error();
  EXPECT_STATUS(zarr_open(a.out(), "hashmap:///a", "r"), ZARR_ERR_INVALID_ARGUMENT, "need a store name");
}

TEST(HashmapStore, LoadsFromZarrPluginPathOnItsFirstUrl) {
  TempDir plugins;
  fs::copy_file(fs::path(PLUGIN_BUILD_DIR) / "libhashmap_plugin.so", fs::path(plugins.path()) / "libhashmap_plugin.so");
  ASSERT_EQ(setenv("ZARR_PLUGIN_PATH", plugins.path().c_str(), 1), 0);
  const std::string url = "plugkv://" + fresh_table("loaded") + "/a";
  ArrayPtr a;
  int status = zarr_create(a.out(), url.c_str(), kMeta.c_str());
  unsetenv("ZARR_PLUGIN_PATH");
  ASSERT_EQ(status, ZARR_OK) << status_text(status);
  EXPECT_EQ(write_then_read_all(a, {2}, {3}, std::vector<int32_t>{7, 8, 9}),
            (std::vector<int32_t>{0, 0, 7, 8, 9, 0, 0, 0, 0, 0}));
}

// ---- a store whose callbacks fail on request ------------------------------------------------------

// What the faulty store does; each test sets it.
struct Faults {
  int open_status = ZARR_OK;
  int get_status = ZARR_OK;  // for chunk keys (metadata always reads)
  int set_status = ZARR_OK;
  int list_status = ZARR_OK;
  int flush_status = ZARR_OK;
  size_t extra_bytes = 0;  // added to every answer to a range
  bool greedy_get = false;  // chunk reads ask for more memory than there is
  bool greedy_open = false;  // open asks for more memory than there is, then succeeds
  std::atomic<int> opens{0}, closes{0};
};
Faults faults;

int fail_with(const zarr_store_output* out, int status, const char* what) {
  out->set_error(out->context, what);
  return status;
}

// Values live in a std::map behind the faults (one store, tests run alone).
std::map<std::string, std::string> values;

int faulty_open(void*, const char*, const char*, int, void** store, const zarr_store_output* out) {
  if (faults.open_status != ZARR_OK) return fail_with(out, faults.open_status, "no such database");
  ++faults.opens;
  *store = &values;
  if (faults.greedy_open) out->allocate(out->context, SIZE_MAX);
  return ZARR_OK;
}

bool is_metadata(const char* key) { return std::strstr(key, ".z") != nullptr; }

int faulty_get(void*, const char* key, uint64_t offset, uint64_t length, int from_end, const zarr_store_output* out) {
  if (!is_metadata(key) && faults.get_status != ZARR_OK) return fail_with(out, faults.get_status, "disk on fire");
  auto it = values.find(key);
  if (it == values.end()) return ZARR_ERR_NOT_FOUND;
  const std::string& v = it->second;
  std::string part = from_end ? v.substr(v.size() - std::min<uint64_t>(length, v.size()))
                              : (offset >= v.size() ? "" : v.substr(offset, length));
  if (length != ZARR_STORE_TO_END) part.append(faults.extra_bytes, 'x');
  void* dst = out->allocate(out->context, faults.greedy_get && !is_metadata(key) ? SIZE_MAX : part.size());
  if (!dst) return ZARR_ERR_NO_MEMORY;
  std::memcpy(dst, part.data(), part.size());
  return ZARR_OK;
}

int faulty_set(void*, const char* key, const void* value, size_t nbytes, const zarr_store_output* out) {
  if (!is_metadata(key) && faults.set_status != ZARR_OK) return fail_with(out, faults.set_status, "quota exceeded");
  values[key] = std::string(static_cast<const char*>(value), nbytes);
  return ZARR_OK;
}

int faulty_erase(void*, const char* key, const zarr_store_output*) {
  values.erase(key);
  return ZARR_OK;
}

int faulty_list(void*, const char* prefix, const zarr_store_output* out) {
  if (faults.list_status != ZARR_OK) return fail_with(out, faults.list_status, "listing timed out");
  for (const auto& entry : values) {
    if (entry.first.rfind(prefix, 0) == 0) out->add_key(out->context, entry.first.c_str());
  }
  out->add_key(out->context, "../outside");  // keys libzarr could not have written are left out
  return ZARR_OK;
}

int faulty_flush(void*, const zarr_store_output* out) {
  return faults.flush_status == ZARR_OK ? ZARR_OK : fail_with(out, faults.flush_status, "commit failed");
}

void faulty_close(void*) { ++faults.closes; }

zarr_store_vtable faulty_vtable(const char* scheme) {
  zarr_store_vtable vt;
  std::memset(&vt, 0, sizeof vt);
  vt.struct_size = sizeof vt;
  vt.abi_version = ZARR_PLUGIN_ABI_VERSION;
  vt.scheme = scheme;
  vt.open = faulty_open;
  vt.get = faulty_get;
  vt.set = faulty_set;
  vt.erase = faulty_erase;
  vt.list = faulty_list;
  vt.flush = faulty_flush;
  vt.close = faulty_close;
  return vt;
}

class FaultyStore : public testing::Test {
 protected:
  void SetUp() override {
    values.clear();
    faults.open_status = faults.get_status = faults.set_status = faults.list_status = faults.flush_status = ZARR_OK;
    faults.extra_bytes = 0;
    faults.greedy_get = faults.greedy_open = false;
    zarr_store_vtable vt = faulty_vtable("faulty");
    ASSERT_OK(zarr_store_register(&vt));
  }
};

TEST_F(FaultyStore, OpenFailuresKeepTheirStatusAndMessage) {
  faults.open_status = ZARR_ERR_NOT_FOUND;
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), "faulty://db/a", "r"), ZARR_ERR_NOT_FOUND, "store 'faulty://db': no such database");
  EXPECT_NE(std::string(zarr_last_error()).find("URL 'faulty://db/a'"), std::string::npos) << zarr_last_error();
}

TEST_F(FaultyStore, CallbackFailuresNameTheStoreTheKeyAndTheMessage) {
  ArrayPtr a = create_array("faulty://db/a", kMeta);
  ASSERT_NE(a.get(), nullptr);
  faults.set_status = ZARR_ERR_IO;
  EXPECT_STATUS(write_region(a, {0}, {4}, std::vector<int32_t>{1, 2, 3, 4}), ZARR_ERR_IO,
                "store 'faulty://db': set 'a/0' failed: quota exceeded");
  faults.set_status = ZARR_OK;
  ASSERT_OK(write_region(a, {0}, {4}, std::vector<int32_t>{1, 2, 3, 4}));
  faults.get_status = ZARR_ERR_IO;
  std::vector<int32_t> out(4);
  const uint64_t start = 0, count = 4;
  EXPECT_STATUS(zarr_read_region(a, 1, &start, &count, out.data(), 16), ZARR_ERR_IO, "get 'a/0' failed: disk on fire");
  // A status libzarr does not know is an I/O error, its value quoted.
  faults.get_status = 42;
  EXPECT_STATUS(zarr_read_region(a, 1, &start, &count, out.data(), 16), ZARR_ERR_IO, "(status 42)");
}

// The store's get asks for more memory than its read may take (there is
// not that much memory either): ZARR_ERR_IO naming the store, the key, the
// size and the limit, and nothing is allocated. A whole chunk of 16 bytes is
// asked for as its first 17 (one more tells a larger value).
TEST_F(FaultyStore, AnAllocationOverTheReadsLimitNamesTheStoreTheKeyAndTheSize) {
  ArrayPtr a = create_array("faulty://db/a", kMeta);
  ASSERT_NE(a.get(), nullptr);
  ASSERT_OK(write_region(a, {0}, {4}, std::vector<int32_t>{1, 2, 3, 4}));
  faults.greedy_get = true;
  std::vector<int32_t> out(4);
  const uint64_t start = 0, count = 4;
  EXPECT_STATUS(zarr_read_region(a, 1, &start, &count, out.data(), 16), ZARR_ERR_IO,
                "store 'faulty://db': get 'a/0' answered with " + std::to_string(SIZE_MAX) +
                    " bytes for a range of at most 17");
}

// An open that succeeded after an allocation failed: the error names the
// store, and the handle it opened is closed, not leaked.
TEST_F(FaultyStore, AnOpenThatRanOutOfMemoryIsClosed) {
  faults.greedy_open = true;
  const int closes = faults.closes;
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), "faulty://db/a", "r"), ZARR_ERR_NO_MEMORY,
                "store 'faulty://db': open: out of memory for the");
  EXPECT_EQ(faults.closes, closes + 1);
}

TEST_F(FaultyStore, ListingFailuresAndStrayKeys) {
  GroupPtr g;
  ASSERT_OK(zarr_group_create_ex(g.out(), "faulty://db/g", nullptr, kV2Group));
  ArrayPtr a;
  ASSERT_OK(zarr_group_create_array(a.out(), g, "x", kMeta.c_str()));
  EXPECT_EQ(child_names(g), (std::vector<std::string>{"x"}));  // "../outside" is left out
  faults.list_status = ZARR_ERR_IO;
  char* json = nullptr;
  EXPECT_STATUS(zarr_group_list(g, &json), ZARR_ERR_IO, "list 'g/' failed: listing timed out");
}

TEST_F(FaultyStore, RangesAnsweredWithTooManyBytesAreRefused) {
  const std::string sharded =
      R"({"zarr_format": 3, "node_type": "array", "shape": [8], "data_type": "int32", "chunk_grid": {"name": "regular",
      "configuration": {"chunk_shape": [8]}}, "chunk_key_encoding": {"name": "default"}, "fill_value": 0, "codecs":
      [{"name": "sharding_indexed", "configuration": {"chunk_shape": [2], "codecs": [{"name": "bytes",
      "configuration": {"endian": "little"}}], "index_codecs": [{"name": "bytes", "configuration": {"endian":
      "little"}}], "index_location": "end"}}]})";
  ArrayPtr a = create_array("faulty://db/s", sharded);
  ASSERT_NE(a.get(), nullptr);
  ASSERT_OK(write_region(a, {0}, {8}, std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  faults.extra_bytes = 3;
  std::vector<int32_t> out(2);
  const uint64_t start = 2, count = 2;
  EXPECT_STATUS(zarr_read_region(a, 1, &start, &count, out.data(), 8), ZARR_ERR_IO, "bytes for a range of at most");
}

TEST_F(FaultyStore, FlushFailuresAreWhatTheLastCloseReturns) {
  const int opens = faults.opens, closes = faults.closes;
  zarr_array* a = nullptr;
  ASSERT_OK(zarr_create(&a, "faulty://db/a", kMeta.c_str()));
  faults.flush_status = ZARR_ERR_IO;
  EXPECT_STATUS(zarr_close(a), ZARR_ERR_IO, "flush failed: commit failed");
  EXPECT_EQ(faults.opens - opens, 1);
  EXPECT_EQ(faults.closes - closes, 1) << "every store opened is closed once";
}

TEST_F(FaultyStore, StoresWithoutWriteOrListCallbacks) {
  zarr_store_vtable vt = faulty_vtable("faultyro");
  vt.set = nullptr;
  vt.erase = nullptr;
  vt.list = nullptr;
  ASSERT_OK(zarr_store_register(&vt));
  ArrayPtr a;
  EXPECT_STATUS(zarr_create(a.out(), "faultyro://db/a", kMeta.c_str()), ZARR_ERR_READ_ONLY, "faultyro://db");
  create_array("faulty://db/a", kMeta);  // the same values, written through the writable scheme
  ASSERT_OK(zarr_open(a.out(), "faultyro://db/a", "r+"));
  EXPECT_STATUS(write_region(a, {0}, {1}, std::vector<int32_t>{1}), ZARR_ERR_READ_ONLY, "faultyro://db");
  GroupPtr g;
  create_array("faulty://db/g/x", kMeta);
  ASSERT_OK(zarr_group_open(g.out(), "faultyro://db/g", "r"));
  char* json = nullptr;
  EXPECT_STATUS(zarr_group_list(g, &json), ZARR_ERR_UNSUPPORTED, "no list callback");
  // Without a listing the stored figures are unknown, and the chunk listing unsupported.
  ArrayPtr listless;
  ASSERT_OK(zarr_open(listless.out(), "faultyro://db/a", "r"));
  ASSERT_OK(zarr_info(listless, &json));
  EXPECT_NE(std::string(json).find("\"chunks_initialized\":null"), std::string::npos) << json;
  zarr_free(json);
  json = nullptr;
  EXPECT_STATUS(zarr_stored_chunks(listless, &json), ZARR_ERR_UNSUPPORTED, "cannot list its keys");
  EXPECT_EQ(json, nullptr);
}

TEST(StoreRegister, RefusesBadVtablesNamingTheField) {
  EXPECT_STATUS(zarr_store_register(nullptr), ZARR_ERR_INVALID_ARGUMENT, "'vtable' is NULL");
  struct Case {
    const char* what;
    void (*spoil)(zarr_store_vtable&);
    int status;
    const char* fragment;
  };
  const Case cases[] = {
      {"small", [](zarr_store_vtable& v) { v.struct_size = 8; }, ZARR_ERR_INVALID_ARGUMENT, "'struct_size' is 8"},
      {"abi 0", [](zarr_store_vtable& v) { v.abi_version = 0; }, ZARR_ERR_UNSUPPORTED, "'abi_version' is 0"},
      {"abi 99", [](zarr_store_vtable& v) { v.abi_version = 99; }, ZARR_ERR_UNSUPPORTED, "'abi_version' is 99"},
      {"no scheme", [](zarr_store_vtable& v) { v.scheme = nullptr; }, ZARR_ERR_INVALID_ARGUMENT, "got NULL"},
      {"empty", [](zarr_store_vtable& v) { v.scheme = ""; }, ZARR_ERR_INVALID_ARGUMENT, "'scheme' must be"},
      {"upper", [](zarr_store_vtable& v) { v.scheme = "Kv"; }, ZARR_ERR_INVALID_ARGUMENT, "\"Kv\""},
      {"digit", [](zarr_store_vtable& v) { v.scheme = "9kv"; }, ZARR_ERR_INVALID_ARGUMENT, "\"9kv\""},
      {"colon", [](zarr_store_vtable& v) { v.scheme = "kv:"; }, ZARR_ERR_INVALID_ARGUMENT, "\"kv:\""},
      {"file", [](zarr_store_vtable& v) { v.scheme = "file"; }, ZARR_ERR_INVALID_ARGUMENT, "'file' is built into"},
      {"s3", [](zarr_store_vtable& v) { v.scheme = "s3"; }, ZARR_ERR_INVALID_ARGUMENT, "'s3' is built into"},
      {"zip", [](zarr_store_vtable& v) { v.scheme = "zip"; }, ZARR_ERR_INVALID_ARGUMENT, "'zip' is built into"},
      {"open", [](zarr_store_vtable& v) { v.open = nullptr; }, ZARR_ERR_INVALID_ARGUMENT, "field 'open' is NULL"},
      {"get", [](zarr_store_vtable& v) { v.get = nullptr; }, ZARR_ERR_INVALID_ARGUMENT, "field 'get' is NULL"},
      {"close", [](zarr_store_vtable& v) { v.close = nullptr; }, ZARR_ERR_INVALID_ARGUMENT, "field 'close' is NULL"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    zarr_store_vtable vt = faulty_vtable("spoiled");
    c.spoil(vt);
    EXPECT_STATUS(zarr_store_register(&vt), c.status, c.fragment);
  }
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), "spoiled://db/a", "r"), ZARR_ERR_INVALID_ARGUMENT, "unknown scheme 'spoiled'");
}

}  // namespace
}  // namespace zarr::test
