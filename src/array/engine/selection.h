// Selections other than a box: orthogonal (outer) indices, strided
// hyperslabs and point lists (zarr_read_orthogonal, zarr_read_region_step,
// zarr_read_points), grouped by the chunks they touch so that the engine
// fetches, decodes and (for writes) re-encodes each touched chunk once per
// call (ChunkEngine::read_selection / write_selection).
//
// A selection is built once per call, checked against the shape (an index
// outside it is ZARR_ERR_OUT_OF_BOUNDS naming the axis and the index). The
// caller's indices and coordinates are read once, into the selection's own
// copy, which is what is checked and used (a caller's thread changing them
// during the call cannot move a pick outside the shape after its check). It
// keeps what the caller's indices say, grouped: memory in proportion to the
// indices given (orthogonal: each axis's list; a strided hyperslab: one run
// per touched chunk of each axis; points: two words per point), never to
// the product of the axes. Touched chunks are listed a batch at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "grid/chunk_grid.h"

namespace zarr {

// One chunk a selection touches.
struct SelectedChunk {
  // The box of the chunk's picks: chunk_coords, chunk_offset (its first
  // corner inside the chunk) and count; region_offset is zeros (the engine
  // reads the box into a buffer of its own); covers_chunk when the box is
  // the chunk's whole in-bounds part.
  ChunkOverlap box;
  // Every in-bounds element of the chunk is picked: a write need not read
  // the chunk first.
  bool picks_cover_chunk = false;
  // Which of the selection's picks are this chunk's (the selection's own
  // bookkeeping).
  std::vector<size_t> part;
};

class Selection {
 public:
  virtual ~Selection() = default;
  // Elements of the selection's buffer (C order of the selection, or point
  // order), which has elements() * item size bytes.
  uint64_t elements() const { return elements_; }
  // Visit the touched chunks `batch_size` at a time, each once.
  virtual void for_each_chunk_batch(size_t batch_size,
                                    const std::function<void(const std::vector<SelectedChunk>&)>& visit) const = 0;
  // Copy the chunk's picks between a buffer of part of the chunk (the
  // chunk's element `origin` at `chunk_side`, byte strides `strides`) and
  // the selection's buffer: out of the chunk (gather) or into it (scatter).
  // Scatter visits the picks in selection order, so where one element is
  // picked twice the later value stays.
  void gather(const SelectedChunk& chunk, const uint8_t* chunk_side, const std::vector<uint64_t>& origin,
              const std::vector<int64_t>& strides, uint8_t* out) const;
  void scatter(const SelectedChunk& chunk, const uint8_t* in, uint8_t* chunk_side,
               const std::vector<uint64_t>& origin, const std::vector<int64_t>& strides) const;

 protected:
  explicit Selection(size_t item_size) : item_size_(item_size) {}
  // Copy the picks of `chunk`, in selection order, from chunk_side to
  // selection_side (to_selection) or back.
  virtual void copy_picks(const SelectedChunk& chunk, uint8_t* chunk_side, const std::vector<uint64_t>& origin,
                          const std::vector<int64_t>& strides, uint8_t* selection_side, bool to_selection) const = 0;

  size_t item_size_;
  uint64_t elements_ = 0;
};

// Along axis d, indices[d][0 .. counts[d] - 1], in any order, repeats
// allowed; the selection is their outer product. `where` names the array in
// errors.
std::unique_ptr<Selection> orthogonal_selection(const ChunkGrid& grid, size_t item_size,
                                                const std::vector<const uint64_t*>& indices,
                                                const std::vector<uint64_t>& counts, const std::string& where);
// count[d] elements along axis d from start[d], every step[d]-th (step >= 1).
std::unique_ptr<Selection> step_selection(const ChunkGrid& grid, size_t item_size, const std::vector<uint64_t>& start,
                                          const std::vector<uint64_t>& count, const std::vector<uint64_t>& step,
                                          const std::string& where);
// npoints points of ndim coordinates each, point after point.
std::unique_ptr<Selection> point_selection(const ChunkGrid& grid, size_t item_size, uint64_t npoints,
                                           const uint64_t* coords, const std::string& where);

}  // namespace zarr
