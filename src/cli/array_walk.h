// Walking an array in bounded pieces, and turning elements into text.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "zarr/zarr.h"

namespace zarrtool {

// A box of elements: start and count per dimension.
struct Box {
  std::vector<uint64_t> start;
  std::vector<uint64_t> count;
};

// Splits box along dimension 0 at multiples of row_height (a chunk's extent),
// so each piece touches one row of chunks: memory stays bounded by one chunk
// row however large the array, and no chunk is decoded twice for one row.
void for_each_chunk_row(const Box& box, uint64_t row_height, const std::function<void(const Box&)>& visit);

// The grid of stored objects (chunks, or shards) over an array's shape: a
// regular step per axis, or for a rectilinear grid each axis's chunk
// boundaries as zarr_chunk_boundaries gives them (n + 1 entries, the last
// the extent).
struct StorageGrid {
  std::vector<uint64_t> shape;
  std::vector<uint64_t> step;                     // regular grids
  std::vector<std::vector<uint64_t>> boundaries;  // rectilinear; empty: regular

  size_t ndim() const { return shape.size(); }
  // Chunks holding part of axis d.
  uint64_t chunks_along(size_t d) const;
  // The box of the chunk at grid index `index` (clipped at the array's edge).
  Box box_of(const std::vector<uint64_t>& index) const;
};

// Every chunk-sized box of a grid, in C order of chunk indices.
void for_each_chunk(const StorageGrid& grid,
                    const std::function<void(const std::vector<uint64_t>& index, const Box&)>& visit);

// The chunk with C-order number `linear` of a grid: its grid index and its
// box (clipped at the array's edge). linear < chunk_count(grid).
struct ChunkAt {
  std::vector<uint64_t> index;
  Box box;
};
ChunkAt chunk_at(const StorageGrid& grid, uint64_t linear);

// Number of chunks of a grid.
uint64_t chunk_count(const StorageGrid& grid);

}  // namespace zarrtool

namespace zarrtool {

// The elements of one box, read either way the C API offers: fixed-size
// elements (item_size bytes each) or variable-length ones (offsets + data).
struct PieceData {
  size_t item_size = 0;              // 0 for variable-length elements
  std::vector<unsigned char> bytes;  // C order
  std::vector<uint64_t> offsets;     // variable-length: element i is bytes[offsets[i], offsets[i+1])

  const unsigned char* element(uint64_t i) const {
    return bytes.data() + (item_size ? i * item_size : offsets[i]);
  }
  size_t element_size(uint64_t i) const { return item_size ? item_size : offsets[i + 1] - offsets[i]; }
};

// Reads box; a failure is a CliError naming what and the box.
PieceData read_piece(zarr_array* array, const Box& box, const std::string& what);

// "[0:10, 20:30]" for messages.
std::string box_text(const Box& box);

}  // namespace zarrtool
