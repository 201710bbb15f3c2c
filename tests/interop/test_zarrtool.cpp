// zarrtool cp between the formats, checked by the peers: zarr-python 2.13
// writes a v2 array, `zarrtool cp --format 3 --shards` turns it into a sharded
// v3 array that zarrita.js reads, and `zarrtool cp --format 2` turns that back
// into a v2 array that zarr-python reads. Values are compared with what
// zarr-python wrote, element for element.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstdint>
#include <string>
#include <vector>

#include "interop_support.h"
#include "support/test_support.h"
#include "zarrita_runner.h"

namespace zarr::interop {
namespace {

using zarr::test::TempDir;

// The values zarr-python writes: uint16 [40, 30], element (i, j) = (i*30+j)*7 mod 2^16.
const char kWriteScript[] =
    "import sys, numpy as np, zarr, numcodecs\n"
    "a = (np.arange(1200, dtype=np.uint32) * 7 % 65536).astype('<u2').reshape(40, 30)\n"
    "z = zarr.open_array(sys.argv[1], mode='w', shape=a.shape, chunks=(10, 10), dtype='<u2',\n"
    "                    compressor=numcodecs.Zlib(level=1), fill_value=3)\n"
    "z[:] = a\n"
    "z.attrs['units'] = 'K'\n";

const char kCheckScript[] =
    "import sys, numpy as np, zarr\n"
    "a = (np.arange(1200, dtype=np.uint32) * 7 % 65536).astype('<u2').reshape(40, 30)\n"
    "z = zarr.open_array(sys.argv[1], mode='r')\n"
    "assert z.shape == (40, 30), z.shape\n"
    "assert z.fill_value == 3, z.fill_value\n"
    "assert z.attrs['units'] == 'K', dict(z.attrs)\n"
    "bad = int((z[:] != a).sum())\n"
    "print('differing', bad)\n"
    "sys.exit(1 if bad else 0)\n";

std::vector<uint8_t> expected_bytes() {
  std::vector<uint8_t> out;
  for (uint32_t i = 0; i < 1200; ++i) {
    const uint16_t v = static_cast<uint16_t>(i * 7 % 65536);
    out.push_back(static_cast<uint8_t>(v & 0xff));
    out.push_back(static_cast<uint8_t>(v >> 8));
  }
  return out;
}

int run_python(const char* script, const std::string& path, std::string* out) {
  return run_command(shell_quote(python_exe()) + " -c " + shell_quote(script) + " " + shell_quote(path) + " 2>&1",
                     out);
}

int run_zarrtool(const std::string& args, std::string* out) {
  return run_command(shell_quote(ZARRTOOL_PATH) + " " + args + " 2>&1", out);
}

TEST(ZarrtoolInterop, V2ToShardedV3ReadByZarritaAndBackToV2ReadByZarrPython) {
  const std::string python_skip = python_unavailable_reason();
  if (!python_skip.empty()) GTEST_SKIP() << python_skip;
  if (!zarrita_peer().skip.empty()) GTEST_SKIP() << zarrita_peer().skip;
  TempDir dir;
  const std::string source = dir / "v2", sharded = dir / "v3", back = dir / "back";
  std::string out;
  ASSERT_EQ(run_python(kWriteScript, source, &out), 0) << out;

  ASSERT_EQ(run_zarrtool("cp " + shell_quote(source) + " " + shell_quote(sharded) +
                             " --format 3 --chunks 5,5 --shards 20,15"
                             " --codec '{\"name\": \"zstd\", \"configuration\": {\"level\": 1}}'",
                         &out),
            0)
      << out;
  const std::string info = read_text(sharded + "/zarr.json");
  EXPECT_NE(info.find("sharding_indexed"), std::string::npos) << info;

  const std::string spec = R"({"cases": [{"name": "cp", "path": ")" + sharded + R"(", "box": null, "out": ")" +
                           (dir / "zarrita") + R"("}]})";
  rapidjson::Document results;
  const std::string failure = run_zarrita("read", spec, dir.path(), results);
  ASSERT_EQ(failure, "");
  ASSERT_TRUE(results[0]["ok"].GetBool()) << read_text(dir / "read-result.json");
  const std::string whole = read_text(dir / "zarrita.whole.bin");
  const std::vector<uint8_t> want = expected_bytes();
  EXPECT_EQ(std::vector<uint8_t>(whole.begin(), whole.end()), want) << "zarrita's values of the sharded copy";

  ASSERT_EQ(run_zarrtool("cp " + shell_quote(sharded) + " " + shell_quote(back) + " --format 2 --chunks 8,8", &out), 0)
      << out;
  EXPECT_EQ(run_python(kCheckScript, back, &out), 0) << out;
}

}  // namespace
}  // namespace zarr::interop
