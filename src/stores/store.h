// The abstract store interface of the Zarr v3 specification, used for v2 too.
//
// Keys are '/'-separated relative paths ("a/b/.zarray", "a/0.0"). A store is
// thread-safe: concurrent get/set/erase on different keys never interfere.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/bytes.h"

namespace zarr {

struct ByteRange {
  uint64_t offset = 0;
  std::optional<uint64_t> length;  // nullopt: to the end
};

struct DirListing {
  std::vector<std::string> keys;      // direct child keys (names only), sorted
  std::vector<std::string> prefixes;  // direct child "folders" (names only, no '/'), sorted
};

class Store {
 public:
  virtual ~Store() = default;

  // Whole value, or std::nullopt when the key is absent (absent is not an error).
  virtual std::optional<Bytes> get(const std::string& key) const = 0;
  // Byte range of a value; std::nullopt when absent. A range past the end is clipped.
  virtual std::optional<Bytes> get_range(const std::string& key, const ByteRange& range) const = 0;
  virtual bool exists(const std::string& key) const = 0;
  // Atomic per key: readers see the old or the new value, never a mix.
  virtual void set(const std::string& key, ByteView value) = 0;
  // Erasing an absent key is not an error.
  virtual void erase(const std::string& key) = 0;
  // Erase every key starting with prefix ("" erases everything).
  virtual void erase_prefix(const std::string& prefix) = 0;
  // Every key starting with prefix (full keys), sorted.
  virtual std::vector<std::string> list_prefix(const std::string& prefix) const = 0;
  // Children of a "directory" prefix ("" for the root, else ending in '/').
  virtual DirListing list_dir(const std::string& prefix) const = 0;

  virtual bool writable() const { return true; }
  virtual bool listable() const { return true; }
  virtual bool supports_partial_reads() const { return true; }
  // Human-readable location for error messages ("/data/x.zarr", "memory://a").
  virtual std::string describe() const = 0;
};

// Filesystem store rooted at a directory (created on first write if absent).
std::shared_ptr<Store> make_filesystem_store(const std::string& root);

// In-process store, shared by name while any handle holds it (memory://NAME).
std::shared_ptr<Store> make_memory_store(const std::string& name);

}  // namespace zarr
