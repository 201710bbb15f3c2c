// No path a caller or a document gives can make a store read or write outside
// its root, and a failure on one thread never changes the message another
// thread reads (docs/reliability.md).
#include <sys/stat.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "capi_helpers.h"
#include "support/test_support.h"

using namespace zarr::test;
namespace fs = std::filesystem;

namespace {

// A hierarchy in <dir>/root with an array "a", beside a file the tests must
// never reach: <dir>/secret/.zarray.
class HostilePaths : public testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_ / "secret");
    std::ofstream(dir_ / "secret/.zarray") << array_meta("[2]", "[2]");
    ASSERT_OK(zarr_group_create_ex(group_.out(), root().c_str(), nullptr, kV2Group));
    ArrayPtr a;
    ASSERT_OK(zarr_group_create_array(a.out(), group_, "a", array_meta("[4]", "[2]").c_str()));
  }
  std::string root() const { return dir_ / "root"; }
  // Every file under the scratch folder, to show nothing appeared outside root.
  std::vector<std::string> files_outside_root() const {
    std::vector<std::string> out;
    for (const std::string& f : list_files(dir_.path())) {
      if (f.rfind("root/", 0) != 0) out.push_back(f);
    }
    return out;
  }

  TempDir dir_;
  GroupPtr group_;
};

TEST_F(HostilePaths, ChildPathsCannotClimbOutOfTheHierarchy) {
  const std::vector<std::string> before = files_outside_root();
  for (const char* path : {"../secret", "a/../../secret", "..", "./../secret", "a/./b", "a//b/../../.."}) {
    SCOPED_TRACE(path);
    ArrayPtr a;
    EXPECT_STATUS(zarr_group_open_array(a.out(), group_, path, "r"), ZARR_ERR_INVALID_ARGUMENT, "");
    EXPECT_STATUS(zarr_group_create_array(a.out(), group_, path, array_meta("[1]", "[1]").c_str()),
                  ZARR_ERR_INVALID_ARGUMENT, "");
    GroupPtr g;
    EXPECT_STATUS(zarr_group_create_group(g.out(), group_, path, nullptr), ZARR_ERR_INVALID_ARGUMENT, "");
    EXPECT_STATUS(zarr_group_open_group(g.out(), group_, path), ZARR_ERR_INVALID_ARGUMENT, "");
  }
  EXPECT_EQ(files_outside_root(), before);
}

TEST_F(HostilePaths, StoreUrlsCannotClimbOutOfTheirStore) {
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), "memory://m/../x", "r"), ZARR_ERR_INVALID_ARGUMENT, "..");
  const std::string zip = dir_ / "h.zip";
  EXPECT_STATUS(zarr_create(a.out(), (zip + "|zip:../secret").c_str(), array_meta("[1]", "[1]").c_str()),
                ZARR_ERR_INVALID_ARGUMENT, "..");
  EXPECT_FALSE(fs::exists(zip));
}

// A consolidated document is data from the store: one naming a node outside
// it is bad metadata, refused whole, in v2 (.zmetadata) and v3 (zarr.json).
TEST_F(HostilePaths, ConsolidatedMetadataCannotNameNodesOutsideTheStore) {
  const std::string meta = array_meta("[2]", "[2]");
  std::ofstream(dir_ / "root/.zmetadata")
      << "{\"zarr_consolidated_format\": 1, \"metadata\": {\".zgroup\": {\"zarr_format\": 2}, "
         "\"a/.zarray\": " << meta << ", \"../secret/.zarray\": " << meta << "}}";
  GroupPtr g;
  EXPECT_STATUS(zarr_group_open_ex(g.out(), root().c_str(), "r", "{\"consolidated\": true}"),
                ZARR_ERR_INVALID_METADATA, ".zmetadata: consolidated entry '../secret/.zarray'");
  const std::string v3 = dir_ / "v3";
  ASSERT_OK(zarr_group_create_ex(g.out(), v3.c_str(), nullptr, "{\"zarr_format\": 3}"));
  std::ofstream(v3 + "/zarr.json")
      << "{\"zarr_format\": 3, \"node_type\": \"group\", \"attributes\": {}, \"consolidated_metadata\": "
         "{\"kind\": \"inline\", \"must_understand\": false, \"metadata\": {\"../secret\": "
         "{\"zarr_format\": 3, \"node_type\": \"group\", \"attributes\": {}}}}}";
  EXPECT_STATUS(zarr_group_open_ex(g.out(), v3.c_str(), "r", "{\"consolidated\": true}"), ZARR_ERR_INVALID_METADATA,
                "consolidated entry '../secret'");
}

// A link from inside an array's folder to a folder outside the hierarchy
// (<dir>/outside): chunk writes, a shrinking resize and erases through it
// are refused naming the link, and nothing outside changes; erasing the
// array removes the link, not what it points to (docs/store-filesystem.md).
TEST_F(HostilePaths, ALinkedFolderInAnArrayLetsNoWriteOrEraseOutTheStore) {
  fs::create_directories(dir_ / "outside");
  std::ofstream(dir_ / "outside/4") << "precious";
  ArrayPtr b;
  const std::string meta = array_meta("[10, 10]", "[2, 2]", "<i4", {{"dimension_separator", "\"/\""}});
  ASSERT_OK(zarr_group_create_array(b.out(), group_, "b", meta.c_str()));
  fs::create_directory_symlink(dir_ / "outside", root() + "/b/4");  // chunk keys "4/j"
  const std::vector<std::string> before = files_outside_root();
  const std::string refusal = "'" + root() + "/b/4' is a symbolic link: the filesystem store never writes or erases "
                              "through one";
  EXPECT_STATUS(write_region<int32_t>(b, {8, 0}, {2, 2}, {1, 2, 3, 4}), ZARR_ERR_IO, refusal);
  EXPECT_STATUS(write_region<int32_t>(b, {8, 8}, {2, 2}, {1, 2, 3, 4}), ZARR_ERR_IO, refusal);
  const uint64_t smaller[2] = {2, 2};
  EXPECT_STATUS(zarr_resize(b, 2, smaller), ZARR_ERR_IO, "cannot erase key 'b/4/4'");
  EXPECT_EQ(files_outside_root(), before);
  EXPECT_EQ(read_file(dir_ / "outside/4").size(), 8u);
  b = ArrayPtr();
  ASSERT_OK(zarr_erase((root() + "/b").c_str(), nullptr));
  EXPECT_FALSE(fs::exists(fs::symlink_status(root() + "/b")));
  EXPECT_EQ(files_outside_root(), before);
}

// A resize the store would refuse changes nothing: the chunks the new shape
// leaves out are checked before the shape is written, so a link on the way
// (here: the folder of chunk row 4) leaves the old shape and every chunk
// (the old code wrote the new shape first: audit of issue 20). Without the
// link the same resize goes through.
TEST_F(HostilePaths, AResizeRefusedByALinkChangesNothing) {
  fs::create_directories(dir_ / "outside");
  std::ofstream(dir_ / "outside/4") << "precious";  // listed as chunk 4/4 through the link
  ArrayPtr b;
  const std::string meta = array_meta("[10, 10]", "[2, 2]", "<i4", {{"dimension_separator", "\"/\""}});
  ASSERT_OK(zarr_group_create_array(b.out(), group_, "b", meta.c_str()));
  std::vector<int32_t> values(100);
  for (int i = 0; i < 100; ++i) values[i] = i + 1;
  ASSERT_OK(write_region<int32_t>(b, {0, 0}, {8, 10}, std::vector<int32_t>(values.begin(), values.begin() + 80)));
  fs::create_directory_symlink(dir_ / "outside", root() + "/b/4");  // chunk keys "4/j"
  const uint64_t smaller[2] = {2, 2};
  EXPECT_STATUS(zarr_resize(b, 2, smaller), ZARR_ERR_IO, "cannot erase key 'b/4/4'");
  uint64_t shape[2] = {0, 0};
  ASSERT_OK(zarr_shape(b, shape));
  EXPECT_EQ(shape[0], 10u);
  EXPECT_EQ(shape[1], 10u);
  ArrayPtr reopened = open_array(root() + "/b");
  ASSERT_OK(zarr_shape(reopened, shape));
  EXPECT_EQ(shape[0], 10u);
  // Rows 0-7 (chunk rows 0-3; row 4 is the link's): every value written is kept.
  std::vector<int32_t> back = read_region<int32_t>(reopened, {0, 0}, {8, 10});
  EXPECT_EQ(back[2 * 10 + 3], 24);  // chunk 1/1, outside the refused shape
  EXPECT_EQ(back[79], 80);
  fs::remove(root() + "/b/4");
  ASSERT_OK(zarr_resize(b, 2, smaller));
  EXPECT_FALSE(fs::exists(root() + "/b/1/1"));
  EXPECT_TRUE(fs::exists(root() + "/b/0/0"));
  EXPECT_EQ(read_file(dir_ / "outside/4").size(), 8u);
}

// Names from a listing or a consolidated document are node names, one
// segment each as they stand: a folder named "x\\y" holding a node (the
// library would open "x/y" by that name) or a consolidated entry "a\\b" is
// bad metadata naming it (audit of issue 20, finding 2).
TEST_F(HostilePaths, ListedAndConsolidatedNamesAreSingleSegments) {
  fs::create_directories(root() + "/x\\y");
  std::ofstream(root() + "/x\\y/.zgroup") << "{\"zarr_format\": 2}";
  const char* name = nullptr;
  int kind = 0;
  size_t count = 0;
  EXPECT_STATUS(zarr_group_child_count(group_, &count), ZARR_ERR_INVALID_METADATA,
                "child 'x\\y' is not a node name: it holds a path separator");
  fs::remove_all(root() + "/x\\y");
  fs::create_directories(root() + "/z\\w");  // not a node: left out, as any other folder
  ASSERT_OK(zarr_group_child_count(group_, &count));
  EXPECT_EQ(count, 1u);
  ASSERT_OK(zarr_group_child(group_, 0, &name, &kind));
  EXPECT_STREQ(name, "a");
  const std::string meta = array_meta("[2]", "[2]");
  for (const char* entry : {"x\\\\y/.zarray", "x//y/.zarray", "/x/.zarray", "x\\u0000y/.zarray"}) {
    SCOPED_TRACE(entry);
    std::ofstream(dir_ / "root/.zmetadata", std::ios::trunc)
        << "{\"zarr_consolidated_format\": 1, \"metadata\": {\".zgroup\": {\"zarr_format\": 2}, \"" << entry
        << "\": " << meta << "}}";
    GroupPtr g;
    EXPECT_STATUS(zarr_group_open_ex(g.out(), root().c_str(), "r", "{\"consolidated\": true}"),
                  ZARR_ERR_INVALID_METADATA, "is not a path of node names");
  }
}

// zarr_erase and zarr_create resolve a path as zarr_open does: the kernel
// follows "a/link" and then "..", to the folder above the link's target
// (outside the hierarchy here), never to the hierarchy's array "a".
TEST_F(HostilePaths, EraseAndCreateResolveDotDotAfterALinkAsOpenDoes) {
  fs::create_directories(dir_ / "elsewhere/inner");
  fs::create_directory_symlink(dir_ / "elsewhere/inner", root() + "/a/link");
  const std::string dotdot = root() + "/a/link/..";
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), dotdot.c_str(), "r"), ZARR_ERR_NOT_FOUND, "");
  EXPECT_STATUS(zarr_erase(dotdot.c_str(), nullptr), ZARR_ERR_NOT_FOUND,
                "cannot erase 'elsewhere' in " + fs::canonical(dir_.path()).string());
  EXPECT_TRUE(fs::exists(root() + "/a/.zarray"));
  // With a node above the target, erase erases that node: the one open opens.
  std::ofstream(dir_ / "elsewhere/.zarray") << array_meta("[2]", "[2]");
  ASSERT_OK(zarr_open(a.out(), dotdot.c_str(), "r"));
  a = ArrayPtr();
  ASSERT_OK(zarr_erase(dotdot.c_str(), nullptr));
  EXPECT_FALSE(fs::exists(dir_ / "elsewhere/.zarray"));
  EXPECT_TRUE(fs::exists(root() + "/a/.zarray"));
  fs::create_directories(dir_ / "elsewhere/inner");
  ASSERT_OK(zarr_create(a.out(), (dotdot + "/new").c_str(), array_meta("[2]", "[2]").c_str()));
  EXPECT_TRUE(fs::exists(dir_ / "elsewhere/new/.zarray"));
  EXPECT_FALSE(fs::exists(root() + "/a/new"));
}

// Listing an array whose folder holds 30 levels of folders with two links
// each (2^31 paths) visits each folder once: stored chunks, info and a
// resize finish.
TEST_F(HostilePaths, ADagOfLinksInAnArrayIsListedOnce) {
  ArrayPtr a = open_array(root() + "/a", "r+");
  ASSERT_OK(write_region<int32_t>(a, {0}, {4}, {1, 2, 3, 4}));
  make_dag_of_links(root() + "/a/dag", 30);
  char* json = nullptr;
  ASSERT_OK(zarr_stored_chunks(a, &json));
  EXPECT_EQ(std::string(json), "{\"chunks\":[[0],[1]],\"stray_keys\":[]}");
  zarr_free(json);
  EXPECT_EQ(info_of(a)["chunks_initialized"].GetUint64(), 2u);
  const uint64_t smaller[1] = {2};
  ASSERT_OK(zarr_resize(a, 1, smaller));
  EXPECT_EQ(list_files(root() + "/a"), (std::vector<std::string>{".zarray", "0"}));
}

// A FIFO and a link to /dev/zero where chunks should be: reads fail naming
// them, never hang; stored chunks list them, info names the FIFO.
TEST_F(HostilePaths, SpecialFilesAsChunksAreIoErrorsNamingThem) {
  ASSERT_EQ(::mkfifo((root() + "/a/0").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", root() + "/a/1");
  ArrayPtr a = open_array(root() + "/a", "r");
  std::vector<int32_t> out(2);
  const uint64_t first[1] = {0}, second[1] = {2}, count[1] = {2};
  EXPECT_STATUS(zarr_read_region(a, 1, first, count, out.data(), 8), ZARR_ERR_IO,
                "cannot read '" + root() + "/a/0': it is a FIFO, not a regular file");
  EXPECT_STATUS(zarr_read_region(a, 1, second, count, out.data(), 8), ZARR_ERR_IO,
                "cannot read '" + root() + "/a/1': it is a character device, not a regular file");
  char* json = nullptr;
  ASSERT_OK(zarr_stored_chunks(a, &json));
  EXPECT_EQ(std::string(json), "{\"chunks\":[[0],[1]],\"stray_keys\":[]}");
  zarr_free(json);
  EXPECT_STATUS(zarr_info(a, &json), ZARR_ERR_IO, "/a/0': it is a FIFO");
}

// Documents built to exhaust the reader: nesting that would overflow the
// parser's stack, in attributes and in array metadata alike.
TEST_F(HostilePaths, DeeplyNestedDocumentsAreInvalidMetadata) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::ofstream(dir_ / "root/.zattrs") << "{\"x\": " << deep << "}";
  GroupPtr g;
  ASSERT_OK(zarr_group_open(g.out(), root().c_str(), "r"));
  char* attrs = nullptr;
  EXPECT_STATUS(zarr_group_get_attributes(g, &attrs), ZARR_ERR_INVALID_METADATA,
                ".zattrs: JSON nested deeper than 512");
  EXPECT_EQ(attrs, nullptr);
  std::ofstream(dir_ / "root/a/.zarray", std::ios::trunc) << "{\"zarr_format\": 2, \"filters\": " << deep << "}";
  ArrayPtr a;
  EXPECT_STATUS(zarr_open(a.out(), (root() + "/a").c_str(), "r"), ZARR_ERR_INVALID_METADATA,
                ".zarray: JSON nested deeper than 512");
}

TEST(ErrorMessages, AreKeptPerThread) {
  // Each thread fails in its own way, then waits until every other thread
  // has failed too before it reads its message: none may see another's.
  constexpr int kThreads = 8;
  std::atomic<int> failed{0}, mixed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string url = "/nonexistent-libzarr-" + std::to_string(t) + "/array";
      for (int round = 0; round < 50; ++round) {
        zarr_array* a = nullptr;
        if (zarr_open(&a, url.c_str(), "r") != ZARR_ERR_NOT_FOUND) ++mixed;
        ++failed;
        while (failed.load() < kThreads * (round + 1)) std::this_thread::yield();
        if (std::string(zarr_last_error()).find(url) == std::string::npos) ++mixed;
        // A success does not touch the thread's message either.
        zarr_free(nullptr);
        if (std::string(zarr_last_error()).find(url) == std::string::npos) ++mixed;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mixed.load(), 0);
}

}  // namespace
