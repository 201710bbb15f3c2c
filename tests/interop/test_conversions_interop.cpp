// Arrays written through zarr_write_region_as (int32 values into float64
// arrays, converted by libzarr), read by peers: zarr-python 2.13 for v2,
// zarrita.js for a sharded v3 array. The peers see the converted values.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "interop_support.h"
#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarrita_runner.h"

using namespace zarr::interop;
using zarr::test::TempDir;

namespace {

// -1000, -999, ... over a [6, 7] region: int32 values, some negative.
std::vector<int32_t> int_values() {
  std::vector<int32_t> values(42);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i * 997) - 1000;
  return values;
}

std::vector<double> as_doubles(const std::vector<int32_t>& values) { return {values.begin(), values.end()}; }

// Create the array from metadata, write the ints converted, close.
void create_and_write_as_int32(const std::string& path, const std::string& metadata) {
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_create(&a, path.c_str(), metadata.c_str()), ZARR_OK) << zarr_last_error();
  const uint64_t start[2] = {0, 0}, count[2] = {6, 7};
  const std::vector<int32_t> values = int_values();
  ASSERT_EQ(zarr_write_region_as(a, 2, start, count, "int32", values.data(), values.size() * 4), ZARR_OK)
      << zarr_last_error();
  ASSERT_EQ(zarr_close(a), ZARR_OK);
}

}  // namespace

TEST(ConversionInterop, ZarrPythonReadsAFloat64V2ArrayWrittenFromInt32) {
  const std::string skip = python_unavailable_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir dir;
  const std::string path = dir / "f8";
  create_and_write_as_int32(path, R"({"zarr_format": 2, "shape": [6, 7], "chunks": [4, 4], "dtype": "<f8",
      "compressor": {"id": "zlib", "level": 1}, "fill_value": 0, "filters": null, "order": "C"})");
  std::string out;
  const std::string script =
      "import sys, hashlib, zarr; z = zarr.open_array(sys.argv[1], mode='r'); "
      "print(z.dtype.str, hashlib.sha256(z[...].astype('<f8').tobytes()).hexdigest())";
  ASSERT_EQ(run_command(shell_quote(python_exe()) + " -c " + shell_quote(script) + " " + shell_quote(path), &out), 0)
      << out;
  const std::vector<double> expected = as_doubles(int_values());
  EXPECT_EQ(out, "<f8 " + sha256_hex(expected.data(), expected.size() * sizeof(double)) + "\n");
}

TEST(ConversionInterop, ZarritaReadsAShardedFloat64V3ArrayWrittenFromInt32) {
  if (!zarrita_peer().skip.empty()) GTEST_SKIP() << zarrita_peer().skip;
  TempDir dir;
  const std::string path = dir / "f8_v3";
  create_and_write_as_int32(path, R"({"zarr_format": 3, "node_type": "array", "shape": [6, 7],
      "data_type": "float64", "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 4]}},
      "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
      "codecs": [{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 2],
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}]})");
  std::filesystem::create_directories(dir / "out");
  const std::string peer_spec = "{\"cases\": [{\"name\": \"as\", \"path\": \"" + path + "\", \"out\": \"" +
                                (dir / "out/as") + "\", \"box\": null}]}";
  rapidjson::Document results;
  ASSERT_EQ(run_zarrita("read", peer_spec, dir.path(), results), "");
  ASSERT_TRUE(results.IsArray() && results.Size() == 1);
  const rapidjson::Value& r = results[0];
  ASSERT_TRUE(r["ok"].GetBool()) << (r.HasMember("error") && r["error"].IsString() ? r["error"].GetString() : "");
  EXPECT_STREQ(r["dtype"].GetString(), "float64");
  const std::string whole = read_text(dir / "out/as.whole.bin");
  const std::vector<double> expected = as_doubles(int_values());
  EXPECT_EQ(sha256_hex(whole.data(), whole.size()), sha256_hex(expected.data(), expected.size() * sizeof(double)));
}
