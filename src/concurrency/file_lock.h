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
  // The lock file `relative` ('/'-separated names) inside `folder`: creates
  // it and its folders when missing, then blocks until the lock is ours.
  // `folder` is taken as the caller names it (it may be a link, as a store's
  // root may); below it no link is followed, so a link planted in a shared
  // lock folder never makes a lock file (or folder) appear elsewhere.
  // Failures throw ZARR_ERR_IO naming the lock file (and the link).
  FileLock(const std::string& folder, const std::string& relative);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace zarr
