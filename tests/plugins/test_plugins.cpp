// Codec plugins: registered in-process with zarr_codec_register, and loaded
// from ZARR_PLUGIN_PATH; arrays written through them read back; every way a
// plugin can fail is reported by the codec lookup, naming the file.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarr/zarr_plugin.h"

extern "C" int rle8_register(const char* name);  // rle8_plugin.c, linked in

namespace fs = std::filesystem;
using zarr::test::TempDir;

namespace {

std::string error_text(int status) { return std::string(zarr_status_name(status)) + ": " + zarr_last_error(); }

// Runs of 40 equal values whose two bytes are equal too: 80-byte runs for rle8.
std::vector<uint16_t> runs_of(size_t n) {
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint16_t>((i / 40) % 256 * 257);
  return v;
}

// Create an array with `metadata`, write `values`, reopen it and read them back.
std::vector<uint16_t> round_trip(const std::string& url, const std::string& metadata,
                                 const std::vector<uint16_t>& values) {
  zarr_array* a = nullptr;
  EXPECT_EQ(zarr_create(&a, url.c_str(), metadata.c_str()), ZARR_OK) << zarr_last_error();
  uint64_t start = 0, count = values.size();
  EXPECT_EQ(zarr_write_region(a, 1, &start, &count, values.data(), values.size() * 2), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  std::vector<uint16_t> back(values.size());
  EXPECT_EQ(zarr_open(&a, url.c_str(), "r"), ZARR_OK) << zarr_last_error();
  EXPECT_EQ(zarr_read_region(a, 1, &start, &count, back.data(), back.size() * 2), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  return back;
}

std::string v2_with_compressor(const std::string& id) {
  return R"({"zarr_format": 2, "shape": [1000], "chunks": [300], "dtype": "<u2", "compressor": {"id": ")" + id +
         R"("}, "fill_value": 0, "filters": null, "order": "C"})";
}

std::string v3_with_codec(const std::string& name) {
  return R"({"zarr_format": 3, "node_type": "array", "shape": [1000], "data_type": "uint16", "chunk_grid": {"name":
         "regular", "configuration": {"chunk_shape": [300]}}, "chunk_key_encoding": {"name": "default"},
         "fill_value": 0, "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": ")" +
         name + R"("}]})";
}

// Copy built plugin libraries (from this test's build folder) into `dir`.
void copy_plugins(const std::string& dir, const std::vector<std::string>& names) {
  for (const std::string& name : names) fs::copy_file(fs::path(PLUGIN_BUILD_DIR) / name, fs::path(dir) / name);
}

int create_codec(const std::string& config, zarr_codec** out) { return zarr_codec_create(out, config.c_str()); }

}  // namespace

TEST(Plugins, RegisteredInProcessCodecWorksOnBuffersAndInArrays) {
  ASSERT_EQ(rle8_register("rle8-inproc"), ZARR_OK) << zarr_last_error();
  zarr_codec* codec = nullptr;
  ASSERT_EQ(create_codec(R"({"id": "rle8-inproc"})", &codec), ZARR_OK) << zarr_last_error();
  const std::string input = "aaaabcc";
  void* encoded = nullptr;
  size_t encoded_size = 0;
  ASSERT_EQ(zarr_codec_encode(codec, input.data(), input.size(), &encoded, &encoded_size), ZARR_OK);
  EXPECT_EQ(std::string(static_cast<char*>(encoded), encoded_size), std::string("\x04" "a" "\x01" "b" "\x02" "c", 6));
  void* decoded = nullptr;
  size_t decoded_size = 0;
  ASSERT_EQ(zarr_codec_decode(codec, encoded, encoded_size, &decoded, &decoded_size), ZARR_OK);
  EXPECT_EQ(std::string(static_cast<char*>(decoded), decoded_size), input);
  zarr_free(encoded);
  zarr_free(decoded);
  zarr_codec_free(codec);

  TempDir dir;
  const std::vector<uint16_t> values = runs_of(1000);
  EXPECT_EQ(round_trip(dir / "v2", v2_with_compressor("rle8-inproc"), values), values);
  EXPECT_EQ(round_trip(dir / "v3", v3_with_codec("rle8-inproc"), values), values);
  // Stored compressed, and the metadata names the codec as given.
  EXPECT_LT(zarr::test::read_file(dir / "v2/0").size(), 300u * 2 / 4);
  const zarr::Bytes meta = zarr::test::read_file(dir / "v3/zarr.json");
  EXPECT_NE(std::string(meta.begin(), meta.end()).find("\"name\": \"rle8-inproc\""), std::string::npos);
}

TEST(Plugins, CodecFromZarrPluginPathLoadsOnFirstUse) {
  TempDir plugins, data;
  copy_plugins(plugins.path(), {"librle8.so"});
  ASSERT_EQ(setenv("ZARR_PLUGIN_PATH", ("/nonexistent-libzarr-folder:" + plugins.path()).c_str(), 1), 0);
  const std::vector<uint16_t> values = runs_of(1000);
  EXPECT_EQ(round_trip(data / "v2", v2_with_compressor("rle8"), values), values);
  EXPECT_EQ(round_trip(data / "v3", v3_with_codec("rle8"), values), values);
  unsetenv("ZARR_PLUGIN_PATH");
}

TEST(Plugins, EveryFailedPluginIsNamedInTheLookupError) {
  TempDir plugins;
  copy_plugins(plugins.path(), {"libinit_fails.so", "libwrong_abi.so", "libno_entry.so"});
  zarr::test::write_file(plugins / "libgarbage.so", zarr::ByteView(std::string("not an ELF file")));
  ASSERT_EQ(setenv("ZARR_PLUGIN_PATH", plugins.path().c_str(), 1), 0);
  zarr_codec* codec = nullptr;
  EXPECT_EQ(create_codec(R"({"id": "no-such-codec"})", &codec), ZARR_ERR_UNSUPPORTED);
  EXPECT_EQ(codec, nullptr);
  const std::string message = zarr_last_error();
  for (const char* expected :
       {"unsupported codec 'no-such-codec'", "libgarbage.so: cannot load", "libinit_fails.so: zarr_plugin_init returned "
        "ZARR_ERR_UNSUPPORTED", "libwrong_abi.so: zarr_plugin_init returned ZARR_ERR_UNSUPPORTED: zarr_codec_register: "
        "field 'abi_version' is 99", "libno_entry.so: no zarr_plugin_init entry point"}) {
    EXPECT_NE(message.find(expected), std::string::npos) << "missing: " << expected << "\nin: " << message;
  }
  // In array metadata the same lookup fails the same way, naming the array.
  TempDir data;
  zarr_array* a = nullptr;
  EXPECT_EQ(zarr_create(&a, (data / "a").c_str(), v2_with_compressor("no-such-codec").c_str()), ZARR_ERR_UNSUPPORTED);
  EXPECT_NE(std::string(zarr_last_error()).find("libinit_fails.so"), std::string::npos) << zarr_last_error();
  EXPECT_FALSE(fs::exists(data / "a"));
  unsetenv("ZARR_PLUGIN_PATH");
}

TEST(Plugins, CallbackErrorsCarryThePluginsMessage) {
  ASSERT_EQ(rle8_register("rle8-errors"), ZARR_OK);
  zarr_codec* codec = nullptr;
  EXPECT_EQ(create_codec(R"({"id": "rle8-errors", "configuration_error": 1})", &codec), ZARR_ERR_INVALID_METADATA);
  EXPECT_NE(std::string(zarr_last_error()).find("codec 'rle8-errors': field 'configuration_error'"), std::string::npos)
      << zarr_last_error();
  ASSERT_EQ(create_codec(R"({"id": "rle8-errors"})", &codec), ZARR_OK);
  void* out = reinterpret_cast<void*>(1);
  size_t out_size = 7;
  EXPECT_EQ(zarr_codec_decode(codec, "abc", 3, &out, &out_size), ZARR_ERR_CODEC);
  EXPECT_NE(std::string(zarr_last_error()).find("corrupt input: odd length"), std::string::npos) << zarr_last_error();
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(out_size, 0u);
  zarr_codec_free(codec);
}

TEST(Plugins, RegisterRefusesBadVtables) {
  EXPECT_EQ(zarr_codec_register(nullptr), ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(zarr_last_error()).find("'vtable' is NULL"), std::string::npos);

  // Start from a good vtable (what rle8_register builds) and break one field.
  struct Case {
    const char* what;
    void (*breaks)(zarr_codec_vtable&);
    int status;
    const char* fragment;
  } cases[] = {
      {"small struct", [](zarr_codec_vtable& v) { v.struct_size = 8; }, ZARR_ERR_INVALID_ARGUMENT, "'struct_size' is 8"},
      {"abi 0", [](zarr_codec_vtable& v) { v.abi_version = 0; }, ZARR_ERR_UNSUPPORTED, "'abi_version' is 0"},
      {"no name", [](zarr_codec_vtable& v) { v.name = nullptr; }, ZARR_ERR_INVALID_ARGUMENT, "got NULL"},
      {"bad name", [](zarr_codec_vtable& v) { v.name = "a/b"; }, ZARR_ERR_INVALID_ARGUMENT, "got \"a/b\""},
      {"empty name", [](zarr_codec_vtable& v) { v.name = ""; }, ZARR_ERR_INVALID_ARGUMENT, "'name'"},
      {"no encode", [](zarr_codec_vtable& v) { v.encode = nullptr; }, ZARR_ERR_INVALID_ARGUMENT, "'encode' is NULL"},
      {"no destroy", [](zarr_codec_vtable& v) { v.destroy = nullptr; }, ZARR_ERR_INVALID_ARGUMENT, "'destroy' is NULL"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    zarr_codec_vtable v;
    std::memset(&v, 0, sizeof v);
    v.struct_size = sizeof v;
    v.abi_version = ZARR_PLUGIN_ABI_VERSION;
    v.name = "broken";
    v.create = [](void*, const char*, size_t, void**, char*, size_t) { return ZARR_ERR_INTERNAL; };
    v.encode = [](void*, const void*, size_t, const zarr_codec_output*) { return ZARR_ERR_INTERNAL; };
    v.decode = [](void*, const void*, size_t, size_t, const zarr_codec_output*) { return ZARR_ERR_INTERNAL; };
    v.destroy = [](void*) {};
    c.breaks(v);
    EXPECT_EQ(zarr_codec_register(&v), c.status) << error_text(c.status);
    EXPECT_NE(std::string(zarr_last_error()).find(c.fragment), std::string::npos) << zarr_last_error();
  }
}

// A plugin that asks for more memory than there is: ZARR_ERR_NO_MEMORY naming
// the codec, the operation and the size (it used to be a bare "out of memory").
TEST(Plugins, AnAllocationThatFailsNamesTheCodecAndTheSize) {
  zarr_codec_vtable v;
  std::memset(&v, 0, sizeof v);
  v.struct_size = sizeof v;
  v.abi_version = ZARR_PLUGIN_ABI_VERSION;
  v.name = "test-greedy";
  v.create = [](void*, const char*, size_t, void** codec, char*, size_t) {
    static int the_codec;
    *codec = &the_codec;
    return ZARR_OK;
  };
  v.encode = [](void*, const void*, size_t, const zarr_codec_output* out) {
    return out->allocate(out->context, SIZE_MAX) ? ZARR_OK : ZARR_ERR_NO_MEMORY;
  };
  v.decode = [](void*, const void*, size_t, size_t, const zarr_codec_output* out) {
    return out->allocate(out->context, SIZE_MAX) ? ZARR_OK : ZARR_ERR_NO_MEMORY;
  };
  v.destroy = [](void*) {};
  ASSERT_EQ(zarr_codec_register(&v), ZARR_OK) << zarr_last_error();
  zarr_codec* codec = nullptr;
  ASSERT_EQ(create_codec(R"({"id": "test-greedy"})", &codec), ZARR_OK) << zarr_last_error();
  void* out = nullptr;
  size_t out_size = 0;
  const std::string size = std::to_string(SIZE_MAX);
  EXPECT_EQ(zarr_codec_encode(codec, "abc", 3, &out, &out_size), ZARR_ERR_NO_MEMORY);
  EXPECT_NE(std::string(zarr_last_error()).find("codec 'test-greedy': encode: out of memory for the " + size +
                                                " bytes the plugin asked for"),
            std::string::npos)
      << zarr_last_error();
  EXPECT_EQ(zarr_codec_decode(codec, "abc", 3, &out, &out_size), ZARR_ERR_NO_MEMORY);
  EXPECT_NE(std::string(zarr_last_error()).find("codec 'test-greedy': decode: out of memory"), std::string::npos)
      << zarr_last_error();
  EXPECT_EQ(out, nullptr);
  zarr_codec_free(codec);
}

// A plugin compiled against a later zarr_plugin.h hands in a longer vtable
// (fields appended): libzarr reads the version 1 fields and accepts it. One
// byte short of version 1's fields is refused.
TEST(Plugins, RegisterReadsOnlyTheFieldsItKnows) {
  struct LaterVtable {
    zarr_codec_vtable v1;
    void (*appended_callback)(void);
  } later;
  std::memset(&later, 0, sizeof later);
  later.v1.abi_version = ZARR_PLUGIN_ABI_VERSION;
  later.v1.name = "test-later-vtable";
  later.v1.create = [](void*, const char*, size_t, void**, char* error, size_t size) {
    std::snprintf(error, size, "create of the later vtable ran");
    return ZARR_ERR_INVALID_METADATA;
  };
  later.v1.encode = [](void*, const void*, size_t, const zarr_codec_output*) { return ZARR_ERR_INTERNAL; };
  later.v1.decode = [](void*, const void*, size_t, size_t, const zarr_codec_output*) { return ZARR_ERR_INTERNAL; };
  later.v1.destroy = [](void*) {};

  later.v1.struct_size = sizeof(zarr_codec_vtable) - 1;
  EXPECT_EQ(zarr_codec_register(&later.v1), ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(zarr_last_error()).find("'struct_size'"), std::string::npos) << zarr_last_error();

  later.v1.struct_size = sizeof later;
  ASSERT_EQ(zarr_codec_register(&later.v1), ZARR_OK) << zarr_last_error();
  zarr_codec* codec = nullptr;
  EXPECT_EQ(create_codec(R"({"id": "test-later-vtable"})", &codec), ZARR_ERR_INVALID_METADATA);
  EXPECT_NE(std::string(zarr_last_error()).find("create of the later vtable ran"), std::string::npos)
      << zarr_last_error();
}
