// What zarrtool prints for people and for programs: cat's text, JSON and CSV
// forms of every kind of value, regions with negative steps, labelled slices
// of 3-D arrays.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_runner.h"
#include "support/test_support.h"
#include "zarr/zarr.h"

namespace {

using namespace zarrtool_test;
using zarr::test::TempDir;

// A v2 array of `dtype` and `shape` (one chunk) holding `values`, through the C API.
template <typename T>
std::string make_v2_array(const TempDir& dir, const std::string& name, const std::string& dtype,
                          const std::vector<uint64_t>& shape, const std::vector<T>& values) {
  const std::string url = dir / name;
  std::string shape_json;
  for (uint64_t e : shape) shape_json += (shape_json.empty() ? "" : ",") + std::to_string(e);
  const std::string doc = R"({"zarr_format":2,"shape":[)" + shape_json + R"(],"chunks":[)" + shape_json +
                          R"(],"dtype":")" + dtype + R"(","compressor":null,"fill_value":null})";
  zarr_array* a = nullptr;
  EXPECT_EQ(zarr_create(&a, url.c_str(), doc.c_str()), ZARR_OK) << zarr_last_error();
  std::vector<uint64_t> start(shape.size(), 0);
  EXPECT_EQ(zarr_write_region(a, shape.size(), start.data(), shape.data(), values.data(), values.size() * sizeof(T)),
            ZARR_OK)
      << zarr_last_error();
  zarr_close(a);
  return url;
}

struct Printed {
  std::string text, json, csv;
};

Printed cat_all_ways(const std::string& url, const std::string& region = "") {
  std::vector<std::string> args = {"cat", url};
  if (!region.empty()) args.insert(args.end(), {"--region", region});
  Printed p;
  RunResult r = run_tool(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  p.text = r.out;
  args.push_back("--json");
  p.json = run_tool(args).out;
  args.back() = "--csv";
  p.csv = run_tool(args).out;
  return p;
}

// 10.0 printed as 1e+01: the shortest decimal was searched with
// ostream precision, which switches to exponents for whole numbers.
TEST(CliOutput, FloatsPrintInTheShortestFormThatRoundTrips) {
  TempDir dir;
  const std::vector<double> values = {10.0, 0.1, 1e16, 1e-5, 123.0, -0.0, NAN, -INFINITY, 2.5e-300};
  Printed p = cat_all_ways(make_v2_array(dir, "f8", "<f8", {values.size()}, values));
  EXPECT_EQ(p.text, "10.0,0.1,1e+16,1e-05,123.0,-0.0,nan,-inf,2.5e-300\n");
  EXPECT_EQ(p.csv, p.text);
  EXPECT_EQ(p.json, "[10.0,0.1,1e+16,1e-05,123.0,-0.0,\"NaN\",\"-Infinity\",2.5e-300]\n");
  EXPECT_TRUE(parse(p.json).IsArray());

  const std::vector<float> singles = {0.1f, 10.0f, 16777216.0f};
  EXPECT_EQ(cat_all_ways(make_v2_array(dir, "f4", "<f4", {3}, singles)).text, "0.1,10.0,16777216.0\n");
  // Half floats: 0.1 is 0x2e66, 65504 (the largest) prints as numpy does, 65500.0.
  const std::vector<uint16_t> halves = {0x2e66, 0x4900, 0x7bff, 0x0001};
  EXPECT_EQ(cat_all_ways(make_v2_array(dir, "f2", "<f2", {4}, halves)).text, "0.1,10.0,65500.0,6e-08\n");
  const std::vector<double> complex = {1, 2, 0.5, -1};
  Printed c = cat_all_ways(make_v2_array(dir, "c16", "<c16", {2}, complex));
  EXPECT_EQ(c.text, "(1+2j),(0.5-1j)\n");
  EXPECT_EQ(c.json, "[[1.0,2.0],[0.5,-1.0]]\n");
}

// Datetimes printed as raw hex (0x5647000000000000).
TEST(CliOutput, DatetimesAndTimedeltasPrintInIso8601WithTheirUnit) {
  TempDir dir;
  const std::vector<int64_t> seconds = {1577836800, 1623760200, INT64_MIN, -1};
  Printed s = cat_all_ways(make_v2_array(dir, "s", "<M8[s]", {4}, seconds));
  EXPECT_EQ(s.text, "2020-01-01T00:00:00,2021-06-15T12:30:00,NaT,1969-12-31T23:59:59\n");
  EXPECT_EQ(s.json, "[\"2020-01-01T00:00:00\",\"2021-06-15T12:30:00\",\"NaT\",\"1969-12-31T23:59:59\"]\n");
  const std::vector<int64_t> days = {18262, -1, 11016, -719528};
  EXPECT_EQ(cat_all_ways(make_v2_array(dir, "d", "<M8[D]", {4}, days)).text,
            "2020-01-01,1969-12-31,2000-02-29,0000-01-01\n");
  const std::vector<int64_t> millis = {1577836800123};
  EXPECT_EQ(cat_all_ways(make_v2_array(dir, "ms", "<M8[ms]", {1}, millis)).text, "2020-01-01T00:00:00.123\n");
  const std::vector<int64_t> ten_minutes = {3};
  EXPECT_EQ(cat_all_ways(make_v2_array(dir, "10m", "<M8[10m]", {1}, ten_minutes)).text, "1970-01-01T00:30\n");
  const std::vector<int64_t> months = {601};
  EXPECT_EQ(cat_all_ways(make_v2_array(dir, "M", "<M8[M]", {1}, months)).text, "2020-02\n");
  const std::vector<int64_t> deltas = {10, -3, 1500, INT64_MIN};
  EXPECT_EQ(cat_all_ways(make_v2_array(dir, "td", "<m8[ms]", {4}, deltas)).text,
            "PT0.010S,-PT0.003S,PT1.500S,NaT\n");
  const std::vector<int64_t> day_deltas = {3, -2};
  EXPECT_EQ(cat_all_ways(make_v2_array(dir, "tdd", "<m8[D]", {2}, day_deltas)).text, "P3D,-P2D\n");
}

TEST(CliOutput, StringsPrintQuoted) {
  TempDir dir;
  // <U3: UTF-32 code units, NUL-padded.
  const std::vector<uint32_t> units = {'a', 'b', 0, 'c', '"', 'd', 0xe9, 0, 0};
  Printed u = cat_all_ways(make_v2_array(dir, "u", "<U3", {3}, units));
  EXPECT_EQ(u.text, "\"ab\",\"c\\\"d\",\"\xc3\xa9\"\n");
  EXPECT_EQ(u.csv, "\"ab\",\"c\"\"d\",\"\xc3\xa9\"\n");
  EXPECT_EQ(u.json, "[\"ab\",\"c\\\"d\",\"\xc3\xa9\"]\n");
  const std::vector<char> bytes = {'x', 'y', 0, 'z', 0, 0};
  EXPECT_EQ(cat_all_ways(make_v2_array(dir, "s", "|S3", {2}, bytes)).text, "\"xy\",\"z\"\n");
}

// Strings holding terminal controls: --csv printed them raw (ESC, and the C1
// CSI U+009B, reached the terminal), text and --json passed C1 and the
// bidirectional controls. Now CSV escapes all but line breaks and tabs, and
// text and JSON escape C1 and bidi controls as \uNNNN (the same string to a
// JSON reader).
TEST(CliOutput, StringsWithTerminalControlsPrintEscaped) {
  TempDir dir;
  const std::vector<uint32_t> units = {0x1b, '[', '2', 'J', 0x9b, '1', 0x202e, 'x', '\n', 0x2066};
  Printed u = cat_all_ways(make_v2_array(dir, "u", "<U10", {1}, units));
  EXPECT_EQ(u.csv, "\"\\x1b[2J\\u009B1\\u202Ex\n\\u2066\"\n");
  EXPECT_EQ(u.text, "\"\\u001B[2J\\u009B1\\u202Ex\\n\\u2066\"\n");
  EXPECT_EQ(u.json, "[" + u.text.substr(0, u.text.size() - 1) + "]\n");
  rapidjson::Document doc = parse(u.json);
  ASSERT_TRUE(doc.IsArray());
  EXPECT_EQ(std::string(doc[0].GetString()), "\x1b[2J\xc2\x9b" "1\xe2\x80\xaex\n\xe2\x81\xa6");
}

// 3-D regions printed all their rows one after another, with nothing to
// tell where one 2-D slice ended.
TEST(CliOutput, ThreeDimensionsPrintAsLabelledSlices) {
  TempDir dir;
  std::vector<int16_t> values(2 * 2 * 3);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int16_t>(i);
  const std::string url = make_v2_array(dir, "c", "<i2", {2, 2, 3}, values);
  Printed p = cat_all_ways(url);
  EXPECT_EQ(p.text, "[0, :, :]\n0,1,2\n3,4,5\n\n[1, :, :]\n6,7,8\n9,10,11\n");
  EXPECT_EQ(p.csv, "0,1,2\n3,4,5\n6,7,8\n9,10,11\n");
  EXPECT_EQ(p.json, "[[[0,1,2],[3,4,5]],[[6,7,8],[9,10,11]]]\n");
  // The labels name array indices, dropped dimensions included.
  std::vector<int8_t> four(2 * 2 * 2 * 2);
  for (size_t i = 0; i < four.size(); ++i) four[i] = static_cast<int8_t>(i);
  const std::string url4 = make_v2_array(dir, "d", "|i1", {2, 2, 2, 2}, four);
  EXPECT_EQ(run_tool({"cat", url4, "--region", "1,::-1"}).out,
            "[1, 1, :, :]\n12,13\n14,15\n\n[1, 0, :, :]\n8,9\n10,11\n");
  EXPECT_EQ(run_tool({"cat", url4, "--region", "1,0", "--json"}).out, "[[8,9],[10,11]]\n");
  EXPECT_EQ(run_tool({"cat", url4, "--region", "1,0,1,1", "--json"}).out, "11\n");
}

// --region ::-1 was refused: steps had to be positive.
TEST(CliOutput, NegativeStepsWalkBackwards) {
  TempDir dir;
  const std::string url = make_counting_array(dir, "a");  // 6 x 8, 3 x 4 chunks, 0..47
  EXPECT_EQ(run_tool({"cat", url, "--region", "0,::-1"}).out, "7,6,5,4,3,2,1,0\n");
  EXPECT_EQ(run_tool({"cat", url, "--region", "::-2,-1"}).out, "47,31,15\n");
  EXPECT_EQ(run_tool({"cat", url, "--region", "4:0:-3,2:0:-1"}).out, "34,33\n10,9\n");
  EXPECT_EQ(run_tool({"cat", url, "--region", "-1:-9:-5,7:-20:-7"}).out, "47,40\n7,0\n");
  EXPECT_EQ(run_tool({"cat", url, "--region", "1:3:-1"}).out, "");  // a start before the stop selects nothing
  EXPECT_EQ(run_tool({"cat", url, "--region", "::-1,0", "--json"}).out, "[40,32,24,16,8,0]\n");
  RunResult raw = run_tool({"cat", url, "--region", "5,7:5:-1", "--raw"});
  ASSERT_EQ(raw.out.size(), 8u);
  int32_t values[2];
  std::memcpy(values, raw.out.data(), 8);
  EXPECT_EQ(values[0], 47);
  EXPECT_EQ(values[1], 46);
  EXPECT_EQ(run_tool({"cat", url, "--region", "0:0", "--json"}).out, "[]\n");
}

TEST(CliOutput, CatRefusesTwoOutputForms) {
  TempDir dir;
  const std::string url = make_counting_array(dir, "a");
  RunResult r = run_tool({"cat", url, "--json", "--csv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("one of --raw, --json and --csv"), std::string::npos) << r.err;
  r = run_tool({"cat", url, "--region", "::0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("a step cannot be zero"), std::string::npos) << r.err;
}

}  // namespace
