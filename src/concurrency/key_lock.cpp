#include "concurrency/key_lock.h"

#include <array>
#include <functional>

#include "base/path.h"

namespace zarr {

std::mutex& key_mutex(const std::string& store_identity, const std::string& key) {
  static std::array<std::mutex, 1024> stripes;
  return stripes[std::hash<std::string>{}(path::join(store_identity, key)) % stripes.size()];
}

KeyLock::KeyLock(const std::string& store_identity, const std::string& key, const std::string& lock_folder)
    : in_process_(key_mutex(store_identity, key)) {
  if (!lock_folder.empty()) across_processes_.emplace(lock_folder, key + ".lock");
}

}  // namespace zarr
