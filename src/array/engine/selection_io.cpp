// Selections through the engine (array/engine/selection.h): each touched
// chunk read once, into the box of its picks by the region paths (whole,
// in rows, a shard's inner chunks, the cache, batches of remote fetches),
// then its picks gathered; or read-modify-written once under its lock
// (array/engine/chunk_engine.h).
#include "array/engine/chunk_engine.h"
#include "array/engine/engine_internal.h"
#include "concurrency/thread_pool.h"

namespace zarr {

using engine::kOverlapsPerBatch;
using engine::kScratchKeepLimit;
using engine::thread_scratch;

void ChunkEngine::read_selection(const Selection& selection, uint8_t* out) const {
  const bool batched = chunk_store_->fetches_concurrently() && !meta_.codecs.partial_reads();
  selection.for_each_chunk_batch(kOverlapsPerBatch, [&](const std::vector<SelectedChunk>& batch) {
    // Chunk i: its box read into this thread's scratch, then its picks
    // gathered into `out` (disjoint from every other chunk's).
    const ChunkTask through_box = [&](size_t i, const ChunkPlacer& place) {
      const ChunkOverlap& box = batch[i].box;
      ScratchBuffer& buffer = thread_scratch().box;
      const std::vector<int64_t> box_strides = c_order_strides(box.count, item_size());
      const RegionTarget target{buffer.reserve(product_of(box.count).value_or(0) * item_size()), box_strides,
                                MemoryWrites::Cached};
      if (place(target)) selection.gather(batch[i], target.base, box.chunk_offset, box_strides, out);
      buffer.release_above(kScratchKeepLimit);
    };
    if (batched) {
      std::vector<ChunkOverlap> boxes;
      for (const SelectedChunk& chunk : batch) boxes.push_back(chunk.box);
      read_chunk_batch(boxes, through_box);
      return;
    }
    parallel_for(batch.size(), [&](size_t i) {
      through_box(i, [&](const RegionTarget& target) {
        read_chunk(batch[i].box, target);
        return true;
      });
    });
  });
}

void ChunkEngine::write_selection(const Selection& selection, const uint8_t* in) {
  const std::vector<uint64_t> chunk_origin(meta_.ndim(), 0);
  selection.for_each_chunk_batch(kOverlapsPerBatch, [&](const std::vector<SelectedChunk>& batch) {
    parallel_for(batch.size(), [&](size_t i) {
      // The whole chunk is read (unless every element of it is picked) and
      // its picks put in, in selection order.
      ChunkOverlap ov = batch[i].box;
      ov.covers_chunk = batch[i].picks_cover_chunk;
      write_chunk(ov, [&](uint8_t* chunk, const std::vector<int64_t>& chunk_strides) {
        selection.scatter(batch[i], in, chunk, chunk_origin, chunk_strides);
      });
    });
  });
}

}  // namespace zarr
