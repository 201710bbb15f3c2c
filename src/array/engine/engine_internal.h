// What the files of the engine share and nothing else sees: per-thread
// scratch buffers, how a region's chunk overlaps are visited, and the sizes
// that decide between the engine's paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/bytes.h"
#include "grid/chunk_grid.h"

namespace zarr::engine {

// Buffers each thread keeps from one chunk to the next (base/bytes.h's
// ScratchBuffer): the stored bytes of a chunk, and its decoded elements when
// they cannot be decoded straight into the region; and the box of a
// selection's picks in one chunk, read by the region paths (which use the
// other two) before the picks are gathered from it.
struct ChunkScratch {
  ScratchBuffer stored;
  ScratchBuffer decoded;
  ScratchBuffer box;

  // Not the box, which outlives the region paths' calls of this: its user
  // releases it.
  void release_above(size_t limit) {
    stored.release_above(limit);
    decoded.release_above(limit);
  }
};

inline ChunkScratch& thread_scratch() {
  thread_local ChunkScratch scratch;
  return scratch;
}

// Scratch buffers up to this size stay with their thread; bigger ones (huge
// chunks) are freed after each chunk.
constexpr size_t kScratchKeepLimit = size_t{64} << 20;

// How many chunk overlaps a region operation lists at a time: enough to keep
// every thread busy, few enough that listing a region of millions of chunks
// does not take memory of its own.
constexpr size_t kOverlapsPerBatch = 1024;

// Visit the overlaps of a region `batch_size` at a time (the last batch may
// be smaller), in C order of chunk coordinates.
inline void for_each_overlap_batch(const ChunkGrid& grid, const std::vector<uint64_t>& start,
                                   const std::vector<uint64_t>& count, size_t batch_size,
                                   const std::function<void(const std::vector<ChunkOverlap>&)>& visit) {
  std::vector<ChunkOverlap> batch;
  grid.for_each_overlap(start, count, [&](const ChunkOverlap& ov) {
    batch.push_back(ov);
    if (batch.size() < batch_size) return;
    visit(batch);
    batch.clear();
  });
  if (!batch.empty()) visit(batch);
}

}  // namespace zarr::engine
