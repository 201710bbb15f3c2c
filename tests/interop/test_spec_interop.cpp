// Arrays created by zarr_open_spec from TensorStore specs, read by peers:
// zarr-python 2.13 for the "zarr" driver (v2), zarrita.js for "zarr3" (v3).
// The spec leaves the chunk shape to the chunk layout, so the peers also see
// the chosen chunks.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <vector>

#include "interop_support.h"
#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarrita_runner.h"

using namespace zarr::interop;
using zarr::test::TempDir;

namespace {

// Values 0, 3, 6, ... (mod 65536) over the whole array.
std::vector<uint16_t> ramp(size_t n) {
  std::vector<uint16_t> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<uint16_t>(i * 3);
  return values;
}

// Create from spec, write the ramp over the whole [30, 40] array, close.
void create_and_fill(const std::string& spec, const std::vector<uint16_t>& values) {
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_open_spec(&a, spec.c_str()), ZARR_OK) << zarr_last_error();
  const uint64_t start[2] = {0, 0}, count[2] = {30, 40};
  ASSERT_EQ(zarr_write_region(a, 2, start, count, values.data(), values.size() * 2), ZARR_OK) << zarr_last_error();
  ASSERT_EQ(zarr_close(a), ZARR_OK);
}

}  // namespace

TEST(SpecInterop, ZarrPythonReadsV2ArrayCreatedFromSpec) {
  const std::string skip = python_unavailable_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  TempDir dir;
  const std::string path = dir / "from_spec";
  const std::string spec = R"({"driver": "zarr", "kvstore": {"driver": "file", "path": ")" + path + R"("},
      "create": true, "dtype": "uint16", "key_encoding": "/",
      "schema": {"domain": {"exclusive_max": [[30], [40]]}, "fill_value": 7,
                 "codec": {"driver": "zarr", "compressor": {"id": "zlib", "level": 1}},
                 "chunk_layout": {"chunk": {"aspect_ratio": [1, 2], "elements": 200}}}})";
  const std::vector<uint16_t> values = ramp(30 * 40);
  create_and_fill(spec, values);

  std::string out;
  const std::string script =
      "import sys, hashlib, zarr; z = zarr.open_array(sys.argv[1], mode='r'); "
      "print(z.dtype.str, list(z.chunks), z.fill_value, z._dimension_separator, "
      "hashlib.sha256(z[...].astype('<u2').tobytes()).hexdigest())";
  ASSERT_EQ(run_command(shell_quote(python_exe()) + " -c " + shell_quote(script) + " " + shell_quote(path), &out), 0)
      << out;
  // aspect ratio [1, 2] with 200 elements: [10, 20].
  const std::string expected =
      "<u2 [10, 20] 7 / " + sha256_hex(values.data(), values.size() * sizeof(uint16_t)) + "\n";
  EXPECT_EQ(out, expected);
}

TEST(SpecInterop, ZarritaReadsV3ArrayCreatedFromSpec) {
  if (!zarrita_peer().skip.empty()) GTEST_SKIP() << zarrita_peer().skip;
  TempDir dir;
  const std::string path = dir / "from_spec_v3";
  const std::string spec = R"({"driver": "zarr3", "kvstore": ")" + path + R"(", "create": true,
      "schema": {"dtype": "uint16", "shape": [30, 40], "fill_value": 7,
                 "chunk_layout": {"write_chunk": {"shape": [16, -1]}}}})";
  const std::vector<uint16_t> values = ramp(30 * 40);
  create_and_fill(spec, values);

  std::filesystem::create_directories(dir / "out");
  const std::string peer_spec = "{\"cases\": [{\"name\": \"spec\", \"path\": \"" + path + "\", \"out\": \"" +
                                (dir / "out/spec") + "\", \"box\": null}]}";
  rapidjson::Document results;
  const std::string error = run_zarrita("read", peer_spec, dir.path(), results);
  ASSERT_EQ(error, "");
  ASSERT_TRUE(results.IsArray() && results.Size() == 1);
  const rapidjson::Value& r = results[0];
  ASSERT_TRUE(r["ok"].GetBool()) << (r.HasMember("error") && r["error"].IsString() ? r["error"].GetString() : "");
  EXPECT_STREQ(r["dtype"].GetString(), "uint16");
  EXPECT_EQ(r["chunks"][0].GetUint(), 16u);
  EXPECT_EQ(r["chunks"][1].GetUint(), 40u);
  EXPECT_EQ(r["fill_value"].GetInt(), 7);
  const std::string whole = read_text(dir / "out/spec.whole.bin");
  EXPECT_EQ(sha256_hex(whole.data(), whole.size()), sha256_hex(values.data(), values.size() * sizeof(uint16_t)));
}
