#include "dtype/field_view.h"

#include <cstring>

#include "base/error.h"
#include "base/json.h"

namespace zarr {
namespace {

std::string field_label(const std::string& name) { return "field " + json::quote(name); }

std::string available_fields(const DataType& record_type) {
  std::string list;
  for (const Field& f : record_type.fields()) list += (list.empty() ? "" : ", ") + json::quote(f.name);
  return list;
}

const Field& find_field(const DataType& record_type, const std::string& name) {
  if (record_type.kind() != DTypeKind::Structured) {
    fail(ZARR_ERR_INVALID_ARGUMENT, field_label(name) + ": data type " + record_type.to_v2_json() +
                                        " is not structured and has no fields");
  }
  for (const Field& f : record_type.fields()) {
    if (f.name == name) return f;
  }
  fail(ZARR_ERR_INVALID_ARGUMENT, field_label(name) + " is not a field of data type " + record_type.to_v2_json() +
                                      "; available fields: " + available_fields(record_type));
}

std::optional<Bytes> field_fill_value(const FieldView& view, const std::optional<Bytes>& record_fill_value) {
  if (!record_fill_value) return std::nullopt;
  if (record_fill_value->size() != view.record_size) {
    fail(ZARR_ERR_INVALID_ARGUMENT, field_label(view.name) + ": the record fill value has " +
                                        std::to_string(record_fill_value->size()) + " bytes, the record has " +
                                        std::to_string(view.record_size));
  }
  const auto begin = record_fill_value->begin() + static_cast<std::ptrdiff_t>(view.offset);
  return Bytes(begin, begin + static_cast<std::ptrdiff_t>(view.size));
}

}  // namespace

FieldView select_field(const DataType& record_type, const std::string& field_name,
                       const std::optional<Bytes>& record_fill_value) {
  const Field& field = find_field(record_type, field_name);
  FieldView view{field.name, *field.type, field.subshape, field.element_count, field.offset,
                 field.element_count * field.type->item_size(), record_type.item_size(), std::nullopt};
  view.fill_value = field_fill_value(view, record_fill_value);
  return view;
}

void extract_field(const FieldView& field, const uint8_t* records, size_t record_count, uint8_t* values) {
  for (size_t i = 0; i < record_count; ++i) {
    std::memcpy(values + i * field.size, records + i * field.record_size + field.offset, field.size);
  }
}

void inject_field(const FieldView& field, const uint8_t* values, size_t record_count, uint8_t* records) {
  for (size_t i = 0; i < record_count; ++i) {
    std::memcpy(records + i * field.record_size + field.offset, values + i * field.size, field.size);
  }
}

}  // namespace zarr
