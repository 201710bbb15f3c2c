// Writing a new zip archive through libzip.
//
// Zip entries cannot be replaced in place, so the archive is written whole,
// by flush(). Until then values wait in a spool: an unlinked temporary file
// beside the archive, appended to and never rewritten, with a map from key to
// the latest value's place in it. Memory holds only the keys, whatever the
// size of the data. flush() hands libzip one source per key reading from the
// spool, lets it write the archive to a temporary file, syncs that to disk and
// renames it over the archive: a crash leaves the old archive or none, never
// half of one.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <atomic>
#include <cerrno>
#include <ctime>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <system_error>

#include "base/error.h"
#include "stores/key_rules.h"
#include "stores/sorted_keys.h"
#include "stores/zip_store_internal.h"

namespace zarr::zip {
namespace {

// A zip archive without entries: only the end of central directory record.
// libzip writes no file at all for an empty archive, so this one is ours.
constexpr unsigned char kEmptyArchive[22] = {0x50, 0x4b, 0x05, 0x06};

std::string errno_text(int err) { return std::system_category().message(err); }

std::string folder_of(const std::string& file) {
  std::string folder = std::filesystem::path(file).parent_path().string();
  return folder.empty() ? "." : folder;
}

// Where one value lies in the spool.
struct Extent {
  uint64_t offset = 0;
  uint64_t size = 0;
};

// 0, or the errno of the failing call.
int pwrite_all(int fd, const uint8_t* data, uint64_t size, uint64_t offset) {
  for (uint64_t done = 0; done < size;) {
    ssize_t n = ::pwrite(fd, data + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<uint64_t>(n);
  }
  return 0;
}

int pread_all(int fd, uint8_t* data, uint64_t size, uint64_t offset) {
  for (uint64_t done = 0; done < size;) {
    ssize_t n = ::pread(fd, data + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<uint64_t>(n);
  }
  return 0;
}

// An append-only file nobody else can see: O_TMPFILE where the filesystem
// has it, else a file unlinked right after it is made. Either way it goes
// away with its descriptor, even when the process dies.
class Spool {
 public:
  explicit Spool(const std::string& folder) : fd_(open_unlinked(folder)) {}
  ~Spool() { ::close(fd_); }
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  // Appends value; throws the errno text on failure (the caller names the key).
  Extent append(ByteView value) {
    Extent extent{end_.fetch_add(value.size), value.size};
    if (int err = pwrite_all(fd_, value.data, value.size, extent.offset)) {
      fail(ZARR_ERR_IO, "cannot write to the spool file: " + errno_text(err));
    }
    return extent;
  }

  Bytes read(const Extent& extent, keys::Span span) const {
    Bytes out(static_cast<size_t>(span.end - span.begin));
    if (int err = pread_all(fd_, out.data(), out.size(), extent.offset + span.begin)) {
      fail(ZARR_ERR_IO, "cannot read the spool file: " + errno_text(err));
    }
    return out;
  }

  int fd() const { return fd_; }

 private:
  static int open_unlinked(const std::string& folder) {
    int fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) fail_spool(folder, errno);
    std::string name = folder + "/" + keys::kTempPrefix + "spool.XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0) fail_spool(folder, errno);
    ::unlink(name.c_str());
    return fd;
  }
  [[noreturn]] static void fail_spool(const std::string& folder, int err) {
    fail(ZARR_ERR_IO, "cannot create a spool file in " + keys::quote(folder) + ": " + errno_text(err));
  }

  int fd_;
  std::atomic<uint64_t> end_{0};
};

// ---- libzip source over one spooled value -------------------------------------

struct SpoolSlice {
  int fd;
  Extent extent;
  time_t mtime;
  uint64_t position = 0;
  zip_error_t error;
};

// libzip calls this (a C callback: it must not throw) to read one entry's
// data while it writes the archive.
zip_int64_t read_spool_slice(void* state, void* data, zip_uint64_t length, zip_source_cmd_t command) {
  auto* slice = static_cast<SpoolSlice*>(state);
  switch (command) {
    case ZIP_SOURCE_OPEN:
      slice->position = 0;
      return 0;
    case ZIP_SOURCE_READ: {
      uint64_t n = std::min<uint64_t>(length, slice->extent.size - slice->position);
      if (int err = pread_all(slice->fd, static_cast<uint8_t*>(data), n, slice->extent.offset + slice->position)) {
        zip_error_set(&slice->error, ZIP_ER_READ, err);
        return -1;
      }
      slice->position += n;
      return static_cast<zip_int64_t>(n);
    }
    case ZIP_SOURCE_CLOSE:
      return 0;
    case ZIP_SOURCE_STAT: {
      auto* st = static_cast<zip_stat_t*>(data);
      zip_stat_init(st);
      st->size = slice->extent.size;
      st->mtime = slice->mtime;
      st->valid |= ZIP_STAT_SIZE | ZIP_STAT_MTIME;
      return sizeof(zip_stat_t);
    }
    case ZIP_SOURCE_ERROR:
      return zip_error_to_data(&slice->error, data, length);
    case ZIP_SOURCE_FREE:
      zip_error_fini(&slice->error);
      delete slice;
      return 0;
    case ZIP_SOURCE_SUPPORTS:
      return ZIP_SOURCE_SUPPORTS_READABLE;
    default:
      zip_error_set(&slice->error, ZIP_ER_OPNOTSUPP, 0);
      return -1;
  }
}

// ---- writing the archive --------------------------------------------------------

using EntryMap = std::map<std::string, Extent>;

// A name beside the archive that no other writer uses at the same time.
std::string temp_path_for(const std::string& archive) {
  static std::atomic<unsigned long long> counter{0};
  std::filesystem::path path(archive);
  return (path.parent_path() / (std::string(keys::kTempPrefix) + path.filename().string() + "." +
                                std::to_string(::getpid()) + "." + std::to_string(counter++)))
      .string();
}

void sync_path(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  int err = fd < 0 || ::fsync(fd) != 0 ? errno : 0;
  if (fd >= 0) ::close(fd);
  if (err) fail(ZARR_ERR_IO, "cannot sync " + keys::quote(path) + ": " + errno_text(err));
}

class ArchiveBuilder {
 public:
  ArchiveBuilder(const std::string& temp, const ZipStoreOptions& options) : temp_(temp), options_(options) {
    int error_code = 0;
    handle_ = zip_open(temp.c_str(), ZIP_CREATE | ZIP_EXCL, &error_code);
    if (!handle_) fail(ZARR_ERR_IO, "cannot create " + keys::quote(temp) + ": " + error_text(error_code));
  }
  ~ArchiveBuilder() {
    if (handle_) zip_discard(handle_);
  }
  ArchiveBuilder(const ArchiveBuilder&) = delete;
  ArchiveBuilder& operator=(const ArchiveBuilder&) = delete;

  void add(const std::string& key, int spool_fd, const Extent& extent, time_t mtime) {
    auto* slice = new SpoolSlice{spool_fd, extent, mtime, 0, {}};
    zip_error_init(&slice->error);
    zip_source_t* source = zip_source_function(handle_, read_spool_slice, slice);
    if (!source) {
      zip_error_fini(&slice->error);
      delete slice;
      fail_archive("cannot add entry " + keys::quote(key));
    }
    zip_int64_t index = zip_file_add(handle_, key.c_str(), source, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(source);  // frees the slice too
      fail_archive("cannot add entry " + keys::quote(key));
    }
    const zip_int32_t method = options_.deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE;
    const zip_uint32_t level = options_.deflate ? static_cast<zip_uint32_t>(options_.deflate_level) : 0;
    if (zip_set_file_compression(handle_, static_cast<zip_uint64_t>(index), method, level) != 0) {
      fail_archive("cannot set the compression of entry " + keys::quote(key));
    }
  }

  // Writes the archive to the temporary file (libzip itself goes through a
  // temporary file of its own and renames it there).
  void write(bool empty) {
    if (empty) {
      zip_discard(handle_);
      handle_ = nullptr;
      write_empty_archive();
      return;
    }
    if (zip_close(handle_) != 0) fail_archive("cannot write the archive");
    handle_ = nullptr;
  }

 private:
  [[noreturn]] void fail_archive(const std::string& what) {
    fail(ZARR_ERR_IO, what + ": " + zip_strerror(handle_));
  }
  void write_empty_archive() {
    int fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    int err = fd < 0 ? errno : pwrite_all(fd, kEmptyArchive, sizeof kEmptyArchive, 0);
    if (fd >= 0 && ::close(fd) != 0 && !err) err = errno;
    if (err) fail(ZARR_ERR_IO, "cannot write " + keys::quote(temp_) + ": " + errno_text(err));
  }

  std::string temp_;
  ZipStoreOptions options_;
  zip_t* handle_ = nullptr;
};

// Writes `entries` as a complete archive at `archive`, through a temporary
// file synced and renamed into place. Leaves no temporary file behind.
void write_archive(const std::string& archive, const EntryMap& entries, int spool_fd,
                   const ZipStoreOptions& options) {
  const std::string temp = temp_path_for(archive);
  try {
    ArchiveBuilder builder(temp, options);
    const time_t now = std::time(nullptr);
    for (const auto& [key, extent] : entries) builder.add(key, spool_fd, extent, now);
    builder.write(entries.empty());
    sync_path(temp, O_RDONLY);
    if (::rename(temp.c_str(), archive.c_str()) != 0) {
      fail(ZARR_ERR_IO, "cannot rename " + keys::quote(temp) + " to it: " + errno_text(errno));
    }
    sync_path(folder_of(archive), O_RDONLY | O_DIRECTORY);
  } catch (const Error& e) {
    ::unlink(temp.c_str());
    fail(e.code(), "cannot write zip archive " + keys::quote(archive) + ": " + e.what());
  }
}

// ---- the store --------------------------------------------------------------------

class ZipWriter final : public Store {
 public:
  ZipWriter(std::string archive, const ZipStoreOptions& options)
      : path_(std::move(archive)), options_(options), spool_(folder_of(path_)) {}
  // A store dropped without a flush since its last change (not through the C
  // API, which flushes) still writes its archive; errors cannot be reported
  // from here, so they are dropped. A flush that failed and was reported is
  // not tried again.
  ~ZipWriter() override {
    if (version_ == written_version_ || failed_version_ == version_) return;
    try {
      write_archive(path_, entries_, spool_.fd(), options_);
    } catch (...) {  // NOLINT(bugprone-empty-catch): nobody to tell
    }
  }

  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    return read(key, ByteRange{}, max_size);
  }
  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    return read(key, range, range_limit(range, value_limit()));
  }
  bool exists(const std::string& key) const override {
    keys::check_key(key);
    std::shared_lock lock(mutex_);
    return entries_.count(key) != 0;
  }
  void set(const std::string& key, ByteView value) override;
  void erase(const std::string& key) override {
    keys::check_key(key);
    std::unique_lock lock(mutex_);
    if (entries_.erase(key)) ++version_;
  }
  void erase_prefix(const std::string& prefix) override {
    keys::check_prefix(prefix);
    std::unique_lock lock(mutex_);
    size_t before = entries_.size();
    sorted_keys::erase_prefix(entries_, prefix);
    if (entries_.size() != before) ++version_;
  }
  std::vector<std::string> list_prefix(const std::string& prefix) const override {
    keys::check_prefix(prefix);
    std::shared_lock lock(mutex_);
    return sorted_keys::list_prefix(entries_, prefix);
  }
  DirListing list_dir(const std::string& prefix) const override {
    std::string dir = keys::dir_prefix(prefix);
    std::shared_lock lock(mutex_);
    return sorted_keys::list_dir(entries_, dir);
  }
  void flush() override;
  std::string describe() const override { return describe_archive(path_); }

 private:
  std::optional<Bytes> read(const std::string& key, const ByteRange& range, uint64_t limit) const;

  std::string path_;
  ZipStoreOptions options_;
  Spool spool_;
  mutable std::shared_mutex mutex_;  // guards entries_ and version_
  EntryMap entries_;
  uint64_t version_ = 0;  // bumped by every change
  std::mutex flush_mutex_;  // one archive write at a time; guards the two below
  uint64_t written_version_ = 0;
  std::optional<uint64_t> failed_version_;
};

std::optional<Bytes> ZipWriter::read(const std::string& key, const ByteRange& range, uint64_t limit) const {
  keys::check_key(key);
  Extent extent;
  {
    std::shared_lock lock(mutex_);
    auto found = entries_.find(key);
    if (found == entries_.end()) return std::nullopt;
    extent = found->second;
  }
  const keys::Span span = keys::clip(extent.size, range);
  check_value_size(describe(), key, span.end - span.begin, limit);
  // Spooled bytes are never overwritten, so they are read without the lock.
  try {
    return spool_.read(extent, span);
  } catch (const Error& e) {
    fail(e.code(), "cannot read key " + keys::quote(key) + " of " + describe() + ": " + e.what());
  }
}

void ZipWriter::set(const std::string& key, ByteView value) {
  keys::check_key(key);
  Extent extent;
  try {
    extent = spool_.append(value);
  } catch (const Error& e) {
    fail(e.code(), "cannot set key " + keys::quote(key) + " in " + describe() + ": " + e.what());
  }
  // Published once written, so readers never see a value being written;
  // a key written twice keeps the value published last.
  std::unique_lock lock(mutex_);
  entries_[key] = extent;
  ++version_;
}

void ZipWriter::flush() {
  std::lock_guard<std::mutex> flushing(flush_mutex_);
  EntryMap snapshot;
  uint64_t version = 0;
  {
    std::shared_lock lock(mutex_);
    if (version_ == written_version_) return;
    snapshot = entries_;
    version = version_;
  }
  // Writes during the archive's writing bump version_: a later flush writes them.
  try {
    write_archive(path_, snapshot, spool_.fd(), options_);
  } catch (...) {
    failed_version_ = version;
    throw;
  }
  written_version_ = version;
}

}  // namespace

std::shared_ptr<Store> make_writer(const std::string& archive, const ZipStoreOptions& options) {
  return std::make_shared<ZipWriter>(archive, options);
}

}  // namespace zarr::zip
