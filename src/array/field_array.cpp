#include "array/field_array.h"

#include "array/buffer_size.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/strided_copy.h"

namespace zarr {

namespace {

std::vector<uint64_t> leading(const std::vector<uint64_t>& v, size_t n) { return {v.begin(), v.begin() + n}; }

// The element count of a caller's region (its overflow is a bad argument).
uint64_t elements_of(const std::vector<uint64_t>& count) {
  return checked_product(count, "region", ZARR_ERR_INVALID_ARGUMENT);
}

}  // namespace

FieldArray::FieldArray(Array& records, const std::string& field_name)
    : records_(records), field_(select_field(records.metadata().dtype, field_name, records.metadata().fill_value)) {
  std::optional<std::string> v3 = field_.type.v3_name();
  data_type_name_ = v3 ? *v3 : field_.type.to_v2_json();
}

void FieldArray::keep_records(std::unique_ptr<Array> records) {
  if (records.get() != &records_) fail(ZARR_ERR_INTERNAL, "field '" + field_.name + "': not the view's records");
  owned_records_ = std::move(records);
}

std::vector<uint64_t> FieldArray::shape() const {
  std::vector<uint64_t> s = records_.shape();
  s.insert(s.end(), field_.subshape.begin(), field_.subshape.end());
  return s;
}

std::vector<uint64_t> FieldArray::chunks() const {
  std::vector<uint64_t> c = records_.chunks();
  c.insert(c.end(), field_.subshape.begin(), field_.subshape.end());
  return c;
}

std::vector<int64_t> FieldArray::check_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                              size_t nbytes, const int64_t* strides) const {
  const std::vector<uint64_t> s = shape();
  for (size_t d = 0; d < s.size(); ++d) {
    if (!run_inside(start[d], count[d], s[d])) {
      fail(ZARR_ERR_OUT_OF_BOUNDS, "field '" + field_.name + "': region lies outside its shape on dimension " +
                                       std::to_string(d));
    }
  }
  if (!strides) {
    check_buffer_size("field '" + field_.name + "'", nbytes,
                      {"the region", elements_of(count), item_size(), data_type_name_});
    return c_order_strides(count, item_size());
  }
  std::vector<int64_t> given(strides, strides + count.size());
  int64_t lowest = 0, end = 0;
  if (!strided_extent(count, item_size(), given, lowest, end) || lowest < 0 ||
      static_cast<uint64_t>(end) > nbytes) {
    fail(ZARR_ERR_BUFFER_SIZE, "field '" + field_.name + "': the strides reach outside the " +
                                   std::to_string(nbytes) + "-byte buffer");
  }
  return given;
}

Bytes FieldArray::read_records(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count) const {
  const size_t n = records_.ndim();
  const std::vector<uint64_t> record_count = leading(count, n);
  // Whole records are read, so they can need far more memory than the field.
  const std::optional<size_t> bytes = byte_count(elements_of(record_count), field_.record_size);
  if (!bytes) {
    fail(ZARR_ERR_NO_MEMORY, "field '" + field_.name + "': the region's records need " + byte_count_text(bytes) +
                                 " bytes");
  }
  Bytes records(*bytes);
  records_.read_region(leading(start, n), record_count, records.data(), records.size(), nullptr);
  return records;
}

const uint8_t* FieldArray::field_origin(const uint8_t* records, const std::vector<uint64_t>& start) const {
  // The region's first element: the field's bytes in the first record, then
  // the subarray start.
  const std::vector<uint64_t> sub_start(start.begin() + records_.ndim(), start.end());
  return records + field_.offset + byte_offset(sub_start, c_order_strides(field_.subshape, item_size()));
}

std::vector<int64_t> FieldArray::field_strides(const std::vector<uint64_t>& count) const {
  std::vector<int64_t> strides = c_order_strides(leading(count, records_.ndim()), field_.record_size);
  std::vector<int64_t> sub = c_order_strides(field_.subshape, item_size());
  strides.insert(strides.end(), sub.begin(), sub.end());
  return strides;
}

void FieldArray::read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, void* out,
                             size_t nbytes, const int64_t* strides) {
  const std::vector<int64_t> out_strides = check_region(start, count, nbytes, strides);
  if (elements_of(count) == 0) return;
  const Bytes records = read_records(start, count);
  strided_copy(count, item_size(), field_origin(records.data(), start), field_strides(count),
               static_cast<uint8_t*>(out), out_strides);
}

void FieldArray::write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                              const void* data, size_t nbytes, const int64_t* strides) {
  const std::vector<int64_t> in_strides = check_region(start, count, nbytes, strides);
  if (elements_of(count) == 0) return;
  // The other fields' bytes (and the rest of the subarray) stay as stored.
  Bytes records = read_records(start, count);
  strided_copy(count, item_size(), static_cast<const uint8_t*>(data), in_strides,
               const_cast<uint8_t*>(field_origin(records.data(), start)), field_strides(count));
  const size_t n = records_.ndim();
  records_.write_region(leading(start, n), leading(count, n), records.data(), records.size(), nullptr);
}

void FieldArray::resize(const std::vector<uint64_t>& new_shape) {
  const size_t n = records_.ndim();
  const std::vector<uint64_t> sub(new_shape.begin() + n, new_shape.end());
  if (sub != field_.subshape) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "field '" + field_.name + "': the subarray dimensions cannot be resized");
  }
  records_.resize(leading(new_shape, n));
}

Bytes FieldArray::fill_value(size_t nbytes, bool* is_null) const {
  if (nbytes != field_.size) {
    fail(ZARR_ERR_BUFFER_SIZE, "fill value buffer is " + std::to_string(nbytes) + " bytes, field '" + field_.name +
                                   "' takes " + std::to_string(field_.size));
  }
  if (is_null) *is_null = !field_.fill_value;
  if (!field_.fill_value) return Bytes(field_.size);
  return Bytes(field_.fill_value->begin(), field_.fill_value->begin() + static_cast<std::ptrdiff_t>(field_.size));
}

void FieldArray::refuse(const char* function) const {
  fail(ZARR_ERR_UNSUPPORTED,
       std::string(function) + " is not available on a handle opened with field '" + field_.name + "'");
}

void FieldArray::read_region_vlen(const std::vector<uint64_t>&, const std::vector<uint64_t>&, uint64_t*, size_t,
                                  uint8_t*, size_t, size_t*) {
  refuse("zarr_read_region_vlen");
}

void FieldArray::write_region_vlen(const std::vector<uint64_t>&, const std::vector<uint64_t>&, const uint64_t*,
                                   size_t, const uint8_t*, size_t) {
  refuse("zarr_write_region_vlen");
}

void FieldArray::read_selection(const SelectionRequest& request, void*, size_t) { refuse(request.function); }

void FieldArray::write_selection(const SelectionRequest& request, const void*, size_t) { refuse(request.function); }

void FieldArray::read_selection_vlen(const SelectionRequest& request, uint64_t*, size_t, uint8_t*, size_t, size_t*) {
  refuse(request.function);
}

void FieldArray::write_selection_vlen(const SelectionRequest& request, const uint64_t*, size_t, const uint8_t*,
                                      size_t) {
  refuse(request.function);
}

void FieldArray::append(size_t, const std::vector<uint64_t>&, const void*, size_t) { refuse("zarr_append"); }

}  // namespace zarr
