// Runtime data types of Zarr v2 (numpy typestr / structured descriptions)
// and Zarr v3 (data_type names; parse_v3 / to_v3_json, in v3_types.cpp).
//
// A DataType knows its stored layout (size, byte order, fields) and converts
// between stored byte order and the native byte order callers see.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "base/bytes.h"
#include "dtype/float8.h"

namespace zarr {

enum class DTypeKind {
  Bool,        // b1: one byte 0/1
  Int,         // i1 i2 i4 i8
  UInt,        // u1 u2 u4 u8
  Float,       // f2 f4 f8
  Complex,     // c8 c16 (pairs of floats; each half swapped separately); in v3 also pairs
               // of float16, bfloat16 and the small floats (complex_component_kind())
  DateTime,    // M8[unit]: int64
  TimeDelta,   // m8[unit]: int64
  Bytes,       // S n: fixed-length bytes, no byte order
  Unicode,     // U n: n UTF-32 code units (itemsize 4n), swapped per code unit
  Void,        // V n: raw bytes, no byte order
  Structured,  // fields with names, nested types and subarray shapes
  Object,      // |O: variable length objects (needs an object codec; not readable yet)
  // Zarr v3 only (parse_v3):
  BFloat16,    // "bfloat16": 2 bytes, 1 sign, 8 exponent, 7 mantissa bits (float32's top half)
  VarString,   // "string": variable-length UTF-8 (item_size() == kVarItemSize; see below)
  VarBytes,    // "variable_length_bytes" / "bytes": variable-length byte strings (likewise)
  // TensorStore / ml_dtypes extensions, in v2 and v3 under the same names:
  Float8,      // the small floats, one per byte: "float8_e4m3fn", "float8_e4m3fnuz",
               // "float8_e4m3b11fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e4m3",
               // "float8_e3m4", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn",
               // "float4_e2m1fn"; which one is float8_format()
  SubByteInt,  // "int2", "int4": 1 byte holding the value sign-extended (TensorStore's
               // Int4Padded); sub_byte_bits() says 2 or 4
  SubByteUInt, // "uint2", "uint4": 1 byte holding the value zero-extended
  // zarrs' experimental "optional" (v3 only; optional_type.cpp): a flag byte
  // (1 present, 0 missing) followed by the inner type's item
  // (optional_inner()), so item_size() is 1 + the inner item size.
  Optional,
};

// Region buffers of the variable-length kinds (VarString, VarBytes) are to
// carry one 16-byte item per element: a pointer to the value's bytes and its
// length in bytes, each stored as a native uint64. No codec or array path
// handles these kinds yet (the array layer refuses them); the size is fixed
// here so chunk sizes and overflow checks are computed consistently.
inline constexpr size_t kVarItemSize = 16;

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
  // "|b1", ...), one of TensorStore's names "int4" and "float8_e4m3fn" (and
  // the other SubByteInt / SubByteUInt / Float8 names above), or a list of
  // [name, type] / [name, type, shape] fields.
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

  // Parse the v3 "data_type" member. Core names: "bool", "int8".."int64",
  // "uint8".."uint64", "float16" "float32" "float64", "complex64"
  // "complex128", raw bits "r8", "r16", ... (a Void of bits/8 bytes). Extension
  // names: "bfloat16", the sub-byte integers and small floats above (as
  // TensorStore's zarr3 driver and zarrs write them), the registry's complex
  // types ("complex_float16", "complex_bfloat16", "complex_float8_e4m3", ...,
  // and "complex_float32" / "complex_float64", which are complex64 /
  // complex128 keeping that spelling); zarr-python 3's {"name": "numpy.datetime64" or
  // "numpy.timedelta64", "configuration": {"unit": "ms", "scale_factor": 10}}
  // (DateTime/TimeDelta with unit "10ms"; "generic" is numpy's generic unit),
  // {"name": "fixed_length_utf32", "configuration": {"length_bytes": N}}
  // (Unicode of N/4 characters), {"name": "null_terminated_bytes" or
  // "raw_bytes", "configuration": {"length_bytes": N}} (Bytes / Void of N),
  // "string" (VarString) and "variable_length_bytes" or "bytes" (VarBytes);
  // {"name": "struct", "configuration": {"fields": [{"name": "x", "data_type":
  // <any fixed-size v3 type, struct included>}, ...]}} (Structured, packed in
  // field order), and the legacy "structured" with fields as [name, type];
  // zarrs' experimental {"name": "optional", "configuration": <inner type>}
  // (Optional; optional_type.cpp), whose fill value may be null.
  // A name may be given as a short-hand string or as {"name": ...} with an
  // optional "configuration". The result is in host byte order (v3 keeps the
  // stored byte order in the bytes codec).
  // Errors name `where` (e.g. "a/zarr.json: field 'data_type'"):
  // ZARR_ERR_UNSUPPORTED naming an unknown data type name (and for
  // fixed_length_utf32 of length 0); ZARR_ERR_INVALID_METADATA for anything
  // malformed (wrong JSON type, missing or unknown configuration members, bad
  // unit or size, "must_understand": false, which the spec forbids here).
  static DataType parse_v3(const rapidjson::Value& data_type, const std::string& where);

  // Serialise back to the v2 JSON form (string or field list), as numpy's
  // dtype.descr would, so zarr-python reads it unchanged. BFloat16 gives
  // TensorStore's "bfloat16"; VarString and VarBytes give "|O" (what
  // zarr-python 3 writes in v2 with a vlen-utf8 / vlen-bytes object codec).
  std::string to_v2_json() const;

  // The v3 "data_type" JSON as zarr-python 3 writes it: a short-hand name
  // ("int16", "bfloat16", "string", "variable_length_bytes", "r16") or an
  // object ({"name":"numpy.datetime64","configuration":{"unit":"ms","scale_factor":10}},
  // {"name":"fixed_length_utf32","configuration":{"length_bytes":16}},
  // {"name":"null_terminated_bytes",...} for S, {"name":"raw_bytes",...} for V).
  // A type parsed from v3 keeps the spelling it was read with ("r16" stays
  // "r16", the registry's "bytes" stays "bytes" while v3_name() and
  // zarr_data_type say "variable_length_bytes", "datetime64" becomes
  // "numpy.datetime64"). Structured types give "struct" (never the legacy
  // "structured") with each field's v3 type. ZARR_ERR_UNSUPPORTED for types v3
  // cannot express (object; a structured type with a subarray field, naming it).
  std::string to_v3_json() const;

  // The v3 name for simple native-layout types ("int16", "float64", "bool",
  // "complex64") and std::nullopt for others (datetime, strings, structured...).
  // Types only v3 has also give their short-hand name: "bfloat16", "string",
  // "variable_length_bytes", and "r<bits>" for a raw type read as such; the
  // TensorStore types theirs ("int4", "float8_e5m2", ...).
  std::optional<std::string> v3_name() const;

  // True when stored items have a byte order (some component wider than one
  // byte): the v3 bytes codec then needs its "endian".
  bool has_byte_order() const;
  // VarString and VarBytes: items are variable-length values (item_size() is
  // kVarItemSize, the size of a region-buffer item, not of a stored value).
  bool is_variable_length() const { return kind_ == DTypeKind::VarString || kind_ == DTypeKind::VarBytes; }

  DTypeKind kind() const { return kind_; }
  size_t item_size() const { return item_size_; }
  // True when stored multi-byte values are big-endian ('>'). False for types
  // without byte order and for structured types (see each field's type).
  bool big_endian() const { return big_endian_; }
  // "ns", "D", "10us"... for DateTime/TimeDelta; "" otherwise (generic unit).
  const std::string& time_unit() const { return time_unit_; }
  const std::vector<Field>& fields() const { return fields_; }
  // Which small float a Float8 type (or a complex type's component) is
  // (meaningless for other kinds).
  dtype_detail::Float8Format float8_format() const { return float8_format_; }
  // The bits a SubByteInt / SubByteUInt value has (2 or 4).
  int sub_byte_bits() const { return sub_byte_bits_; }
  // The integer kinds (Int, UInt, SubByteInt, SubByteUInt): whether the
  // value is signed and how many bits it has (8..64, or 2 / 4).
  bool is_signed_integer() const { return kind_ == DTypeKind::Int || kind_ == DTypeKind::SubByteInt; }
  unsigned integer_bits() const {
    const bool sub_byte = kind_ == DTypeKind::SubByteInt || kind_ == DTypeKind::SubByteUInt;
    return sub_byte ? static_cast<unsigned>(sub_byte_bits_) : static_cast<unsigned>(item_size_ * 8);
  }
  // What each half of a Complex type is: Float (IEEE binary16/32/64 by
  // size), BFloat16, or Float8 of float8_format(). Meaningless for other kinds.
  DTypeKind complex_component_kind() const { return complex_component_; }
  // The type an Optional wraps (itself Optional for optional<optional<T>>);
  // nullptr for other kinds.
  const DataType* optional_inner() const { return optional_inner_.get(); }

  // True for Object and for structured types with an Object field anywhere:
  // such items are pointers in numpy and need an object codec to store.
  bool contains_object() const;

  // Same layout and meaning (compares the kind, the byte order and the v2
  // JSON form; the v3 spelling of a raw type, "r16" or "raw_bytes", is not
  // part of it).
  bool operator==(const DataType& other) const {
    if (kind_ == DTypeKind::Optional || other.kind_ == DTypeKind::Optional) {
      return kind_ == other.kind_ && *optional_inner_ == *other.optional_inner_;
    }
    return kind_ == other.kind_ && big_endian_ == other.big_endian_ && to_v2_json() == other.to_v2_json();
  }
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
  // M8/m8, base64 strings for S/V/structured (and, for structured, v3's
  // object of field values) and plain strings for U.
  // Float8: numbers (rounded as double_to_float8 does), "NaN", "Infinity",
  // "-Infinity" (NaN in the formats without infinity, as ml_dtypes casts),
  // refusing what float8_accepts_fill refuses. SubByteInt / SubByteUInt:
  // integers in range ([-8, 7] for int4).
  // Throws ZARR_ERR_INVALID_METADATA naming `where` on a value that does not fit,
  // ZARR_ERR_UNSUPPORTED for date strings other than "NaT" and for structured
  // types with an object field. Object types always give std::nullopt (their fill value needs the object
  // codec, which libzarr lacks); see docs/dtypes.md for every accepted form.
  std::optional<Bytes> parse_fill_value_v2(const rapidjson::Value& fill,
                                           const std::string& where) const;

  // Serialise a native-order fill value (or null) as zarr-python 2.13 does.
  // ZARR_ERR_INVALID_ARGUMENT when fill is not item_size() bytes, or for U
  // when it holds a code unit that is not a Unicode scalar value. Float8 values
  // are written as Python's repr of their exact double value (or "NaN" /
  // "Infinity" / "-Infinity"), which parses back to the same code except for
  // NaN payloads; the sub-byte integers as the integer their low bits hold.
  std::string fill_value_to_v2_json(const std::optional<Bytes>& fill) const;

  // Fill value handling for the v3 "fill_value" member (the spec's permitted
  // values, and those of the extension types above). Returns item_size() bytes
  // in native byte order; for VarString / VarBytes the value itself (UTF-8
  // text / the bytes, any length). v3 has no null fill value.
  //   bool: true/false. Integers: a JSON integer in range (no fraction or
  //   exponent). float16/32/64, bfloat16: a number (rounded to nearest, ties
  //   to even), "NaN", "Infinity", "-Infinity", or "0x" + exactly 2*item_size
  //   hex digits giving the raw bits; the small floats: the same forms ("0x" +
  //   2 hex digits, no bit above the format's), with "NaN" only where the
  //   format has a NaN and "Infinity" only where it has infinities, as the
  //   registry says; numbers as float8_accepts_fill. int2/int4/uint2/uint4: a
  //   JSON integer in range. complex: [re, im], each part a float form of the
  //   half's type. r<bits>: a list of bits/8 integers in [0, 255].
  //   datetime/timedelta: an int64 or "NaT". fixed_length_utf32: a string of at
  //   most N/4 characters (NUL-padded). string: a string. null_terminated_bytes
  //   (S), raw_bytes (V): base64 (zero-padded to the size). variable_length_bytes:
  //   base64 or a list of integers in [0, 255].
  // ZARR_ERR_INVALID_METADATA naming `where` and "fill_value" for a value of the
  // wrong JSON type, out of range, too long, or malformed; ZARR_ERR_UNSUPPORTED
  // for types without a v3 form (structured, object).
  Bytes parse_fill_value_v3(const rapidjson::Value& fill, const std::string& where) const;

  // Serialise a native-order fill value as zarr-python 3 writes it: integers,
  // true/false, floats as Python's repr ("0.0", "1e-05") or "NaN" /
  // "Infinity" / "-Infinity" (a NaN other than the spec's canonical one as its
  // "0x..." bit pattern, so it survives), [re, im], lists of byte values for
  // r<bits>, int64 for times (NaT is -9223372036854775808), strings for
  // fixed_length_utf32 (trailing NULs dropped) and string, base64 for the byte
  // types (null_terminated_bytes without trailing NULs, as numpy's bytes_),
  // {"field": value, ...} in field order for struct.
  // ZARR_ERR_INVALID_ARGUMENT when a fixed-size fill is not item_size() bytes,
  // or a text value is not valid UTF-8 / Unicode.
  std::string fill_value_to_v3_json(const Bytes& fill) const;

  // The fill value zarr-python 3 records when a user gives none: false, 0,
  // 0.0, NaT for datetime/timedelta, "" (empty) for the string and byte types
  // (zero bytes for fixed sizes).
  Bytes default_fill_value_v3() const;

 private:
  // How a type was spelled in v3, where one kind has several spellings.
  enum class V3Form : uint8_t {
    Default,      // the only / zarr-python 3's preferred spelling
    RawBits,      // Void read as "r<bits>"
    ComplexAlias, // complex64 / complex128 read as "complex_float32" / "complex_float64"
    RegistryBytes,  // VarBytes read as the registry's "bytes" (not zarr-python 3's "variable_length_bytes")
  };
  DTypeKind kind_ = DTypeKind::UInt;
  size_t item_size_ = 1;
  bool big_endian_ = false;
  std::string time_unit_;
  std::vector<Field> fields_;
  std::string typestr_;  // normalised typestr for simple types ("|u1", ">M8[10ms]")
  bool needs_swap_ = false;  // computed once at parse time: swapping runs per chunk
  V3Form v3_form_ = V3Form::Default;
  dtype_detail::Float8Format float8_format_ = dtype_detail::Float8Format::E4M3FN;
  int sub_byte_bits_ = 4;
  DTypeKind complex_component_ = DTypeKind::Float;
  std::shared_ptr<const DataType> optional_inner_;  // Optional only

  static DataType parse_typestr(const std::string& text, const std::string& where);
  static DataType parse_fields(const rapidjson::Value& list, const std::string& where);
  // Structured types, v2 and v3: append `field` after the last one (packed,
  // numpy's aligned=False layout), refusing a name already in `names` and a
  // record past numpy's item size limit (errors name `where`).
  void append_field(Field field, std::set<std::string>& names, const std::string& where);
  static DataType parse_v3_struct(const std::string& name, const rapidjson::Value* configuration,
                                  const std::string& where);
  // Bytes of one byte-ordered component: 2/4/8 for numbers, half a complex,
  // 4 for U, 1 (nothing to swap) for b1/S/V/O and structured types.
  size_t swap_unit() const;
  std::string fields_to_json() const;
  std::string struct_json() const;  // to_v3_json of a structured type
  // v3 helpers (v3_types.cpp).
  static DataType parse_v3_name(const std::string& name, const rapidjson::Value* configuration,
                                const std::string& where);
  static DataType make_bfloat16();
  // The TensorStore extension types by name ("int4", "float8_e5m2", ...), in
  // v2 and v3 alike; std::nullopt for other names.
  static std::optional<DataType> from_tensorstore_name(const std::string& name);
  static DataType make_variable(DTypeKind kind);
  // zarrs' "optional" (optional_type.cpp): the configuration is the inner
  // type's {"name", "configuration"}; its JSON back, its fill values.
  static DataType parse_v3_optional(const rapidjson::Value* configuration, const std::string& where);
  std::string optional_json() const;
  Bytes optional_fill(const rapidjson::Value& fill, const std::string& where) const;
  std::string optional_fill_json(const uint8_t* data) const;
  // The registry's complex types by name ("complex_float16", "complex_bfloat16",
  // "complex_float8_e4m3", the aliases "complex_float32" / "complex_float64"),
  // in host byte order; std::nullopt for other names.
  static std::optional<DataType> from_complex_name(const std::string& name);
  // True for types numpy has no typestr for (bfloat16, the complex types of
  // half-size or small float components): their byte order is a flag only.
  bool lacks_numpy_typestr() const;
};

}  // namespace zarr
