// One field of a Zarr v2 structured array seen as an array of its own, as
// TensorStore's zarr driver opens it ("field": "x", zarr_open_spec): the
// array's dimensions followed by the field's subarray shape, the field's
// element type, its part of the record fill value. Reads and writes go
// through the records' region I/O and touch only the field's bytes of each
// record (docs/spec.md, "Field selection").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "array/array.h"
#include "array/array_handle.h"
#include "dtype/field_view.h"

namespace zarr {

class FieldArray final : public ArrayHandle {
 public:
  // `records` must outlive this view (or be handed to it: keep_records).
  // ZARR_ERR_INVALID_ARGUMENT naming the field when the array's type is not
  // structured or has no such field.
  FieldArray(Array& records, const std::string& field_name);
  // The view owns its records from now on (a handle of the C API);
  // `records` must be the array given to the constructor.
  void keep_records(std::unique_ptr<Array> records);

  // The handle's interface (array/array_handle.h).
  size_t ndim() const override { return records_.ndim() + field_.subshape.size(); }
  std::vector<uint64_t> shape() const override;
  // The records' chunks, then the whole subarray (never split).
  std::vector<uint64_t> chunks() const override;
  size_t item_size() const override { return field_.type.item_size(); }
  const std::string& data_type_name() const override { return data_type_name_; }
  const DataType& data_type() const override { return field_.type; }
  std::string description() const override { return "field '" + field_.name + "' of " + records_.description(); }
  const FieldView& field() const { return field_; }
  // The field's bytes of the record fill value: every element of its
  // subarray (item size x subarray elements); zeros when null.
  Bytes fill_value(size_t nbytes, bool* is_null) const override;
  Array& array() override { return records_; }
  const Array& array() const override { return records_; }

  // As Array's region I/O, over ndim() dimensions; `strides` nullptr for a
  // C-order contiguous buffer. A write reads the records of its region, puts
  // the field's values in and writes them back (another handle writing the
  // same records at the same time may lose one of the writes).
  void read_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, void* out,
                   size_t nbytes, const int64_t* strides) override;
  void write_region(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, const void* data,
                    size_t nbytes, const int64_t* strides) override;
  // The subarray dimensions cannot change: new_shape must end with them.
  void resize(const std::vector<uint64_t>& new_shape) override;
  // A field has fixed-size elements and cannot grow alone, nor (yet) be
  // read or written by selections: ZARR_ERR_UNSUPPORTED naming the C
  // function and the field.
  void read_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count, uint64_t* offsets,
                        size_t n_offsets, uint8_t* data, size_t capacity, size_t* data_size) override;
  void write_region_vlen(const std::vector<uint64_t>& start, const std::vector<uint64_t>& count,
                         const uint64_t* offsets, size_t n_offsets, const uint8_t* data, size_t data_size) override;
  void read_selection(const SelectionRequest& request, void* out, size_t nbytes) override;
  void write_selection(const SelectionRequest& request, const void* data, size_t nbytes) override;
  void read_selection_vlen(const SelectionRequest& request, uint64_t* offsets, size_t n_offsets, uint8_t* data,
                           size_t capacity, size_t* data_size) override;
  void write_selection_vlen(const SelectionRequest& request, const uint64_t* offsets, size_t n_offsets,
                            const uint8_t* data, size_t data_size) override;
  void append(size_t axis, const std::vector<uint64_t>& count, const void* data, size_t nbytes) override;

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

  [[noreturn]] void refuse(const char* function) const;

  std::unique_ptr<Array> owned_records_;  // null unless keep_records
  Array& records_;
  FieldView field_;
  std::string data_type_name_;
};

}  // namespace zarr
