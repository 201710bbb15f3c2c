// Changing an array's shape: resize and append (array/array.h).
#include "array/array.h"
#include "array/buffer_size.h"
#include "array/engine/chunk_engine.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/text.h"
#include "metadata/nodes.h"

namespace zarr {

// Refuse clearly, lose nothing: the chunks the new shape leaves out are
// listed, and each checked for erasing (a link on the way is refused), before
// the new shape is written; only then are they erased. Should an erase still
// fail (the store changed meanwhile), the new shape stays and so do the
// chunks not yet erased: resizing to it again erases them.
void Array::resize(const std::vector<uint64_t>& new_shape) {
  require_writable("resize");
  std::unique_lock lock(shape_mutex_);
  // A shape that cannot be represented is refused before anything changes.
  validate_shape(new_shape, meta_.dtype, "array " + describe_node(*store_, path_) + ": new shape " + list_text(new_shape),
                 ZARR_ERR_INVALID_ARGUMENT);
  check_grid_reaches(new_shape);
  const std::vector<std::string> outside = engine_->erasable_chunks_outside(new_shape);
  std::vector<uint64_t> old_shape = meta_.shape;
  meta_.shape = new_shape;
  try {
    write_metadata();
  } catch (...) {
    meta_.shape = std::move(old_shape);
    throw;
  }
  engine_->erase_chunks(outside);  // forgets the cached chunks, also when it fails
}

// A rectilinear grid's edges are the metadata's: the registry's README says
// nothing of a resize moving them, so the shape may move only within them
// (shrink, or grow into overflow chunks already declared).
void Array::check_grid_reaches(const std::vector<uint64_t>& new_shape) const {
  if (!meta_.rectilinear) return;
  for (size_t d = 0; d < new_shape.size(); ++d) {
    const std::optional<uint64_t> covered = (*meta_.rectilinear)[d].covered();
    if (covered && *covered < new_shape[d]) {
      fail(ZARR_ERR_INVALID_ARGUMENT, "array " + describe_node(*store_, path_) + ": new shape " + list_text(new_shape) +
                                          " passes the rectilinear chunk grid's edges on axis " + std::to_string(d) +
                                          ", which end at " + std::to_string(*covered));
    }
  }
}

void Array::append(size_t axis, const std::vector<uint64_t>& count, const void* data, size_t nbytes) {
  require_writable("append to");
  const std::string where = "array " + describe_node(*store_, path_) + ": append: ";
  std::vector<uint64_t> old_shape = shape();
  if (axis >= old_shape.size()) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + "axis " + std::to_string(axis) + " is not below the array's " +
                                        std::to_string(old_shape.size()) + " dimensions");
  }
  for (size_t d = 0; d < old_shape.size(); ++d) {
    if (d != axis && count[d] != old_shape[d]) {
      fail(ZARR_ERR_INVALID_ARGUMENT, where + "count " + list_text(count) + " must equal the array shape " +
                                          list_text(old_shape) + " on every axis but " + std::to_string(axis));
    }
  }
  std::vector<uint64_t> grown = old_shape;
  const std::optional<uint64_t> grown_extent = checked_add(grown[axis], count[axis]);
  if (!grown_extent) {
    fail(ZARR_ERR_INVALID_ARGUMENT, where + std::to_string(count[axis]) + " more along axis " + std::to_string(axis) +
                                        " would take the shape " + list_text(old_shape) + " past 2^64 - 1");
  }
  grown[axis] = *grown_extent;
  // Check the buffer and the new shape before changing anything, so a bad
  // call leaves no trace.
  check_buffer_size("array " + describe_node(*store_, path_) + ": append", nbytes,
                    {"append count " + list_text(count),
                     checked_product(count, "append count", ZARR_ERR_INVALID_ARGUMENT), item_size(), data_type_name_});
  validate_shape(grown, meta_.dtype, where + "new shape " + list_text(grown), ZARR_ERR_INVALID_ARGUMENT);
  resize(grown);
  std::vector<uint64_t> start(old_shape.size(), 0);
  start[axis] = old_shape[axis];
  write_region(start, count, data, nbytes, nullptr);
}

}  // namespace zarr
