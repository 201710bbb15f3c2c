// The read engine: one chunk's part of a region at a time, by the cheapest
// path its chunk store and codecs allow (array/engine/chunk_engine.h).
#include <algorithm>

#include "array/engine/chunk_engine.h"
#include "array/engine/engine_internal.h"
#include "array/engine/fetch_pipeline.h"
#include "base/error.h"
#include "concurrency/thread_pool.h"

namespace zarr {

using engine::ChunkScratch;
using engine::for_each_overlap_batch;
using engine::kOverlapsPerBatch;
using engine::kScratchKeepLimit;
using engine::thread_scratch;

namespace {

// A region read at least this large is copied into the caller's buffer with
// streaming stores: its first chunks would be out of the cache by the time the
// read returns anyway, and not reading each destination line before writing
// it saves a third of the memory traffic (W1 of docs/performance.md: 0.028 s
// -> 0.022 s on 2 cores). Well above a core's share of a last-level cache.
constexpr uint64_t kStreamingRegionBytes = uint64_t{32} << 20;

// Pieces of an uncompressed chunk read for such a region: well inside a
// core's L2 cache (measured: 256 KiB-1 MiB pieces equally good, 8 MiB 5-7%
// slower on 2 cores).
constexpr size_t kReadPieceBytes = size_t{512} << 10;

}  // namespace

void ChunkEngine::read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, uint8_t* out,
                              std::vector<int64_t> strides, uint64_t region_bytes) const {
  const RegionTarget target{out, std::move(strides),
                            region_bytes >= kStreamingRegionBytes ? MemoryWrites::Streaming : MemoryWrites::Cached};
  const ChunkGrid grid = meta_.grid();
  if (chunk_store_->fetches_concurrently()) {
    // Remote stores: the store keeps many requests in flight, the pool
    // decodes each chunk as it arrives (read_chunk_batch).
    for_each_overlap_batch(grid, start, count, kOverlapsPerBatch,
                           [&](const std::vector<ChunkOverlap>& batch) { read_remote_batch(batch, target); });
    return;
  }
  // Each chunk is a task of its own: its part of the region is disjoint
  // from every other chunk's.
  for_each_overlap_batch(grid, start, count, kOverlapsPerBatch, [&](const std::vector<ChunkOverlap>& batch) {
    parallel_for(batch.size(), [&](size_t i) { read_chunk(batch[i], target); });
  });
}

void ChunkEngine::read_chunk(const ChunkOverlap& ov, const RegionTarget& target) const {
  const std::shared_ptr<const ChunkForm> form = form_of(ov);
  if (caches_chunks()) {
    read_chunk_through_cache(ov, *form, target);
  } else if (!form->chain->partial_reads()) {
    read_whole_chunk(ov, *form, target);
  } else if (ov.covers_chunk) {
    read_whole_shard(ov, *form, target);
  } else {
    // Sharded, in part: fetch the index and only the inner chunks this part needs.
    uint8_t* dst = target.base + byte_offset(ov.region_offset, target.strides);
    if (!read_chunk_part(chunk_key(ov.chunk_coords), ov, *form, dst, target.strides, target.stores)) {
      fill_overlap(ov, target);
    }
  }
}

void ChunkEngine::read_whole_chunk(const ChunkOverlap& ov, const ChunkForm& form, const RegionTarget& target) const {
  const std::string key = chunk_key(ov.chunk_coords);
  const CodecChain& chain = *form.chain;
  ChunkScratch& scratch = thread_scratch();
  // Chunks stored as they are laid out in memory (no compressor) are read
  // straight into the region when they fit there, else into scratch.
  const bool stored_as_laid_out = chain.decodes_into() && chain.bytes_to_bytes().empty();
  uint8_t* const in_region = target.base + byte_offset(ov.region_offset, target.strides);
  const bool read_in_region = stored_as_laid_out && lands_contiguously(ov, form, target);
  // The kernel's copy into scattered rows cannot stream: for a large region,
  // reading a chunk it covers in cache-sized pieces and streaming their rows
  // into place is faster. Part of a chunk is still read alone into its rows.
  const bool stream_from_scratch = target.stores == MemoryWrites::Streaming && ov.covers_chunk;
  if (!read_in_region && chain.stores_native_layout() &&
      (stream_from_scratch ? read_in_pieces(key, ov, form, target) : read_scattered(key, ov, form, target))) {
    return;
  }
  uint8_t* landed = nullptr;
  std::optional<size_t> size = chunk_store_->get_into(key, chunk_read_limit(), [&](size_t n) {
    landed = read_in_region && n == form.bytes ? in_region : scratch.stored.reserve(n);
    return landed;
  });
  if (!size) {
    fill_overlap(ov, target);
  } else if (stored_as_laid_out) {
    chain.decode_stored_in_place(landed, *size, key);
    if (landed != in_region) copy_out(landed, ov, form, target);
  } else {
    place_chunk(ByteView(landed, *size), key, ov, form, target);
  }
  scratch.release_above(kScratchKeepLimit);
}

void ChunkEngine::place_chunk(ByteView stored, const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                              const RegionTarget& target) const {
  const CodecChain& chain = *form.chain;
  if (!chain.decodes_into()) {
    copy_out(decode_chunk(form, stored, key).data(), ov, form, target);
    return;
  }
  if (lands_contiguously(ov, form, target)) {
    chain.decode_into(stored, target.base + byte_offset(ov.region_offset, target.strides), key);
    return;
  }
  if (target.stores == MemoryWrites::Streaming && ov.covers_chunk && chain.may_decode_in_pieces() &&
      place_in_pieces(stored, key, ov, form, target)) {
    return;
  }
  ScratchBuffer& decoded = thread_scratch().decoded;
  chain.decode_into(stored, decoded.reserve(form.bytes), key);
  copy_out(decoded.data(), ov, form, target);
}

// True when the overlap is a whole chunk whose elements lie in the region's
// buffer exactly as in a C-order chunk: it can be decoded right there.
bool ChunkEngine::lands_contiguously(const ChunkOverlap& ov, const ChunkForm& form,
                                     const RegionTarget& target) const {
  for (size_t d = 0; d < meta_.ndim(); ++d) {
    if (ov.count[d] != form.shape[d]) return false;
    if (ov.count[d] > 1 && target.strides[d] != form.strides[d]) return false;
  }
  return true;
}

void ChunkEngine::copy_out(const uint8_t* chunk, const ChunkOverlap& ov, const ChunkForm& form,
                           const RegionTarget& target) const {
  strided_copy(ov.count, item_size(), chunk + byte_offset(ov.chunk_offset, form.strides), form.strides,
               target.base + byte_offset(ov.region_offset, target.strides), target.strides, target.stores);
}

void ChunkEngine::fill_overlap(const ChunkOverlap& ov, const RegionTarget& target) const {
  strided_fill(ov.count, fill_item_, target.base + byte_offset(ov.region_offset, target.strides), target.strides);
}

// Overlaps of a region read from a remote store: whole chunks (and shards
// the region covers) through read_chunk_batch; parts of shards through their
// index, a task each.
void ChunkEngine::read_remote_batch(const std::vector<ChunkOverlap>& batch, const RegionTarget& target) const {
  const ChunkTask into_region = [&](size_t, const ChunkPlacer& place) { place(target); };
  if (!meta_.codecs.partial_reads()) {  // every chunk's chain has the codecs of the largest's
    read_chunk_batch(batch, into_region);
    return;
  }
  std::vector<ChunkOverlap> whole, parts;
  for (const ChunkOverlap& ov : batch) (ov.covers_chunk || caches_chunks() ? whole : parts).push_back(ov);
  read_chunk_batch(whole, into_region);
  parallel_for(parts.size(), [&](size_t i) { read_chunk(parts[i], target); });
}

// The stored bytes of the chunks fetched and waiting to be decoded, at most
// (engine/fetch_pipeline.h): with the requests in flight, what a remote read
// holds besides the caller's buffer.
constexpr uint64_t kPendingFetchedBytes = uint64_t{64} << 20;

void ChunkEngine::read_chunk_batch(const std::vector<ChunkOverlap>& all, const ChunkTask& task) const {
  std::vector<size_t> fetched;  // those the cache does not have
  std::vector<std::string> keys;
  for (size_t i = 0; i < all.size(); ++i) {
    std::string key = chunk_key(all[i].chunk_coords);
    bool cached = false;
    if (caches_chunks()) {
      task(i, [&](const RegionTarget& target) { return cached = read_cached(key, all[i], *form_of(all[i]), target); });
    }
    if (cached) continue;
    fetched.push_back(i);
    keys.push_back(std::move(key));
  }
  if (fetched.empty()) return;
  const uint64_t generation = cache_ ? cache_->generation() : 0;
  const auto fetch = [&](const engine::ValueArrived& arrived) {
    chunk_store_->get_each(keys, chunk_read_limit(), arrived);
  };
  const auto place = [&](size_t j, std::optional<Bytes>& stored) {
    const ChunkOverlap& ov = all[fetched[j]];
    const std::shared_ptr<const ChunkForm> form = form_of(ov);
    task(fetched[j], [&](const RegionTarget& target) {
      if (caches_chunks()) {
        decode_and_cache(stored, keys[j], generation, ov, *form, target);
      } else if (!stored) {
        fill_overlap(ov, target);
      } else if (form->chain->partial_reads()) {
        place_whole_shard(*stored, keys[j], ov, *form, target);
      } else {
        place_chunk(*stored, keys[j], ov, *form, target);
      }
      return true;
    });
    stored.reset();  // the stored bytes are not needed once decoded
  };
  engine::fetch_and_process(fetch, place, kPendingFetchedBytes);
}

// Copies a chunk handed over in pieces into its part of the region.
PieceScatter ChunkEngine::piece_scatter(const ChunkOverlap& ov, const ChunkForm& form,
                                        const RegionTarget& target) const {
  return PieceScatter(form.strides, ov.chunk_offset, ov.count, item_size(),
                      target.base + byte_offset(ov.region_offset, target.strides), target.strides, target.stores);
}

// A compressed chunk of a large region whose codec decodes block by block
// (blosc): each block streamed into its rows while still in the cache,
// instead of the whole chunk decoded into scratch and read back from memory
// (W2b of docs/performance.md). False when the codec decodes whole.
bool ChunkEngine::place_in_pieces(ByteView stored, const std::string& key, const ChunkOverlap& ov,
                                  const ChunkForm& form, const RegionTarget& target) const {
  PieceScatter scatter = piece_scatter(ov, form, target);
  if (!scatter.usable()) return false;
  const bool placed = form.chain->decode_in_pieces(
      stored, key, [&](const uint8_t* data, uint64_t offset, size_t n) { scatter.put(data, offset, n); });
  scatter.finish();
  return placed;
}

// An uncompressed chunk a large region covers, read in pieces small enough to
// stay in the cache and streamed from there into its rows: the kernel's copy
// lands in the cache instead of memory (W1 of docs/performance.md). False when
// the region's rows are single elements (then the chunk is read whole).
bool ChunkEngine::read_in_pieces(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                                 const RegionTarget& target) const {
  PieceScatter scatter = piece_scatter(ov, form, target);
  if (!scatter.usable()) return false;
  uint8_t* buffer = thread_scratch().stored.reserve(kReadPieceBytes);
  std::optional<size_t> size =
      chunk_store_->get_in_pieces(key, form.bytes, buffer, kReadPieceBytes,
                                  [&](const uint8_t* data, uint64_t offset, size_t n) { scatter.put(data, offset, n); });
  scatter.finish();
  if (!size) {
    fill_overlap(ov, target);
  } else {
    form.chain->check_stored_size(*size, key);
  }
  return true;
}

// An uncompressed chunk whose part of the region is not one block: its rows
// read by the store straight into place (one copy). False when the region's
// layout would make the rows single elements (then the caller reads the
// chunk into scratch instead).
bool ChunkEngine::read_scattered(const std::string& key, const ChunkOverlap& ov, const ChunkForm& form,
                                 const RegionTarget& target) const {
  const std::vector<Store::Piece> pieces = scatter_pieces(ov, form, target);
  if (pieces.empty()) return false;
  std::optional<size_t> size = chunk_store_->get_scattered(key, form.bytes, pieces);
  if (!size) {
    fill_overlap(ov, target);
  } else {
    form.chain->check_stored_size(*size, key);
  }
  return true;
}

// The overlap as the rows (runs of bytes) it has in both the stored chunk
// (C order) and the region, in increasing order of offset in the chunk.
// Empty when the rows would be single elements.
std::vector<Store::Piece> ChunkEngine::scatter_pieces(const ChunkOverlap& ov, const ChunkForm& form,
                                                      const RegionTarget& target) const {
  const BoxRows rows(ov.count, item_size(), form.strides, target.strides);
  std::vector<Store::Piece> pieces;
  if (!rows.contiguous()) return pieces;
  const uint64_t box_begin = static_cast<uint64_t>(byte_offset(ov.chunk_offset, form.strides));
  uint8_t* const box_dst = target.base + byte_offset(ov.region_offset, target.strides);
  rows.for_each([&](int64_t in_chunk, int64_t in_region) {
    pieces.push_back({box_begin + static_cast<uint64_t>(in_chunk), box_dst + in_region, rows.row_bytes()});
  });
  return pieces;
}

}  // namespace zarr
