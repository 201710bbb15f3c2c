// Zip store behaviour beyond the conformance suite: when the archive is
// written, what is refused, what a damaged archive gives, and archives made
// with libzip directly (folder entries, names that are not keys, zip64).
#include <sys/resource.h>
#include <sys/stat.h>
#include <zip.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/error.h"
#include "stores/zip_store.h"
#include "stores/store_conformance.h"
#include "support/test_support.h"

namespace zarr {
namespace {

namespace fs = std::filesystem;
using Keys = std::vector<std::string>;

using test::Caught;
using test::catch_error;

using conformance::text;

void put(Store& store, const std::string& key, const std::string& value) { store.set(key, ByteView(value)); }

// Names of the files and folders directly in `dir`, sorted.
Keys folder_listing(const std::string& dir) {
  Keys names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::shared_ptr<Store> writer(const std::string& archive, const ZipStoreOptions& options = {}) {
  return open_zip_store(archive, true, options);
}

std::shared_ptr<Store> reader(const std::string& archive) { return open_zip_store(archive, false, {}); }

// Compression method of each entry, read with libzip.
std::map<std::string, int> entry_methods(const std::string& archive) {
  std::map<std::string, int> out;
  int error = 0;
  zip_t* handle = zip_open(archive.c_str(), ZIP_RDONLY, &error);
  EXPECT_NE(handle, nullptr) << "libzip cannot open " << archive << ": error " << error;
  if (!handle) return out;
  for (zip_int64_t i = 0; i < zip_get_num_entries(handle, 0); ++i) {
    zip_stat_t st;
    if (zip_stat_index(handle, static_cast<zip_uint64_t>(i), 0, &st) == 0) out[st.name] = st.comp_method;
  }
  zip_discard(handle);
  return out;
}

// An archive with exactly these entries, stored, written with libzip directly.
void make_archive(const std::string& archive, const std::vector<std::pair<std::string, std::string>>& entries) {
  int error = 0;
  zip_t* handle = zip_open(archive.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  ASSERT_NE(handle, nullptr);
  for (const auto& [name, value] : entries) {
    if (!name.empty() && name.back() == '/') {
      ASSERT_GE(zip_dir_add(handle, name.c_str(), ZIP_FL_ENC_UTF_8), 0) << zip_strerror(handle);
      continue;
    }
    zip_source_t* source = zip_source_buffer(handle, value.data(), value.size(), 0);
    ASSERT_NE(source, nullptr);
    zip_int64_t index = zip_file_add(handle, name.c_str(), source, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    ASSERT_GE(index, 0) << zip_strerror(handle);
    ASSERT_EQ(zip_set_file_compression(handle, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0), 0);
  }
  ASSERT_EQ(zip_close(handle), 0) << zip_strerror(handle);
}

class ZipStoreTest : public ::testing::Test {
 protected:
  std::string archive() const { return dir_ / "a.zip"; }
  test::TempDir dir_;
};

// ---- when the archive is written ------------------------------------------------------

TEST_F(ZipStoreTest, ArchiveIsWrittenOnFlushAndSpoolLeavesNoFile) {
  std::shared_ptr<Store> store = writer(archive());
  put(*store, "g/k", "value");
  EXPECT_TRUE(folder_listing(dir_.path()).empty()) << "the spool file must be invisible";
  EXPECT_EQ(text(store->get("g/k")), "value");
  store->flush();
  EXPECT_EQ(folder_listing(dir_.path()), (Keys{"a.zip"}));  // no temporary file left either
  EXPECT_EQ(store->describe(), archive() + "|zip:");
  store.reset();
  EXPECT_EQ(text(reader(archive())->get("g/k")), "value");
}

TEST_F(ZipStoreTest, FlushWithoutChangesWritesNothing) {
  std::shared_ptr<Store> store = writer(archive());
  store->flush();
  store->erase("absent");
  store->erase_prefix("");
  store->flush();
  store.reset();
  EXPECT_FALSE(fs::exists(archive())) << "nothing was written: no archive";

  store = writer(archive());
  put(*store, "k", "v");
  store->flush();
  struct stat first;
  ASSERT_EQ(::stat(archive().c_str(), &first), 0);
  store->flush();  // no change since: the same file stays
  struct stat second;
  ASSERT_EQ(::stat(archive().c_str(), &second), 0);
  EXPECT_EQ(first.st_ino, second.st_ino);
}

TEST_F(ZipStoreTest, LaterChangesReplaceTheArchiveWhole) {
  std::shared_ptr<Store> store = writer(archive());
  put(*store, "a", "1");
  put(*store, "gone", "x");
  store->flush();
  struct stat first;
  ASSERT_EQ(::stat(archive().c_str(), &first), 0);
  put(*store, "b", "2");
  store->erase("gone");
  store->flush();
  struct stat second;
  ASSERT_EQ(::stat(archive().c_str(), &second), 0);
  EXPECT_NE(first.st_ino, second.st_ino) << "a new file renamed into place, not an update";
  store.reset();
  EXPECT_EQ(reader(archive())->list_prefix(""), (Keys{"a", "b"}));
}

TEST_F(ZipStoreTest, KeyWrittenTwiceIsOneEntryWithTheLastValue) {
  std::shared_ptr<Store> store = writer(archive());
  put(*store, "k", "first, longer value");
  put(*store, "k", "last");
  store.reset();  // the destructor writes what was never flushed
  EXPECT_EQ(entry_methods(archive()).size(), 1u);
  EXPECT_EQ(text(reader(archive())->get("k")), "last");
}

TEST_F(ZipStoreTest, EntriesAreStoredByDefaultAndDeflatedOnRequest) {
  const std::string compressible(10000, 'z');
  std::shared_ptr<Store> store = writer(archive());
  put(*store, "k", compressible);
  store.reset();
  EXPECT_EQ(entry_methods(archive()), (std::map<std::string, int>{{"k", ZIP_CM_STORE}}));
  EXPECT_GT(fs::file_size(archive()), compressible.size());

  ZipStoreOptions deflate;
  deflate.deflate = true;
  deflate.deflate_level = 9;
  const std::string deflated = dir_ / "d.zip";
  store = writer(deflated, deflate);
  put(*store, "k", compressible);
  store.reset();
  EXPECT_EQ(entry_methods(deflated), (std::map<std::string, int>{{"k", ZIP_CM_DEFLATE}}));
  EXPECT_LT(fs::file_size(deflated), 1000u);
  EXPECT_TRUE(text(reader(deflated)->get("k")) == compressible);
}

TEST_F(ZipStoreTest, AnArchiveWithEverythingErasedIsAValidEmptyArchive) {
  std::shared_ptr<Store> store = writer(archive());
  put(*store, "k", "v");
  store->flush();
  store->erase("k");
  store->flush();  // libzip would remove the file: an empty archive replaces it instead
  store.reset();
  ASSERT_TRUE(fs::exists(archive()));
  EXPECT_EQ(fs::file_size(archive()), 22u);  // the end of central directory record alone
  EXPECT_TRUE(entry_methods(archive()).empty());
  EXPECT_TRUE(reader(archive())->list_prefix("").empty());
}

// ---- one writer per archive -------------------------------------------------------------

TEST_F(ZipStoreTest, OpensOfAnArchiveBeingWrittenShareItsWriter) {
  std::shared_ptr<Store> first = writer(archive());
  put(*first, "k", "v");
  EXPECT_EQ(writer(archive()), first);
  EXPECT_EQ(writer(dir_ / "./sub/../a.zip"), first) << "another spelling of the same file";
  EXPECT_EQ(reader(archive()), first) << "readers see what is being written";
  EXPECT_EQ(text(reader(archive())->get("k")), "v");
  first.reset();
  // The writer is gone and its archive written: a new open reads that.
  std::shared_ptr<Store> later = reader(archive());
  EXPECT_FALSE(later->writable());
  EXPECT_EQ(text(later->get("k")), "v");
}

TEST_F(ZipStoreTest, AnExistingArchiveCannotBeOpenedForWriting) {
  make_archive(archive(), {{"k", "v"}});
  const auto before = fs::last_write_time(archive());
  Caught caught = catch_error([&] { writer(archive()); });
  EXPECT_EQ(caught.code, ZARR_ERR_READ_ONLY);
  EXPECT_NE(caught.message.find("'" + archive() + "'"), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find("cannot be updated in place"), std::string::npos) << caught.message;
  EXPECT_EQ(fs::last_write_time(archive()), before);
  EXPECT_EQ(text(reader(archive())->get("k")), "v");
}

TEST_F(ZipStoreTest, ReadOnlyArchiveExplainsWhyWritesAreRefused) {
  make_archive(archive(), {{"k", "v"}});
  Caught caught = catch_error([&] { put(*reader(archive()), "k", "new"); });
  EXPECT_EQ(caught.code, ZARR_ERR_READ_ONLY);
  EXPECT_NE(caught.message.find("'k'"), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find("cannot be updated in place"), std::string::npos) << caught.message;
}

// ---- failures ------------------------------------------------------------------------------

TEST_F(ZipStoreTest, AFailedWriteIsReportedAndLeavesNoTemporaryFile) {
  std::shared_ptr<Store> store = writer(archive());
  put(*store, "k", "v");
  fs::create_directory(archive());  // something else took the archive's name
  Caught caught = catch_error([&] { store->flush(); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("'" + archive() + "'"), std::string::npos) << caught.message;
  EXPECT_EQ(folder_listing(dir_.path()), (Keys{"a.zip"}));
  EXPECT_TRUE(fs::is_empty(archive()));
  // The values are still there: once the way is clear, the archive is written.
  fs::remove(archive());
  store->flush();
  store.reset();
  EXPECT_EQ(text(reader(archive())->get("k")), "v");
}

TEST_F(ZipStoreTest, AReportedFailureIsNotRetriedByTheDestructor) {
  std::shared_ptr<Store> store = writer(archive());
  put(*store, "k", "v");
  fs::create_directory(archive());
  EXPECT_EQ(catch_error([&] { store->flush(); }).code, ZARR_ERR_IO);
  fs::remove(archive());
  store.reset();
  EXPECT_FALSE(fs::exists(archive())) << "the caller was told the archive was not written";
}

TEST_F(ZipStoreTest, WriterInAMissingFolderIsAnIoErrorNamingIt) {
  Caught caught = catch_error([&] { writer(dir_ / "no/such/a.zip"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find(dir_ / "no/such"), std::string::npos) << caught.message;
}

TEST_F(ZipStoreTest, BadArchivesAreErrorsNamingThem) {
  Caught missing = catch_error([&] { reader(archive()); });
  EXPECT_EQ(missing.code, ZARR_ERR_NOT_FOUND);
  EXPECT_NE(missing.message.find("'" + archive() + "'"), std::string::npos) << missing.message;

  test::write_file(dir_ / "text.zip", ByteView(std::string("this is not a zip archive at all, not even close")));
  Caught not_zip = catch_error([&] { reader(dir_ / "text.zip"); });
  EXPECT_EQ(not_zip.code, ZARR_ERR_IO);
  EXPECT_NE(not_zip.message.find(dir_ / "text.zip"), std::string::npos) << not_zip.message;

  fs::create_directory(dir_ / "folder.zip");
  EXPECT_EQ(catch_error([&] { reader(dir_ / "folder.zip"); }).code, ZARR_ERR_IO);

  make_archive(archive(), {{"k", std::string(5000, 'x')}});
  Bytes whole = test::read_file(archive());
  test::write_file(dir_ / "cut.zip", ByteView(whole.data(), whole.size() / 2));
  EXPECT_EQ(catch_error([&] { reader(dir_ / "cut.zip"); }).code, ZARR_ERR_IO);

  EXPECT_EQ(catch_error([&] { reader(""); }).code, ZARR_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(catch_error([&] { reader(std::string("a\0.zip", 6)); }).code, ZARR_ERR_INVALID_ARGUMENT);
  ZipStoreOptions bad_level;
  bad_level.deflate = true;
  bad_level.deflate_level = 10;
  EXPECT_EQ(catch_error([&] { writer(dir_ / "b.zip", bad_level); }).code, ZARR_ERR_INVALID_ARGUMENT);
}

TEST_F(ZipStoreTest, CorruptedDataIsAnIoErrorNamingTheEntry) {
  const std::string value(4096, 'q');
  make_archive(archive(), {{"k", value}});
  Bytes bytes = test::read_file(archive());
  auto at = std::search(bytes.begin(), bytes.end(), value.begin(), value.begin() + 64);
  ASSERT_NE(at, bytes.end());
  at[100] = 'Q';  // inside the stored data: only the CRC-32 can tell
  test::write_file(archive(), ByteView(bytes));
  std::shared_ptr<Store> store = reader(archive());
  Caught caught = catch_error([&] { store->get("k"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("'k'"), std::string::npos) << caught.message;
  EXPECT_NE(caught.message.find("CRC"), std::string::npos) << caught.message;
}

// Offsets of the first local and central directory headers of an archive,
// for tests that damage one field of its only entry.
struct Headers {
  size_t local = 0;
  size_t central = 0;
};

Headers find_headers(const Bytes& bytes) {
  const std::string local = "PK\x03\x04", central = "PK\x01\x02";
  Headers h;
  h.local = static_cast<size_t>(std::search(bytes.begin(), bytes.end(), local.begin(), local.end()) - bytes.begin());
  h.central =
      static_cast<size_t>(std::search(bytes.begin(), bytes.end(), central.begin(), central.end()) - bytes.begin());
  EXPECT_LT(h.central, bytes.size());
  return h;
}

void put_u16(Bytes& bytes, size_t at, uint16_t v) {
  bytes[at] = static_cast<uint8_t>(v);
  bytes[at + 1] = static_cast<uint8_t>(v >> 8);
}

void put_u32(Bytes& bytes, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// A one-entry archive ("k": 4096 bytes) with `damage` applied to its bytes.
std::shared_ptr<Store> damaged_archive(const std::string& archive, const std::function<void(Bytes&, Headers)>& damage) {
  make_archive(archive, {{"k", std::string(4096, 'q')}});
  Bytes bytes = test::read_file(archive);
  damage(bytes, find_headers(bytes));
  test::write_file(archive, ByteView(bytes));
  return reader(archive);
}

TEST_F(ZipStoreTest, EncryptedEntriesAndUnknownMethodsAreUnsupported) {
  // General purpose flag bit 0: traditional PKWARE encryption, no password given.
  std::shared_ptr<Store> encrypted = damaged_archive(archive(), [](Bytes& b, Headers h) {
    put_u16(b, h.local + 6, 1);
    put_u16(b, h.central + 8, 1);
  });
  Caught caught = catch_error([&] { encrypted->get("k"); });
  EXPECT_EQ(caught.code, ZARR_ERR_UNSUPPORTED);
  EXPECT_NE(caught.message.find("entry 'k' of zip archive '" + archive() + "'"), std::string::npos) << caught.message;

  // Compression method 97 (WavPack): not one libzip decodes.
  std::shared_ptr<Store> unknown = damaged_archive(dir_ / "m.zip", [](Bytes& b, Headers h) {
    put_u16(b, h.local + 8, 97);
    put_u16(b, h.central + 10, 97);
  });
  caught = catch_error([&] { unknown->get_range("k", ByteRange{0, 10, std::nullopt}); });
  EXPECT_EQ(caught.code, ZARR_ERR_UNSUPPORTED);
  EXPECT_NE(caught.message.find("'k'"), std::string::npos) << caught.message;
}

TEST_F(ZipStoreTest, SizesThatDisagreeWithTheDataAreIoErrors) {
  for (uint32_t claimed : {4096u * 2, 4096u / 2}) {
    SCOPED_TRACE("claimed size " + std::to_string(claimed));
    std::shared_ptr<Store> store = damaged_archive(dir_ / ("s" + std::to_string(claimed) + ".zip"), [&](Bytes& b, Headers h) {
      put_u32(b, h.local + 22, claimed);
      put_u32(b, h.central + 24, claimed);
    });
    Caught caught = catch_error([&] { store->get("k"); });
    EXPECT_EQ(caught.code, ZARR_ERR_IO);
    EXPECT_NE(caught.message.find("'k'"), std::string::npos) << caught.message;
  }
}

// An entry whose header claims more than its data can hold is an I/O error
// naming it before anything is read, so no reader sizes its memory by the
// claim: more than deflate expands its compressed bytes to, or more
// compressed bytes than the whole archive has.
TEST_F(ZipStoreTest, EntriesClaimingMoreThanTheirDataCanHoldAreIoErrors) {
  ZipStoreOptions deflate;
  deflate.deflate = true;
  struct Claim {
    const char* what;
    size_t local_offset, central_offset;  // of the size field in the two headers
    uint32_t value;
    const char* why;
  };
  const Claim claims[] = {
      {"uncompressed size", 22, 24, uint32_t{1} << 30, "more than deflate can expand them to"},
      {"compressed size", 18, 20, uint32_t{1} << 30, "more stored bytes than the whole"},
  };
  for (const Claim& claim : claims) {
    SCOPED_TRACE(claim.what);
    const std::string path = dir_ / (std::string(claim.what).substr(0, 4) + ".zip");
    std::shared_ptr<Store> store = writer(path, deflate);
    put(*store, "k", std::string(4096, 'q'));
    store.reset();
    Bytes bytes = test::read_file(path);
    const Headers h = find_headers(bytes);
    put_u32(bytes, h.local + claim.local_offset, claim.value);
    put_u32(bytes, h.central + claim.central_offset, claim.value);
    test::write_file(path, ByteView(bytes));
    Caught caught = catch_error([&] { reader(path)->get("k"); });
    EXPECT_EQ(caught.code, ZARR_ERR_IO) << caught.message;
    EXPECT_NE(caught.message.find("entry 'k'"), std::string::npos) << caught.message;
    EXPECT_NE(caught.message.find(claim.why), std::string::npos) << caught.message;
  }
  // An entry whose local header lies past the archive's end: libzip finds no
  // header there when the entry is read.
  const std::string path = dir_ / "offset.zip";
  make_archive(path, {{"k", "value"}});
  Bytes bytes = test::read_file(path);
  put_u32(bytes, find_headers(bytes).central + 42, 1u << 30);
  test::write_file(path, ByteView(bytes));
  Caught caught = catch_error([&] { reader(path)->get("k"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO) << caught.message;
  EXPECT_NE(caught.message.find("'k'"), std::string::npos) << caught.message;
}

// A real zip bomb (16 MiB of zeros in a few KiB) is refused by its size
// against the read's limit before it is inflated.
TEST_F(ZipStoreTest, AnEntryOverTheReadsLimitIsNotInflated) {
  ZipStoreOptions deflate;
  deflate.deflate = true;
  std::shared_ptr<Store> store = writer(archive(), deflate);
  put(*store, "k", std::string(16 << 20, '\0'));
  store.reset();
  EXPECT_LT(fs::file_size(archive()), 100000u);
  store = reader(archive());
  store->set_value_limit(1 << 20);
  for (const std::function<void()>& read : std::vector<std::function<void()>>{
           [&] { store->get("k"); }, [&] { store->get("k", 1000); }, [&] { store->get_range("k", ByteRange{}); }}) {
    Caught caught = catch_error(read);
    EXPECT_EQ(caught.code, ZARR_ERR_IO) << caught.message;
    EXPECT_NE(caught.message.find("(it holds 16777216 bytes)"), std::string::npos) << caught.message;
  }
  EXPECT_EQ(store->get_range("k", ByteRange{100, 10, std::nullopt})->size(), 10u);
}

TEST_F(ZipStoreTest, CorruptedDeflatedDataIsAnIoErrorEvenForARange) {
  ZipStoreOptions deflate;
  deflate.deflate = true;
  std::string value;
  for (int i = 0; i < 20000; ++i) value += std::to_string(i * 7919 % 10007);
  std::shared_ptr<Store> store = writer(archive(), deflate);
  put(*store, "k", value);
  store.reset();
  Bytes bytes = test::read_file(archive());
  Headers h = find_headers(bytes);
  for (size_t i = h.local + 60; i < h.local + 260; ++i) bytes[i] ^= 0x5a;  // inside the deflate stream
  test::write_file(archive(), ByteView(bytes));
  store = reader(archive());
  for (const ByteRange& range : {ByteRange{}, ByteRange{50000, 10, std::nullopt}}) {
    Caught caught = catch_error([&] { store->get_range("k", range); });
    EXPECT_EQ(caught.code, ZARR_ERR_IO) << caught.message;
    EXPECT_NE(caught.message.find("'k'"), std::string::npos) << caught.message;
  }
}

TEST_F(ZipStoreTest, ArchivePathBelowAFileIsAnIoError) {
  test::write_file(dir_ / "file", ByteView(std::string("x")));
  Caught caught = catch_error([&] { writer(dir_ / "file/a.zip"); });
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find(dir_ / "file/a.zip"), std::string::npos) << caught.message;
}

// The file size limit (RLIMIT_FSIZE, which binds root too) stands in for a
// full disk: writes past it fail with EFBIG instead of killing the process.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    ::getrlimit(RLIMIT_FSIZE, &previous_);
    struct rlimit limit = previous_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, previous_handler_);
  }

 private:
  struct rlimit previous_;
  void (*previous_handler_)(int);
};

TEST_F(ZipStoreTest, ADiskFullWhileSpoolingIsAnIoErrorNamingTheKey) {
  std::shared_ptr<Store> store = writer(archive());
  Caught caught;
  {
    FileSizeLimit limit(64 * 1024);
    caught = catch_error([&] { put(*store, "big", std::string(100 * 1024, 'x')); });
  }
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("'big'"), std::string::npos) << caught.message;
  EXPECT_FALSE(store->exists("big"));
  put(*store, "small", "still works");
  EXPECT_EQ(text(store->get("small")), "still works");
}

TEST_F(ZipStoreTest, ADiskFullWhileWritingTheArchiveLeavesNothingBehind) {
  const std::string value(100000, 'x');
  std::shared_ptr<Store> store = writer(archive());
  put(*store, "k", value);
  Caught caught;
  {
    FileSizeLimit limit(value.size() + 10);  // the spool fits, the archive (with headers) does not
    caught = catch_error([&] { store->flush(); });
  }
  EXPECT_EQ(caught.code, ZARR_ERR_IO);
  EXPECT_NE(caught.message.find("'" + archive() + "'"), std::string::npos) << caught.message;
  EXPECT_TRUE(folder_listing(dir_.path()).empty()) << "no archive and no temporary file";
  store->flush();  // room again: the values are still there
  store.reset();
  EXPECT_TRUE(text(reader(archive())->get("k")) == value);
}

// ---- archives other writers make -----------------------------------------------------------

TEST_F(ZipStoreTest, FolderEntriesAndNamesThatAreNotKeysAreSkipped) {
  make_archive(archive(), {{"root.zarr/", ""},
                           {"root.zarr/.zgroup", "{}"},
                           {"root.zarr/arr/", ""},
                           {"root.zarr/arr/0", "chunk"},
                           {"../evil", "x"},
                           {"/absolute", "x"},
                           {"a//b", "x"},
                           {"./dot", "x"}});
  std::shared_ptr<Store> store = reader(archive());
  EXPECT_EQ(store->list_prefix(""), (Keys{"root.zarr/.zgroup", "root.zarr/arr/0"}));
  EXPECT_EQ(store->list_dir("").prefixes, (Keys{"root.zarr"}));
  EXPECT_TRUE(store->list_dir("").keys.empty());
  EXPECT_FALSE(store->exists("root.zarr/arr"));
}

TEST_F(ZipStoreTest, Zip64ArchivesWithManyEntriesReadAndWrite) {
  constexpr int kEntries = 66000;  // more than a plain zip's 65535
  std::shared_ptr<Store> store = writer(archive());
  for (int i = 0; i < kEntries; ++i) put(*store, "c/" + std::to_string(i), std::to_string(i * 3));
  store.reset();
  Bytes bytes = test::read_file(archive());
  const std::string zip64_end = "PK\x06\x06";
  EXPECT_NE(std::search(bytes.begin(), bytes.end(), zip64_end.begin(), zip64_end.end()), bytes.end())
      << "expected a zip64 end of central directory record";
  store = reader(archive());
  EXPECT_EQ(store->list_prefix("c/").size(), static_cast<size_t>(kEntries));
  EXPECT_EQ(text(store->get("c/65999")), std::to_string(65999 * 3));
  EXPECT_EQ(text(store->get("c/0")), "0");
}

}  // namespace
}  // namespace zarr
