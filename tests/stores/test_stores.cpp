// Filesystem- and memory-specific store behaviour. What every store shares is
// the conformance suite's (store_conformance.h).
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "base/error.h"
#include "stores/filesystem_store.h"
#include "stores/memory_store.h"
#include "stores/store_conformance.h"
#include "support/test_support.h"

namespace zarr {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using Keys = std::vector<std::string>;

constexpr const char kTempPrefix[] = ".zarr-tmp.";

// What a call threw: code 0 when it did not throw a zarr::Error.
using test::Caught;
using test::catch_error;

using conformance::text;

Keys sorted(Keys keys) {
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Two values whose mix would show: different lengths and bytes.
const std::string kOldValue(48 * 1024, 'o');
const std::string kNewValue(80 * 1024 + 7, 'n');

bool whole(const std::optional<Bytes>& value) {
  std::string got = text(value);
  return got == kOldValue || got == kNewValue;
}

// ---- filesystem store ------------------------------------------------------

class FilesystemStoreTest : public ::testing::Test {
 protected:
  std::string root() const { return dir_ / "root"; }
  TempDir dir_;
  std::shared_ptr<Store> store_;

  void SetUp() override { store_ = make_filesystem_store(root()); }
  void put(const std::string& key, const std::string& value) { store_->set(key, ByteView(value)); }

  // Every file name under the root, recursively, including temporary files.
  Keys files_on_disk() const {
    Keys names;
    if (!fs::exists(root())) return names;
    for (const auto& entry : fs::recursive_directory_iterator(root())) {
      if (entry.is_regular_file()) names.push_back(fs::relative(entry.path(), root()).string());
    }
    return sorted(names);
  }
};

bool has_temp_name(const std::string& key) {
  return key.rfind(kTempPrefix, 0) == 0 || key.find(std::string("/") + kTempPrefix) != std::string::npos;
}

TEST_F(FilesystemStoreTest, KeysAreFilesUnderTheRoot) {
  put("a/b/0.0", "chunk");
  EXPECT_EQ(text(test::read_file(root() + "/a/b/0.0")), "chunk");
  test::write_file(root() + "/outside-written", ByteView(std::string("0123456789")));
  EXPECT_EQ(text(store_->get("outside-written")), "0123456789");
  EXPECT_EQ(text(store_->get_range("outside-written", conformance::range(4, 2))), "45");
  EXPECT_EQ(store_->describe(), root());
  EXPECT_EQ(make_filesystem_store(root() + "//")->describe(), root());
}

// The filesystem tells versions (so kept shard indexes are checked): a
// rewrite of the same bytes is a new file, hence a new version too.
TEST_F(FilesystemStoreTest, EveryWriteMakesANewVersion) {
  put("k", "same bytes");
  const std::string first = store_->get_range_versioned("k", ByteRange{}).version;
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(store_->get_range_versioned("k", ByteRange{2, 3, std::nullopt}).version, first);
  put("k", "same bytes");
  EXPECT_NE(store_->get_range_versioned("k", ByteRange{}).version, first);
}

TEST_F(FilesystemStoreTest, RootIsCreatedOnFirstWriteOnly) {
  std::shared_ptr<Store> deep = make_filesystem_store(dir_ / "x/y/root");
  EXPECT_FALSE(deep->get("k").has_value());
  EXPECT_TRUE(deep->list_prefix("").empty());
  deep->erase("k");
  deep->erase_prefix("");
  EXPECT_FALSE(fs::exists(dir_ / "x"));
  deep->set("k", ByteView(std::string("v")));
  EXPECT_TRUE(fs::is_regular_file(dir_ / "x/y/root/k"));
}

TEST_F(FilesystemStoreTest, WritesLeaveNoTemporaryFiles) {
  for (int i = 0; i < 20; ++i) put("d/k" + std::to_string(i % 4), std::string(static_cast<size_t>(i) * 100, 'x'));
  EXPECT_EQ(files_on_disk(), (Keys{"d/k0", "d/k1", "d/k2", "d/k3"}));
}

TEST_F(FilesystemStoreTest, TemporaryFilesAreNeverListed) {
  put("a/k", "v");
  // As a crashed writer would leave them.
  std::string stale = std::string(kTempPrefix) + "999.abc.1";
  test::write_file(root() + "/" + stale, ByteView(std::string("partial")));
  test::write_file(root() + "/a/" + stale, ByteView(std::string("partial")));
  EXPECT_EQ(store_->list_prefix(""), (Keys{"a/k"}));
  EXPECT_EQ(store_->list_prefix("."), Keys{});
  EXPECT_EQ(store_->list_dir("").keys, Keys{});
  EXPECT_EQ(store_->list_dir("a/").keys, (Keys{"k"}));
  // erase_prefix("") clears everything, leftovers included, but keeps the root.
  store_->erase_prefix("");
  EXPECT_TRUE(files_on_disk().empty());
  EXPECT_TRUE(fs::is_directory(root()));
}

TEST_F(FilesystemStoreTest, ListingDuringWritesNeverShowsTemporaryFiles) {
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; i < 300; ++i) put("w/k" + std::to_string(i % 5), std::string(1000, 'x'));
    stop = true;
  });
  int temp_seen = 0;
  while (!stop) {
    for (const std::string& key : store_->list_prefix("")) temp_seen += has_temp_name(key);
    for (const std::string& key : store_->list_dir("w/").keys) temp_seen += has_temp_name(key);
  }
  writer.join();
  EXPECT_EQ(temp_seen, 0);
}

TEST_F(FilesystemStoreTest, EmptiedFoldersAreRemovedButNotTheRoot) {
  put("a/b/c", "v");
  store_->erase("a/b/c");
  EXPECT_FALSE(fs::exists(root() + "/a"));
  EXPECT_TRUE(fs::is_directory(root()));
  put("x/y/z", "v");
  put("x/keep", "v");
  store_->erase_prefix("x/y/");
  EXPECT_FALSE(fs::exists(root() + "/x/y"));
  EXPECT_TRUE(fs::exists(root() + "/x/keep"));
  put("only/one", "v");
  store_->erase_prefix("only/");
  EXPECT_FALSE(fs::exists(root() + "/only"));
  EXPECT_TRUE(fs::is_directory(root()));
}

TEST_F(FilesystemStoreTest, InvalidKeyCannotEscapeTheRoot) {
  EXPECT_EQ(catch_error([&] { put("../escaped", "v"); }).code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(catch_error([&] { put("a/../../escaped", "v"); }).code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(catch_error([&] { store_->erase_prefix("../"); }).code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_FALSE(fs::exists(dir_ / "escaped"));
}

TEST_F(FilesystemStoreTest, BadRootsAreRejected) {
  EXPECT_EQ(catch_error([] { make_filesystem_store(""); }).code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(catch_error([] { make_filesystem_store(std::string("a\0b", 3)); }).code, ZARR_ERR_INVALID_ARGUMENT);
}

TEST_F(FilesystemStoreTest, RootThatIsAFileIsAnIoErrorOnWrite) {
  test::write_file(root(), ByteView(std::string("not a directory")));
  EXPECT_FALSE(store_->get("k").has_value());
  EXPECT_TRUE(store_->list_prefix("").empty());
  Caught caught = catch_error([&] { put("k", "v"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find(root()), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find("'k'"), std::string::npos) << caught.message;
}

TEST_F(FilesystemStoreTest, ParentThatIsAFileIsAnIoErrorNamingIt) {
  put("a", "a file");
  Caught caught = catch_error([&] { put("a/b", "v"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("'a/b'"), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find(root() + "/a'"), std::string::npos) << caught.message;
  EXPECT_EQ(text(store_->get("a")), "a file");
  EXPECT_FALSE(store_->get("a/b").has_value());  // under a file: absent
  EXPECT_EQ(files_on_disk(), (Keys{"a"}));
}

TEST_F(FilesystemStoreTest, KeyThatIsADirectoryIsAnIoErrorOnWrite) {
  put("d/k", "v");
  Caught caught = catch_error([&] { put("d", "v"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find(root() + "/d'"), std::string::npos) << caught.message;
  EXPECT_EQ(files_on_disk(), (Keys{"d/k"}));  // the temporary file is gone
}

// A socket bound at `path` (closed again: the socket file stays).
void make_socket_file(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof address.sun_path);
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0) << path;
  ::close(fd);
}

// A FIFO, a socket or a device where a key's file should be is a key (it is
// listed, so `zarrtool verify` reads it) whose every read is ZARR_ERR_IO
// naming it and what it is: never a hang, never the device's bytes.
TEST_F(FilesystemStoreTest, SpecialFilesAreKeysWhoseReadsFailNamingThem) {
  put("k", "v");
  ASSERT_EQ(::mkfifo((root() + "/fifo").c_str(), 0600), 0);
  make_socket_file(root() + "/sock");
  fs::create_symlink("/dev/zero", root() + "/zero");
  const std::map<std::string, std::string> kinds = {{"fifo", "a FIFO"}, {"sock", "a socket"},
                                                    {"zero", "a character device"}};
  for (const auto& key_and_kind : kinds) {
    const std::string& key = key_and_kind.first;  // a lambda cannot capture a structured binding in C++17
    SCOPED_TRACE(key);
    const std::string expected =
        "cannot read '" + root() + "/" + key + "': it is " + key_and_kind.second + ", not a regular file";
    for (const std::function<void()>& read : std::vector<std::function<void()>>{
             [&] { store_->get(key); },
             [&] { store_->get_range(key, conformance::range(0, 4)); },
             [&] { store_->exists(key); },
             [&] { store_->value_size(key); },
             [&] { store_->get_into(key, store_->value_limit(), [](size_t) -> uint8_t* { return nullptr; }); },
         }) {
      Caught caught = catch_error(read);
      EXPECT_EQ(caught.code, ZARR_ERR_IO);
      EXPECT_EQ(caught.message, expected);
    }
  }
  EXPECT_EQ(store_->list_prefix(""), (Keys{"fifo", "k", "sock", "zero"}));
  EXPECT_EQ(store_->list_dir("").keys, (Keys{"fifo", "k", "sock", "zero"}));
  // Erasing them removes them (the link, not /dev/zero).
  for (const auto& [key, kind] : kinds) store_->erase(key);
  EXPECT_EQ(store_->list_prefix(""), (Keys{"k"}));
  EXPECT_TRUE(fs::exists("/dev/zero"));
}

TEST_F(FilesystemStoreTest, SymlinksAreFollowedForReading) {
  put("real/k", "v");
  fs::create_symlink(root() + "/real/k", root() + "/link");
  fs::create_directory_symlink(root() + "/real", root() + "/alias");
  fs::create_symlink(root() + "/nowhere", root() + "/dangling");
  EXPECT_EQ(text(store_->get("link")), "v");
  EXPECT_EQ(text(store_->get("alias/k")), "v");
  EXPECT_FALSE(store_->get("dangling").has_value());
  // A folder is listed once, under its own path when the listing reaches it.
  EXPECT_EQ(store_->list_prefix(""), (Keys{"link", "real/k"}));
  EXPECT_EQ(store_->list_prefix("alias/"), (Keys{"alias/k"}));
  DirListing root_listing = store_->list_dir("");
  EXPECT_EQ(root_listing.keys, (Keys{"link"}));
  EXPECT_EQ(root_listing.prefixes, (Keys{"alias", "real"}));
  // Erasing the alias removes the link, never the target's keys.
  store_->erase_prefix("alias/");
  EXPECT_FALSE(fs::exists(root() + "/alias"));
  EXPECT_EQ(text(store_->get("real/k")), "v");
}

// ---- the root is a wall: writes and erases never pass through a link -------

class FilesystemStoreWallTest : public FilesystemStoreTest {
 protected:
  // <dir>/outside/victim and <dir>/outside/4/4, which no write or erase
  // through the store may touch; root/arr/c is a link to <dir>/outside.
  void SetUp() override {
    FilesystemStoreTest::SetUp();
    fs::create_directories(outside() + "/4");
    test::write_file(outside() + "/victim", ByteView(std::string("victim")));
    test::write_file(outside() + "/4/4", ByteView(std::string("precious")));
    put("arr/zarr.json", "{}");
    fs::create_directory_symlink(outside(), root() + "/arr/c");
  }
  std::string outside() const { return dir_ / "outside"; }
  Keys outside_files() const {
    Keys names;
    for (const auto& entry : fs::recursive_directory_iterator(outside())) {
      names.push_back(fs::relative(entry.path(), outside()).string());
    }
    return sorted(names);
  }
  void expect_refused_naming_the_link(const std::function<void()>& call, const std::string& what) {
    Caught caught = catch_error(call);
    EXPECT_EQ(caught.code, ZARR_ERR_IO);
    EXPECT_EQ(caught.message, what + " in " + root() + ": '" + root() +
                                  "/arr/c' is a symbolic link: the filesystem store never writes or erases "
                                  "through one");
  }
  const Keys outside_before_{"4", "4/4", "victim"};
};

TEST_F(FilesystemStoreWallTest, WritesNeverPassThroughALinkedFolder) {
  EXPECT_EQ(text(store_->get("arr/c/4/4")), "precious");  // reads follow the link
  expect_refused_naming_the_link([&] { put("arr/c/0/0", "x"); }, "cannot set key 'arr/c/0/0'");
  expect_refused_naming_the_link([&] { put("arr/c/4/4", "x"); }, "cannot set key 'arr/c/4/4'");
  expect_refused_naming_the_link([&] { put("arr/c/victim", "x"); }, "cannot set key 'arr/c/victim'");
  EXPECT_EQ(outside_files(), outside_before_);
  EXPECT_EQ(text(test::read_file(outside() + "/4/4")), "precious");
  EXPECT_EQ(text(test::read_file(outside() + "/victim")), "victim");
}

TEST_F(FilesystemStoreWallTest, ErasesNeverPassThroughALinkedFolder) {
  expect_refused_naming_the_link([&] { store_->erase("arr/c/4/4"); }, "cannot erase key 'arr/c/4/4'");
  expect_refused_naming_the_link([&] { store_->erase_prefix("arr/c/4/"); }, "cannot erase prefix 'arr/c/4/'");
  expect_refused_naming_the_link([&] { store_->erase_prefix("arr/c/4"); }, "cannot erase prefix 'arr/c/4'");
  EXPECT_EQ(outside_files(), outside_before_);
}

TEST_F(FilesystemStoreWallTest, ErasingALinkRemovesTheLinkNotItsTarget) {
  EXPECT_EQ(store_->list_prefix("arr/"), (Keys{"arr/c/4/4", "arr/c/victim", "arr/zarr.json"}));
  store_->erase_prefix("arr/c");  // partial segment: matches the link "c"
  EXPECT_FALSE(fs::is_symlink(root() + "/arr/c"));
  fs::create_directory_symlink(outside(), root() + "/arr/c");
  store_->erase_prefix("arr/");  // the whole array folder
  EXPECT_FALSE(fs::exists(root() + "/arr"));
  fs::create_directory_symlink(outside(), root() + "/whole");
  store_->erase_prefix("whole/");  // the link as a folder
  store_->erase_prefix("");        // everything
  EXPECT_TRUE(fs::is_empty(root()));
  EXPECT_EQ(outside_files(), outside_before_);
}

TEST_F(FilesystemStoreWallTest, AKeyThatIsALinkIsReplacedOrRemovedNotItsTarget) {
  fs::create_symlink(outside() + "/victim", root() + "/arr/k");
  fs::create_symlink(outside() + "/4/4", root() + "/arr/gone");
  EXPECT_EQ(text(store_->get("arr/k")), "victim");  // reads follow the link
  put("arr/k", "new value");
  EXPECT_FALSE(fs::is_symlink(root() + "/arr/k"));
  EXPECT_EQ(text(store_->get("arr/k")), "new value");
  store_->erase("arr/gone");
  EXPECT_FALSE(fs::exists(fs::symlink_status(root() + "/arr/gone")));
  EXPECT_EQ(outside_files(), outside_before_);
  EXPECT_EQ(text(test::read_file(outside() + "/victim")), "victim");
  EXPECT_EQ(text(test::read_file(outside() + "/4/4")), "precious");
}

// ---- listing: each folder once, and bounded ---------------------------------

// 30 levels of folders, each with two links to the next and a key: a walk
// that followed every link would take 2^31 paths; a listing takes 31.
TEST_F(FilesystemStoreTest, ListingEntersEachFolderOnceThroughADagOfLinks) {
  constexpr int kLevels = 30;
  test::make_dag_of_links(root() + "/dag", kLevels);
  Keys expected;
  for (int level = 0; level <= kLevels; ++level) {
    const std::string key = "dag/l" + std::to_string(level) + "/k";
    put(key, "v");
    expected.push_back(key);
  }
  EXPECT_EQ(store_->list_prefix(""), sorted(expected));
  EXPECT_EQ(store_->list_prefix("dag/"), sorted(expected));
  // Started inside the DAG, the lower levels are reached through links only.
  Keys from_l28 = store_->list_prefix("dag/l28/");
  EXPECT_EQ(from_l28.size(), 3u);
  EXPECT_EQ(from_l28[0], "dag/l28/a/a/k");
  EXPECT_EQ(text(store_->get("dag/l0/a/b/a/b/a/b/k")), "v");
}

TEST_F(FilesystemStoreTest, ListingEntersEachFolderOnceThroughALoopOfLinks) {
  put("a/k", "v");
  put("a/b/k", "v");
  fs::create_directory_symlink("..", root() + "/a/b/up");
  fs::create_directory_symlink(".", root() + "/a/self");
  fs::create_directory_symlink(root(), root() + "/a/root");
  fs::create_symlink("ring2", root() + "/ring1");  // a loop of file links: a key nobody can read
  fs::create_symlink("ring1", root() + "/ring2");
  EXPECT_EQ(store_->list_prefix(""), (Keys{"a/b/k", "a/k", "ring1", "ring2"}));
  // From a/b, its parent and the root are reached through links only.
  EXPECT_EQ(store_->list_prefix("a/b/"), (Keys{"a/b/k", "a/b/up/k", "a/b/up/root/ring1", "a/b/up/root/ring2"}));
  EXPECT_EQ(catch_error([&] { store_->get("ring1"); }).code, ZARR_ERR_IO);
  store_->erase_prefix("");
  EXPECT_TRUE(fs::is_empty(root()));
}

TEST_F(FilesystemStoreTest, ListingPastItsBoundsIsAnIoErrorNamingTheFolder) {
  std::string deep;
  for (int level = 0; level <= 129; ++level) deep += "d/";
  put(deep + "k", "v");
  Caught caught = catch_error([&] { store_->list_prefix(""); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_EQ(caught.message, "cannot list '" + root() + "/" + deep.substr(0, 129 * 2 - 1) +
                                "': folders nested deeper than 128");
  // Removal has the same bound, counted from the folder removed; past it
  // nothing is removed.
  caught = catch_error([&] { store_->erase_prefix(""); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_EQ(caught.message, "cannot erase prefix '' in " + root() + ": cannot remove '" + root() + "/" +
                                deep.substr(0, 129 * 2 - 1) + "': folders nested deeper than 128");
  EXPECT_EQ(text(store_->get(deep + "k")), "v");
  store_->erase_prefix("d/d/d/d/");
  EXPECT_EQ(store_->list_prefix(""), Keys{});

  FilesystemStoreOptions options;
  options.max_list_entries = 10;
  std::shared_ptr<Store> bounded = make_filesystem_store(root(), options);
  for (int i = 0; i < 5; ++i) put("f/" + std::to_string(i), "v");
  EXPECT_EQ(bounded->list_prefix("").size(), 5u);  // "f" and five keys: 6 entries
  for (int i = 5; i < 10; ++i) put("f/" + std::to_string(i), "v");
  caught = catch_error([&] { bounded->list_prefix(""); });  // 11 entries
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_EQ(caught.message, "cannot list '" + root() + "/f': more than 10 entries in one listing");
  EXPECT_EQ(bounded->list_dir("f/").keys.size(), 10u);
  put("f/10", "v");
  caught = catch_error([&] { bounded->list_dir("f/"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_EQ(caught.message, "cannot list '" + root() + "/f': more than 10 entries in one listing");
}

TEST_F(FilesystemStoreTest, FsyncOptionStillWrites) {
  FilesystemStoreOptions options;
  options.fsync = true;
  std::shared_ptr<Store> durable = make_filesystem_store(root(), options);
  durable->set("s/k", ByteView(std::string("durable")));
  EXPECT_EQ(text(durable->get("s/k")), "durable");
  EXPECT_EQ(files_on_disk(), (Keys{"s/k"}));
}

TEST_F(FilesystemStoreTest, ReadOnlyViaOptions) {
  FilesystemStoreOptions options;
  options.read_only = true;
  std::shared_ptr<Store> ro = make_filesystem_store(root(), options);
  EXPECT_EQ(catch_error([&] { ro->set("k", ByteView(std::string("v"))); }).code, ZARR_ERR_READ_ONLY);
  EXPECT_FALSE(fs::exists(root()));  // no root created by a rejected write
}

TEST_F(FilesystemStoreTest, ProcessesWritingTheSameKeysDoNotCollide) {
  // A child process and this one rewrite the same keys: temporary names must
  // differ across processes (pid) as well as threads.
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  auto hammer = [&] {
    for (int i = 0; i < 200; ++i) put("p/k" + std::to_string(i % 3), i % 2 ? kOldValue : kNewValue);
  };
  if (child == 0) {
    try {
      hammer();
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  hammer();
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(files_on_disk(), (Keys{"p/k0", "p/k1", "p/k2"}));
  for (const std::string& key : store_->list_prefix("")) EXPECT_TRUE(whole(store_->get(key)));
}

// ---- memory store ----------------------------------------------------------

TEST(MemoryStoreTest, HandlesOnOneNameShareData) {
  std::shared_ptr<Store> a = make_memory_store("shared-a");
  std::shared_ptr<Store> b = make_memory_store("shared-a");
  std::shared_ptr<Store> c = make_memory_store("memory://shared-a");
  std::shared_ptr<Store> other = make_memory_store("shared-b");
  a->set("k", ByteView(std::string("v")));
  EXPECT_EQ(text(b->get("k")), "v");
  EXPECT_EQ(text(c->get("k")), "v");
  EXPECT_FALSE(other->get("k").has_value());
  b->erase("k");
  EXPECT_FALSE(a->exists("k"));
  EXPECT_EQ(a->describe(), "memory://shared-a");
  EXPECT_EQ(c->describe(), "memory://shared-a");
}

TEST(MemoryStoreTest, DataLivesWhileAnyHandleDoes) {
  std::shared_ptr<Store> a = make_memory_store("lifetime");
  std::shared_ptr<Store> b = make_memory_store("lifetime");
  a->set("k", ByteView(std::string("v")));
  a.reset();
  std::shared_ptr<Store> c = make_memory_store("lifetime");
  EXPECT_EQ(text(c->get("k")), "v");
  b.reset();
  c.reset();
  // Every handle is gone: the data went with them.
  std::shared_ptr<Store> fresh = make_memory_store("lifetime");
  EXPECT_FALSE(fresh->get("k").has_value());
  EXPECT_TRUE(fresh->list_prefix("").empty());
}

TEST(MemoryStoreTest, DataIsFreedWithTheLastHandle) {
  std::weak_ptr<Store> watch;
  {
    std::shared_ptr<Store> a = make_memory_store("freed");
    a->set("big", Bytes(1 << 20));
    watch = a;
  }
  EXPECT_TRUE(watch.expired());
  EXPECT_FALSE(make_memory_store("freed")->exists("big"));
}

TEST(MemoryStoreTest, EmptyNameIsPrivate) {
  std::shared_ptr<Store> a = make_memory_store("");
  std::shared_ptr<Store> b = make_memory_store("");
  a->set("k", ByteView(std::string("v")));
  EXPECT_FALSE(b->exists("k"));
}

TEST(MemoryStoreTest, ReadOnlyHandleSeesLaterWrites) {
  std::shared_ptr<Store> rw = make_memory_store("ro-view");
  std::shared_ptr<Store> ro = make_memory_store("ro-view", true);
  rw->set("k", ByteView(std::string("v1")));
  EXPECT_EQ(text(ro->get("k")), "v1");
  rw->set("k", ByteView(std::string("v2")));
  EXPECT_EQ(text(ro->get("k")), "v2");
  Caught caught = catch_error([&] { ro->set("k", ByteView(std::string("x"))); });
  EXPECT_EQ(caught.code, ZARR_ERR_READ_ONLY);
  EXPECT_NE(caught.message.find("memory://ro-view"), std::string::npos) << caught.message;
}

TEST(MemoryStoreTest, ConcurrentOpensOfOneNameShareOneStore) {
  constexpr size_t kThreads = 8;
  std::vector<std::shared_ptr<Store>> handles(kThreads);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      handles[t] = make_memory_store("raced");
      handles[t]->set("k" + std::to_string(t), ByteView(std::string("v")));
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(handles[0]->list_prefix("").size(), kThreads);
}

}  // namespace
}  // namespace zarr
