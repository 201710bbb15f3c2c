// The chunk grid (regular, or rectilinear: grid/axis_edges.h): which chunks
// a region touches, and which part of each chunk and of the region they
// share.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/checked_math.h"
#include "grid/axis_edges.h"

namespace zarr {

// The overlap of one chunk with a region. All vectors have the grid's ndim.
struct ChunkOverlap {
  std::vector<uint64_t> chunk_coords;   // index of the chunk in the grid
  std::vector<uint64_t> chunk_offset;   // start of the overlap inside the chunk
  std::vector<uint64_t> region_offset;  // start of the overlap inside the region
  std::vector<uint64_t> count;          // extent of the overlap
  std::vector<uint64_t> chunk_shape;    // the whole chunk's shape (rectilinear: differs by chunk)
  // True when the overlap covers every element of the chunk that lies inside
  // the array (edge chunks count as covered when their in-bounds part is).
  bool covers_chunk = false;
};

class ChunkGrid {
 public:
  // shape and chunks must have equal length; every chunk extent must be > 0.
  ChunkGrid(std::vector<uint64_t> shape, std::vector<uint64_t> chunks);
  // A grid of any edges, one AxisEdges per dimension; the edges of each must
  // cover its extent (ZARR_ERR_INVALID_METADATA otherwise, naming the axis).
  static ChunkGrid with_axes(std::vector<uint64_t> shape, std::vector<AxisEdges> axes);

  size_t ndim() const { return shape_.size(); }
  const std::vector<uint64_t>& shape() const { return shape_; }
  // The largest chunk extent along each dimension: a regular grid's chunk
  // shape.
  const std::vector<uint64_t>& chunks() const { return chunks_; }
  const AxisEdges& axis(size_t d) const { return axes_[d]; }
  bool is_regular() const;
  // Number of chunks along each dimension (ceil(shape / chunks) when regular).
  std::vector<uint64_t> grid_shape() const;
  // Chunks in the whole grid (never more than the shape's elements: an
  // overflow is ZARR_ERR_INVALID_METADATA, as for a shape).
  uint64_t chunk_count() const;
  // Elements in the largest chunk.
  uint64_t chunk_elements() const;
  // The whole shape of the chunk at chunk_coords (inside the grid).
  std::vector<uint64_t> chunk_shape(const std::vector<uint64_t>& chunk_coords) const;
  // Where chunk `index` of dimension d begins, and how many of its
  // elements lie inside the shape.
  uint64_t chunk_start(size_t d, uint64_t index) const { return axes_[d].start_of(index); }
  uint64_t in_bounds_extent(size_t d, uint64_t index) const;
  // The chunk of dimension d holding position pos (< shape()[d]).
  uint64_t chunk_of(size_t d, uint64_t pos) const { return axes_[d].chunk_of(pos); }

  // Visit every chunk overlapping the region [start, start + count), in C order
  // of chunk coordinates; an empty region visits nothing. A region outside the
  // shape is ZARR_ERR_OUT_OF_BOUNDS (callers check it first, naming the array).
  // The last chunk along an axis may nominally end past 2^64 - 1: only its
  // part inside the shape is visited.
  void for_each_overlap(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                        const std::function<void(const ChunkOverlap&)>& visit) const;

  // True when chunk_coords lie inside the grid of this shape.
  bool contains_chunk(const std::vector<uint64_t>& chunk_coords) const;

 private:
  ChunkGrid() = default;
  // Fills dimension d of `ov` (whose chunk_coords are set) for the region's
  // [start, start + count) along it; true when that covers the chunk's
  // in-bounds part.
  bool overlap_along(size_t d, uint64_t start, uint64_t count, ChunkOverlap& ov) const;

  std::vector<uint64_t> shape_;
  std::vector<AxisEdges> axes_;
  std::vector<uint64_t> chunks_;
};

// How chunk coordinates become store keys (relative to the array's path):
//   V2:      "1.2.0", or "1/2/0" with separator '/'; a 0-d array's chunk is "0"
//   Default: "c/1/2/0", or "c.1.2.0" with separator '.'; a 0-d array's chunk is "c"
struct ChunkKeyEncoding {
  enum class Kind { Default, V2 } kind = Kind::V2;
  char separator = '.';
};

std::string chunk_key(const std::vector<uint64_t>& chunk_coords, const ChunkKeyEncoding& encoding);

// Parse a chunk key back into ndim coordinates; false when it is not one.
bool parse_chunk_key(const std::string& key, const ChunkKeyEncoding& encoding, size_t ndim,
                     std::vector<uint64_t>& coords);

}  // namespace zarr
