// zarrtool cp between the formats, checked by the peers: zarr-python 2.13
// writes a v2 array, `zarrtool cp --format 3 --shards` turns it into a sharded
// v3 array that zarrita.js reads, and `zarrtool cp --format 2` turns that back
// into a v2 array that zarr-python reads. Values are compared with what
// zarr-python wrote, element for element; likewise for every data type
// libzarr converts between the formats.
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

// Every data type zarr-python 2.13 writes that libzarr reads and v3 holds,
// copied v2 -> v3 by zarrtool: zarrita.js reads the v3 copy of the types it
// supports (strings, bool, int32; zarrita 0.7.5 has no fixed_length_utf32,
// datetime, float16 or complex), and zarr-python reads the copy back to v2
// with every value equal to what it wrote.
const char kWriteTypes[] =
    "import sys, zarr, numpy as np, numcodecs\n"
    "g = zarr.open_group(sys.argv[1], mode='w')\n"
    "g.array('text', np.array(['ab', 'cdef', '', 'g\\u00e9'], dtype=object), object_codec=numcodecs.VLenUTF8(), chunks=2)\n"
    "g.array('flag', np.array([True, False, True, True]), chunks=2)\n"
    "g.array('big', np.array([1, -2, 3, 2**31 - 1], dtype='>i4'), chunks=2)\n"
    "g.array('fixed_text', np.array(['ab', 'cdef', '', 'g\\u00e9']), chunks=2)\n"
    "g.array('time', np.array(['2020-01-01', 'NaT', '1969-12-31T23:59:59', '2262-01-01'], dtype='M8[s]'), chunks=2)\n"
    "g.array('span', np.array([1, -2, 0, 2**40], dtype='m8[10ms]'), chunks=2)\n"
    "g.array('fixed_bytes', np.array([b'ab', b'c', b'', b'de'], dtype='S2'), chunks=2)\n"
    "g.array('wave', np.array([1+2j, -3j, 0, 1e300], dtype='<c16'), chunks=2)\n"
    "g.array('half', np.array([1.5, -0.0, np.inf, 65504], dtype='<f2'), chunks=2)\n"
    "zarr.consolidate_metadata(sys.argv[1])\n";

const char kCompareTypes[] =
    "import sys, zarr, numpy as np\n"
    "a, b = zarr.open_group(sys.argv[1], mode='r'), zarr.open_group(sys.argv[2], mode='r')\n"
    "assert sorted(a.array_keys()) == sorted(b.array_keys()), list(b.array_keys())\n"
    "for k in a.array_keys():\n"
    "    x, y = a[k][:], b[k][:]\n"
    "    assert [str(v) for v in x.tolist()] == [str(v) for v in y.tolist()], (k, x, y)\n"
    "print('same')\n";

TEST(ZarrtoolInterop, EveryDataTypeV2ToV3ReadByZarritaAndBackByZarrPython) {
  const std::string python_skip = python_unavailable_reason();
  if (!python_skip.empty()) GTEST_SKIP() << python_skip;
  if (!zarrita_peer().skip.empty()) GTEST_SKIP() << zarrita_peer().skip;
  TempDir dir;
  const std::string source = dir / "v2", v3 = dir / "v3", back = dir / "back";
  std::string out;
  ASSERT_EQ(run_python(kWriteTypes, source, &out), 0) << out;
  ASSERT_EQ(run_zarrtool("cp " + shell_quote(source) + " " + shell_quote(v3) + " --format 3", &out), 0) << out;
  std::string cases;
  for (const char* name : {"text", "flag", "big"}) {
    cases += std::string(cases.empty() ? "" : ",") + R"({"name": ")" + name + R"(", "path": ")" + v3 + "/" + name +
             R"(", "box": null, "out": ")" + (dir / name) + R"("})";
  }
  rapidjson::Document results;
  ASSERT_EQ(run_zarrita("read", R"({"cases": [)" + cases + "]}", dir.path(), results), "");
  for (const auto& r : results.GetArray()) EXPECT_TRUE(r["ok"].GetBool()) << read_text(dir / "read-result.json");
  EXPECT_EQ(read_text(dir / "text.whole.json"), "[\"ab\",\"cdef\",\"\",\"g\xc3\xa9\"]");
  EXPECT_EQ(read_text(dir / "flag.whole.bin"), std::string("\x01\x00\x01\x01", 4));
  EXPECT_EQ(read_text(dir / "big.whole.bin"), std::string("\x01\x00\x00\x00\xfe\xff\xff\xff\x03\x00\x00\x00\xff\xff\xff\x7f", 16));
  ASSERT_EQ(run_zarrtool("cp " + shell_quote(v3) + " " + shell_quote(back) + " --format 2", &out), 0) << out;
  out.clear();
  EXPECT_EQ(run_command(shell_quote(python_exe()) + " -c " + shell_quote(kCompareTypes) + " " + shell_quote(source) + " " +
                            shell_quote(back) + " 2>&1",
                        &out),
            0)
      << out;
}

}  // namespace
}  // namespace zarr::interop
