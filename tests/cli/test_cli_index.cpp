// zarrtool on arrays whose axes reach 2^64 - 1, and --region extents of the
// whole unsigned 64-bit range (docs/reliability.md, "Index arithmetic").
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_runner.h"
#include "support/test_support.h"
#include "zarr/zarr.h"

namespace {

using namespace zarrtool_test;
using zarr::test::TempDir;

constexpr uint64_t kMax = UINT64_MAX;

// A uint8 array of shape [2^64 - 1] in chunks of 10 whose last two elements
// are 1 and 2 (written through the C API).
std::string make_largest_axis(const TempDir& dir) {
  const std::string url = dir / "a";
  EXPECT_EQ(run_tool({"create", url, "--shape", "18446744073709551615", "--dtype", "uint8", "--chunks", "10"}).exit_code,
            0);
  zarr_array* a = nullptr;
  EXPECT_EQ(zarr_open(&a, url.c_str(), "r+"), ZARR_OK) << zarr_last_error();
  const uint64_t start[1] = {kMax - 2}, count[1] = {2};
  const uint8_t values[2] = {1, 2};
  EXPECT_EQ(zarr_write_region(a, 1, start, count, values, 2), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  return url;
}

// `cat --region -3:` never ended: the chunk-row walk's next boundary wrapped
// past 2^64 to a small number, and so did the piece's extent.
TEST(CliIndex, CatReadsTheEndOfTheLargestAxis) {
  TempDir dir;
  const std::string url = make_largest_axis(dir);
  RunResult r = run_tool({"cat", url, "--region", "-3:"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0,1,2\n");
  r = run_tool({"cat", url, "--region", "18446744073709551608:"});  // the last chunk and one element before it
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0,0,0,0,0,1,2\n");
  r = run_tool({"cat", url, "--region", "-12::5", "--raw"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string("\0\0\x01", 3));
}

// Extents from 2^63 up were parsed as signed 64-bit numbers: out of range,
// or an undefined signed overflow when counted back from the end.
TEST(CliIndex, RegionExtentsAreUnsigned64Bit) {
  TempDir dir;
  const std::string url = make_largest_axis(dir);
  const struct {
    const char* region;
    const char* out;
  } reads[] = {
      {"18446744073709551614", "2\n"},
      {"-1", "2\n"},
      {"-18446744073709551615", "0\n"},  // index 0
      {"9223372036854775808:9223372036854775810", "0,0\n"},
      {"-9223372036854775808:-9223372036854775806", "0,0\n"},
      {"18446744073709551613:99999:1", ""},  // a stop before the start selects nothing
      {"-18446744073709551615:2", "0,0\n"},
      {"-0", "0\n"},
      {"+18446744073709551614", "2\n"},
      {"-3::18446744073709551615", "0\n"},
      // Negative steps walk backwards from the end of the largest axis.
      {"-1:-4:-1", "2,1,0\n"},
      {"::-18446744073709551615", "2\n"},  // from the last index, one step past the first
      {"1::-1", "0,0\n"},
      {"18446744073709551615::-9223372036854775808", "2,0\n"},
  };
  for (const auto& read : reads) {
    SCOPED_TRACE(read.region);
    RunResult r = run_tool({"cat", url, "--region", read.region});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, read.out);
  }
  const struct {
    const char* region;
    const char* says;
  } refused[] = {
      {"18446744073709551615", "index 18446744073709551615 is outside an extent of 18446744073709551615"},
      {"-18446744073709551616", "'-18446744073709551616' in '-18446744073709551616' is out of range (at most "
                                "18446744073709551615 either way)"},
      {"18446744073709551616:", "'18446744073709551616' in '18446744073709551616:' is out of range"},
      {"::0", "a step cannot be zero"},
      {"1e3", "'1e3' is not an integer"},
      {"--1", "'--1' is not an integer"},
  };
  for (const auto& bad : refused) {
    SCOPED_TRACE(bad.region);
    RunResult r = run_tool({"cat", url, "--region", bad.region});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(bad.says), std::string::npos) << r.err;
  }
  RunResult r = run_tool({"create", dir / "b", "--shape", "18446744073709551616", "--dtype", "uint8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--shape: 18446744073709551616 is out of range"), std::string::npos) << r.err;
}

// info and verify count the chunks of such an axis exactly.
TEST(CliIndex, InfoAndVerifyCountTheChunksOfTheLargestAxis) {
  TempDir dir;
  const std::string url = make_largest_axis(dir);
  RunResult r = run_tool({"info", url, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document info = parse(r.out);
  EXPECT_EQ(info["nbytes"].GetUint64(), kMax);
  EXPECT_EQ(info["chunks_total"].GetUint64(), 1844674407370955162u);
  EXPECT_EQ(info["chunks_initialized"].GetUint64(), 1u);
  r = run_tool({"verify", url});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1844674407370955162 chunks, 1844674407370955161 missing, 0 corrupt"), std::string::npos)
      << r.out;
}

}  // namespace
