// Filesystem store: one file per key under a root directory.
//
// Writes never modify a published file: each value goes to a fresh temporary
// file in the target's directory and is renamed over the target, so a reader
// that opened the old file keeps reading it whole and later readers see the
// new one. The store keeps no mutable state of its own (besides a counter for
// temporary names), so its thread safety is the kernel's.
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
#include <map>
#include <system_error>
#include <thread>

#include "stores/filesystem_store.h"

#include "base/error.h"
#include "base/text.h"
#include "stores/filesystem_tree.h"
#include "stores/key_rules.h"

namespace zarr {
namespace {

// A write retries from scratch when a concurrent erase removed its directory
// or its temporary file in between; this bounds pathological races.
constexpr int kMaxWriteAttempts = 64;
// Deeper trees are refused by listings and removals (docs/store-filesystem.md).
constexpr int kMaxFolderDepth = 128;

using fstree::Attempt;
using fstree::back_off;
using fstree::Entry;
using fstree::Fd;
using fstree::fail_io;
using fstree::FolderChain;
using fstree::Kind;
using fstree::sync_dir;
using fstree::write_and_rename;

// "a/b/c" -> "a/b"; "c" -> "" (the root). Keys are checked: no empty segments.
std::string parent_key(const std::string& key) {
  size_t slash = key.rfind('/');
  return slash == std::string::npos ? "" : key.substr(0, slash);
}

// "a/b/c" -> "c".
std::string last_segment(const std::string& key) { return key.substr(key.rfind('/') + 1); }

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

// A FIFO, socket or device where a key's file should be: reading it could
// block, never end or have effects, so it is an error naming it, not a value.
[[noreturn]] void fail_not_regular(const std::string& file, mode_t mode) {
  const char* what = S_ISFIFO(mode)   ? "a FIFO"
                     : S_ISSOCK(mode) ? "a socket"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                                      : "something";
  fail(ZARR_ERR_IO, "cannot read " + keys::quote(file) + ": it is " + what + ", not a regular file");
}

// ---- the root ------------------------------------------------------------------

// "dir/name" -> "dir"; "/name" -> "/"; "name" -> "" (the working directory).
std::string parent_dir(const std::string& path) {
  size_t slash = path.find_last_not_of('/');
  slash = slash == std::string::npos ? std::string::npos : path.rfind('/', slash);
  if (slash == std::string::npos) return "";
  size_t end = path.find_last_not_of('/', slash);
  return end == std::string::npos ? "/" : path.substr(0, end + 1);
}

[[noreturn]] void fail_not_a_dir(const std::string& dir) {
  fail(ZARR_ERR_IO, "cannot create directory " + keys::quote(dir) + ": a non-directory is in the way");
}

// Creates the root folder and its missing ancestors, by path: the root is
// the caller's choice, links and all; the store's own folders below it are
// made by fstree::open_chain. Several threads may create the same folders at
// once: losing a mkdir race (EEXIST) is success as long as a directory won.
void make_dirs(const std::string& dir) {
  if (dir.empty()) return;
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return;
    fail_not_a_dir(dir);
  }
  // ENOTDIR: some ancestor is not a directory; the recursion names it.
  if (errno != ENOENT && errno != ENOTDIR) fail_io("inspect", dir, errno);
  // A concurrent erase through a store rooted higher up may remove a freshly
  // made ancestor before its child is made (ENOENT): then make it again.
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

  std::optional<Bytes> get(const std::string& key, uint64_t max_size) const override {
    return read_range(key, ByteRange{}, false, max_size).bytes;
  }
  std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const override {
    return read_range(key, range, false, range_limit(range, value_limit())).bytes;
  }
  VersionedBytes get_range_versioned(const std::string& key, const ByteRange& range) const override {
    return read_range(key, range, true, range_limit(range, value_limit()));
  }
  std::optional<size_t> get_into(const std::string& key, uint64_t max_size,
                                 const Destination& destination) const override;
  std::optional<size_t> get_in_pieces(const std::string& key, size_t expected_size, uint8_t* buffer,
                                      size_t piece_size, const PieceArrived& arrived) const override;
  std::optional<size_t> get_scattered(const std::string& key, size_t expected_size,
                                      const std::vector<Piece>& pieces) const override;
  bool exists(const std::string& key) const override;
  std::optional<uint64_t> value_size(const std::string& key) const override;
  void set(const std::string& key, ByteView value) override;
  void erase(const std::string& key) override;
  void check_erasable(const std::string& key) const override;
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
  VersionedBytes read_range(const std::string& key, const ByteRange& range, bool with_version,
                            uint64_t limit) const;
  std::optional<OpenValue> open_value(const std::string& key) const;
  static size_t read_at(const OpenValue& value, uint64_t offset, uint8_t* out, size_t size);
  static size_t read_vector_at(const OpenValue& value, uint64_t offset, std::vector<iovec>& iov);
  // The folders of relative_dir from the root down, opened without
  // following links (fstree::open_chain); with create, the root and missing
  // folders are made first. std::nullopt: a folder is missing (not
  // creating), or vanished while being made (creating: try again).
  std::optional<FolderChain> folders(const std::string& relative_dir, bool create) const;
  void erase_key(const std::string& key) const;
  void erase_keys(const std::string& prefix) const;
  // What a listing has found so far.
  struct Listing {
    std::vector<std::string> keys;
    // Folders reached through a symbolic link, not entered yet, and their
    // depth; entered in the order of their paths, so that which path of a
    // folder reached several ways is listed does not depend on readdir's order.
    std::map<std::string, int> linked;
  };
  void collect_keys(fstree::Walk& walk, fstree::Folder& folder, const std::string& relative_dir,
                    const std::string& start, int depth, Listing& listing) const;

  std::string root_;
  FilesystemStoreOptions options_;
};

std::optional<FilesystemStore::OpenValue> FilesystemStore::open_value(const std::string& key) const {
  keys::check_key(key);
  OpenValue value{Fd(-1), file_of(key), 0, {}};
  // O_NONBLOCK: opening a FIFO someone left in the tree must not hang;
  // O_NOCTTY: nor may a terminal there become ours. fstat then refuses both.
  value.fd = Fd(::open(value.file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (value.fd.get() < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
    const int err = errno;
    struct stat st;  // a socket cannot be opened (ENXIO): say what it is
    if (::stat(value.file.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
      fail_not_regular(value.file, st.st_mode);
    }
    fail_io("open", value.file, err);
  }
  struct stat& st = value.status;
  if (::fstat(value.fd.get(), &st) != 0) fail_io("inspect", value.file, errno);
  if (S_ISDIR(st.st_mode)) return std::nullopt;  // a "folder" of keys, not a key
  if (!S_ISREG(st.st_mode)) fail_not_regular(value.file, st.st_mode);
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
                                                  bool with_version, uint64_t limit) const {
  std::optional<OpenValue> value = open_value(key);
  if (!value) return {};
  keys::Span span = keys::clip(value->size, range);
  check_value_size(describe(), key, span.end - span.begin, limit);  // before a byte is read: sparse files
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

std::optional<size_t> FilesystemStore::get_into(const std::string& key, uint64_t max_size,
                                                 const Destination& destination) const {
  std::optional<OpenValue> value = open_value(key);
  if (!value) return std::nullopt;
  check_value_size(describe(), key, value->size, max_size);
  if (value->size > SIZE_MAX) fail(ZARR_ERR_IO, "cannot read " + keys::quote(value->file) + ": too large for memory");
  const size_t size = static_cast<size_t>(value->size);
  if (size == 0) return 0;
  return read_at(*value, 0, destination(size), size);
}

std::optional<size_t> FilesystemStore::get_in_pieces(const std::string& key, size_t expected_size, uint8_t* buffer,
                                                     size_t piece_size, const PieceArrived& arrived) const {
  std::optional<OpenValue> value = open_value(key);
  if (!value) return std::nullopt;
  check_value_size(describe(), key, value->size, expected_size);
  if (value->size != expected_size) return static_cast<size_t>(value->size);
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
  check_value_size(describe(), key, value->size, expected_size);
  if (value->size != expected_size) return static_cast<size_t>(value->size);
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
    if (S_ISDIR(st.st_mode)) return std::nullopt;  // a "folder" of keys, not a key
    fail_not_regular(file, st.st_mode);
  }
  if (errno == ENOENT || errno == ENOTDIR) return std::nullopt;
  fail_io("inspect", file, errno);
}

bool FilesystemStore::exists(const std::string& key) const { return value_size(key).has_value(); }

void FilesystemStore::set(const std::string& key, ByteView value) {
  keys::check_key(key);
  if (options_.read_only) keys::fail_read_only(describe(), "set", key);
  try {
    write(key, value);
  } catch (const Error& e) {
    fail(e.code(), "cannot set key " + keys::quote(key) + " in " + describe() + ": " + e.what());
  }
}

std::optional<FolderChain> FilesystemStore::folders(const std::string& relative_dir, bool create) const {
  if (create) make_dirs(root_);
  Fd root(::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (root.get() < 0) {
    if (errno == ENOENT) return std::nullopt;  // creating: removed meanwhile by someone else, try again
    if (errno != ENOTDIR) fail_io("open", root_, errno);
    if (create) fail_not_a_dir(root_);
    return std::nullopt;
  }
  return fstree::open_chain(std::move(root), root_, relative_dir, create);
}

void FilesystemStore::write(const std::string& key, ByteView value) const {
  const std::string dir = parent_key(key);
  for (int attempt = 0; attempt < kMaxWriteAttempts; ++attempt) {
    if (attempt > 1) back_off(attempt);
    std::optional<FolderChain> folder = folders(dir, true);  // also creates the root on the first write
    if (folder && write_and_rename(*folder, last_segment(key), value, options_.fsync) == Attempt::kDone) {
      if (options_.fsync) sync_dir(folder->last(), folder->last_shown());
      return;
    }
  }
  fail(ZARR_ERR_IO, "its directory " + keys::quote(file_of(dir)) + " kept disappearing (concurrent erase?)");
}

void FilesystemStore::erase(const std::string& key) {
  keys::check_key(key);
  if (options_.read_only) keys::fail_read_only(describe(), "erase", key);
  try {
    erase_key(key);
  } catch (const Error& e) {
    fail(e.code(), "cannot erase key " + keys::quote(key) + " in " + describe() + ": " + e.what());
  }
}

// The key's folders are opened as erase opens them: a link on the way (or
// a read-only store) is the error erase would give, nothing is removed.
void FilesystemStore::check_erasable(const std::string& key) const {
  keys::check_key(key);
  if (options_.read_only) keys::fail_read_only(describe(), "erase", key);
  try {
    folders(parent_key(key), false);
  } catch (const Error& e) {
    fail(e.code(), "cannot erase key " + keys::quote(key) + " in " + describe() + ": " + e.what());
  }
}

// Removes the key's file (a link: the link) and then the folders its erase
// left empty, so that a folder whose keys are all erased stops being listed,
// as in the memory store. A concurrent writer that loses its freshly made
// folder this way retries (see write).
void FilesystemStore::erase_key(const std::string& key) const {
  std::optional<FolderChain> folder = folders(parent_key(key), false);
  if (!folder) return;  // a folder on the way is missing: so is the key
  const std::string name = last_segment(key);
  if (::unlinkat(folder->last(), name.c_str(), 0) == 0) return folder->prune();
  const int err = errno;
  // Absent, or a directory (a folder of keys is not a key).
  if (err == ENOENT || err == EISDIR) return;
  struct stat st;
  if (err == EPERM && ::fstatat(folder->last(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
    return;
  }
  fail_io("erase", file_of(key), err);
}

void FilesystemStore::erase_prefix(const std::string& prefix) {
  keys::check_prefix(prefix);
  if (options_.read_only) keys::fail_read_only(describe(), "erase prefix", prefix);
  try {
    erase_keys(prefix);
  } catch (const Error& e) {
    fail(e.code(), "cannot erase prefix " + keys::quote(prefix) + " in " + describe() + ": " + e.what());
  }
}

void FilesystemStore::erase_keys(const std::string& prefix) const {
  auto [dir, start] = split_prefix(prefix);
  if (!prefix.empty() && start.empty()) {
    // A whole folder (or a link to one: the link) in one go; a key's file
    // of that name is not below the prefix.
    std::optional<FolderChain> parent = folders(parent_key(dir), false);
    if (!parent) return;
    const std::string name = last_segment(dir);
    struct stat st;
    if (::fstatat(parent->last(), name.c_str(), &st, 0) != 0 || !S_ISDIR(st.st_mode)) return;
    fstree::remove_tree(parent->last(), name, fstree::join_path(parent->last_shown(), name), kMaxFolderDepth);
    return parent->prune();
  }
  std::optional<FolderChain> folder = folders(dir, false);
  if (!folder) return;
  std::optional<fstree::Folder> listed = fstree::Folder::open(folder->last(), ".", false, folder->last_shown());
  if (!listed) return;
  for (const Entry& entry : listed->read_entries(false, UINT64_MAX)) {
    if (starts_with(entry.name, start) && (start.empty() || !keys::is_temp_name(entry.name))) {
      fstree::remove_tree(folder->last(), entry.name, fstree::join_path(folder->last_shown(), entry.name),
                          kMaxFolderDepth);
    }
  }
  folder->prune();
}

// Adds the keys of `folder` (relative_dir from the root) whose names start
// with `start`, and those of its folders, to `out`. Folders reached through
// a symbolic link wait in `linked` until every real folder is walked, so a
// key is listed under its own path when the listing reaches that path too.
void FilesystemStore::collect_keys(fstree::Walk& walk, fstree::Folder& folder, const std::string& relative_dir,
                                   const std::string& start, int depth, Listing& listing) const {
  for (const Entry& entry : walk.entries(folder)) {
    if (!starts_with(entry.name, start) || keys::is_temp_name(entry.name)) continue;
    std::string key = join_key(relative_dir, entry.name);
    if (entry.kind != Kind::kDir) {
      listing.keys.push_back(std::move(key));  // a FIFO or a device too: reading it fails, naming it
    } else if (entry.link) {
      listing.linked.emplace(std::move(key), depth + 1);
    } else if (std::optional<fstree::Folder> sub =
                   walk.enter(folder.fd(), entry.name, fstree::join_path(folder.shown(), entry.name), depth + 1)) {
      collect_keys(walk, *sub, key, "", depth + 1, listing);
    }
  }
}

std::vector<std::string> FilesystemStore::list_prefix(const std::string& prefix) const {
  keys::check_prefix(prefix);
  auto [dir, start] = split_prefix(prefix);
  Listing listing;
  fstree::Walk walk(kMaxFolderDepth, options_.max_list_entries);
  if (std::optional<fstree::Folder> folder = walk.enter(AT_FDCWD, file_of(dir), file_of(dir), 0)) {
    collect_keys(walk, *folder, dir, start, 0, listing);
  }
  // Reads follow links, so listings do; each folder is entered once (Walk).
  while (!listing.linked.empty()) {
    const auto [relative_dir, depth] = *listing.linked.begin();
    listing.linked.erase(listing.linked.begin());
    const std::string file = file_of(relative_dir);
    if (std::optional<fstree::Folder> folder = walk.enter(AT_FDCWD, file, file, depth)) {
      collect_keys(walk, *folder, relative_dir, "", depth, listing);
    }
  }
  std::sort(listing.keys.begin(), listing.keys.end());
  return std::move(listing.keys);
}

DirListing FilesystemStore::list_dir(const std::string& prefix) const {
  std::string dir = keys::dir_prefix(prefix);
  if (!dir.empty()) dir.pop_back();
  DirListing out;
  fstree::Walk walk(0, options_.max_list_entries);
  std::optional<fstree::Folder> folder = walk.enter(AT_FDCWD, file_of(dir), file_of(dir), 0);
  if (!folder) return out;
  for (Entry& entry : walk.entries(*folder)) {
    if (keys::is_temp_name(entry.name)) continue;
    (entry.kind == Kind::kDir ? out.prefixes : out.keys).push_back(std::move(entry.name));
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
