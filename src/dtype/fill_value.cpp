// v2 fill values: the JSON forms zarr-python 2.13 reads and writes, converted
// to and from item_size() bytes in native byte order.
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

#include "base/bytes.h"
#include "base/error.h"
#include "base/json.h"
#include "dtype/data_type.h"
#include "dtype/float8.h"
#include "dtype/float_text.h"
#include "dtype/sub_byte_int.h"
#include "dtype/messages.h"
#include "dtype/text_encoding.h"

namespace zarr {

namespace {

using dtype_detail::double_to_float;
using dtype_detail::double_to_half;
using dtype_detail::half_to_double;

// The value as the message shows it: numbers past 64 bits arrive as doubles,
// which RapidJSON would print as "18446744073709553000.0".
std::string describe(const rapidjson::Value& fill) {
  if (fill.IsDouble() && std::isfinite(fill.GetDouble())) return dtype_detail::python_float_repr(fill.GetDouble());
  return dtype_detail::excerpt(json::to_string(fill));
}

[[noreturn]] void bad_fill(const std::string& where, const rapidjson::Value& fill, const DataType& t,
                           const std::string& why) {
  fail(ZARR_ERR_INVALID_METADATA,
       where + ": fill_value " + describe(fill) + " is not valid for dtype " + dtype_detail::excerpt(t.to_v2_json()) + ": " + why);
}

template <typename T>
void store(Bytes& out, T value) {
  std::memcpy(out.data(), &value, sizeof value);
}

// ---- integers --------------------------------------------------------------

// A JSON integer, or a number with no fractional part (some writers emit 0.0
// for integer types), as a wide signed value. std::nullopt otherwise.
// __int128 would be simplest but is not portable; a sign flag and magnitude
// cover the int64 and uint64 ranges.
struct WideInt {
  bool negative = false;
  uint64_t magnitude = 0;
  bool overflow = false;  // |value| >= 2^64: outside every integer type
};

std::optional<WideInt> json_integer(const rapidjson::Value& v) {
  if (v.IsUint64()) return WideInt{false, v.GetUint64(), false};
  if (v.IsInt64()) {
    const int64_t i = v.GetInt64();  // negative here: non-negatives were Uint64
    return WideInt{true, static_cast<uint64_t>(-(i + 1)) + 1, false};
  }
  if (v.IsDouble()) {
    const double d = v.GetDouble();
    if (!std::isfinite(d) || std::trunc(d) != d) return std::nullopt;
    const double limit = 18446744073709551616.0;  // 2^64
    if (std::fabs(d) >= limit) return WideInt{d < 0, 0, true};
    return WideInt{d < 0, static_cast<uint64_t>(std::fabs(d)), false};
  }
  return std::nullopt;
}

// Native bytes of an integer of `size` bytes, range-checked (numpy 1.24 wraps
// 300 to 44 for u1 with a warning; a fill value that does not fit is an error).
Bytes integer_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  const auto value = json_integer(fill);
  if (!value) bad_fill(where, fill, t, "expected an integer");
  const bool is_signed = t.is_signed_integer();
  const unsigned bits = t.integer_bits();
  const uint64_t max_positive = is_signed ? (uint64_t{1} << (bits - 1)) - 1
                                          : (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
  const uint64_t max_negative = is_signed ? uint64_t{1} << (bits - 1) : 0;
  if (value->overflow || value->magnitude > (value->negative ? max_negative : max_positive)) {
    const std::string low = is_signed ? "-" + std::to_string(max_negative) : "0";
    bad_fill(where, fill, t, "out of range [" + low + ", " + std::to_string(max_positive) + "]");
  }
  // Two's complement of the value, truncated to the type's width (int4: to
  // its byte, which sign-extends it as TensorStore stores it).
  const uint64_t twos = value->negative ? ~value->magnitude + 1 : value->magnitude;
  Bytes out(t.item_size());
  switch (t.item_size()) {
    case 1: store(out, static_cast<uint8_t>(twos)); break;
    case 2: store(out, static_cast<uint16_t>(twos)); break;
    case 4: store(out, static_cast<uint32_t>(twos)); break;
    default: store(out, twos); break;
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

// ---- floats ----------------------------------------------------------------

// A JSON number or one of the spec's strings "NaN", "Infinity", "-Infinity".
std::optional<double> json_float(const rapidjson::Value& v) {
  if (v.IsNumber()) return v.GetDouble();
  if (!v.IsString()) return std::nullopt;
  const std::string s(v.GetString(), v.GetStringLength());
  if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (s == "Infinity") return std::numeric_limits<double>::infinity();
  if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

// Round to a float of `size` bytes and store it natively at out.
void store_float(uint8_t* out, double value, size_t size) {
  if (size == 2) {
    const uint16_t half = double_to_half(value);
    std::memcpy(out, &half, 2);
  } else if (size == 4) {
    const float f = double_to_float(value);
    std::memcpy(out, &f, 4);
  } else {
    std::memcpy(out, &value, 8);
  }
}

double load_float(const uint8_t* data, size_t size) {
  if (size == 2) return half_to_double(load_unaligned<uint16_t>(data));
  if (size == 4) return load_unaligned<float>(data);
  return load_unaligned<double>(data);
}

// zarr-python writes float(v): Python's repr of the value widened to double,
// so float32 0.1 appears as 0.10000000149011612.
std::string float_json(double value) {
  if (std::isnan(value)) return "\"NaN\"";
  if (std::isinf(value)) return value > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  return dtype_detail::python_float_repr(value);
}

Bytes float_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  const auto value = json_float(fill);
  if (!value) bad_fill(where, fill, t, "expected a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
  Bytes out(t.item_size());
  store_float(out.data(), *value, t.item_size());
  return out;
}

Bytes float8_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  const auto value = json_float(fill);
  if (!value) bad_fill(where, fill, t, "expected a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
  if (!dtype_detail::float8_accepts_fill(*value, t.float8_format())) bad_fill(where, fill, t, "not representable");
  return Bytes{dtype_detail::double_to_float8(*value, t.float8_format())};
}

Bytes complex_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (!fill.IsArray() || fill.Size() != 2) bad_fill(where, fill, t, "expected [real, imaginary]");
  const size_t half = t.item_size() / 2;
  Bytes out(t.item_size());
  for (rapidjson::SizeType i = 0; i < 2; ++i) {
    const auto part = json_float(fill[i]);
    if (!part) bad_fill(where, fill, t, "each part must be a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
    store_float(out.data() + i * half, *part, half);
  }
  return out;
}

// ---- other scalars -----------------------------------------------------------

// numpy turns any integer into a bool by truthiness; writers that default to
// 0 for every type emit 0 for bool arrays.
Bytes bool_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  bool value;
  if (fill.IsBool()) {
    value = fill.GetBool();
  } else if (fill.IsInt64() || fill.IsUint64()) {
    value = !(fill.IsInt64() ? fill.GetInt64() == 0 : fill.GetUint64() == 0);
  } else {
    bad_fill(where, fill, t, "expected true or false");
  }
  return Bytes{static_cast<uint8_t>(value ? 1 : 0)};
}

// numpy reads "NaT" in any case, and the empty string, as not-a-time.
bool is_nat_text(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s.empty() || s == "nat";
}

// M8/m8 fill values are the int64 count of units; NaT is the int64 minimum,
// which is also what zarr-python writes for it.
Bytes time_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  int64_t value;
  if (fill.IsString()) {
    if (!is_nat_text(std::string(fill.GetString(), fill.GetStringLength()))) {
      fail(ZARR_ERR_UNSUPPORTED, where + ": fill_value " + describe(fill) + " for dtype " + t.to_v2_json() +
                                     ": date/time strings other than \"NaT\" are not supported");
    }
    value = std::numeric_limits<int64_t>::min();
  } else {
    const auto wide = json_integer(fill);
    if (!wide) bad_fill(where, fill, t, "expected an integer count of time units or \"NaT\"");
    const uint64_t limit = wide->negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    if (wide->overflow || wide->magnitude > limit) bad_fill(where, fill, t, "out of the int64 range");
    value = wide->negative ? static_cast<int64_t>(~wide->magnitude + 1) : static_cast<int64_t>(wide->magnitude);
  }
  Bytes out(8);
  store(out, value);
  return out;
}

// ---- byte strings, void, structured ------------------------------------------

// Decoded bytes zero-padded to the item size; longer is an error (numpy
// would silently truncate).
Bytes pad_to_item(Bytes bytes, const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (bytes.size() > t.item_size()) {
    bad_fill(where, fill, t, std::to_string(bytes.size()) + " bytes do not fit in " + std::to_string(t.item_size()));
  }
  bytes.resize(t.item_size(), 0);
  return bytes;
}

// The text numpy stores for a non-base64 value of an S dtype: ASCII strings
// as they are, numbers and booleans as Python's str() prints them.
std::optional<std::string> bytes_fallback_text(const rapidjson::Value& fill) {
  if (fill.IsString()) {
    std::string s(fill.GetString(), fill.GetStringLength());
    for (unsigned char c : s) {
      if (c >= 0x80) return std::nullopt;
    }
    return s;
  }
  if (fill.IsBool()) return std::string(fill.GetBool() ? "True" : "False");
  if (fill.IsUint64()) return std::to_string(fill.GetUint64());
  if (fill.IsInt64()) return std::to_string(fill.GetInt64());
  if (fill.IsDouble()) {
    const double d = fill.GetDouble();
    if (std::isnan(d)) return std::string("nan");
    if (std::isinf(d)) return std::string(d > 0 ? "inf" : "-inf");
    return dtype_detail::python_float_repr(d);
  }
  return std::nullopt;
}

// zarr-python tries base64 first and, for S only, falls back to the value
// itself (old files hold e.g. 0 or plain text).
Bytes bytes_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (fill.IsString()) {
    auto decoded = dtype_detail::base64_decode_lenient(std::string(fill.GetString(), fill.GetStringLength()));
    if (decoded) return pad_to_item(std::move(*decoded), fill, t, where);
  }
  const auto text = bytes_fallback_text(fill);
  if (!text) bad_fill(where, fill, t, "expected a base64 string");
  return pad_to_item(Bytes(text->begin(), text->end()), fill, t, where);
}

// V and structured fill values are base64 of the stored bytes (structured
// fields in their stored byte order).
Bytes void_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (t.contains_object()) {
    fail(ZARR_ERR_UNSUPPORTED,
         where + ": fill_value for dtype " + t.to_v2_json() + " needs an object codec, which is not supported");
  }
  if (!fill.IsString()) bad_fill(where, fill, t, "expected a base64 string");
  auto decoded = dtype_detail::base64_decode_lenient(std::string(fill.GetString(), fill.GetStringLength()));
  if (!decoded) bad_fill(where, fill, t, "malformed base64");
  Bytes out = pad_to_item(std::move(*decoded), fill, t, where);
  t.swap_in_place(out.data(), 1);
  return out;
}

// ---- unicode -----------------------------------------------------------------

Bytes unicode_fill(const rapidjson::Value& fill, const DataType& t, const std::string& where) {
  if (!fill.IsString()) bad_fill(where, fill, t, "expected a string");
  const auto code_points = dtype_detail::utf8_to_utf32(std::string(fill.GetString(), fill.GetStringLength()));
  if (!code_points) bad_fill(where, fill, t, "malformed UTF-8");
  const size_t capacity = t.item_size() / 4;
  if (code_points->size() > capacity) {
    bad_fill(where, fill, t, std::to_string(code_points->size()) + " characters do not fit in " +
                                 std::to_string(capacity));
  }
  Bytes out(t.item_size(), 0);
  if (!code_points->empty()) std::memcpy(out.data(), code_points->data(), code_points->size() * 4);
  return out;
}

// numpy drops trailing NUL code units from U scalars and zarr-python writes
// the resulting str.
std::string unicode_json(const uint8_t* data, size_t size) {
  std::vector<uint32_t> code_points(size / 4);
  std::memcpy(code_points.data(), data, code_points.size() * 4);
  while (!code_points.empty() && code_points.back() == 0) code_points.pop_back();
  const auto text = dtype_detail::utf32_to_utf8(code_points);
  if (!text) fail(ZARR_ERR_INVALID_ARGUMENT, "fill value holds a code unit that is not a Unicode character");
  return json::quote(*text);
}

}  // namespace

std::optional<Bytes> DataType::parse_fill_value_v2(const rapidjson::Value& fill, const std::string& where) const {
  if (fill.IsNull()) return std::nullopt;
  switch (kind_) {
    case DTypeKind::Bool: return bool_fill(fill, *this, where);
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt: return integer_fill(fill, *this, where);
    case DTypeKind::Float: return float_fill(fill, *this, where);
    case DTypeKind::Float8: return float8_fill(fill, *this, where);
    case DTypeKind::Complex: return complex_fill(fill, *this, where);
    case DTypeKind::DateTime:
    case DTypeKind::TimeDelta: return time_fill(fill, *this, where);
    case DTypeKind::Bytes: return bytes_fill(fill, *this, where);
    case DTypeKind::Unicode: return unicode_fill(fill, *this, where);
    case DTypeKind::Void: return void_fill(fill, *this, where);
    case DTypeKind::Structured:
      // Also v3's {"field": value, ...}, so a struct's fill value carries
      // over to v2 (zarrtool cp --format 2) as it is.
      if (fill.IsObject()) return parse_fill_value_v3(fill, where);
      return void_fill(fill, *this, where);
    case DTypeKind::Object: return std::nullopt;  // opaque without an object codec
    case DTypeKind::BFloat16:
    case DTypeKind::Optional:
    case DTypeKind::VarString:
    case DTypeKind::VarBytes: break;  // v3 types: see parse_fill_value_v3
  }
  fail(ZARR_ERR_UNSUPPORTED, where + ": data type " + to_v2_json() + " has no Zarr v2 fill value form in libzarr");
}

std::string DataType::fill_value_to_v2_json(const std::optional<Bytes>& fill) const {
  if (!fill) return "null";
  if (kind_ == DTypeKind::Object) fail(ZARR_ERR_INVALID_ARGUMENT, "object dtypes have no byte fill value");
  if (kind_ == DTypeKind::BFloat16 || kind_ == DTypeKind::Optional || is_variable_length()) {
    fail(ZARR_ERR_UNSUPPORTED, "data type " + to_v2_json() + " has no Zarr v2 fill value form in libzarr");
  }
  if (fill->size() != item_size_) {
    fail(ZARR_ERR_INVALID_ARGUMENT, "fill value of " + std::to_string(fill->size()) + " bytes for dtype " +
                                        to_v2_json() + " of item size " + std::to_string(item_size_));
  }
  const uint8_t* data = fill->data();
  switch (kind_) {
    case DTypeKind::Bool: return data[0] ? "true" : "false";
    case DTypeKind::Int:
    case DTypeKind::UInt:
    case DTypeKind::SubByteInt:
    case DTypeKind::SubByteUInt: return integer_json(data, *this);
    case DTypeKind::Float: return float_json(load_float(data, item_size_));
    case DTypeKind::Float8: return float_json(dtype_detail::float8_to_double(data[0], float8_format_));
    case DTypeKind::Complex: {
      const size_t half = item_size_ / 2;
      return "[" + float_json(load_float(data, half)) + "," + float_json(load_float(data + half, half)) + "]";
    }
    case DTypeKind::DateTime:
    case DTypeKind::TimeDelta: return std::to_string(load_unaligned<int64_t>(data));
    case DTypeKind::Bytes: {
      // numpy's bytes scalars drop trailing NULs before zarr-python encodes them.
      size_t n = item_size_;
      while (n > 0 && data[n - 1] == 0) --n;
      return json::quote(dtype_detail::base64_encode(data, n));
    }
    case DTypeKind::Unicode: return unicode_json(data, item_size_);
    case DTypeKind::Void:
    case DTypeKind::Structured: {
      Bytes stored = *fill;
      swap_in_place(stored.data(), 1);  // back to the stored byte order
      return json::quote(dtype_detail::base64_encode(stored.data(), stored.size()));
    }
    case DTypeKind::Object:
    case DTypeKind::BFloat16:
    case DTypeKind::Optional:
    case DTypeKind::VarString:
    case DTypeKind::VarBytes: break;
  }
  return "null";
}

}  // namespace zarr
