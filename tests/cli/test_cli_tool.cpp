// zarrtool as a daily tool: help for every command, info of groups and empty
// arrays, dump of a whole hierarchy, zip paths, --store-options, and arrays
// other writers made (GDAL's blosc metadata).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_runner.h"
#include "support/test_support.h"
#include "zarr/zarr.h"
#include "zarr_config.h"

namespace fs = std::filesystem;

namespace {

using namespace zarrtool_test;
using zarr::test::TempDir;

const char* const kCommands[] = {"info", "dump", "tree", "cat", "create", "verify", "rm", "cp", "consolidate", "migrate"};

// `zarrtool help cp` printed the top-level usage.
TEST(CliTool, HelpNamesEveryCommand) {
  for (const char* command : kCommands) {
    SCOPED_TRACE(command);
    RunResult help = run_tool({"help", command});
    EXPECT_EQ(help.exit_code, 0) << help.err;
    EXPECT_EQ(help.out.rfind(std::string("usage: zarrtool ") + command + " ", 0), 0u) << help.out;
    EXPECT_EQ(help.out, run_tool({command, "--help"}).out);
    EXPECT_NE(run_tool({"--help"}).out.find(std::string("  ") + command + " "), std::string::npos);
  }
  EXPECT_EQ(run_tool({"help"}).out, run_tool({"--help"}).out);
  RunResult unknown = run_tool({"help", "frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("'frobnicate' is not one"), std::string::npos) << unknown.err;
}

// info of a group printed its members as raw JSON.
TEST(CliTool, InfoOfAGroupIsASummary) {
  TempDir dir;
  const std::string group = dir / "g";
  ASSERT_EQ(run_tool({"create", group, "--group", "--attrs", R"({"title":"t"})"}).exit_code, 0);
  make_counting_array(dir, "g/b");
  make_counting_array(dir, "g/a");
  ASSERT_EQ(run_tool({"create", group + "/sub", "--group"}).exit_code, 0);
  RunResult r = run_tool({"info", group});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Type               : Group\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Attributes         : {\"title\":\"t\"}\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("No. members        : 3\nNo. arrays         : 2\nNo. groups         : 1\n"
                       "Arrays             : a, b\nGroups             : sub\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("\"kind\""), std::string::npos) << r.out;
  rapidjson::Document json = parse(run_tool({"info", group, "--json"}).out);
  EXPECT_EQ(json["members"].Size(), 3u) << "--json keeps the listing";
}

// An empty array's "storage ratio" compared its logical size with its
// metadata's (76.48).
TEST(CliTool, InfoOfAnEmptyArrayShowsNoStorageRatio) {
  TempDir dir;
  const std::string url = dir / "a";
  ASSERT_EQ(run_tool({"create", url, "--shape", "100,100", "--dtype", "float64", "--chunks", "10,10"}).exit_code, 0);
  RunResult r = run_tool({"info", url});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("Storage ratio"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Chunks initialized : 0/100"), std::string::npos) << r.out;
  const std::string written = make_counting_array(dir, "b");
  EXPECT_NE(run_tool({"info", written}).out.find("Storage ratio"), std::string::npos);
}

TEST(CliTool, DumpShowsEveryNodesMetadataAndAttributes) {
  TempDir dir;
  const std::string group = dir / "g";
  ASSERT_EQ(run_tool({"create", group, "--group", "--format", "2", "--attrs", R"({"title":"demo"})"}).exit_code, 0);
  ASSERT_EQ(run_tool({"create", group + "/t", "--shape", "4,6", "--dtype", "float32", "--chunks", "2,3", "--format",
                      "2", "--fill", "NaN", "--attrs", R"({"units":"K","scale":[1,2]})"})
                .exit_code,
            0);
  ASSERT_EQ(run_tool({"create", group + "/sub", "--group", "--format", "2"}).exit_code, 0);
  make_counting_array(dir, "g/sub/c", "2");
  RunResult r = run_tool({"dump", group});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "group / (Zarr v2)\n"
            "    attributes:\n"
            "        title = \"demo\"\n"
            "group /sub (Zarr v2)\n"
            "array /sub/c (Zarr v2)\n"
            "    data type: int32\n"
            "    shape: (6, 8)\n"
            "    chunk shape: (3, 4)\n"
            "    fill value: -1\n"
            "    codecs: [{\"id\":\"zlib\",\"level\":1}]\n"
            "array /t (Zarr v2)\n"
            "    data type: float32\n"
            "    shape: (4, 6)\n"
            "    chunk shape: (2, 3)\n"
            "    fill value: \"NaN\"\n"
            "    codecs: [{\"blocksize\":0,\"clevel\":5,\"cname\":\"lz4\",\"id\":\"blosc\",\"shuffle\":1}]\n"
            "    attributes:\n"
            "        units = \"K\"\n"
            "        scale = [1,2]\n");
  RunResult json = run_tool({"dump", group, "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  rapidjson::Document doc = parse(json.out);
  ASSERT_TRUE(doc.IsObject()) << json.out;
  EXPECT_EQ(doc.MemberCount(), 4u);
  EXPECT_STREQ(doc["/"]["node_type"].GetString(), "group");
  EXPECT_STREQ(doc["/t"]["attributes"]["units"].GetString(), "K");
  EXPECT_EQ(extents(doc["/sub/c"]["metadata"]["shape"]), (std::vector<uint64_t>{6, 8}));
  // An array URL dumps that array; nothing there exits 3.
  EXPECT_EQ(run_tool({"dump", group + "/sub/c"}).out.rfind("array / (Zarr v2)\n", 0), 0u);
  EXPECT_EQ(run_tool({"dump", dir / "nothing"}).exit_code, 3);
}

// A path to a zip archive was "no array or group" unless the user knew to
// add "|zip:".
TEST(CliTool, ZipPathsOpenInsideTheArchive) {
  TempDir dir;
  // A hierarchy made in a folder, then zipped (an existing archive is read-only).
  ASSERT_EQ(run_tool({"create", dir / "h", "--group"}).exit_code, 0);
  make_counting_array(dir, "h/g/a");
  const std::string archive = dir / "data.zip";
  const std::string zip = "cd " + shell_quote(dir / "h") + " && python3 -m zipfile -c ../data.zip zarr.json g";
  ASSERT_EQ(std::system(zip.c_str()), 0);
  const std::string expected = run_tool({"cat", archive + "|zip:g/a"}).out;
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(run_tool({"cat", archive + "/g/a"}).out, expected);
  RunResult tree = run_tool({"tree", archive});
  EXPECT_EQ(tree.exit_code, 0) << tree.err;
  EXPECT_NE(tree.out.find("a (6, 8) int32"), std::string::npos) << tree.out;
  EXPECT_EQ(run_tool({"verify", archive + "/"}).exit_code, 0);
  // A file that is not a zip archive: the error says how archives open.
  std::ofstream(dir / "notes.zip") << "not an archive";
  for (const std::string& file : {dir / "notes.zip", archive + "x"}) {
    if (!fs::exists(file)) std::ofstream(file) << "plain";
    RunResult r = run_tool({"info", file});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find(file + " is a file: a zip archive opens as " + file + "|zip:"), std::string::npos) << r.err;
  }
  // `zip -r folder.zip h` keeps h/ in the names: nothing at the archive's
  // root. The hint said to add "|zip:", which zarrtool had already done.
  const std::string wrapped = dir / "wrapped.zip";
  ASSERT_EQ(std::system(("cd " + shell_quote(dir.path()) + " && python3 -m zipfile -c wrapped.zip h").c_str()), 0);
  RunResult root = run_tool({"tree", wrapped});
  EXPECT_EQ(root.exit_code, 3) << root.err;
  EXPECT_EQ(root.err.find("a zip archive opens as"), std::string::npos) << root.err;
  EXPECT_NE(root.err.find("no node at the root of the archive " + wrapped), std::string::npos) << root.err;
  EXPECT_NE(root.err.find(wrapped + "/FOLDER"), std::string::npos) << root.err;
  EXPECT_NE(run_tool({"info", wrapped + "/"}).err.find("no node at the root of the archive " + wrapped + ":"),
            std::string::npos);
  EXPECT_EQ(run_tool({"cat", wrapped + "/h/g/a"}).out, expected);
}

// --store-options reaches the store of every URL, before or after the command.
TEST(CliTool, StoreOptionsReachTheStore) {
  TempDir dir;
  const std::string url = make_counting_array(dir, "a");
  const std::string rows = run_tool({"cat", url}).out;
  RunResult r = run_tool({"--store-options", R"({"max_value_bytes": 1000000})", "cat", url});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, rows);
  r = run_tool({"--store-options", R"({"no_such_option": 1})", "info", url});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no_such_option"), std::string::npos) << r.err;
  r = run_tool({"info", url, "--store-options={\"no_such_option\": 1}"});
  EXPECT_NE(r.err.find("no_such_option"), std::string::npos) << r.err;
  // A limit smaller than the metadata document: the store refuses to read it.
  r = run_tool({"cat", url, "--store-options", R"({"max_value_bytes": 10})"});
  EXPECT_NE(r.exit_code, 0);
  // Options of creation too: a zip archive written with deflate.
  const std::string archive = dir / "d.zip";
  ASSERT_EQ(run_tool({"--store-options", R"({"compression":"deflate"})", "create", archive + "|zip:a", "--shape",
                      "1000", "--dtype", "uint8"})
                .exit_code,
            0);
  EXPECT_EQ(run_tool({"info", archive + "/a"}).exit_code, 0);
  for (const char* bad : {"[1]", "{", "\"s\""}) {
    r = run_tool({"--store-options", bad, "info", url});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--store-options"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_tool({"--store-options"}).exit_code, 2);
}

// GDAL 3.6 writes blosc's shuffle by name ("BIT", "BYTE", "NONE"); zarr-python
// and GDAL read such arrays, libzarr refused them. The chunks here are
// numcodecs' own Blosc encodings.
TEST(CliTool, ReadsGdalsBloscShuffleNames) {
#if !ZARR_HAVE_BLOSC
  GTEST_SKIP() << "built without blosc";
#endif
  if (!python_has("numcodecs, numpy")) {
    GTEST_SKIP() << python() << " has no numcodecs";
  }
  TempDir dir;
  const struct {
    const char* name;
    int code;
  } shuffles[] = {{"NONE", 0}, {"BYTE", 1}, {"BIT", 2}};
  for (const auto& shuffle : shuffles) {
    SCOPED_TRACE(shuffle.name);
    const fs::path array = dir / shuffle.name;
    fs::create_directories(array);
    const std::string script =
        "import numcodecs, numpy, sys\n"
        "codec = numcodecs.Blosc(cname='lz4', clevel=5, shuffle=" + std::to_string(shuffle.code) + ")\n"
        "open(sys.argv[1] + '/0', 'wb').write(codec.encode(numpy.arange(6, dtype='<u2') * 1000))\n";
    ASSERT_TRUE(python_succeeds(script, {array.string()}));
    std::ofstream(array / ".zarray")
        << R"({"zarr_format":2,"shape":[6],"chunks":[6],"dtype":"<u2","order":"C","fill_value":0,"filters":null,)"
        << R"("compressor":{"id":"blosc","cname":"lz4","clevel":5,"shuffle":")" << shuffle.name
        << R"(","blocksize":0}})";
    RunResult r = run_tool({"cat", array.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "0,1000,2000,3000,4000,5000\n");
  }
  const fs::path bad = fs::path(dir / "NONE") / ".zarray";
  std::string text = read_text(bad);
  text.replace(text.find("\"NONE\""), 6, "\"AUTO\"");
  std::ofstream(bad, std::ios::trunc) << text;
  RunResult r = run_tool({"cat", dir / "NONE"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("\"NONE\", \"BYTE\" or \"BIT\", got \"AUTO\""), std::string::npos) << r.err;
}

}  // namespace

namespace {

// zarr-python 2.13 writes consolidated metadata (as xarray and GDAL do);
// verify through the group listed the consolidated documents as the stored
// keys: every chunk "missing", the corrupt one unseen, exit 0. Now the
// chunks are the store's own, the corrupt one found (exit 4), and info of
// the group's arrays counts what is stored.
TEST(CliTool, VerifyFindsACorruptChunkThroughConsolidatedMetadata) {
  if (!python_has("zarr")) {
    GTEST_SKIP() << python() << " has no zarr";
  }
  TempDir dir;
  const std::string group = dir / "g.zarr";
  const std::string script =
      "import sys, zarr, numpy\n"
      "g = zarr.open_group(sys.argv[1], mode='w')\n"
      "g.create_dataset('temperature', data=numpy.arange(40.0).reshape(4, 10), chunks=(2, 5))\n"
      "g.create_group('sub').create_dataset('lat', data=numpy.arange(4, dtype='i4'), chunks=(2,))\n"
      "zarr.consolidate_metadata(sys.argv[1])\n";
  ASSERT_TRUE(python_succeeds(script, {group}));
  RunResult clean = run_tool({"verify", group});
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  EXPECT_NE(clean.out.find("4 chunks, 0 missing, 0 corrupt"), std::string::npos) << clean.out;
  std::ofstream(fs::path(group) / "temperature" / "1.1", std::ios::trunc) << "not blosc";
  RunResult corrupt = run_tool({"verify", group});
  EXPECT_EQ(corrupt.exit_code, 4) << corrupt.out << corrupt.err;
  EXPECT_NE(corrupt.out.find("1 corrupt"), std::string::npos) << corrupt.out;
  RunResult info = run_tool({"info", group + "/sub/lat", "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("\"chunks_initialized\":2"), std::string::npos) << info.out;
}

}  // namespace

namespace {

// A hierarchy zarr-python 2.13 wrote with consolidated metadata. rm and create
// left .zmetadata stale (tree listed the erased array); another writer's
// change went unnoticed by verify; zarrtool could neither consolidate nor
// ignore it; cp dropped it.
TEST(CliTool, ConsolidatedMetadataIsKeptCheckedRefreshedAndCopied) {
  if (!python_has("zarr")) {
    GTEST_SKIP() << python() << " has no zarr";
  }
  TempDir dir;
  const std::string group = dir / "g.zarr";
  const std::string script =
      "import sys, zarr, numpy\n"
      "g = zarr.open_group(sys.argv[1], mode='w')\n"
      "g.create_dataset('temperature', data=numpy.arange(6.0), chunks=(3,))\n"
      "g.create_group('sub').create_dataset('lat', data=numpy.arange(4, dtype='i4'), chunks=(2,))\n"
      "zarr.consolidate_metadata(sys.argv[1])\n";
  ASSERT_TRUE(python_succeeds(script, {group}));
  // Changes through zarrtool keep it in step.
  ASSERT_EQ(run_tool({"rm", group + "/sub/lat", "--yes"}).exit_code, 0);
  RunResult created = run_tool({"create", group + "/sub/lon", "--shape", "5", "--dtype", "float32"});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  RunResult tree = run_tool({"tree", group});
  EXPECT_EQ(tree.out.find("lat"), std::string::npos) << tree.out;
  EXPECT_NE(tree.out.find("lon (5,) float32"), std::string::npos) << tree.out;
  const std::string check = "import sys, zarr\ng = zarr.open_consolidated(sys.argv[1])\n"
                            "assert list(g['sub']) == ['lon'], list(g['sub'])\n";
  EXPECT_TRUE(python_succeeds(check, {group}));
  RunResult clean = run_tool({"verify", group});
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  EXPECT_NE(clean.out.find("consolidated metadata: 0 stale entries"), std::string::npos) << clean.out;
  // Another writer erases an array without consolidating.
  const std::string behind = "import sys, zarr\nzarr.storage.rmdir(zarr.DirectoryStore(sys.argv[1]), 'temperature')\n";
  ASSERT_TRUE(python_succeeds(behind, {group}));
  RunResult stale = run_tool({"verify", group});
  EXPECT_EQ(stale.exit_code, 4) << stale.out << stale.err;
  EXPECT_NE(stale.out.find("temperature: stale consolidated metadata: listed, but not in the store"),
            std::string::npos)
      << stale.out;
  EXPECT_NE(stale.out.find(group + ": consolidated metadata: 1 stale entry\n"), std::string::npos) << stale.out;
  EXPECT_EQ(stale.out.find("temperature: 2 chunks"), std::string::npos) << "an erased array is no array of missing chunks";
  EXPECT_NE(run_tool({"tree", group}).out.find("temperature"), std::string::npos);
  EXPECT_EQ(run_tool({"--no-consolidated", "tree", group}).out.find("temperature"), std::string::npos);
  EXPECT_EQ(run_tool({"tree", group, "--no-consolidated"}).out.find("temperature"), std::string::npos);
  RunResult consolidate = run_tool({"consolidate", group});
  EXPECT_EQ(consolidate.exit_code, 0) << consolidate.err;
  EXPECT_EQ(run_tool({"verify", group}).exit_code, 0);
  EXPECT_EQ(run_tool({"tree", group}).out.find("temperature"), std::string::npos);
  // A copy of a consolidated group is consolidated too.
  const std::string copy = dir / "copy.zarr";
  RunResult cp = run_tool({"cp", group, copy});
  ASSERT_EQ(cp.exit_code, 0) << cp.err;
  EXPECT_TRUE(fs::exists(fs::path(copy) / ".zmetadata"));
  EXPECT_EQ(run_tool({"verify", copy}).exit_code, 0);
  EXPECT_EQ(run_tool({"consolidate", dir / "nothing"}).exit_code, 3);
  // One hierarchy, one format: create took v3 inside this v2 group, which
  // zarr-python 2 and the consolidated listing do not see.
  RunResult mixed = run_tool({"create", group + "/v3", "--shape", "2", "--dtype", "int8", "--format", "3"});
  EXPECT_NE(mixed.exit_code, 0);
  EXPECT_NE(mixed.err.find("one hierarchy has one format"), std::string::npos) << mixed.err;
  EXPECT_FALSE(fs::exists(fs::path(group) / "v3"));
  EXPECT_EQ(run_tool({"create", dir / "fresh.zarr", "--shape", "2", "--dtype", "int8"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(fs::path(dir / "fresh.zarr") / "zarr.json")) << "a new root is v3";
  EXPECT_EQ(run_tool({"create", group + "/sub/grp", "--group"}).exit_code, 0);
  EXPECT_TRUE(fs::exists(fs::path(group) / "sub/grp/.zgroup")) << "a new group takes its parent's format";
  RunResult mixed_group = run_tool({"create", group + "/g3", "--group", "--format", "3"});
  EXPECT_NE(mixed_group.err.find("one hierarchy has one format"), std::string::npos) << mixed_group.err;
  // A group is named as a group (the refusal went through an array probe and said "array").
  EXPECT_NE(mixed_group.err.find("cannot create a Zarr v3 group"), std::string::npos) << mixed_group.err;
  EXPECT_FALSE(fs::exists(fs::path(group) / "g3"));
}

}  // namespace

namespace {

// zarrtool had no way to run the library's migrations.
TEST(CliTool, MigrateWrapsTheLibrarysMigrations) {
  TempDir dir;
  const std::string v1 = dir / "v1";
  fs::create_directories(v1);
  std::ofstream(fs::path(v1) / "meta") << R"({"zarr_format": 1, "shape": [4], "chunks": [4], "dtype": "<i2", )"
                                       << R"("compression": "none", "compression_opts": null, "fill_value": 0, "order": "C"})";
  const int16_t values[] = {1, 2, 3, 4};
  std::ofstream(fs::path(v1) / "0", std::ios::binary).write(reinterpret_cast<const char*>(values), sizeof values);
  RunResult to_v2 = run_tool({"migrate", "v1", v1});
  ASSERT_EQ(to_v2.exit_code, 0) << to_v2.err;
  EXPECT_NE(to_v2.out.find("migrated from Zarr v1 to Zarr v2"), std::string::npos) << to_v2.out;
  EXPECT_TRUE(fs::exists(fs::path(v1) / ".zarray"));
  RunResult to_v3 = run_tool({"migrate", "v2", v1});
  ASSERT_EQ(to_v3.exit_code, 0) << to_v3.err;
  EXPECT_TRUE(fs::exists(fs::path(v1) / "zarr.json"));
  EXPECT_EQ(run_tool({"cat", v1}).out, "1,2,3,4\n");
  RunResult again = run_tool({"migrate", "v2", v1});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.err.find("it is Zarr v3, not v2"), std::string::npos) << again.err;
  EXPECT_EQ(run_tool({"migrate", "v2", dir / "nothing"}).exit_code, 3);
  EXPECT_EQ(run_tool({"migrate", "v4", v1}).exit_code, 2);
  EXPECT_EQ(run_tool({"migrate", "v1"}).exit_code, 2);
}

}  // namespace

namespace {

// cp GROUP --chunks 2,2 stopped at the first 1-D array with the 2-D ones
// copied, and a copy that failed half-way (a corrupt chunk) left the part
// it had written. The whole plan is now checked first, and a failed copy is
// removed.
TEST(CliTool, CopiesCheckTheirPlanFirstAndLeaveNothingWhenTheyFail) {
  TempDir dir;
  const std::string group = dir / "g";
  ASSERT_EQ(run_tool({"create", group, "--group", "--format", "2"}).exit_code, 0);
  const std::string flat = make_counting_array(dir, "g/flat", "2");  // 2-D, chunks 3,4
  ASSERT_EQ(run_tool({"create", group + "/line", "--shape", "5", "--dtype", "int16", "--chunks", "5"}).exit_code, 0);
  const std::string copy = dir / "copy";
  // --chunks of another rank than an array's is refused naming the array,
  // its rank and what to do instead.
  RunResult mismatched = run_tool({"cp", group, copy, "--chunks", "2,2"});
  EXPECT_EQ(mismatched.exit_code, 2);
  EXPECT_NE(mismatched.err.find("cannot copy " + group + "/line with --chunks 2,2: it is 1-D and --chunks gives 2 "
                                "extents; copy arrays of another rank one by one (zarrtool cp ARRAY DST --chunks"),
            std::string::npos)
      << mismatched.err;
  EXPECT_FALSE(fs::exists(copy));
  RunResult sharded = run_tool({"cp", group + "/line", copy, "--format", "3", "--chunks", "1", "--shards", "5,5"});
  EXPECT_EQ(sharded.exit_code, 2);
  EXPECT_NE(sharded.err.find("with --shards 5,5: it is 1-D"), std::string::npos) << sharded.err;
  EXPECT_FALSE(fs::exists(copy));
  // Any other option the library refuses names the array and the destination.
  RunResult refused = run_tool({"cp", group, copy, "--codec", R"({"id":"no-such-codec"})"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("with these options (nothing was written)"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("no-such-codec"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.err.find("memory://"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(copy));
  // A corrupt chunk met half-way: the copy made so far is removed.
  std::ofstream(fs::path(flat) / "1.1", std::ios::trunc) << "garbage";
  RunResult corrupt = run_tool({"cp", group, copy});
  EXPECT_NE(corrupt.exit_code, 0);
  EXPECT_FALSE(fs::exists(copy)) << corrupt.err;
  // An existing destination is refused, and left alone.
  RunResult exists = run_tool({"cp", group + "/line", flat});
  EXPECT_NE(exists.err.find("an array or group is already there"), std::string::npos) << exists.err;
  EXPECT_TRUE(fs::exists(fs::path(flat) / ".zarray"));
}

// Below a v2 array (a folder with .zarray only) create and cp wrote a v3
// node, or a v2 one with --format 2, inside the array's folder: the
// library's hierarchy root stopped at the array. Refused now, nothing written.
TEST(CliTool, NothingIsCreatedOrCopiedBelowAnArray) {
  TempDir dir;
  const std::string group = dir / "g";
  ASSERT_EQ(run_tool({"create", group, "--group", "--format", "2"}).exit_code, 0);
  const std::string array = make_counting_array(dir, "g/a", "2");
  const std::string copy_source = make_counting_array(dir, "other", "2");
  const std::vector<std::vector<std::string>> attempts = {
      {"create", array + "/x/z", "--shape", "3", "--dtype", "i4"},
      {"create", array + "/x2", "--shape", "2", "--dtype", "i4", "--format", "2"},
      {"create", array + "/g", "--group"},
      {"cp", copy_source, array + "/inside"},
  };
  for (const auto& attempt : attempts) {
    RunResult r = run_tool(attempt);
    EXPECT_NE(r.exit_code, 0) << attempt[1];
    EXPECT_NE(r.err.find("its parent 'a'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("is an array"), std::string::npos) << r.err;
  }
  for (const auto& entry : fs::directory_iterator(array)) {
    EXPECT_FALSE(entry.is_directory()) << entry.path() << " written inside the array";
  }
}

// --attrs that is JSON but no object was refused only when v2 attributes
// were set, after the array and the groups on the way to it were written.
TEST(CliTool, AttributesThatAreNoObjectAreRefusedBeforeAnythingIsWritten) {
  for (const char* format : {"2", "3"}) {
    SCOPED_TRACE(std::string("v") + format);
    TempDir dir;
    const std::string group = dir / "g";
    ASSERT_EQ(run_tool({"create", group, "--group", "--format", format}).exit_code, 0);
    RunResult array = run_tool({"create", group + "/new/deeper/arr", "--shape", "3", "--dtype", "i4", "--attrs", "[1]"});
    EXPECT_EQ(array.exit_code, 2);
    EXPECT_NE(array.err.find("--attrs must be a JSON object, got [1]"), std::string::npos) << array.err;
    RunResult sub = run_tool({"create", group + "/sub", "--group", "--attrs", "\"s\""});
    EXPECT_EQ(sub.exit_code, 2) << sub.err;
    EXPECT_FALSE(fs::exists(fs::path(group) / "new"));
    EXPECT_FALSE(fs::exists(fs::path(group) / "sub"));
  }
}

// A failed copy is erased with everything below its URL, and a folder that
// was not a Zarr node passed as a new destination: 'cp corrupt_array d',
// with d holding the user's files (or the source itself), removed d and
// all of them. Such destinations are now refused before anything is
// written; an empty folder is taken and left in place when the copy fails.
TEST(CliTool, ACopyNeverRemovesWhatItDidNotMake) {
  TempDir dir;
  const std::string flat = make_counting_array(dir, "flat", "2");  // 2-D, chunks 3,4
  std::ofstream(fs::path(flat) / "1.1", std::ios::trunc) << "garbage";
  const fs::path occupied = dir / "occupied";
  fs::create_directories(occupied / "docs");
  std::ofstream(occupied / "notes.txt") << "keep";
  RunResult into_files = run_tool({"cp", flat, occupied.string()});
  EXPECT_EQ(into_files.exit_code, 2);
  EXPECT_NE(into_files.err.find("the folder is not empty"), std::string::npos) << into_files.err;
  EXPECT_TRUE(fs::exists(occupied / "notes.txt"));
  EXPECT_TRUE(fs::exists(occupied / "docs"));
  const fs::path file = dir / "a-file";
  std::ofstream(file) << "keep";
  RunResult onto_file = run_tool({"cp", flat, file.string()});
  EXPECT_EQ(onto_file.exit_code, 2);
  EXPECT_NE(onto_file.err.find("a file is already there"), std::string::npos) << onto_file.err;
  EXPECT_EQ(read_text(file), "keep");
  RunResult over_source = run_tool({"cp", flat, dir.path()});
  EXPECT_EQ(over_source.exit_code, 2);
  EXPECT_NE(over_source.err.find("that holds the source"), std::string::npos) << over_source.err;
  EXPECT_TRUE(fs::exists(fs::path(flat) / ".zarray"));
  const fs::path empty = dir / "empty";
  fs::create_directories(empty);
  RunResult corrupt = run_tool({"cp", flat, empty.string()});
  EXPECT_EQ(corrupt.exit_code, 4) << corrupt.err;
  EXPECT_TRUE(fs::is_directory(empty));
  EXPECT_TRUE(fs::is_empty(empty)) << "the partial copy was left";
}

}  // namespace

namespace {

// `zarrtool migrate v2` of the consolidated group xarray's to_zarr writes
// erased its .zmetadata and left the v3 root's consolidated_metadata null:
// the hierarchy silently lost its consolidated view. The v3 root now lists
// every migrated member, and verify finds it in step.
TEST(CliTool, MigratingAnXarrayDatasetKeepsItConsolidated) {
  if (!python_has("xarray, zarr")) {
    GTEST_SKIP() << python() << " has no xarray or zarr";
  }
  TempDir dir;
  const std::string ds = dir / "ds.zarr";
  const std::string write =
      "import sys, numpy as np, xarray as xr\n"
      "xr.Dataset({'t': (('time', 'lat'), np.arange(6.0).reshape(2, 3))}, coords={'lat': [1., 2., 3.]},\n"
      "           attrs={'title': 'x'}).to_zarr(sys.argv[1])\n";
  ASSERT_TRUE(python_succeeds(write, {ds}));
  ASSERT_TRUE(fs::exists(fs::path(ds) / ".zmetadata"));
  // One variable alone would leave a v3 array in the v2 dataset.
  RunResult alone = run_tool({"migrate", "v2", ds + "/t"});
  EXPECT_EQ(alone.exit_code, 1);
  EXPECT_NE(alone.err.find("one hierarchy has one format"), std::string::npos) << alone.err;
  EXPECT_TRUE(fs::exists(fs::path(ds) / "t" / ".zarray"));
  RunResult migrated = run_tool({"migrate", "v2", ds});
  ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
  EXPECT_FALSE(fs::exists(fs::path(ds) / ".zmetadata"));
  rapidjson::Document root = parse(read_text(fs::path(ds) / "zarr.json"));
  ASSERT_TRUE(root["consolidated_metadata"].IsObject()) << read_text(fs::path(ds) / "zarr.json");
  const rapidjson::Value& members = root["consolidated_metadata"]["metadata"];
  EXPECT_EQ(members.MemberCount(), 2u);
  EXPECT_EQ(members["t"]["zarr_format"].GetInt(), 3);
  EXPECT_TRUE(members.HasMember("lat"));
  RunResult verify = run_tool({"verify", ds});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("consolidated metadata: 0 stale entries"), std::string::npos) << verify.out;
  EXPECT_EQ(run_tool({"tree", ds}).out, run_tool({"tree", ds, "--no-consolidated"}).out);
  EXPECT_EQ(run_tool({"cat", ds + "/t"}).out, "0.0,1.0,2.0\n3.0,4.0,5.0\n");
}

// info of a v2 array xarray wrote showed no dimension names (zarr_info's
// metadata member is v3's), where dump showed its _ARRAY_DIMENSIONS.
TEST(CliTool, InfoShowsTheDimensionNamesXarrayWrote) {
  if (!python_has("xarray, zarr")) {
    GTEST_SKIP() << python() << " has no xarray or zarr";
  }
  TempDir dir;
  const std::string ds = dir / "ds.zarr";
  const std::string write = "import sys, numpy as np, xarray as xr\n"
                            "xr.Dataset({'t': (('time', 'lat'), np.zeros((2, 3)))}).to_zarr(sys.argv[1])\n";
  ASSERT_TRUE(python_succeeds(write, {ds}));
  RunResult text = run_tool({"info", ds + "/t"});
  EXPECT_NE(text.out.find("Dimension names    : [\"time\",\"lat\"]\n"), std::string::npos) << text.out;
  rapidjson::Document json = parse(run_tool({"info", ds + "/t", "--json"}).out);
  ASSERT_TRUE(json["dimension_names"].IsArray());
  EXPECT_STREQ(json["dimension_names"][1].GetString(), "lat");
  EXPECT_NE(run_tool({"dump", ds}).out.find("dimension names: [\"time\",\"lat\"]"), std::string::npos);
}

}  // namespace

namespace {

// verify walked a consolidated group by its consolidated listing and
// checked each array as that listing described it: an array another writer
// erased was "2 chunks, 2 missing" before the stale error, and one replaced
// with other chunks had its real chunks called stray keys and every chunk
// of the old grid missing, its corrupt chunk unseen. The walk is now of
// what is stored; the stale entries are the consolidated check's findings.
TEST(CliTool, VerifyOfAStaleHierarchyCountsWhatIsStored) {
  if (!python_has("zarr")) {
    GTEST_SKIP() << python() << " has no zarr";
  }
  TempDir dir;
  const std::string group = dir / "g.zarr";
  const std::string script =
      "import sys, zarr, numpy\n"
      "g = zarr.open_group(sys.argv[1], mode='w')\n"
      "g.create_dataset('gone', data=numpy.arange(6.0), chunks=(3,))\n"
      "g.create_dataset('swapped', data=numpy.arange(6.0), chunks=(3,))\n"
      "g.create_group('sub').create_dataset('lat', data=numpy.arange(4, dtype='i4'), chunks=(2,))\n"
      "zarr.consolidate_metadata(sys.argv[1])\n"
      "s = zarr.DirectoryStore(sys.argv[1])\n"
      "zarr.storage.rmdir(s, 'gone')\n"
      "zarr.storage.rmdir(s, 'swapped')\n"
      "zarr.open_group(sys.argv[1]).create_dataset('swapped', data=numpy.arange(6.0), chunks=(2,))\n";
  ASSERT_TRUE(python_succeeds(script, {group}));
  RunResult r = run_tool({"verify", group});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_EQ(r.out.find(group + "/gone: 2 chunks"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("missing, 0 corrupt", r.out.find("/gone")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(group + "/swapped: 3 chunks, 0 missing, 0 corrupt, 0 unreadable, 0 stray keys"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(group + "/sub/lat: 2 chunks, 0 missing"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(group + "/gone: stale consolidated metadata: listed, but not in the store"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(group + "/swapped: stale consolidated metadata: its metadata differs"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(group + ": consolidated metadata: 2 stale entries"), std::string::npos) << r.out;
  // info of the group counts what is stored, not the stale listing.
  RunResult info = run_tool({"info", group});
  EXPECT_NE(info.out.find("No. arrays         : 1\nNo. groups         : 1\nArrays             : swapped\n"),
            std::string::npos)
      << info.out;
  EXPECT_NE(info.out.find("Consolidated       : yes"), std::string::npos) << info.out;
  rapidjson::Document info_json = parse(run_tool({"info", group, "--json"}).out);
  EXPECT_EQ(info_json["members"].Size(), 2u);
  EXPECT_TRUE(info_json["consolidated"].GetBool());
  // cp of it names the stale entry and the ways out, and writes nothing.
  RunResult cp = run_tool({"cp", group, dir / "copy"});
  EXPECT_EQ(cp.exit_code, 3);
  EXPECT_NE(cp.err.find("gone: no array"), std::string::npos) << cp.err;
  EXPECT_NE(cp.err.find("stale consolidated metadata"), std::string::npos) << cp.err;
  EXPECT_FALSE(fs::exists(dir / "copy"));
  EXPECT_EQ(run_tool({"cp", group, dir / "copy", "--no-consolidated"}).exit_code, 0);
  // A corrupt chunk of the replaced array is found by its own grid.
  std::ofstream(fs::path(group) / "swapped" / "2", std::ios::trunc) << "not blosc";
  r = run_tool({"verify", group});
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.out.find(group + "/swapped: 3 chunks, 0 missing, 1 corrupt"), std::string::npos) << r.out;
}

}  // namespace

namespace {

// `zarrtool create G/x/y` in a consolidated group, x not there yet: in a v2
// group it was refused (only the folder right above was asked for its
// format, so v3 was chosen and then refused as mixing), and in a v3 group
// the new group x was left out of the consolidated metadata, so tree did
// not show y and `cp` of the group silently copied neither.
TEST(CliTool, CreatingBelowMissingGroupsTakesTheFormatAndKeepsThemConsolidated) {
  for (const char* format : {"2", "3"}) {
    SCOPED_TRACE(format);
    TempDir dir;
    const std::string group = dir / "h";
    ASSERT_EQ(run_tool({"create", group, "--group", "--format", format}).exit_code, 0);
    ASSERT_EQ(run_tool({"consolidate", group}).exit_code, 0);
    RunResult created = run_tool({"create", group + "/x/y", "--shape", "2", "--dtype", "i2"});
    ASSERT_EQ(created.exit_code, 0) << created.err;
    EXPECT_TRUE(fs::exists(fs::path(group) / "x" / (std::string(format) == "2" ? ".zgroup" : "zarr.json")));
    EXPECT_NE(run_tool({"tree", group}).out.find("y (2,) int16"), std::string::npos) << run_tool({"tree", group}).out;
    RunResult verify = run_tool({"verify", group});
    EXPECT_EQ(verify.exit_code, 0) << verify.out;
    EXPECT_NE(verify.out.find("0 stale entries"), std::string::npos) << verify.out;
    const std::string copy = dir / "copy";
    ASSERT_EQ(run_tool({"cp", group, copy}).exit_code, 0);
    EXPECT_NE(run_tool({"tree", copy, "--no-consolidated"}).out.find("y (2,) int16"), std::string::npos);
  }
}

}  // namespace
