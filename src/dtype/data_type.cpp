// Parsing, serialisation and byte swapping of v2 data types. Fill values are
// in fill_value.cpp.
#include "dtype/data_type.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "base/error.h"
#include "base/json.h"
#include "base/text.h"
#include "dtype/byte_order.h"
#include "dtype/messages.h"

namespace zarr {

namespace {

using dtype_detail::excerpt;
using dtype_detail::host_is_big_endian;

// numpy keeps item sizes in a C int; larger types cannot come from numpy.
constexpr uint64_t kMaxItemSize = std::numeric_limits<int32_t>::max();

[[noreturn]] void invalid(const std::string& where, const std::string& what) {
  fail(ZARR_ERR_INVALID_METADATA, where + ": " + what);
}

[[noreturn]] void unsupported(const std::string& where, const std::string& what) {
  fail(ZARR_ERR_UNSUPPORTED, where + ": " + what);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Digits only, no sign; std::nullopt when empty, not all digits or past `max`.
std::optional<uint64_t> parse_decimal(const std::string& text, uint64_t max) {
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (!is_digit(c)) return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
    if (value > max) return std::nullopt;
  }
  return value;
}

// Names of extension types that libzarr lacks in v2 (bfloat16 and the
// registry's complex_* types are v3-only here; float8_* names other than the
// formats float8.h knows): well-formed, but unsupported.
bool is_known_extension_name(const std::string& text) {
  return text == "bfloat16" || text.rfind("float8_", 0) == 0 || text.rfind("complex_", 0) == 0;
}

DTypeKind kind_of(char letter, bool* known) {
  *known = true;
  switch (letter) {
    case 'b': return DTypeKind::Bool;
    case 'i': return DTypeKind::Int;
    case 'u': return DTypeKind::UInt;
    case 'f': return DTypeKind::Float;
    case 'c': return DTypeKind::Complex;
    case 'M': return DTypeKind::DateTime;
    case 'm': return DTypeKind::TimeDelta;
    case 'S': return DTypeKind::Bytes;
    case 'U': return DTypeKind::Unicode;
    case 'V': return DTypeKind::Void;
    case 'O': return DTypeKind::Object;
    default: *known = false; return DTypeKind::Void;
  }
}

// The item sizes numpy accepts for a fixed-size kind.
bool valid_fixed_size(DTypeKind kind, uint64_t size) {
  switch (kind) {
    case DTypeKind::Bool: return size == 1;
    case DTypeKind::Int:
    case DTypeKind::UInt: return size == 1 || size == 2 || size == 4 || size == 8;
    case DTypeKind::Float: return size == 2 || size == 4 || size == 8;
    case DTypeKind::Complex: return size == 8 || size == 16;
    case DTypeKind::DateTime:
    case DTypeKind::TimeDelta:
    case DTypeKind::Object: return size == 8;
    default: return true;
  }
}

// "[ns]", "[10ms]", "[μs]" -> "ns", "10ms", "us" ("1" multipliers dropped, as
// numpy prints them). std::nullopt when malformed.
std::optional<std::string> parse_time_unit(const std::string& bracketed) {
  if (bracketed.size() < 3 || bracketed.front() != '[' || bracketed.back() != ']') return std::nullopt;
  const std::string inner = bracketed.substr(1, bracketed.size() - 2);
  size_t split = 0;
  while (split < inner.size() && is_digit(inner[split])) ++split;
  std::string unit = inner.substr(split);
  if (unit == "\xce\xbcs") unit = "us";  // numpy's alias "μs"
  static const std::set<std::string> kUnits = {"Y", "M", "W", "D", "h", "m", "s",
                                                "ms", "us", "ns", "ps", "fs", "as"};
  if (kUnits.count(unit) == 0) return std::nullopt;
  if (split == 0) return unit;
  // numpy keeps the multiplier in a C int and rejects zero.
  const auto multiplier = parse_decimal(inner.substr(0, split), std::numeric_limits<int32_t>::max());
  if (!multiplier || *multiplier == 0) return std::nullopt;
  return *multiplier == 1 ? unit : std::to_string(*multiplier) + unit;
}

// A field's subarray shape: a list of positive integers or, as numpy also
// accepts, a bare integer for one dimension.
std::vector<uint64_t> parse_subshape(const rapidjson::Value& v, const std::string& where) {
  std::vector<uint64_t> shape;
  if (v.IsUint64()) {
    shape.push_back(v.GetUint64());
  } else if (v.IsArray()) {
    for (const auto& dim : v.GetArray()) {
      if (!dim.IsUint64()) invalid(where, "shape " + excerpt(json::to_string(v)) + " must hold non-negative integers");
      shape.push_back(dim.GetUint64());
    }
  } else {
    invalid(where, "shape " + excerpt(json::to_string(v)) + " must be a list of integers");
  }
  for (uint64_t dim : shape) {
    // numpy allows zero-length subarrays, but a zero-size field cannot carry
    // data and usually means a broken writer.
    if (dim == 0) invalid(where, "shape " + excerpt(json::to_string(v)) + " has a zero dimension");
  }
  return shape;
}

}  // namespace

namespace dtype_detail {

namespace {

// Whole-unit loads and a byte-swap instruction where the compiler offers one:
// a chunk can hold millions of items.
template <typename U>
U reversed(U value) {
#if defined(__GNUC__) || defined(__clang__)
  if constexpr (sizeof(U) == 2) return __builtin_bswap16(value);
  if constexpr (sizeof(U) == 4) return __builtin_bswap32(value);
  if constexpr (sizeof(U) == 8) return __builtin_bswap64(value);
#endif
  U out = 0;
  for (size_t i = 0; i < sizeof(U); ++i) {
    out = static_cast<U>((out << 8) | (value & 0xffu));
    value = static_cast<U>(value >> 8);
  }
  return out;
}

template <typename U>
void reverse_all(uint8_t* data, size_t size) {
  for (size_t i = 0; i + sizeof(U) <= size; i += sizeof(U)) {
    U v;
    std::memcpy(&v, data + i, sizeof v);
    v = reversed(v);
    std::memcpy(data + i, &v, sizeof v);
  }
}

}  // namespace

void reverse_units(uint8_t* data, size_t size, size_t unit) {
  switch (unit) {
    case 0:
    case 1: return;
    case 2: return reverse_all<uint16_t>(data, size);
    case 4: return reverse_all<uint32_t>(data, size);
    case 8: return reverse_all<uint64_t>(data, size);
    default:
      for (size_t i = 0; i + unit <= size; i += unit) std::reverse(data + i, data + i + unit);
  }
}

}  // namespace dtype_detail

// ---------------------------------------------------------------------------
// Parsing

DataType DataType::parse_v2(const rapidjson::Value& dtype, const std::string& where) {
  if (dtype.IsString()) return parse_typestr(std::string(dtype.GetString(), dtype.GetStringLength()), where);
  if (dtype.IsArray()) return parse_fields(dtype, where);
  invalid(where, "expected a typestr string or a list of fields, got " + excerpt(json::to_string(dtype)));
}

DataType DataType::from_typestr(const std::string& typestr, const std::string& where) {
  return parse_typestr(typestr, where);
}

namespace {

// The kind letter of a typestr: an unknown letter is a well-formed name of a
// type libzarr lacks, anything else is malformed.
DTypeKind typestr_kind(const std::string& text, const std::string& quoted, const std::string& where) {
  const char letter = text[1];
  bool known = false;
  const DTypeKind kind = kind_of(letter, &known);
  if (known) return kind;
  if ((letter >= 'a' && letter <= 'z') || (letter >= 'A' && letter <= 'Z')) {
    unsupported(where, "data type " + quoted + " has an unknown kind '" + std::string(1, letter) + "'");
  }
  invalid(where, "malformed typestr " + quoted);
}

// The number after the kind: bytes, or characters for U ("|O" may omit it).
uint64_t typestr_count(DTypeKind kind, const std::string& size_text, const std::string& quoted,
                       const std::string& where) {
  if (kind == DTypeKind::Object && size_text.empty()) return 8;
  const auto count = parse_decimal(size_text, kMaxItemSize);
  if (!count) invalid(where, "typestr " + quoted + " has a malformed size");
  if ((kind == DTypeKind::Float && *count == 16) || (kind == DTypeKind::Complex && *count == 32)) {
    // numpy's long double: its layout depends on the writer's platform.
    unsupported(where, "data type " + quoted + " (extended precision) is not supported");
  }
  if (!valid_fixed_size(kind, *count)) invalid(where, "typestr " + quoted + " has an invalid size");
  if (*count == 0) invalid(where, "typestr " + quoted + " has size zero");
  if (kind == DTypeKind::Unicode && *count > kMaxItemSize / 4) invalid(where, "typestr " + quoted + " is too large");
  return *count;
}

}  // namespace

DataType DataType::parse_typestr(const std::string& text, const std::string& where) {
  const std::string quoted = excerpt(json::quote(text));
  if (auto extension = from_tensorstore_name(text)) return *extension;
  if (is_known_extension_name(text)) unsupported(where, "data type " + quoted + " is not supported");
  if (text.size() < 2) invalid(where, "malformed typestr " + quoted);
  const char order = text[0];
  if (order != '<' && order != '>' && order != '|') {
    // '=' (native) is numpy's, but the spec requires an explicit byte order.
    invalid(where, "typestr " + quoted + " must start with a byte order '<', '>' or '|'");
  }

  DataType t;
  t.kind_ = typestr_kind(text, quoted, where);
  // Split "<M8[ns]" into the size "8" and the unit "[ns]".
  const size_t bracket = text.find('[');
  const uint64_t count = typestr_count(t.kind_, text.substr(2, bracket == std::string::npos ? bracket : bracket - 2),
                                       quoted, where);
  t.item_size_ = static_cast<size_t>(t.kind_ == DTypeKind::Unicode ? count * 4 : count);

  if (bracket != std::string::npos) {
    if (t.kind_ != DTypeKind::DateTime && t.kind_ != DTypeKind::TimeDelta) {
      invalid(where, "typestr " + quoted + ": only M8 and m8 take a unit");
    }
    const auto unit = parse_time_unit(text.substr(bracket));
    if (!unit) invalid(where, "typestr " + quoted + " has an invalid time unit");
    t.time_unit_ = *unit;
  }

  // '|' on a multi-byte number would mean the writer's native order, which
  // the file does not record; the spec keeps '|' for order-free types, and
  // numpy prints '|' for those whatever was written.
  const bool ordered = t.swap_unit() > 1;
  if (ordered && order == '|') invalid(where, "typestr " + quoted + " needs byte order '<' or '>'");
  t.big_endian_ = ordered && order == '>';
  t.needs_swap_ = ordered && t.big_endian_ != host_is_big_endian();
  t.typestr_ = std::string(1, ordered ? order : '|') + text[1];
  if (t.kind_ != DTypeKind::Object) t.typestr_ += std::to_string(count);
  if (!t.time_unit_.empty()) t.typestr_ += "[" + t.time_unit_ + "]";
  return t;
}

DataType DataType::parse_fields(const rapidjson::Value& list, const std::string& where) {
  if (list.Empty()) invalid(where, "a structured dtype needs at least one field");
  DataType t;
  t.kind_ = DTypeKind::Structured;
  t.item_size_ = 0;
  std::set<std::string> names;
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    const rapidjson::Value& item = list[i];
    const std::string item_where = where + ": field " + std::to_string(i);
    if (!item.IsArray() || item.Size() < 2 || item.Size() > 3) {
      invalid(item_where, "expected [name, type] or [name, type, shape], got " + excerpt(json::to_string(item)));
    }
    if (item[0].IsArray()) unsupported(item_where, "field titles are not supported: " + excerpt(json::to_string(item[0])));
    if (!item[0].IsString()) invalid(item_where, "field name must be a string, got " + excerpt(json::to_string(item[0])));

    Field field;
    field.name.assign(item[0].GetString(), item[0].GetStringLength());
    if (field.name.empty()) field.name = "f" + std::to_string(i);  // numpy's name for unnamed fields
    if (names.count(field.name)) invalid(item_where, "duplicate field name " + json::quote(field.name));

    const std::string field_where = where + ": field " + json::quote(field.name);
    field.type = std::make_shared<DataType>(parse_v2(item[1], field_where));
    if (item.Size() == 3) field.subshape = parse_subshape(item[2], field_where);
    t.append_field(std::move(field), names, where);
  }
  return t;
}

void DataType::append_field(Field field, std::set<std::string>& names, const std::string& where) {
  if (!names.insert(field.name).second) invalid(where, "duplicate field name " + json::quote(field.name));
  uint64_t size = field.type->item_size();
  for (uint64_t dim : field.subshape) {
    if (dim > kMaxItemSize / size) {
      invalid(where + ": field " + json::quote(field.name), "subarray " + list_text(field.subshape, ",") + " is too large");
    }
    size *= dim;
    field.element_count *= static_cast<size_t>(dim);
  }
  field.offset = item_size_;
  if (size > kMaxItemSize - item_size_) invalid(where, "structured dtype is too large");
  item_size_ += static_cast<size_t>(size);  // packed: numpy's aligned=False layout, as descr lists it
  needs_swap_ = needs_swap_ || field.type->needs_byte_swap();
  fields_.push_back(std::move(field));
}

bool DataType::lacks_numpy_typestr() const {
  if (kind_ == DTypeKind::BFloat16) return true;
  return kind_ == DTypeKind::Complex && !(complex_component_ == DTypeKind::Float && item_size_ >= 8);
}

DataType DataType::with_byte_order(bool big_endian) const {
  if (lacks_numpy_typestr()) {  // no numpy typestr to rebuild it from
    if (swap_unit() == 1) return *this;  // complex of small floats: no byte order
    DataType t = *this;
    t.big_endian_ = big_endian;
    t.needs_swap_ = big_endian != host_is_big_endian();
    return t;
  }
  if (kind_ == DTypeKind::Structured) {
    DataType t = *this;
    t.needs_swap_ = false;
    for (Field& field : t.fields_) {
      field.type = std::make_shared<DataType>(field.type->with_byte_order(big_endian));
      t.needs_swap_ = t.needs_swap_ || field.type->needs_byte_swap();
    }
    return t;
  }
  if (typestr_.empty() || typestr_[0] == '|' || swap_unit() == 1) return *this;  // no byte order to change
  DataType t = parse_typestr(std::string(1, big_endian ? '>' : '<') + typestr_.substr(1), "byte order of " + typestr_);
  t.v3_form_ = v3_form_;  // "complex_float32" stays so
  return t;
}

std::optional<DataType> DataType::from_v3_name(const std::string& name) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"bool", "b1"},     {"int8", "i1"},     {"int16", "i2"},     {"int32", "i4"},
      {"int64", "i8"},    {"uint8", "u1"},    {"uint16", "u2"},    {"uint32", "u4"},
      {"uint64", "u8"},   {"float16", "f2"},  {"float32", "f4"},   {"float64", "f8"},
      {"complex64", "c8"}, {"complex128", "c16"}};
  const char order = host_is_big_endian() ? '>' : '<';
  for (const auto& [v3, typestr] : kNames) {
    if (name == v3) return parse_typestr(std::string(1, order) + typestr, "v3 data type");
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Serialisation

std::string DataType::to_v2_json() const {
  if (kind_ == DTypeKind::Structured) return fields_to_json();
  // No v2 form: its v3 JSON stands for it (zarr_data_type, messages); v2
  // metadata refuses the type (element_form.cpp, fill_value.cpp).
  if (kind_ == DTypeKind::Optional) return optional_json();
  return json::quote(typestr_);
}

std::string DataType::fields_to_json() const {
  std::string out = "[";
  for (size_t i = 0; i < fields_.size(); ++i) {
    const Field& f = fields_[i];
    out += (i ? ",[" : "[") + json::quote(f.name) + "," + f.type->to_v2_json();
    if (!f.subshape.empty()) out += "," + list_text(f.subshape, ",");
    out += "]";
  }
  return out + "]";
}

std::optional<std::string> DataType::v3_name() const {
  const std::string bits = std::to_string(item_size_ * 8);
  switch (kind_) {
    case DTypeKind::Bool: return std::string("bool");
    case DTypeKind::Int: return "int" + bits;
    case DTypeKind::UInt: return "uint" + bits;
    case DTypeKind::Float: return "float" + bits;
    case DTypeKind::Complex: {
      if (lacks_numpy_typestr()) return typestr_;  // the registry's name ("complex_float16")
      if (v3_form_ == V3Form::ComplexAlias) return "complex_float" + std::to_string(item_size_ * 4);
      return "complex" + bits;
    }
    case DTypeKind::BFloat16: return std::string("bfloat16");
    case DTypeKind::VarString: return std::string("string");
    case DTypeKind::VarBytes: return std::string("variable_length_bytes");
    case DTypeKind::Float8: return std::string(dtype_detail::float8_spec(float8_format_).name);
    case DTypeKind::SubByteInt: return "int" + std::to_string(sub_byte_bits_);
    case DTypeKind::SubByteUInt: return "uint" + std::to_string(sub_byte_bits_);
    case DTypeKind::Void:
      if (v3_form_ == V3Form::RawBits) return "r" + bits;
      return std::nullopt;
    default: return std::nullopt;
  }
}

bool DataType::has_byte_order() const {
  if (kind_ == DTypeKind::Structured) {
    return std::any_of(fields_.begin(), fields_.end(), [](const Field& f) { return f.type->has_byte_order(); });
  }
  return swap_unit() > 1;
}

bool DataType::contains_object() const {
  if (kind_ == DTypeKind::Object) return true;
  return std::any_of(fields_.begin(), fields_.end(), [](const Field& f) { return f.type->contains_object(); });
}

// ---------------------------------------------------------------------------
// Byte order

size_t DataType::swap_unit() const {
  switch (kind_) {
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::Float:
    case DTypeKind::DateTime:
    case DTypeKind::TimeDelta: return item_size_;
    case DTypeKind::Complex: return item_size_ / 2;
    case DTypeKind::Unicode: return 4;
    case DTypeKind::BFloat16: return 2;
    default: return 1;
  }
}

bool DataType::needs_byte_swap() const { return needs_swap_; }

void DataType::swap_in_place(uint8_t* data, size_t count) const {
  if (!needs_swap_) return;
  if (kind_ != DTypeKind::Structured) {
    dtype_detail::reverse_units(data, count * item_size_, swap_unit());
    return;
  }
  for (size_t r = 0; r < count; ++r) {
    uint8_t* record = data + r * item_size_;
    for (const Field& f : fields_) {
      if (f.type->needs_swap_) f.type->swap_in_place(record + f.offset, f.element_count);
    }
  }
}

}  // namespace zarr
