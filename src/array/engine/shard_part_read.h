// Reading part of a shard: its index, then the byte ranges of the inner
// chunks the part needs (ArrayToBytesCodec::partial_decode). Those are
// several requests, and another handle or process may replace the shard
// between them; an index from one version of the shard paired with bytes
// from another would decode garbage or fail.
//
// ShardPartRead checks every read against the version of the shard the
// first one saw (Store::get_range_versioned) and throws ShardChanged when
// they differ, so the caller reads again. That check is also what lets the
// handle keep a shard's index between calls (the index cache): a kept index
// is used as the version it was read from, and the first range read that
// comes from another version throws, before any of its bytes is decoded.
// Stores that cannot tell versions ("" from get_range_versioned) are read
// unchecked, as before, and their indexes are kept only when the handle
// opted into a cache_pool.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "array/engine/chunk_cache.h"
#include "codecs/codec.h"
#include "stores/store.h"

namespace zarr {

// Thrown by a read that found the shard changed (or gone) since the first.
struct ShardChanged {};

class ShardPartRead {
 public:
  // `max_size`: the most bytes the shard can have (a read of it whole is
  // held to that); `index_cache` may be null (nothing kept);
  // `keep_unversioned`: keep the index even when the store cannot tell
  // versions.
  ShardPartRead(const Store& store, std::string key, uint64_t max_size,
                std::optional<ArrayToBytesCodec::RangeRequest> locate, ChunkCache* index_cache,
                bool keep_unversioned);

  // The RangeReader for partial_decode (called from several threads once
  // the index is read).
  ArrayToBytesCodec::RangeReader reader();
  // After a partial_decode that succeeded: keep the index it read.
  void keep_index();

 private:
  std::optional<Bytes> read(int64_t offset, std::optional<uint64_t> length);
  std::optional<Bytes> fetch(int64_t offset, std::optional<uint64_t> length);
  void check_version(const std::string& version);

  const Store& store_;
  const std::string key_;
  const uint64_t max_size_;
  const std::optional<ArrayToBytesCodec::RangeRequest> locate_;
  ChunkCache* const index_cache_;
  const bool keep_unversioned_;
  const uint64_t generation_;  // of the index cache, before anything was read

  std::mutex mutex_;
  bool seen_ = false;    // a read found the shard
  std::string version_;  // the version it had ("" when unknown)
  bool index_fetched_ = false;  // the index was read from the store (not kept)
  std::optional<Bytes> fetched_index_;
  std::string fetched_index_version_;
};

}  // namespace zarr
