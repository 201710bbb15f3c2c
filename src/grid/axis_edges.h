// The chunk edges along one axis of a chunk grid: a regular step repeated
// without end, or the runs of a rectilinear grid (the zarr-extensions
// "rectilinear" chunk grid: explicit edge lengths and [value, count] runs).
// Runs are kept as runs and searched, never expanded: "[[1, 2^64 - 1]]"
// is one run of a few bytes, not 2^64 - 1 entries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zarr {

class AxisEdges {
 public:
  // `count` edges of `size` elements each.
  struct Run {
    uint64_t size;
    uint64_t count;
  };

  // Edges of `size` (> 0) repeated without end: a regular grid's axis, and
  // the integer form of a rectilinear chunk_shapes entry.
  static AxisEdges regular(uint64_t size);
  // Explicit runs in order. Throws ZARR_ERR_INVALID_METADATA naming `field`
  // when there are none, a size or count is 0, or the number of chunks
  // passes 2^64 - 1. The runs are kept as given (metadata writes them back).
  static AxisEdges from_runs(const std::vector<Run>& runs, const std::string& field);

  bool is_regular() const { return regular_; }
  // The runs (one run of count 1 when regular).
  const std::vector<Run>& runs() const { return runs_; }
  // The largest edge.
  uint64_t max_size() const { return max_size_; }
  // The elements the edges cover; nullopt without end (regular) or at or
  // past 2^64.
  std::optional<uint64_t> covered() const { return covered_; }

  // ZARR_ERR_INVALID_METADATA naming `field` unless the edges reach
  // `extent` (they may pass it by any number of chunks).
  void check_covers(uint64_t extent, const std::string& field) const;

  // For an axis of `extent` elements (which covered() must reach): the
  // chunks that hold part of it, the chunk holding position `pos` (<
  // extent), where chunk `index` begins and its edge length.
  uint64_t chunks_covering(uint64_t extent) const;
  uint64_t chunk_of(uint64_t pos) const;
  uint64_t start_of(uint64_t index) const;
  uint64_t size_of(uint64_t index) const;

 private:
  size_t run_of_chunk(uint64_t index) const;

  bool regular_ = true;
  std::vector<Run> runs_;
  // first_chunk_[r] / first_pos_[r]: the index and start of run r's first
  // chunk (first_pos_ saturates at 2^64 - 1: no position of an array
  // reaches a run starting there).
  std::vector<uint64_t> first_chunk_;
  std::vector<uint64_t> first_pos_;
  uint64_t max_size_ = 1;
  std::optional<uint64_t> covered_;
};

}  // namespace zarr
