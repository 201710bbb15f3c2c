// One field of a Zarr v2 structured array seen as an array of its own, as
// TensorStore's zarr driver opens it ("field": "x", zarr_open_spec): the
// array's dimensions followed by the field's subarray shape, the field's
// element type, its part of the record fill value. Reads and writes go
// through the records' region I/O and touch only the field's bytes of each
// record (docs/spec.md, "Field selection").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "array/array.h"
#include "dtype/field_view.h"

namespace zarr {

class FieldArray {
 public:
  // `records` must outlive this view. ZARR_ERR_INVALID_ARGUMENT naming the
  // field when the array's type is not structured or has no such field.
  FieldArray(Array& records, const std::string& field_name);

  size_t ndim() const { return records_.ndim() + field_.subshape.size(); }
  std::vector<uint64_t> shape() const;
  // The records' chunks, then the whole subarray (never split).
  std::vector<uint64_t> chunks() const;
  size_t item_size() const { return field_.type.item_size(); }
  const std::string& data_type_name() const { return data_type_name_; }
  const FieldView& field() const { return field_; }

  // As Array's region I/O, over ndim() dimensions; `strides` nullptr for a
  // C-order contiguous buffer. A write reads the records of its region, puts
  // the field's values in and writes them back (another handle writing the
  // same records at the same time may lose one of the writes).
  void read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, void* out,
                   size_t nbytes, const int64_t* strides) const;
  void write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, const void* data,
                    size_t nbytes, const int64_t* strides);
  // The subarray dimensions cannot change: new_shape must end with them.
  void resize(const std::vector<uint64_t>& new_shape);

 private:
  // The records of the region's leading dimensions, read whole.
  Bytes read_records(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count) const;
  // Check the region against shape() and the buffer against the region; the
  // buffer's strides.
  std::vector<int64_t> check_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                                    size_t nbytes, const int64_t* strides) const;
  // Where the region's field elements sit in a buffer of its records.
  const uint8_t* field_origin(const uint8_t* records, const std::vector<uint64_t>& start) const;
  std::vector<int64_t> field_strides(const std::vector<uint64_t>& count) const;

  Array& records_;
  FieldView field_;
  std::string data_type_name_;
};

}  // namespace zarr
