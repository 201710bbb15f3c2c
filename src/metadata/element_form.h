// How an array's elements are named in each format: the v3 data type and the
// array->bytes codec that stores them, or the v2 dtype and the object codec
// of an object ("|O") array. One mapping for zarr_create_from_desc,
// zarr_migrate_v2_to_v3, the chunk representation of v2 object arrays and
// zarr_data_type_form (which zarrtool's create and cp use).
#pragma once

#include <string>

#include "dtype/data_type.h"

namespace zarr {

// A data type as a caller spells it: a NumPy typestr ("<U6", "|S2",
// "<M8[10s]"), a v3 name ("int32", "string", "bfloat16"), or JSON text of
// either format's data type member ("\"<i4\"", a v2 field list, a v3
// {"name": ..., "configuration": ...} object). Errors name `where`:
// ZARR_ERR_INVALID_ARGUMENT for empty or malformed text, ZARR_ERR_UNSUPPORTED
// for an unknown type.
DataType parse_data_type_text(const std::string& text, const std::string& where);

// The v3 data type name of an object codec's elements: "variable_length_bytes"
// for vlen-bytes, "string" for vlen-utf8 (and json2, whose elements read as
// JSON text).
std::string object_codec_v3_name(const std::string& object_codec_id);

// Zarr v3: data_type and the array->bytes codec (JSON texts): "bytes" with the
// stored byte order ("endian" only for types that have one), "vlen-utf8" for
// "string", "vlen-bytes" for "variable_length_bytes". An Object type takes its
// form from object_codec_json (the v2 filter, e.g. {"id":"vlen-utf8"}).
// ZARR_ERR_UNSUPPORTED naming `where` for structured types, for the json2
// object codec and for an Object type without an object codec.
struct V3ElementForm {
  std::string data_type;
  std::string serializer;
};
V3ElementForm v3_element_form(const DataType& type, const std::string& object_codec_json, const std::string& where);

// Zarr v2: dtype (JSON text) and the object codec, the first filter of an
// object array ({"id":"vlen-utf8"} for "string", {"id":"vlen-bytes"} for
// "variable_length_bytes", object_codec_json for "|O"; "" for every other
// type). ZARR_ERR_UNSUPPORTED naming `where` for "|O" without an object codec.
struct V2ElementForm {
  std::string dtype;
  std::string object_codec;
};
V2ElementForm v2_element_form(const DataType& type, const std::string& object_codec_json, const std::string& where);

// zarr_data_type_form: {"data_type": ..., "serializer": ...} (zarr_format 3)
// or {"dtype": ..., "object_codec": ... or null} (2) for a data type text and
// an optional object codec (""). ZARR_ERR_INVALID_ARGUMENT for another
// format or object codec text that is not a JSON object with an "id".
std::string data_type_form_json(const std::string& data_type, const std::string& object_codec_json, int zarr_format);

}  // namespace zarr
