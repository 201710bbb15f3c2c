// Decoded chunks kept per array handle, up to a byte limit, least recently
// used first out (TensorStore's cache_pool "total_bytes_limit"). Off unless
// the handle is opened with "cache_pool".
//
// A chunk known to be absent is kept too (as "no bytes"), so that a sparse
// array read twice does not ask the store twice.
//
// Writes through the handle forget the chunks they change. A read that began
// before a write to the same chunk must not put the old bytes back after
// the write forgot them: put() takes the generation the reader saw before it
// fetched, and refuses once any chunk has been forgotten since.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "base/bytes.h"

namespace zarr {

class ChunkCache {
 public:
  // A cached chunk: its decoded bytes, or nullptr when the store has no such chunk.
  using Entry = std::shared_ptr<const Bytes>;

  explicit ChunkCache(uint64_t byte_limit) : byte_limit_(byte_limit) {}

  // The cached chunk (and it becomes the most recently used), or nullopt;
  // `version`, when given, receives the version it was put with.
  std::optional<Entry> find(const std::string& key, std::string* version = nullptr);
  // Counter to give put(): read it before fetching the chunk from the store.
  uint64_t generation() const;
  // Keep a chunk unless it alone is above the limit or a chunk was forgotten
  // after `generation`; older chunks go until the total fits.
  // `version`: the stored value's version it was decoded from
  // (Store::VersionedBytes), for a reader that checks it.
  void put(const std::string& key, Entry chunk, uint64_t generation, std::string version = {});
  // A write changed the chunk (or the array's shape changed: forget_all).
  void forget(const std::string& key);
  void forget_all();

  uint64_t bytes_used() const;
  size_t chunks_held() const;

 private:
  struct Slot {
    Entry chunk;
    std::string version;
    uint64_t bytes;
    std::list<std::string>::iterator use;  // position in uses_
  };
  static uint64_t footprint(const std::string& key, const Entry& chunk);
  void drop(std::unordered_map<std::string, Slot>::iterator slot);

  const uint64_t byte_limit_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Slot> slots_;
  std::list<std::string> uses_;  // most recently used first
  uint64_t bytes_used_ = 0;
  uint64_t generation_ = 0;
};

}  // namespace zarr
