// Zarr v3 data types: the "data_type" member of zarr.json to a DataType and
// back. Core names come from the v3 spec ("Data types" and data-types/);
// extension names and their configurations from the zarr-extensions registry
// as zarr-python 3 writes them. Fill values are in fill_value_v3.cpp.
#include <cstring>
#include <limits>
#include <set>

#include "base/error.h"
#include "base/json.h"
#include "base/zarr_extensions.h"
#include "dtype/byte_order.h"
#include "dtype/data_type.h"
#include "dtype/messages.h"

namespace zarr {

namespace {

using dtype_detail::excerpt;
using dtype_detail::host_is_big_endian;

// numpy keeps item sizes in a C int (as for v2 types).
constexpr uint64_t kMaxItemSize = std::numeric_limits<int32_t>::max();
// fixed_length_utf32: numpy's largest U, in bytes (536870911 code points).
constexpr uint64_t kMaxUtf32Bytes = 2147483644;

[[noreturn]] void invalid(const std::string& where, const std::string& what) {
  fail(ZARR_ERR_INVALID_METADATA, where + ": " + what);
}

[[noreturn]] void unsupported(const std::string& where, const std::string& what) {
  fail(ZARR_ERR_UNSUPPORTED, where + ": " + what);
}

std::string host_order() { return std::string(1, host_is_big_endian() ? '>' : '<'); }

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// The members of a data type's "configuration", each checked against the
// names the type defines: any other member is malformed metadata.
void expect_members(const rapidjson::Value& configuration, std::initializer_list<const char*> allowed,
                    const std::string& name, const std::string& where) {
  for (auto it = configuration.MemberBegin(); it != configuration.MemberEnd(); ++it) {
    const std::string key(it->name.GetString(), it->name.GetStringLength());
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (!known) {
      invalid(where, "data type " + json::quote(name) + ": " + json::unknown("configuration member", key));
    }
  }
}

const rapidjson::Value& require_configuration(const rapidjson::Value* configuration, const std::string& name,
                                              const std::string& where) {
  if (!configuration) invalid(where, "data type " + json::quote(name) + " needs a \"configuration\"");
  return *configuration;
}

// A positive "length_bytes" no larger than `max`.
uint64_t length_bytes(const rapidjson::Value& configuration, const std::string& name, uint64_t max,
                      const std::string& where) {
  const std::string field_where = where + ": data type " + json::quote(name);
  const rapidjson::Value* v = json::find(configuration, "length_bytes");
  if (!v) invalid(field_where, "missing configuration member \"length_bytes\"");
  if (!v->IsUint64()) {
    invalid(field_where, "\"length_bytes\" must be a non-negative integer, got " + excerpt(json::to_string(*v)));
  }
  const uint64_t n = v->GetUint64();
  if (n > max) invalid(field_where, "\"length_bytes\" " + std::to_string(n) + " is too large (at most " + std::to_string(max) + ")");
  return n;
}

bool is_time_name(const std::string& name, bool* datetime) {
  *datetime = name == "numpy.datetime64" || name == "datetime64";
  return *datetime || name == "numpy.timedelta64" || name == "timedelta64";
}

// The numpy unit text ("ns", "10ms", "" for generic) of a time type's configuration.
std::string time_unit_of(const rapidjson::Value& configuration, const std::string& name, const std::string& where) {
  expect_members(configuration, {"unit", "scale_factor"}, name, where);
  const std::string field_where = where + ": data type " + json::quote(name);
  const rapidjson::Value* unit_v = json::find(configuration, "unit");
  const rapidjson::Value* scale_v = json::find(configuration, "scale_factor");
  if (!unit_v) invalid(field_where, "missing configuration member \"unit\"");
  if (!scale_v) invalid(field_where, "missing configuration member \"scale_factor\"");
  if (!unit_v->IsString()) invalid(field_where, "\"unit\" must be a string, got " + excerpt(json::to_string(*unit_v)));
  std::string unit(unit_v->GetString(), unit_v->GetStringLength());
  if (unit == "\xce\xbcs") unit = "us";  // "μs", numpy's alias
  static const std::set<std::string> kUnits = {"Y", "M", "W", "D", "h", "m", "s", "ms",
                                                "us", "ns", "ps", "fs", "as", "generic"};
  if (kUnits.count(unit) == 0) invalid(field_where, "unknown time unit " + excerpt(json::quote(unit)));
  // numpy keeps the scale factor in a C int and needs it positive.
  if (!scale_v->IsUint64() || scale_v->GetUint64() == 0 ||
      scale_v->GetUint64() > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
    invalid(field_where, "\"scale_factor\" must be an integer in [1, 2147483647], got " +
                             excerpt(json::to_string(*scale_v)));
  }
  const uint64_t scale = scale_v->GetUint64();
  if (unit == "generic") {
    if (scale != 1) invalid(field_where, "the generic time unit takes no scale factor other than 1");
    return "";
  }
  return scale == 1 ? unit : std::to_string(scale) + unit;
}

// The NumPy typestr of the extension types sized by "length_bytes"
// (fixed_length_utf32, null_terminated_bytes, raw_bytes); "" for any other
// name.
std::string length_typestr(const std::string& name, const rapidjson::Value* configuration, const std::string& quoted,
                           const std::string& where) {
  if (name == "fixed_length_utf32") {
    const rapidjson::Value& c = require_configuration(configuration, name, where);
    expect_members(c, {"length_bytes"}, name, where);
    const uint64_t n = length_bytes(c, name, kMaxUtf32Bytes, where);
    if (n % 4 != 0) invalid(where, "data type " + quoted + ": \"length_bytes\" " + std::to_string(n) + " is not a multiple of 4");
    // Allowed by the extension, but numpy's U0 has nothing to store and
    // libzarr needs items of at least one byte.
    if (n == 0) unsupported(where, "data type " + quoted + " with \"length_bytes\" 0 is not supported");
    return host_order() + "U" + std::to_string(n / 4);
  }
  if (name == "null_terminated_bytes" || name == "raw_bytes") {
    const rapidjson::Value& c = require_configuration(configuration, name, where);
    expect_members(c, {"length_bytes"}, name, where);
    const uint64_t n = length_bytes(c, name, kMaxItemSize, where);
    if (n == 0) invalid(where, "data type " + quoted + ": \"length_bytes\" must be at least 1");
    return (name == "raw_bytes" ? "|V" : "|S") + std::to_string(n);
  }
  return "";
}

// One field of a struct's "fields": {"name": ..., "data_type": ...}, or the
// legacy "structured" form [name, data_type]. Sets `name` and returns the
// field's data type JSON.
const rapidjson::Value& struct_field(const rapidjson::Value& item, const std::string& item_where, std::string* name) {
  const rapidjson::Value* name_v = nullptr;
  const rapidjson::Value* type_v = nullptr;
  if (item.IsArray() && item.Size() == 2) {  // legacy tuple form
    name_v = &item[0];
    type_v = &item[1];
  } else if (item.IsObject()) {
    for (auto it = item.MemberBegin(); it != item.MemberEnd(); ++it) {
      const std::string key = json::text(it->name);
      if (key != "name" && key != "data_type") invalid(item_where, json::unknown("member", key));
    }
    name_v = json::find(item, "name");
    type_v = json::find(item, "data_type");
    if (!name_v) invalid(item_where, "missing member \"name\"");
    if (!type_v) invalid(item_where, "missing member \"data_type\"");
  } else {
    invalid(item_where, "expected {\"name\": ..., \"data_type\": ...}, got " + excerpt(json::to_string(item)));
  }
  if (!name_v->IsString() || name_v->GetStringLength() == 0) {
    invalid(item_where, "field name must be a non-empty string, got " + excerpt(json::to_string(*name_v)));
  }
  *name = json::text(*name_v);
  return *type_v;
}

}  // namespace

DataType DataType::parse_v3_struct(const std::string& name, const rapidjson::Value* configuration,
                                   const std::string& where) {
  const rapidjson::Value& c = require_configuration(configuration, name, where);
  expect_members(c, {"fields"}, name, where);
  const std::string type_where = where + ": data type " + json::quote(name);
  const rapidjson::Value* list = json::find(c, "fields");
  if (!list) invalid(type_where, "missing configuration member \"fields\"");
  if (!list->IsArray() || list->Empty()) {
    invalid(type_where, "\"fields\" must be a non-empty list, got " + excerpt(json::to_string(*list)));
  }
  DataType t;
  t.kind_ = DTypeKind::Structured;
  t.item_size_ = 0;
  std::set<std::string> names;
  for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
    Field field;
    const rapidjson::Value& type_json = struct_field((*list)[i], type_where + ": field " + std::to_string(i), &field.name);
    const std::string field_where = type_where + ": field " + json::quote(field.name);
    if (names.count(field.name)) invalid(type_where, "duplicate field name " + json::quote(field.name));
    field.type = std::make_shared<DataType>(parse_v3(type_json, field_where));
    if (field.type->kind() == DTypeKind::Optional) {
      unsupported(field_where, "an \"optional\" struct field is not supported (only the optional codec stores optional elements)");
    }
    if (field.type->is_variable_length()) {
      invalid(field_where, "data type " + field.type->to_v3_json() + " has no fixed size, as a struct field needs");
    }
    t.append_field(std::move(field), names, type_where);
  }
  return t;
}

DataType DataType::make_bfloat16() {
  DataType t;
  t.kind_ = DTypeKind::BFloat16;
  t.item_size_ = 2;
  t.big_endian_ = host_is_big_endian();
  t.needs_swap_ = false;
  t.typestr_ = "bfloat16";  // TensorStore's v2 name (little-endian there)
  return t;
}

std::optional<DataType> DataType::from_tensorstore_name(const std::string& name) {
  DataType t;
  t.item_size_ = 1;  // no byte order: TensorStore's "little endian" changes nothing
  if (name == "int2" || name == "int4" || name == "uint2" || name == "uint4") {
    t.kind_ = name[0] == 'i' ? DTypeKind::SubByteInt : DTypeKind::SubByteUInt;
    t.sub_byte_bits_ = name.back() - '0';
  } else if (auto format = dtype_detail::float8_format_named(name)) {
    t.kind_ = DTypeKind::Float8;
    t.float8_format_ = *format;
  } else {
    return std::nullopt;
  }
  t.typestr_ = name;  // TensorStore's v2 "dtype" is the name itself
  return t;
}

std::optional<DataType> DataType::from_complex_name(const std::string& name) {
  static const std::string kPrefix = "complex_";
  if (name.rfind(kPrefix, 0) != 0) return std::nullopt;
  const std::string part = name.substr(kPrefix.size());
  if (part == "float32" || part == "float64") {
    DataType t = *from_v3_name(part == "float32" ? "complex64" : "complex128");
    t.v3_form_ = V3Form::ComplexAlias;
    return t;
  }
  DataType t;
  t.kind_ = DTypeKind::Complex;
  if (part == "float16" || part == "bfloat16") {
    t.complex_component_ = part == "float16" ? DTypeKind::Float : DTypeKind::BFloat16;
    t.item_size_ = 4;
    t.big_endian_ = host_is_big_endian();  // v3 keeps byte order in the bytes codec
  } else if (auto format = dtype_detail::float8_format_named(part)) {
    t.complex_component_ = DTypeKind::Float8;
    t.float8_format_ = *format;
    t.item_size_ = 2;
  } else {
    return std::nullopt;
  }
  t.typestr_ = name;  // no numpy typestr: the name stands for it, as "bfloat16" does
  return t;
}

DataType DataType::make_variable(DTypeKind kind) {
  DataType t;
  t.kind_ = kind;
  t.item_size_ = kVarItemSize;
  t.typestr_ = "|O";
  return t;
}

DataType DataType::parse_v3(const rapidjson::Value& data_type, const std::string& where) {
  if (data_type.IsString()) {
    return parse_v3_name(std::string(data_type.GetString(), data_type.GetStringLength()), nullptr, where);
  }
  if (!data_type.IsObject()) {
    invalid(where, "expected a data type name or an object with a \"name\", got " + excerpt(json::to_string(data_type)));
  }
  const rapidjson::Value* name = json::find(data_type, "name");
  if (!name) invalid(where, "data type object " + excerpt(json::to_string(data_type)) + " has no \"name\"");
  if (!name->IsString()) invalid(where, "data type \"name\" must be a string, got " + excerpt(json::to_string(*name)));
  const std::string name_text(name->GetString(), name->GetStringLength());
  const rapidjson::Value* configuration = nullptr;
  for (auto it = data_type.MemberBegin(); it != data_type.MemberEnd(); ++it) {
    const std::string key(it->name.GetString(), it->name.GetStringLength());
    if (key == "name") continue;
    if (key == "configuration") {
      if (!it->value.IsObject()) {
        invalid(where, "data type " + json::quote(name_text) + ": \"configuration\" must be an object, got " +
                           excerpt(json::to_string(it->value)));
      }
      configuration = &it->value;
    } else if (key == "must_understand") {
      // The spec does not allow must_understand=false for data types: an
      // implementation cannot skip the type of the elements.
      if (!it->value.IsBool()) invalid(where, "data type \"must_understand\" must be true or false");
      if (!it->value.GetBool()) {
        invalid(where, "data type " + json::quote(name_text) + ": \"must_understand\": false is not allowed for data types");
      }
    } else {
      invalid(where, "data type " + json::quote(name_text) + ": " + json::unknown("member", key));
    }
  }
  return parse_v3_name(name_text, configuration, where);
}

DataType DataType::parse_v3_name(const std::string& name, const rapidjson::Value* configuration,
                                 const std::string& where) {
  const std::string quoted = excerpt(json::quote(name));
  // Types without parameters: a configuration, if any, must be empty.
  auto no_configuration = [&] {
    if (configuration && configuration->MemberCount() > 0) {
      invalid(where, "data type " + quoted + " takes no configuration, got " + excerpt(json::to_string(*configuration)));
    }
  };

  if (auto core = from_v3_name(name)) {
    no_configuration();
    return *core;
  }
  if (name == "bfloat16") {
    no_configuration();
    return make_bfloat16();
  }
  if (auto extension = from_tensorstore_name(name)) {
    no_configuration();
    return *extension;
  }
  if (auto complex = from_complex_name(name)) {
    no_configuration();
    return *complex;
  }
  if (name == "string") {
    no_configuration();
    return make_variable(DTypeKind::VarString);
  }
  if (name == "variable_length_bytes" || name == "bytes") {
    no_configuration();
    DataType t = make_variable(DTypeKind::VarBytes);
    if (name == "bytes") t.v3_form_ = V3Form::RegistryBytes;  // written back as the registry names it
    return t;
  }
  if (name.size() > 1 && name[0] == 'r' && all_digits(name.substr(1))) {
    no_configuration();
    const std::string digits = name.substr(1);
    // Longer than any valid size: avoid overflowing the conversion.
    if (digits.size() > 12) invalid(where, "raw data type " + quoted + " is too large");
    const uint64_t bits = std::stoull(digits);
    if (bits == 0 || bits % 8 != 0) invalid(where, "raw data type " + quoted + " must have a positive multiple of 8 bits");
    if (bits / 8 > kMaxItemSize) invalid(where, "raw data type " + quoted + " is too large");
    DataType t = parse_typestr("|V" + std::to_string(bits / 8), where);
    t.v3_form_ = V3Form::RawBits;
    return t;
  }
  bool datetime = false;
  if (is_time_name(name, &datetime)) {
    const rapidjson::Value& c = require_configuration(configuration, name, where);
    const std::string unit = time_unit_of(c, name, where);
    return parse_typestr(host_order() + (datetime ? "M8" : "m8") + (unit.empty() ? "" : "[" + unit + "]"), where);
  }
  const std::string typestr = length_typestr(name, configuration, quoted, where);
  if (!typestr.empty()) return parse_typestr(typestr, where);
  if (name == "struct" || name == "structured") return parse_v3_struct(name, configuration, where);
  if (name == "optional") return parse_v3_optional(configuration, where);
  unsupported(where, "data type " + quoted + " is not supported" +
                         registered_but_unimplemented_note(ExtensionPoint::DataType, name));
}

std::string DataType::to_v3_json() const {
  auto with_length = [](const char* name, size_t bytes) {
    return std::string("{\"name\":\"") + name + "\",\"configuration\":{\"length_bytes\":" + std::to_string(bytes) + "}}";
  };
  switch (kind_) {
    case DTypeKind::Bool:
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::Float:
    case DTypeKind::Complex:
    case DTypeKind::BFloat16:
    case DTypeKind::Float8:
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt:
    case DTypeKind::VarString: return json::quote(*v3_name());
    case DTypeKind::VarBytes: return json::quote(v3_form_ == V3Form::RegistryBytes ? "bytes" : *v3_name());
    case DTypeKind::Void:
      if (v3_form_ == V3Form::RawBits) return json::quote(*v3_name());
      return with_length("raw_bytes", item_size_);
    case DTypeKind::Bytes: return with_length("null_terminated_bytes", item_size_);
    case DTypeKind::Unicode: return with_length("fixed_length_utf32", item_size_);
    case DTypeKind::DateTime:
    case DTypeKind::TimeDelta: {
      // "10ms" -> unit "ms", scale_factor 10; "" is numpy's generic unit.
      size_t split = 0;
      while (split < time_unit_.size() && time_unit_[split] >= '0' && time_unit_[split] <= '9') ++split;
      const std::string unit = time_unit_.empty() ? "generic" : time_unit_.substr(split);
      const std::string scale = split == 0 ? "1" : time_unit_.substr(0, split);
      return std::string("{\"name\":\"") + (kind_ == DTypeKind::DateTime ? "numpy.datetime64" : "numpy.timedelta64") +
             "\",\"configuration\":{\"unit\":" + json::quote(unit) + ",\"scale_factor\":" + scale + "}}";
    }
    case DTypeKind::Structured: return struct_json();
    case DTypeKind::Optional: return optional_json();
    case DTypeKind::Object: break;
  }
  fail(ZARR_ERR_UNSUPPORTED, "data type " + excerpt(to_v2_json()) + " has no Zarr v3 form in libzarr");
}

// As zarr-python 3.2+ writes it: object fields, in order. The struct has no
// subarray fields (zarr-python refuses them too).
std::string DataType::struct_json() const {
  std::string out = "{\"name\":\"struct\",\"configuration\":{\"fields\":[";
  for (size_t i = 0; i < fields_.size(); ++i) {
    const Field& f = fields_[i];
    if (!f.subshape.empty()) {
      fail(ZARR_ERR_UNSUPPORTED, "field " + json::quote(f.name) + " of data type " + excerpt(to_v2_json()) +
                                     " is a subarray, which the Zarr v3 struct data type cannot express");
    }
    out += (i ? "," : "") + std::string("{\"name\":") + json::quote(f.name) + ",\"data_type\":" + f.type->to_v3_json() + "}";
  }
  return out + "]}}";
}

}  // namespace zarr
