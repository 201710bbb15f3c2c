#include "stores/store_conformance.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <cstdint>
#include <limits>
#include <thread>
#include <vector>

#include "base/error.h"
#include "support/test_support.h"

namespace zarr::conformance {
namespace {

using Keys = std::vector<std::string>;

// What a call threw: code 0 when it did not throw a zarr::Error.
using test::Caught;
using test::catch_error;


std::string every_byte() {
  std::string out(256, '\0');
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<char>(i);
  return out;
}

// Bigger than the pieces stores read in, not a multiple of anything.
std::string big_value() {
  std::string out(200 * 1024 + 13, '\0');
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<char>((i * 7 + i / 251) % 256);
  return out;
}

const char kUnicodeKey[] = "unicode/donn\xc3\xa9" "es/\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87/\xe9\x8d\xb5";  // données/ключ/鍵

const Keys kInvalidKeys = {
    "",    "/a",    "/",      "a//b", "a/",          "./a",           "a/.",
    "a/../b", "..", ".",      "../up", ".zarr-tmp.1", "a/.zarr-tmp.x", std::string("a\0b", 3),
};

const Keys kInvalidPrefixes = {"/a", "/", "a//", "../", "a/../", "./x", "a/./", std::string("\0", 1),
                               ".zarr-tmp.1/"};

}  // namespace

const Contents& read_fixture() {
  static const Contents contents = {
      {"a", "hello"},
      {"a-b", "dash"},
      {"ab", "no separator"},
      {"empty", ""},
      {"r", "0123456789"},
      {"bin", every_byte()},
      {"big", big_value()},
      {"d/k", "v"},
      {"g/.zgroup", "{}"},
      {"g/arr/.zarray", "{}"},
      {"g/arr/0.0", "chunk"},
      {"g/sub/deep/x", "x"},
      {"g/sub/y", "y"},
      {"g/b-c", "b-c"},
      {"h/b-c/x", "1"},
      {"h/b.z", "2"},
      {"h/b/x", "3"},
      {"with space/a b", "spaces"},
      {kUnicodeKey, "unicode"},
  };
  return contents;
}

std::function<std::shared_ptr<Store>(const std::string&, const Contents&)> populate_then(
    std::function<std::shared_ptr<Store>(const std::string&)> make_empty,
    std::function<std::shared_ptr<Store>(const std::string&, std::shared_ptr<Store>)> reopen) {
  return [make_empty, reopen](const std::string& scratch, const Contents& contents) {
    std::shared_ptr<Store> written = make_empty(scratch);
    for (const auto& [key, value] : contents) written->set(key, ByteView(value));
    return reopen(scratch, std::move(written));
  };
}

std::string text(const std::optional<Bytes>& value) {
  return value ? std::string(value->begin(), value->end()) : std::string("<absent>");
}

ByteRange range(uint64_t offset, std::optional<uint64_t> length) {
  ByteRange r;
  r.offset = offset;
  r.length = length;
  return r;
}

ByteRange suffix(uint64_t n) {
  ByteRange r;
  r.suffix = n;
  return r;
}

std::string kind_test_name(const testing::TestParamInfo<StoreKind>& info) { return info.param.name; }

namespace {

// Why the running case cannot pass on this kind's test server, or "".
std::string server_limitation(const StoreKind& kind) {
  std::string test = testing::UnitTest::GetInstance()->current_test_info()->name();  // "Case/kind"
  auto found = kind.server_limitations.find(test.substr(0, test.find('/')));
  return found == kind.server_limitations.end() ? "" : found->second;
}

}  // namespace

// A kind whose server is missing here (nginx, s3rver) calls GTEST_SKIP in
// its factory and returns no store.
void StoreReadConformance::SetUp() {
  const std::string limitation = server_limitation(GetParam());
  if (!limitation.empty()) GTEST_SKIP() << "the test server of " << GetParam().name << ": " << limitation;
  store_ = GetParam().make_read_only(scratch_.path(), read_fixture());
  if (IsSkipped()) return;
  ASSERT_NE(store_, nullptr);
}

void StoreWriteConformance::SetUp() {
  if (!GetParam().make_empty) GTEST_SKIP() << GetParam().name << " stores are read-only";
  const std::string limitation = server_limitation(GetParam());
  if (!limitation.empty()) GTEST_SKIP() << "the test server of " << GetParam().name << ": " << limitation;
  store_ = GetParam().make_empty(scratch_.path());
  if (IsSkipped()) return;
  ASSERT_NE(store_, nullptr);
}

// ---- reading ------------------------------------------------------------------------

TEST_P(StoreReadConformance, VersionsOfOneValueAgree) {
  for (const auto& [key, value] : read_fixture()) {
    if (value.size() < 4) continue;
    SCOPED_TRACE(key);
    const Store::VersionedBytes head = store_->get_range_versioned(key, range(0, 2));
    const Store::VersionedBytes tail = store_->get_range_versioned(key, suffix(2));
    EXPECT_EQ(text(head.bytes), value.substr(0, 2));
    EXPECT_EQ(text(tail.bytes), value.substr(value.size() - 2));
    EXPECT_EQ(head.version, tail.version);
  }
}

TEST_P(StoreReadConformance, WholeValuesReadBackExactly) {
  for (const auto& [key, value] : read_fixture()) {
    SCOPED_TRACE(key);
    std::optional<Bytes> got = store_->get(key);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->size(), value.size());
    EXPECT_TRUE(text(got) == value);  // not EXPECT_EQ: a 200 KiB mismatch would flood the log
    EXPECT_TRUE(store_->exists(key));
  }
}

// get_into reads a value into the buffer its caller gives for the size it
// states, reused across values as the array engine does.
TEST_P(StoreReadConformance, GetIntoWritesWholeValuesWhereAsked) {
  std::vector<uint8_t> buffer;
  for (const auto& [key, value] : read_fixture()) {
    SCOPED_TRACE(key);
    size_t asked = SIZE_MAX;
    std::optional<size_t> got = store_->get_into(key, store_->value_limit(), [&](size_t n) {
      asked = n;
      if (buffer.size() < n) buffer.resize(n);
      return buffer.data();
    });
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(*got, value.size());
    if (!value.empty()) {
      EXPECT_EQ(asked, value.size());
    }
    EXPECT_TRUE(std::string(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(*got)) == value);
  }
  bool asked_for_absent = false;
  EXPECT_FALSE(store_->get_into("missing", store_->value_limit(), [&](size_t) {
    asked_for_absent = true;
    return buffer.data();
  }));
  EXPECT_FALSE(asked_for_absent);
}

// get_scattered puts pieces of a value where asked, only when the value has
// the size expected (else it just says the size).
TEST_P(StoreReadConformance, GetScatteredPutsPiecesWhereAsked) {
  for (const auto& [key, value] : read_fixture()) {
    if (value.size() < 10) continue;
    SCOPED_TRACE(key);
    std::string out(9, '.');
    auto* at = reinterpret_cast<uint8_t*>(out.data());
    const std::vector<Store::Piece> pieces = {{0, at + 6, 3}, {3, at, 2}, {value.size() - 4, at + 2, 4}};
    std::optional<size_t> size = store_->get_scattered(key, value.size(), pieces);
    ASSERT_TRUE(size.has_value());
    EXPECT_EQ(*size, value.size());
    EXPECT_EQ(out, value.substr(3, 2) + value.substr(value.size() - 4) + value.substr(0, 3));
    std::string untouched(9, '.');
    size = store_->get_scattered(key, value.size() + 1, {{0, reinterpret_cast<uint8_t*>(untouched.data()), 3}});
    ASSERT_TRUE(size.has_value());
    EXPECT_EQ(*size, value.size());
    EXPECT_EQ(untouched, std::string(9, '.'));
  }
  EXPECT_FALSE(store_->get_scattered("missing", 4, {}).has_value());
}

// get_in_pieces hands a value over in order, in pieces no larger than asked,
// only when the value has the size expected (else it just says the size).
TEST_P(StoreReadConformance, GetInPiecesHandsTheValueOverInOrder) {
  for (const auto& [key, value] : read_fixture()) {
    SCOPED_TRACE(key);
    for (size_t piece_size : {size_t{1}, size_t{7}, size_t{4096}, value.size() + 1}) {
      if (piece_size == 1 && value.size() > 1000) continue;  // a read per byte: slow on files
      std::vector<uint8_t> buffer(piece_size);
      std::string got;
      bool in_order = true, small_enough = true;
      std::optional<size_t> size = store_->get_in_pieces(
          key, value.size(), buffer.data(), piece_size, [&](const uint8_t* data, uint64_t offset, size_t n) {
            in_order = in_order && offset == got.size();
            small_enough = small_enough && n > 0 && n <= piece_size;
            got.append(reinterpret_cast<const char*>(data), n);
          });
      ASSERT_TRUE(size.has_value());
      EXPECT_EQ(*size, value.size());
      EXPECT_TRUE(in_order);
      EXPECT_TRUE(small_enough) << "pieces of " << piece_size << " bytes";
      EXPECT_TRUE(got == value) << "pieces of " << piece_size << " bytes";
    }
    bool handed = false;
    std::vector<uint8_t> buffer(64);
    std::optional<size_t> size = store_->get_in_pieces(key, value.size() + 1, buffer.data(), buffer.size(),
                                                       [&](const uint8_t*, uint64_t, size_t) { handed = true; });
    ASSERT_TRUE(size.has_value());
    EXPECT_EQ(*size, value.size());
    EXPECT_FALSE(handed) << "a value of another size than expected is not handed over";
  }
  std::vector<uint8_t> buffer(8);
  EXPECT_FALSE(store_->get_in_pieces("missing", 4, buffer.data(), 8, [](const uint8_t*, uint64_t, size_t) {})
                   .has_value());
}

// Every read has a byte limit (store.h): a value larger than the read's
// limit is ZARR_ERR_IO naming the key and the limit, whatever the way it is
// read, and nothing of it reaches the caller's buffer. The store's own
// limit (value_limit, the store option "max_value_bytes") holds reads that
// give none: whole values and ranges open at the end.
TEST_P(StoreReadConformance, ValuesLargerThanTheirReadsLimitAreRefused) {
  const std::string& value = read_fixture().at("big");
  const uint64_t limit = value.size() - 1;
  auto expect_refused = [&](const char* how, const std::function<void()>& read) {
    SCOPED_TRACE(how);
    Caught caught = catch_error(read);
    EXPECT_EQ(caught.code, ZARR_ERR_IO) << caught.message;
    EXPECT_NE(caught.message.find("'big'"), std::string::npos) << caught.message;
    EXPECT_NE(caught.message.find("limit of " + std::to_string(limit) + " bytes"), std::string::npos)
        << caught.message;
  };
  EXPECT_EQ(store_->get("big", value.size())->size(), value.size());
  expect_refused("get", [&] { store_->get("big", limit); });
  expect_refused("get_many", [&] { store_->get_many({"a", "big"}, limit); });
  bool asked = false;
  expect_refused("get_into", [&] {
    store_->get_into("big", limit, [&](size_t) -> uint8_t* {
      asked = true;
      return nullptr;
    });
  });
  EXPECT_FALSE(asked) << "a value over the limit gets no buffer";
  expect_refused("get_scattered", [&] { store_->get_scattered("big", limit, {}); });
  std::vector<uint8_t> buffer(64);
  expect_refused("get_in_pieces", [&] {
    store_->get_in_pieces("big", limit, buffer.data(), buffer.size(), [](const uint8_t*, uint64_t, size_t) {});
  });
  const uint64_t own_limit = store_->value_limit();
  store_->set_value_limit(limit);
  expect_refused("get with the store's limit", [&] { store_->get("big"); });
  expect_refused("a range open at the end", [&] { store_->get_range("big", range(0, std::nullopt)); });
  EXPECT_EQ(store_->get_range("big", range(1, std::nullopt))->size(), value.size() - 1) << "the part asked for fits";
  EXPECT_EQ(store_->get_range("big", suffix(value.size()))->size(), value.size()) << "a suffix bounds itself";
  EXPECT_EQ(text(store_->get("a")), "hello");
  store_->set_value_limit(own_limit);
}

// value_size says a value's size without handing it over (over HTTP and S3
// from HEAD, for plugin stores read in pieces); zip archives give the
// compressed size, as zarr-python's getsize.
TEST_P(StoreReadConformance, ValueSizesAreTheValuesSizes) {
  const bool compressed_sizes = GetParam().name.rfind("zip", 0) == 0;
  for (const auto& [key, value] : read_fixture()) {
    SCOPED_TRACE(key);
    std::optional<uint64_t> size = store_->value_size(key);
    ASSERT_TRUE(size.has_value());
    if (!compressed_sizes) {
      EXPECT_EQ(*size, value.size());
    }
  }
  EXPECT_FALSE(store_->value_size("missing").has_value());
}

TEST_P(StoreReadConformance, EmptyValueExists) {
  std::optional<Bytes> empty = store_->get("empty");
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->empty());
  EXPECT_TRUE(store_->exists("empty"));
  EXPECT_EQ(text(store_->get_range("empty", range(0, 5))), "");
  EXPECT_EQ(text(store_->get_range("empty", range(3, std::nullopt))), "");
  EXPECT_EQ(text(store_->get_range("empty", suffix(4))), "");
}

TEST_P(StoreReadConformance, AbsentKeysAreNotErrors) {
  EXPECT_FALSE(store_->get("missing").has_value());
  EXPECT_FALSE(store_->get("no/such/key").has_value());
  EXPECT_FALSE(store_->get("a/b").has_value());  // below a key, not a folder
  EXPECT_FALSE(store_->get_range("missing", range(1, 2)).has_value());
  EXPECT_FALSE(store_->get_range("missing", suffix(3)).has_value());
  EXPECT_FALSE(store_->exists("missing"));
  EXPECT_FALSE(store_->exists("A"));  // keys are case-sensitive
}

TEST_P(StoreReadConformance, FolderIsNotAKey) {
  EXPECT_FALSE(store_->get("d").has_value());
  EXPECT_FALSE(store_->exists("d"));
  EXPECT_FALSE(store_->exists("g/sub"));
  EXPECT_EQ(text(store_->get("d/k")), "v");
}

TEST_P(StoreReadConformance, ByteRangesAtTheEndAndBeyond) {
  auto get = [&](uint64_t offset, std::optional<uint64_t> length) {
    return text(store_->get_range("r", range(offset, length)));
  };
  EXPECT_EQ(get(2, 3), "234");
  EXPECT_EQ(get(7, std::nullopt), "789");
  EXPECT_EQ(get(0, std::nullopt), "0123456789");
  EXPECT_EQ(get(0, 0), "");
  EXPECT_EQ(get(9, 1), "9");  // the last byte
  EXPECT_EQ(get(8, 10), "89");  // clipped at the end
  EXPECT_EQ(get(3, std::numeric_limits<uint64_t>::max()), "3456789");
  // An offset at or past the end: the key exists, the range is empty.
  EXPECT_EQ(get(10, 5), "");
  EXPECT_EQ(get(100, std::nullopt), "");
  EXPECT_EQ(get(std::numeric_limits<uint64_t>::max(), std::numeric_limits<uint64_t>::max()), "");
}

TEST_P(StoreReadConformance, SuffixRanges) {
  auto get = [&](uint64_t n) { return text(store_->get_range("r", suffix(n))); };
  EXPECT_EQ(get(3), "789");
  EXPECT_EQ(get(1), "9");
  EXPECT_EQ(get(0), "");
  EXPECT_EQ(get(10), "0123456789");
  EXPECT_EQ(get(50), "0123456789");  // longer than the value: all of it
  EXPECT_EQ(get(std::numeric_limits<uint64_t>::max()), "0123456789");
}

TEST_P(StoreReadConformance, RangesOfALargeValue) {
  const std::string big = read_fixture().at("big");
  const uint64_t n = big.size();
  EXPECT_TRUE(text(store_->get_range("big", range(100000, 5000))) == big.substr(100000, 5000));
  EXPECT_TRUE(text(store_->get_range("big", range(n - 7, 100))) == big.substr(n - 7));
  EXPECT_TRUE(text(store_->get_range("big", suffix(70000))) == big.substr(n - 70000));
  EXPECT_TRUE(text(store_->get_range("big", range(1, std::nullopt))) == big.substr(1));
  EXPECT_EQ(text(store_->get_range("big", range(n, 1))), "");
}

TEST_P(StoreReadConformance, BinaryValuesKeepEveryByte) {
  EXPECT_TRUE(text(store_->get("bin")) == every_byte());
  EXPECT_EQ(text(store_->get_range("bin", range(0, 2))), std::string("\0\1", 2));
  EXPECT_EQ(text(store_->get_range("bin", suffix(1))), "\xff");
}

TEST_P(StoreReadConformance, ListPrefixWithAndWithoutSeparators) {
  if (!store_->listable()) GTEST_SKIP() << "not listable";
  Keys all;
  for (const auto& entry : read_fixture()) all.push_back(entry.first);  // std::map: byte order
  EXPECT_EQ(store_->list_prefix(""), all);
  EXPECT_EQ(store_->list_prefix("g/"), (Keys{"g/.zgroup", "g/arr/.zarray", "g/arr/0.0", "g/b-c", "g/sub/deep/x", "g/sub/y"}));
  // A prefix ending inside a segment matches names starting with it.
  EXPECT_EQ(store_->list_prefix("g/arr/."), (Keys{"g/arr/.zarray"}));
  EXPECT_EQ(store_->list_prefix("h/b"), (Keys{"h/b-c/x", "h/b.z", "h/b/x"}));
  EXPECT_EQ(store_->list_prefix("a"), (Keys{"a", "a-b", "ab"}));
  EXPECT_EQ(store_->list_prefix("r"), (Keys{"r"}));
  EXPECT_TRUE(store_->list_prefix("r/").empty());
  EXPECT_TRUE(store_->list_prefix("no/").empty());
  EXPECT_TRUE(store_->list_prefix("zz").empty());
}

TEST_P(StoreReadConformance, ListDirGivesDirectChildren) {
  if (!store_->listable()) GTEST_SKIP() << "not listable";
  DirListing root = store_->list_dir("");
  EXPECT_EQ(root.keys, (Keys{"a", "a-b", "ab", "big", "bin", "empty", "r"}));
  EXPECT_EQ(root.prefixes, (Keys{"d", "g", "h", "unicode", "with space"}));

  DirListing g = store_->list_dir("g/");
  EXPECT_EQ(g.keys, (Keys{".zgroup", "b-c"}));
  EXPECT_EQ(g.prefixes, (Keys{"arr", "sub"}));
  DirListing without_slash = store_->list_dir("g");
  EXPECT_EQ(without_slash.keys, g.keys);
  EXPECT_EQ(without_slash.prefixes, g.prefixes);

  DirListing sub = store_->list_dir("g/sub/");
  EXPECT_EQ(sub.keys, (Keys{"y"}));
  EXPECT_EQ(sub.prefixes, (Keys{"deep"}));

  // In key order "h/b-c/x" < "h/b.z" < "h/b/x", yet "b" < "b-c" as names.
  DirListing h = store_->list_dir("h/");
  EXPECT_EQ(h.keys, (Keys{"b.z"}));
  EXPECT_EQ(h.prefixes, (Keys{"b", "b-c"}));

  DirListing none = store_->list_dir("no/");
  EXPECT_TRUE(none.keys.empty());
  EXPECT_TRUE(none.prefixes.empty());
}

TEST_P(StoreReadConformance, KeysWithSpacesAndUnicode) {
  EXPECT_EQ(text(store_->get("with space/a b")), "spaces");
  EXPECT_EQ(text(store_->get(kUnicodeKey)), "unicode");
  EXPECT_EQ(text(store_->get_range(kUnicodeKey, range(3, 2))), "co");
  if (!store_->listable()) return;
  EXPECT_EQ(store_->list_dir("with space/").keys, (Keys{"a b"}));
  // A folder holding only folders is ListDirGivesDirectChildren's case.
  EXPECT_EQ(store_->list_dir("unicode/donn\xc3\xa9" "es/\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87/").keys,
            (Keys{"\xe9\x8d\xb5"}));
  EXPECT_EQ(store_->list_prefix("unicode/donn\xc3\xa9"), (Keys{kUnicodeKey}));
}

TEST_P(StoreReadConformance, InvalidKeysAndPrefixesAreRejected) {
  for (const std::string& key : kInvalidKeys) {
    SCOPED_TRACE("key of " + std::to_string(key.size()) + " bytes: " + key);
    for (const auto& call : std::vector<std::function<void()>>{
             [&] { store_->get(key); },
             [&] { store_->get_range(key, range(0, 1)); },
             [&] { store_->exists(key); },
         }) {
      Caught caught = catch_error(call);
      EXPECT_EQ(caught.code, ZARR_ERR_INVALID_ARGUMENT);
      std::string shown = key.find('\0') == std::string::npos ? key : "a\\x00b";
      EXPECT_NE(caught.message.find("'" + shown + "'"), std::string::npos) << caught.message;
    }
  }
  if (!store_->listable()) return;
  for (const std::string& prefix : kInvalidPrefixes) {
    SCOPED_TRACE("prefix of " + std::to_string(prefix.size()) + " bytes: " + prefix);
    EXPECT_EQ(catch_error([&] { store_->list_prefix(prefix); }).code, ZARR_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(catch_error([&] { store_->list_dir(prefix); }).code, ZARR_ERR_INVALID_ARGUMENT);
  }
  // list_dir treats its prefix as a folder, so a last ".." is a full segment.
  EXPECT_EQ(catch_error([&] { store_->list_dir(".."); }).code, ZARR_ERR_INVALID_ARGUMENT);
}

TEST_P(StoreReadConformance, ReadOnlyStoreRefusesWrites) {
  EXPECT_FALSE(store_->writable());
  for (const auto& write : std::vector<std::function<void()>>{
           [&] { store_->set("a", ByteView(std::string("new"))); },
           [&] { store_->set("fresh", ByteView(std::string("new"))); },
           [&] { store_->erase("a"); },
           [&] { store_->erase("missing"); },
           [&] { store_->erase_prefix("d/"); },
           [&] { store_->erase_prefix(""); },
       }) {
    Caught caught = catch_error(write);
    EXPECT_EQ(caught.code, ZARR_ERR_READ_ONLY);
    EXPECT_NE(caught.message.find(store_->describe()), std::string::npos) << caught.message;
  }
  EXPECT_EQ(text(store_->get("a")), "hello");
  EXPECT_FALSE(store_->exists("fresh"));
  EXPECT_EQ(text(store_->get("d/k")), "v");
  EXPECT_NO_THROW(store_->flush());  // nothing to write
}

TEST_P(StoreReadConformance, ConcurrentReadersSeeWholeValues) {
  const std::string big = read_fixture().at("big");
  std::atomic<int> wrong{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        if (text(store_->get("big")) != big) ++wrong;
        uint64_t offset = static_cast<uint64_t>(t * 1000 + i * 97);
        if (text(store_->get_range("big", range(offset, 333))) != big.substr(offset, 333)) ++wrong;
        if (text(store_->get("r")) != "0123456789") ++wrong;
      }
    });
  }
  for (std::thread& reader : readers) reader.join();
  EXPECT_EQ(wrong.load(), 0);
}

// ---- writing --------------------------------------------------------------------------

namespace {

void put(Store& store, const std::string& key, const std::string& value) { store.set(key, ByteView(value)); }

void put_all(Store& store, const Keys& keys) {
  for (const std::string& key : keys) put(store, key, "value of " + key);
}

// Two values whose mix would show: different lengths and bytes.
const std::string kOldValue(48 * 1024, 'o');
const std::string kNewValue(80 * 1024 + 7, 'n');

bool whole(const std::optional<Bytes>& value) {
  std::string got = text(value);
  return got == kOldValue || got == kNewValue;
}

const Keys kTree = {"a/b/c", "a/b/d/e", "a/bc", "a/x", "z"};

}  // namespace

TEST_P(StoreWriteConformance, SetGetExists) {
  EXPECT_TRUE(store_->writable());
  put(*store_, "a", "hello");
  put(*store_, "x/y/z", "nested");
  EXPECT_EQ(text(store_->get("a")), "hello");
  EXPECT_EQ(text(store_->get("x/y/z")), "nested");
  EXPECT_EQ(text(store_->get_range("x/y/z", range(2, 3))), "ste");
  EXPECT_EQ(text(store_->get_range("x/y/z", suffix(2))), "ed");
  EXPECT_TRUE(store_->exists("a"));
  EXPECT_TRUE(store_->exists("x/y/z"));
  EXPECT_FALSE(store_->exists("x/y"));
}

TEST_P(StoreWriteConformance, EmptyBinaryAndUnicodeValues) {
  put(*store_, "empty", "");
  ASSERT_TRUE(store_->get("empty").has_value());
  EXPECT_TRUE(store_->get("empty")->empty());
  EXPECT_TRUE(store_->exists("empty"));
  put(*store_, "bin", every_byte());
  EXPECT_TRUE(text(store_->get("bin")) == every_byte());
  put(*store_, kUnicodeKey, "u");
  put(*store_, "with space/a b", "s");
  EXPECT_EQ(text(store_->get(kUnicodeKey)), "u");
  EXPECT_EQ(store_->list_prefix("unicode/"), (Keys{kUnicodeKey}));
  EXPECT_EQ(store_->list_dir("with space").keys, (Keys{"a b"}));
}

TEST_P(StoreWriteConformance, AbsentKeysAreNotErrors) {
  EXPECT_FALSE(store_->get("missing").has_value());
  EXPECT_NO_THROW(store_->erase("missing"));
  EXPECT_NO_THROW(store_->erase("no/such/key"));
  EXPECT_NO_THROW(store_->erase_prefix("no/such/"));
  EXPECT_NO_THROW(store_->erase_prefix(""));
  EXPECT_TRUE(store_->list_prefix("").empty());
  DirListing listing = store_->list_dir("");
  EXPECT_TRUE(listing.keys.empty());
  EXPECT_TRUE(listing.prefixes.empty());
}

TEST_P(StoreWriteConformance, WritingAKeyTwiceKeepsTheLastValue) {
  put(*store_, "k", "a much longer first value");
  put(*store_, "k", "short");
  EXPECT_EQ(text(store_->get("k")), "short");
  EXPECT_EQ(text(store_->get_range("k", suffix(100))), "short");
  put(*store_, "k", "");
  EXPECT_EQ(text(store_->get("k")), "");
  EXPECT_EQ(store_->list_prefix(""), (Keys{"k"}));
}

// Versions (Store::get_range_versioned): reads of one value agree; a value
// replaced by another of the same size has another version; an absent key
// has none. A store that cannot tell gives "" for all.
TEST_P(StoreWriteConformance, VersionsTellAReplacedValueApart) {
  put(*store_, "k", "first value");
  const Store::VersionedBytes head = store_->get_range_versioned("k", range(0, 5));
  const Store::VersionedBytes tail = store_->get_range_versioned("k", suffix(5));
  EXPECT_EQ(text(head.bytes), "first");
  EXPECT_EQ(text(tail.bytes), "value");
  EXPECT_EQ(head.version, tail.version);
  put(*store_, "k", "other value");
  const Store::VersionedBytes replaced = store_->get_range_versioned("k", range(0, 5));
  EXPECT_EQ(text(replaced.bytes), "other");
  if (head.version.empty()) {
    EXPECT_EQ(replaced.version, "") << "a store tells versions of every value or of none";
  } else {
    EXPECT_NE(replaced.version, head.version);
  }
  const Store::VersionedBytes absent = store_->get_range_versioned("missing", range(0, 5));
  EXPECT_FALSE(absent.bytes.has_value());
  EXPECT_EQ(absent.version, "");
}

TEST_P(StoreWriteConformance, EraseRemovesOnlyThatKey) {
  put_all(*store_, {"g/x", "g/y", "h"});
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
  EXPECT_NO_THROW(store_->erase("g"));  // a folder name is no key
}

TEST_P(StoreWriteConformance, ErasePrefixOfAFolder) {
  put_all(*store_, kTree);
  store_->erase_prefix("a/b/");
  EXPECT_EQ(store_->list_prefix(""), (Keys{"a/bc", "a/x", "z"}));
  EXPECT_TRUE(store_->list_dir("a/").prefixes.empty());
  EXPECT_EQ(store_->list_dir("a/").keys, (Keys{"bc", "x"}));
}

TEST_P(StoreWriteConformance, ErasePrefixEndingInsideASegment) {
  put_all(*store_, kTree);
  store_->erase_prefix("a/b");
  EXPECT_EQ(store_->list_prefix(""), (Keys{"a/x", "z"}));
}

TEST_P(StoreWriteConformance, ErasePrefixEmptyErasesEverything) {
  put_all(*store_, kTree);
  store_->erase_prefix("");
  EXPECT_TRUE(store_->list_prefix("").empty());
  put(*store_, "again", "1");  // still usable
  EXPECT_EQ(text(store_->get("again")), "1");
}

TEST_P(StoreWriteConformance, ErasePrefixOfTheLastFolderRemovesIt) {
  put_all(*store_, {"a/b/c", "q"});
  store_->erase_prefix("a/");
  DirListing root = store_->list_dir("");
  EXPECT_EQ(root.keys, (Keys{"q"}));
  EXPECT_TRUE(root.prefixes.empty());
}

TEST_P(StoreWriteConformance, InvalidKeysAndPrefixesAreRejected) {
  for (const std::string& key : kInvalidKeys) {
    SCOPED_TRACE("key of " + std::to_string(key.size()) + " bytes: " + key);
    for (const auto& call : std::vector<std::function<void()>>{
             [&] { store_->set(key, ByteView(std::string("v"))); },
             [&] { store_->erase(key); },
         }) {
      Caught caught = catch_error(call);
      EXPECT_EQ(caught.code, ZARR_ERR_INVALID_ARGUMENT);
      std::string shown = key.find('\0') == std::string::npos ? key : "a\\x00b";
      EXPECT_NE(caught.message.find("'" + shown + "'"), std::string::npos) << caught.message;
    }
  }
  for (const std::string& prefix : kInvalidPrefixes) {
    EXPECT_EQ(catch_error([&] { store_->erase_prefix(prefix); }).code, ZARR_ERR_INVALID_ARGUMENT) << prefix;
  }
  EXPECT_TRUE(store_->list_prefix("").empty());
}

TEST_P(StoreWriteConformance, ManyThreadsWriteDifferentKeysInNewFolders) {
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
          put(*store_, shared_key, shared_key);
          put(*store_, own_key, own_key);
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
  for (const std::string& key : keys) EXPECT_EQ(text(store_->get(key)), key);
}

TEST_P(StoreWriteConformance, ReaderNeverSeesATornValue) {
  put(*store_, "hot", kOldValue);
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0};
  std::atomic<int> reads{0};
  std::thread writer([&] {
    for (int i = 0; i < 400; ++i) put(*store_, "hot", i % 2 ? kOldValue : kNewValue);
    stop = true;
  });
  auto reader = [&] {
    while (!stop) {
      if (!whole(store_->get("hot"))) ++torn;
      // A range read must come from one value too.
      std::string tail = text(store_->get_range("hot", range(kOldValue.size() - 4, 8)));
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

TEST_P(StoreWriteConformance, ConcurrentWritersOfOneKeyLeaveOneOfTheirValues) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) put(*store_, "same", t % 2 ? kOldValue : kNewValue);
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_TRUE(whole(store_->get("same")));
  EXPECT_EQ(store_->list_prefix(""), (Keys{"same"}));
}

TEST_P(StoreWriteConformance, ConcurrentEraseAndSetNeverFail) {
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
        put(*store_, "p/q/k" + std::to_string(i % 3), "v");
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
  put(*store_, "p/q/k0", "last");
  EXPECT_EQ(text(store_->get("p/q/k0")), "last");
}

}  // namespace zarr::conformance
