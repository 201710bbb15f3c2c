// An exclusive lock on one key of one store, held for the life of the object,
// around a read-modify-write of the key: a chunk (array/engine/write.cpp) or
// a node's attributes (array/array_attributes.cpp, hierarchy/group.cpp).
//
// Within the process the lock is a mutex from one table for the whole
// process, chosen by the store's identity (Store::identity) and the key, so
// every handle on that store (opened separately, even through different URL
// spellings) takes the same one. With a lock folder (the "process_lock_dir"
// option) it is also the key's lock file <folder>/<key>.lock (FileLock),
// taken second so that threads of this process queue on the mutex rather
// than each opening the file; released in reverse order.
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "concurrency/file_lock.h"

namespace zarr {

// The in-process mutex of a key (a stripe of the table: keys may share one,
// so hold no other key mutex while holding one).
std::mutex& key_mutex(const std::string& store_identity, const std::string& key);

class KeyLock {
 public:
  // `lock_folder` empty: the in-process mutex only. Store keys are
  // '/'-separated hierarchy paths without '..', so the lock files mirror the
  // store's layout inside the lock folder, outside the store.
  KeyLock(const std::string& store_identity, const std::string& key, const std::string& lock_folder);
  KeyLock(const KeyLock&) = delete;
  KeyLock& operator=(const KeyLock&) = delete;

 private:
  std::lock_guard<std::mutex> in_process_;
  std::optional<FileLock> across_processes_;
};

}  // namespace zarr
