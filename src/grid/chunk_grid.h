// The regular chunk grid: which chunks a region touches, and which part of
// each chunk and of the region they share.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/checked_math.h"

namespace zarr {

// The overlap of one chunk with a region. All vectors have the grid's ndim.
struct ChunkOverlap {
  std::vector<uint64_t> chunk_coords;   // index of the chunk in the grid
  std::vector<uint64_t> chunk_offset;   // start of the overlap inside the chunk
  std::vector<uint64_t> region_offset;  // start of the overlap inside the region
  std::vector<uint64_t> count;          // extent of the overlap
  // True when the overlap covers every element of the chunk that lies inside
  // the array (edge chunks count as covered when their in-bounds part is).
  bool covers_chunk = false;
};

class ChunkGrid {
 public:
  // shape and chunks must have equal length; every chunk extent must be > 0.
  ChunkGrid(std::vector<uint64_t> shape, std::vector<uint64_t> chunks);

  size_t ndim() const { return shape_.size(); }
  const std::vector<uint64_t>& shape() const { return shape_; }
  const std::vector<uint64_t>& chunks() const { return chunks_; }
  // Number of chunks along each dimension: ceil(shape / chunks).
  std::vector<uint64_t> grid_shape() const;
  // Chunks in the whole grid (never more than the shape's elements: an
  // overflow is ZARR_ERR_INVALID_METADATA, as for a shape).
  uint64_t chunk_count() const;
  // Elements in one (whole) chunk.
  uint64_t chunk_elements() const;

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
  // Fills dimension d of `ov` (whose chunk_coords are set) for the region's
  // [start, start + count) along it; true when that covers the chunk's
  // in-bounds part.
  bool overlap_along(size_t d, uint64_t start, uint64_t count, ChunkOverlap& ov) const;

  std::vector<uint64_t> shape_;
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
