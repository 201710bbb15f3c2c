#include "concurrency/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
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

void create_parent_folders(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) fail(ZARR_ERR_IO, "lock file '" + path + "': cannot create folder '" + parent.string() + "': " + ec.message());
}

}  // namespace

FileLock::FileLock(const std::string& path) {
  create_parent_folders(path);
  do {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) fail_lock(path, "cannot open", errno);
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
