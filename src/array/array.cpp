// The array handle's region calls: each region is checked against the
// shape and the caller's buffer, then handed to the engine under the shape
// lock (array/array.h, array/engine/chunk_engine.h).
#include "array/array.h"

#include "array/buffer_size.h"
#include "array/engine/chunk_engine.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/strided_copy.h"
#include "base/text.h"
#include "concurrency/thread_pool.h"
#include "grid/chunk_grid.h"
#include "metadata/nodes.h"

namespace zarr {

std::vector<uint64_t> Array::shape() const {
  std::shared_lock lock(shape_mutex_);
  return meta_.shape;
}

size_t Array::item_size() const { return engine_->item_size(); }

std::string Array::description() const { return "array " + describe_node(*store_, path_); }

const std::shared_ptr<Store>& Array::chunk_store() const { return engine_->chunk_store(); }

Bytes Array::fill_value(size_t nbytes, bool* is_null) const {
  if (nbytes != meta_.dtype.item_size()) {
    fail(ZARR_ERR_BUFFER_SIZE, "fill value buffer is " + std::to_string(nbytes) + " bytes, item size is " +
                                   std::to_string(meta_.dtype.item_size()));
  }
  if (is_null) *is_null = !meta_.fill_value;
  return meta_.fill_item();
}

void Array::require_writable(const char* operation) const {
  if (!writable_) {
    fail(ZARR_ERR_READ_ONLY, std::string("cannot ") + operation + " array " + describe_node(*store_, path_) +
                                 ": it was opened read-only");
  }
}

void Array::check_bounds(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count) const {
  const std::string where = "array " + describe_node(*store_, path_);
  for (size_t d = 0; d < ndim(); ++d) {
    if (!run_inside(start[d], count[d], meta_.shape[d])) {
      fail(ZARR_ERR_OUT_OF_BOUNDS, where + ": region start " + list_text(start) + " count " + list_text(count) +
                                       " lies outside shape " + list_text(meta_.shape) + " on dimension " +
                                       std::to_string(d));
    }
  }
}

Array::CheckedRegion Array::check_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                        size_t nbytes, const int64_t* strides) const {
  const std::string where = "array " + describe_node(*store_, path_);
  if (engine_->variable_length()) {
    fail(ZARR_ERR_UNSUPPORTED, where + " holds variable-length elements: use zarr_read_region_vlen / "
                                       "zarr_write_region_vlen");
  }
  check_bounds(start, count);
  const uint64_t elements = checked_product(count, "region", ZARR_ERR_INVALID_ARGUMENT);
  const std::optional<size_t> bytes = byte_count(elements, item_size());
  if (!strides) {
    check_buffer_size(where, nbytes, {"region " + list_text(count), elements, item_size(), data_type_name_});
    return {c_order_strides(count, item_size()), *bytes};
  }
  std::vector<int64_t> s(strides, strides + ndim());
  int64_t lowest = 0, end = 0;
  if (!strided_extent(count, item_size(), s, lowest, end) || lowest < 0 ||
      static_cast<uint64_t>(end) > nbytes) {
    fail(ZARR_ERR_BUFFER_SIZE, where + ": byte strides reach outside the " + std::to_string(nbytes) +
                                   "-byte buffer for region " + list_text(count));
  }
  return {std::move(s), bytes.value_or(UINT64_MAX)};
}

void Array::read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, void* out,
                        size_t nbytes, const int64_t* strides) {
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  CheckedRegion region = check_region(start, count, nbytes, strides);
  naming_out_of_memory("reading", count, [&] {
    engine_->read_region(start, count, static_cast<uint8_t*>(out), std::move(region.strides), region.bytes);
  });
}

void Array::write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, const void* data,
                         size_t nbytes, const int64_t* strides) {
  require_writable("write to");
  const ThreadLimit thread_limit(options_.thread_limit);
  std::shared_lock lock(shape_mutex_);
  CheckedRegion region = check_region(start, count, nbytes, strides);
  naming_out_of_memory("writing", count, [&] {
    engine_->write_region(start, count, static_cast<const uint8_t*>(data), std::move(region.strides));
  });
}

// The chunk buffers are what a region read or write allocates; when they
// cannot be had, the chunk size is what the caller needs to know.
// Variable-length elements are held one view (16 bytes) per element.
void Array::fail_out_of_memory(const char* operation, const std::vector<uint64_t>& count) const {
  const std::string chunks = engine_->variable_length()
                                 ? std::to_string(meta_.grid().chunk_elements()) +
                                       " variable-length elements"
                                 : std::to_string(meta_.chunk_bytes()) + " bytes decoded";
  fail(ZARR_ERR_NO_MEMORY, "array " + describe_node(*store_, path_) + ": out of memory " + operation + " region " +
                               list_text(count) + ", with chunks of " + chunks);
}

}  // namespace zarr
