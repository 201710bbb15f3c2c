// An exclusive advisory lock on a file, held for the life of the object:
// how processes sharing one filesystem store serialise their
// read-modify-writes of a chunk (the "process_lock_dir" option, see
// docs/scaling.md). The in-process chunk mutex still orders threads; this
// orders processes.
//
// The lock is flock(2) on a descriptor this object opens itself. flock
// belongs to the open file description, so two FileLocks on one path
// exclude each other even inside one process, and the kernel drops the lock
// when the holder dies, so a crashed writer never leaves a chunk locked.
#pragma once

#include <string>

namespace zarr {

class FileLock {
 public:
  // Creates the file and its folders when missing, then blocks until the
  // lock is ours. Failures throw ZARR_ERR_IO naming the lock file.
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace zarr
