#include "array/engine/shard_part_read.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace zarr {

ShardPartRead::ShardPartRead(const Store& store, std::string key, uint64_t max_size,
                             std::optional<ArrayToBytesCodec::RangeRequest> locate, ChunkCache* index_cache,
                             bool keep_unversioned)
    : store_(store),
      key_(std::move(key)),
      max_size_(max_size),
      locate_(locate),
      index_cache_(locate ? index_cache : nullptr),
      keep_unversioned_(keep_unversioned),
      generation_(index_cache_ ? index_cache_->generation() : 0) {}

ArrayToBytesCodec::RangeReader ShardPartRead::reader() {
  return [this](int64_t offset, std::optional<uint64_t> length) { return read(offset, length); };
}

std::optional<Bytes> ShardPartRead::read(int64_t offset, std::optional<uint64_t> length) {
  const bool locating = index_cache_ && ArrayToBytesCodec::RangeRequest{offset, length} == *locate_;
  if (!locating) return fetch(offset, length);
  std::string version;
  if (std::optional<ChunkCache::Entry> kept = index_cache_->find(key_, &version)) {
    if (!*kept) return std::nullopt;  // kept as absent (unversioned stores only)
    std::lock_guard<std::mutex> lock(mutex_);
    seen_ = true;
    version_ = version;
    return **kept;
  }
  std::optional<Bytes> index = fetch(offset, length);
  std::lock_guard<std::mutex> lock(mutex_);
  index_fetched_ = true;
  fetched_index_ = index;
  fetched_index_version_ = version_;
  return index;
}

std::optional<Bytes> ShardPartRead::fetch(int64_t offset, std::optional<uint64_t> length) {
  ByteRange range;
  if (offset < 0) {
    range.suffix = static_cast<uint64_t>(-offset);
  } else {
    range.offset = static_cast<uint64_t>(offset);
    range.length = length;
    // Open at the end (the whole shard): held to the shard's limit, asking
    // for one byte more to tell a larger value.
    if (!length) range.length = saturating_add(max_size_ - std::min(range.offset, max_size_), 1);
  }
  Store::VersionedBytes got = store_.get_range_versioned(key_, range);
  if (!length && offset >= 0 && got.bytes && got.bytes->size() > max_size_ - std::min(range.offset, max_size_)) {
    fail_too_large(store_.describe(), key_, max_size_);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!got.bytes) {
    // Gone after an earlier read found it: read again from the start.
    if (seen_ && !version_.empty()) throw ShardChanged{};
    return std::nullopt;
  }
  check_version(got.version);
  return std::move(got.bytes);
}

// Under mutex_.
void ShardPartRead::check_version(const std::string& version) {
  if (!seen_) {
    seen_ = true;
    version_ = version;
    return;
  }
  if (version_.empty() || version.empty()) return;  // the store cannot tell
  if (version != version_) throw ShardChanged{};
}

void ShardPartRead::keep_index() {
  if (!index_cache_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!index_fetched_) return;
  if (!fetched_index_) {
    // Absent: kept only where no version can tell us it has appeared since.
    if (keep_unversioned_) index_cache_->put(key_, nullptr, generation_);
    return;
  }
  if (fetched_index_version_.empty() && !keep_unversioned_) return;
  index_cache_->put(key_, std::make_shared<const Bytes>(std::move(*fetched_index_)), generation_,
                    fetched_index_version_);
}

}  // namespace zarr
