// Region reads and writes of arrays with a rectilinear chunk grid
// (grid/axis_edges.h): chunks differ in shape, so each is decoded and
// encoded by the codec chain of its own shape (ArrayMetadata::chain_for),
// one whole chunk at a time. The regular grid's faster paths (decoding into
// the region, pieces, the cache_pool, reading part of a shard) assume one
// chunk shape and are not taken (array/engine/chunk_engine.h).
#include "array/engine/chunk_engine.h"
#include "array/engine/engine_internal.h"
#include "concurrency/thread_pool.h"

namespace zarr {

using engine::for_each_overlap_batch;
using engine::kOverlapsPerBatch;

Bytes ChunkEngine::read_rectilinear_chunk(const ChunkOverlap& ov, const CodecChain& chain,
                                          const std::string& key) const {
  const std::optional<Bytes> stored = chunk_store_->get(key, chunk_read_limit());
  if (stored) return chain.decode(*stored, key);
  Bytes chunk(meta_.chunk_bytes(ov.chunk_shape));
  strided_fill({chunk.size() / item_size()}, fill_item_, chunk.data(), {static_cast<int64_t>(item_size())});
  return chunk;
}

void ChunkEngine::read_region_rectilinear(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                          uint8_t* out, const std::vector<int64_t>& strides) const {
  const ChunkGrid grid = meta_.grid();
  for_each_overlap_batch(grid, start, count, kOverlapsPerBatch, [&](const std::vector<ChunkOverlap>& batch) {
    parallel_for(batch.size(), [&](size_t i) {
      const ChunkOverlap& ov = batch[i];
      const std::string key = chunk_key(ov.chunk_coords);
      const Bytes chunk = read_rectilinear_chunk(ov, *meta_.chain_for(ov.chunk_shape), key);
      const std::vector<int64_t> chunk_strides = c_order_strides(ov.chunk_shape, item_size());
      strided_copy(ov.count, item_size(), chunk.data() + byte_offset(ov.chunk_offset, chunk_strides), chunk_strides,
                   out + byte_offset(ov.region_offset, strides), strides, MemoryWrites::Cached);
    });
  });
}

void ChunkEngine::write_region_rectilinear(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                           const uint8_t* data, const std::vector<int64_t>& strides) {
  const ChunkGrid grid = meta_.grid();
  for_each_overlap_batch(grid, start, count, kOverlapsPerBatch, [&](const std::vector<ChunkOverlap>& batch) {
    parallel_for(batch.size(), [&](size_t i) {
      const ChunkOverlap& ov = batch[i];
      const std::string key = chunk_key(ov.chunk_coords);
      const KeyWriteLock held(*this, key);
      const std::shared_ptr<const CodecChain> chain = meta_.chain_for(ov.chunk_shape);
      Bytes chunk = read_rectilinear_chunk(ov, *chain, key);
      const std::vector<int64_t> chunk_strides = c_order_strides(ov.chunk_shape, item_size());
      strided_copy(ov.count, item_size(), data + byte_offset(ov.region_offset, strides), strides,
                   chunk.data() + byte_offset(ov.chunk_offset, chunk_strides), chunk_strides);
      if (!write_empty_chunks_ && is_fill_everywhere(chunk.data(), chunk.size())) {
        chunk_store_->erase(key);
      } else {
        chunk_store_->set(key, chain->encode(std::move(chunk)).view());
      }
    });
  });
}

}  // namespace zarr
