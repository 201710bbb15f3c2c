// v3 fill values: the JSON forms of the v3 spec ("Permitted fill values") and
// of the extension data types zarr-python 3 writes, converted to and from
// native bytes. Stricter than v2: no null (metadata parsing maps a null fill_value to the
// default before calling in), integers must be JSON integers,
// booleans must be JSON booleans.
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "base/bytes.h"
#include "base/error.h"
#include "base/json.h"
#include "base/text.h"
#include "dtype/bfloat16.h"
#include "dtype/data_type.h"
#include "dtype/float8.h"
#include "dtype/float_text.h"
#include "dtype/sub_byte_int.h"
#include "dtype/messages.h"
#include "dtype/text_encoding.h"

namespace zarr {

namespace dtype_detail {

uint16_t double_to_bfloat16(double value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
  if (std::isnan(value)) return sign | 0x7fc0u;
  if (std::isinf(value)) return sign | 0x7f80u;
  return round_to_binary16(value, 7, 127);
}

double bfloat16_to_double(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof f);
  return f;
}

}  // namespace dtype_detail

namespace {

using dtype_detail::excerpt;

// The type as messages name it: its v3 JSON where it has one.
std::string type_label(const DataType& t) {
  if (t.kind() == DTypeKind::Structured || t.kind() == DTypeKind::Object) return excerpt(t.to_v2_json());
  return excerpt(t.to_v3_json());
}

// Numbers past 64 bits arrive as doubles; show them as Python would.
std::string describe(const rapidjson::Value& fill) {
  if (fill.IsDouble() && std::isfinite(fill.GetDouble())) return dtype_detail::python_float_repr(fill.GetDouble());
  return excerpt(json::to_string(fill));
}

[[noreturn]] void bad_fill(const std::string& where, const rapidjson::Value& fill, const DataType& t,
                           const std::string& why) {
  fail(ZARR_ERR_INVALID_METADATA,
       where + ": fill_value " + describe(fill) + " is not valid for data type " + type_label(t) + ": " + why);
}

// ---- integers and booleans ---------------------------------------------------

// The spec wants a JSON number "with no fraction or exponent part": RapidJSON
// gives exactly those as Int64/Uint64 (an exponent or a point makes a double).
Bytes integer_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (!fill.IsInt64() && !fill.IsUint64()) {
    if (fill.IsDouble() && std::isfinite(fill.GetDouble()) && std::trunc(fill.GetDouble()) == fill.GetDouble() &&
        std::fabs(fill.GetDouble()) >= 9223372036854775808.0) {
      bad_fill(where, fill, t, "out of range");
    }
    bad_fill(where, fill, t, "expected a JSON integer (no fraction or exponent)");
  }
  const bool is_signed = t.is_signed_integer();
  const unsigned bits = t.integer_bits();
  const bool negative = fill.IsInt64() && fill.GetInt64() < 0;
  bool in_range;
  if (negative) {
    const int64_t min = bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1));
    in_range = is_signed && fill.GetInt64() >= min;
  } else {
    const uint64_t max = is_signed ? (uint64_t{1} << (bits - 1)) - 1
                                   : (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
    in_range = fill.GetUint64() <= max;
  }
  if (!in_range) {
    const std::string low = is_signed ? (bits == 64 ? "-9223372036854775808" : std::to_string(-(int64_t{1} << (bits - 1)))) : "0";
    const std::string high = is_signed ? std::to_string((uint64_t{1} << (bits - 1)) - 1)
                                       : std::to_string(bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
    bad_fill(where, fill, t, "out of range [" + low + ", " + high + "]");
  }
  const uint64_t twos = negative ? static_cast<uint64_t>(fill.GetInt64()) : fill.GetUint64();
  Bytes out(t.item_size());
  switch (t.item_size()) {
    case 1: store_unaligned(out.data(), static_cast<uint8_t>(twos)); break;
    case 2: store_unaligned(out.data(), static_cast<uint16_t>(twos)); break;
    case 4: store_unaligned(out.data(), static_cast<uint32_t>(twos)); break;
    default: store_unaligned(out.data(), twos); break;
  }
  return out;
}

std::string integer_json(const uint8_t* data, const DataType& t) {
  if (t.integer_bits() < 8) {
    return std::to_string(dtype_detail::sub_byte_value(data[0], static_cast<int>(t.integer_bits()), t.is_signed_integer()));
  }
  const bool is_signed = t.kind() == DTypeKind::Int;
  switch (t.item_size()) {
    case 1: return is_signed ? std::to_string(load_unaligned<int8_t>(data)) : std::to_string(load_unaligned<uint8_t>(data));
    case 2: return is_signed ? std::to_string(load_unaligned<int16_t>(data)) : std::to_string(load_unaligned<uint16_t>(data));
    case 4: return is_signed ? std::to_string(load_unaligned<int32_t>(data)) : std::to_string(load_unaligned<uint32_t>(data));
    default: return is_signed ? std::to_string(load_unaligned<int64_t>(data)) : std::to_string(load_unaligned<uint64_t>(data));
  }
}

// ---- floats ------------------------------------------------------------------

// One IEEE-like float format: its size and the spec's canonical NaN (sign 0,
// mantissa MSB 1, other mantissa bits 0; for the 8-bit floats ml_dtypes' NaN).
struct FloatFormat {
  size_t size;
  bool brain;  // bfloat16 rather than IEEE binary16 (both 2 bytes)
  std::optional<dtype_detail::Float8Format> float8 = std::nullopt;  // set for size 1
  uint64_t canonical_nan() const {
    if (float8) return dtype_detail::float8_canonical_nan(*float8);
    if (brain) return 0x7fc0u;
    return size == 2 ? 0x7e00u : size == 4 ? 0x7fc00000u : 0x7ff8000000000000u;
  }
};

uint64_t load_bits(const uint8_t* data, size_t size) {
  if (size == 1) return data[0];
  if (size == 2) return load_unaligned<uint16_t>(data);
  if (size == 4) return load_unaligned<uint32_t>(data);
  return load_unaligned<uint64_t>(data);
}

void store_bits(uint8_t* out, uint64_t bits, size_t size) {
  if (size == 1) {
    out[0] = static_cast<uint8_t>(bits);
  } else if (size == 2) {
    store_unaligned(out, static_cast<uint16_t>(bits));
  } else if (size == 4) {
    store_unaligned(out, static_cast<uint32_t>(bits));
  } else {
    store_unaligned(out, bits);
  }
}

double load_float(const uint8_t* data, FloatFormat f) {
  if (f.float8) return dtype_detail::float8_to_double(data[0], *f.float8);
  if (f.brain) return dtype_detail::bfloat16_to_double(load_unaligned<uint16_t>(data));
  if (f.size == 2) return dtype_detail::half_to_double(load_unaligned<uint16_t>(data));
  if (f.size == 4) return load_unaligned<float>(data);
  return load_unaligned<double>(data);
}

void store_float(uint8_t* out, double value, FloatFormat f) {
  if (f.float8) {
    out[0] = dtype_detail::double_to_float8(value, *f.float8);
  } else if (f.brain) {
    store_unaligned(out, dtype_detail::double_to_bfloat16(value));
  } else if (f.size == 2) {
    store_unaligned(out, dtype_detail::double_to_half(value));
  } else if (f.size == 4) {
    store_unaligned(out, dtype_detail::double_to_float(value));
  } else {
    store_unaligned(out, value);
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The registry's small floats: "NaN" only where the format has a NaN,
// "Infinity" only where it has infinities (the READMEs: "not supported since
// there is no corresponding representation"), numbers as float8_accepts_fill.
bool small_float_takes(const std::string& constant, double value, dtype_detail::Float8Format format,
                       std::string* why) {
  if (constant == "NaN" && !dtype_detail::float8_has_nan(format)) {
    *why = "the type has no NaN";
  } else if (!constant.empty() && constant != "NaN" && !dtype_detail::float8_has_infinity(format)) {
    *why = "the type has no infinity";
  } else if (constant.empty() && !dtype_detail::float8_accepts_fill(value, format)) {
    *why = "not representable";
  } else {
    return true;
  }
  return false;
}

// Store one float form at out; false when `v` is not one.
bool parse_float_into(const rapidjson::Value& v, FloatFormat f, uint8_t* out, std::string* why) {
  if (v.IsNumber()) {
    if (f.float8 && !small_float_takes("", v.GetDouble(), *f.float8, why)) return false;
    store_float(out, v.GetDouble(), f);
    return true;
  }
  if (!v.IsString()) return false;
  const std::string s(v.GetString(), v.GetStringLength());
  const bool constant = s == "NaN" || s == "Infinity" || s == "-Infinity";
  if (constant && f.float8 && !small_float_takes(s, 0, *f.float8, why)) return false;
  if (s == "NaN") {
    store_bits(out, f.canonical_nan(), f.size);
    return true;
  }
  if (s == "Infinity" || s == "-Infinity") {
    store_float(out, s[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity(), f);
    return true;
  }
  if (s.size() > 2 && s[0] == '0' && s[1] == 'x') {
    // The raw bits as an unsigned integer: exactly as many digits as the type has nibbles.
    if (s.size() - 2 != f.size * 2) {
      *why = "a \"0x\" bit pattern needs exactly " + std::to_string(f.size * 2) + " hex digits";
      return false;
    }
    uint64_t bits = 0;
    for (size_t i = 2; i < s.size(); ++i) {
      const int h = hex_value(s[i]);
      if (h < 0) {
        *why = "malformed hex digits";
        return false;
      }
      bits = (bits << 4) | static_cast<uint64_t>(h);
    }
    if (f.float8 && bits >> dtype_detail::float8_value_bits(*f.float8) != 0) {
      *why = "the bit pattern has bits above the type's " + std::to_string(dtype_detail::float8_value_bits(*f.float8));
      return false;
    }
    store_bits(out, bits, f.size);
    return true;
  }
  return false;
}

std::string hex_bits(uint64_t bits, size_t size) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (size_t i = size * 2; i-- > 0;) out += kDigits[(bits >> (4 * i)) & 0xfu];
  return out;
}

// zarr-python 3 writes float(v): Python's repr of the value as a double, or
// one of the special strings. A NaN with another bit pattern than the
// canonical one is written as its bits, the spec's only form for it.
std::string float_json(const uint8_t* data, FloatFormat f) {
  const double value = load_float(data, f);
  if (std::isnan(value)) {
    const uint64_t bits = load_bits(data, f.size);
    return bits == f.canonical_nan() ? "\"NaN\"" : "\"" + hex_bits(bits, f.size) + "\"";
  }
  if (std::isinf(value)) return value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  return dtype_detail::python_float_repr(value);
}

const char* kFloatForms = "expected a number, \"NaN\", \"Infinity\", \"-Infinity\" or a \"0x\" bit pattern";

Bytes float_fill(const rapidjson::Value& fill, const DataType& t, FloatFormat f, const std::string& where) {
  Bytes out(t.item_size());
  std::string why = kFloatForms;
  if (!parse_float_into(fill, f, out.data(), &why)) bad_fill(where, fill, t, why);
  return out;
}

// One half of a complex type: IEEE, bfloat16 or a small float.
FloatFormat complex_half(const DataType& t) {
  const DTypeKind part = t.complex_component_kind();
  if (part == DTypeKind::Float8) return FloatFormat{1, false, t.float8_format()};
  return FloatFormat{t.item_size() / 2, part == DTypeKind::BFloat16};
}

Bytes complex_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (!fill.IsArray() || fill.Size() != 2) bad_fill(where, fill, t, "expected [real, imaginary]");
  const FloatFormat half = complex_half(t);
  Bytes out(t.item_size());
  for (rapidjson::SizeType i = 0; i < 2; ++i) {
    std::string why = kFloatForms;
    if (!parse_float_into(fill[i], half, out.data() + i * half.size, &why)) {
      bad_fill(where, fill, t, std::string(i == 0 ? "real" : "imaginary") + " part: " + why);
    }
  }
  return out;
}

// ---- times -------------------------------------------------------------------

constexpr int64_t kNaT = std::numeric_limits<int64_t>::min();

Bytes time_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  int64_t value;
  if (fill.IsString() && std::string(fill.GetString(), fill.GetStringLength()) == "NaT") {
    value = kNaT;
  } else if (fill.IsInt64()) {
    value = fill.GetInt64();
  } else if (fill.IsUint64() || fill.IsDouble()) {
    if (fill.IsUint64() || (std::isfinite(fill.GetDouble()) && std::trunc(fill.GetDouble()) == fill.GetDouble())) {
      bad_fill(where, fill, t, "out of the int64 range");
    }
    bad_fill(where, fill, t, "expected an integer count of time units or \"NaT\"");
  } else {
    bad_fill(where, fill, t, "expected an integer count of time units or \"NaT\"");
  }
  Bytes out(8);
  store_unaligned(out.data(), value);
  return out;
}

// ---- strings and bytes -----------------------------------------------------------

// A list of integers in [0, 255].
std::optional<Bytes> byte_list(const rapidjson::Value& fill) {
  if (!fill.IsArray()) return std::nullopt;
  Bytes out;
  out.reserve(fill.Size());
  for (const auto& b : fill.GetArray()) {
    if (!b.IsUint64() || b.GetUint64() > 255) return std::nullopt;
    out.push_back(static_cast<uint8_t>(b.GetUint64()));
  }
  return out;
}

// Base64 as zarr-python 3 decodes it (Python's standard_b64decode).
std::optional<Bytes> base64_value(const rapidjson::Value& fill) {
  if (!fill.IsString()) return std::nullopt;
  return dtype_detail::base64_decode_lenient(std::string(fill.GetString(), fill.GetStringLength()));
}

Bytes pad_to_item(Bytes bytes, const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (bytes.size() > t.item_size()) {
    bad_fill(where, fill, t, std::to_string(bytes.size()) + " bytes do not fit in " + std::to_string(t.item_size()));
  }
  bytes.resize(t.item_size(), 0);
  return bytes;
}

// r<bits>: exactly item_size byte values. raw_bytes (and V from v2): base64,
// as zarr-python 3 writes it; either form is read for both spellings.
Bytes void_fill(const rapidjson::Value& fill, const DataType& t, bool raw_bits, const std::string& where) {
  if (auto list = byte_list(fill)) {
    if (list->size() != t.item_size()) {
      bad_fill(where, fill, t, "expected a list of exactly " + std::to_string(t.item_size()) + " byte values");
    }
    return *list;
  }
  if (auto decoded = base64_value(fill)) return pad_to_item(std::move(*decoded), fill, t, where);
  bad_fill(where, fill, t, raw_bits ? "expected a list of " + std::to_string(t.item_size()) + " integers in [0, 255]"
                                    : std::string("expected a base64 string"));
}

Bytes unicode_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (!fill.IsString()) bad_fill(where, fill, t, "expected a string");
  const auto code_points = dtype_detail::utf8_to_utf32(std::string(fill.GetString(), fill.GetStringLength()));
  if (!code_points) bad_fill(where, fill, t, "malformed UTF-8");
  const size_t capacity = t.item_size() / 4;
  if (code_points->size() > capacity) {
    bad_fill(where, fill, t, std::to_string(code_points->size()) + " characters do not fit in " + std::to_string(capacity));
  }
  Bytes out(t.item_size(), 0);
  if (!code_points->empty()) std::memcpy(out.data(), code_points->data(), code_points->size() * 4);
  return out;
}

std::string unicode_json(const uint8_t* data, size_t size) {
  std::vector<uint32_t> code_points(size / 4);
  if (!code_points.empty()) std::memcpy(code_points.data(), data, code_points.size() * 4);
  while (!code_points.empty() && code_points.back() == 0) code_points.pop_back();
  const auto text = dtype_detail::utf32_to_utf8(code_points);
  if (!text) fail(ZARR_ERR_INVALID_ARGUMENT, "fill value holds a code unit that is not a Unicode character");
  return json::quote(*text);
}

Bytes string_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (!fill.IsString()) bad_fill(where, fill, t, "expected a string");
  std::string text(fill.GetString(), fill.GetStringLength());
  if (!dtype_detail::utf8_to_utf32(text)) bad_fill(where, fill, t, "malformed UTF-8");
  return Bytes(text.begin(), text.end());
}

// ---- struct -----------------------------------------------------------------

const Field& scalar_field(const Field& f, const DataType& t) {
  if (!f.subshape.empty()) {
    fail(ZARR_ERR_UNSUPPORTED, "field " + json::quote(f.name) + " of data type " + type_label(t) +
                                   " is a subarray, which has no Zarr v3 fill value form");
  }
  return f;
}

// An object with one member per field, each the field's own fill value form;
// or, as legacy "structured" arrays have it, base64 of the packed record in
// t's byte order.
Bytes struct_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  Bytes out(t.item_size(), 0);
  if (fill.IsString()) {
    auto decoded = base64_value(fill);
    if (!decoded) bad_fill(where, fill, t, "expected an object of field values or a base64 string");
    out = pad_to_item(std::move(*decoded), fill, t, where);
    t.swap_in_place(out.data(), 1);
    return out;
  }
  if (!fill.IsObject()) bad_fill(where, fill, t, "expected an object with a member for each field");
  std::map<std::string, const rapidjson::Value*> members;
  for (auto it = fill.MemberBegin(); it != fill.MemberEnd(); ++it) members.emplace(json::text(it->name), &it->value);
  for (const Field& f : t.fields()) {
    const auto found = members.find(f.name);
    if (found == members.end()) bad_fill(where, fill, t, "no value for field " + json::quote(f.name));
    const rapidjson::Value* v = found->second;
    members.erase(found);
    const Bytes value = scalar_field(f, t).type->parse_fill_value_v3(*v, where + ": field " + json::quote(f.name));
    std::memcpy(out.data() + f.offset, value.data(), value.size());
  }
  if (!members.empty()) {
    bad_fill(where, fill, t, "member " + excerpt(json::quote(members.begin()->first)) + " is not a field of the type");
  }
  return out;
}

std::string struct_fill_json(const uint8_t* data, const DataType& t) {
  std::string out = "{";
  for (const Field& f : t.fields()) {
    const size_t size = scalar_field(f, t).type->item_size();
    out += (out.size() > 1 ? "," : "") + json::quote(f.name) + ":" +
           f.type->fill_value_to_v3_json(Bytes(data + f.offset, data + f.offset + size));
  }
  return out + "}";
}

}  // namespace

Bytes DataType::parse_fill_value_v3(const rapidjson::Value& fill, const std::string& where) const {
  if (kind_ == DTypeKind::Object) {
    fail(ZARR_ERR_UNSUPPORTED, where + ": data type " + excerpt(to_v2_json()) + " has no Zarr v3 fill value form in libzarr");
  }
  if (kind_ == DTypeKind::Optional) return optional_fill(fill, where);
  if (fill.IsNull()) bad_fill(where, fill, *this, "Zarr v3 requires a fill value (null is not one)");
  switch (kind_) {
    case DTypeKind::Bool:
      if (!fill.IsBool()) bad_fill(where, fill, *this, "expected true or false");
      return Bytes{static_cast<uint8_t>(fill.GetBool() ? 1 : 0)};
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt: return integer_fill(fill, *this, where);
    case DTypeKind::Float: return float_fill(fill, *this, FloatFormat{item_size_, false}, where);
    case DTypeKind::BFloat16: return float_fill(fill, *this, FloatFormat{2, true}, where);
    case DTypeKind::Float8: return float_fill(fill, *this, FloatFormat{1, false, float8_format_}, where);
    case DTypeKind::Complex: return complex_fill(fill, *this, where);
    case DTypeKind::DateTime:
    case DTypeKind::TimeDelta: return time_fill(fill, *this, where);
    case DTypeKind::Bytes: {
      auto decoded = base64_value(fill);
      if (!decoded) bad_fill(where, fill, *this, "expected a base64 string");
      return pad_to_item(std::move(*decoded), fill, *this, where);
    }
    case DTypeKind::Unicode: return unicode_fill(fill, *this, where);
    case DTypeKind::Void: return void_fill(fill, *this, v3_form_ == V3Form::RawBits, where);
    case DTypeKind::VarString: return string_fill(fill, *this, where);
    case DTypeKind::VarBytes: {
      if (auto list = byte_list(fill)) return *list;
      if (auto decoded = base64_value(fill)) return *decoded;
      bad_fill(where, fill, *this, "expected a base64 string or a list of integers in [0, 255]");
    }
    case DTypeKind::Structured: return struct_fill(fill, *this, where);
    case DTypeKind::Optional:
    case DTypeKind::Object: break;
  }
  fail(ZARR_ERR_UNSUPPORTED, where + ": no Zarr v3 fill value form for this data type");
}

std::string DataType::fill_value_to_v3_json(const Bytes& fill) const {
  if (kind_ == DTypeKind::Object) {
    fail(ZARR_ERR_UNSUPPORTED, "data type " + excerpt(to_v2_json()) + " has no Zarr v3 fill value form in libzarr");
  }
  if (kind_ == DTypeKind::VarString) {
    const std::string text(fill.begin(), fill.end());
    if (!dtype_detail::utf8_to_utf32(text)) fail(ZARR_ERR_INVALID_ARGUMENT, "string fill value is not valid UTF-8");
    return json::quote(text);
  }
  if (kind_ == DTypeKind::VarBytes) return json::quote(dtype_detail::base64_encode(fill.data(), fill.size()));
  if (fill.size() != item_size_) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "fill value of " + std::to_string(fill.size()) + " bytes for data type " +
                                        to_v3_json() + " of item size " + std::to_string(item_size_));
  }
  const uint8_t* data = fill.data();
  switch (kind_) {
    case DTypeKind::Bool: return data[0] ? "true" : "false";
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt: return integer_json(data, *this);
    case DTypeKind::Float: return float_json(data, FloatFormat{item_size_, false});
    case DTypeKind::BFloat16: return float_json(data, FloatFormat{2, true});
    case DTypeKind::Float8: return float_json(data, FloatFormat{1, false, float8_format_});
    case DTypeKind::Complex: {
      const FloatFormat half = complex_half(*this);
      return "[" + float_json(data, half) + "," + float_json(data + half.size, half) + "]";
    }
    case DTypeKind::DateTime:
    case DTypeKind::TimeDelta: return std::to_string(load_unaligned<int64_t>(data));
    case DTypeKind::Bytes: {
      // numpy's bytes_ drops trailing NULs before zarr-python 3 encodes it.
      size_t n = item_size_;
      while (n > 0 && data[n - 1] == 0) --n;
      return json::quote(dtype_detail::base64_encode(data, n));
    }
    case DTypeKind::Unicode: return unicode_json(data, item_size_);
    case DTypeKind::Void:
      if (v3_form_ == V3Form::RawBits) return list_text(data, item_size_, ",");
      return json::quote(dtype_detail::base64_encode(data, item_size_));
    case DTypeKind::Structured: return struct_fill_json(data, *this);
    case DTypeKind::Optional: return optional_fill_json(data);
    case DTypeKind::VarString:
    case DTypeKind::VarBytes:
    case DTypeKind::Object: break;
  }
  return "null";
}

Bytes DataType::default_fill_value_v3() const {
  if (is_variable_length()) return Bytes{};
  Bytes out(item_size_, 0);
  if (kind_ == DTypeKind::DateTime || kind_ == DTypeKind::TimeDelta) store_unaligned(out.data(), kNaT);
  return out;
}

}  // namespace zarr
