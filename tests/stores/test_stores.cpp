// Filesystem- and memory-specific store behaviour. What every store shares is
// the conformance suite's (store_conformance.h).
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "stores/store.h"
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

TEST_F(FilesystemStoreTest, SpecialFileIsAnIoErrorNotAHang) {
  put("k", "v");
  ASSERT_EQ(::mkfifo((root() + "/fifo").c_str(), 0600), 0);
  Caught caught = catch_error([&] { store_->get("fifo"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find(root() + "/fifo"), std::string::npos) << caught.message;
  EXPECT_FALSE(store_->exists("fifo"));
  EXPECT_EQ(store_->list_prefix(""), (Keys{"k"}));  // neither key nor folder
}

TEST_F(FilesystemStoreTest, SymlinksAreFollowedForReading) {
  put("real/k", "v");
  fs::create_symlink(root() + "/real/k", root() + "/link");
  fs::create_directory_symlink(root() + "/real", root() + "/alias");
  fs::create_symlink(root() + "/nowhere", root() + "/dangling");
  EXPECT_EQ(text(store_->get("link")), "v");
  EXPECT_EQ(text(store_->get("alias/k")), "v");
  EXPECT_FALSE(store_->get("dangling").has_value());
  EXPECT_EQ(store_->list_prefix(""), (Keys{"alias/k", "link", "real/k"}));
  DirListing root_listing = store_->list_dir("");
  EXPECT_EQ(root_listing.keys, (Keys{"link"}));
  EXPECT_EQ(root_listing.prefixes, (Keys{"alias", "real"}));
  // Erasing through the alias removes the link, never the target's keys.
  store_->erase_prefix("alias/");
  EXPECT_EQ(text(store_->get("real/k")), "v");
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
