// The array handle's selections: orthogonal indices, strided hyperslabs and
// points, checked against the shape and the caller's buffer, then handed to
// the engine under the shape lock (array/array.h, array/engine/selection.h).
#include "array/array.h"
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
    fail(ZARR_ERR_UNSUPPORTED, where + " holds variable-length elements, which selections do not read or write yet");
  }
  check_buffer_size(where, nbytes, {"the selection", selection_elements(request), item_size(), data_type_name_});
  const ChunkGrid grid(meta_.shape, meta_.chunks);
  switch (request.kind) {
    case SelectionRequest::Kind::Orthogonal:
      return orthogonal_selection(grid, item_size(), request.indices, request.counts, where);
    case SelectionRequest::Kind::Step:
      return step_selection(grid, item_size(), request.start, request.count, request.step, where);
    case SelectionRequest::Kind::Points:
      break;
  }
  return point_selection(grid, item_size(), request.npoints, request.coords, where);
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

}  // namespace zarr
