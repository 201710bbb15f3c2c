// Runtime data types of Zarr v2 (numpy typestr / structured descriptions).
//
// A DataType knows its stored layout (size, byte order, fields) and converts
// between stored byte order and the native byte order callers see.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "core/bytes.h"

namespace zarr {

enum class DTypeKind {
  Bool,        // b1: one byte 0/1
  Int,         // i1 i2 i4 i8
  UInt,        // u1 u2 u4 u8
  Float,       // f2 f4 f8
  Complex,     // c8 c16 (pairs of floats; each half swapped separately)
  DateTime,    // M8[unit]: int64
  TimeDelta,   // m8[unit]: int64
  Bytes,       // S n: fixed-length bytes, no byte order
  Unicode,     // U n: n UTF-32 code units (itemsize 4n), swapped per code unit
  Void,        // V n: raw bytes, no byte order
  Structured,  // fields with names, nested types and subarray shapes
  Object,      // |O: variable length objects (needs an object codec; not readable yet)
};

class DataType;

struct Field {
  std::string name;
  std::shared_ptr<DataType> type;  // element type of the field
  std::vector<uint64_t> subshape;  // empty for a scalar field
  size_t offset = 0;               // byte offset inside the record
  size_t element_count = 1;        // product of subshape (1 for a scalar field)
};

class DataType {
 public:
  // Parse the v2 "dtype" member: a typestr string ("<i4", "|S5", "<M8[ns]",
  // "|b1", ...) or a list of [name, type] / [name, type, shape] fields.
  // Throws ZARR_ERR_INVALID_METADATA naming `where` (e.g. "dtype in /a/.zarray")
  // for malformed values, ZARR_ERR_UNSUPPORTED for well-formed but unknown types.
  static DataType parse_v2(const rapidjson::Value& dtype, const std::string& where);

  // parse_v2 for a typestr given as text (e.g. the "dtype"/"astype" members of
  // a delta or fixedscaleoffset filter). Same errors as parse_v2.
  static DataType from_typestr(const std::string& typestr, const std::string& where);

  // The type a v3 data_type name denotes ("int16", "float64", "bool", ...), in
  // host byte order (v3 keeps byte order in the bytes codec), or std::nullopt
  // for names other than those v3_name() returns.
  static std::optional<DataType> from_v3_name(const std::string& name);

  // Serialise back to the v2 JSON form (string or field list), as numpy's
  // dtype.descr would, so zarr-python reads it unchanged.
  std::string to_v2_json() const;

  // The v3 name for simple native-layout types ("int16", "float64", "bool",
  // "complex64") and std::nullopt for others (datetime, strings, structured...).
  std::optional<std::string> v3_name() const;

  DTypeKind kind() const { return kind_; }
  size_t item_size() const { return item_size_; }
  // True when stored multi-byte values are big-endian ('>'). False for types
  // without byte order and for structured types (see each field's type).
  bool big_endian() const { return big_endian_; }
  // "ns", "D", "10us"... for DateTime/TimeDelta; "" otherwise (generic unit).
  const std::string& time_unit() const { return time_unit_; }
  const std::vector<Field>& fields() const { return fields_; }

  // True for Object and for structured types with an Object field anywhere:
  // such items are pointers in numpy and need an object codec to store.
  bool contains_object() const;

  // Same layout and meaning (compares the v2 JSON form).
  bool operator==(const DataType& other) const { return to_v2_json() == other.to_v2_json(); }
  bool operator!=(const DataType& other) const { return !(*this == other); }

  // The same type stored in the given byte order: every multi-byte component
  // (every field of a structured type) takes it; types without byte order are
  // returned unchanged. The v3 bytes codec uses this for its "endian".
  DataType with_byte_order(bool big_endian) const;

  // True when converting between stored and native layout changes bytes
  // (a multi-byte component stored in the order the host does not use, e.g.
  // big-endian on a little-endian host; for structured types, any field).
  bool needs_byte_swap() const;

  // Convert `count` consecutive items in place between stored and native byte
  // order (the operation is its own inverse). Structured types field by field.
  void swap_in_place(uint8_t* data, size_t count) const;

  // Fill value handling for the v2 "fill_value" member. Returns item_size()
  // bytes in native byte order, or std::nullopt for JSON null. Accepts numbers,
  // "NaN", "Infinity", "-Infinity", [re, im] for complex, booleans, ints for
  // M8/m8, base64 strings for S/V/structured and plain strings for U.
  // Throws ZARR_ERR_INVALID_METADATA naming `where` on a value that does not fit,
  // ZARR_ERR_UNSUPPORTED for date strings other than "NaT" and for structured
  // types with an object field. Object types always give std::nullopt (their fill value needs the object
  // codec, which libzarr lacks); see docs/dtypes.md for every accepted form.
  std::optional<Bytes> parse_fill_value_v2(const rapidjson::Value& fill,
                                           const std::string& where) const;

  // Serialise a native-order fill value (or null) as zarr-python 2.13 does.
  // ZARR_ERR_INVALID_ARGUMENT when fill is not item_size() bytes, or for U
  // when it holds a code unit that is not a Unicode scalar value.
  std::string fill_value_to_v2_json(const std::optional<Bytes>& fill) const;

 private:
  DTypeKind kind_ = DTypeKind::UInt;
  size_t item_size_ = 1;
  bool big_endian_ = false;
  std::string time_unit_;
  std::vector<Field> fields_;
  std::string typestr_;  // normalised typestr for simple types ("|u1", ">M8[10ms]")
  bool needs_swap_ = false;  // computed once at parse time: swapping runs per chunk

  static DataType parse_typestr(const std::string& text, const std::string& where);
  static DataType parse_fields(const rapidjson::Value& list, const std::string& where);
  // Bytes of one byte-ordered component: 2/4/8 for numbers, half a complex,
  // 4 for U, 1 (nothing to swap) for b1/S/V/O and structured types.
  size_t swap_unit() const;
  std::string fields_to_json() const;
};

}  // namespace zarr
