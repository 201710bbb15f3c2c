#include "array_walk.h"


#include "base/checked_math.h"
#include "cli_common.h"

namespace zarrtool {

void for_each_chunk_row(const Box& box, uint64_t row_height, const std::function<void(const Box&)>& visit) {
  if (box.count.empty()) {  // 0-d: one element, one piece
    visit(box);
    return;
  }
  // The box lies inside the array, so its end fits; the next chunk boundary
  // may not (the last chunk of an axis of 2^64 - 1): each piece's extent is
  // what is left of its chunk row, up to the box's end.
  const uint64_t end = box.start[0] + box.count[0];
  uint64_t row = box.start[0];
  while (row < end) {
    Box piece = box;
    piece.start[0] = row;
    piece.count[0] = zarr::extent_below(row, row_height - row % row_height, end);
    visit(piece);
    row += piece.count[0];
  }
}

uint64_t StorageGrid::chunks_along(size_t d) const {
  return boundaries.empty() ? zarr::ceil_div(shape[d], step[d]) : boundaries[d].size() - 1;
}

Box StorageGrid::box_of(const std::vector<uint64_t>& index) const {
  Box box{std::vector<uint64_t>(ndim()), std::vector<uint64_t>(ndim())};
  for (size_t d = 0; d < ndim(); ++d) {
    if (boundaries.empty()) {
      box.start[d] = index[d] * step[d];  // inside the shape
      box.count[d] = zarr::extent_below(box.start[d], step[d], shape[d]);
    } else {
      box.start[d] = boundaries[d][index[d]];
      box.count[d] = boundaries[d][index[d] + 1] - box.start[d];
    }
  }
  return box;
}

uint64_t chunk_count(const StorageGrid& grid) {
  uint64_t total = 1;  // at most the element count, which fits
  for (size_t d = 0; d < grid.ndim(); ++d) total *= grid.chunks_along(d);
  return total;
}

ChunkAt chunk_at(const StorageGrid& grid, uint64_t linear) {
  ChunkAt chunk{std::vector<uint64_t>(grid.ndim()), Box{}};
  // C order: the last dimension varies fastest.
  for (size_t d = grid.ndim(); d-- > 0;) {
    const uint64_t per_dim = grid.chunks_along(d);
    chunk.index[d] = linear % per_dim;
    linear /= per_dim;
  }
  chunk.box = grid.box_of(chunk.index);
  return chunk;
}

void for_each_chunk(const StorageGrid& grid,
                    const std::function<void(const std::vector<uint64_t>&, const Box&)>& visit) {
  const uint64_t total = chunk_count(grid);
  for (uint64_t i = 0; i < total; ++i) {
    const ChunkAt chunk = chunk_at(grid, i);
    visit(chunk.index, chunk.box);
  }
}

}  // namespace zarrtool

#include "cli_common.h"

namespace zarrtool {

std::string box_text(const Box& box) {
  std::string text = "[";
  for (size_t d = 0; d < box.start.size(); ++d) {
    if (d) text += ", ";
    text += std::to_string(box.start[d]) + ":" + std::to_string(box.start[d] + box.count[d]);
  }
  return text + "]";
}

static PieceData read_vlen_piece(zarr_array* array, const Box& box, const std::string& what) {
  PieceData piece;
  const size_t ndim = box.count.size();
  const uint64_t elements = product(box.count);
  buffer_bytes(elements, sizeof(uint64_t), what + " " + box_text(box));  // then one offset more fits too
  piece.offsets.resize(elements + 1);
  size_t needed = 0;
  // First call sizes the data buffer; ZARR_ERR_BUFFER_SIZE is expected then.
  int status = zarr_read_region_vlen(array, ndim, box.start.data(), box.count.data(), piece.offsets.data(),
                                     piece.offsets.size(), nullptr, 0, &needed);
  if (status != ZARR_ERR_BUFFER_SIZE) check(status, what + " " + box_text(box));
  if (status == ZARR_OK) return piece;
  piece.bytes.resize(needed);
  check(zarr_read_region_vlen(array, ndim, box.start.data(), box.count.data(), piece.offsets.data(),
                              piece.offsets.size(), piece.bytes.data(), piece.bytes.size(), &needed),
        what + " " + box_text(box));
  return piece;
}

PieceData read_piece(zarr_array* array, const Box& box, const std::string& what) {
  const size_t item_size = zarr_item_size(array);
  if (item_size == 0) return read_vlen_piece(array, box, what);
  PieceData piece;
  piece.item_size = item_size;
  piece.bytes.resize(buffer_bytes(product(box.count), item_size, what + " " + box_text(box)));
  check(zarr_read_region(array, box.count.size(), box.start.data(), box.count.data(), piece.bytes.data(),
                         piece.bytes.size()),
        what + " " + box_text(box));
  return piece;
}

}  // namespace zarrtool
