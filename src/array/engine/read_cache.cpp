// The read engine through the cache_pool: decoded chunks kept per handle
// (array/engine/chunk_cache.h, array/engine/chunk_engine.h).
#include "array/engine/chunk_engine.h"

namespace zarr {

bool ChunkEngine::caches_chunks() const { return cache_ && meta_.chunk_bytes() <= cache_bytes_; }

bool ChunkEngine::read_cached(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                              const RegionTarget& target) const {
  std::optional<ChunkCache::Entry> cached = cache_->find(key);
  if (!cached) return false;
  if (*cached) {
    copy_out((*cached)->data(), ov, form, target);
  } else {
    fill_overlap(ov, target);
  }
  return true;
}

// A miss costs one get of the whole chunk (or shard) and a decode of all of
// it, even for a small part: the next reads of any part are then free.
void ChunkEngine::read_chunk_through_cache(const ChunkOverlap& ov, const ChunkForm& form,
                                           const RegionTarget& target) const {
  const std::string key = chunk_key(ov.chunk_coords);
  if (read_cached(key, ov, form, target)) return;
  const uint64_t generation = cache_->generation();
  decode_and_cache(chunk_store_->get(key, chunk_read_limit()), key, generation, ov, form, target);
}

// A rectilinear grid's chunks are cached at their own shape: a key always
// names one chunk, so one shape.
void ChunkEngine::decode_and_cache(const std::optional<Bytes>& stored, const std::string& key, uint64_t generation,
                                   const ChunkOverlap& ov, const ChunkForm& form, const RegionTarget& target) const {
  ChunkCache::Entry chunk;
  if (stored) {
    chunk = std::make_shared<const Bytes>(decode_chunk(form, *stored, key));
    copy_out(chunk->data(), ov, form, target);
  } else {
    fill_overlap(ov, target);
  }
  cache_->put(key, std::move(chunk), generation);
}

}  // namespace zarr
