#include "array/engine/chunk_cache.h"

namespace zarr {

// What an entry costs: its bytes plus the key and bookkeeping, so that even
// absent chunks count against the limit and the cache cannot grow unbounded.
uint64_t ChunkCache::footprint(const std::string& key, const Entry& chunk) {
  constexpr uint64_t kBookkeeping = 96;
  return (chunk ? chunk->size() : 0) + key.size() + kBookkeeping;
}

std::optional<ChunkCache::Entry> ChunkCache::find(const std::string& key, std::string* version) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto slot = slots_.find(key);
  if (slot == slots_.end()) return std::nullopt;
  uses_.splice(uses_.begin(), uses_, slot->second.use);
  if (version) *version = slot->second.version;
  return slot->second.chunk;
}

uint64_t ChunkCache::generation() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return generation_;
}

void ChunkCache::put(const std::string& key, Entry chunk, uint64_t generation, std::string version) {
  const uint64_t bytes = footprint(key, chunk) + version.size();
  std::lock_guard<std::mutex> lock(mutex_);
  if (bytes > byte_limit_ || generation != generation_) return;
  auto existing = slots_.find(key);
  if (existing != slots_.end()) drop(existing);
  while (bytes > byte_limit_ - bytes_used_) drop(slots_.find(uses_.back()));  // bytes_used_ <= byte_limit_: no wrap
  uses_.push_front(key);
  slots_.emplace(key, Slot{std::move(chunk), std::move(version), bytes, uses_.begin()});
  bytes_used_ += bytes;
}

void ChunkCache::forget(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++generation_;
  auto slot = slots_.find(key);
  if (slot != slots_.end()) drop(slot);
}

void ChunkCache::forget_all() {
  std::lock_guard<std::mutex> lock(mutex_);
  ++generation_;
  slots_.clear();
  uses_.clear();
  bytes_used_ = 0;
}

uint64_t ChunkCache::bytes_used() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_used_;
}

size_t ChunkCache::chunks_held() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return slots_.size();
}

void ChunkCache::drop(std::unordered_map<std::string, Slot>::iterator slot) {
  bytes_used_ -= slot->second.bytes;
  uses_.erase(slot->second.use);
  slots_.erase(slot);
}

}  // namespace zarr
