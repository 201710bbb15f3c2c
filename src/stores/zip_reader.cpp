// Reading an existing zip archive in place through libzip.
//
// The central directory is read once, at open: keys are the names of the
// archive's file entries (folder entries, ending in '/', are not keys; names
// that are not valid keys, such as "../x" or "/abs", are unreachable). When a
// name occurs twice, the later entry wins, as in Python's zipfile. A libzip
// archive is not thread-safe, so every read holds the store's mutex.
#include <sys/stat.h>
#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <mutex>

#include "base/error.h"
#include "base/size_limits.h"
#include "stores/key_rules.h"
#include "stores/sorted_keys.h"
#include "stores/zip_store_internal.h"

namespace zarr::zip {
namespace {

// Values are read in pieces of at most this size, so that an entry whose
// header claims a huge size costs memory only for the bytes really there.
constexpr uint64_t kReadPiece = uint64_t{16} << 20;

struct EntryInfo {
  zip_uint64_t index = 0;
  uint64_t size = 0;  // uncompressed
  uint64_t stored_size = 0;  // compressed: what the entry occupies in the archive
  bool stored = false;  // neither compressed nor encrypted: zip_fseek works
  bool deflated = false;  // compressed with deflate, not encrypted
};

// Why an entry's sizes cannot be those of an entry of an archive of
// `archive_size` bytes ("" when they can): its compressed bytes lie inside
// the archive, a stored entry is as long as its data, and deflate expands
// its input at most kDeflateMaxExpansion times (plus a block's worth). An
// entry claiming more is damaged or built to make readers allocate.
std::string implausible_sizes(const EntryInfo& entry, uint64_t archive_size) {
  const std::string claims = "its header claims " + std::to_string(entry.size) + " bytes from " +
                             std::to_string(entry.stored_size) + " stored bytes";
  if (entry.stored_size > archive_size) {
    return claims + ", more stored bytes than the whole " + std::to_string(archive_size) + "-byte archive";
  }
  if (entry.stored && entry.size != entry.stored_size) return claims + ", but it is stored uncompressed";
  const uint64_t deflate_most = saturating_add(saturating_mul(entry.stored_size, kDeflateMaxExpansion), 1024);
  if (entry.deflated && entry.size > deflate_most) {
    return claims + ", more than deflate can expand them to (" + std::to_string(deflate_most) + ")";
  }
  return "";
}

// What a failed entry open means: features libzip lacks are "unsupported",
// the rest is a damaged archive or a failing disk.
int status_for(int zip_error_code) {
  switch (zip_error_code) {
    case ZIP_ER_COMPNOTSUPP:
    case ZIP_ER_ENCRNOTSUPP:
    case ZIP_ER_NOPASSWD:
      return ZARR_ERR_UNSUPPORTED;
    default:
      return ZARR_ERR_IO;
  }
}

std::string text_of(zip_error_t* error) { return zip_error_strerror(error); }

class ZipReader final : public Store {
 public:
  explicit ZipReader(const std::string& archive);
  ~ZipReader() override { zip_discard(archive_handle_); }  // opened read-only: nothing to write
  ZipReader(const ZipReader&) = delete;
  ZipReader& operator=(const ZipReader&) = delete;

  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    return read(key, ByteRange{}, max_size);
  }
  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    return read(key, range, range_limit(range, value_limit()));
  }
  bool exists(const std::string& key) const override {
    keys::check_key(key);
    return entries_.count(key) != 0;
  }
  void set(const std::string& key, ByteView) override { refuse("set", key); }
  void erase(const std::string& key) override { refuse("erase", key); }
  void erase_prefix(const std::string& prefix) override { refuse("erase prefix", prefix); }
  std::vector<std::string> list_prefix(const std::string& prefix) const override {
    keys::check_prefix(prefix);
    return sorted_keys::list_prefix(entries_, prefix);
  }
  DirListing list_dir(const std::string& prefix) const override {
    return sorted_keys::list_dir(entries_, keys::dir_prefix(prefix));
  }
  // The compressed size, as zarr-python's ZipStore.getsize reports it.
  std::optional<uint64_t> value_size(const std::string& key) const override {
    auto it = entries_.find(key);
    if (it == entries_.end()) return std::nullopt;
    return it->second.stored_size;
  }
  bool writable() const override { return false; }
  std::string describe() const override { return describe_archive(path_); }

 private:
  [[noreturn]] void refuse(const char* operation, const std::string& key) const {
    fail(ZARR_ERR_READ_ONLY, std::string("cannot ") + operation + " " + keys::quote(key) + ": store " +
                                 describe() + " is read-only (zip entries cannot be updated in place; "
                                              "write a new archive instead)");
  }
  [[noreturn]] void fail_entry(const std::string& key, const std::string& why, int code = ZARR_ERR_IO) const {
    fail(code, "cannot read entry " + keys::quote(key) + " of zip archive " + keys::quote(path_) + ": " + why);
  }
  std::optional<Bytes> read(const std::string& key, const ByteRange& range, uint64_t limit) const;
  void index_entries();
  void skip(zip_file_t* file, const EntryInfo& entry, uint64_t offset, const std::string& key) const;
  Bytes read_exactly(zip_file_t* file, uint64_t count, const std::string& key) const;
  void check_at_end(zip_file_t* file, const std::string& key) const;

  std::string path_;
  zip_t* archive_handle_ = nullptr;
  uint64_t archive_size_ = 0;
  std::map<std::string, EntryInfo> entries_;  // immutable after construction
  mutable std::mutex mutex_;                  // guards archive_handle_
};

// zip_open, keeping the system error (ENOENT, EACCES, EISDIR...) that
// zip_open's integer error code leaves out.
zip_t* open_archive(const std::string& archive) {
  zip_error_t error;
  zip_error_init(&error);
  zip_t* handle = nullptr;
  zip_source_t* source = zip_source_file_create(archive.c_str(), 0, -1, &error);
  if (source) {
    handle = zip_open_from_source(source, ZIP_RDONLY, &error);
    if (!handle) zip_source_free(source);
  }
  if (!handle) {
    const int code = zip_error_code_zip(&error);
    const std::string why = text_of(&error);
    zip_error_fini(&error);
    if (code == ZIP_ER_NOENT) fail(ZARR_ERR_NOT_FOUND, "no zip archive at " + keys::quote(archive));
    fail(ZARR_ERR_IO, "cannot open zip archive " + keys::quote(archive) + ": " + why);
  }
  zip_error_fini(&error);
  return handle;
}

ZipReader::ZipReader(const std::string& archive) : path_(archive), archive_handle_(open_archive(archive)) {
  try {
    struct stat st;
    if (::stat(archive.c_str(), &st) != 0) {
      fail(ZARR_ERR_IO, "cannot inspect zip archive " + keys::quote(archive) + ": " +
                            std::system_category().message(errno));
    }
    archive_size_ = static_cast<uint64_t>(st.st_size);
    index_entries();
  } catch (...) {
    zip_discard(archive_handle_);
    throw;
  }
}

void ZipReader::index_entries() {
  zip_int64_t count = zip_get_num_entries(archive_handle_, 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive_handle_, static_cast<zip_uint64_t>(i), 0, &st) != 0) {
      fail(ZARR_ERR_IO, "cannot read entry " + std::to_string(i) + " of zip archive " + keys::quote(path_) + ": " +
                            text_of(zip_get_error(archive_handle_)));
    }
    if (!(st.valid & ZIP_STAT_NAME) || !(st.valid & ZIP_STAT_SIZE)) continue;
    std::string name = st.name;
    if (!keys::is_valid_key(name)) continue;  // folder entries ("a/") among them
    EntryInfo& entry = entries_[name];        // a repeated name: the later entry wins
    entry.index = static_cast<zip_uint64_t>(i);
    entry.size = st.size;
    entry.stored_size = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : st.size;
    const bool plain = (st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method == ZIP_EM_NONE;
    entry.stored = plain && (st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_STORE;
    entry.deflated = plain && (st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method == ZIP_CM_DEFLATE;
  }
}

std::optional<Bytes> ZipReader::read(const std::string& key, const ByteRange& range, uint64_t limit) const {
  keys::check_key(key);
  auto found = entries_.find(key);
  if (found == entries_.end()) return std::nullopt;
  const EntryInfo& entry = found->second;
  if (std::string why = implausible_sizes(entry, archive_size_); !why.empty()) fail_entry(key, why);
  keys::Span span = keys::clip(entry.size, range);
  check_value_size(describe(), key, span.end - span.begin, limit);

  std::lock_guard<std::mutex> lock(mutex_);
  zip_file_t* file = zip_fopen_index(archive_handle_, entry.index, 0);
  if (!file) {
    zip_error_t* error = zip_get_error(archive_handle_);
    fail_entry(key, text_of(error), status_for(zip_error_code_zip(error)));
  }
  std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> closer(file, zip_fclose);
  skip(file, entry, span.begin, key);
  Bytes out = read_exactly(file, span.end - span.begin, key);
  if (span.end == entry.size) check_at_end(file, key);
  return out;
}

// Moves to `offset`: a seek for stored entries, else reading and dropping
// what comes before (compressed data can only be read from its start; a
// failed zip_fseek leaves the file unusable, so it is not tried on them).
void ZipReader::skip(zip_file_t* file, const EntryInfo& entry, uint64_t offset, const std::string& key) const {
  if (offset == 0) return;
  if (entry.stored) {
    if (zip_fseek(file, static_cast<zip_int64_t>(offset), SEEK_SET) != 0) {
      fail_entry(key, text_of(zip_file_get_error(file)));
    }
    return;
  }
  Bytes scratch(static_cast<size_t>(std::min<uint64_t>(offset, kReadPiece)));
  for (uint64_t left = offset; left > 0;) {
    zip_int64_t n = zip_fread(file, scratch.data(), std::min<uint64_t>(left, scratch.size()));
    if (n < 0) fail_entry(key, text_of(zip_file_get_error(file)));
    if (n == 0) fail_entry(key, "it ends before the size its header gives");
    left -= static_cast<uint64_t>(n);
  }
}

Bytes ZipReader::read_exactly(zip_file_t* file, uint64_t count, const std::string& key) const {
  Bytes out;
  while (out.size() < count) {
    size_t done = out.size();
    out.resize(done + static_cast<size_t>(std::min<uint64_t>(count - done, kReadPiece)));
    zip_int64_t n = zip_fread(file, out.data() + done, out.size() - done);
    if (n < 0) fail_entry(key, text_of(zip_file_get_error(file)));
    if (n == 0) fail_entry(key, "it ends before the size its header gives");
    out.resize(done + static_cast<size_t>(n));
  }
  return out;
}

// Reading past the last byte is what makes libzip compare the CRC-32 (and
// the length) of a value read from its start with the archive's record.
void ZipReader::check_at_end(zip_file_t* file, const std::string& key) const {
  char extra = 0;
  zip_int64_t n = zip_fread(file, &extra, 1);
  if (n < 0) fail_entry(key, text_of(zip_file_get_error(file)));
  if (n > 0) fail_entry(key, "it is longer than the size its header gives");
}

}  // namespace

std::shared_ptr<Store> make_reader(const std::string& archive) { return std::make_shared<ZipReader>(archive); }

std::string describe_archive(const std::string& archive) { return archive + "|zip:"; }

std::string error_text(int zip_error_code) {
  zip_error_t error;
  zip_error_init_with_code(&error, zip_error_code);
  std::string text = zip_error_strerror(&error);
  zip_error_fini(&error);
  return text;
}

}  // namespace zarr::zip
