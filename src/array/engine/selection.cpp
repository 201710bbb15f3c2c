// Selections grouped by chunk (array/engine/selection.h): an outer product
// of per-axis picks (orthogonal indices, strided hyperslabs) and point
// lists.
#include "array/engine/selection.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "base/checked_math.h"
#include "base/error.h"
#include "base/strided_copy.h"

namespace zarr {

void Selection::gather(const SelectedChunk& chunk, const uint8_t* chunk_side, const std::vector<uint64_t>& origin,
                       const std::vector<int64_t>& strides, uint8_t* out) const {
  // Only read through chunk_side: copy_picks writes the selection side.
  copy_picks(chunk, const_cast<uint8_t*>(chunk_side), origin, strides, out, true);
}

void Selection::scatter(const SelectedChunk& chunk, const uint8_t* in, uint8_t* chunk_side,
                        const std::vector<uint64_t>& origin, const std::vector<int64_t>& strides) const {
  copy_picks(chunk, chunk_side, origin, strides, const_cast<uint8_t*>(in), false);
}

namespace {

void copy_bytes(uint8_t* chunk_side, uint8_t* selection_side, size_t n, bool to_selection) {
  if (to_selection) {
    std::memcpy(selection_side, chunk_side, n);
  } else {
    std::memcpy(chunk_side, selection_side, n);
  }
}

// Picks along one axis: selection positions out .. out + length - 1 at the
// in-chunk positions in, in + in_step, ...
struct AxisRun {
  uint64_t out;
  uint64_t in;
  uint64_t length;
  int64_t in_step;
};

// The picks of one axis inside one chunk along it.
struct AxisChunk {
  uint64_t chunk;  // index along the axis
  size_t first_run;
  size_t end_run;
  uint64_t lo;  // the least and greatest in-chunk position picked
  uint64_t hi;
  bool covers;  // every in-bounds position of the chunk picked
};

struct AxisPicks {
  std::vector<AxisChunk> chunks;  // in increasing chunk index
  std::vector<AxisRun> runs;      // each chunk's in selection order
};

// Adds the pick (out, in) to the last chunk of `axis`, continuing its last
// run when it can.
void add_pick(AxisPicks& axis, uint64_t out, uint64_t in) {
  AxisChunk& chunk = axis.chunks.back();
  chunk.lo = std::min(chunk.lo, in);
  chunk.hi = std::max(chunk.hi, in);
  if (chunk.end_run > chunk.first_run) {
    AxisRun& run = axis.runs.back();
    const int64_t step = static_cast<int64_t>(in) - static_cast<int64_t>(run.in + (run.length - 1) * run.in_step);
    if (run.out + run.length == out && (run.length == 1 || step == run.in_step)) {
      if (run.length == 1) run.in_step = step;
      ++run.length;
      return;
    }
  }
  axis.runs.push_back({out, in, 1, 1});
  chunk.end_run = axis.runs.size();
}

// Whether the picks of `chunk` reach every in-bounds position of it.
bool picks_cover(const AxisPicks& axis, const AxisChunk& chunk, uint64_t extent) {
  uint64_t picks = 0;
  for (size_t r = chunk.first_run; r < chunk.end_run; ++r) picks += axis.runs[r].length;
  if (picks < extent) return false;
  std::vector<uint64_t> seen;
  for (size_t r = chunk.first_run; r < chunk.end_run; ++r) {
    const AxisRun& run = axis.runs[r];
    for (uint64_t k = 0; k < run.length; ++k) seen.push_back(run.in + k * run.in_step);
  }
  std::sort(seen.begin(), seen.end());
  return static_cast<uint64_t>(std::unique(seen.begin(), seen.end()) - seen.begin()) == extent;
}

// The grid's chunk holding each index along an axis (its start, its
// position in it) comes from the grid: any chunk grid, regular or not.
AxisPicks axis_from_indices(const ChunkGrid& grid, size_t d, const std::vector<uint64_t>& indices) {
  const uint64_t n = indices.size();
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t{0});
  // Sorted indices (the common case) are already grouped by chunk.
  if (!std::is_sorted(indices.begin(), indices.end())) {
    std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
      return grid.chunk_of(d, indices[a]) < grid.chunk_of(d, indices[b]);
    });
  }
  AxisPicks axis;
  for (uint64_t out : order) {
    const uint64_t c = grid.chunk_of(d, indices[out]), in = indices[out] - grid.chunk_start(d, c);
    if (axis.chunks.empty() || axis.chunks.back().chunk != c) {
      axis.chunks.push_back({c, axis.runs.size(), axis.runs.size(), in, in, false});
    }
    add_pick(axis, out, in);
  }
  for (AxisChunk& c : axis.chunks) c.covers = picks_cover(axis, c, grid.in_bounds_extent(d, c.chunk));
  return axis;
}

// count elements from start, every step-th: one run per chunk touched.
AxisPicks axis_from_step(const ChunkGrid& grid, size_t d, uint64_t start, uint64_t count, uint64_t step) {
  AxisPicks axis;
  for (uint64_t i = 0; i < count;) {
    const uint64_t at = start + i * step;  // checked by the caller: inside the shape
    const uint64_t c = grid.chunk_of(d, at), in = at - grid.chunk_start(d, c);
    const uint64_t extent = grid.in_bounds_extent(d, c);
    const uint64_t n = std::min(count - i, (extent - in - 1) / step + 1);
    // n distinct positions of [0, extent) cover it when there are extent of them.
    axis.chunks.push_back({c, axis.runs.size(), axis.runs.size() + 1, in, in + (n - 1) * step, n == extent});
    axis.runs.push_back({i, in, n, n > 1 ? static_cast<int64_t>(step) : 1});
    i += n;
  }
  return axis;
}

// The outer product of one AxisPicks per axis.
class OuterSelection final : public Selection {
 public:
  OuterSelection(const ChunkGrid& grid, size_t item_size, std::vector<AxisPicks> axes,
                 const std::vector<uint64_t>& counts)
      : Selection(item_size), axes_(std::move(axes)), grid_(grid) {
    elements_ = checked_product(counts, "selection", ZARR_ERR_INVALID_ARGUMENT);
    selection_strides_ = c_order_strides(counts, item_size);
  }

  void for_each_chunk_batch(size_t batch_size,
                            const std::function<void(const std::vector<SelectedChunk>&)>& visit) const override {
    if (elements_ == 0) return;
    const size_t n = axes_.size();
    std::vector<size_t> at(n, 0);  // the chunk of each axis, an odometer in C order
    std::vector<SelectedChunk> batch;
    do {
      batch.push_back(chunk_at(at));
      if (batch.size() == batch_size) {
        visit(batch);
        batch.clear();
      }
    } while (advance(at));
    if (!batch.empty()) visit(batch);
  }

 protected:
  void copy_picks(const SelectedChunk& chunk, uint8_t* chunk_side, const std::vector<uint64_t>& origin,
                  const std::vector<int64_t>& strides, uint8_t* selection_side, bool to_selection) const override {
    if (axes_.empty()) {
      copy_bytes(chunk_side, selection_side, item_size_, to_selection);
      return;
    }
    walk(0, chunk, origin, strides, chunk_side, selection_side, to_selection);
  }

 private:
  SelectedChunk chunk_at(const std::vector<size_t>& at) const {
    const size_t n = axes_.size();
    SelectedChunk c;
    c.part = at;
    c.box.chunk_coords.resize(n);
    c.box.chunk_offset.resize(n);
    c.box.count.resize(n);
    c.box.chunk_shape.resize(n);
    c.box.region_offset.assign(n, 0);
    c.box.covers_chunk = true;
    c.picks_cover_chunk = true;
    for (size_t d = 0; d < n; ++d) {
      const AxisChunk& a = axes_[d].chunks[at[d]];
      c.box.chunk_coords[d] = a.chunk;
      c.box.chunk_offset[d] = a.lo;
      c.box.count[d] = a.hi - a.lo + 1;
      c.box.chunk_shape[d] = grid_.axis(d).size_of(a.chunk);
      c.box.covers_chunk = c.box.covers_chunk && a.lo == 0 && a.hi + 1 == grid_.in_bounds_extent(d, a.chunk);
      c.picks_cover_chunk = c.picks_cover_chunk && a.covers;
    }
    return c;
  }

  bool advance(std::vector<size_t>& at) const {
    for (size_t d = at.size(); d-- > 0;) {
      if (++at[d] < axes_[d].chunks.size()) return true;
      at[d] = 0;
    }
    return false;
  }

  // The picks of axes d.. of `chunk`, in C order of the selection.
  void walk(size_t d, const SelectedChunk& chunk, const std::vector<uint64_t>& origin,
            const std::vector<int64_t>& strides, uint8_t* chunk_side, uint8_t* selection_side,
            bool to_selection) const {
    const AxisPicks& axis = axes_[d];
    const AxisChunk& picked = axis.chunks[chunk.part[d]];
    const bool innermost = d + 1 == axes_.size();
    const int64_t item = static_cast<int64_t>(item_size_);
    for (size_t r = picked.first_run; r < picked.end_run; ++r) {
      const AxisRun& run = axis.runs[r];
      uint8_t* in = chunk_side + static_cast<int64_t>(run.in - origin[d]) * strides[d];
      uint8_t* out = selection_side + static_cast<int64_t>(run.out) * selection_strides_[d];
      if (innermost && run.in_step == 1 && strides[d] == item) {
        copy_bytes(in, out, run.length * item_size_, to_selection);  // a row, both sides contiguous
        continue;
      }
      for (uint64_t k = 0; k < run.length; ++k) {
        if (innermost) {
          copy_bytes(in, out, item_size_, to_selection);
        } else {
          walk(d + 1, chunk, origin, strides, in, out, to_selection);
        }
        in += run.in_step * strides[d];
        out += selection_strides_[d];
      }
    }
  }

  std::vector<AxisPicks> axes_;
  ChunkGrid grid_;
  std::vector<int64_t> selection_strides_;  // of the selection's C-order buffer
};

// Points grouped by chunk: the point numbers in order of the chunk they
// fall in (C order of chunk coordinates), in point order within a chunk.
class PointSelection final : public Selection {
 public:
  PointSelection(const ChunkGrid& grid, size_t item_size, uint64_t npoints, std::vector<uint64_t> coords)
      : Selection(item_size),
        grid_(grid),
        grid_shape_(grid.grid_shape()),
        coords_(std::move(coords)),
        order_(npoints),
        chunk_ids_(npoints) {
    elements_ = npoints;
    const uint64_t chunks = grid_.chunk_count();  // C-order chunk numbers fit in 64 bits (else INVALID_METADATA)
    std::iota(order_.begin(), order_.end(), uint64_t{0});
    for (uint64_t p = 0; p < npoints; ++p) chunk_ids_[p] = chunk_id(p);
    if (std::is_sorted(chunk_ids_.begin(), chunk_ids_.end())) return;
    if (chunks <= npoints) {
      group_by_counting(chunks);  // as many counters as points at most: memory stays per point
      return;
    }
    std::stable_sort(order_.begin(), order_.end(),
                     [&](uint64_t a, uint64_t b) { return chunk_ids_[a] < chunk_ids_[b]; });
    std::vector<uint64_t> sorted(npoints);
    for (uint64_t k = 0; k < npoints; ++k) sorted[k] = chunk_ids_[order_[k]];
    chunk_ids_ = std::move(sorted);
  }

  void for_each_chunk_batch(size_t batch_size,
                            const std::function<void(const std::vector<SelectedChunk>&)>& visit) const override {
    std::vector<SelectedChunk> batch;
    for (size_t begin = 0; begin < order_.size();) {
      size_t end = begin + 1;
      while (end < order_.size() && chunk_ids_[end] == chunk_ids_[begin]) ++end;
      batch.push_back(chunk_of(begin, end));
      if (batch.size() == batch_size) {
        visit(batch);
        batch.clear();
      }
      begin = end;
    }
    if (!batch.empty()) visit(batch);
  }

 protected:
  void copy_picks(const SelectedChunk& chunk, uint8_t* chunk_side, const std::vector<uint64_t>& origin,
                  const std::vector<int64_t>& strides, uint8_t* selection_side, bool to_selection) const override {
    const size_t n = grid_.ndim();
    for (size_t k = chunk.part[0]; k < chunk.part[1]; ++k) {
      const uint64_t p = order_[k];
      int64_t offset = 0;
      for (size_t d = 0; d < n; ++d) {
        const uint64_t in = coords_[p * n + d] - grid_.chunk_start(d, chunk.box.chunk_coords[d]);
        offset += static_cast<int64_t>(in - origin[d]) * strides[d];
      }
      copy_bytes(chunk_side + offset, selection_side + p * item_size_, item_size_, to_selection);
    }
  }

 private:
  uint64_t chunk_id(uint64_t p) const {
    uint64_t id = 0;
    for (size_t d = 0; d < grid_.ndim(); ++d) {
      id = id * grid_shape_[d] + grid_.chunk_of(d, coords_[p * grid_.ndim() + d]);
    }
    return id;
  }

  // order_ as a stable sort by chunk id would leave it, in two passes over the points
  // (a mask's points, row after row, visit every chunk of a row in turn: a comparison
  // sort of millions of them cost more than reading the chunks).
  // chunk_ids_ then follows order_, rewritten in place (no second per-point array).
  void group_by_counting(uint64_t chunks) {
    std::vector<uint64_t> next(chunks + 1, 0);  // then: where each chunk's next point goes
    for (uint64_t id : chunk_ids_) ++next[id + 1];
    std::partial_sum(next.begin(), next.end(), next.begin());
    for (uint64_t p = 0; p < chunk_ids_.size(); ++p) order_[next[chunk_ids_[p]]++] = p;
    // next[c] is now the end of chunk c's points, next[c - 1] their start.
    for (uint64_t c = 0, begin = 0; c < chunks; begin = next[c++]) {
      std::fill(chunk_ids_.begin() + static_cast<std::ptrdiff_t>(begin),
                chunk_ids_.begin() + static_cast<std::ptrdiff_t>(next[c]), c);
    }
  }

  // The points order_[begin, end), all in one chunk.
  SelectedChunk chunk_of(size_t begin, size_t end) const {
    const size_t n = grid_.ndim();
    SelectedChunk c;
    c.part = {begin, end};
    c.box.chunk_coords.resize(n);
    c.box.chunk_offset.assign(n, UINT64_MAX);
    c.box.count.assign(n, 0);  // the greatest position until the end
    c.box.region_offset.assign(n, 0);
    c.box.chunk_shape.resize(n);
    std::vector<uint64_t> chunk_start(n);
    for (size_t d = 0; d < n; ++d) {
      c.box.chunk_coords[d] = grid_.chunk_of(d, coords_[order_[begin] * n + d]);
      c.box.chunk_shape[d] = grid_.axis(d).size_of(c.box.chunk_coords[d]);
      chunk_start[d] = grid_.chunk_start(d, c.box.chunk_coords[d]);
    }
    for (size_t k = begin; k < end; ++k) {
      for (size_t d = 0; d < n; ++d) {
        const uint64_t in = coords_[order_[k] * n + d] - chunk_start[d];
        c.box.chunk_offset[d] = std::min(c.box.chunk_offset[d], in);
        c.box.count[d] = std::max(c.box.count[d], in);
      }
    }
    c.box.covers_chunk = true;
    for (size_t d = 0; d < n; ++d) {
      c.box.count[d] = c.box.count[d] - c.box.chunk_offset[d] + 1;
      c.box.covers_chunk = c.box.covers_chunk && c.box.chunk_offset[d] == 0 &&
                           c.box.count[d] == grid_.in_bounds_extent(d, c.box.chunk_coords[d]);
    }
    return c;  // picks_cover_chunk stays false: a write reads the chunk first
  }

  ChunkGrid grid_;
  std::vector<uint64_t> grid_shape_;  // chunks along each axis
  std::vector<uint64_t> coords_;  // the caller's, copied before they were checked
  std::vector<uint64_t> order_;
  std::vector<uint64_t> chunk_ids_;  // of order_'s points
};

[[noreturn]] void fail_outside(const std::string& where, const std::string& what, size_t d, uint64_t index,
                               uint64_t extent) {
  fail(ZARR_ERR_OUT_OF_BOUNDS, where + ": " + what + " on axis " + std::to_string(d) + " is index " +
                                   std::to_string(index) + ", outside the array's extent " + std::to_string(extent));
}

}  // namespace

// The caller's indices are read once each, into the selection's own copy,
// and that copy is what is checked and used: a caller changing its array
// during the call cannot move a pick outside the shape after its check.
// An empty selection (a count of 0) keeps none, but still has them checked.
std::unique_ptr<Selection> orthogonal_selection(const ChunkGrid& grid, size_t item_size,
                                                const std::vector<const uint64_t*>& indices,
                                                const std::vector<uint64_t>& counts, const std::string& where) {
  const bool empty = checked_product(counts, "selection", ZARR_ERR_INVALID_ARGUMENT) == 0;
  std::vector<std::vector<uint64_t>> copies(grid.ndim());
  for (size_t d = 0; d < grid.ndim(); ++d) {
    if (!empty) copies[d].reserve(counts[d]);
    for (uint64_t i = 0; i < counts[d]; ++i) {
      const uint64_t index = indices[d][i];
      if (index >= grid.shape()[d]) {
        fail_outside(where, "entry " + std::to_string(i) + " of the indices", d, index, grid.shape()[d]);
      }
      if (!empty) copies[d].push_back(index);
    }
  }
  std::vector<AxisPicks> axes(grid.ndim());
  if (!empty) {
    for (size_t d = 0; d < grid.ndim(); ++d) axes[d] = axis_from_indices(grid, d, copies[d]);
  }
  return std::make_unique<OuterSelection>(grid, item_size, std::move(axes), counts);
}

std::unique_ptr<Selection> step_selection(const ChunkGrid& grid, size_t item_size, const std::vector<uint64_t>& start,
                                          const std::vector<uint64_t>& count, const std::vector<uint64_t>& step,
                                          const std::string& where) {
  for (size_t d = 0; d < grid.ndim(); ++d) {
    if (step[d] == 0) {
      fail(ZARR_ERR_INVALID_ARGUMENT, where + ": step on axis " + std::to_string(d) + " is 0; steps are at least 1");
    }
    if (count[d] == 0) {
      if (start[d] > grid.shape()[d]) fail_outside(where, "the start", d, start[d], grid.shape()[d]);
      continue;
    }
    const std::optional<uint64_t> span = checked_mul(count[d] - 1, step[d]);
    const std::optional<uint64_t> last = span ? checked_add(start[d], *span) : std::nullopt;
    if (!last) {
      fail(ZARR_ERR_OUT_OF_BOUNDS, where + ": on axis " + std::to_string(d) + ", start " + std::to_string(start[d]) +
                                       " + (count " + std::to_string(count[d]) + " - 1) x step " +
                                       std::to_string(step[d]) + " passes 2^64 - 1, outside the array's extent " +
                                       std::to_string(grid.shape()[d]));
    }
    if (*last >= grid.shape()[d]) fail_outside(where, "the last element", d, *last, grid.shape()[d]);
  }
  std::vector<AxisPicks> axes(grid.ndim());
  if (checked_product(count, "selection", ZARR_ERR_INVALID_ARGUMENT) > 0) {
    for (size_t d = 0; d < grid.ndim(); ++d) axes[d] = axis_from_step(grid, d, start[d], count[d], step[d]);
  }
  return std::make_unique<OuterSelection>(grid, item_size, std::move(axes), count);
}

std::unique_ptr<Selection> point_selection(const ChunkGrid& grid, size_t item_size, uint64_t npoints,
                                           const uint64_t* coords, const std::string& where) {
  const size_t n = grid.ndim();
  if (!checked_mul(npoints, uint64_t{n})) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + ": " + std::to_string(npoints) + " points of " + std::to_string(n) +
                                        " coordinates are more than 2^64 - 1 coordinates");
  }
  // Copied once, then checked and used (as orthogonal_selection's indices).
  std::vector<uint64_t> copy;
  if (npoints > 0 && n > 0) copy.assign(coords, coords + npoints * n);
  for (uint64_t p = 0; p < npoints; ++p) {
    for (size_t d = 0; d < n; ++d) {
      const uint64_t index = copy[p * n + d];
      if (index >= grid.shape()[d]) fail_outside(where, "point " + std::to_string(p), d, index, grid.shape()[d]);
    }
  }
  return std::make_unique<PointSelection>(grid, item_size, npoints, std::move(copy));
}

}  // namespace zarr
