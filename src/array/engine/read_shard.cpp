// The read engine's sharded chunks: part of a shard through its index, a
// shard the region covers read whole (array/engine/chunk_engine.h).
#include "array/engine/chunk_engine.h"
#include "array/engine/engine_internal.h"
#include "array/engine/shard_part_read.h"
#include "base/error.h"

namespace zarr {

using engine::ChunkScratch;
using engine::kScratchKeepLimit;
using engine::thread_scratch;

// A shard replaced by another writer between the reads of one part (or
// since its index was kept) is read again; after kShardReadAttempts such
// reads in a row it is read whole, in one request.
constexpr int kShardReadAttempts = 3;

bool ChunkEngine::read_chunk_part(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form, uint8_t* dst,
                                  const std::vector<int64_t>& dst_strides, MemoryWrites stores) const {
  // A writer in this process replaces the shard under this lock: hold it so
  // that stores which cannot tell versions never pair an old index with new bytes.
  std::lock_guard<std::mutex> chunk_guard(chunk_lock(key));
  try {
    for (int attempt = 0; attempt < kShardReadAttempts; ++attempt) {
      try {
        return read_shard_part(key, ov, form, dst, dst_strides, stores);
      } catch (const ShardChanged&) {
        shard_indexes_.forget(key);  // so the next attempt reads the index afresh
      }
    }
    std::optional<Bytes> whole = chunk_store_->get(key, chunk_read_limit());
    if (!whole) return false;
    form.chain->array_to_bytes()->decode_box(ByteView(whole->data(), whole->size()), form.chain->decoded(),
                                             ov.chunk_offset, ov.count, dst, dst_strides, stores);
    return true;
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
}

bool ChunkEngine::read_shard_part(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form, uint8_t* dst,
                                  const std::vector<int64_t>& dst_strides, MemoryWrites stores) const {
  const auto& codec = form.chain->array_to_bytes();
  ShardPartRead part(*chunk_store_, key, chunk_read_limit(), codec->locating_request(), &shard_indexes_,
                     cache_ != nullptr);
  const bool found = codec->partial_decode(part.reader(), form.chain->decoded(), ov.chunk_offset, ov.count, dst,
                                           dst_strides, stores);
  part.keep_index();
  return found;
}

// A shard the region covers: one read into the thread's scratch (a single
// get, so no lock is needed to pair its index with its inner chunks), then
// its inner chunks decoded in parallel.
void ChunkEngine::read_whole_shard(const ChunkOverlap& ov, const ChunkForm& form, const RegionTarget& target) const {
  const std::string key = chunk_key(ov.chunk_coords);
  ChunkScratch& scratch = thread_scratch();
  uint8_t* landed = nullptr;
  std::optional<size_t> size =
      chunk_store_->get_into(key, chunk_read_limit(), [&](size_t n) { return landed = scratch.stored.reserve(n); });
  if (!size) {
    fill_overlap(ov, target);
    return;
  }
  place_whole_shard(ByteView(landed, *size), key, ov, form, target);
  scratch.release_above(kScratchKeepLimit);
}

// A whole stored shard's part of the region: its inner chunks decoded in parallel.
void ChunkEngine::place_whole_shard(ByteView stored, const std::string& key, const ChunkOverlap& ov,
                                    const ChunkForm& form, const RegionTarget& target) const {
  try {
    form.chain->array_to_bytes()->decode_box(stored, form.chain->decoded(), ov.chunk_offset, ov.count,
                                             target.base + byte_offset(ov.region_offset, target.strides),
                                             target.strides, target.stores);
  } catch (const Error& e) {
    fail(e.code(), "chunk '" + key + "': " + e.what());
  }
}

}  // namespace zarr
