// Store tests: one parametrised suite of shared semantics run against every
// store, then filesystem- and memory-specific behaviour.
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
#include "support/test_support.h"

namespace zarr {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using Keys = std::vector<std::string>;

constexpr const char kTempPrefix[] = ".zarr-tmp.";

// What a call threw: code 0 when it did not throw a zarr::Error.
struct Caught {
  int code = 0;
  std::string message;
};

Caught catch_error(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {};
}

std::string text(const std::optional<Bytes>& value) {
  return value ? std::string(value->begin(), value->end()) : std::string("<absent>");
}

Keys sorted(Keys keys) {
  std::sort(keys.begin(), keys.end());
  return keys;
}

// ---- shared semantics, run against every store -----------------------------

class StoreSemantics : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { store_ = open(false); }

  // A handle on this test's store; memory names are unique per test so no
  // two tests share data.
  std::shared_ptr<Store> open(bool read_only) {
    if (GetParam() == "filesystem") return make_filesystem_store(dir_ / "root", read_only);
    static std::atomic<int> next{0};
    if (memory_name_.empty()) memory_name_ = "semantics-" + std::to_string(next++);
    return make_memory_store(memory_name_, read_only);
  }

  void put(const std::string& key, const std::string& value) { store_->set(key, ByteView(value)); }
  void put_all(const Keys& keys) {
    for (const std::string& key : keys) put(key, "value of " + key);
  }
  std::string get(const std::string& key) { return text(store_->get(key)); }
  std::string get(const std::string& key, uint64_t offset, std::optional<uint64_t> length) {
    return text(store_->get_range(key, ByteRange{offset, length}));
  }

  TempDir dir_;
  std::string memory_name_;
  std::shared_ptr<Store> store_;
};

TEST_P(StoreSemantics, SetGetExists) {
  put("a", "hello");
  put("x/y/z", "nested");
  EXPECT_EQ(get("a"), "hello");
  EXPECT_EQ(get("x/y/z"), "nested");
  EXPECT_TRUE(store_->exists("a"));
  EXPECT_TRUE(store_->exists("x/y/z"));
  EXPECT_TRUE(store_->writable());
  EXPECT_TRUE(store_->listable());
  EXPECT_TRUE(store_->supports_partial_reads());
}

TEST_P(StoreSemantics, EmptyAndBinaryValues) {
  put("empty", "");
  ASSERT_TRUE(store_->get("empty").has_value());
  EXPECT_TRUE(store_->get("empty")->empty());
  EXPECT_TRUE(store_->exists("empty"));

  Bytes all(256);
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint8_t>(i);
  store_->set("bin", all);
  EXPECT_EQ(store_->get("bin"), all);
}

TEST_P(StoreSemantics, AbsentKeysAreNotErrors) {
  EXPECT_FALSE(store_->get("missing").has_value());
  EXPECT_FALSE(store_->get("no/such/key").has_value());
  EXPECT_FALSE(store_->get_range("missing", ByteRange{1, 2}).has_value());
  EXPECT_FALSE(store_->exists("missing"));
  EXPECT_NO_THROW(store_->erase("missing"));
  EXPECT_NO_THROW(store_->erase("no/such/key"));
  EXPECT_NO_THROW(store_->erase_prefix("no/such/"));
  EXPECT_NO_THROW(store_->erase_prefix(""));
  EXPECT_TRUE(store_->list_prefix("").empty());
  EXPECT_TRUE(store_->list_prefix("no/").empty());
  DirListing listing = store_->list_dir("no/");
  EXPECT_TRUE(listing.keys.empty());
  EXPECT_TRUE(listing.prefixes.empty());
}

TEST_P(StoreSemantics, FolderIsNotAKey) {
  put("d/k", "v");
  EXPECT_FALSE(store_->get("d").has_value());
  EXPECT_FALSE(store_->exists("d"));
  EXPECT_NO_THROW(store_->erase("d"));
  EXPECT_EQ(get("d/k"), "v");
}

TEST_P(StoreSemantics, ByteRanges) {
  put("r", "0123456789");
  EXPECT_EQ(get("r", 2, 3), "234");
  EXPECT_EQ(get("r", 7, std::nullopt), "789");
  EXPECT_EQ(get("r", 0, std::nullopt), "0123456789");
  EXPECT_EQ(get("r", 0, 0), "");
  EXPECT_EQ(get("r", 8, 10), "89");  // clipped at the end
  EXPECT_EQ(get("r", 3, std::numeric_limits<uint64_t>::max()), "3456789");
  // An offset at or past the end: the key exists, the range is empty.
  EXPECT_EQ(get("r", 10, 5), "");
  EXPECT_EQ(get("r", 100, std::nullopt), "");
  EXPECT_EQ(get("r", std::numeric_limits<uint64_t>::max(), std::numeric_limits<uint64_t>::max()), "");
}

TEST_P(StoreSemantics, SuffixRanges) {
  put("r", "0123456789");
  auto suffix = [&](uint64_t n) {
    ByteRange range;
    range.suffix = n;
    std::optional<Bytes> b = store_->get_range("r", range);
    return b ? std::string(b->begin(), b->end()) : std::string("<absent>");
  };
  EXPECT_EQ(suffix(3), "789");
  EXPECT_EQ(suffix(0), "");
  EXPECT_EQ(suffix(10), "0123456789");
  EXPECT_EQ(suffix(50), "0123456789");  // longer than the value: all of it
  ByteRange range;
  range.suffix = 4;
  EXPECT_FALSE(store_->get_range("absent", range).has_value());
}

TEST_P(StoreSemantics, OverwriteReplacesWholeValue) {
  put("k", "a much longer first value");
  put("k", "short");
  EXPECT_EQ(get("k"), "short");
  put("k", "");
  EXPECT_EQ(get("k"), "");
}

TEST_P(StoreSemantics, EraseRemovesOnlyThatKey) {
  put_all({"g/x", "g/y", "h"});
  store_->erase("g/x");
  EXPECT_FALSE(store_->get("g/x").has_value());
  EXPECT_FALSE(store_->exists("g/x"));
  EXPECT_EQ(store_->list_prefix(""), (Keys{"g/y", "h"}));
  EXPECT_EQ(store_->list_dir("g/").keys, (Keys{"y"}));
  store_->erase("g/y");
  // A folder whose last key is gone is no longer listed.
  DirListing root = store_->list_dir("");
  EXPECT_EQ(root.keys, (Keys{"h"}));
  EXPECT_TRUE(root.prefixes.empty());
}

const Keys kTree = {"a/b/c", "a/b/d/e", "a/bc", "a/x", "z"};

TEST_P(StoreSemantics, ErasePrefixOfAFolder) {
  put_all(kTree);
  store_->erase_prefix("a/b/");
  EXPECT_EQ(store_->list_prefix(""), (Keys{"a/bc", "a/x", "z"}));
  EXPECT_TRUE(store_->list_dir("a/").prefixes.empty());
  EXPECT_EQ(store_->list_dir("a/").keys, (Keys{"bc", "x"}));
}

TEST_P(StoreSemantics, ErasePrefixPartialSegment) {
  put_all(kTree);
  store_->erase_prefix("a/b");
  EXPECT_EQ(store_->list_prefix(""), (Keys{"a/x", "z"}));
}

TEST_P(StoreSemantics, ErasePrefixEmptyErasesEverything) {
  put_all(kTree);
  store_->erase_prefix("");
  EXPECT_TRUE(store_->list_prefix("").empty());
  put("again", "1");  // still usable
  EXPECT_EQ(get("again"), "1");
}

TEST_P(StoreSemantics, ErasePrefixLastFolderRemovesIt) {
  put_all({"a/b/c", "q"});
  store_->erase_prefix("a/");
  DirListing root = store_->list_dir("");
  EXPECT_EQ(root.keys, (Keys{"q"}));
  EXPECT_TRUE(root.prefixes.empty());
}

TEST_P(StoreSemantics, ListPrefixIsSortedAndRecursive) {
  put_all({"b", "a/1/0", "ab", "a/0.1", "a-b", "a/.zarray", "a/0.0"});
  EXPECT_EQ(store_->list_prefix(""), (Keys{"a-b", "a/.zarray", "a/0.0", "a/0.1", "a/1/0", "ab", "b"}));
  EXPECT_EQ(store_->list_prefix("a/"), (Keys{"a/.zarray", "a/0.0", "a/0.1", "a/1/0"}));
  EXPECT_EQ(store_->list_prefix("a"), (Keys{"a-b", "a/.zarray", "a/0.0", "a/0.1", "a/1/0", "ab"}));
  EXPECT_EQ(store_->list_prefix("a/."), (Keys{"a/.zarray"}));
  EXPECT_EQ(store_->list_prefix("a/0"), (Keys{"a/0.0", "a/0.1"}));
  EXPECT_EQ(store_->list_prefix("b"), (Keys{"b"}));
  EXPECT_TRUE(store_->list_prefix("b/").empty());
  EXPECT_TRUE(store_->list_prefix("c").empty());
}

TEST_P(StoreSemantics, ListDirGivesDirectChildren) {
  put_all({"g/.zgroup", "g/arr/.zarray", "g/arr/0.0", "g/sub/deep/x", "g/sub/y", "g/b-c", "top"});
  DirListing root = store_->list_dir("");
  EXPECT_EQ(root.keys, (Keys{"top"}));
  EXPECT_EQ(root.prefixes, (Keys{"g"}));

  DirListing g = store_->list_dir("g/");
  EXPECT_EQ(g.keys, (Keys{".zgroup", "b-c"}));
  EXPECT_EQ(g.prefixes, (Keys{"arr", "sub"}));

  DirListing without_slash = store_->list_dir("g");
  EXPECT_EQ(without_slash.keys, g.keys);
  EXPECT_EQ(without_slash.prefixes, g.prefixes);

  DirListing sub = store_->list_dir("g/sub/");
  EXPECT_EQ(sub.keys, (Keys{"y"}));
  EXPECT_EQ(sub.prefixes, (Keys{"deep"}));
}

TEST_P(StoreSemantics, ListDirSortsFolderNames) {
  // In key order "h/b-c/x" < "h/b.z" < "h/b/x", yet "b" < "b-c" as names.
  put_all({"h/b-c/x", "h/b.z", "h/b/x", "h/b/y"});
  DirListing h = store_->list_dir("h/");
  EXPECT_EQ(h.keys, (Keys{"b.z"}));
  EXPECT_EQ(h.prefixes, (Keys{"b", "b-c"}));
}

const Keys kInvalidKeys = {
    "",        "/a",           "/",           "a//b",           "a/",
    "./a",     "a/.",          "a/../b",      "..",             ".",
    "../up",   ".zarr-tmp.1",  "a/.zarr-tmp.x", std::string("a\0b", 3),
};

TEST_P(StoreSemantics, InvalidKeysAreRejected) {
  for (const std::string& key : kInvalidKeys) {
    SCOPED_TRACE("key of " + std::to_string(key.size()) + " bytes: " + key);
    std::vector<std::function<void()>> calls = {
        [&] { store_->get(key); },
        [&] { store_->get_range(key, ByteRange{0, 1}); },
        [&] { store_->exists(key); },
        [&] { store_->set(key, ByteView(std::string("v"))); },
        [&] { store_->erase(key); },
    };
    for (const auto& call : calls) {
      Caught caught = catch_error(call);
      EXPECT_EQ(caught.code, ZARR_ERR_INVALID_ARGUMENT);
      // The message names the key (NUL bytes escaped).
      std::string shown = key.find('\0') == std::string::npos ? key : "a\\x00b";
      EXPECT_NE(caught.message.find("'" + shown + "'"), std::string::npos) << caught.message;
    }
  }
  EXPECT_TRUE(store_->list_prefix("").empty());
}

TEST_P(StoreSemantics, InvalidPrefixesAreRejected) {
  const Keys invalid = {"/a", "/", "a//", "../", "a/../", "./x", "a/./", std::string("\0", 1), ".zarr-tmp.1/"};
  for (const std::string& prefix : invalid) {
    SCOPED_TRACE("prefix of " + std::to_string(prefix.size()) + " bytes: " + prefix);
    EXPECT_EQ(catch_error([&] { store_->list_prefix(prefix); }).code, ZARR_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(catch_error([&] { store_->erase_prefix(prefix); }).code, ZARR_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(catch_error([&] { store_->list_dir(prefix); }).code, ZARR_ERR_INVALID_ARGUMENT);
  }
  // list_dir treats its prefix as a folder, so a last ".." is a full segment.
  EXPECT_EQ(catch_error([&] { store_->list_dir(".."); }).code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(catch_error([&] { store_->list_dir("a/."); }).code, ZARR_ERR_INVALID_ARGUMENT);
}

TEST_P(StoreSemantics, ReadOnlyHandleRejectsWrites) {
  put_all({"k", "d/k"});
  std::shared_ptr<Store> ro = open(true);
  EXPECT_FALSE(ro->writable());
  EXPECT_EQ(text(ro->get("k")), "value of k");
  EXPECT_EQ(ro->list_prefix(""), (Keys{"d/k", "k"}));

  std::vector<std::function<void()>> writes = {
      [&] { ro->set("k", ByteView(std::string("new"))); },
      [&] { ro->set("fresh", ByteView(std::string("new"))); },
      [&] { ro->erase("k"); },
      [&] { ro->erase_prefix("d/"); },
      [&] { ro->erase_prefix(""); },
  };
  for (const auto& write : writes) {
    Caught caught = catch_error(write);
    EXPECT_EQ(caught.code, ZARR_ERR_READ_ONLY);
    EXPECT_NE(caught.message.find(ro->describe()), std::string::npos) << caught.message;
  }
  EXPECT_EQ(store_->list_prefix(""), (Keys{"d/k", "k"}));
  EXPECT_EQ(get("k"), "value of k");
}

TEST_P(StoreSemantics, ManyThreadsWriteDifferentKeysInNewFolders) {
  constexpr int kThreads = 8;
  constexpr int kKeys = 40;
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kKeys; ++k) {
        // Every thread creates the same folders at once, and some of its own.
        std::string shared_key = "shared/" + std::to_string(k % 5) + "/c/" + std::to_string(t) + "." + std::to_string(k);
        std::string own_key = "own" + std::to_string(t) + "/n" + std::to_string(k) + "/v";
        try {
          store_->set(shared_key, ByteView(shared_key));
          store_->set(own_key, ByteView(own_key));
        } catch (const std::exception&) {
          ++errors;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_EQ(errors.load(), 0);
  Keys keys = store_->list_prefix("");
  EXPECT_EQ(keys.size(), static_cast<size_t>(2 * kThreads * kKeys));
  for (const std::string& key : keys) EXPECT_EQ(get(key), key);
}

// Two values whose mix would show: different lengths and bytes.
const std::string kOldValue(48 * 1024, 'o');
const std::string kNewValue(80 * 1024 + 7, 'n');

bool whole(const std::optional<Bytes>& value) {
  std::string got = text(value);
  return got == kOldValue || got == kNewValue;
}

TEST_P(StoreSemantics, ReaderNeverSeesATornValue) {
  put("hot", kOldValue);
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0};
  std::atomic<int> reads{0};
  std::thread writer([&] {
    for (int i = 0; i < 400; ++i) store_->set("hot", ByteView(i % 2 ? kOldValue : kNewValue));
    stop = true;
  });
  auto reader = [&] {
    while (!stop) {
      if (!whole(store_->get("hot"))) ++torn;
      // A range read must come from one value too.
      std::string tail = text(store_->get_range("hot", ByteRange{kOldValue.size() - 4, 8}));
      if (tail != "oooo" && tail != "nnnnnnnn") ++torn;
      ++reads;
    }
  };
  std::thread reader1(reader), reader2(reader);
  writer.join();
  reader1.join();
  reader2.join();
  EXPECT_EQ(torn.load(), 0) << "after " << reads.load() << " reads";
  EXPECT_EQ(store_->list_prefix(""), (Keys{"hot"}));
}

TEST_P(StoreSemantics, ConcurrentWritersOfOneKeyLeaveOneOfTheirValues) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) store_->set("same", ByteView(t % 2 ? kOldValue : kNewValue));
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_TRUE(whole(store_->get("same")));
  EXPECT_EQ(store_->list_prefix(""), (Keys{"same"}));
}

TEST_P(StoreSemantics, ConcurrentEraseAndSetNeverFail) {
  std::atomic<bool> stop{false};
  std::atomic<int> errors{0};
  std::thread eraser([&] {
    while (!stop) {
      try {
        store_->erase_prefix("p/");
        store_->erase("p/q/k0");
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        ++errors;
      }
    }
  });
  std::thread writer([&] {
    for (int i = 0; i < 300; ++i) {
      try {
        store_->set("p/q/k" + std::to_string(i % 3), ByteView(std::string("v")));
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        ++errors;
      }
    }
    stop = true;
  });
  writer.join();
  eraser.join();
  EXPECT_EQ(errors.load(), 0);
  put("p/q/k0", "last");
  EXPECT_EQ(get("p/q/k0"), "last");
}

INSTANTIATE_TEST_SUITE_P(AllStores, StoreSemantics, ::testing::Values("filesystem", "memory"),
                         [](const ::testing::TestParamInfo<std::string>& param) { return param.param; });

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
  EXPECT_EQ(text(store_->get_range("outside-written", ByteRange{4, 2})), "45");
  EXPECT_EQ(store_->describe(), root());
  EXPECT_EQ(make_filesystem_store(root() + "//")->describe(), root());
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
