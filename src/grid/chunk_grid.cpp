#include "grid/chunk_grid.h"

#include <algorithm>
#include <charconv>

#include "base/error.h"

namespace zarr {

namespace {

std::vector<AxisEdges> regular_axes(const std::vector<uint64_t>& chunks) {
  std::vector<AxisEdges> axes;
  for (size_t d = 0; d < chunks.size(); ++d) {
    if (chunks[d] == 0) {
      fail(ZARR_ERR_INVALID_METADATA, "chunks[" + std::to_string(d) + "] must be positive, got 0");
    }
    axes.push_back(AxisEdges::regular(chunks[d]));
  }
  return axes;
}

}  // namespace

ChunkGrid::ChunkGrid(std::vector<uint64_t> shape, std::vector<uint64_t> chunks) : shape_(std::move(shape)) {
  if (shape_.size() != chunks.size()) {
    fail(ZARR_ERR_INVALID_METADATA, "chunks has " + std::to_string(chunks.size()) +
                                        " dimensions but shape has " + std::to_string(shape_.size()));
  }
  axes_ = regular_axes(chunks);
  chunks_ = std::move(chunks);
}

ChunkGrid ChunkGrid::with_axes(std::vector<uint64_t> shape, std::vector<AxisEdges> axes) {
  if (shape.size() != axes.size()) {
    fail(ZARR_ERR_INVALID_METADATA, "chunk grid has " + std::to_string(axes.size()) +
                                        " dimensions but shape has " + std::to_string(shape.size()));
  }
  ChunkGrid grid;
  for (size_t d = 0; d < axes.size(); ++d) {
    axes[d].check_covers(shape[d], "chunk edges of dimension " + std::to_string(d));
    grid.chunks_.push_back(axes[d].max_size());
  }
  grid.shape_ = std::move(shape);
  grid.axes_ = std::move(axes);
  return grid;
}

bool ChunkGrid::is_regular() const {
  for (const AxisEdges& axis : axes_) {
    if (!axis.is_regular()) return false;
  }
  return true;
}

std::vector<uint64_t> ChunkGrid::grid_shape() const {
  std::vector<uint64_t> grid(ndim());
  for (size_t d = 0; d < ndim(); ++d) grid[d] = axes_[d].chunks_covering(shape_[d]);
  return grid;
}

uint64_t ChunkGrid::chunk_count() const {
  return checked_product(grid_shape(), "chunk grid", ZARR_ERR_INVALID_METADATA);
}

uint64_t ChunkGrid::chunk_elements() const {
  return checked_product(chunks_, "chunk shape", ZARR_ERR_INVALID_METADATA);
}

std::vector<uint64_t> ChunkGrid::chunk_shape(const std::vector<uint64_t>& chunk_coords) const {
  std::vector<uint64_t> shape(ndim());
  for (size_t d = 0; d < ndim(); ++d) shape[d] = axes_[d].size_of(chunk_coords[d]);
  return shape;
}

uint64_t ChunkGrid::in_bounds_extent(size_t d, uint64_t index) const {
  return extent_below(axes_[d].start_of(index), axes_[d].size_of(index), shape_[d]);
}

bool ChunkGrid::contains_chunk(const std::vector<uint64_t>& chunk_coords) const {
  if (chunk_coords.size() != ndim()) return false;
  for (size_t d = 0; d < ndim(); ++d) {
    if (chunk_coords[d] >= axes_[d].chunks_covering(shape_[d])) return false;
  }
  return true;
}

bool ChunkGrid::overlap_along(size_t d, uint64_t start, uint64_t count, ChunkOverlap& ov) const {
  // The chunk begins at or before the region's last element, so inside the
  // shape; its in-bounds part ends at the shape at the latest, however far
  // past 2^64 - 1 the whole chunk would reach.
  const uint64_t chunk_begin = axes_[d].start_of(ov.chunk_coords[d]);
  ov.chunk_shape[d] = axes_[d].size_of(ov.chunk_coords[d]);
  const uint64_t chunk_end = chunk_begin + extent_below(chunk_begin, ov.chunk_shape[d], shape_[d]);
  const uint64_t lo = std::max(chunk_begin, start);
  const uint64_t hi = std::min(chunk_end, start + count);
  ov.chunk_offset[d] = lo - chunk_begin;
  ov.region_offset[d] = lo - start;
  ov.count[d] = hi - lo;
  return lo == chunk_begin && hi == chunk_end;
}

void ChunkGrid::for_each_overlap(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                 const std::function<void(const ChunkOverlap&)>& visit) const {
  const size_t n = ndim();
  for (size_t d = 0; d < n; ++d) {
    if (!run_inside(start[d], count[d], shape_[d])) {
      fail(ZARR_ERR_OUT_OF_BOUNDS, "region start " + std::to_string(start[d]) + " count " + std::to_string(count[d]) +
                                       " lies outside extent " + std::to_string(shape_[d]) + " on dimension " +
                                       std::to_string(d));
    }
  }
  for (uint64_t c : count) {
    if (c == 0) return;
  }
  // First and last chunk index touched along each dimension (the region's
  // last element is start + count - 1 <= shape - 1: no wrap).
  std::vector<uint64_t> first(n), last(n);
  for (size_t d = 0; d < n; ++d) {
    first[d] = axes_[d].chunk_of(start[d]);
    last[d] = axes_[d].chunk_of(start[d] + (count[d] - 1));
  }
  ChunkOverlap ov;
  ov.chunk_coords = first;
  ov.chunk_offset.resize(n);
  ov.region_offset.resize(n);
  ov.count.resize(n);
  ov.chunk_shape.resize(n);
  while (true) {
    ov.covers_chunk = true;
    for (size_t d = 0; d < n; ++d) {
      const bool covers = overlap_along(d, start[d], count[d], ov);  // every dimension, before the test
      ov.covers_chunk = ov.covers_chunk && covers;
    }
    visit(ov);
    // Advance the chunk odometer, last dimension fastest (C order).
    size_t d = n;
    while (d > 0) {
      --d;
      if (ov.chunk_coords[d] < last[d]) {
        ++ov.chunk_coords[d];
        break;
      }
      ov.chunk_coords[d] = first[d];
      if (d == 0) return;
    }
    if (n == 0) return;  // a 0-d grid has exactly one chunk
  }
}

std::string chunk_key(const std::vector<uint64_t>& chunk_coords, const ChunkKeyEncoding& encoding) {
  const bool v2 = encoding.kind == ChunkKeyEncoding::Kind::V2;
  std::string key = v2 ? "" : "c";
  if (chunk_coords.empty()) return v2 ? "0" : key;
  for (size_t d = 0; d < chunk_coords.size(); ++d) {
    if (d || !v2) key += encoding.separator;
    key += std::to_string(chunk_coords[d]);
  }
  return key;
}

bool parse_chunk_key(const std::string& key, const ChunkKeyEncoding& encoding, size_t ndim,
                     std::vector<uint64_t>& coords) {
  coords.clear();
  const bool v2 = encoding.kind == ChunkKeyEncoding::Kind::V2;
  if (ndim == 0) return key == (v2 ? "0" : "c");
  const char* p = key.data();
  const char* end = p + key.size();
  if (!v2) {  // "c" then a separator before the first coordinate
    if (key.size() < 2 || key[0] != 'c' || key[1] != encoding.separator) return false;
    p += 2;
  }
  while (true) {
    uint64_t value = 0;
    auto [next, ec] = std::from_chars(p, end, value);
    if (ec != std::errc() || next == p) return false;
    coords.push_back(value);
    p = next;
    if (p == end) break;
    if (*p != encoding.separator) return false;
    ++p;
  }
  return coords.size() == ndim;
}

}  // namespace zarr
