#include "grid/axis_edges.h"

#include <algorithm>
#include <limits>

#include "base/checked_math.h"
#include "base/error.h"

namespace zarr {

namespace {
constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
}

AxisEdges AxisEdges::regular(uint64_t size) {
  AxisEdges edges;
  edges.regular_ = true;
  edges.runs_ = {{size, 1}};
  edges.first_chunk_ = {0};
  edges.first_pos_ = {0};
  edges.max_size_ = size;
  return edges;
}

AxisEdges AxisEdges::from_runs(const std::vector<Run>& runs, const std::string& field) {
  if (runs.empty()) fail(ZARR_ERR_INVALID_METADATA, field + ": needs at least one edge length");
  AxisEdges edges;
  edges.regular_ = false;
  edges.max_size_ = 0;
  uint64_t chunks = 0;
  uint64_t pos = 0;
  bool pos_saturated = false;
  for (size_t i = 0; i < runs.size(); ++i) {
    const Run& run = runs[i];
    if (run.size == 0 || run.count == 0) {
      fail(ZARR_ERR_INVALID_METADATA, field + " item " + std::to_string(i) + ": edge lengths and counts must be " +
                                          "positive integers (at least 1), got " + std::to_string(run.size) +
                                          " x " + std::to_string(run.count));
    }
    edges.runs_.push_back(run);
    edges.first_chunk_.push_back(chunks);
    edges.first_pos_.push_back(pos_saturated ? kMax : pos);
    const std::optional<uint64_t> next_chunks = checked_add(chunks, run.count);
    if (!next_chunks) {
      fail(ZARR_ERR_INVALID_METADATA, field + ": more than 2^64 - 1 chunks along the axis");
    }
    chunks = *next_chunks;
    const std::optional<uint64_t> length = checked_mul(run.size, run.count);
    const std::optional<uint64_t> next_pos = length ? checked_add(pos, *length) : std::nullopt;
    pos_saturated = pos_saturated || !next_pos;
    pos = next_pos.value_or(kMax);
    edges.max_size_ = std::max(edges.max_size_, run.size);
  }
  if (!pos_saturated) edges.covered_ = pos;
  return edges;
}

void AxisEdges::check_covers(uint64_t extent, const std::string& field) const {
  if (covered_ && *covered_ < extent) {
    fail(ZARR_ERR_INVALID_METADATA, field + ": the edge lengths sum to " + std::to_string(*covered_) +
                                        ", less than the extent " + std::to_string(extent));
  }
}

size_t AxisEdges::run_of_chunk(uint64_t index) const {
  // The last run whose first chunk is at or before `index`.
  const auto it = std::upper_bound(first_chunk_.begin(), first_chunk_.end(), index);
  return static_cast<size_t>(it - first_chunk_.begin()) - 1;
}

uint64_t AxisEdges::chunk_of(uint64_t pos) const {
  if (regular_) return pos / runs_[0].size;
  const auto it = std::upper_bound(first_pos_.begin(), first_pos_.end(), pos);
  const size_t r = static_cast<size_t>(it - first_pos_.begin()) - 1;
  return first_chunk_[r] + (pos - first_pos_[r]) / runs_[r].size;
}

uint64_t AxisEdges::start_of(uint64_t index) const {
  // Only called for chunks holding a position of the array: no wrap.
  if (regular_) return index * runs_[0].size;
  const size_t r = run_of_chunk(index);
  return first_pos_[r] + (index - first_chunk_[r]) * runs_[r].size;
}

uint64_t AxisEdges::size_of(uint64_t index) const { return regular_ ? runs_[0].size : runs_[run_of_chunk(index)].size; }

uint64_t AxisEdges::chunks_covering(uint64_t extent) const { return extent == 0 ? 0 : chunk_of(extent - 1) + 1; }

}  // namespace zarr
