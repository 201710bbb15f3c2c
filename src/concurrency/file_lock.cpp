#include "concurrency/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "base/error.h"

namespace zarr {

namespace {

[[noreturn]] void fail_lock(const std::string& path, const std::string& what, int error_number) {
  fail(ZARR_ERR_IO, "lock file '" + path + "': " + what + ": " + std::strerror(error_number));
}

// Why `name` in `dir` could not be opened without following a link: a
// link is named as such (openat gives ELOOP, or ENOTDIR with O_DIRECTORY).
std::string open_problem(int dir, const std::string& name, const std::string& shown) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
    return "'" + shown + "' is a symbolic link (lock files never pass through one)";
  }
  return "cannot open '" + shown + "'";
}

// The lock folder itself, created when missing: the caller names it, so
// it may be (or pass through) a link, as a store's root may.
int open_lock_folder(const std::string& folder, const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) fail(ZARR_ERR_IO, "lock file '" + path + "': cannot create folder '" + folder + "': " + ec.message());
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) fail_lock(path, "cannot open folder '" + folder + "'", errno);
  return dir;
}

// `name` inside `dir` (a folder, created when missing, or the lock file,
// created when missing), opened without following a link; `dir` is closed
// either way.
int open_below(int dir, const std::string& name, bool folder, const std::string& shown, const std::string& path) {
  if (folder && ::mkdirat(dir, name.c_str(), 0777) != 0 && errno != EEXIST) {
    const int error_number = errno;
    ::close(dir);
    fail_lock(path, "cannot create folder '" + shown + "'", error_number);
  }
  const int flags = folder ? O_RDONLY | O_DIRECTORY : O_RDWR | O_CREAT;
  int fd;
  do {
    fd = ::openat(dir, name.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EINTR);
  const int error_number = errno;
  const std::string problem = fd < 0 ? open_problem(dir, name, shown) : "";
  ::close(dir);
  if (fd < 0) fail_lock(path, problem, error_number);
  return fd;
}

}  // namespace

FileLock::FileLock(const std::string& folder, const std::string& relative) {
  const std::string path = folder + "/" + relative;
  int dir = open_lock_folder(folder, path);
  for (size_t begin = 0;;) {
    const size_t slash = relative.find('/', begin);
    const bool last = slash == std::string::npos;
    const std::string name = relative.substr(begin, last ? std::string::npos : slash - begin);
    if (name.empty() || name == "." || name == "..") {
      ::close(dir);
      fail(ZARR_ERR_IO, "lock file '" + path + "': its path below the lock folder must be names only");
    }
    const int fd = open_below(dir, name, !last, folder + "/" + relative.substr(0, slash), path);
    if (last) {
      fd_ = fd;
      break;
    }
    dir = fd;
    begin = slash + 1;
  }
  int rc;
  do {
    rc = ::flock(fd_, LOCK_EX);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int error_number = errno;
    ::close(fd_);
    fail_lock(path, "cannot lock", error_number);
  }
}

FileLock::~FileLock() {
  // Closing the only descriptor of the open file description releases the lock.
  ::close(fd_);
}

}  // namespace zarr
