// The filesystem store's folders, reached through descriptors.
//
// Writes and erases reach a key's folder from a descriptor of the store's
// root, one segment at a time with O_NOFOLLOW, then act on names inside that
// folder's descriptor (openat, renameat, unlinkat). A symbolic link, a ".."
// or a folder renamed meanwhile therefore never leads them outside the root:
// the kernel resolves nothing but single names in folders already open. The
// root itself is the caller's choice and is opened by its path, links and
// all. Reads and listings follow symbolic links; a listing never enters a
// folder twice and stops at a depth and an entry count (docs/store-filesystem.md).
#pragma once

#include <dirent.h>
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/bytes.h"

namespace zarr::fstree {

[[noreturn]] void fail_io(const char* action, const std::string& file, int err);

// "dir/name", for messages ("/" + "a" is "/a").
std::string join_path(const std::string& dir, const std::string& name);

// Closes its descriptor however the scope is left.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd();
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Fd& operator=(Fd&& other) noexcept;
  int get() const { return fd_; }
  // Close now and report failure: for written files a failing close can be
  // the only sign that the data did not make it (NFS, quotas). EINTR still
  // closes the descriptor on Linux, so it is not a failure. 0 or the errno.
  int close_checked();
  // Hands the descriptor over (to fdopendir) without closing it.
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

// What a folder entry is, symbolic links resolved: a key's file, a folder of
// keys, or something else (a FIFO, socket or device, or a link the kernel
// cannot resolve): a key whose reads fail, naming it.
enum class Kind { kFile, kDir, kOther };

struct Entry {
  std::string name;
  Kind kind;
  bool link;  // a symbolic link (kind is then its target's, when resolved)
};

// A folder open for reading its entries and for *at calls on its names.
class Folder {
 public:
  // The folder `name` inside the folder `parent_fd` (AT_FDCWD: a path),
  // following a symbolic link there or not. std::nullopt when nothing is
  // there, or no folder (a file, or a link when not following).
  // `shown` is its path, for messages.
  static std::optional<Folder> open(int parent_fd, const std::string& name, bool follow, const std::string& shown);

  int fd() const { return ::dirfd(handle_.get()); }
  const std::string& shown() const { return shown_; }
  std::pair<dev_t, ino_t> identity() const { return identity_; }
  // Every entry but "." and "..", up to limit + 1 of them (the caller
  // tells "too many"). With resolve_links, symbolic links are resolved
  // and dangling ones (absent keys) are left out; without, a link is kOther.
  // Entries that vanish meanwhile are left out. Call once.
  std::vector<Entry> read_entries(bool resolve_links, uint64_t limit);

 private:
  Folder(DIR* handle, std::string shown, std::pair<dev_t, ino_t> identity)
      : handle_(handle, ::closedir), shown_(std::move(shown)), identity_(identity) {}

  std::unique_ptr<DIR, int (*)(DIR*)> handle_;
  std::string shown_;
  std::pair<dev_t, ino_t> identity_;
};

// The folders of a relative path, from the root down, each opened from its
// parent's descriptor without following a symbolic link.
struct FolderChain {
  std::vector<Fd> fds;             // fds[0]: the root; fds[i]: segment i - 1
  std::vector<std::string> names;  // the segments
  std::vector<std::string> shown;  // each folder's path, for messages (shown[0]: the root)

  int last() const { return fds.back().get(); }
  const std::string& last_shown() const { return shown.back(); }
  // Removes the chain's folders, deepest first, as long as they are empty;
  // never the root.
  void prune() const;
};

// Opens `relative_dir` ("a/b", "" for the root itself) below the root folder
// `root`, whose path is `root_shown` and whose descriptor `root_fd` is taken.
// With create, missing folders are made; otherwise a missing folder (or a
// file in its place) gives std::nullopt. With create, std::nullopt means a
// folder vanished while it was being made (a concurrent erase): try again.
// A symbolic link on the way (or, when creating, a file where a folder
// should be) is ZARR_ERR_IO naming it.
std::optional<FolderChain> open_chain(Fd root_fd, const std::string& root_shown, const std::string& relative_dir,
                                      bool create);

// Removes `name` in the folder `dir_fd`: a file, a symbolic link (never what
// it points to) or a folder with everything in it, never following a link.
// Entries removed concurrently are fine; a folder that got new entries
// meanwhile stays. Deeper than max_depth folders is ZARR_ERR_IO naming it.
void remove_tree(int dir_fd, const std::string& name, const std::string& shown, int max_depth);

// One listing's walk: each folder is entered once however many links lead
// to it (device and inode), no deeper than max_depth below the first, and
// no more than max_entries entries are read in all; past a bound,
// ZARR_ERR_IO naming the folder.
class Walk {
 public:
  Walk(int max_depth, uint64_t max_entries) : max_depth_(max_depth), max_entries_(max_entries) {}
  // The folder `name` in `parent_fd` (following links) at `depth`, or
  // std::nullopt when it is absent or was entered before in this walk.
  std::optional<Folder> enter(int parent_fd, const std::string& name, const std::string& shown, int depth);
  // Its entries, counted against max_entries.
  std::vector<Entry> entries(Folder& folder);

 private:
  int max_depth_;
  uint64_t max_entries_;
  uint64_t entries_read_ = 0;
  std::set<std::pair<dev_t, ino_t>> visited_;
};

// ---- writing (filesystem_tree.cpp) -------------------------------------------

// fsync the folder `dir_fd` (shown as `shown` in messages).
void sync_dir(int dir_fd, const std::string& shown);

// Lets a concurrent eraser that keeps removing a writer's folder finish
// before the writer's next attempt: sleeps grow with the attempts, up to 5 ms.
void back_off(int attempt);

// Outcome of one attempt at publishing a value.
enum class Attempt { kDone, kRetry };

// Writes value to a fresh temporary file in the folder `folder` and renames
// it over `name` there: both names in one directory descriptor, so the
// rename is atomic and replaces a symbolic link by the value, never what the
// link points to. kRetry when the folder or the temporary file vanished (a
// concurrent erase) or the name was taken; throws on any other failure,
// after removing the temporary file. sync: fsync the file before the rename.
Attempt write_and_rename(const FolderChain& folder, const std::string& name, ByteView value, bool sync);

}  // namespace zarr::fstree
