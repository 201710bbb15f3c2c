// zarrtool as a user runs it: each test starts the built tool as a process
// and checks its output and exit code. Data is prepared through the C API.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
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

// Every file, folder and link below dir, relative and sorted.
std::vector<std::string> list_tree(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) out.push_back(fs::relative(entry.path(), dir));
  std::sort(out.begin(), out.end());
  return out;
}


TEST(Cli, CreateThenInfoAsText) {
  TempDir dir;
  RunResult r = run_tool({"create", dir / "a", "--shape", "100,100", "--dtype", "<i4", "--chunks", "10,10",
                          "--fill", "7", "--attrs", R"({"units":"m"})"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_tool({"info", dir / "a"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Zarr format        : 3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Data type          : int32"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Shape              : (100, 100)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Chunk shape        : (10, 10)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Fill value         : 7"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"({"units":"m"})"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Chunks initialized : 0/100"), std::string::npos) << r.out;
}

TEST(Cli, InfoAsJsonCountsWrittenChunks) {
  TempDir dir;
  for (std::string format : {"2", "3"}) {
    std::string url = make_counting_array(dir, "a" + format, format);
    RunResult r = run_tool({"info", url, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    rapidjson::Document info = parse(r.out);
    ASSERT_TRUE(info.IsObject()) << r.out;
    EXPECT_EQ(info["zarr_format"].GetInt(), std::stoi(format));
    EXPECT_EQ(extents(info["shape"]), (std::vector<uint64_t>{6, 8}));
    EXPECT_EQ(extents(info["chunks"]), (std::vector<uint64_t>{3, 4}));
    EXPECT_STREQ(info["data_type"].GetString(), "int32");
    EXPECT_EQ(info["fill_value"].GetInt(), -1);
    if (format == "3") {
      EXPECT_TRUE(info["codecs"].IsArray()) << r.out;  // the v3 codecs list
    } else {
      EXPECT_STREQ(info["codecs"]["order"].GetString(), "C") << r.out;  // v2: order, filters, compressor
    }
    EXPECT_NE(r.out.find(format == "3" ? "gzip" : "zlib"), std::string::npos) << r.out;
    EXPECT_EQ(info["chunks_total"].GetUint64(), 4u);
    EXPECT_EQ(info["nbytes"].GetUint64(), 6u * 8u * 4u);
    EXPECT_GT(info["nbytes_stored"].GetUint64(), 0u);
    EXPECT_EQ(info["chunks_initialized"].GetUint64(), 4u);
  }
}

TEST(Cli, CatPrintsRowsOfARegion) {
  TempDir dir;
  std::string url = make_counting_array(dir, "a");
  RunResult r = run_tool({"cat", url, "--region", "1:3,2:6"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "10,11,12,13\n18,19,20,21\n");
  r = run_tool({"cat", url, "--region", "-1,::3"});  // an index drops its dimension
  EXPECT_EQ(r.out, "40,43,46\n");
  r = run_tool({"cat", url, "--region", "0:6:2,7"});
  EXPECT_EQ(r.out, "7,23,39\n");
  r = run_tool({"cat", url, "--region", "5,6:8", "--raw"});
  ASSERT_EQ(r.out.size(), 8u);
  int32_t raw[2];
  std::memcpy(raw, r.out.data(), 8);
  EXPECT_EQ(raw[0], 46);
  EXPECT_EQ(raw[1], 47);
}

TEST(Cli, TreeOfAGroupWithTwoArrays) {
  TempDir dir;
  const std::string group = dir / "g";
  ASSERT_EQ(run_tool({"create", group, "--group"}).exit_code, 0);
  ASSERT_EQ(run_tool({"create", group + "/temperature", "--shape", "10,20", "--dtype", "float32"}).exit_code, 0);
  ASSERT_EQ(run_tool({"create", group + "/sub/counts", "--shape", "5", "--dtype", "uint16"}).exit_code, 0);
  RunResult r = run_tool({"tree", group});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "/\n"
            " ├── sub\n"
            " │   └── counts (5,) uint16\n"
            " └── temperature (10, 20) float32\n");
}

TEST(Cli, VerifyPassesThenFindsAGarbledChunk) {
  TempDir dir;
  std::string url = make_counting_array(dir, "a");
  RunResult r = run_tool({"verify", url});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("4 chunks, 0 missing, 0 corrupt"), std::string::npos) << r.out;

  std::ofstream(fs::path(url) / "c" / "1" / "0", std::ios::binary | std::ios::trunc) << "not a gzip stream";
  r = run_tool({"verify", url});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("corrupt"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("c/1/0"), std::string::npos) << r.out;
  EXPECT_EQ(run_tool({"cat", url}).exit_code, 4);
}

TEST(Cli, VerifyCountsMissingChunksAndReportsStrayKeys) {
  TempDir dir;
  const std::string url = dir / "a";
  ASSERT_EQ(run_tool({"create", url, "--shape", "6,8", "--dtype", "int32", "--chunks", "3,4"}).exit_code, 0);
  zarr_array* a = nullptr;
  ASSERT_EQ(zarr_open(&a, url.c_str(), "r+"), ZARR_OK) << zarr_last_error();
  const uint64_t start[2] = {0, 0}, count[2] = {3, 4};
  std::vector<int32_t> values(12, 9);
  ASSERT_EQ(zarr_write_region(a, 2, start, count, values.data(), values.size() * 4), ZARR_OK);
  zarr_close(a);
  std::ofstream(fs::path(url) / "leftover.bin") << "x";
  RunResult r = run_tool({"verify", url});
  EXPECT_EQ(r.exit_code, 0) << "stray keys are reported, not corruption: " << r.out;
  EXPECT_NE(r.out.find("stray key: leftover.bin"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 chunks, 3 missing, 0 corrupt, 0 unreadable, 1 stray keys"), std::string::npos) << r.out;
}

// A FIFO and a link to /dev/zero where chunks should be (as a tree from
// someone else may hold): verify reads them, calls them unreadable and
// fails, never hangs or calls them missing.
TEST(Cli, VerifyCountsSpecialFilesAsUnreadableChunks) {
  TempDir dir;
  const fs::path url = make_counting_array(dir, "a", "2");
  fs::remove(url / "1.0");
  ASSERT_EQ(::mkfifo((url / "1.0").c_str(), 0600), 0);
  fs::remove(url / "1.1");
  fs::create_symlink("/dev/zero", url / "1.1");
  RunResult r = run_tool({"verify", url});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("unreadable: chunk 1.0 [3:6, 0:4]: cannot read '" + (url / "1.0").string() +
                       "': it is a FIFO, not a regular file"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("unreadable: chunk 1.1 [3:6, 4:8]: cannot read '" + (url / "1.1").string() +
                       "': it is a character device, not a regular file"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("4 chunks, 0 missing, 0 corrupt, 2 unreadable, 0 stray keys"), std::string::npos) << r.out;
  EXPECT_EQ(run_tool({"cat", url}).exit_code, 1);
}

// 30 levels of folders inside an array, each with two links to the next
// (2^31 paths): verify and info list each folder once and finish.
TEST(Cli, VerifyAndInfoFinishOnADagOfLinks) {
  TempDir dir;
  const std::string url = make_counting_array(dir, "a");
  zarr::test::make_dag_of_links(url + "/dag", 30);
  RunResult r = run_tool({"verify", url});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("4 chunks, 0 missing, 0 corrupt, 0 unreadable, 0 stray keys"), std::string::npos) << r.out;
  r = run_tool({"info", url});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Chunks initialized : 4/4"), std::string::npos) << r.out;
}

TEST(Cli, UsageErrorsExitWithTwo) {
  TempDir dir;
  RunResult r = run_tool({"info", dir.path(), "--no-such-option"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("zarrtool: ", 0), 0u) << r.err;
  EXPECT_EQ(run_tool({"info"}).exit_code, 2);
  EXPECT_EQ(run_tool({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(run_tool({}).exit_code, 2);
  EXPECT_EQ(run_tool({"create", dir / "x", "--shape", "ten", "--dtype", "int8"}).exit_code, 2);
  EXPECT_EQ(run_tool({"create", dir / "x", "--shape", "10", "--dtype", "int8", "--format", "4"}).exit_code, 2);
}

TEST(Cli, MissingPathExitsWithThree) {
  TempDir dir;
  for (const char* command : {"info", "tree", "cat", "verify"}) {
    RunResult r = run_tool({command, dir / "nothing-here"});
    EXPECT_EQ(r.exit_code, 3) << command << ": " << r.err;
    EXPECT_NE(r.err.find("nothing-here"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;  // one line
  }
}

TEST(Cli, EverySubcommandHasHelp) {
  for (const char* command : {"info", "tree", "cat", "create", "verify", "rm", "cp", "consolidate", "migrate"}) {
    RunResult r = run_tool({command, "--help"});
    EXPECT_EQ(r.exit_code, 0) << command;
    EXPECT_NE(r.out.find(std::string("usage: zarrtool ") + command), std::string::npos) << r.out;
  }
  EXPECT_EQ(run_tool({"--help"}).exit_code, 0);
}

// Every array of ../shared/peer-data's manifest: info --json succeeds with
// the shape peers read, or names a data type libzarr does not support.
TEST(Cli, InfoOnPeerDataArrays) {
  const fs::path peer_data = (fs::path(ZARR_SOURCE_ROOT) / ".." / "shared" / "peer-data").lexically_normal();
  if (!fs::is_directory(peer_data)) GTEST_SKIP() << "no peer data at " << peer_data;
  rapidjson::Document manifest = parse(read_text(peer_data / "manifest.json"));
  int described = 0;
  for (const auto& entry : manifest["arrays"].GetArray()) {
    std::string path = (peer_data / entry["path"].GetString()).string();
    RunResult r = run_tool({"info", "--json", path});
    if (r.exit_code != 0) {
      EXPECT_NE(r.err.find("not supported"), std::string::npos) << path << ": " << r.err;
      continue;
    }
    rapidjson::Document info = parse(r.out);
    ASSERT_TRUE(info.IsObject()) << path;
    EXPECT_EQ(info["zarr_format"].GetInt(), entry["zarr_format"].GetInt()) << path;
    for (const auto& peer : entry["peers"].GetObject()) {
      if (peer.value.IsObject() && peer.value.HasMember("shape")) {
        EXPECT_EQ(extents(info["shape"]), extents(peer.value["shape"])) << path << " as " << peer.name.GetString();
      }
    }
    ++described;
  }
  EXPECT_GT(described, 100) << "most of the corpus should be readable";
  std::cout << "[ peer-data] zarrtool info described " << described << " of " << manifest["arrays"].Size()
            << " arrays\n";
}

}  // namespace

namespace {

// tree on the peer-data groups (v2 and v3, zarrita's fixtures and
// zarr-implementations'): every child the C API lists is drawn, with a shape
// for each array.
TEST(Cli, TreeOnPeerDataGroups) {
  const fs::path peer_data = (fs::path(ZARR_SOURCE_ROOT) / ".." / "shared" / "peer-data").lexically_normal();
  if (!fs::is_directory(peer_data)) GTEST_SKIP() << "no peer data at " << peer_data;
  for (const char* group : {"zarrita-fixtures/v2/data.zarr", "zarrita-fixtures/v3/data.zarr",
                            "zarr-implementations/examples/zarr.zr"}) {
    const std::string url = (peer_data / group).string();
    RunResult r = run_tool({"tree", url});
    ASSERT_EQ(r.exit_code, 0) << group << ": " << r.err;
    zarr_group* g = nullptr;
    ASSERT_EQ(zarr_group_open(&g, url.c_str(), "r"), ZARR_OK) << zarr_last_error();
    size_t count = 0;
    ASSERT_EQ(zarr_group_child_count(g, &count), ZARR_OK);
    EXPECT_GT(count, 0u) << group;
    for (size_t i = 0; i < count; ++i) {
      const char* name = nullptr;
      int kind = 0;
      ASSERT_EQ(zarr_group_child(g, i, &name, &kind), ZARR_OK);
      const std::string line = std::string(" ") + name + (kind == ZARR_NODE_ARRAY ? " (" : "");
      EXPECT_NE(r.out.find(line), std::string::npos) << group << ": no '" << line << "' in\n" << r.out;
    }
    zarr_group_close(g);
  }
}

TEST(Cli, RmNeedsYesAndAZarrNode) {
  TempDir dir;
  std::string url = make_counting_array(dir, "a");
  EXPECT_EQ(run_tool({"rm", url}).exit_code, 2);
  EXPECT_TRUE(fs::exists(url));
  fs::create_directory(dir / "plain");
  EXPECT_EQ(run_tool({"rm", dir / "plain", "--yes"}).exit_code, 3);
  EXPECT_TRUE(fs::exists(dir / "plain"));
  EXPECT_EQ(run_tool({"rm", url, "--yes"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(url));
}

// rm erases what opening the same path finds: the kernel follows
// "data/link" and then "..", to the folder above the link's target, never
// "data" (the old text resolution erased "data").
TEST(Cli, RmResolvesDotDotAfterALinkAsOpeningDoes) {
  TempDir dir;
  const std::string data = dir / "data";
  ASSERT_EQ(run_tool({"create", data, "--group"}).exit_code, 0);
  make_counting_array(dir, "data/arr");
  fs::create_directories(dir / "other/inner");
  fs::create_directory_symlink("../other/inner", data + "/link");
  const std::string dotdot = data + "/link/..";
  EXPECT_EQ(run_tool({"info", dotdot}).exit_code, 3);
  RunResult r = run_tool({"rm", dotdot, "--yes"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("no array or group"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(data + "/arr/zarr.json"));
  // Once the folder above the target is a group, rm erases it, as info shows it.
  ASSERT_EQ(run_tool({"create", dir / "other", "--group"}).exit_code, 0);
  EXPECT_EQ(run_tool({"info", dotdot}).exit_code, 0);
  EXPECT_EQ(run_tool({"rm", dotdot, "--yes"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(dir / "other"));
  EXPECT_TRUE(fs::exists(data + "/arr/zarr.json"));
}

// An array linked into a group is read through the group; rm of it removes
// the link, never the array it points to.
TEST(Cli, RmOfALinkedArrayRemovesTheLinkOnly) {
  TempDir dir;
  ASSERT_EQ(run_tool({"create", dir / "g", "--group"}).exit_code, 0);
  const std::string target = make_counting_array(dir, "elsewhere");
  fs::create_directory_symlink(target, dir / "g/linked");
  EXPECT_EQ(run_tool({"cat", dir / "g/linked"}).out, run_tool({"cat", target}).out);
  EXPECT_EQ(run_tool({"rm", dir / "g/linked", "--yes"}).exit_code, 0);
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir / "g/linked")));
  RunResult r = run_tool({"verify", target});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("4 chunks, 0 missing"), std::string::npos) << r.out;
}

TEST(Cli, CpConvertsFormatAndChunksKeepingValues) {
  TempDir dir;
  std::string source = make_counting_array(dir, "a2", "2");
  const std::string copy = dir / "b3";
  RunResult r = run_tool({"cp", source, copy, "--format", "3", "--chunks", "4,3",
                          "--codec", R"({"name":"zstd","configuration":{"level":1}})"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // no progress when stderr is not a terminal
  rapidjson::Document info = parse(run_tool({"info", copy, "--json"}).out);
  EXPECT_EQ(info["zarr_format"].GetInt(), 3);
  EXPECT_EQ(extents(info["chunks"]), (std::vector<uint64_t>{4, 3}));
  EXPECT_EQ(info["fill_value"].GetInt(), -1);
  EXPECT_EQ(run_tool({"cat", copy}).out, run_tool({"cat", source}).out);
  EXPECT_EQ(run_tool({"verify", copy}).exit_code, 0);
  const std::string verbatim = dir / "c";
  ASSERT_EQ(run_tool({"cp", copy, verbatim}).exit_code, 0);
  EXPECT_EQ(run_tool({"cat", verbatim, "--raw"}).out, run_tool({"cat", source, "--raw"}).out);
}

// Float fill values whose shortest text a naive decimal conversion misreads
// (RapidJSON's default one gave ...965e-143 for the first) keep their bits.
TEST(Cli, CpKeepsTheBitsOfAFloatFillValue) {
  TempDir dir;
  const std::string source = dir / "f";
  std::filesystem::create_directories(source);
  for (const char* fill : {"1.3927926388013963e-143", "9.599801275636446e-283", "0.30000000000000004"}) {
    std::ofstream(std::filesystem::path(source) / ".zarray")
        << R"({"chunks": [2], "compressor": null, "dtype": "<f8", "fill_value": )" << fill
        << R"(, "filters": null, "order": "C", "shape": [4], "zarr_format": 2})";
    for (const char* format : {"2", "3"}) {
      const std::string copy = dir / (std::string("copy") + format);
      std::filesystem::remove_all(copy);
      RunResult r = run_tool({"cp", source, copy, "--chunks", "4", "--format", format});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::string metadata = read_text(std::filesystem::path(copy) / (format[0] == '2' ? ".zarray" : "zarr.json"));
      EXPECT_NE(metadata.find(std::string("\"fill_value\": ") + fill), std::string::npos) << metadata;
    }
  }
}

// Runs a shell command line under a pseudo-terminal (util-linux `script`), so
// zarrtool sees a terminal on stdin, stdout and stderr; `input` is typed in.
RunResult run_on_terminal(const std::string& command_line, const std::string& input = "") {
  std::string command = "printf %s " + shell_quote(input) + " | script -q -e -c " + shell_quote(command_line) +
                        " /dev/null";
  RunResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

bool have_script() { return std::system("command -v script >/dev/null 2>&1") == 0; }

TEST(Cli, CpShowsProgressOnATerminalOnly) {
  if (!have_script()) GTEST_SKIP() << "util-linux `script` is not installed";
  TempDir dir;
  const std::string source = make_counting_array(dir, "a");
  RunResult r = run_on_terminal(shell_quote(ZARRTOOL_PATH) + " cp " + shell_quote(source) + " " +
                                shell_quote(dir / "b"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("4/4 chunks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("MB/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("left"), std::string::npos) << r.out;
  RunResult piped = run_tool({"cp", source, dir / "c"});
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.err, "") << "no progress into a pipe or file";
}

// The progress line and verify's summary said "chunks" when they counted shards.
TEST(Cli, ProgressAndVerifyCountShardsOfAShardedCopy) {
  if (!have_script()) GTEST_SKIP() << "util-linux `script` is not installed";
  TempDir dir;
  const std::string source = make_counting_array(dir, "a");
  const std::string copy = dir / "b";
  RunResult r = run_on_terminal(shell_quote(ZARRTOOL_PATH) + " cp " + shell_quote(source) + " " + shell_quote(copy) +
                                " --shards 6,4 --chunks 3,4");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("2/2 shards"), std::string::npos) << r.out;
  RunResult verify = run_tool({"verify", copy});
  EXPECT_NE(verify.out.find(": 2 shards, 0 missing"), std::string::npos) << verify.out;
}

TEST(Cli, RmAsksOnATerminal) {
  if (!have_script()) GTEST_SKIP() << "util-linux `script` is not installed";
  TempDir dir;
  const std::string url = make_counting_array(dir, "a");
  const std::string command = shell_quote(ZARRTOOL_PATH) + " rm " + shell_quote(url);
  RunResult declined = run_on_terminal(command, "n\n");
  EXPECT_NE(declined.out.find("[y/N]"), std::string::npos) << declined.out;
  EXPECT_NE(declined.exit_code, 0);
  EXPECT_TRUE(fs::exists(url));
  RunResult accepted = run_on_terminal(command, "y\n");
  EXPECT_EQ(accepted.exit_code, 0) << accepted.out;
  EXPECT_FALSE(fs::exists(url));
}

TEST(Cli, RmRefusesAnExistingZipArchive) {
  TempDir dir;
  const std::string url = dir / "a.zip|zip:a";
  ASSERT_EQ(run_tool({"create", url, "--shape", "4", "--dtype", "int8"}).exit_code, 0);
  RunResult r = run_tool({"rm", url, "--yes"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("a.zip"), std::string::npos) << r.err;
  EXPECT_EQ(run_tool({"info", url}).exit_code, 0) << "the archive is intact";
}

TEST(Cli, CpCopiesAWholeHierarchyConvertingItsFormat) {
  TempDir dir;
  const std::string root = dir / "g";
  ASSERT_EQ(run_tool({"create", root, "--group", "--format", "2", "--attrs", R"({"title":"t"})"}).exit_code, 0);
  make_counting_array(dir, "g/a", "2");
  ASSERT_EQ(run_tool({"create", root + "/sub", "--group", "--format", "2"}).exit_code, 0);
  make_counting_array(dir, "g/sub/b", "2");
  const std::string copy = dir / "h";
  RunResult r = run_tool({"cp", root, copy, "--format", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document info = parse(run_tool({"info", copy, "--json"}).out);
  EXPECT_EQ(info["zarr_format"].GetInt(), 3);
  EXPECT_STREQ(info["attributes"]["title"].GetString(), "t");
  EXPECT_EQ(run_tool({"tree", copy}).out.find("sub") != std::string::npos, true);
  for (const char* array : {"a", "sub/b"}) {
    rapidjson::Document array_info = parse(run_tool({"info", copy + "/" + array, "--json"}).out);
    EXPECT_EQ(array_info["zarr_format"].GetInt(), 3) << array;
    EXPECT_EQ(run_tool({"cat", copy + "/" + array}).out, run_tool({"cat", root + "/" + array}).out) << array;
  }
}

// A group copied into its own subtree would copy the copy again until paths
// grow too long; an array copied into itself would land among its keys.
// Every spelling of "inside" (a trailing '/', "..", file://, a link into the
// source) is refused before anything is written; a name that merely starts
// like the source's is not inside it.
TEST(Cli, CpRefusesACopyIntoItsOwnSubtree) {
  TempDir dir;
  const std::string root = dir / "g";
  ASSERT_EQ(run_tool({"create", root, "--group"}).exit_code, 0);
  make_counting_array(dir, "g/a");
  ASSERT_EQ(run_tool({"create", root + "/sub", "--group"}).exit_code, 0);
  fs::create_directory_symlink(root + "/sub", dir / "alias");
  const auto files_before = list_tree(root);
  for (const std::string& copy : {root, root + "/", root + "/copy", root + "/sub/copy", root + "/sub/../copy",
                                  dir / "alias/copy", "file://" + root + "/sub/c%6Fpy", dir / "other/../g/copy"}) {
    SCOPED_TRACE(copy);
    RunResult r = run_tool({"cp", root, copy});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    const bool itself = copy == root || copy == root + "/";
    EXPECT_EQ(r.err, "zarrtool: cannot copy " + root + " to " + copy + ": " +
                         (itself ? "that is the source itself" : "that lies inside the source") + "\n");
  }
  RunResult r = run_tool({"cp", root + "/a", root + "/a/c/copy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("that lies inside the source"), std::string::npos) << r.err;
  EXPECT_EQ(list_tree(root), files_before);
  ASSERT_EQ(run_tool({"cp", root, dir / "g2"}).exit_code, 0);  // beside it, its name starting with "g"
  EXPECT_EQ(run_tool({"cat", dir / "g2/a"}).out, run_tool({"cat", root + "/a"}).out);
}

// A member named "%2e%2e%2f%2e%2e%2fpwned" is a name: copied into a file://
// destination it stays below it, spelled as it is (the old copy joined it
// into the URL as text, which decoding made "../../pwned", two folders
// above the destination: audit of issue 20, finding 2).
TEST(Cli, CpKeepsPercentEscapedMemberNamesBelowTheDestination) {
  TempDir dir;
  const std::string root = dir / "src/g.zarr";
  ASSERT_EQ(run_tool({"create", root, "--group", "--format", "2"}).exit_code, 0);
  const std::string name = "%2e%2e%2f%2e%2e%2fpwned";
  make_counting_array(dir, "src/g.zarr/" + name, "2");
  fs::create_directories(dir / "dst/inner");
  RunResult r = run_tool({"cp", root, "file://" + dir / "dst/inner/copy.zarr"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(run_tool({"cat", dir / "dst/inner/copy.zarr/" + name}).out, run_tool({"cat", root + "/" + name}).out);
  EXPECT_FALSE(fs::exists(dir / "pwned"));
  EXPECT_FALSE(fs::exists(dir / "dst/pwned"));
  std::set<std::string> top;
  for (const std::string& entry : list_tree(dir.path())) top.insert(entry.substr(0, entry.find('/')));
  EXPECT_EQ(top, (std::set<std::string>{"dst", "src"}));
  for (const std::string& entry : list_tree(dir / "dst")) {
    EXPECT_TRUE(entry == "inner" || entry.rfind("inner/copy.zarr", 0) == 0) << entry;
  }
}

// Names from the store (children, stray keys) may hold terminal escape
// sequences: tree, info, dump and verify print control characters as \xNN,
// never raw (they printed them raw: audit of issue 20).
TEST(Cli, TreeAndVerifyPrintControlCharactersEscaped) {
  TempDir dir;
  const std::string group = dir / "g";
  ASSERT_EQ(run_tool({"create", group, "--group"}).exit_code, 0);
  const std::string url = make_counting_array(dir, "g/a\x1b]0;owned\x07");
  std::ofstream(fs::path(url) / "stray\x1b[2J") << "x";
  RunResult tree = run_tool({"tree", group});
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_EQ(tree.out.find('\x1b'), std::string::npos) << tree.out;
  EXPECT_NE(tree.out.find("a\\x1b]0;owned\\x07 (6, 8) int32"), std::string::npos) << tree.out;
  for (const char* command : {"info", "dump"}) {  // the group's member names, node paths
    RunResult r = run_tool({command, group});
    ASSERT_EQ(r.exit_code, 0) << command << ": " << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << command << ": " << r.out;
    EXPECT_NE(r.out.find("a\\x1b]0;owned\\x07"), std::string::npos) << command << ": " << r.out;
  }
  RunResult verify = run_tool({"verify", url});
  EXPECT_EQ(verify.out.find('\x1b'), std::string::npos) << verify.out;
  EXPECT_NE(verify.out.find("stray key: stray\\x1b[2J"), std::string::npos) << verify.out;
}

// C1 controls (U+009B is CSI), bidirectional overrides and bytes that are not
// UTF-8 (possible in a stray key) reached the terminal as they were.
TEST(Cli, TreeAndVerifyPrintC1BidiAndInvalidBytesEscaped) {
  TempDir dir;
  const std::string group = dir / "g";
  ASSERT_EQ(run_tool({"create", group, "--group"}).exit_code, 0);
  const std::string url = make_counting_array(dir, "g/a\xc2\x9b" "2J\xe2\x80\xaegpj.exe");
  RunResult tree = run_tool({"tree", group});
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_NE(tree.out.find("a\\u009B2J\\u202Egpj.exe (6, 8) int32"), std::string::npos) << tree.out;
  EXPECT_EQ(tree.out.find("\xc2\x9b"), std::string::npos) << tree.out;
  EXPECT_EQ(tree.out.find("\xe2\x80\xae"), std::string::npos) << tree.out;
  std::ofstream(fs::path(url) / "stray\x9b" "2J") << "x";
  RunResult verify = run_tool({"verify", url});
  EXPECT_NE(verify.out.find("stray key: stray\\x9b2J"), std::string::npos) << verify.out;
  EXPECT_EQ(verify.out.find('\x9b'), std::string::npos) << verify.out;
}

}  // namespace

namespace {

// The options a help text's usage (its first paragraph) names, as a manual
// page writes them: "--chunk-edges" is "\-\-chunk\-edges".
std::vector<std::string> usage_options_in_roff(const std::string& help) {
  const std::string usage = help.substr(0, help.find("\n\n"));
  std::vector<std::string> options;
  for (size_t at = usage.find("--"); at != std::string::npos; at = usage.find("--", at + 2)) {
    std::string option;
    auto in_name = [&](size_t i) { return std::islower(static_cast<unsigned char>(usage[i])) || usage[i] == '-'; };
    for (size_t i = at; i < usage.size() && in_name(i); ++i) option += usage[i] == '-' ? "\\-" : std::string(1, usage[i]);
    options.push_back(option);
  }
  return options;
}

// The manual page documents every subcommand the tool has, and its SYNOPSIS
// line of each subcommand every option of the subcommand's usage.
TEST(Cli, ManualPageCoversEverySubcommand) {
  const std::string page = read_text(fs::path(ZARR_SOURCE_ROOT) / "docs" / "zarrtool.1");
  ASSERT_FALSE(page.empty()) << "docs/zarrtool.1 is missing";
  for (const char* command : {"info", "dump", "tree", "cat", "create", "cp", "verify", "rm", "consolidate", "migrate"}) {
    const size_t synopsis = page.find(std::string(".B zarrtool ") + command + "\n");
    EXPECT_NE(synopsis, std::string::npos) << command << " in SYNOPSIS";
    EXPECT_NE(page.find(std::string(".TP\n.B ") + command + "\n"), std::string::npos) << command << " in COMMANDS";
    const RunResult help = run_tool({command, "--help"});
    EXPECT_EQ(help.exit_code, 0) << command;
    if (synopsis == std::string::npos) continue;
    const std::string line = page.substr(synopsis, page.find("\n.br", synopsis) - synopsis);
    for (const std::string& option : usage_options_in_roff(help.out)) {
      EXPECT_NE(line.find(option), std::string::npos) << command << " " << option << " in SYNOPSIS";
    }
  }
}

}  // namespace
