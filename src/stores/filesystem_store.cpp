// Filesystem store: one file per key under a root directory.
//
// Writes never modify a published file: each value goes to a fresh temporary
// file in the target's directory and is renamed over the target, so a reader
// that opened the old file keeps reading it whole and later readers see the
// new one. The store keeps no mutable state of its own (besides a counter for
// temporary names), so its thread safety is the kernel's.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <system_error>
#include <thread>

#include "core/error.h"
#include "stores/key_rules.h"
#include "stores/store.h"

namespace zarr {
namespace {

// A write retries from scratch when a concurrent erase removed its directory
// or its temporary file in between; this bounds pathological races.
constexpr int kMaxWriteAttempts = 64;
// Deeper trees are taken for a symlink loop when listing.
constexpr int kMaxListDepth = 128;

std::string errno_message(int err) { return std::system_category().message(err); }

[[noreturn]] void fail_io(const char* action, const std::string& file, int err) {
  fail(ZARR_ERR_IO, std::string("cannot ") + action + " " + keys::quote(file) + ": " + errno_message(err));
}

// Closes its descriptor however the scope is left.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = other.fd_;
      other.fd_ = -1;
    }
    return *this;
  }
  int get() const { return fd_; }
  // Close now and report failure: for written files a failing close can be
  // the only sign that the data did not make it (NFS, quotas). EINTR still
  // closes the descriptor on Linux, so it is not a failure.
  int close_checked() {
    int result = ::close(fd_);
    fd_ = -1;
    return result == 0 || errno == EINTR ? 0 : errno;
  }

 private:
  int fd_;
};

// "dir/name" -> "dir"; "/name" -> "/"; "name" -> "" (the working directory).
std::string parent_dir(const std::string& path) {
  size_t slash = path.find_last_not_of('/');
  slash = slash == std::string::npos ? std::string::npos : path.rfind('/', slash);
  if (slash == std::string::npos) return "";
  size_t end = path.find_last_not_of('/', slash);
  return end == std::string::npos ? "/" : path.substr(0, end + 1);
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

std::string join_key(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

// Splits a prefix into the directory it lies in and the start of the names
// it matches there: "a/b/c" -> {"a/b", "c"}; "a/b/" -> {"a/b", ""}; "c" -> {"", "c"}.
std::pair<std::string, std::string> split_prefix(const std::string& prefix) {
  size_t slash = prefix.rfind('/');
  if (slash == std::string::npos) return {"", prefix};
  return {prefix.substr(0, slash), prefix.substr(slash + 1)};
}

// ---- directory reading -------------------------------------------------------

enum class Kind { kFile, kDir, kOther };

struct Entry {
  std::string name;
  Kind kind;
};

Kind kind_of(mode_t mode) {
  if (S_ISREG(mode)) return Kind::kFile;
  if (S_ISDIR(mode)) return Kind::kDir;
  return Kind::kOther;
}

// The entries of a directory other than "." and ".."; a missing directory (or
// a file where it should be) has none. Symbolic links are resolved, so a link
// to a file is a file; a dangling link is kOther.
std::vector<Entry> read_entries(const std::string& dir) {
  std::vector<Entry> out;
  DIR* handle = ::opendir(dir.empty() ? "." : dir.c_str());
  if (!handle) {
    if (errno == ENOENT || errno == ENOTDIR) return out;
    fail_io("list directory", dir, errno);
  }
  std::unique_ptr<DIR, int (*)(DIR*)> closer(handle, ::closedir);
  for (;;) {
    errno = 0;
    const dirent* item = ::readdir(handle);
    if (!item) {
      if (errno != 0) fail_io("list directory", dir, errno);
      return out;
    }
    std::string name = item->d_name;
    if (name == "." || name == "..") continue;
    Kind kind = item->d_type == DT_REG ? Kind::kFile : item->d_type == DT_DIR ? Kind::kDir : Kind::kOther;
    if (item->d_type == DT_LNK || item->d_type == DT_UNKNOWN) {
      struct stat st;
      // Vanished meanwhile (a concurrent erase) or dangling: not a key.
      kind = ::fstatat(::dirfd(handle), item->d_name, &st, 0) == 0 ? kind_of(st.st_mode) : Kind::kOther;
    }
    out.push_back({std::move(name), kind});
  }
}

// ---- removal -----------------------------------------------------------------

std::vector<std::string> entry_names(const std::string& dir) {
  std::vector<std::string> names;
  for (Entry& entry : read_entries(dir)) names.push_back(std::move(entry.name));
  return names;
}

// Removes a file, a symbolic link (not its target) or a whole directory tree.
// Entries removed concurrently by someone else are fine. A directory that is
// not empty after removing everything listed in it got new keys from
// concurrent writers, which count as written after this erase: it stays.
void remove_tree(const std::string& path) {
  if (::unlink(path.c_str()) == 0 || errno == ENOENT) return;
  // Linux says EISDIR for a directory, POSIX EPERM.
  if (errno != EISDIR && errno != EPERM) fail_io("remove", path, errno);
  for (const std::string& name : entry_names(path)) remove_tree(path + "/" + name);
  if (::rmdir(path.c_str()) == 0 || errno == ENOENT || errno == ENOTEMPTY || errno == EEXIST) return;
  fail_io("remove directory", path, errno);
}

// ---- writing -----------------------------------------------------------------

[[noreturn]] void fail_not_a_dir(const std::string& dir) {
  fail(ZARR_ERR_IO, "cannot create directory " + keys::quote(dir) + ": a non-directory is in the way");
}

// Creates dir and its missing ancestors. Several threads may create the same
// directories at once: losing a mkdir race (EEXIST) is success as long as a
// directory is what won. A concurrent erase may remove a freshly made
// ancestor before its child is made (ENOENT): then make it again.
void make_dirs(const std::string& dir) {
  if (dir.empty()) return;
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return;
    fail_not_a_dir(dir);
  }
  // ENOTDIR: some ancestor is not a directory; the recursion names it.
  if (errno != ENOENT && errno != ENOTDIR) fail_io("inspect", dir, errno);
  for (int attempt = 0; attempt < kMaxWriteAttempts; ++attempt) {
    make_dirs(parent_dir(dir));
    if (::mkdir(dir.c_str(), 0777) == 0) return;
    if (errno == EEXIST) {
      if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) fail_not_a_dir(dir);
      return;
    }
    if (errno != ENOENT) fail_io("create directory", dir, errno);
  }
  fail_io("create directory", dir, ENOENT);
}

// A name no other thread or process uses at the same time: pid, thread and a
// process-wide counter. O_EXCL catches the rest (a stale file from a dead
// process whose pid was reused) and the writer then draws a new name.
std::string temp_name() {
  static std::atomic<unsigned long long> counter{0};
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%s%ld.%zx.%llx", keys::kTempPrefix, static_cast<long>(::getpid()),
                std::hash<std::thread::id>{}(std::this_thread::get_id()),
                counter.fetch_add(1, std::memory_order_relaxed));
  return buffer;
}

// 0, or the errno of the failing write.
int write_all(int fd, ByteView value) {
  size_t done = 0;
  while (done < value.size) {
    ssize_t n = ::write(fd, value.data + done, value.size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<size_t>(n);
  }
  return 0;
}

void sync_dir(const std::string& dir) {
  Fd fd(::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0 || ::fsync(fd.get()) != 0) fail_io("sync directory", dir, errno);
}

// Lets a concurrent eraser that keeps removing our directory finish before
// the next attempt: sleeps grow with the attempts, up to 5 ms.
void back_off(int attempt) {
  std::this_thread::sleep_for(std::chrono::microseconds(std::min(attempt * attempt * 20, 5000)));
}

// Outcome of one attempt at publishing a value.
enum class Attempt { kDone, kRetry };

// Writes value to `temp` and renames it over `target`. kRetry when the
// directory or the temporary file vanished (a concurrent erase) or the name
// was taken; throws on any other failure, after removing the temporary file.
Attempt write_and_rename(const std::string& temp, const std::string& target, ByteView value, bool sync) {
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
  if (fd.get() < 0) {
    if (errno == ENOENT || errno == EEXIST) return Attempt::kRetry;
    fail_io("create", temp, errno);
  }
  // Never leave a half-written temporary file behind.
  auto give_up = [&temp](const char* action, const std::string& file, int err) {
    ::unlink(temp.c_str());
    fail_io(action, file, err);
  };
  if (int err = write_all(fd.get(), value)) give_up("write", temp, err);
  if (sync && ::fsync(fd.get()) != 0) give_up("sync", temp, errno);
  if (int err = fd.close_checked()) give_up("close", temp, err);
  if (::rename(temp.c_str(), target.c_str()) == 0) return Attempt::kDone;
  int err = errno;
  if (err == ENOENT) {
    ::unlink(temp.c_str());
    return Attempt::kRetry;
  }
  give_up("rename a temporary file over", target, err);
  return Attempt::kRetry;  // not reached: give_up throws
}

// ---- the store ---------------------------------------------------------------

// The root without trailing slashes ("/" stays "/").
std::string clean_root(const std::string& root) {
  if (root.empty()) fail(ZARR_ERR_INVALID_ARGUMENT, "filesystem store root must not be empty");
  if (root.find('\0') != std::string::npos) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "filesystem store root " + keys::quote(root) + " contains a NUL byte");
  }
  size_t end = root.find_last_not_of('/');
  return end == std::string::npos ? "/" : root.substr(0, end + 1);
}

class FilesystemStore final : public Store {
 public:
  FilesystemStore(const std::string& root, const FilesystemStoreOptions& options)
      : root_(clean_root(root)), options_(options) {}

  std::optional<Bytes> get(const std::string& key) const override { return get_range(key, ByteRange{}); }
  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    return read_range(key, range, false).bytes;
  }
  VersionedBytes get_range_versioned(const std::string& key, const ByteRange& range) const override {
    return read_range(key, range, true);
  }
  std::optional<size_t> get_into(const std::string& key, const Destination& destination) const override;
  std::optional<size_t> get_in_pieces(const std::string& key, size_t expected_size, uint8_t* buffer,
                                      size_t piece_size, const PieceArrived& arrived) const override;
  std::optional<size_t> get_scattered(const std::string& key, size_t expected_size,
                                      const std::vector<Piece>& pieces) const override;
  bool exists(const std::string& key) const override;
  std::optional<uint64_t> value_size(const std::string& key) const override;
  void set(const std::string& key, ByteView value) override;
  void erase(const std::string& key) override;
  void erase_prefix(const std::string& prefix) override;
  std::vector<std::string> list_prefix(const std::string& prefix) const override;
  DirListing list_dir(const std::string& prefix) const override;

  bool writable() const override { return !options_.read_only; }
  std::string describe() const override { return root_; }
  std::string identity() const override {
    // Absolute, without "..", with symbolic links of its existing part resolved.
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(root_, ec), ec);
    return ec ? root_ : canonical.string();
  }

 private:
  // File (or directory) of a relative path; "" is the root itself.
  std::string file_of(const std::string& relative) const {
    return relative.empty() ? root_ : (root_ == "/" ? "/" : root_ + "/") + relative;
  }
  void write(const std::string& key, ByteView value) const;
  // A value's file, open for reading, and its size.
  struct OpenValue {
    Fd fd;
    std::string file;
    uint64_t size;
    struct stat status;  // of the file the descriptor reads
  };
  // The range, with the file's version when asked (Store::VersionedBytes).
  VersionedBytes read_range(const std::string& key, const ByteRange& range, bool with_version) const;
  std::optional<OpenValue> open_value(const std::string& key) const;
  static size_t read_at(const OpenValue& value, uint64_t offset, uint8_t* out, size_t size);
  static size_t read_vector_at(const OpenValue& value, uint64_t offset, std::vector<iovec>& iov);
  void prune_empty_dirs(std::string relative_dir) const;
  void collect_keys(const std::string& relative_dir, int depth, std::vector<std::string>& out) const;

  std::string root_;
  FilesystemStoreOptions options_;
};

std::optional<FilesystemStore::OpenValue> FilesystemStore::open_value(const std::string& key) const {
  keys::check_key(key);
  OpenValue value{Fd(-1), file_of(key), 0, {}};
  // O_NONBLOCK: opening a FIFO someone left in the tree must not hang.
  value.fd = Fd(::open(value.file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (value.fd.get() < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
    fail_io("open", value.file, errno);
  }
  struct stat& st = value.status;
  if (::fstat(value.fd.get(), &st) != 0) fail_io("inspect", value.file, errno);
  if (S_ISDIR(st.st_mode)) return std::nullopt;  // a "folder" of keys, not a key
  if (!S_ISREG(st.st_mode)) fail(ZARR_ERR_IO, "cannot read " + keys::quote(value.file) + ": not a regular file");
  value.size = static_cast<uint64_t>(st.st_size);
  return value;
}

// Up to `size` bytes from `offset`; fewer only when the file was truncated
// behind our back by someone else (then what is there).
size_t FilesystemStore::read_at(const OpenValue& value, uint64_t offset, uint8_t* out, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(value.fd.get(), out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_io("read", value.file, errno);
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return done;
}

Store::VersionedBytes FilesystemStore::read_range(const std::string& key, const ByteRange& range,
                                                  bool with_version) const {
  std::optional<OpenValue> value = open_value(key);
  if (!value) return {};
  keys::Span span = keys::clip(value->size, range);
  Bytes out(span.end - span.begin);
  out.resize(read_at(*value, span.begin, out.data(), out.size()));
  if (!with_version) return {std::move(out), {}};
  // Writers replace a file by renaming a new one over it (a new inode), or
  // write it in place (a new modification time): either changes this.
  const struct stat& st = value->status;
  return {std::move(out), std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" +
                              std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                              std::to_string(st.st_mtim.tv_nsec)};
}

std::optional<size_t> FilesystemStore::get_into(const std::string& key, const Destination& destination) const {
  std::optional<OpenValue> value = open_value(key);
  if (!value) return std::nullopt;
  if (value->size > SIZE_MAX) fail(ZARR_ERR_IO, "cannot read " + keys::quote(value->file) + ": too large for memory");
  const size_t size = static_cast<size_t>(value->size);
  if (size == 0) return 0;
  return read_at(*value, 0, destination(size), size);
}

std::optional<size_t> FilesystemStore::get_in_pieces(const std::string& key, size_t expected_size, uint8_t* buffer,
                                                     size_t piece_size, const PieceArrived& arrived) const {
  std::optional<OpenValue> value = open_value(key);
  if (!value) return std::nullopt;
  if (value->size != expected_size) return static_cast<size_t>(std::min<uint64_t>(value->size, SIZE_MAX));
  for (size_t offset = 0; offset < expected_size;) {
    const size_t n = read_at(*value, offset, buffer, std::min(piece_size, expected_size - offset));
    if (n == 0) return offset;  // cut short meanwhile
    arrived(buffer, offset, n);
    offset += n;
  }
  return expected_size;
}

std::optional<size_t> FilesystemStore::get_scattered(const std::string& key, size_t expected_size,
                                                     const std::vector<Piece>& pieces) const {
  std::optional<OpenValue> value = open_value(key);
  if (!value) return std::nullopt;
  if (value->size != expected_size) return static_cast<size_t>(std::min<uint64_t>(value->size, SIZE_MAX));
  // Pieces that follow one another in the file are one preadv each (at most
  // IOV_MAX of them per call).
  std::vector<iovec> iov;
  for (size_t i = 0; i < pieces.size();) {
    const uint64_t begin = pieces[i].offset;
    uint64_t end = begin;
    iov.clear();
    for (; i < pieces.size() && pieces[i].offset == end && iov.size() < IOV_MAX; ++i) {
      iov.push_back({pieces[i].to, pieces[i].size});
      end += pieces[i].size;
    }
    if (read_vector_at(*value, begin, iov) != end - begin) return static_cast<size_t>(begin);  // cut short meanwhile
  }
  return expected_size;
}

// All of `iov` from `offset` on (advancing over short reads); fewer bytes only
// at the end of the file.
size_t FilesystemStore::read_vector_at(const OpenValue& value, uint64_t offset, std::vector<iovec>& iov) {
  size_t done = 0;
  size_t first = 0;
  while (first < iov.size()) {
    ssize_t n = ::preadv(value.fd.get(), iov.data() + first, static_cast<int>(iov.size() - first),
                         static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_io("read", value.file, errno);
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
    for (size_t left = static_cast<size_t>(n); left > 0 && first < iov.size();) {
      const size_t step = std::min(left, iov[first].iov_len);
      iov[first].iov_base = static_cast<uint8_t*>(iov[first].iov_base) + step;
      iov[first].iov_len -= step;
      left -= step;
      if (iov[first].iov_len == 0) ++first;
    }
  }
  return done;
}

std::optional<uint64_t> FilesystemStore::value_size(const std::string& key) const {
  keys::check_key(key);
  std::string file = file_of(key);
  struct stat st;
  if (::stat(file.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode)) return static_cast<uint64_t>(st.st_size);
    return std::nullopt;
  }
  if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
  fail_io("inspect", file, errno);
}

bool FilesystemStore::exists(const std::string& key) const {
  keys::check_key(key);
  std::string file = file_of(key);
  struct stat st;
  if (::stat(file.c_str(), &st) == 0) return S_ISREG(st.st_mode);
  if (errno == ENOENT || errno == ENOTDIR) return false;
  fail_io("inspect", file, errno);
}

void FilesystemStore::set(const std::string& key, ByteView value) {
  keys::check_key(key);
  if (options_.read_only) keys::fail_read_only(describe(), "set", key);
  try {
    write(key, value);
  } catch (const Error& e) {
    fail(e.code(), "cannot set key " + keys::quote(key) + " in " + describe() + ": " + e.what());
  }
}

void FilesystemStore::write(const std::string& key, ByteView value) const {
  std::string target = file_of(key);
  std::string dir = parent_dir(target);
  for (int attempt = 0; attempt < kMaxWriteAttempts; ++attempt) {
    if (attempt > 1) back_off(attempt);
    make_dirs(dir);  // also creates the root on the first write
    if (write_and_rename(dir + "/" + temp_name(), target, value, options_.fsync) == Attempt::kDone) {
      if (options_.fsync) sync_dir(dir);
      return;
    }
  }
  fail(ZARR_ERR_IO, "its directory " + keys::quote(dir) + " kept disappearing (concurrent erase?)");
}

void FilesystemStore::erase(const std::string& key) {
  keys::check_key(key);
  if (options_.read_only) keys::fail_read_only(describe(), "erase", key);
  std::string file = file_of(key);
  if (::unlink(file.c_str()) == 0) return prune_empty_dirs(parent_dir(key));
  // Absent, under a file, or a directory (a folder of keys is not a key).
  if (errno == ENOENT || errno == ENOTDIR || errno == EISDIR) return;
  struct stat st;
  if (errno == EPERM && ::lstat(file.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return;
  fail_io("erase", file, errno);
}

// Removes the directory relative_dir and its ancestors below the root as long
// as they are empty, so that a folder whose keys are all erased stops being
// listed, as in the memory store. A concurrent writer that loses its freshly
// made directory this way retries (see write).
void FilesystemStore::prune_empty_dirs(std::string relative_dir) const {
  while (!relative_dir.empty()) {
    if (::rmdir(file_of(relative_dir).c_str()) != 0 && errno != ENOENT) return;
    relative_dir = parent_dir(relative_dir);
  }
}

void FilesystemStore::erase_prefix(const std::string& prefix) {
  keys::check_prefix(prefix);
  if (options_.read_only) keys::fail_read_only(describe(), "erase prefix", prefix);
  auto [dir, start] = split_prefix(prefix);
  if (!prefix.empty() && start.empty()) {
    // A whole folder: remove it in one go, unless it is a key's file.
    struct stat st;
    if (::lstat(file_of(dir).c_str(), &st) != 0 || S_ISREG(st.st_mode)) return;
    remove_tree(file_of(dir));
  } else {
    for (const Entry& entry : read_entries(file_of(dir))) {
      if (starts_with(entry.name, start) && (start.empty() || !keys::is_temp_name(entry.name))) {
        remove_tree(file_of(join_key(dir, entry.name)));
      }
    }
  }
  prune_empty_dirs(prefix.empty() || !start.empty() ? dir : parent_dir(dir));
}

void FilesystemStore::collect_keys(const std::string& relative_dir, int depth,
                                   std::vector<std::string>& out) const {
  if (depth > kMaxListDepth) {
    fail(ZARR_ERR_IO, "cannot list " + keys::quote(file_of(relative_dir)) + ": nested too deeply (symlink loop?)");
  }
  for (const Entry& entry : read_entries(file_of(relative_dir))) {
    if (keys::is_temp_name(entry.name)) continue;
    std::string key = join_key(relative_dir, entry.name);
    if (entry.kind == Kind::kFile) out.push_back(key);
    if (entry.kind == Kind::kDir) collect_keys(key, depth + 1, out);
  }
}

std::vector<std::string> FilesystemStore::list_prefix(const std::string& prefix) const {
  keys::check_prefix(prefix);
  auto [dir, start] = split_prefix(prefix);
  std::vector<std::string> out;
  for (const Entry& entry : read_entries(file_of(dir))) {
    if (!starts_with(entry.name, start) || keys::is_temp_name(entry.name)) continue;
    std::string key = join_key(dir, entry.name);
    if (entry.kind == Kind::kFile) out.push_back(key);
    if (entry.kind == Kind::kDir) collect_keys(key, 1, out);
  }
  std::sort(out.begin(), out.end());
  return out;
}

DirListing FilesystemStore::list_dir(const std::string& prefix) const {
  std::string dir = keys::dir_prefix(prefix);
  if (!dir.empty()) dir.pop_back();
  DirListing out;
  for (Entry& entry : read_entries(file_of(dir))) {
    if (keys::is_temp_name(entry.name)) continue;
    if (entry.kind == Kind::kFile) out.keys.push_back(std::move(entry.name));
    if (entry.kind == Kind::kDir) out.prefixes.push_back(std::move(entry.name));
  }
  std::sort(out.keys.begin(), out.keys.end());
  std::sort(out.prefixes.begin(), out.prefixes.end());
  return out;
}

}  // namespace

std::shared_ptr<Store> make_filesystem_store(const std::string& root, const FilesystemStoreOptions& options) {
  return std::make_shared<FilesystemStore>(root, options);
}

std::shared_ptr<Store> make_filesystem_store(const std::string& root, bool read_only) {
  FilesystemStoreOptions options;
  options.read_only = read_only;
  return make_filesystem_store(root, options);
}

std::shared_ptr<Store> make_filesystem_store(const std::string& root) {
  return make_filesystem_store(root, FilesystemStoreOptions{});
}

}  // namespace zarr
