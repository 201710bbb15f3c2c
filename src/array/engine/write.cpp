// The write engine: each chunk a region touches is read (unless wholly
// overwritten), modified, encoded and set under its lock, or erased when it
// holds only the fill value (array/engine/chunk_engine.h).
#include "array/engine/chunk_engine.h"
#include "array/engine/engine_internal.h"
#include "concurrency/thread_pool.h"

namespace zarr {

using engine::ChunkScratch;
using engine::for_each_overlap_batch;
using engine::kOverlapsPerBatch;
using engine::kScratchKeepLimit;
using engine::thread_scratch;

void ChunkEngine::write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                               const uint8_t* data, std::vector<int64_t> strides) {
  const RegionSource source{data, std::move(strides)};
  const ChunkGrid grid = meta_.grid();
  // Each chunk is a task of its own, atomic as before: a failure leaves
  // every chunk either as it was or wholly written.
  for_each_overlap_batch(grid, start, count, kOverlapsPerBatch, [&](const std::vector<ChunkOverlap>& batch) {
    parallel_for(batch.size(), [&](size_t i) { write_chunk(batch[i], region_modifier(batch[i], source)); });
  });
}

ChunkEngine::ChunkModifier ChunkEngine::region_modifier(const ChunkOverlap& ov, const RegionSource& source) const {
  return [this, &ov, &source](uint8_t* chunk, const std::vector<int64_t>& chunk_strides) {
    strided_copy(ov.count, item_size(), source.base + byte_offset(ov.region_offset, source.strides), source.strides,
                 chunk + byte_offset(ov.chunk_offset, chunk_strides), chunk_strides);
  };
}

void ChunkEngine::write_chunk(const ChunkOverlap& ov, const ChunkModifier& modify) {
  const std::shared_ptr<const ChunkForm> form = form_of(ov);
  const CodecChain& chain = *form->chain;
  if (!chain.decodes_into()) {
    write_chunk_through_copies(ov, *form, modify);
    return;
  }
  const std::string key = chunk_key(ov.chunk_coords);
  const KeyWriteLock held(*this, key);
  // The chunk is built in the thread's scratch, and encoded into its other
  // scratch buffer: no chunk-sized allocation per chunk.
  ChunkScratch& scratch = thread_scratch();
  const size_t chunk_bytes = form->bytes;
  uint8_t* chunk = scratch.decoded.reserve(chunk_bytes);
  if (!overwrites_every_element(ov)) {
    // A chunk only partly overwritten keeps its other elements: read it first
    // (edge chunks: the part outside the array gets the fill value).
    std::optional<size_t> size;
    if (!ov.covers_chunk) {
      size = chunk_store_->get_into(key, chunk_read_limit(), [&](size_t n) { return scratch.stored.reserve(n); });
    }
    if (size) {
      chain.decode_into(ByteView(scratch.stored.data(), *size), chunk, key);
    } else {
      strided_fill({chunk_bytes / item_size()}, fill_item_, chunk, {static_cast<int64_t>(item_size())});
    }
  }
  modify(chunk, form->strides);
  if (!write_empty_chunks_ && is_fill_everywhere(chunk, chunk_bytes)) {
    chunk_store_->erase(key);
  } else {
    Bytes keep;
    chunk_store_->set(key, chain.encode_from(chunk, scratch.stored, keep));
  }
  forget_cached(key);
  scratch.release_above(kScratchKeepLimit);
}

// A selection's box may span the chunk without picking every element: only
// an overlap that covers the chunk says its elements are all written.
bool ChunkEngine::overwrites_every_element(const ChunkOverlap& ov) const {
  if (!ov.covers_chunk) return false;
  for (size_t d = 0; d < meta_.ndim(); ++d) {
    if (ov.count[d] != ov.chunk_shape[d]) return false;
  }
  return true;
}

// Chains with an array->array codec (transpose) or variable-length elements:
// chunks as Bytes through the whole chain.
void ChunkEngine::write_chunk_through_copies(const ChunkOverlap& ov, const ChunkForm& form,
                                             const ChunkModifier& modify) {
  const std::string key = chunk_key(ov.chunk_coords);
  const KeyWriteLock held(*this, key);
  std::optional<Bytes> stored = ov.covers_chunk ? std::nullopt : chunk_store_->get(key, chunk_read_limit());
  Bytes chunk = stored ? decode_chunk(form, *stored, key) : filled_chunk(form);
  stored.reset();
  modify(chunk.data(), form.strides);
  if (!write_empty_chunks_ && is_fill_everywhere(chunk.data(), chunk.size())) {
    chunk_store_->erase(key);
  } else {
    chunk_store_->set(key, form.chain->encode(std::move(chunk)).view());
  }
  forget_cached(key);
}

}  // namespace zarr
