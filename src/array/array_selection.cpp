// The array handle's selections: orthogonal indices, strided hyperslabs and
// points, checked against the shape and the caller's buffer (or offsets, for
// variable-length elements), then handed to the engine under the shape lock
// (array/array.h, array/engine/selection.h).
#include "array/array.h"

#include <string_view>

#include "array/buffer_size.h"
#include "array/engine/chunk_engine.h"
#include "array/engine/selection.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "concurrency/thread_pool.h"
#include "grid/chunk_grid.h"
#include "metadata/nodes.h"

namespace zarr {

namespace {

// The selection's elements: product(counts) (orthogonal, strided), npoints
// (points); nullopt when more than 2^64 - 1.
std::optional<uint64_t> selection_elements(const SelectionRequest& request) {
  switch (request.kind) {
    case SelectionRequest::Kind::Orthogonal:
      return product_of(request.counts);
    case SelectionRequest::Kind::Step:
      return product_of(request.count);
    case SelectionRequest::Kind::Points:
      return request.npoints;
  }
  return std::nullopt;
}

}  // namespace

std::unique_ptr<Selection> Array::checked_selection(const SelectionRequest& request, size_t nbytes) const {
  const std::string where = std::string(request.function) + ": array " + describe_node(*store_, path_);
  if (engine_->variable_length()) {
    fail(ZARR_ERR_UNSUPPORTED, where + " holds variable-length elements: use " + request.function + "_vlen");
  }
  check_buffer_size(where, nbytes, {"the selection", selection_elements(request), item_size(), data_type_name_});
  return built_selection(request, item_size(), where);
}

// The offsets of a variable-length read or write hold one entry more than
// the selection's elements (element i is data[offsets[i], offsets[i + 1])).
std::unique_ptr<Selection> Array::checked_vlen_selection(const SelectionRequest& request, size_t n_offsets) const {
  const std::string where = std::string(request.function) + ": array " + describe_node(*store_, path_);
  if (!engine_->variable_length()) {
    const std::string function = request.function;
    fail(ZARR_ERR_INVALID_ARGUMENT, where + " has fixed-size elements: use " +
                                        function.substr(0, function.size() - std::string("_vlen").size()));
  }
  const std::optional<uint64_t> elements = selection_elements(request);
  const std::optional<uint64_t> needed = elements ? checked_add<uint64_t>(*elements, 1) : std::nullopt;
  if (needed != n_offsets) {
    fail(ZARR_ERR_BUFFER_SIZE, where + ": offsets holds " + std::to_string(n_offsets) + " entries, the selection of " +
                                   (elements ? std::to_string(*elements) : "more than 2^64 - 1") +
                                   " elements needs " + (needed ? std::to_string(*needed) : "more than 2^64 - 1"));
  }
  return built_selection(request, sizeof(std::string_view), where);
}

std::unique_ptr<Selection> Array::built_selection(const SelectionRequest& request, size_t item_size,
                                                  const std::string& where) const {
  const ChunkGrid grid = meta_.grid();
  switch (request.kind) {
    case SelectionRequest::Kind::Orthogonal:
      return orthogonal_selection(grid, item_size, request.indices, request.counts, where);
    case SelectionRequest::Kind::Step:
      return step_selection(grid, item_size, request.start, request.count, request.step, where);
    case SelectionRequest::Kind::Points:
      break;
  }
  return point_selection(grid, item_size, request.npoints, request.coords, where);
}

void Array::read_selection(const SelectionRequest& request, void* out, size_t nbytes) {
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  const std::unique_ptr<Selection> selection = checked_selection(request, nbytes);
  naming_out_of_memory("reading", {selection->elements()},
                       [&] { engine_->read_selection(*selection, static_cast<uint8_t*>(out)); });
}

void Array::write_selection(const SelectionRequest& request, const void* data, size_t nbytes) {
  require_writable("write to");
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  const std::unique_ptr<Selection> selection = checked_selection(request, nbytes);
  naming_out_of_memory("writing", {selection->elements()},
                       [&] { engine_->write_selection(*selection, static_cast<const uint8_t*>(data)); });
}

void Array::read_selection_vlen(const SelectionRequest& request, uint64_t* offsets, size_t n_offsets, uint8_t* data,
                                size_t capacity, size_t* data_size) {
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  const std::unique_ptr<Selection> selection = checked_vlen_selection(request, n_offsets);
  const std::string where = std::string(request.function) + ": array " + describe_node(*store_, path_);
  // The selection's element views and chunks are what it allocates.
  naming_out_of_memory("reading", {selection->elements()}, [&] {
    engine_->read_selection_vlen(*selection, offsets, data, capacity, data_size, where);
  });
}

void Array::write_selection_vlen(const SelectionRequest& request, const uint64_t* offsets, size_t n_offsets,
                                 const uint8_t* data, size_t data_size) {
  require_writable("write to");
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  const std::unique_ptr<Selection> selection = checked_vlen_selection(request, n_offsets);
  const std::string where = std::string(request.function) + ": array " + describe_node(*store_, path_);
  write_vlen(*selection, where, offsets, data, data_size, {selection->elements()});
}

}  // namespace zarr
