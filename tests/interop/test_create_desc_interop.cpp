// Arrays created by zarr_create_from_desc, read by peers: zarr-python 2.13
// (v2 with the default compressor, its .zarray byte for byte as zarr-python
// writes the same array, and the dimension names as xarray reads them),
// zarrita.js (v2 defaults and v3 sharded); and the names xarray writes to v2,
// read by zarr_get_dimension_names.
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

const std::vector<uint64_t> kShape = {30, 40}, kChunks = {10, 20}, kShards = {10, 40};

std::vector<float> ramp() {
  std::vector<float> values(30 * 40);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  return values;
}

std::string ramp_sha() {
  const std::vector<float> values = ramp();
  return sha256_hex(values.data(), values.size() * sizeof(float));
}

zarr_array_desc float32_desc(int format, const char* const* names) {
  zarr_array_desc desc = ZARR_ARRAY_DESC_INIT;
  desc.zarr_format = format;
  desc.data_type = "float32";
  desc.ndim = 2;
  desc.shape = kShape.data();
  desc.chunk_shape = kChunks.data();
  desc.dimension_names = names;
  return desc;
}

void fill_and_close(zarr_array* a) {
  const std::vector<float> values = ramp();
  const uint64_t start[2] = {0, 0};
  ASSERT_EQ(zarr_write_region(a, 2, start, kShape.data(), values.data(), values.size() * sizeof(float)), ZARR_OK)
      << zarr_last_error();
  ASSERT_EQ(zarr_close(a), ZARR_OK);
}

// A v2 group "ds" (an xarray dataset) holding "temp", created from a description.
void create_v2_dataset(const std::string& path) {
  zarr_group* g = nullptr;
  ASSERT_EQ(zarr_group_create_ex(&g, path.c_str(), nullptr, R"({"zarr_format": 2})"), ZARR_OK) << zarr_last_error();
  const char* names[2] = {"y", "x"};
  const zarr_array_desc desc = float32_desc(0, names);  // 0: the group's format, 2
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_group_create_array_from_desc(&a, g, "temp", &desc), ZARR_OK) << zarr_last_error();
  zarr_group_close(g);
  fill_and_close(a);
}

std::string python_output(const std::string& script, const std::string& arg) {
  std::string out;
  const int status = run_command(shell_quote(python_exe()) + " -c " + shell_quote(script) + " " + shell_quote(arg), &out);
  EXPECT_EQ(status, 0) << out;
  return out;
}

}  // namespace

TEST(CreateFromDescInterop, ZarrPythonReadsV2DefaultsAsItWritesThem) {
  const std::string skip = python_unavailable_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir dir;
  create_v2_dataset(dir / "ds");
  // zarr-python 2.13 writes the same array with its own defaults beside it.
  const std::string script =
      "import sys, hashlib, zarr, xarray; p = sys.argv[1]; z = zarr.open_array(p + '/temp', mode='r'); "
      "ref = zarr.create(shape=(30, 40), chunks=(10, 20), dtype='<f4', store=zarr.DirectoryStore(p + '_ref')); "
      "same = open(p + '/temp/.zarray').read() == open(p + '_ref/.zarray').read(); "
      "ds = xarray.open_zarr(p, consolidated=False); "
      "print(same, z.compressor, list(ds['temp'].dims), "
      "hashlib.sha256(z[...].astype('<f4').tobytes()).hexdigest())";
  EXPECT_EQ(python_output(script, dir / "ds"),
            "True Blosc(cname='lz4', clevel=5, shuffle=SHUFFLE, blocksize=0) ['y', 'x'] " + ramp_sha() + "\n");
}

TEST(CreateFromDescInterop, LibzarrReadsTheDimensionNamesXarrayWrites) {
  const std::string skip = python_unavailable_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir dir;
  const std::string script =
      "import sys, numpy, xarray; xarray.Dataset({'temp': (('time', 'lat'), "
      "numpy.zeros((2, 3), 'f4'))}).to_zarr(sys.argv[1], consolidated=False); print('ok')";
  ASSERT_EQ(python_output(script, dir / "xr"), "ok\n");
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_open(&a, (dir / "xr/temp").c_str(), "r"), ZARR_OK) << zarr_last_error();
  char* names = nullptr;
  ASSERT_EQ(zarr_get_dimension_names(a, &names), ZARR_OK) << zarr_last_error();
  EXPECT_STREQ(names, R"(["time","lat"])");
  zarr_free(names);
  zarr_close(a);
}

TEST(CreateFromDescInterop, ZarritaReadsV2DefaultsAndV3Sharded) {
  if (!zarrita_peer().skip.empty()) GTEST_SKIP() << zarrita_peer().skip;
  TempDir dir;
  create_v2_dataset(dir / "ds");
  const char* names[2] = {"y", nullptr};
  zarr_array_desc sharded = float32_desc(3, names);
  sharded.shard_shape = kShards.data();
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_create_from_desc(&a, (dir / "sharded").c_str(), &sharded, nullptr), ZARR_OK) << zarr_last_error();
  fill_and_close(a);

  std::filesystem::create_directories(dir / "out");
  const std::string peer_spec = "{\"cases\": [{\"name\": \"v2\", \"path\": \"" + (dir / "ds/temp") +
                                "\", \"out\": \"" + (dir / "out/v2") + "\", \"box\": null, \"format\": 2}, {\"name\": \"v3\", " +
                                "\"path\": \"" + (dir / "sharded") + "\", \"out\": \"" + (dir / "out/v3") +
                                "\", \"box\": null}]}";
  rapidjson::Document results;
  ASSERT_EQ(run_zarrita("read", peer_spec, dir.path(), results), "");
  ASSERT_TRUE(results.IsArray() && results.Size() == 2);
  for (const rapidjson::Value& r : results.GetArray()) {
    const std::string name = r["name"].GetString();
    ASSERT_TRUE(r["ok"].GetBool()) << name << ": "
                                   << (r.HasMember("error") && r["error"].IsString() ? r["error"].GetString() : "");
    EXPECT_STREQ(r["dtype"].GetString(), "float32") << name;
    EXPECT_EQ(r["chunks"][0].GetUint(), 10u) << name;
    EXPECT_EQ(r["chunks"][1].GetUint(), 20u) << name;  // zarrita gives a sharded array's inner chunks
    const std::string whole = read_text(dir / ("out/" + name + ".whole.bin"));
    EXPECT_EQ(sha256_hex(whole.data(), whole.size()), ramp_sha()) << name;
  }
  EXPECT_STREQ(results[1]["dimension_names"][0].GetString(), "y");
  EXPECT_TRUE(results[1]["dimension_names"][1].IsNull());
}
