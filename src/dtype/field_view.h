// One field of a structured data type seen as an array of its own, as
// TensorStore's zarr driver opens it ("field": "x"): the field's element type,
// its subarray shape as extra trailing dimensions, its bytes within each
// record, and its part of the record's fill value. docs/dtypes.md, "Field
// selection".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "dtype/data_type.h"

namespace zarr {

struct FieldView {
  std::string name;
  DataType type;                    // element type of the field array (may itself be structured)
  std::vector<uint64_t> subshape;   // trailing dimensions the field adds; empty for a scalar field
  size_t element_count = 1;         // elements of the field per record (product of subshape)
  size_t offset = 0;                // byte offset of the field within each record
  size_t size = 0;                  // bytes of the field within each record: element_count * type.item_size()
  size_t record_size = 0;           // bytes of a whole record
  // The field's bytes of the record fill value, in native byte order (element
  // after element, C order over the subshape); std::nullopt when the record's
  // fill value is null.
  std::optional<Bytes> fill_value;
};

// Describe field `field_name` of the structured `record_type`, whose fill
// value (as parse_fill_value_v2 returns it: native order, or std::nullopt for
// null) is `record_fill_value`.
// Throws ZARR_ERR_INVALID_ARGUMENT naming the field: for a record type that is
// not structured, for a name that is not one of its fields (listing those),
// and for a fill value that is not record_type.item_size() bytes.
FieldView select_field(const DataType& record_type, const std::string& field_name,
                       const std::optional<Bytes>& record_fill_value);

// Copy the field out of `record_count` consecutive records into `values`
// (record_count * field.size bytes, dense). Bytes are copied as they are:
// records and values share one byte order.
void extract_field(const FieldView& field, const uint8_t* records, size_t record_count, uint8_t* values);

// Write dense field values (record_count * field.size bytes) into the field's
// bytes of `record_count` consecutive records; the other fields' bytes are
// left as they are.
void inject_field(const FieldView& field, const uint8_t* values, size_t record_count, uint8_t* records);

}  // namespace zarr
