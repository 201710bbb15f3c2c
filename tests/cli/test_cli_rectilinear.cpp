// zarrtool on rectilinear chunk grids (issue 26): create --chunk-edges, how
// info and dump show the grid, cat across chunks of different shapes against
// a NumPy model, verify, and cp keeping a grid or making one (--chunk-edges),
// with every refusal.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "cli_runner.h"
#include "support/test_support.h"
#include "zarr/zarr.h"

namespace fs = std::filesystem;

namespace {

using namespace zarrtool_test;
using zarr::test::TempDir;

}  // namespace

namespace {

// Writes 0, 1, 2, ... over the whole int16 array at url.
std::vector<int16_t> fill_with_counting(const std::string& url, uint64_t rows, uint64_t cols) {
  zarr_array* a = nullptr;
  EXPECT_EQ(zarr_open(&a, url.c_str(), "r+"), ZARR_OK) << zarr_last_error();
  std::vector<int16_t> values(rows * cols);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int16_t>(i);
  const uint64_t start[2] = {0, 0}, count[2] = {rows, cols};
  EXPECT_EQ(zarr_write_region(a, 2, start, count, values.data(), values.size() * 2), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  return values;
}

std::vector<int16_t> read_all_int16(const std::string& url, uint64_t rows, uint64_t cols) {
  zarr_array* a = nullptr;
  EXPECT_EQ(zarr_open(&a, url.c_str(), "r"), ZARR_OK) << zarr_last_error();
  std::vector<int16_t> values(rows * cols);
  const uint64_t start[2] = {0, 0}, count[2] = {rows, cols};
  EXPECT_EQ(zarr_read_region(a, 2, start, count, values.data(), values.size() * 2), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  return values;
}

// A metadata file's text without its whitespace (the library writes it indented).
std::string text_of_file(const fs::path& path) {
  std::ifstream in(path);
  std::string text(std::istreambuf_iterator<char>(in), {});
  text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\n'; }), text.end());
  return text;
}

}  // namespace

// create --chunk-edges, then info, verify and cp over chunks of different shapes.
TEST(Cli, RectilinearCreateInfoVerifyAndCopy) {
  TempDir dir;
  const std::string url = dir / "r";
  RunResult r = run_tool({"create", url, "--shape", "10,8", "--dtype", "int16", "--chunk-edges", "2x2,1,5;3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(text_of_file(fs::path(url) / "zarr.json").find(R"("chunk_shapes":[[[2,2],1,5],3])"), std::string::npos);
  const std::vector<int16_t> values = fill_with_counting(url, 10, 8);
  r = run_tool({"info", url});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Chunk grid         : rectilinear"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Chunk shape        : ([2x2, 1, 5], 3)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Chunks initialized : 12/12"), std::string::npos) << r.out;
  r = run_tool({"verify", url});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("12 chunks, 0 missing, 0 corrupt"), std::string::npos) << r.out;
  // The last row of chunks (rows 5..9) is the one whose file is garbled.
  std::ofstream(fs::path(url) / "c" / "3" / "2", std::ios::binary | std::ios::trunc) << "short";
  r = run_tool({"verify", url});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("c/3/2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[5:10, 6:8]"), std::string::npos) << "the chunk's own box: " << r.out;
  fill_with_counting(url, 10, 8);
  // A verbatim copy, and one with another codec, both keep the grid; a v2
  // copy needs regular chunks (CliRectilinear.CopyRefusalsNameTheArrayOrOptionAndWriteNothing).
  ASSERT_EQ(run_tool({"cp", url, dir / "same"}).exit_code, 0);
  r = run_tool({"cp", url, dir / "gzip", "--codec", R"({"name":"gzip","configuration":{"level":1}})"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_tool({"cp", url, dir / "v2", "--format", "2", "--chunks", "5,3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* copy : {"same", "gzip", "v2"}) {
    EXPECT_EQ(read_all_int16(dir / copy, 10, 8), values) << copy;
  }
  EXPECT_NE(text_of_file(fs::path(dir / "gzip") / "zarr.json").find(R"("chunk_shapes":[[[2,2],1,5],3])"),
            std::string::npos);
  EXPECT_TRUE(fs::exists(fs::path(dir / "gzip") / "c" / "2" / "0")) << "the 1-row chunk of the copy";
  EXPECT_NE(text_of_file(fs::path(dir / "v2") / ".zarray").find(R"("chunks":[5,3])"), std::string::npos)
      << text_of_file(fs::path(dir / "v2") / ".zarray");
  // Sharded: the edges are the shards', --chunks their inner chunks.
  r = run_tool({"create", dir / "s", "--shape", "12,8", "--dtype", "int16", "--chunk-edges", "8,4;8", "--chunks",
                "4,4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<int16_t> sharded = fill_with_counting(dir / "s", 12, 8);
  r = run_tool({"verify", dir / "s"});
  EXPECT_NE(r.out.find("2 shards, 0 missing, 0 corrupt"), std::string::npos) << r.out;
  ASSERT_EQ(run_tool({"cp", dir / "s", dir / "s2", "--codec", R"({"name":"zstd","configuration":{"level":1}})"}).exit_code, 0);
  EXPECT_EQ(read_all_int16(dir / "s2", 12, 8), sharded);
}

TEST(Cli, BadChunkEdgesAreUsageErrorsOrTheLibrarysByName) {
  TempDir dir;
  const std::string url = dir / "r";
  struct Case {
    std::vector<std::string> extra;
    int exit_code;
    std::string fragment;
  };
  const std::vector<Case> cases = {
      {{"--chunk-edges", "2,3"}, 2, "--chunk-edges gives 1 axes (separated by ';') for 2 dimensions"},
      {{"--chunk-edges", "2,x;3"}, 2, "--chunk-edges axis 0"},
      {{"--chunk-edges", "2,0;3"}, 2, "--chunk-edges axis 0: edge lengths and counts must be at least 1, got '0'"},
      {{"--chunk-edges", "2x0;3"}, 2, "at least 1, got '2x0'"},
      {{"--chunk-edges", "2,a;3"}, 2, "items are N or NxC"},
      {{"--chunk-edges", "5;3", "--shards", "5,3", "--chunks", "5,3"}, 2, "--shards and --chunk-edges"},
      {{"--chunk-edges", "5;3", "--format", "2"}, 2, "--chunk-edges needs --format 3"},
      {{"--chunk-edges", "2,3;3"}, 1, "the edge lengths sum to 5, less than the extent 10"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"create", url, "--shape", "10,8", "--dtype", "int16"};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    RunResult r = run_tool(args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.fragment << ": " << r.err;
    EXPECT_NE(r.err.find(c.fragment), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(url)) << c.fragment;
  }
}

// An axis of more chunks than zarrtool walks (a run of 2^64 - 1 one-element
// chunks is a few bytes of metadata) is refused by name, not listed.
TEST(Cli, VerifyRefusesARectilinearAxisOfTooManyChunksByName) {
  TempDir dir;
  const std::string url = dir / "huge";
  const std::string m = std::to_string(UINT64_MAX);
  const std::string meta = R"({"zarr_format": 3, "node_type": "array", "shape": [)" + m +
                           R"(], "data_type": "uint8", "chunk_grid": {"name": "rectilinear", "configuration": )" +
                           R"({"kind": "inline", "chunk_shapes": [[[1, )" + m + R"(]]]}}, "codecs": [{"name": "bytes"}]})";
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_create(&a, url.c_str(), meta.c_str()), ZARR_OK) << zarr_last_error();
  zarr_close(a);
  RunResult r = run_tool({"verify", url});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("axis 0 has 2^64 or more chunks, more than zarrtool walks"), std::string::npos) << r.err;
}

// In a group, such an array stopped the whole walk (exit 1, nothing else
// said), so a corrupt chunk of another array went unreported. The array is
// now a finding of its own and the walk goes on.
TEST(Cli, VerifyOfAGroupGoesOnPastAnArrayItCannotWalk) {
  TempDir dir;
  const std::string group = dir / "h";
  ASSERT_EQ(run_tool({"create", group, "--group"}).exit_code, 0);
  ASSERT_EQ(run_tool({"create", group + "/big", "--shape", "1000000000000", "--dtype", "u1", "--chunk-edges",
                      "1x1000000000000"})
                .exit_code,
            0);
  ASSERT_EQ(run_tool({"create", group + "/small", "--shape", "4", "--dtype", "u1"}).exit_code, 0);
  fs::create_directories(fs::path(group) / "small" / "c");
  std::ofstream(fs::path(group) / "small" / "c" / "0") << "zz";  // 2 bytes of a 4-byte chunk
  RunResult r = run_tool({"verify", group});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("/big: cannot verify: axis 0 has 1000000000000 chunks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/small: 1 chunks, 0 missing, 1 corrupt"), std::string::npos) << r.out;
}

namespace {

// A 10 x 8 int16 array of 0..79 (C order) on the grid --chunk-edges gives.
std::string make_rectilinear(const std::string& url, const std::string& edges,
                             const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"create", url, "--shape", "10,8", "--dtype", "int16", "--chunk-edges", edges};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult r = run_tool(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  fill_with_counting(url, 10, 8);
  return url;
}

bool have_numpy() { return python_has("numpy"); }

// NumPy's np.arange(80, dtype=int16).reshape(10, 8)[region] as cat prints
// it: CSV rows (a 0-d or 1-D result on one line), then the JSON line.
const char kNumpyModel[] =
    "import sys, json, numpy as np\n"
    "a = np.arange(80, dtype=np.int16).reshape(10, 8)\n"
    "v = a[eval('np.s_[' + (sys.argv[1] or ':') + ']')]\n"
    "print('\\n'.join(','.join(str(x) for x in row) for row in np.atleast_2d(v)) if v.size else '')\n"
    "print(json.dumps(v.tolist(), separators=(',', ':')))\n";

}  // namespace

// dump shows a rectilinear grid per axis, repeated edges as NxC (the
// --chunk-edges spelling), regular steps as integers; before, it showed the
// largest edges as if the grid were regular ("chunk shape: (5, 3)").
TEST(CliRectilinear, DumpShowsEachAxisEdgesAsRuns) {
  TempDir dir;
  ASSERT_EQ(run_tool({"create", dir.path(), "--group"}).exit_code, 0);
  make_rectilinear(dir / "r", "2x2,1,5;3");
  make_rectilinear(dir / "explicit", "2,2,1,1,5;3,3,2");
  make_rectilinear(dir / "s", "4,6;8", {"--chunks", "2,4"});
  RunResult r = run_tool({"dump", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("array /r (Zarr v3)\n    data type: int16\n    shape: (10, 8)\n    chunk grid: rectilinear\n"
                       "    chunk shape: ([2x2, 1, 5], 3)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("chunk shape: ([2x2, 1x2, 5], [3x2, 2])\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("chunk shape: (2, 4)\n    shard shape: ([4, 6], 8)\n"), std::string::npos) << r.out;
  r = run_tool({"create", dir / "line", "--shape", "7", "--dtype", "uint8", "--chunk-edges", "3,4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(run_tool({"dump", dir / "line"}).out.find("chunk shape: ([3, 4],)\n"), std::string::npos);
  // A regular array keeps its tuple and no grid line.
  r = run_tool({"create", dir / "regular", "--shape", "10,8", "--dtype", "int16", "--chunks", "5,3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_tool({"dump", dir / "regular"});
  EXPECT_NE(r.out.find("    chunk shape: (5, 3)\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("chunk grid"), std::string::npos) << r.out;
}

// --json gives each array's stored metadata, whose chunk_grid holds the
// edges per axis in their run form, as written.
TEST(CliRectilinear, DumpAsJsonGivesTheStoredGridAndEdgesPerAxis) {
  TempDir dir;
  make_rectilinear(dir / "r", "2x2,1,5;3");
  const RunResult r = run_tool({"dump", dir / "r", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const rapidjson::Document doc = parse(r.out);
  ASSERT_TRUE(doc.IsObject() && doc.HasMember("/")) << r.out;
  const rapidjson::Value& grid = doc["/"]["metadata"]["chunk_grid"];
  EXPECT_EQ(std::string(grid["name"].GetString()), "rectilinear") << r.out;
  rapidjson::Document expected;
  expected.Parse("[[[2, 2], 1, 5], 3]");
  EXPECT_TRUE(grid["configuration"]["chunk_shapes"] == expected) << r.out;
}

// info shows the grid per axis, not the largest edges as a regular chunk shape.
TEST(CliRectilinear, InfoShowsTheGridPerAxisAndShardsToo) {
  TempDir dir;
  make_rectilinear(dir / "s", "4,6;8", {"--chunks", "2,4"});
  const RunResult r = run_tool({"info", dir / "s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Chunk grid         : rectilinear\nChunk shape        : (2, 4)\n"
                       "Shard shape        : ([4, 6], 8)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Shards initialized : 2/2"), std::string::npos) << r.out;
}

// cat over chunks of different shapes: regions across chunk boundaries,
// negative steps, dropped dimensions and the whole array, as NumPy selects them.
TEST(CliRectilinear, CatSelectsAsNumpyDoes) {
  if (!have_numpy()) GTEST_SKIP() << python() << " has no numpy";
  TempDir dir;
  const std::vector<std::string> arrays = {make_rectilinear(dir / "r", "1,3x2,2,1;3,1,4"),
                                           make_rectilinear(dir / "s", "4,6;8", {"--chunks", "2,4"})};
  const std::vector<std::string> regions = {"",         "3:7,1:6",   "::-1,::-3", "8:1:-2,7:0:-2", "4,2:7",
                                            "-1,-1",    "1:9:3,::-1", "9:0:-4,5",  "::-1",          "5:4"};
  for (const std::string& url : arrays) {
    for (const std::string& region : regions) {
      std::string expected;
      ASSERT_EQ(run_python(kNumpyModel, {region}, &expected), 0) << expected;
      const size_t json_start = expected.rfind('\n', expected.size() - 2) + 1;
      const std::string csv = expected.substr(0, json_start), json = expected.substr(json_start);
      std::vector<std::string> text_args = {"cat", url}, json_args = {"cat", url, "--json"};
      if (!region.empty()) {
        for (auto* args : {&text_args, &json_args}) args->insert(args->end(), {"--region", region});
      }
      RunResult r = run_tool(text_args);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, csv == "\n" ? "" : csv) << url << " --region " << region;
      r = run_tool(json_args);
      EXPECT_EQ(r.out, json) << url << " --region " << region << " --json";
    }
  }
}

// cat reads a rectilinear array one row of its chunks at a time: with edges
// 1 and 9 rows 1..9 are one read (a garbled chunk there is named with that
// box). It read rows in groups of the largest edge, [0:9] then [9:10], so the
// 9-row chunk was read and decoded twice.
TEST(CliRectilinear, CatReadsEachRowOfChunksOnce) {
  TempDir dir;
  const std::string url = make_rectilinear(dir / "r", "1,9;8");
  std::ofstream(fs::path(url) / "c" / "1" / "0", std::ios::binary | std::ios::trunc) << "short";
  const RunResult r = run_tool({"cat", url});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(r.out, "0,1,2,3,4,5,6,7\n") << "row 0, its own chunk, before the garbled one";
  EXPECT_NE(r.err.find("cannot read " + url + " [1:10, 0:8]"), std::string::npos) << r.err;
}

namespace {

// A 10 x 8 int16 array of 0..79 in regular chunks of 5 x 4.
std::string make_regular(const std::string& url) {
  const RunResult r = run_tool({"create", url, "--shape", "10,8", "--dtype", "int16", "--chunks", "5,4"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  fill_with_counting(url, 10, 8);
  return url;
}

std::string chunk_shapes_of(const std::string& url) {
  const std::string text = text_of_file(fs::path(url) / "zarr.json");
  const size_t at = text.find("\"chunk_shapes\":");
  return at == std::string::npos ? "" : text.substr(at, text.find('}', at) - at);
}

}  // namespace

// cp --chunk-edges: a regular array into a rectilinear grid, into rectilinear
// shards of regular inner chunks (with --chunks), and a rectilinear array
// into another grid, every value kept.
TEST(CliRectilinear, CopyIntoTheGridChunkEdgesGives) {
  TempDir dir;
  const std::vector<int16_t> values = fill_with_counting(make_regular(dir / "regular"), 10, 8);
  RunResult r = run_tool({"cp", dir / "regular", dir / "r", "--chunk-edges", "3,7;2x4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(chunk_shapes_of(dir / "r"), R"("chunk_shapes":[[3,7],[[2,4]]])");
  EXPECT_TRUE(fs::exists(fs::path(dir / "r") / "c" / "1" / "3")) << "the 7 x 2 chunk";
  EXPECT_EQ(read_all_int16(dir / "r", 10, 8), values);
  r = run_tool({"cp", dir / "regular", dir / "s", "--chunk-edges", "4,6;8", "--chunks", "2,4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(run_tool({"dump", dir / "s"}).out.find("chunk shape: (2, 4)\n    shard shape: ([4, 6], 8)\n"),
            std::string::npos);
  EXPECT_EQ(read_all_int16(dir / "s", 10, 8), values);
  r = run_tool({"cp", dir / "r", dir / "again", "--chunk-edges", "5x2;8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(chunk_shapes_of(dir / "again"), R"("chunk_shapes":[[[5,2]],8])");
  EXPECT_EQ(read_all_int16(dir / "again", 10, 8), values);
}

// A group: --chunk-edges applies to every array; an array of another rank is
// refused by name before anything is written; a rectilinear member copied
// with other options keeps its grid.
TEST(CliRectilinear, CopyOfAGroupGivesEveryArrayTheEdgesOrRefusesAnotherRankByName) {
  TempDir dir;
  const std::string group = dir / "g";
  ASSERT_EQ(run_tool({"create", group, "--group"}).exit_code, 0);
  const std::vector<int16_t> values = fill_with_counting(make_regular(group + "/a"), 10, 8);
  make_rectilinear(group + "/b", "2x2,1,5;3");
  RunResult r = run_tool({"cp", group, dir / "edges", "--chunk-edges", "5x2;4x2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"a", "b"}) {
    EXPECT_EQ(chunk_shapes_of(dir / ("edges/" + std::string(name))), R"("chunk_shapes":[[[5,2]],[[4,2]]])") << name;
    EXPECT_EQ(read_all_int16(dir / ("edges/" + std::string(name)), 10, 8), values) << name;
  }
  r = run_tool({"cp", group, dir / "zstd", "--codec", R"({"name":"zstd","configuration":{"level":1}})"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(chunk_shapes_of(dir / "zstd/b"), R"("chunk_shapes":[[[2,2],1,5],3])");
  EXPECT_EQ(read_all_int16(dir / "zstd/b", 10, 8), values);
  ASSERT_EQ(run_tool({"create", group + "/line", "--shape", "7", "--dtype", "uint8"}).exit_code, 0);
  r = run_tool({"cp", group, dir / "refused", "--chunk-edges", "5x2;4x2"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("cannot copy " + group + "/line with --chunk-edges 5x2;4x2: it is 1-D and --chunk-edges "
                       "gives 2 axes"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "refused"));
}

// Every refusal of cp's grid options names the array or the option at
// fault, and leaves no destination behind.
TEST(CliRectilinear, CopyRefusalsNameTheArrayOrOptionAndWriteNothing) {
  TempDir dir;
  const std::string rectilinear = make_rectilinear(dir / "r", "2x2,1,5;3");
  const std::string regular = make_regular(dir / "regular");
  ASSERT_EQ(run_tool({"create", dir / "g", "--group"}).exit_code, 0);
  make_rectilinear(dir / "g/inner", "2x2,1,5;3");
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string fragment;
  };
  const std::vector<Case> cases = {
      {{rectilinear, "--format", "2"}, 2,
       "cannot copy " + rectilinear + " to --format 2: its chunk grid is rectilinear and Zarr v2 has regular chunks "
       "only; give --chunks"},
      {{dir / "g", "--format", "2"}, 2, "cannot copy " + (dir / "g/inner") + " to --format 2"},
      {{regular, "--chunk-edges", "5x2;8", "--format", "2"}, 2, "--chunk-edges needs --format 3"},
      {{regular, "--chunk-edges", "5x2;8", "--shards", "5,8", "--chunks", "5,8"}, 2, "--shards and --chunk-edges"},
      {{regular, "--chunk-edges", "5x2;0"}, 2, "--chunk-edges axis 1: edge lengths and counts must be at least 1"},
      {{regular, "--chunk-edges", "5x2"}, 2, "it is 2-D and --chunk-edges gives 1 axes"},
      {{regular, "--chunk-edges", "2,3;8"}, 1,
       "cannot copy " + regular + " with these options (nothing was written)"},
      {{regular, "--chunk-edges", "2,3;8"}, 1, "the edge lengths sum to 5, less than the extent 10"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"cp", c.args[0], dir / "copy"};
    args.insert(args.end(), c.args.begin() + 1, c.args.end());
    const RunResult r = run_tool(args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.fragment << ": " << r.err;
    EXPECT_NE(r.err.find(c.fragment), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "copy")) << c.fragment;
  }
}
