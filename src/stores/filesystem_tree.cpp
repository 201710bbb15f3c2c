#include "stores/filesystem_tree.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <system_error>
#include <thread>

#include "base/error.h"
#include "stores/key_rules.h"

namespace zarr::fstree {
namespace {

// A folder being created while a concurrent erase keeps removing it: this
// bounds the retries of one step.
constexpr int kMaxCreateAttempts = 64;

// Directories opened only to reach a name in them (O_PATH needs no read
// permission, just as resolving a path needs none).
constexpr int kStepFlags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

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

std::vector<std::string> segments_of(const std::string& relative) {
  std::vector<std::string> out;
  for (size_t begin = 0; begin < relative.size();) {
    size_t slash = relative.find('/', begin);
    if (slash == std::string::npos) slash = relative.size();
    out.push_back(relative.substr(begin, slash - begin));
    begin = slash + 1;
  }
  return out;
}

Kind kind_of(mode_t mode) {
  if (S_ISREG(mode)) return Kind::kFile;
  if (S_ISDIR(mode)) return Kind::kDir;
  return Kind::kOther;
}

[[noreturn]] void fail_through_link(const std::string& link) {
  fail(ZARR_ERR_IO, keys::quote(link) + " is a symbolic link: the filesystem store never writes or erases through one");
}

[[noreturn]] void fail_not_a_dir(const std::string& dir) {
  fail(ZARR_ERR_IO, "cannot create directory " + keys::quote(dir) + ": a non-directory is in the way");
}

bool is_symlink_at(int dir_fd, const std::string& name) {
  struct stat st;
  return ::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

// One step of open_chain: the folder `name` in `parent`, made first when
// `create` and missing. std::nullopt: missing (not creating), a file (not
// creating), or the parent vanished (creating: a concurrent erase).
std::optional<Fd> open_step(int parent, const std::string& name, const std::string& shown, bool create) {
  for (int attempt = 0; attempt < kMaxCreateAttempts; ++attempt) {
    Fd fd(::openat(parent, name.c_str(), kStepFlags));
    if (fd.get() >= 0) return fd;
    const int err = errno;
    if (err == ENOTDIR || err == ELOOP) {
      if (is_symlink_at(parent, name)) fail_through_link(shown);
      if (!create) return std::nullopt;  // a file: no keys below it
      struct stat st;
      if (::fstatat(parent, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) fail_not_a_dir(shown);
      continue;  // removed meanwhile: make it
    }
    if (err != ENOENT) fail_io("open directory", shown, err);
    if (!create) return std::nullopt;
    if (::mkdirat(parent, name.c_str(), 0777) != 0 && errno != EEXIST) {
      if (errno == ENOENT) return std::nullopt;  // the parent itself was removed
      fail_io("create directory", shown, errno);
    }
  }
  fail_io("create directory", shown, ENOENT);
}

void remove_at(int dir_fd, const std::string& name, const std::string& shown, int depth, int max_depth) {
  if (::unlinkat(dir_fd, name.c_str(), 0) == 0 || errno == ENOENT) return;
  const int err = errno;
  // Linux says EISDIR for a directory, POSIX EPERM.
  if (err != EISDIR && err != EPERM) fail_io("remove", shown, err);
  std::optional<Folder> folder = Folder::open(dir_fd, name, false, shown);
  if (!folder) {
    struct stat st;
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) fail_io("remove", shown, err);
    return;  // removed meanwhile
  }
  if (depth >= max_depth) {
    fail(ZARR_ERR_IO, "cannot remove " + keys::quote(shown) + ": folders nested deeper than " +
                          std::to_string(max_depth));
  }
  for (const Entry& entry : folder->read_entries(false, UINT64_MAX)) {
    remove_at(folder->fd(), entry.name, join_path(shown, entry.name), depth + 1, max_depth);
  }
  // Not empty: concurrent writers added keys, which count as written after
  // this erase, so they stay.
  if (::unlinkat(dir_fd, name.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT || errno == ENOTEMPTY ||
      errno == EEXIST) {
    return;
  }
  fail_io("remove directory", shown, errno);
}

}  // namespace

[[noreturn]] void fail_io(const char* action, const std::string& file, int err) {
  fail(ZARR_ERR_IO, std::string("cannot ") + action + " " + keys::quote(file) + ": " +
                        std::system_category().message(err));
}

std::string join_path(const std::string& dir, const std::string& name) {
  return dir == "/" ? "/" + name : dir + "/" + name;
}

// ---- Fd ------------------------------------------------------------------------

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

Fd& Fd::operator=(Fd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

int Fd::close_checked() {
  int result = ::close(fd_);
  fd_ = -1;
  return result == 0 || errno == EINTR ? 0 : errno;
}

// ---- Folder --------------------------------------------------------------------

std::optional<Folder> Folder::open(int parent_fd, const std::string& name, bool follow, const std::string& shown) {
  Fd fd(::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW)));
  if (fd.get() < 0) {
    if (errno == ENOENT || errno == ENOTDIR || (!follow && errno == ELOOP)) return std::nullopt;
    fail_io("list directory", shown, errno);
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) fail_io("inspect", shown, errno);
  DIR* handle = ::fdopendir(fd.get());
  if (!handle) fail_io("list directory", shown, errno);
  fd.release();  // the handle owns it now
  return Folder(handle, shown, {st.st_dev, st.st_ino});
}

std::vector<Entry> Folder::read_entries(bool resolve_links, uint64_t limit) {
  std::vector<Entry> out;
  for (;;) {
    errno = 0;
    const dirent* item = ::readdir(handle_.get());
    if (!item) {
      if (errno != 0) fail_io("list directory", shown_, errno);
      return out;
    }
    std::string name = item->d_name;
    if (name == "." || name == "..") continue;
    Kind kind = item->d_type == DT_REG ? Kind::kFile : item->d_type == DT_DIR ? Kind::kDir : Kind::kOther;
    bool link = item->d_type == DT_LNK;
    struct stat st;
    if (item->d_type == DT_UNKNOWN) {  // filesystems that do not say: ask
      if (::fstatat(fd(), item->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) continue;  // vanished meanwhile (a concurrent erase)
      } else {
        link = S_ISLNK(st.st_mode);
        kind = kind_of(st.st_mode);
      }
    }
    if (link && resolve_links) {
      if (::fstatat(fd(), item->d_name, &st, 0) == 0) {
        kind = kind_of(st.st_mode);
      } else if (errno == ENOENT) {
        continue;  // dangling: an absent key
      }  // else (a loop of links...) kOther: reading it fails, naming it
    }
    out.push_back({std::move(name), kind, link});
    if (out.size() > limit) return out;
  }
}

// ---- FolderChain -----------------------------------------------------------------

void FolderChain::prune() const {
  for (size_t i = names.size(); i > 0; --i) {
    if (::unlinkat(fds[i - 1].get(), names[i - 1].c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) return;
  }
}

std::optional<FolderChain> open_chain(Fd root_fd, const std::string& root_shown, const std::string& relative_dir,
                                      bool create) {
  FolderChain chain;
  chain.fds.push_back(std::move(root_fd));
  chain.shown.push_back(root_shown);
  for (std::string& name : segments_of(relative_dir)) {
    std::string shown = join_path(chain.shown.back(), name);
    std::optional<Fd> fd = open_step(chain.last(), name, shown, create);
    if (!fd) return std::nullopt;
    chain.fds.push_back(std::move(*fd));
    chain.names.push_back(std::move(name));
    chain.shown.push_back(std::move(shown));
  }
  return chain;
}

void remove_tree(int dir_fd, const std::string& name, const std::string& shown, int max_depth) {
  remove_at(dir_fd, name, shown, 0, max_depth);
}

// ---- Walk ------------------------------------------------------------------------

std::optional<Folder> Walk::enter(int parent_fd, const std::string& name, const std::string& shown, int depth) {
  if (depth > max_depth_) {
    fail(ZARR_ERR_IO, "cannot list " + keys::quote(shown) + ": folders nested deeper than " +
                          std::to_string(max_depth_));
  }
  std::optional<Folder> folder = Folder::open(parent_fd, name, true, shown);
  if (!folder || !visited_.insert(folder->identity()).second) return std::nullopt;
  return folder;
}

std::vector<Entry> Walk::entries(Folder& folder) {
  std::vector<Entry> out = folder.read_entries(true, max_entries_ - entries_read_);
  entries_read_ += out.size();
  if (entries_read_ > max_entries_) {
    fail(ZARR_ERR_IO, "cannot list " + keys::quote(folder.shown()) + ": more than " + std::to_string(max_entries_) +
                          " entries in one listing");
  }
  return out;
}

// ---- writing ----------------------------------------------------------------

void sync_dir(int dir_fd, const std::string& shown) {
  Fd fd(::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0 || ::fsync(fd.get()) != 0) fail_io("sync directory", shown, errno);
}

// Lets a concurrent eraser that keeps removing our directory finish before
// the next attempt: sleeps grow with the attempts, up to 5 ms.
void back_off(int attempt) {
  std::this_thread::sleep_for(std::chrono::microseconds(std::min(attempt * attempt * 20, 5000)));
}

// Writes value to a fresh temporary file in the folder `folder` and renames
// it over `name` there: both names in one directory descriptor, so the
// rename is atomic and replaces a symbolic link by the value, never what the
// link points to. kRetry when the folder or the temporary file vanished (a
// concurrent erase) or the name was taken; throws on any other failure,
// after removing the temporary file.
Attempt write_and_rename(const FolderChain& folder, const std::string& name, ByteView value, bool sync) {
  const std::string temp = temp_name();
  const std::string temp_shown = fstree::join_path(folder.last_shown(), temp);
  Fd fd(::openat(folder.last(), temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666));
  if (fd.get() < 0) {
    if (errno == ENOENT || errno == EEXIST) return Attempt::kRetry;
    fail_io("create", temp_shown, errno);
  }
  // Never leave a half-written temporary file behind.
  auto give_up = [&](const char* action, const std::string& file, int err) {
    ::unlinkat(folder.last(), temp.c_str(), 0);
    fail_io(action, file, err);
  };
  if (int err = write_all(fd.get(), value)) give_up("write", temp_shown, err);
  if (sync && ::fsync(fd.get()) != 0) give_up("sync", temp_shown, errno);
  if (int err = fd.close_checked()) give_up("close", temp_shown, err);
  if (::renameat(folder.last(), temp.c_str(), folder.last(), name.c_str()) == 0) return Attempt::kDone;
  int err = errno;
  if (err == ENOENT) {
    ::unlinkat(folder.last(), temp.c_str(), 0);
    return Attempt::kRetry;
  }
  give_up("rename a temporary file over", fstree::join_path(folder.last_shown(), name), err);
  return Attempt::kRetry;  // not reached: give_up throws
}

}  // namespace zarr::fstree
