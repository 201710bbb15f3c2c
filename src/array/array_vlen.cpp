// The handle's region calls for variable-length elements (strings, bytes):
// the region and the caller's offsets checked, then handed to the engine
// (array/engine/vlen.cpp; a region is read and written as a selection, as
// the selections' _vlen calls in array/array_selection.cpp).
#include "array/array.h"

#include <string_view>

#include "array/engine/chunk_engine.h"
#include "array/engine/selection.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/text.h"
#include "concurrency/thread_pool.h"
#include "grid/chunk_grid.h"
#include "metadata/nodes.h"

namespace zarr {

namespace {

// The region's element count, once the caller's offsets have one entry
// more than that (a count of 2^64 - 1 elements has no such size).
uint64_t region_elements(const std::string& where, const std::vector<uint64_t>& count, size_t n_offsets) {
  const uint64_t n = checked_product(count, "region", ZARR_ERR_INVALID_ARGUMENT);
  const std::optional<uint64_t> needed = checked_add<uint64_t>(n, 1);
  if (needed != n_offsets) {
    fail(ZARR_ERR_BUFFER_SIZE, where + ": offsets holds " + std::to_string(n_offsets) + " entries, region " +
                                   list_text(count) + " needs " +
                                   (needed ? std::to_string(*needed) : "more than " + std::to_string(n)));
  }
  return n;
}

}  // namespace

// The caller's elements as views of data, each offset read once (a caller's
// thread changing offsets during the call cannot move a view outside data
// after its check): every element's bytes lie inside data, in order.
std::vector<std::string_view> Array::element_views(const std::string& where, const uint64_t* offsets, uint64_t n,
                                                   const uint8_t* data, size_t data_size) {
  std::vector<std::string_view> views(static_cast<size_t>(n));
  uint64_t begin = offsets[0];
  for (size_t i = 0; i < views.size(); ++i) {
    const uint64_t end = offsets[i + 1];
    if (begin > end || end > data_size) {
      fail(ZARR_ERR_INVALID_ARGUMENT, where + ": offsets[" + std::to_string(i + 1) + "] = " + std::to_string(end) +
                                          " is below offsets[" + std::to_string(i) + "] or past the " +
                                          std::to_string(data_size) + "-byte data buffer");
    }
    views[i] = std::string_view(reinterpret_cast<const char*>(data) + begin, static_cast<size_t>(end - begin));
    begin = end;
  }
  return views;
}

// Writes a checked selection's elements; a failed allocation (the element
// views, a chunk's) is ZARR_ERR_NO_MEMORY naming `count`.
void Array::write_vlen(const Selection& selection, const std::string& where, const uint64_t* offsets,
                       const uint8_t* data, size_t data_size, const std::vector<uint64_t>& count) {
  naming_out_of_memory("writing", count, [&] {
    engine_->write_selection_vlen(selection, element_views(where, offsets, selection.elements(), data, data_size));
  });
}

void Array::read_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                             uint64_t* offsets, size_t n_offsets, uint8_t* data, size_t capacity, size_t* data_size) {
  const std::string where = "array " + describe_node(*store_, path_);
  if (!engine_->variable_length()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + " has fixed-size elements: use zarr_read_region");
  }
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  check_bounds(start, count);
  region_elements(where, count, n_offsets);
  // The region's element views and chunks are what it allocates.
  naming_out_of_memory("reading", count, [&] {
    // A region is the selection of every element of its box (a step of 1):
    // read by the one piece of code that reads variable-length selections.
    const std::unique_ptr<Selection> region = step_selection(
        meta_.grid(), sizeof(std::string_view), start, count,
        std::vector<uint64_t>(count.size(), 1), where);
    engine_->read_selection_vlen(*region, offsets, data, capacity, data_size, where);
  });
}

void Array::write_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                              const uint64_t* offsets, size_t n_offsets, const uint8_t* data, size_t data_size) {
  const std::string where = "array " + describe_node(*store_, path_);
  if (!engine_->variable_length()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + " has fixed-size elements: use zarr_write_region");
  }
  require_writable("write to");
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  check_bounds(start, count);
  region_elements(where, count, n_offsets);
  // A region is the selection of every element of its box (a step of 1),
  // written by the one piece of code that writes variable-length selections.
  const std::unique_ptr<Selection> region = step_selection(meta_.grid(),
                                                           sizeof(std::string_view), start, count,
                                                           std::vector<uint64_t>(count.size(), 1), where);
  write_vlen(*region, where, offsets, data, data_size, count);
}

}  // namespace zarr
